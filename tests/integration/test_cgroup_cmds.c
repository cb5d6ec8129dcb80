/* The commands on a running container's cgroup, runc's: pause/resume (the freezer; `state`
 * and `list` say paused), ps (json and table), events (--stats and the OOM record) and update
 * (flags, a document on stdin or in a file; bad input names its flag or JSON path). Checked
 * from outside (exit codes, output, the cgroup files) and from inside (what the container's
 * processes do and see). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"

TestSuite(cgroup_cmds, .fini = cgt_cleanup);

/* A bundle with a writable root and resources (JSON of .linux.resources; NULL: none). */
static void init(struct lc *t, const char *resources)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
	if (resources)
		ctt_config_set(t->bundle, ".linux.resources", resources);
}

static long read_counter(const struct lc *t)
{
	char *path = lc_rootfs_path(t, "count");
	char *text = ctt_read_file(path);
	long v = atol(text);
	free(text);
	free(path);
	return v;
}

/* /count is there before /ready: a pause right after the start has a count to read */
#define COUNTER                                                                              \
	"i=0; echo 0 > /count; touch /ready; while :; do i=$((i+1)); echo $i > /count.tmp; " \
	"mv /count.tmp /count; sleep 0.01; done"

Test(cgroup_cmds, pause_freezes_and_resume_continues)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "pz", COUNTER);
	lc_ok(&t, "pause", "pz");
	lc_assert_status(&t, "pz", "paused");
	struct ctt_result r;
	lc_ctrun(&r, &t, "list", "--format", "json");
	cr_expect(strstr(r.out, "\"status\":\"paused\""), "list: %s", r.out);
	ctt_result_free(&r);
	/* frozen: the counter stands still, however long we look */
	long frozen = read_counter(&t);
	usleep(300000);
	cr_expect_eq(read_counter(&t), frozen, "the counter moved while paused");
	lc_assert_fails(&t, LC_ARGV("pause", "pz"), "pause container \"pz\"",
			"cannot pause a container that is paused");
	lc_ok(&t, "resume", "pz");
	lc_assert_status(&t, "pz", "running");
	char *path = lc_rootfs_path(&t, "count");
	for (int i = 0; i < 1000 && read_counter(&t) <= frozen; i++)
		usleep(10000);
	cr_expect_gt(read_counter(&t), frozen, "the counter did not move after resume");
	free(path);
	lc_assert_fails(&t, LC_ARGV("resume", "pz"), "resume container \"pz\"",
			"cannot resume a container that is running");
}

/* One list entry against `state` of the same container: the status rule is one function. */
static void assert_list_entry_is_state(const struct lc *t, yajl_val list, long i, const char *id,
				       const char *status)
{
	char path[64];
	snprintf(path, sizeof(path), "[%ld].id", i);
	cr_expect_str_eq(ctt_json_get_string(list, path), id);
	yajl_val state = lc_state(t, id);
	cr_expect_str_eq(ctt_json_get_string(state, ".status"), status, "state of %s", id);
	static const char *const same[] = {"status", "bundle", "rootfs", "created", "ociVersion"};
	for (size_t f = 0; f < sizeof(same) / sizeof(same[0]); f++) {
		char key[16];
		snprintf(key, sizeof(key), ".%s", same[f]);
		snprintf(path, sizeof(path), "[%ld].%s", i, same[f]);
		cr_expect_str_eq(ctt_json_get_string(list, path), ctt_json_get_string(state, key),
				 "%s of %s", same[f], id);
	}
	snprintf(path, sizeof(path), "[%ld].pid", i);
	cr_expect_eq(ctt_json_get_int(list, path), ctt_json_get_int(state, ".pid"), "pid of %s",
		     id);
	yajl_tree_free(state);
}

/* list reads each container without its lock: each of the four statuses it can see must be
 * the one `state` says, paused (the freezer) and stopped (pid 0) included. */
