/* config-linux.md#configLinuxNetworkDevices: the devices of .linux.netDevices moved from the
 * runtime's network namespace into the container's, renamed, with their permanent global
 * addresses (which a move drops) given back and their link up. The parent does it all, on
 * the init's word (libct/plan/sync.h: NET_DEVICES): it holds the privilege over the
 * runtime's namespace, and the init's rtnetlink socket works in the container's.
 *
 * A failure leaves the devices moved so far where they are: in a network namespace the
 * container made, which goes with the failed create's init, a virtual device (veth,
 * macvlan) is destroyed with it and a physical one goes back to the host's initial
 * namespace (network_namespaces(7)); in a namespace joined by path, they stay there.
 * Delete moves nothing back, as the spec asks. */
#ifndef CT_NET_DEVICES_H
#define CT_NET_DEVICES_H

#include "libct/base/error.h"
#include "oci/config.h"

/* Moves every device of c's .linux.netDevices into the network namespace of container_rtnl,
 * a NETLINK_ROUTE socket made there. Errors name the device's JSON path. */
int ct_net_devices_move(const struct oci_config *c, int container_rtnl, struct ct_error *err);

#endif
