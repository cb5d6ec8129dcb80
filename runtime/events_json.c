/* runc's event records from the cgroup statistics (see events_json.h). */
#include "runtime/events_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "runtime/json_out.h"

static void u64(yajl_gen g, const char *key, uint64_t v)
{
	char num[24];
	int len = snprintf(num, sizeof(num), "%" PRIu64, v);
	if (key)
		ct_json_key(g, key);
	yajl_gen_number(g, num, (size_t)len);
}

/* Go's omitempty: a zero number is left out. */
static void u64_nonzero(yajl_gen g, const char *key, uint64_t v)
{
	if (v)
		u64(g, key, v);
}

static void open_object(yajl_gen g, const char *key)
{
	ct_json_key(g, key);
	yajl_gen_map_open(g);
}

/* Go's omitempty: an empty list is left out. */
static void u64_list(yajl_gen g, const char *key, const uint64_t *v, size_t n)
{
	if (!n)
		return;
	ct_json_key(g, key);
	yajl_gen_array_open(g);
	for (size_t i = 0; i < n; i++)
		u64(g, NULL, v[i]);
	yajl_gen_array_close(g);
}

static void u16_list(yajl_gen g, const char *key, const uint16_t *v, size_t n)
{
	if (!n)
		return;
	ct_json_key(g, key);
	yajl_gen_array_open(g);
	for (size_t i = 0; i < n; i++)
		yajl_gen_integer(g, v[i]);
	yajl_gen_array_close(g);
}

static void cpu(yajl_gen g, const struct ct_cgroup_stats *st)
{
	open_object(g, "cpu");
	open_object(g, "usage");
	u64_nonzero(g, "total", st->cpu.total_ns);
	u64_list(g, "percpu", st->cpu.percpu_ns, st->cpu.n_percpu);
	u64_list(g, "percpu_kernel", st->cpu.percpu_kernel_ns, st->cpu.n_percpu_kernel);
	u64_list(g, "percpu_user", st->cpu.percpu_user_ns, st->cpu.n_percpu_user);
	u64(g, "kernel", st->cpu.kernel_ns);
	u64(g, "user", st->cpu.user_ns);
	yajl_gen_map_close(g);
	open_object(g, "throttling");
	u64_nonzero(g, "periods", st->cpu.periods);
	u64_nonzero(g, "throttledPeriods", st->cpu.throttled_periods);
	u64_nonzero(g, "throttledTime", st->cpu.throttled_ns);
	yajl_gen_map_close(g);
	yajl_gen_map_close(g);
}

/* runc's CPUSet: the lists omitempty, every other field always there. */
static void cpuset(yajl_gen g, const struct ct_cgroup_stats *st)
{
	open_object(g, "cpuset");
	u16_list(g, "cpus", st->cpuset.cpus, st->cpuset.n_cpus);
	u64(g, "cpu_exclusive", st->cpuset.cpu_exclusive);
	u16_list(g, "mems", st->cpuset.mems, st->cpuset.n_mems);
	u64(g, "mem_hardwall", st->cpuset.mem_hardwall);
	u64(g, "mem_exclusive", st->cpuset.mem_exclusive);
	u64(g, "memory_migrate", st->cpuset.memory_migrate);
	u64(g, "memory_spread_page", st->cpuset.memory_spread_page);
	u64(g, "memory_spread_slab", st->cpuset.memory_spread_slab);
	u64(g, "memory_pressure", st->cpuset.memory_pressure);
	u64(g, "sched_load_balance", st->cpuset.sched_load_balance);
	ct_json_key(g, "sched_relax_domain_level");
	yajl_gen_integer(g, st->cpuset.sched_relax_domain_level);
	yajl_gen_map_close(g);
}

static void memory_entry(yajl_gen g, const char *key, const struct ct_cgroup_memory_entry *e)
{
	open_object(g, key);
	u64(g, "limit", e->limit);
	u64_nonzero(g, "usage", e->usage);
	u64_nonzero(g, "max", e->max_usage);
	u64(g, "failcnt", e->failcnt);
	yajl_gen_map_close(g);
}

struct raw_field {
	const char *key;
	uint64_t value;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct raw_field *)a)->key, ((const struct raw_field *)b)->key);
}

