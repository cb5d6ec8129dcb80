/* The process's scheduling attributes as the container sees them: linux.personality
 * (uname, /proc/self/personality), process.scheduler (/proc/<pid>/stat), process.ioPriority
 * (busybox ionice), linux.memoryPolicy (/proc/self/numa_maps) and process.execCPUAffinity
 * (not for the init, config.md); every bad value refused naming its path, nothing left. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tests/lib/container.h"
#include "tests/lib/rows.h"

TestSuite(sched, .fini = lc_cleanup);

#define ID "box"

/* `run` of script, or NULL when create fails with an error line holding refusal (which the
 * caller then skips on). */
static char *output_unless_refused(const struct lc *t, const char *script, const char *refusal)
{
	struct ctt_result r;
	lc_run_sh(&r, t, ID, script);
	char *out = NULL;
	if (r.status == 0)
		out = strdup(r.out);
	else
		cr_assert(strstr(r.err, refusal), "run failed: %s", r.err);
	ctt_result_free(&r);
	return out;
}

/* ---- linux.personality ---- */

Test(sched, personality_linux32_shows_a_32_bit_machine)
{
	struct utsname u;
	cr_assert_eq(uname(&u), 0);
	if (strcmp(u.machine, "x86_64") != 0)
		ctt_skip("the 32-bit name of \"%s\" is not known to this test", u.machine);
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.personality", "{\"domain\": \"LINUX32\"}");
	lc_assert_sh_output(&t, "uname -m; cat /proc/self/personality", "i686\n00000008\n");
}

Test(sched, personality_linux_is_the_native_one)
{
	struct utsname u;
	cr_assert_eq(uname(&u), 0);
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.personality", "{\"domain\": \"LINUX\"}");
	char want[128];
	snprintf(want, sizeof(want), "%s\n00000000\n", u.machine);
	lc_assert_sh_output(&t, "uname -m; cat /proc/self/personality", want);
}

/* ---- process.scheduler: fields 19 (nice), 40 (rt_priority), 41 (policy) of stat ---- */

#define STAT_NICE_PRIO_POLICY "cut -d' ' -f19,40,41 /proc/$$/stat"

/* ---- settings read back inside: process.scheduler (fields 19 nice, 40 rt_priority and 41
 * policy of stat), process.ioPriority (ionice), linux.memoryPolicy (the policy column of
 * numa_maps, one value for every mapping) ---- */

#define IONICE		 "ionice -p $$"
#define NUMA_MAPS	 "cut -d' ' -f2 /proc/self/numa_maps | sort -u"
#define STAT_PRIO_POLICY "cut -d' ' -f40,41 /proc/$$/stat"

static const struct {
	const char *member, *json; /* a member of config.json and its value */
	const char *script, *want; /* what the container prints of it */
} settings[] = {
	{".process.scheduler", "{\"policy\": \"SCHED_BATCH\", \"nice\": 7}", STAT_NICE_PRIO_POLICY,
	 "7 0 3\n"},
	{".process.scheduler", "{\"policy\": \"SCHED_IDLE\"}", STAT_PRIO_POLICY, "0 5\n"},
	{".process.scheduler", "{\"policy\": \"SCHED_OTHER\", \"nice\": -4}", STAT_NICE_PRIO_POLICY,
	 "-4 0 0\n"},
	{".process.ioPriority", "{\"class\": \"IOPRIO_CLASS_BE\", \"priority\": 6}", IONICE,
	 "best-effort: prio 6\n"},
	{".process.ioPriority", "{\"class\": \"IOPRIO_CLASS_IDLE\", \"priority\": 0}", IONICE,
	 "idle\n"},
	{".process.ioPriority", "{\"class\": \"IOPRIO_CLASS_RT\", \"priority\": 2}", IONICE,
	 "realtime: prio 2\n"},
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_BIND\", \"nodes\": \"0\"}", NUMA_MAPS,
	 "bind:0\n"},
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_PREFERRED\", \"nodes\": \"0\"}", NUMA_MAPS,
	 "prefer:0\n"},
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_INTERLEAVE\", \"nodes\": \"0\"}", NUMA_MAPS,
	 "interleave:0\n"},
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_LOCAL\"}", NUMA_MAPS, "local\n"},
	{".linux.memoryPolicy",
	 "{\"mode\": \"MPOL_BIND\", \"nodes\": \"0\", \"flags\": [\"MPOL_F_STATIC_NODES\"]}",
	 NUMA_MAPS, "bind=static:0\n"},
};

ParameterizedTestParameters(sched, setting_reads_back_inside)
{
	return ctt_rows(CTT_COUNT(settings));
}

ParameterizedTest(size_t *i, sched, setting_reads_back_inside)
{
	if (strcmp(settings[*i].member, ".linux.memoryPolicy") == 0 &&
	    access("/proc/self/numa_maps", R_OK) != 0)
		ctt_skip("this kernel has no NUMA support (/proc/self/numa_maps)");
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, settings[*i].member, settings[*i].json);
	lc_assert_sh_output(&t, settings[*i].script, settings[*i].want);
}

