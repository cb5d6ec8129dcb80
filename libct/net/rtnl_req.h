/* The rtnetlink requests that move a network device into a container (rtnetlink(7)),
 * built, not sent (libct/net/rtnl.h sends them). Pure. */
#ifndef CT_RTNL_REQ_H
#define CT_RTNL_REQ_H

#include <stdint.h>

#include "libct/net/netaddr.h"
#include "libct/net/nlmsg.h"

/* RTM_GETLINK of the device named name. */
void ct_rtnl_req_link_by_name(struct ct_nlmsg *m, const char *name);
/* RTM_GETLINK of the device with index ifindex. */
void ct_rtnl_req_link_by_index(struct ct_nlmsg *m, uint32_t ifindex);
/* RTM_GETADDR dump of every address, both families. */
void ct_rtnl_req_addr_dump(struct ct_nlmsg *m);
/* RTM_NEWLINK: device ifindex into the network namespace of netns_fd, there with index
 * new_ifindex and named name (a "%d" template numbered by the kernel). */
void ct_rtnl_req_move(struct ct_nlmsg *m, uint32_t ifindex, int netns_fd, uint32_t new_ifindex,
		      const char *name);
/* RTM_NEWADDR of a on device ifindex. */
void ct_rtnl_req_addr_add(struct ct_nlmsg *m, uint32_t ifindex, const struct ct_netaddr *a);
/* RTM_NEWLINK setting IFF_UP on device ifindex, its other flags kept. */
void ct_rtnl_req_link_up(struct ct_nlmsg *m, uint32_t ifindex);

#endif