/* runc's raw is a Go map: its keys come out sorted, not in the kernel's order. */
static int memory_raw(yajl_gen g, const struct ct_cgroup_stats *st)
{
	size_t n = st->memory.n_raw;
	if (!n)
		return 0;
	struct raw_field *fields = calloc(n, sizeof(*fields));
	if (!fields)
		return -1;
	for (size_t i = 0; i < n; i++)
		fields[i] = (struct raw_field){st->memory.raw_keys[i], st->memory.raw_values[i]};
	qsort(fields, n, sizeof(*fields), by_key);
	open_object(g, "raw");
	for (size_t i = 0; i < n; i++)
		u64(g, fields[i].key, fields[i].value);
	yajl_gen_map_close(g);
	free(fields);
	return 0;
}

static int memory(yajl_gen g, const struct ct_cgroup_stats *st)
{
	open_object(g, "memory");
	u64_nonzero(g, "cache", st->memory.cache);
	memory_entry(g, "usage", &st->memory.usage);
	memory_entry(g, "swap", &st->memory.swap);
	memory_entry(g, "kernel", &st->memory.kernel);
	memory_entry(g, "kernelTCP", &st->memory.kernel_tcp);
	int rc = memory_raw(g, st);
	yajl_gen_map_close(g);
	return rc;
}

static void blkio_entries(yajl_gen g, const char *key, const struct ct_cgroup_blkio_entry *e,
			  size_t n)
{
	if (!n)
		return;
	ct_json_key(g, key);
	yajl_gen_array_open(g);
	for (size_t i = 0; i < n; i++) {
		yajl_gen_map_open(g);
		u64_nonzero(g, "major", e[i].major);
		u64_nonzero(g, "minor", e[i].minor);
		if (e[i].op[0])
			ct_json_str(g, "op", e[i].op);
		u64_nonzero(g, "value", e[i].value);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static int stats_data(yajl_gen g, const struct ct_cgroup_stats *st)
{
	open_object(g, "data");
	cpu(g, st);
	cpuset(g, st);
	int rc = memory(g, st);
	open_object(g, "pids");
	u64_nonzero(g, "current", st->pids.current);
	u64_nonzero(g, "limit", st->pids.limit);
	yajl_gen_map_close(g);
	open_object(g, "blkio");
	static const char *const lists[CT_BLKIO_LISTS] = {
		"ioServiceBytesRecursive", "ioServicedRecursive", "ioQueueRecursive",
		"ioServiceTimeRecursive",  "ioWaitTimeRecursive", "ioMergedRecursive",
		"ioTimeRecursive",	   "sectorsRecursive",
	};
	for (size_t i = 0; i < CT_BLKIO_LISTS; i++)
		blkio_entries(g, lists[i], st->blkio[i].entries, st->blkio[i].n);
	yajl_gen_map_close(g);
	open_object(g, "hugetlb");
	for (size_t i = 0; i < st->n_hugetlb; i++) {
		open_object(g, st->hugetlb[i].page_size);
		u64_nonzero(g, "usage", st->hugetlb[i].usage);
		u64_nonzero(g, "max", st->hugetlb[i].max_usage);
		u64(g, "failcnt", st->hugetlb[i].failcnt);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
	open_object(g, "intel_rdt");
	yajl_gen_map_close(g);
	ct_json_key(g, "network_interfaces");
	yajl_gen_null(g);
	yajl_gen_map_close(g);
	return rc;
}

static int finish(yajl_gen g, char **out, struct ct_error *err)
{
	const unsigned char *buf;
	size_t len;
	yajl_gen_get_buf(g, &buf, &len);
	*out = strndup((const char *)buf, len);
	yajl_gen_free(g);
	return *out ? 0 : ct_error_sys(err, ENOMEM, "event record");
}

static yajl_gen record(const char *type, const char *id)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	if (g) {
		yajl_gen_map_open(g);
		ct_json_str(g, "type", type);
		ct_json_str(g, "id", id);
	}
	return g;
}

int ct_events_stats_json(const char *id, const struct ct_cgroup_stats *st, char **out,
			 struct ct_error *err)
{
	yajl_gen g = record("stats", id);
	if (!g)
		return ct_error_sys(err, ENOMEM, "event record");
	if (stats_data(g, st) < 0) {
		yajl_gen_free(g);
		return ct_error_sys(err, ENOMEM, "event record");
	}
	yajl_gen_map_close(g);
	return finish(g, out, err);
}

int ct_events_oom_json(const char *id, char **out, struct ct_error *err)
{
	yajl_gen g = record("oom", id);
	if (!g)
		return ct_error_sys(err, ENOMEM, "event record");
	yajl_gen_map_close(g);
	return finish(g, out, err);
}
