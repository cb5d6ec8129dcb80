/* rtnetlink requests built (libct/net/rtnl_req.h). */
#include "libct/net/rtnl_req.h"

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/socket.h>

/* The flags that say how an address behaves, as `ip address add` may set them; the state
 * flags (tentative, deprecated...) belong to the old device's life and are the kernel's. */
#define ADDR_KEPT_FLAGS \
	(IFA_F_NODAD | IFA_F_HOMEADDRESS | IFA_F_MANAGETEMPADDR | IFA_F_NOPREFIXROUTE)

static void link_request(struct ct_nlmsg *m, uint16_t type, uint16_t flags, uint32_t ifindex)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = (int)ifindex};
	ct_nlmsg_init(m, type, flags, &ifi, sizeof(ifi));
}

void ct_rtnl_req_link_by_name(struct ct_nlmsg *m, const char *name)
{
	link_request(m, RTM_GETLINK, 0, 0);
	ct_nlmsg_put_str(m, IFLA_IFNAME, name);
	/* only what identifies the device: no statistics */
	ct_nlmsg_put_u32(m, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
}

void ct_rtnl_req_link_by_index(struct ct_nlmsg *m, uint32_t ifindex)
{
	link_request(m, RTM_GETLINK, 0, ifindex);
	ct_nlmsg_put_u32(m, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
}

void ct_rtnl_req_addr_dump(struct ct_nlmsg *m)
{
	struct ifaddrmsg ifa = {.ifa_family = AF_UNSPEC};
	ct_nlmsg_init(m, RTM_GETADDR, NLM_F_DUMP, &ifa, sizeof(ifa));
}

void ct_rtnl_req_move(struct ct_nlmsg *m, uint32_t ifindex, int netns_fd, uint32_t new_ifindex,
		      const char *name)
{
	link_request(m, RTM_NEWLINK, NLM_F_ACK, ifindex);
	ct_nlmsg_put_u32(m, IFLA_NET_NS_FD, (uint32_t)netns_fd);
	ct_nlmsg_put_u32(m, IFLA_NEW_IFINDEX, new_ifindex);
	ct_nlmsg_put_str(m, IFLA_IFNAME, name);
}

void ct_rtnl_req_addr_add(struct ct_nlmsg *m, uint32_t ifindex, const struct ct_netaddr *a)
{
	unsigned size = ct_netaddr_size(a->family);
	uint32_t flags = a->flags & ADDR_KEPT_FLAGS;
	struct ifaddrmsg ifa = {.ifa_family = a->family,
				.ifa_prefixlen = a->prefixlen,
				.ifa_flags = (uint8_t)flags,
				.ifa_scope = a->scope,
				.ifa_index = ifindex};
	ct_nlmsg_init(m, RTM_NEWADDR, NLM_F_ACK | NLM_F_CREATE | NLM_F_REPLACE, &ifa, sizeof(ifa));
	if (a->has_local)
		ct_nlmsg_put(m, IFA_LOCAL, a->local, size);
	if (a->has_address)
		ct_nlmsg_put(m, IFA_ADDRESS, a->address, size);
	if (a->has_broadcast && a->family == AF_INET)
		ct_nlmsg_put(m, IFA_BROADCAST, a->broadcast, 4);
	if (flags > 0xff)
		ct_nlmsg_put_u32(m, IFA_FLAGS, flags);
}

void ct_rtnl_req_link_up(struct ct_nlmsg *m, uint32_t ifindex)
{
	link_request(m, RTM_NEWLINK, NLM_F_ACK, ifindex);
	struct ifinfomsg *ifi = ct_nlmsg_body(m);
	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
}
