/* libct/cgroup/cpuset_stats.c on a directory of cpuset.* files (the kernel's v1 cpuset
 * controller's names): every field read, a missing file leaves 0, a bad list names its file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/cgroup/internal.h"

static char dir[] = "/tmp/ctrun-cpuset-stats.XXXXXX";

static void setup(void)
{
	strcpy(dir, "/tmp/ctrun-cpuset-stats.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(cpuset_stats, .init = setup, .fini = teardown);

static void put(const char *file, const char *text)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

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
