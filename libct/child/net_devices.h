/* The init's side of .linux.netDevices (libct/parent/net_devices.h): in its network namespace,
 * it makes an rtnetlink socket there and hands it to the parent, which moves the devices in,
 * then waits for the parent's word. A config without network devices pays nothing. */
#ifndef CT_CHILD_NET_DEVICES_H
#define CT_CHILD_NET_DEVICES_H

#include "libct/child/steps.h"

/* After the loopback is up, before the hooks: prestart and createRuntime see the devices. */
extern const struct ct_step ct_init_net_devices;

#endif