Test(cgroup_cmds, list_agrees_with_state_for_every_status)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "a-paused", "touch /ready; sleep 1000");
	lc_ok(&t, "pause", "a-paused");
	cgt_use_path(&t, "b-created");
	lc_set_script(&t, "sleep 1000");
	lc_ok(&t, "create", "--bundle", t.bundle, "b-created");
	cgt_run_ready(&t, "c-running", "touch /ready; sleep 1000");
	cgt_use_path(&t, "d-stopped");
	lc_set_script(&t, "true");
	lc_ok(&t, "create", "--bundle", t.bundle, "d-stopped");
	lc_ok(&t, "start", "d-stopped");
	lc_wait_status(&t, "d-stopped", "stopped");
	struct ctt_result r;
	lc_ctrun(&r, &t, "list", "--format", "json");
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	yajl_val list = ctt_json_parse(r.out, "list --format json");
	cr_assert(YAJL_IS_ARRAY(list) && ctt_json_len(list, ".") == 4, "list: %s", r.out);
	assert_list_entry_is_state(&t, list, 0, "a-paused", "paused");
	assert_list_entry_is_state(&t, list, 1, "b-created", "created");
	assert_list_entry_is_state(&t, list, 2, "c-running", "running");
	assert_list_entry_is_state(&t, list, 3, "d-stopped", "stopped");
	cr_expect_eq(ctt_json_get_int(list, "[3].pid"), 0);
	yajl_tree_free(list);
	ctt_result_free(&r);
	lc_ok(&t, "resume", "a-paused");
}

Test(cgroup_cmds, pause_refuses_a_stopped_container)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "ps0", "touch /ready");
	lc_wait_status(&t, "ps0", "stopped");
	lc_assert_fails(&t, LC_ARGV("pause", "ps0"), "cannot pause a container that is stopped");
	lc_assert_fails(&t, LC_ARGV("resume", "ps0"), "cannot resume a container that is stopped");
	lc_assert_fails(&t, LC_ARGV("pause", "nosuch"), "container \"nosuch\" does not exist");
}

/* /ready made by the shell itself (a `touch` child could still be in the cgroup when the
 * file shows up, a third process for the tests that count them), once the child has
 * executed sleep (ps names it so by then). */
#define TWO_PROCS                                                                   \
	"sleep 1000 & until grep -qx sleep /proc/$!/comm 2>/dev/null; do :; done; " \
	": > /ready; wait"

/* The container's directory in each hierarchy the host has (v1 ones, cgroup2), malloc'ed;
 * NULL entries for the missing ones. */
#define N_CHECKED_HIERARCHIES 4
static void container_dirs(const char *id, char *dirs[N_CHECKED_HIERARCHIES])
{
	static const char *const controllers[] = {"memory", "pids", "freezer", ""};
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s", cgt_subtree(), id);
	for (int i = 0; i < N_CHECKED_HIERARCHIES; i++)
		dirs[i] = cgt_dir(controllers[i], rel);
}

/* The outside pids of the container's processes, from its first cgroup's cgroup.procs (0
 * when it has none). */
static int container_pids(char *const dirs[N_CHECKED_HIERARCHIES], pid_t *pids, int max)
{
	int i = 0, n = 0;
	while (i < N_CHECKED_HIERARCHIES && !dirs[i])
		i++;
	if (i == N_CHECKED_HIERARCHIES)
		return 0;
	char *path = ctt_path(dirs[i], "cgroup.procs");
	char *text = ctt_read_file(path);
	for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n"))
		pids[n++] = atoi(line);
	free(text);
	free(path);
	return n;
}

/* Each process died of SIGKILL: the ones the test process (a subreaper, as conmon is)
 * inherited are reaped for their status, the others (reaped inside their pid namespace)
 * are gone. */
static void assert_sigkilled(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		int status = 0;
		if (waitpid(pids[i], &status, 0) == pids[i])
			cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
				  "pid %d: status 0x%x", pids[i], status);
		else
			cr_expect_not(ctt_alive(pids[i]), "pid %d survived", pids[i]);
	}
}

static void assert_cgroups_gone(char *dirs[N_CHECKED_HIERARCHIES])
{
	for (int i = 0; i < N_CHECKED_HIERARCHIES; i++) {
		struct stat st;
		cr_expect(!dirs[i] || stat(dirs[i], &st) < 0, "cgroup %s left", dirs[i]);
		free(dirs[i]);
	}
}

/* delete --force of the running container id (an init with one child, a TERM trap):
 * exit 0, silent; every process got SIGKILL, the trap never ran, no cgroup or state left. */
