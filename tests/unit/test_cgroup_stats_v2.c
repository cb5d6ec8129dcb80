/* libct/cgroup/v2.c's statistics on a directory of cgroup2 files (the kernel's names and
 * formats): runc 1.1.5's reading of them, as `events --stats` prints it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/cgroup/cgroup.h"

static char root[] = "/tmp/ctrun-cgstats2.XXXXXX";

static void setup(void)
{
	strcpy(root, "/tmp/ctrun-cgstats2.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(cgroup_stats_v2, .init = setup, .fini = teardown);

static void put(const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", root, file);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static void read_stats(struct ct_cgroup_stats *st)
{
	struct ct_cgroup_dir dir = {
		.key = CT_CGROUP_UNIFIED_KEY, .path = root, .fd = -1, .parent_fd = -1};
	struct ct_cgroup cg = {
		.ops = &ct_cgroup_v2_ops, .dirs = &dir, .n_dirs = 1, .unified_fd = -1};
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
