/* The init asks the parent to move the network devices in (libct/child/net_devices.h). */
#include "libct/child/net_devices.h"

#include <errno.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#include "libct/base/cleanup.h"
#include "libct/plan/plan.h"
#include "libct/plan/sync.h"

/* The socket is made by the init, root in the namespace's user namespace, so that what the
 * parent sends on it is allowed there (netlink_ns_capable asks the socket's opener too). */
static int ask_parent(const struct ct_plan_sync *sync, struct ct_error *err)
{
	_cleanup_close_ int rtnl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (rtnl < 0)
		return ct_error_sys(err, errno, "open an rtnetlink socket");
	if (ct_sync_send_net_devices(sync->fd, rtnl, err) < 0)
		return -1;
	return ct_sync_expect(sync->fd, CT_SYNC_NET_DEVICES_DONE, "the network devices", err);
}

static int net_devices_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	const struct ct_init_plan *plan = ctx->plan;
	if (!plan->config->linux_.net_devices.len)
		return 0;
	return ask_parent(&plan->sync, err);
}

const struct ct_step ct_init_net_devices = {"net-devices", net_devices_row};