static void assert_force_delete_kills(const struct lc *t, const char *id)
{
	char *dirs[N_CHECKED_HIERARCHIES];
	container_dirs(id, dirs);
	pid_t pids[8];
	/* the script forked its sleep before it touched /ready: both are in the cgroup */
	int n = container_pids(dirs, pids, 8);
	cr_assert_eq(n, 2, "not the init and its sleep in the cgroup: %d", n);
	struct ctt_result r;
	lc_ctrun(&r, t, "delete", "--force", id);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_empty(r.err);
	ctt_result_free(&r);
	assert_sigkilled(pids, n);
	char *sig = lc_rootfs_path(t, "sig");
	cr_expect_neq(access(sig, F_OK), 0, "the container saw a TERM");
	free(sig);
	assert_cgroups_gone(dirs);
	lc_assert_nothing_left(t);
}

#define TRAPPED_TWO_PROCS "trap 'echo TERM > /sig' TERM; " TWO_PROCS

/* With a pid namespace of its own the init alone is signalled (the kernel kills the rest
 * of the namespace with it) and waited for on its pidfd. */
Test(cgroup_cmds, delete_force_kills_a_running_container_with_sigkill)
{
	struct lc t;
	init(&t, NULL);
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	cgt_run_ready(&t, "df", TRAPPED_TWO_PROCS);
	assert_force_delete_kills(&t, "df");
}

/* Runs ctrun where an empty tmpfs hides /sys/fs/cgroup/unified: the plain cgroup v1 view
 * (no cgroup.kill), as on a v1-only host and in make bench. */
static const char *const plain_v1[] = {
	"unshare",
	"-m",
	"--propagation",
	"private",
	"sh",
	"-c",
	"mount -t tmpfs none /sys/fs/cgroup/unified && exec \"$0\" \"$@\"",
	NULL};

/* Without one, every process of the cgroup is killed and waited for through pidfds
 * (cgroup.kill on a hybrid host; on plain v1 without freezing the cgroup); the child the
 * init leaves behind is the subreaper's to reap. */
Test(cgroup_cmds, delete_force_without_a_pid_namespace_kills_every_process)
{
	const char *const *views[] = {NULL, plain_v1};
	const char *ids[] = {"dn-hybrid", "dn-v1"};
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	for (size_t i = 0; i < 2; i++) {
		struct lc t;
		init(&t, NULL);
		lc_namespace_set(&t, "pid", NULL);
		t.wrapper = views[i];
		cgt_run_ready(&t, ids[i], TRAPPED_TWO_PROCS);
		assert_force_delete_kills(&t, ids[i]);
	}
}

/* Reads the count of forks pids.max refused from dir/pids.events ("max N"). */
static long refused_forks(const char *dir)
{
	char *path = ctt_path(dir, "pids.events"), *text = ctt_read_file(path);
	long n = -1;
	cr_assert_eq(sscanf(text, "max %ld", &n), 1, "%s: %s", path, text);
	free(text);
	free(path);
	return n;
}

/* A fork bomb at pids.max, no pid namespace, plain v1 (pidfd kill rounds, no cgroup.kill):
 * its processes fork until refused and die of it, so each round of SIGKILLs finds new
 * ones; delete --force still ends, kills every one and leaves no cgroup or state. */
Test(cgroup_cmds, delete_force_ends_a_fork_bomb_on_plain_v1)
{
	struct lc t;
	init(&t, "{\"pids\": {\"limit\": 16}}");
	lc_namespace_set(&t, "pid", NULL);
	t.wrapper = plain_v1;
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
	/* touch before the bomb: at the limit a fork of the init would fail */
	cgt_run_ready(&t, "fb", "touch /ready; f() { f & f; }; (f) 2>/dev/null & exec sleep 1000");
	char *dirs[N_CHECKED_HIERARCHIES];
	container_dirs("fb", dirs);
	cr_assert_not_null(dirs[1], "no pids hierarchy");
	while (refused_forks(dirs[1]) == 0)
		usleep(10000);
	struct ctt_result r;
	lc_ctrun(&r, &t, "delete", "--force", "fb");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	ctt_result_free(&r);
	/* the bomb's processes were orphans of this subreaper */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	assert_cgroups_gone(dirs);
	lc_assert_nothing_left(&t);
}

