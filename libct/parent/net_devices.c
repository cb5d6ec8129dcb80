/* Network devices moved into the container (libct/parent/net_devices.h). */
#include "libct/parent/net_devices.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/sockios.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "libct/base/cleanup.h"
#include "libct/net/rtnl.h"
#include "libct/net/rtnl_reply.h"
#include "libct/net/rtnl_req.h"
#include "oci/ifname.h"
#include "oci/jsonpath.h"

/* A free index is looked for from the device's own on; a namespace holds far fewer. */
#define INDEX_PROBES 4096
/* An interrupted dump is read again this many times in all: addresses seldom change so fast. */
#define ADDR_DUMP_TRIES 3

/* The sockets and the namespace the devices go between. */
struct net_move {
	int host;      /* rtnetlink in the runtime's network namespace */
	int container; /* rtnetlink in the container's */
	int netns;     /* the container's network namespace */
};

struct kept_addrs {
	uint32_t ifindex;
	struct ct_netaddr *items;
	size_t len, cap;
};

static int keep_addr(const struct nlmsghdr *h, void *arg, struct ct_error *err)
{
	struct kept_addrs *k = arg;
	struct ct_netaddr a;
	/* another family's (none is asked for) or an odd one: not one to keep */
	if (ct_rtnl_parse_addr(h, &a) < 0 || a.ifindex != k->ifindex || !ct_netaddr_is_kept(&a))
		return 0;
	if (k->len == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 4;
		struct ct_netaddr *items = reallocarray(k->items, cap, sizeof(*items));
		if (!items)
			return ct_error_sys(err, ENOMEM, "keep an address");
		k->items = items;
		k->cap = cap;
	}
	k->items[k->len++] = a;
	return 0;
}

/* config-linux.md: the permanent addresses of global scope, both families, read before the
 * move drops them. A dump an address change interrupted (EAGAIN) may miss one: read again. */
static int read_addrs(int host, struct kept_addrs *k, struct ct_error *err)
{
	for (int tries = 1;; tries++) {
		struct ct_nlmsg m;
		ct_rtnl_req_addr_dump(&m);
		k->len = 0;
		if (ct_rtnl_call(host, &m, keep_addr, k, "read the device's addresses", err) == 0)
			return 0;
		if (err->errnum != EAGAIN || tries == ADDR_DUMP_TRIES)
			return -1;
	}
}

static int host_index(int host, const char *key, uint32_t *ifindex, struct ct_error *err)
{
	if (ct_rtnl_link_by_name(host, key, ifindex, err) == 0)
		return 0;
	if (err->errnum == ENODEV)
		return ct_error_plain(err, ENODEV,
				      "no network device \"%s\" in the runtime's network namespace",
				      key);
	return -1;
}

/* A name the container's namespace has is refused before the device leaves the host: the
 * kernel would refuse the rename only once the device is there. */
static int check_name_free(int container, const char *name, struct ct_error *err)
{
	struct ct_error lookup = {0};
	uint32_t taken;
	if (oci_ifname_is_template(name))
		return 0;
	if (ct_rtnl_link_by_name(container, name, &taken, &lookup) == 0)
		return ct_error_plain(err, EEXIST,
				      "the name \"%s\" is taken in the container's network namespace",
				      name);
	if (lookup.errnum == ENODEV)
		return 0;
	*err = lookup;
	return -1;
}

/* The index the device gets there: its own when free (the kernel's choice too), else the
 * next free one; asked for by IFLA_NEW_IFINDEX, so that it is known whatever the name. */
static int container_index(int container, uint32_t ifindex, uint32_t *out, struct ct_error *err)
{
	for (uint32_t i = ifindex; i < ifindex + INDEX_PROBES && i <= INT32_MAX; i++) {
		char name[IFNAMSIZ];
		struct ct_error lookup = {0};
		if (ct_rtnl_link_by_index(container, i, name, &lookup) == 0)
			continue;
		if (lookup.errnum != ENODEV) {
			*err = lookup;
			return -1;
		}
		*out = i;
		return 0;
	}
	return ct_error_plain(err, ENOSPC, "no free device index in the container's network "
					   "namespace from %u on",
			      ifindex);
}

