/* linux.resources.devices (config-linux.md#configLinuxDeviceAllowedlist) as the list of rules
 * a cgroup device filter enforces: v1 writes them to devices.allow/deny, v2 compiles them to
 * BPF (libct/cgroup/bpf_devices.h). Pure: no syscalls.
 *
 * Semantics, as runc and crun give them: the rules apply in order, the last rule that matches
 * a device decides, a device no rule matches is denied. A request asks for one or more
 * accesses at once (open O_RDWR asks read and write); each access is decided on its own by the
 * last matching rule that names it, and the request passes only when every access does,
 * which is what cgroup v1 does by merging the exceptions of one device. After the config's
 * rules come the devices every container needs (ct_dev_rules_standard), as runc and crun
 * append them: a config that denies everything still gets /dev/null, /dev/tty, ... */
#ifndef CT_CGROUP_DEVICE_RULES_H
#define CT_CGROUP_DEVICE_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "oci/config.h"

/* The access bits, the values of the kernel's BPF_DEVCG_ACC_* (linux/bpf.h). */
enum {
	CT_DEV_ACC_MKNOD = 1,
	CT_DEV_ACC_READ = 2,
	CT_DEV_ACC_WRITE = 4,
	CT_DEV_ACC_ALL = 7,
};

#define CT_DEV_ANY (-1) /* a major or minor that matches every number */

struct ct_dev_rule {
	bool allow;
	char type;	      /* 'a' (any), 'b' or 'c' */
	int64_t major, minor; /* CT_DEV_ANY or a number */
	unsigned access;      /* CT_DEV_ACC_* bits; 0 decides nothing */
};

struct ct_dev_rules {
	struct ct_dev_rule *items;
	size_t len;
};

/* The rules every container gets after its own, runc's: mknod of any node (c *:* m,
 * b *:* m), and null, zero, full, random, urandom, tty, ptmx (5:2), tun (10:200) and the pty
 * slaves (136:*), read, write and mknod. */
extern const struct ct_dev_rule ct_dev_rules_standard[];
extern const size_t ct_dev_rules_standard_len;

/* The config's rules (may be NULL: none) in order, then the standard ones. The config was
 * checked by oci/ (type a/b/c, access of r/w/m, numbers -1 or unsigned 32-bit). */
int ct_dev_rules_build(const struct oci_resources *res, struct ct_dev_rules *out,
		       struct ct_error *err);
void ct_dev_rules_free(struct ct_dev_rules *rules);

/* The access bits of "rwm"-style text, or CT_DEV_ACC_ALL for NULL (absent). */
unsigned ct_dev_access_bits(const char *access);

#endif