Test(cgroup_cmds, delete_force_of_a_paused_container)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "pd", COUNTER);
	lc_ok(&t, "pause", "pd");
	lc_ok(&t, "delete", "--force", "pd");
	struct ctt_result r;
	lc_ctrun(&r, &t, "list", "-q");
	cr_expect_str_empty(r.out);
	ctt_result_free(&r);
}

Test(cgroup_cmds, ps_lists_the_init_and_its_child)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "pp", TWO_PROCS);
	pid_t init = lc_pid(&t, "pp");
	struct ctt_result r;
	lc_ctrun(&r, &t, "ps", "--format", "json", "pp");
	cr_assert_eq(r.status, 0, "%s", r.err);
	yajl_val v = ctt_json_parse(r.out, "ps --format json");
	cr_assert(YAJL_IS_ARRAY(v), "%s", r.out);
	cr_expect_eq(v->u.array.len, 2, "%s", r.out);
	bool has_init = false;
	for (size_t i = 0; i < v->u.array.len; i++) {
		cr_assert(YAJL_IS_INTEGER(v->u.array.values[i]), "%s", r.out);
		has_init |= YAJL_GET_INTEGER(v->u.array.values[i]) == init;
	}
	cr_expect(has_init, "the init %d is not in %s", init, r.out);
	yajl_tree_free(v);
	ctt_result_free(&r);

	lc_ctrun(&r, &t, "ps", "pp", "-o", "pid,comm");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_eq(ctt_count_lines(r.out), 3, "a header and two rows:\n%s", r.out);
	cr_expect(strstr(r.out, "PID") && strstr(r.out, "sleep"), "%s", r.out);
	ctt_result_free(&r);

	lc_ctrun(&r, &t, "ps", "pp");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "UID") && strstr(r.out, "sleep 1000"), "ps -ef:\n%s", r.out);
	ctt_result_free(&r);
	lc_assert_fails(&t, LC_ARGV("ps", "--format", "json", "pp", "-ef"),
			"ps arguments cannot be used with --format json");
}

Test(cgroup_cmds, events_stats_has_runc_fields)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "ev", TWO_PROCS);
	struct ctt_result r;
	lc_ctrun(&r, &t, "events", "--stats", "ev");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_eq(ctt_count_lines(r.out), 1, "%s", r.out);
	yajl_val v = ctt_json_parse(r.out, "events --stats");
	cr_expect_str_eq(ctt_json_get_string(v, ".type"), "stats");
	cr_expect_str_eq(ctt_json_get_string(v, ".id"), "ev");
	cr_expect_gt(ctt_json_get_int(v, ".data.cpu.usage.total"), 0, "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.cpu.usage.kernel"), "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.cpu.usage.user"), "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.cpu.throttling"), "%s", r.out);
	cr_expect_gt(ctt_json_get_int(v, ".data.memory.usage.usage"), 0, "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.memory.usage.limit"), "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.memory.usage.failcnt"), "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.memory.swap"), "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.memory.raw"), "%s", r.out);
	cr_expect_eq(ctt_json_get_int(v, ".data.pids.current"), 2, "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.blkio"), "%s", r.out);
	cr_expect(ctt_json_get(v, ".data.hugetlb"), "%s", r.out);
	yajl_tree_free(v);
	ctt_result_free(&r);
}

Test(cgroup_cmds, events_reports_an_oom_kill)
{
	struct lc t;
	init(&t, "{\"memory\": {\"limit\": 16777216, \"swap\": 16777216}}");
	cgt_run_ready(&t, "oom",
		      "touch /ready; while [ ! -e /go ]; do sleep 0.05; done; "
		      "tail /dev/zero; touch /killed; sleep 1000");
	char *out = ctt_path(t.root, "events.out");
	pid_t ev = lc_spawn(&t, lc_ctrun_argv(&t, LC_ARGV("events", "--interval", "100ms", "oom")),
			    out, -1);
	/* the first stats record comes after the OOM watch is armed */
	free(ctt_wait_content(out, "\"type\":\"stats\""));
	char *go = lc_rootfs_file(&t, "go", "");
	char *text = ctt_wait_content(out, "\"type\":\"oom\"");
	cr_expect(strstr(text, "{\"type\":\"oom\",\"id\":\"oom\"}\n"), "%s", text);
	free(text);
	lc_ok(&t, "delete", "--force", "oom");
	cr_expect_eq(lc_wait(ev, 20000), 0, "events ends with the container");
	free(go);
	free(out);
}

