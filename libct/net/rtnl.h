/* An rtnetlink socket used: requests sent, their replies read and checked (rtnetlink(7)).
 * The socket works in the network namespace it was made in. */
#ifndef CT_RTNL_H
#define CT_RTNL_H

#include <linux/netlink.h>
#include <net/if.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/net/netaddr.h"
#include "libct/net/nlmsg.h"

/* A NETLINK_ROUTE socket of the caller's network namespace. */
int ct_rtnl_open(struct ct_error *err);
/* Connects sock to the kernel, which then refuses what any other sender addresses to it: a
 * process with CAP_NET_ADMIN in a network namespace the container shares could otherwise
 * answer a request (sequence numbers are easy to guess) in the kernel's place. */
int ct_rtnl_kernel_only(int sock, struct ct_error *err);
/* Asks the kernel for its extended acknowledgements' messages on sock, capped (no request
 * quoted back); best effort: an older kernel's errors come without them. */
void ct_rtnl_ask_messages(int sock);

/* Called on every data message of a reply; -1 stops with err set. */
typedef int (*ct_rtnl_each_fn)(const struct nlmsghdr *h, void *arg, struct ct_error *err);

/* Sends m and reads its reply to the end (the acknowledgement, an error, or a dump's
 * NLMSG_DONE), each data message given to each (NULL: none expected). A refusal is the
 * kernel's errno with its message, if any: "<strerror> (<message>)" after what. */
int ct_rtnl_call(int sock, struct ct_nlmsg *m, ct_rtnl_each_fn each, void *arg,
		 const char *what, struct ct_error *err);

/* The index and name of the device named name (ENODEV when there is none). */
int ct_rtnl_link_by_name(int sock, const char *name, uint32_t *ifindex, struct ct_error *err);
/* The name of the device with index ifindex (ENODEV when there is none). */
int ct_rtnl_link_by_index(int sock, uint32_t ifindex, char name[IFNAMSIZ], struct ct_error *err);

#endif