static int move_link(const struct net_move *nm, uint32_t ifindex, uint32_t new_ifindex,
		     const char *name, struct ct_error *err)
{
	struct ct_nlmsg m;
	ct_rtnl_req_move(&m, ifindex, nm->netns, new_ifindex, name);
	int rc = ct_rtnl_call(nm->host, &m, NULL, NULL,
			      "move it into the container's network namespace", err);
	if (rc < 0 && err->errnum == EEXIST)
		return ct_error_plain(err, EEXIST,
				      "the name \"%s\" is taken in the container's network namespace",
				      name);
	return rc;
}

static int add_addr(int container, uint32_t ifindex, const struct ct_netaddr *a,
		    struct ct_error *err)
{
	char text[INET6_ADDRSTRLEN], what[INET6_ADDRSTRLEN + 32];
	inet_ntop(a->family, a->has_local ? a->local : a->address, text, sizeof(text));
	snprintf(what, sizeof(what), "add address %s/%u", text, a->prefixlen);
	struct ct_nlmsg m;
	ct_rtnl_req_addr_add(&m, ifindex, a);
	return ct_rtnl_call(container, &m, NULL, NULL, what, err);
}

static int set_up(int container, uint32_t ifindex, struct ct_error *err)
{
	struct ct_nlmsg m;
	ct_rtnl_req_link_up(&m, ifindex);
	return ct_rtnl_call(container, &m, NULL, NULL, "set the link up", err);
}

static int move_one(const struct net_move *nm, const struct oci_net_device *d,
		    struct ct_error *err)
{
	const char *name = oci_net_device_name(d);
	struct kept_addrs kept = {0};
	uint32_t new_ifindex;
	int rc = -1;
	if (host_index(nm->host, d->key, &kept.ifindex, err) < 0 ||
	    read_addrs(nm->host, &kept, err) < 0 || check_name_free(nm->container, name, err) < 0 ||
	    container_index(nm->container, kept.ifindex, &new_ifindex, err) < 0 ||
	    move_link(nm, kept.ifindex, new_ifindex, name, err) < 0)
		goto out;
	for (size_t i = 0; i < kept.len; i++)
		if (add_addr(nm->container, new_ifindex, &kept.items[i], err) < 0)
			goto out;
	rc = set_up(nm->container, new_ifindex, err);
out:
	free(kept.items);
	return rc;
}

/* "config.json: .linux.netDevices.eth0: " before what went wrong. */
static int name_device(const struct oci_net_device *d, struct ct_error *err)
{
	char at[128] = ".linux.netDevices";
	oci_path_append(at, sizeof(at), strlen(at), &(struct oci_path_step){.name = d->key});
	return ct_error_prefix(err, "config.json: %s", at);
}

int ct_net_devices_move(const struct oci_config *c, int container_rtnl, struct ct_error *err)
{
	const struct oci_linux *lx = &c->linux_;
	_cleanup_close_ int host = ct_rtnl_open(err);
	if (host < 0)
		return -1;
	_cleanup_close_ int netns = ioctl(container_rtnl, SIOCGSKNS);
	if (netns < 0)
		return ct_error_sys(err, errno, "open the container's network namespace");
	if (ct_rtnl_kernel_only(host, err) < 0 || ct_rtnl_kernel_only(container_rtnl, err) < 0)
		return -1;
	ct_rtnl_ask_messages(host);
	ct_rtnl_ask_messages(container_rtnl);
	struct net_move nm = {.host = host, .container = container_rtnl, .netns = netns};
	for (size_t i = 0; i < lx->net_devices.len; i++)
		if (move_one(&nm, &lx->net_devices.items[i], err) < 0)
			return name_device(&lx->net_devices.items[i], err);
	return 0;
}