/* The container's v1 memory (or cgroup2) file, read from outside. */
static char *outside(const char *controller, const char *id, const char *file)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s", cgt_subtree(), id);
	char *dir = cgt_dir(controller, rel);
	cr_assert(dir, "no %s hierarchy", controller);
	char *v = cgt_read(dir, file);
	free(dir);
	return v;
}

/* In its cgroup namespace the container's memory cgroup is the root of its mount. */
#define ANSWER                                                            \
	"touch /ready; while :; do if [ -e /ask ]; then rm /ask; "        \
	"cat /sys/fs/cgroup/memory/memory.limit_in_bytes > /answer.tmp; " \
	"mv /answer.tmp /answer; fi; sleep 0.02; done"

/* The container's own reading of its memory limit (it answers /ask in /answer). */
static char *ask_limit(const struct lc *t)
{
	char *answer = lc_rootfs_path(t, "answer"), *ask = lc_rootfs_path(t, "ask");
	unlink(answer);
	ctt_write_file(ask, "");
	free(ask);
	ctt_wait_file(answer);
	char *v = ctt_read_file(answer);
	free(answer);
	v[strcspn(v, "\n")] = '\0';
	return v;
}

Test(cgroup_cmds, update_flags_change_the_cgroup)
{
	struct lc t;
	init(&t, "{\"memory\": {\"limit\": 67108864}}");
	cgt_run_ready(&t, "up", ANSWER);
	char *before = outside("memory", "up", "memory.limit_in_bytes");
	cr_expect_str_eq(before, "67108864");
	lc_ok(&t, "update", "--memory", "32m", "--pids-limit", "50", "--cpu-period", "100000",
	      "--cpu-quota", "20000", "up");
	char *mem = outside("memory", "up", "memory.limit_in_bytes");
	cr_expect_str_eq(mem, "33554432");
	char *seen = ask_limit(&t);
	cr_expect_str_eq(seen, "33554432", "the container sees its new limit");
	char *pids = outside("pids", "up", "pids.max");
	cr_expect_str_eq(pids, "50");
	char *quota = outside("cpu", "up", "cpu.cfs_quota_us");
	cr_expect_str_eq(quota, "20000");
	/* a later update of the quota alone keeps the period it was given */
	lc_ok(&t, "update", "--cpu-quota", "30000", "up");
	char *quota2 = outside("cpu", "up", "cpu.cfs_quota_us");
	char *period = outside("cpu", "up", "cpu.cfs_period_us");
	cr_expect_str_eq(quota2, "30000");
	cr_expect_str_eq(period, "100000");
	free(before), free(mem), free(seen), free(pids), free(quota), free(quota2), free(period);
}

Test(cgroup_cmds, update_reads_a_document_from_stdin_or_a_file)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "ud", "touch /ready; sleep 1000");
	struct ctt_result r;
	lc_ctrun_input(&r, &t, "{\"pids\": {\"limit\": 33}, \"memory\": {\"limit\": 50331648}}",
		       "update", "--resources", "-", "ud");
	cr_expect_eq(r.status, 0, "%s", r.err);
	ctt_result_free(&r);
	char *pids = outside("pids", "ud", "pids.max");
	char *mem = outside("memory", "ud", "memory.limit_in_bytes");
	cr_expect_str_eq(pids, "33");
	cr_expect_str_eq(mem, "50331648");
	char *file = ctt_path(t.root, "res.json");
	ctt_write_file(file, "{\"pids\": {\"limit\": 44}}");
	char arg[600];
	snprintf(arg, sizeof(arg), "--resources=%s", file);
	lc_ok(&t, "update", arg, "ud");
	char *pids2 = outside("pids", "ud", "pids.max");
	cr_expect_str_eq(pids2, "44");
	free(pids), free(mem), free(pids2), free(file);
}

/* containerd's CRI sends a whole LinuxResources through the shim's `update --resources -`,
 * with "limit": 0 and "swap": 0 for a container it set no memory limit on: as runc, a 0
 * leaves the memory limits alone (written, 0 is refused with EBUSY on v1) while the rest
 * of the document applies. */
