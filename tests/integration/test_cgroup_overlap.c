/* The v1 cgroup made in two parts around the init's clone (libct/plan/sync.h): the memory (and
 * cgroup2) directories before it, the other hierarchies while the init makes its network
 * namespace. What that must not change: the init is in every hierarchy, under the limits and
 * device rules, before the container's program runs; a failure in the part after the clone
 * kills the init and leaves nothing, not even the part made before it. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"

TestSuite(cgroup_overlap, .fini = cgt_cleanup);

#define ID		 "ov"
#define MADE_AFTER_CLONE "cgroup's other v1 hierarchies made after the clone"

static void need_v1_hierarchies(void)
{
	static const char *const needed[] = {"memory", "pids", "devices", "cpu"};
	for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		char *dir = cgt_dir(needed[i], "");
		if (!dir)
			ctt_skip("no cgroup v1 %s hierarchy on this host (the vm suite covers "
				 "cgroup v2, made whole before the clone)",
				 needed[i]);
		free(dir);
	}
}

static bool dir_exists(const char *controller, const char *rel)
{
	char *dir = cgt_dir(controller, rel);
	struct stat st;
	bool there = dir && stat(dir, &st) == 0;
	free(dir);
	return there;
}

/* The limits and the device filter of hierarchies made after the clone hold for the
 * container's program, which is in each of them (its cgroup namespace's root). */
Test(cgroup_overlap, hierarchies_made_after_the_clone_hold_limits_and_devices)
{
	need_v1_hierarchies();
	struct lc t;
	lc_init(&t);
	cgt_use_path(&t, "after");
	ctt_config_set(t.bundle, ".linux.resources",
		       "{\"pids\": {\"limit\": 42}, \"cpu\": {\"shares\": 300},"
		       " \"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}");
	struct ctt_result r;
	lc_debug_run_sh(&r, &t, ID,
			"cd /sys/fs/cgroup; cat pids/pids.max cpu/cpu.shares; "
			"grep -qx 1 pids/cgroup.procs && echo init-in-pids; grep -E "
			"':(pids|devices|memory):' "
			"/proc/self/cgroup | cut -d: -f3 | sort -u; echo x > /dev/null && "
			"echo null-ok; grep -q '^a' devices/devices.list || echo no-wildcard; "
			"grep -q '^c 1:3 rwm$' devices/devices.list && echo null-listed");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, MADE_AFTER_CLONE), "%s", r.err);
	cr_expect_str_eq(r.out, "42\n300\ninit-in-pids\n/\nnull-ok\nno-wildcard\nnull-listed\n");
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
	cgt_assert_subtree_gone();
}

/* Without a network namespace the init has nothing to overlap with: the whole cgroup is
 * made before the clone, as it was, and the limits hold the same. */
Test(cgroup_overlap, without_a_network_namespace_all_before_the_clone)
{
	need_v1_hierarchies();
	struct lc t;
	lc_init(&t);
	cgt_use_path(&t, "nonet");
	lc_namespace_set(&t, "network", NULL);
	ctt_config_set(t.bundle, ".linux.resources", "{\"pids\": {\"limit\": 43}}");
	struct ctt_result r;
	lc_debug_run_sh(&r, &t, ID, "cat /sys/fs/cgroup/pids/pids.max");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, MADE_AFTER_CLONE), "%s", r.err);
	cr_expect_str_eq(r.out, "43\n", "%s", r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* A process of someone else's, alone in the pids directory the container would get. */
static pid_t occupy(const char *rel)
{
	char *subtree = cgt_dir("pids", cgt_subtree());
	char *dir = cgt_dir("pids", rel);
	cr_assert(mkdir(subtree, 0755) == 0, "mkdir %s", subtree);
	cr_assert(mkdir(dir, 0755) == 0, "mkdir %s", dir);
	free(subtree);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	char text[32];
	snprintf(text, sizeof(text), "%d", pid);
	char *procs = ctt_path(dir, "cgroup.procs");
	ctt_write_file(procs, text);
	free(procs);
	free(dir);
	return pid;
}

/* It is still there and still in that directory; then it goes, and the directory too. */
static void assert_occupant_untouched(pid_t pid, const char *rel)
{
	char *dir = cgt_dir("pids", rel);
	char *procs = cgt_read(dir, "cgroup.procs");
	char text[32];
	snprintf(text, sizeof(text), "%d", pid);
	cr_expect_str_eq(procs, text, "the other's process was moved or killed");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	char *subtree = cgt_dir("pids", cgt_subtree());
	cr_expect(rmdir(dir) == 0, "rmdir %s", dir);
	cr_expect(rmdir(subtree) == 0, "rmdir %s", subtree);
	free(subtree);
	free(procs);
	free(dir);
}

/* `--debug command` fails after the clone: the log says the v1 driver made the memory and
 * cgroup2 directories before it, and a line of stderr matches error_regex. */
static void assert_fails_after_the_clone(const struct lc *t, const char *command,
					 const char *error_regex)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "--debug", command, "--bundle", t->bundle, ID);
	cr_expect_neq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "its memory and cgroup2 directories made (v1 driver)"), "%s",
		  r.err);
	cr_expect(ctt_matches(r.err, error_regex), "no line matches %s:\n%s", error_regex, r.err);
	ctt_result_free(&r);
}

