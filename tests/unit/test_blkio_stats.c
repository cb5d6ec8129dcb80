/* libct/cgroup/blkio_stats.c on a directory of v1 blkio files (the kernel's names and
 * formats): which of runc's groups of files is read, and how a line becomes an entry. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/cgroup/internal.h"

static char dir[] = "/tmp/ctrun-blkio-stats.XXXXXX";

static void setup(void)
{
	strcpy(dir, "/tmp/ctrun-blkio-stats.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(blkio_stats, .init = setup, .fini = teardown);

static void put(const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

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