Test(cgroup_cmds, update_memory_zero_leaves_the_limit)
{
	struct lc t;
	init(&t, "{\"memory\": {\"limit\": 67108864}}");
	cgt_run_ready(&t, "uz", ANSWER);
	struct ctt_result r;
	lc_ctrun_input(
		&r, &t,
		"{\"cpu\": {\"shares\": 2, \"quota\": 0, \"period\": 100000, \"cpus\": \"\", "
		"\"mems\": \"\"}, \"memory\": {\"limit\": 0, \"swap\": 0}}",
		"update", "--resources", "-", "uz");
	cr_expect_eq(r.status, 0, "%s", r.err);
	ctt_result_free(&r);
	char *mem = outside("memory", "uz", "memory.limit_in_bytes");
	char *shares = outside("cpu", "uz", "cpu.shares");
	char *seen = ask_limit(&t);
	cr_expect_str_eq(mem, "67108864", "the limit is kept");
	cr_expect_str_eq(shares, "2", "the cpu part applied");
	cr_expect_str_eq(seen, "67108864", "the container sees its limit kept");
	free(mem), free(shares), free(seen);
}

/* `update --memory -1` of a container with a memory+swap limit lifts both, as runc does
 * (its rule: -1 without --memory-swap means both); a larger limit then applies. By flag and
 * by document alike. */
Test(cgroup_cmds, update_memory_unlimited_lifts_swap_too)
{
	struct lc t;
	init(&t, "{\"memory\": {\"limit\": 67108864, \"swap\": 134217728}}");
	cgt_run_ready(&t, "us", ANSWER);
	char *memsw = outside("memory", "us", "memory.memsw.limit_in_bytes");
	if (!memsw || strcmp(memsw, "134217728") != 0)
		cr_skip("no swap accounting here (memory.memsw.limit_in_bytes): %s", memsw);
	free(memsw);
	static const char unlimited[] = "9223372036854771712";
	for (int by_document = 0; by_document < 2; by_document++) {
		if (by_document) {
			lc_ok(&t, "update", "--memory", "64m", "--memory-swap", "128m", "us");
			struct ctt_result r;
			lc_ctrun_input(&r, &t, "{\"memory\": {\"limit\": -1}}", "update", "-r", "-",
				       "us");
			cr_expect_eq(r.status, 0, "%s", r.err);
			ctt_result_free(&r);
		} else {
			lc_ok(&t, "update", "--memory", "-1", "us");
		}
		char *mem = outside("memory", "us", "memory.limit_in_bytes");
		char *sw = outside("memory", "us", "memory.memsw.limit_in_bytes");
		char *seen = ask_limit(&t);
		cr_expect_str_eq(mem, unlimited, "by document: %d", by_document);
		cr_expect_str_eq(sw, unlimited, "by document: %d", by_document);
		cr_expect_str_eq(seen, unlimited, "the container sees no limit");
		free(mem), free(sw), free(seen);
	}
	lc_ok(&t, "update", "--memory", "256m", "us");
	char *mem = outside("memory", "us", "memory.limit_in_bytes");
	cr_expect_str_eq(mem, "268435456");
	free(mem);
}

Test(cgroup_cmds, update_bad_input_names_the_path_and_changes_nothing)
{
	struct lc t;
	init(&t, "{\"pids\": {\"limit\": 20}}");
	cgt_run_ready(&t, "ub", "touch /ready; sleep 1000");
	char *file = ctt_path(t.root, "bad.json");
	ctt_write_file(file, "{\"pids\": {\"limit\": 5}, \"memory\": {\"limit\": \"1g\"}}");
	lc_assert_fails(&t, LC_ARGV("update", "--resources", file, "ub"), file,
			".memory.limit: expected an integer, got \"1g\"");
	struct ctt_result r;
	lc_ctrun_input(&r, &t, "{\"devices\": [{\"allow\": true, \"access\": \"rwx\"}]}", "update",
		       "-r", "-", "ub");
	ctt_assert_error(&r, "stdin: .devices[0].access: expected a composition of");
	ctt_result_free(&r);
	lc_assert_fails(&t, LC_ARGV("update", "--memory", "lots", "ub"),
			"--memory: invalid value \"lots\"");
	char *pids = outside("pids", "ub", "pids.max");
	cr_expect_str_eq(pids, "20", "a refused update changes nothing");
	free(pids);
	free(file);
}

