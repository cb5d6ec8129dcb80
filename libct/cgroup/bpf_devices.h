/* The cgroup v2 device controller: a BPF_PROG_TYPE_CGROUP_DEVICE program compiled from the
 * rules of libct/cgroup/device_rules.h, loaded with bpf(BPF_PROG_LOAD) and attached to the
 * container's cgroup directory (BPF_F_ALLOW_MULTI). Raw instructions, no libbpf.
 *
 * The program sees each device access as { access_type = access << 16 | type, major, minor }
 * and returns 1 (allow) or 0 (deny, the caller gets EPERM). It walks the rules from the last
 * to the first, so the last matching rule decides each access bit:
 *
 *	r2 = access bits still undecided; r3 = device type; r4 = major; r5 = minor
 *	for each rule, last first:
 *		type, major or minor differs            -> next rule
 *		deny  and r2 & access                   -> return 0
 *		allow: r2 &= ~access; r2 == 0           -> return 1
 *	return 0
 *
 * A rule that matches every device and every access ends the walk: the rules before it
 * can decide nothing. */
#ifndef CT_CGROUP_BPF_DEVICES_H
#define CT_CGROUP_BPF_DEVICES_H

#include <linux/bpf.h>
#include <stddef.h>

#include "libct/base/error.h"
#include "libct/cgroup/device_rules.h"

struct ct_bpf_prog {
	struct bpf_insn *insns;
	size_t len;
};

/* rules -> instructions (pure). */
int ct_bpf_devices_compile(const struct ct_dev_rule *rules, size_t n, struct ct_bpf_prog *out,
			   struct ct_error *err);
void ct_bpf_prog_free(struct ct_bpf_prog *prog);

/* bpf(BPF_PROG_LOAD) of a device program: its fd (O_CLOEXEC), or -1. A refusal says why
 * (no bpf() in this kernel, not allowed to this process, the verifier's last word). */
int ct_bpf_devices_load(const struct ct_bpf_prog *prog, struct ct_error *err);

/* Attaches prog_fd to the cgroup directory cgroup_fd, then detaches every device program that
 * was attached there before (BPF_PROG_QUERY): an `update` replaces the filter, and between
 * the two steps both filters apply, so no access slips through. */
int ct_bpf_devices_install(int cgroup_fd, int prog_fd, struct ct_error *err);

/* The number of device programs attached to cgroup_fd itself, or -1. */
int ct_bpf_devices_count(int cgroup_fd, struct ct_error *err);

/* The whole step of a v2 driver: the rules of res (NULL: none but the standard ones), their
 * program, loaded and installed on cgroup_fd. */
int ct_bpf_devices_apply(int cgroup_fd, const struct oci_resources *res, struct ct_error *err);

#endif
