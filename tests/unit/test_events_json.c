/* runtime/events_json.c: runc's event records, byte for byte as runc's encoder writes them
 * (its field names and order, omitempty on numbers and lists, structs always present). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/events_json.h"

Test(events_json, oom_record)
{
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_events_oom_json("web", &out, &err), 0);
	cr_expect_str_eq(out, "{\"type\":\"oom\",\"id\":\"web\"}");
	free(out);
}

Test(events_json, empty_stats_keep_runc_structure)
{
	struct ct_cgroup_stats st = {0};
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_events_stats_json("a", &st, &out, &err), 0);
	cr_expect_str_eq(out,
			 "{\"type\":\"stats\",\"id\":\"a\",\"data\":{"
			 "\"cpu\":{\"usage\":{\"kernel\":0,\"user\":0},\"throttling\":{}},"
			 "\"cpuset\":{\"cpu_exclusive\":0,\"mem_hardwall\":0,\"mem_exclusive\":0,"
			 "\"memory_migrate\":0,\"memory_spread_page\":0,\"memory_spread_slab\":0,"
			 "\"memory_pressure\":0,\"sched_load_balance\":0,"
			 "\"sched_relax_domain_level\":0},"
			 "\"memory\":{\"usage\":{\"limit\":0,\"failcnt\":0},"
			 "\"swap\":{\"limit\":0,\"failcnt\":0},"
			 "\"kernel\":{\"limit\":0,\"failcnt\":0},"
			 "\"kernelTCP\":{\"limit\":0,\"failcnt\":0}},"
			 "\"pids\":{},\"blkio\":{},\"hugetlb\":{},\"intel_rdt\":{},"
			 "\"network_interfaces\":null}}");
	free(out);
}

Test(events_json, full_stats)
{
	uint64_t percpu[] = {10, 20}, percpu_kernel[] = {4, 8}, percpu_user[] = {6, 12};
	uint16_t cpus[] = {0, 1, 3}, mems[] = {0};
	char *keys[] = {"rss", "cache"}; /* out of order: printed sorted */
	uint64_t values[] = {8192, 4096};
	struct ct_cgroup_blkio_entry bytes[] = {{8, 0, "Read", 512}, {8, 0, "Total", 0}};
	struct ct_cgroup_hugetlb_entry huge[] = {{"2MB", 0, 0, 3}};
	struct ct_cgroup_stats st = {0};
	st.cpu.total_ns = 30;
	st.cpu.percpu_ns = percpu;
	st.cpu.n_percpu = 2;
	st.cpu.percpu_kernel_ns = percpu_kernel;
	st.cpu.n_percpu_kernel = 2;
	st.cpu.percpu_user_ns = percpu_user;
	st.cpu.n_percpu_user = 2;
	st.cpuset.cpus = cpus;
	st.cpuset.n_cpus = 3;
	st.cpuset.mems = mems;
	st.cpuset.n_mems = 1;
	st.cpuset.sched_load_balance = 1;
	st.cpuset.sched_relax_domain_level = -1;
	st.cpu.user_ns = 18;
	st.cpu.kernel_ns = 12;
	st.cpu.periods = 5;
	st.cpu.throttled_periods = 1;
	st.cpu.throttled_ns = 7;
	st.memory.cache = 4096;
	st.memory.usage = (struct ct_cgroup_memory_entry){
		.usage = 100, .max_usage = 200, .failcnt = 1, .limit = 18446744073709551615ULL};
	st.memory.raw_keys = keys;
	st.memory.raw_values = values;
	st.memory.n_raw = 2;
	st.pids.current = 2;
	st.pids.limit = 50;
	st.blkio[CT_BLKIO_SERVICE_BYTES].entries = bytes;
	st.blkio[CT_BLKIO_SERVICE_BYTES].n = 2;
	st.hugetlb = huge;
	st.n_hugetlb = 1;
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_events_stats_json("b", &st, &out, &err), 0);
	cr_expect_str_eq(
		out,
		"{\"type\":\"stats\",\"id\":\"b\",\"data\":{"
		"\"cpu\":{\"usage\":{\"total\":30,\"percpu\":[10,20],\"percpu_kernel\":[4,8],"
		"\"percpu_user\":[6,12],\"kernel\":12,\"user\":18},"
		"\"throttling\":{\"periods\":5,\"throttledPeriods\":1,\"throttledTime\":7}},"
		"\"cpuset\":{\"cpus\":[0,1,3],\"cpu_exclusive\":0,\"mems\":[0],\"mem_hardwall\":0,"
		"\"mem_exclusive\":0,\"memory_migrate\":0,\"memory_spread_page\":0,"
		"\"memory_spread_slab\":0,\"memory_pressure\":0,\"sched_load_balance\":1,"
		"\"sched_relax_domain_level\":-1},"
		"\"memory\":{\"cache\":4096,\"usage\":{\"limit\":18446744073709551615,\"usage\":"
		"100,"
		"\"max\":200,\"failcnt\":1},\"swap\":{\"limit\":0,\"failcnt\":0},"
		"\"kernel\":{\"limit\":0,\"failcnt\":0},\"kernelTCP\":{\"limit\":0,\"failcnt\":0},"
		"\"raw\":{\"cache\":4096,\"rss\":8192}},"
		"\"pids\":{\"current\":2,\"limit\":50},"
		"\"blkio\":{\"ioServiceBytesRecursive\":[{\"major\":8,\"op\":\"Read\",\"value\":"
		"512},"
		"{\"major\":8,\"op\":\"Total\"}]},"
		"\"hugetlb\":{\"2MB\":{\"failcnt\":3}},\"intel_rdt\":{},"
		"\"network_interfaces\":null}}");
	free(out);
}

/* Every list under runc's name, in its order; an entry without an op has no "op". */
Test(events_json, blkio_lists_named_as_runc)
{
	struct ct_cgroup_blkio_entry e = {8, 0, "", 24};
	struct ct_cgroup_stats st = {0};
	for (size_t i = 0; i < CT_BLKIO_LISTS; i++) {
		st.blkio[i].entries = &e;
		st.blkio[i].n = 1;
	}
	char *out = NULL;
	struct ct_error err = {0};
	cr_assert_eq(ct_events_stats_json("c", &st, &out, &err), 0);
	cr_expect(strstr(out, "\"blkio\":{\"ioServiceBytesRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"ioServicedRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"ioQueueRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"ioServiceTimeRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"ioWaitTimeRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"ioMergedRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"ioTimeRecursive\":[{\"major\":8,\"value\":24}],"
			      "\"sectorsRecursive\":[{\"major\":8,\"value\":24}]}"),
		  "%s", out);
	free(out);
}