/* `update ID` without a flag or a document changes nothing and exits 0 while the container
 * can be updated, as runc and crun do (a script may build the flags and have none); a
 * container that is stopped or absent is refused, as with flags. */
Test(cgroup_cmds, update_of_nothing_changes_nothing)
{
	struct lc t;
	init(&t, "{\"pids\": {\"limit\": 20}}");
	cgt_run_ready(&t, "un",
		      "touch /ready; while [ ! -e /stop ]; do sleep 0.02; done; "
		      "grep -c . /proc/self/cgroup > /seen");
	struct ctt_result r;
	lc_ctrun(&r, &t, "update", "un");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_empty(r.out);
	cr_expect_str_empty(r.err);
	ctt_result_free(&r);
	char *pids = outside("pids", "un", "pids.max");
	cr_expect_str_eq(pids, "20");
	free(pids);
	lc_assert_status(&t, "un", "running");
	char *stop = lc_rootfs_path(&t, "stop"), *seen = lc_rootfs_path(&t, "seen");
	ctt_write_file(stop, "");
	ctt_wait_file(seen);
	lc_wait_status(&t, "un", "stopped");
	lc_assert_fails(&t, LC_ARGV("update", "un"), "\"un\"", "stopped");
	lc_assert_fails(&t, LC_ARGV("update", "nope"), "\"nope\"", "does not exist");
	free(stop), free(seen);
}

/* /node is c 1:99, a minor of mem without a driver: the device cgroup refuses it (EPERM),
 * or lets the open reach the driver, which answers ENXIO. */
#define NODE_PROBE                                                                      \
	"touch /ready; while :; do if head -c 0 /node 2>/node.err; then echo opened; "  \
	"elif grep -q 'not permitted' /node.err; then echo denied; else echo allowed; " \
	"fi > /node.tmp; mv /node.tmp /node.st; sleep 0.02; done"

static void assert_node_becomes(const struct lc *t, const char *want)
{
	char *st = lc_rootfs_path(t, "node.st");
	free(ctt_wait_content(st, want));
	free(st);
}

Test(cgroup_cmds, update_device_rules)
{
	struct lc t;
	init(&t, NULL);
	char *node = lc_rootfs_path(&t, "node");
	cr_assert_eq(mknod(node, S_IFCHR | 0644, makedev(1, 99)), 0, "mknod %s", node);
	free(node);
	cgt_run_ready(&t, "udev", NODE_PROBE);
	assert_node_becomes(&t, "denied");
	struct ctt_result r;
	lc_ctrun_input(&r, &t,
		       "{\"devices\": [{\"allow\": false}, {\"allow\": true, \"type\": \"c\", "
		       "\"major\": 1, \"minor\": 99, \"access\": \"r\"}]}",
		       "update", "--resources", "-", "udev");
	cr_expect_eq(r.status, 0, "%s", r.err);
	ctt_result_free(&r);
	assert_node_becomes(&t, "allowed");
}

/* A sub-cgroup of the container's, made from outside (as a supervisor would). */
static char *make_sub(const char *controller, const char *id, const char *sub)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/%s/%s", cgt_subtree(), id, sub);
	char *dir = cgt_dir(controller, rel);
	cr_assert(dir, "no %s hierarchy", controller);
	cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s", dir);
	return dir;
}

/* A v1 cpuset cgroup takes no process until it has cpus and mems: its parent's. */
static void mkdir_in(const char *controllers, const char *dir, void *arg)
{
	(void)arg;
	cr_assert_eq(mkdir(dir, 0755), 0, "mkdir %s (%s)", dir, controllers);
	if (!strstr(controllers, "cpuset"))
		return;
	static const char *const files[] = {"cpuset.cpus", "cpuset.mems"};
	for (size_t i = 0; i < 2; i++) {
		char parent[512], path[512];
		snprintf(parent, sizeof(parent), "%s/..", dir);
		char *v = cgt_read(parent, files[i]);
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		ctt_write_file(path, v);
		free(v);
	}
}

