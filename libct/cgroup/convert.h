/* Value conversions between the OCI resources and the cgroup files (v1 and v2), as runc and
 * crun map them. Pure, for libct/cgroup/resources.c and the unit tests. */
#ifndef CT_CGROUP_CONVERT_H
#define CT_CGROUP_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/base/pathbuf.h"
#include "libct/cgroup/device_rules.h"

/* cpu.shares [2, 262144] -> cpu.weight [1, 10000]; 0 (unset) stays 0. */
uint64_t ct_cgroup_shares_to_weight(uint64_t shares);
/* blkio.weight [10, 1000] -> io.weight [1, 10000]; 0 stays 0. */
uint64_t ct_cgroup_blkio_to_io_weight(uint64_t weight);

/* A memory-like limit: v1 takes "-1" for no limit, v2 "max"; any negative is no limit. */
void ct_cgroup_format_limit(int64_t v, bool v2, char *buf, size_t size);

/* memory.swap is the limit of memory+swap (config-linux.md#memory). v1 writes it as is to
 * memory.memsw.limit_in_bytes; v2's memory.swap.max is swap alone: swap - limit, "max" for
 * -1. Refused (naming .linux.resources.memory.swap) when smaller than the memory limit or
 * given without one. *out: -1 for "max". */
int ct_cgroup_swap_to_v2(int64_t swap, bool has_limit, int64_t limit, int64_t *out,
			 struct ct_error *err);

/* cpu.max: "QUOTA PERIOD", "max" for a quota <= 0 or none, the period only when given. */
void ct_cgroup_format_cpu_max(bool has_quota, int64_t quota, bool has_period, uint64_t period,
			      char *buf, size_t size);

/* A device number of a rule: "*" when absent (devices.allow "c *:* m"); returns its length. */
size_t ct_cgroup_format_devnum(bool has, int64_t v, char buf[CT_DEC_MAX]);

/* A v1 devices.allow / devices.deny rule: "c 1:3 rwm", "a *:* rwm" (type, two 19-digit
 * numbers at most, three letters). Put together by hand, not by snprintf: a run writes
 * ~15 of them. */
#define CT_DEV_RULE_MAX 48
void ct_cgroup_format_dev_rule(const struct ct_dev_rule *r, char buf[CT_DEV_RULE_MAX]);

#endif
