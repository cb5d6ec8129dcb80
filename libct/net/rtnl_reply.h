/* The kernel's rtnetlink replies read (netlink(7), rtnetlink(7)): every length checked
 * against the bytes received, so that a short or lying message is refused, never read
 * past. Pure; tests/fuzz/fuzz_rtnl_reply.c feeds it anything. */
#ifndef CT_RTNL_REPLY_H
#define CT_RTNL_REPLY_H

#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/net/netaddr.h"

/* The message at *off of the len bytes at buf, *off moved past it; NULL at the end, or with
 * *bad set when what is left is not a whole message. */
const struct nlmsghdr *ct_rtnl_next(const void *buf, size_t len, size_t *off, bool *bad);

/* NLMSG_ERROR: *errnum 0 for an acknowledgement, else the errno; text gets the extended
 * acknowledgement's message, printable ASCII, "" without one. -1: not a whole error. */
int ct_rtnl_parse_error(const struct nlmsghdr *h, int *errnum, char *text, size_t size);

/* NLMSG_DONE: *errnum 0 for a dump that ended well, else the errno that cut it short (its
 * messages are not all there). -1: not a whole NLMSG_DONE. */
int ct_rtnl_parse_done(const struct nlmsghdr *h, int *errnum);

/* RTM_NEWLINK: the device's index and name. -1: malformed, or without a name. */
int ct_rtnl_parse_link(const struct nlmsghdr *h, uint32_t *ifindex, char name[IFNAMSIZ]);

/* RTM_NEWADDR: the address. -1: malformed, or of a family other than IPv4 and IPv6. */
int ct_rtnl_parse_addr(const struct nlmsghdr *h, struct ct_netaddr *a);

/* What moving a device keeps (config-linux.md#configLinuxNetworkDevices): a permanent
 * address of global scope. */
bool ct_netaddr_is_kept(const struct ct_netaddr *a);

#endif