/* The pids directory, made after the clone, is another's and in use: create fails with one
 * line naming it, the init is killed, the memory directory made before the clone is removed
 * with the state, and the other's directory and process are left alone. */
Test(cgroup_overlap, failure_after_the_clone_leaves_nothing)
{
	need_v1_hierarchies();
	struct lc t;
	lc_init(&t);
	cgt_use_path(&t, "taken");
	char *rel = cgt_rel("taken");
	pid_t other = occupy(rel);
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), "/taken\"",
			"exists and has processes");
	lc_assert_nothing_left(&t);
	assert_fails_after_the_clone(&t, "create",
				     "ctrun: create container \"ov\": cgroup \"[^\"]*/taken\" "
				     "exists and has processes");
	lc_assert_nothing_left(&t);
	cr_expect_not(dir_exists("memory", rel), "the memory directory made before the clone "
						 "is left");
	cr_expect_not(dir_exists("cpu", rel), "a directory made after the clone is left");
	assert_occupant_untouched(other, rel);
	free(rel);
	cgt_assert_subtree_gone();
}

/* The init fails (its network namespace refused) while the parent makes the rest of the
 * cgroup: create says why the init failed, not that it could not be told CGROUP_READY, and
 * leaves nothing. Several times: the init may be gone before or after the parent is done. */
Test(cgroup_overlap, init_failing_meanwhile_is_reported_and_leaves_nothing)
{
	need_v1_hierarchies();
	struct lc t;
	lc_init(&t);
	cgt_use_path(&t, "refused");
	const char *wrapper[LC_WRAPPER_MAX];
	lc_wrap_enosys(&t, wrapper, LC_ARGV("unshare"));
	for (int i = 0; i < 10; i++) {
		lc_assert_fails(&t, LC_ARGV("run", "--bundle", t.bundle, ID),
				"create network namespace: Function not implemented");
		lc_assert_nothing_left(&t);
	}
	cgt_assert_subtree_gone();
}

/* A resource this host has no file for (a cgroup v2 field on v1) refused after the clone is
 * the config error it was with the cgroup made whole before it: one line, nothing left, and
 * no poststop hook, since no container came to exist. */
Test(cgroup_overlap, resource_refused_after_the_clone_runs_no_poststop)
{
	need_v1_hierarchies();
	struct lc t;
	lc_init(&t);
	cgt_use_path(&t, "refusedres");
	char *dir = ctt_tmpdir(), *ran = ctt_path(dir, "poststop-ran"), *hooks;
	cr_assert_geq(asprintf(&hooks,
			       "{\"poststop\": [{\"path\": \"/bin/sh\", \"args\": [\"sh\", \"-c\", "
			       "\"touch %s\"]}]}",
			       ran),
		      0);
	ctt_config_set(t.bundle, ".hooks", hooks);
	ctt_config_set(t.bundle, ".linux.resources", "{\"unified\": {\"memory.high\": \"max\"}}");
	assert_fails_after_the_clone(&t, "run",
				     "ctrun: create container \"ov\": config\\.json: "
				     "\\.linux\\.resources\\.unified\\[\"memory\\.high\"\\]: "
				     "only for cgroup v2");
	cr_expect_neq(access(ran, F_OK), 0, "the poststop hook ran");
	lc_assert_nothing_left(&t);
	cgt_assert_subtree_gone();
	free(hooks);
	free(ran);
	free(dir);
}