/* runc's `exec --cgroup [CONTROLLER:]SUB` (crun takes it too): the process starts in that
 * existing sub-cgroup of the container's, in the hierarchies named (all without a prefix),
 * seen from inside (its /proc/self/cgroup in the container's cgroup namespace) and outside
 * (the sub-cgroup's cgroup.procs); a missing one or a path climbing out is refused. */
Test(cgroup_cmds, exec_cgroup_starts_the_process_in_a_sub_cgroup)
{
	struct lc t;
	init(&t, NULL);
	cgt_run_ready(&t, "xs", "touch /ready; sleep 1000");
	char *pids_sub = make_sub("pids", "xs", "sub"), *cpu_sub = make_sub("cpu", "xs", "sub");
	struct ctt_result r;
	lc_ctrun(&r, &t, "exec", "--cgroup", "pids:sub", "xs", "cat", "/proc/self/cgroup");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	ctt_assert_line(r.out, "^[0-9]+:pids:/sub$");
	ctt_assert_line(r.out, "^[0-9]+:cpu:/$");
	ctt_result_free(&r);
	char *pidfile = ctt_path(t.root, "exec.pid");
	lc_ok(&t, "exec", "--detach", "--pid-file", pidfile, "--cgroup", "pids,cpu:sub", "xs",
	      "sleep", "1000");
	char *pid = ctt_read_file(pidfile);
	char *in_pids = cgt_read(pids_sub, "cgroup.procs"),
	     *in_cpu = cgt_read(cpu_sub, "cgroup.procs");
	cr_expect_str_eq(in_pids, pid, "pids sub-cgroup holds: %s", in_pids);
	cr_expect_str_eq(in_cpu, pid, "cpu sub-cgroup holds: %s", in_cpu);
	char rel[256];
	snprintf(rel, sizeof(rel), "%s/xs/all", cgt_subtree());
	cgt_each_dir(rel, mkdir_in, NULL);
	lc_ctrun(&r, &t, "exec", "--cgroup", "all", "xs", "cat", "/proc/self/cgroup");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_not(ctt_matches(r.out, ":/(\n|$)"), "a hierarchy not in all:\n%s", r.out);
	ctt_assert_line(r.out, "^[0-9]+:memory:/all$");
	ctt_result_free(&r);
	/* "/" is the container's own cgroup, as with runc */
	lc_ctrun(&r, &t, "exec", "--cgroup", "pids:/", "xs", "cat", "/proc/self/cgroup");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	ctt_assert_line(r.out, "^[0-9]+:pids:/$");
	ctt_result_free(&r);
	lc_assert_fails(&t, LC_ARGV("exec", "--cgroup", "", "xs", "true"), "sub-cgroup \"\"");
	lc_assert_fails(&t, LC_ARGV("exec", "--cgroup", "memory:nosuch", "xs", "true"),
			"sub-cgroup \"nosuch\"", "No such file or directory");
	lc_assert_fails(&t, LC_ARGV("exec", "--cgroup", "../xs", "xs", "true"),
			"sub-cgroup \"../xs\"", "below the container's cgroup");
	/* a list naming one hierarchy twice (as cpu,cpuacct names a co-mounted one) enters
	 * SUB once; two --cgroup for one hierarchy are refused, not stacked (pids/sub/all) */
	lc_ctrun(&r, &t, "exec", "--cgroup", "pids,pids:sub", "xs", "cat", "/proc/self/cgroup");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	ctt_assert_line(r.out, "^[0-9]+:pids:/sub$");
	ctt_result_free(&r);
	lc_assert_fails(
		&t, LC_ARGV("exec", "--cgroup", "pids:sub", "--cgroup", "pids:all", "xs", "true"),
		"--cgroup", "\"pids\" hierarchy is named twice");
	lc_assert_fails(&t, LC_ARGV("exec", "--cgroup", "pids,:sub", "xs", "true"), "\"pids,:sub\"",
			"bad controller list");
	lc_ok(&t, "delete", "--force", "xs");
	cr_expect_not(ctt_exists(pids_sub), "%s left", pids_sub);
	free(in_pids), free(in_cpu), free(pid), free(pidfile), free(pids_sub), free(cpu_sub);
}
