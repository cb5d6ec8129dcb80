/* The v1 cpuset controller's statistics, runc's CPUSetStats: the cpu and node lists expanded,
 * the flags and sched_relax_domain_level (which may be -1). A file that is not there leaves
 * its field 0, as runc does. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/cpuset_list.h"
#include "libct/cgroup/internal.h"

static int read_list(const char *dir, const char *file, uint16_t **out, size_t *n,
		     struct ct_error *err)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	if (!text)
		return 0;
	if (ct_cpuset_list_parse(text, out, n) == 0)
		return 0;
	if (errno == ENOMEM)
		return ct_error_sys(err, ENOMEM, "read \"%s/%s\"", dir, file);
	return ct_error_plain(err, EINVAL, "\"%s/%s\": not a cpu or node list: \"%.*s\"", dir, file,
			      (int)strcspn(text, "\n"), text);
}

static void read_s64(const char *dir, const char *file, int64_t *out)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	long long v;
	if (text && sscanf(text, "%lld", &v) == 1)
		*out = v;
}

int ct_cg_cpuset_stats(const char *dir, struct ct_cgroup_stats *st, struct ct_error *err)
{
	static const struct {
		const char *file;
		size_t offset;
	} flags[] = {
		{"cpuset.cpu_exclusive", offsetof(struct ct_cgroup_stats, cpuset.cpu_exclusive)},
		{"cpuset.mem_hardwall", offsetof(struct ct_cgroup_stats, cpuset.mem_hardwall)},
		{"cpuset.mem_exclusive", offsetof(struct ct_cgroup_stats, cpuset.mem_exclusive)},
		{"cpuset.memory_migrate", offsetof(struct ct_cgroup_stats, cpuset.memory_migrate)},
		{"cpuset.memory_spread_page",
		 offsetof(struct ct_cgroup_stats, cpuset.memory_spread_page)},
		{"cpuset.memory_spread_slab",
		 offsetof(struct ct_cgroup_stats, cpuset.memory_spread_slab)},
		{"cpuset.memory_pressure",
		 offsetof(struct ct_cgroup_stats, cpuset.memory_pressure)},
		{"cpuset.sched_load_balance",
		 offsetof(struct ct_cgroup_stats, cpuset.sched_load_balance)},
	};
	if (read_list(dir, "cpuset.cpus", &st->cpuset.cpus, &st->cpuset.n_cpus, err) < 0 ||
	    read_list(dir, "cpuset.mems", &st->cpuset.mems, &st->cpuset.n_mems, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		ct_cg_read_u64(dir, flags[i].file, (uint64_t *)((char *)st + flags[i].offset));
	read_s64(dir, "cpuset.sched_relax_domain_level", &st->cpuset.sched_relax_domain_level);
	return 0;
}