/* A real-time policy needs an rt budget, which a cgroup may deny root: skipped then. The
 * forked child shows SCHED_FLAG_RESET_ON_FORK at work. */
Test(sched, scheduler_fifo_priority_and_reset_on_fork)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.scheduler",
		       "{\"policy\": \"SCHED_FIFO\", \"priority\": 10, "
		       "\"flags\": [\"SCHED_FLAG_RESET_ON_FORK\"]}");
	/* the forking command first: ash execs the last one in place, without a fork */
	char *out = output_unless_refused(
		&t, "sh -c 'cut -d\" \" -f40,41 /proc/$$/stat'; " STAT_NICE_PRIO_POLICY,
		"Operation not permitted");
	if (!out)
		ctt_skip("the kernel refuses SCHED_FIFO here (no rt budget for this cgroup)");
	cr_expect_str_eq(out, "0 0\n0 10 1\n");
	free(out);
}

/* ---- process.execCPUAffinity ---- */

static char *own_cpus_allowed(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	cr_assert_not_null(f);
	char line[512], *found = NULL;
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
			found = strdup(line);
	fclose(f);
	cr_assert_not_null(found, "no Cpus_allowed_list in /proc/self/status");
	return found;
}

/* config.md: "This setting is not applicable to the container's init process": the init
 * keeps the affinity ctrun was started with, whatever the lists say. */
Test(sched, exec_cpu_affinity_leaves_the_init_alone)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		ctt_skip("one CPU: no affinity could differ from the default");
	char *own = own_cpus_allowed();
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.execCPUAffinity",
		       "{\"initial\": \"0\", \"final\": \"0\"}");
	lc_assert_sh_output(&t, "grep Cpus_allowed_list: /proc/self/status", own);
	free(own);
}

/* ---- refusals ---- */

static const struct {
	const char *path, *json, *needle;
} bad_values[] = {
	{".process.oomScoreAdj", "1001", ".process.oomScoreAdj: 1001 is out of range"},
	{".process.oomScoreAdj", "-1001", ".process.oomScoreAdj: -1001 is out of range"},
	{".process.ioPriority", "{\"class\": \"IOPRIO_CLASS_BE\", \"priority\": 8}",
	 ".process.ioPriority.priority: 8 is out of range"},
	{".process.scheduler", "{\"policy\": \"SCHED_ISO\"}",
	 ".process.scheduler.policy: SCHED_ISO is not implemented by Linux"},
	{".process.scheduler", "{\"policy\": \"SCHED_OTHER\", \"nice\": 20}",
	 ".process.scheduler.nice: 20 is out of range"},
	{".process.scheduler", "{\"policy\": \"SCHED_RR\", \"priority\": 100}",
	 ".process.scheduler.priority: SCHED_RR takes a priority in [1, 99]"},
	/* the kernel's refusal, in the child: a deadline task needs runtime <= deadline */
	{".process.scheduler",
	 "{\"policy\": \"SCHED_DEADLINE\", \"runtime\": 2000000, \"deadline\": 1000000}",
	 "set .process.scheduler (policy 6): Invalid argument"},
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_BIND\"}",
	 ".linux.memoryPolicy.nodes: MPOL_BIND needs at least one node"},
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_BIND\", \"nodes\": \"0-\"}",
	 ".linux.memoryPolicy.nodes: range \"0-\" has no end"},
	/* a node this machine lacks: set_mempolicy refuses it in the child */
	{".linux.memoryPolicy", "{\"mode\": \"MPOL_BIND\", \"nodes\": \"1000\"}",
	 "set .linux.memoryPolicy: Invalid argument"},
	{".linux.personality", "{\"domain\": \"LINUX\", \"flags\": [\"ADDR_NO_RANDOMIZE\"]}",
	 ".linux.personality.flags[0]: \"ADDR_NO_RANDOMIZE\": no flag is supported"},
	{".process.execCPUAffinity", "{\"final\": \"3-1\"}",
	 ".process.execCPUAffinity.final: range \"3-1\" is reversed"},
};

/* One bundle for all (a test has few): its config.json is put back after each value. */
Test(sched, bad_values_are_refused_naming_the_path)
{
	struct lc t;
	lc_init(&t);
	char *config = ctt_path(t.bundle, "config.json");
	char *pristine = ctt_read_file(config);
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		ctt_config_set(t.bundle, bad_values[i].path, bad_values[i].json);
		struct ctt_result r;
		lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
		ctt_assert_error(&r, bad_values[i].needle);
		ctt_result_free(&r);
		lc_assert_nothing_left(&t);
		ctt_write_file(config, pristine);
	}
	free(pristine);
	free(config);
}
