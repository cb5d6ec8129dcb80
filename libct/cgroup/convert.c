/* Value conversions between OCI resources and cgroup files (libct/cgroup/convert.h). */
#include "libct/cgroup/convert.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

/* v (0: unset, kept) clamped to [min, max] and mapped onto cgroup v2's weights 1..10000:
 * the kernel's own mapping of the two ranges onto each other, as runc and crun use */
static uint64_t to_weight(uint64_t v, uint64_t min, uint64_t max)
{
	if (v == 0)
		return 0;
	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return 1 + ((v - min) * 9999) / (max - min);
}

uint64_t ct_cgroup_shares_to_weight(uint64_t shares)
{
	return to_weight(shares, 2, 262144);
}

uint64_t ct_cgroup_blkio_to_io_weight(uint64_t weight)
{
	return to_weight(weight, 10, 1000);
}

void ct_cgroup_format_limit(int64_t v, bool v2, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "%s", v2 ? "max" : "-1");
	else
		snprintf(buf, size, "%" PRId64, v);
}

int ct_cgroup_swap_to_v2(int64_t swap, bool has_limit, int64_t limit, int64_t *out,
			 struct ct_error *err)
{
	if (swap < 0) {
		*out = -1;
		return 0;
	}
	if (!has_limit || limit < 0)
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.resources.memory.swap: a limit of "
				      "memory+swap needs .memory.limit too on cgroup v2");
	if (swap < limit)
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.resources.memory.swap: %" PRId64
				      " is below .memory.limit %" PRId64
				      " (swap is the limit of memory+swap)",
				      swap, limit);
	*out = swap - limit;
	return 0;
}

void ct_cgroup_format_cpu_max(bool has_quota, int64_t quota, bool has_period, uint64_t period,
			      char *buf, size_t size)
{
	int n;
	if (has_quota && quota > 0)
		n = snprintf(buf, size, "%" PRId64, quota);
	else
		n = snprintf(buf, size, "max");
	if (has_period && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " %" PRIu64, period);
}

size_t ct_cgroup_format_devnum(bool has, int64_t v, char buf[CT_DEC_MAX])
{
	if (has && v >= 0)
		return ct_format_dec(buf, (uint64_t)v);
	buf[0] = '*';
	buf[1] = '\0';
	return 1;
}

void ct_cgroup_format_dev_rule(const struct ct_dev_rule *r, char buf[CT_DEV_RULE_MAX])
{
	size_t n = 0;
	buf[n++] = r->type;
	buf[n++] = ' ';
	n += ct_cgroup_format_devnum(r->major != CT_DEV_ANY, r->major, buf + n);
	buf[n++] = ':';
	n += ct_cgroup_format_devnum(r->minor != CT_DEV_ANY, r->minor, buf + n);
	buf[n++] = ' ';
	if (r->access & CT_DEV_ACC_READ)
		buf[n++] = 'r';
	if (r->access & CT_DEV_ACC_WRITE)
		buf[n++] = 'w';
	if (r->access & CT_DEV_ACC_MKNOD)
		buf[n++] = 'm';
	buf[n] = '\0';
}
