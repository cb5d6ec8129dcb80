/* The cgroup statistics readers on a directory of cgroup files (the kernel's names and
 * formats), as runc 1.1.5 reads them for `events --stats`: v1 cpuset (cpuset_stats.c), v1
 * blkio (blkio_stats.c), and the v2 driver's (v2.c). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/cgroup/internal.h"

static char dir[] = "/tmp/ctrun-cgstats.XXXXXX";

static void setup(void)
{
	strcpy(dir, "/tmp/ctrun-cgstats.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(cpuset_stats, .init = setup, .fini = teardown);
TestSuite(blkio_stats, .init = setup, .fini = teardown);
TestSuite(cgroup_stats_v2, .init = setup, .fini = teardown);

static void put(const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* ---- v1 cpuset: every field read, a missing file leaves 0, a bad list names its file ---- */

Test(cpuset_stats, every_field)
{
	put("cpuset.cpus", "0-2,4\n");
	put("cpuset.mems", "0\n");
	put("cpuset.cpu_exclusive", "1\n");
	put("cpuset.mem_hardwall", "1\n");
	put("cpuset.memory_pressure", "7\n");
	put("cpuset.sched_load_balance", "1\n");
	put("cpuset.sched_relax_domain_level", "-1\n");
	struct ct_cgroup_stats st = {0};
	struct ct_error err = {0};
	cr_assert_eq(ct_cg_cpuset_stats(dir, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(st.cpuset.n_cpus, 4);
	cr_expect_eq(st.cpuset.cpus[3], 4);
	cr_assert_eq(st.cpuset.n_mems, 1);
	cr_expect_eq(st.cpuset.mems[0], 0);
	cr_expect_eq(st.cpuset.cpu_exclusive, 1);
	cr_expect_eq(st.cpuset.mem_hardwall, 1);
	cr_expect_eq(st.cpuset.mem_exclusive, 0, "no file: 0");
	cr_expect_eq(st.cpuset.memory_pressure, 7);
	cr_expect_eq(st.cpuset.sched_load_balance, 1);
	cr_expect_eq(st.cpuset.sched_relax_domain_level, -1);
	ct_cgroup_stats_free(&st);
}

Test(cpuset_stats, a_bad_list_names_its_file)
{
	put("cpuset.cpus", "0-1\n");
	put("cpuset.mems", "2-0\n");
	struct ct_cgroup_stats st = {0};
	struct ct_error err = {0};
	cr_assert_eq(ct_cg_cpuset_stats(dir, &st, &err), -1);
	cr_expect(strstr(err.msg, "/cpuset.mems\": not a cpu or node list: \"2-0\""), "%s",
		  err.msg);
	ct_cgroup_stats_free(&st);
}

/* ---- v1 blkio: which of runc's groups of files is read, how a line becomes an entry ---- */

#define THROTTLE_BYTES "8:0 Read 4096\n8:0 Write 0\n8:0 Total 4096\nTotal 4096\n"

Test(blkio_stats, throttle_files_without_a_scheduler_group)
{
	put("blkio.throttle.io_service_bytes_recursive", THROTTLE_BYTES);
	put("blkio.throttle.io_serviced_recursive", "8:0 Read 1\nTotal 1\n");
	struct ct_cgroup_stats st = {0};
	cr_assert_eq(ct_cg_blkio_v1_stats(dir, &st), 0);
	cr_assert_eq(st.blkio[CT_BLKIO_SERVICE_BYTES].n, 3, "\"Total N\" left out");
	const struct ct_cgroup_blkio_entry *e = st.blkio[CT_BLKIO_SERVICE_BYTES].entries;
	cr_expect_eq(e[0].major, 8);
	cr_expect_str_eq(e[0].op, "Read");
	cr_expect_eq(e[0].value, 4096);
	cr_expect_str_eq(e[2].op, "Total");
	cr_expect_eq(st.blkio[CT_BLKIO_SERVICED].n, 1);
	ct_cgroup_stats_free(&st);
}

/* An empty first file (a cgroup that did no I/O under BFQ) moves on to the next group. */
Test(blkio_stats, the_first_group_with_entries_wins)
{
	put("blkio.bfq.io_serviced_recursive", "Total 0\n");
	put("blkio.io_serviced_recursive", "8:16 Write 2\n");
	put("blkio.sectors_recursive", "8:16 24\n");
	put("blkio.io_service_time_recursive", "8:16 Write 10\n");
	put("blkio.throttle.io_service_bytes_recursive", THROTTLE_BYTES);
	struct ct_cgroup_stats st = {0};
	cr_assert_eq(ct_cg_blkio_v1_stats(dir, &st), 0);
	cr_assert_eq(st.blkio[CT_BLKIO_SECTORS].n, 1);
	const struct ct_cgroup_blkio_entry *sectors = st.blkio[CT_BLKIO_SECTORS].entries;
	cr_expect_eq(sectors[0].minor, 16);
	cr_expect_str_eq(sectors[0].op, "", "a line without an op");
	cr_expect_eq(sectors[0].value, 24);
	cr_expect_eq(st.blkio[CT_BLKIO_SERVICE_TIME].n, 1);
	/* the CFQ group stops at its first file without entries (wait time): runc's reading */
	cr_expect_eq(st.blkio[CT_BLKIO_SERVICED].n, 0);
	cr_expect_eq(st.blkio[CT_BLKIO_SERVICE_BYTES].n, 0, "the throttle group is not read");
	ct_cgroup_stats_free(&st);
}

Test(blkio_stats, no_files_no_entries)
{
	struct ct_cgroup_stats st = {0};
	cr_assert_eq(ct_cg_blkio_v1_stats(dir, &st), 0);
	for (size_t i = 0; i < CT_BLKIO_LISTS; i++)
		cr_expect_eq(st.blkio[i].n, 0);
	ct_cgroup_stats_free(&st);
}

/* ---- cgroup2 ---- */

static void read_stats(struct ct_cgroup_stats *st)
{
	struct ct_cgroup_dir unified = {
		.key = CT_CGROUP_UNIFIED_KEY, .path = dir, .fd = -1, .parent_fd = -1};
	struct ct_cgroup cg = {
		.ops = &ct_cgroup_v2_ops, .dirs = &unified, .n_dirs = 1, .unified_fd = -1};
	struct ct_error err = {0};
	cr_assert_eq(cg.ops->stats(&cg, st, &err), 0, "%s", err.msg);
}

/* Unlimited is UINT64_MAX; swap is memory and swap together, as v1's memsw; no peak and no
 * kernel entry (runc 1.1.5 reads neither); the cache is memory.stat's "file". */
Test(cgroup_stats_v2, memory_as_runc_1_1_reads_it)
{
	put("memory.current", "1000\n");
	put("memory.max", "max\n");
	put("memory.peak", "5000\n");
	put("memory.swap.current", "200\n");
	put("memory.swap.max", "max\n");
	put("memory.stat", "anon 10\nfile 4096\nkernel 77\n");
	struct ct_cgroup_stats st = {0};
	read_stats(&st);
	cr_expect_eq(st.memory.usage.usage, 1000);
	cr_expect_eq(st.memory.usage.limit, UINT64_MAX);
	cr_expect_eq(st.memory.usage.max_usage, 0);
	cr_expect_eq(st.memory.swap.usage, 1200);
	cr_expect_eq(st.memory.swap.limit, UINT64_MAX);
	cr_expect_eq(st.memory.kernel.usage, 0);
	cr_expect_eq(st.memory.cache, 4096);
	cr_expect_eq(st.memory.n_raw, 3);
	ct_cgroup_stats_free(&st);
}

Test(cgroup_stats_v2, limited_swap_adds_the_memory_limit)
{
	put("memory.current", "1000\n");
	put("memory.max", "65536\n");
	put("memory.swap.current", "0\n");
	put("memory.swap.max", "4096\n");
	struct ct_cgroup_stats st = {0};
	read_stats(&st);
	cr_expect_eq(st.memory.usage.limit, 65536);
	cr_expect_eq(st.memory.swap.limit, 65536 + 4096);
	cr_expect_eq(st.memory.swap.usage, 1000);
	ct_cgroup_stats_free(&st);
}

/* Reads and writes in runc's two tables; discards and iocost fields are left out. */
Test(cgroup_stats_v2, io_stat_reads_and_writes_only)
{
	put("io.stat", "8:16 rbytes=512 wbytes=1024 rios=1 wios=2 dbytes=4096 dios=3 "
		       "cost.usage=9\n");
	struct ct_cgroup_stats st = {0};
	read_stats(&st);
	const struct ct_cgroup_blkio_entry *bytes = st.blkio[CT_BLKIO_SERVICE_BYTES].entries;
	const struct ct_cgroup_blkio_entry *ios = st.blkio[CT_BLKIO_SERVICED].entries;
	cr_assert_eq(st.blkio[CT_BLKIO_SERVICE_BYTES].n, 2);
	cr_expect_str_eq(bytes[0].op, "Read");
	cr_expect_eq(bytes[0].value, 512);
	cr_expect_str_eq(bytes[1].op, "Write");
	cr_expect_eq(bytes[1].minor, 16);
	cr_assert_eq(st.blkio[CT_BLKIO_SERVICED].n, 2);
	cr_expect_eq(ios[1].value, 2);
	for (size_t i = CT_BLKIO_QUEUED; i < CT_BLKIO_LISTS; i++)
		cr_expect_eq(st.blkio[i].n, 0);
	ct_cgroup_stats_free(&st);
}

/* Without the pids controller runc counts the processes of cgroup.procs. */
Test(cgroup_stats_v2, pids_counted_without_the_controller)
{
	put("cgroup.procs", "10\n11\n12\n");
	struct ct_cgroup_stats st = {0};
	read_stats(&st);
	cr_expect_eq(st.pids.current, 3);
	cr_expect_eq(st.pids.limit, 0);
	ct_cgroup_stats_free(&st);
}
