/* The systemd cgroup driver end to end on a machine without systemd: ctrun runs real
 * containers while a stand-in manager (tests/helpers/fake_systemd.py, on a private
 * dbus-daemon) answers its D-Bus calls as systemd does and makes the units' cgroups in the
 * machine's cgroup2 hierarchy. ctrun sees a unified layout through a cgroup2 mount on
 * /sys/fs/cgroup in a mount namespace of its own (the wrapper). What systemd itself does
 * with the properties is for make check-systemd, in a VM with systemd as PID 1. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/dbus_daemon.h"
#include "tests/lib/testlib.h"

#define PYTHON "/usr/bin/python3"

struct fake {
	struct ctt_dbus_daemon bus;
	pid_t pid;
	char *record, *mount, *cgroup_root, *wrapper, *root, *bundle;
	/* the manager and ctrun in a cgroup namespace rooted at cgroup_root (set before fake_start)
	 */
	bool cgroup_ns;
};

static struct fake fake;

/* Removes the test's cgroup tree, deepest first: only directories the fake made. */
static void remove_cgroup_tree(const char *dir)
{
	struct ctt_result r;
	ctt_run(&r, NULL,
		(const char *const[]){"find", dir, "-depth", "-type", "d", "-exec", "rmdir", "{}",
				      ";", NULL});
	ctt_result_free(&r);
}

static void fake_stop(void)
{
	if (fake.pid > 0) {
		kill(fake.pid, SIGTERM);
		waitpid(fake.pid, NULL, 0);
	}
	fake.pid = 0;
	ctt_dbus_daemon_stop(&fake.bus);
	if (fake.cgroup_root)
		remove_cgroup_tree(fake.cgroup_root);
	free(fake.record);
	free(fake.mount);
	free(fake.cgroup_root);
	free(fake.wrapper);
	free(fake.root);
	free(fake.bundle);
	memset(&fake, 0, sizeof(fake));
}

static void fini(void)
{
	fake_stop();
	ctt_cleanup();
}

TestSuite(systemd_driver, .fini = fini);

static void need_tools(void)
{
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){PYTHON, "-c", "import dbus, gi", NULL});
	int status = r.status;
	ctt_result_free(&r);
	if (status != 0)
		ctt_skip("%s cannot import dbus and gi (apt-get install python3-dbus python3-gi; "
			 "`make deps` does)",
			 PYTHON);
}

/* The cgroup2 mount the fake makes units in: /sys/fs/cgroup itself, or a hybrid host's. */
static char *cgroup2_mount(void)
{
	if (ctt_exists("/sys/fs/cgroup/cgroup.controllers"))
		return strdup("/sys/fs/cgroup");
	if (ctt_exists("/sys/fs/cgroup/unified/cgroup.controllers"))
		return strdup("/sys/fs/cgroup/unified");
	ctt_skip("no cgroup2 hierarchy is mounted");
	return NULL;
}

/* In a cgroup namespace, ctrun's cgroup2 mount is the test's cgroup, not the machine's. */
static void write_wrapper(void)
{
	char *text, *enter = NULL;
	fake.wrapper = ctt_path(fake.record, "ctrun-unified");
	if (fake.cgroup_ns)
		cr_assert(asprintf(&enter, "echo $$ > '%s/cgroup.procs' || exit 125\n",
				   fake.cgroup_root) > 0);
	cr_assert(
		asprintf(&text,
			 "#!/bin/sh\n"
			 "export DBUS_SYSTEM_BUS_ADDRESS='%s'\n"
			 "%s"
			 "exec unshare %s-m --propagation private sh -c 'mount -t cgroup2 cgroup2 "
			 "/sys/fs/cgroup && exec \"$0\" \"$@\"' '%s' \"$@\"\n",
			 fake.bus.address, enter ? enter : "", fake.cgroup_ns ? "-C " : "",
			 ctt_ctrun_path()) > 0);
	free(enter);
	ctt_write_file(fake.wrapper, text);
	cr_assert_eq(chmod(fake.wrapper, 0755), 0);
	free(text);
}

/* The bus, the fake manager (with units preloaded as "NAME:STATE"), the wrapper, a state
 * root and a bundle whose process sleeps. */
static void fake_start(const char *const *preload)
{
	need_tools();
	fake.mount = cgroup2_mount();
	ctt_dbus_daemon_start(&fake.bus);
	ctt_cleanup_first(fake_stop);
	fake.record = ctt_tmpdir();
	cr_assert(asprintf(&fake.cgroup_root, "%s/ctrun-test-systemd.%d", fake.mount,
			   (int)getpid()) > 0);
	ctt_mkdir_p(fake.cgroup_root);
	char *script = ctt_path(getenv("CTRUN_SRC") ? getenv("CTRUN_SRC") : ".",
				"tests/helpers/fake_systemd.py");
	const char *argv[32] = {PYTHON,	    script,	"--address",	 fake.bus.address,
				"--mount",  fake.mount, "--cgroup-root", fake.cgroup_root,
				"--record", fake.record};
	size_t n = 10;
	if (fake.cgroup_ns)
		argv[n++] = "--cgroup-ns";
	for (size_t i = 0; preload && preload[i] && n < 30; i++) {
		argv[n++] = "--preload";
		argv[n++] = preload[i];
	}
	char *log = ctt_path(fake.record, "fake.log"), *ready = ctt_path(fake.record, "ready");
	fake.pid = ctt_fork_exec(argv, NULL, "/dev/null", log, log, -1);
	ctt_wait_file(ready);
	write_wrapper();
	fake.root = ctt_tmpdir();
	fake.bundle = ctt_bundle_new();
	ctt_config_set(fake.bundle, ".process.args", "[\"busybox\", \"sleep\", \"1000\"]");
	ctt_config_set(fake.bundle, ".process.terminal", "false");
	free(log);
	free(ready);
	free(script);
}

static void set_path(const char *cgroups_path)
{
	char *q = ctt_json_quote(cgroups_path);
	ctt_config_set(fake.bundle, ".linux.cgroupsPath", q);
	free(q);
}

/* ctrun --root ROOT --systemd-cgroup ARGS... through the wrapper (opts may be NULL). */
static int ctrun_sd_with(struct ctt_result *r, const struct ctt_run_opts *opts,
			 const char *const *args)
{
	const char *argv[32] = {fake.wrapper, "--root", fake.root, "--systemd-cgroup"};
	size_t n = 4;
	for (size_t i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	return ctt_run(r, opts, argv);
}

static int ctrun_sd(struct ctt_result *r, const char *const *args)
{
	return ctrun_sd_with(r, NULL, args);
}

#define SD(r, ...) ctrun_sd(r, (const char *const[]){__VA_ARGS__, NULL})

/* The driver's wait for a job is systemd's 30 s, as runc's: a run that waits it out. */
static const struct ctt_run_opts wait_out = {.timeout_ms = 4 * CTT_DEFAULT_TIMEOUT_MS};

static void sd_ok(const char *const *args)
{
	struct ctt_result r;
	ctrun_sd(&r, args);
	cr_assert_eq(r.status, 0, "ctrun %s: exit %d: %s", args[0], r.status, r.err);
	ctt_result_free(&r);
}

#define SD_OK(...) sd_ok((const char *const[]){__VA_ARGS__, NULL})

/* ctrun create of the bundle as id, under cgroupsPath path; it must succeed. */
static void sd_create(const char *path, const char *id)
{
	set_path(path);
	SD_OK("create", "--bundle", fake.bundle, id);
}

/* What the fake recorded of a unit; NULL once it is gone. */
static yajl_val unit_record(const char *unit)
{
	char name[300];
	snprintf(name, sizeof(name), "%s.json", unit);
	char *file = ctt_path(fake.record, name);
	yajl_val v = ctt_exists(file) ? ctt_json_load(file) : NULL;
	free(file);
	return v;
}

static char *calls(void)
{
	char *file = ctt_path(fake.record, "calls.log");
	char *text = ctt_exists(file) ? ctt_read_file(file) : strdup("");
	free(file);
	return text;
}

static long long state_pid(const char *id)
{
	struct ctt_result r;
	SD(&r, "state", id);
	cr_assert_eq(r.status, 0, "state: %s", r.err);
	yajl_val st = ctt_json_parse(r.out, "state");
	long long pid = ctt_json_get_int(st, ".pid");
	yajl_tree_free(st);
	ctt_result_free(&r);
	return pid;
}

/* The cgroup2 path of pid as the host sees it (its "0::" line). */
static char *proc_cgroup(long long pid)
{
	char file[64];
	snprintf(file, sizeof(file), "/proc/%lld/cgroup", pid);
	char *text = ctt_read_file(file), *line = strstr(text, "0::");
	cr_assert_not_null(line, "%s: %s", file, text);
	char *out = strndup(line + 3, strcspn(line + 3, "\n"));
	free(text);
	return out;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void assert_state_gone(const char *id)
{
	char *dir = ctt_path(fake.root, id);
	cr_expect_not(ctt_exists(dir), "state directory %s left", dir);
	free(dir);
}

/* sd_create, then what the fake recorded of the unit it made. */
static yajl_val sd_create_unit(const char *path, const char *id, const char *unit)
{
	sd_create(path, id);
	yajl_val u = unit_record(unit);
	cr_assert_not_null(u, "%s", unit);
	return u;
}

/* A fresh manager, the bundle's config with field set to json, created as id at path: the
 * unit's record. */
static yajl_val sd_create_unit_with(const char *field, const char *json, const char *path,
				    const char *id, const char *unit)
{
	fake_start(NULL);
	ctt_config_set(fake.bundle, field, json);
	return sd_create_unit(path, id, unit);
}

/* ctrun create of the bundle as id fails with an error that names what, and leaves no state. */
static void sd_assert_create_fails(const char *id, const char *what)
{
	struct ctt_result r;
	SD(&r, "create", "--bundle", fake.bundle, id);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, what), "%s: %s", what, r.err);
	ctt_result_free(&r);
	assert_state_gone(id);
}

Test(systemd_driver, create_makes_a_scope_with_runcs_properties_and_delete_stops_it)
{
	fake_start(NULL);
	sd_create("system.slice:ctrun:web", "web");
	long long pid = state_pid("web");
	yajl_val u = unit_record("ctrun-web.scope");
	cr_assert_not_null(u, "no unit ctrun-web.scope");
	/* runc's "libcontainer container ID", and the create's token (state.json keeps it) */
	const char *description = ctt_json_get_string(u, ".Description.value");
	cr_expect(ctt_matches(description, "^ctrun container web \\(create [0-9a-f]{16}\\)$"), "%s",
		  description);
	cr_expect_str_eq(ctt_json_get_string(u, ".Slice.value"), "system.slice");
	cr_expect(ctt_json_get_bool(u, ".Delegate.value"));
	cr_expect_not(ctt_json_get_bool(u, ".DefaultDependencies.value"));
	cr_expect_eq(ctt_json_get_int(u, ".PIDs.value[0]"), pid, "PIDs holds the init");
	static const char *const accounting[] = {".MemoryAccounting.value", ".CPUAccounting.value",
						 ".IOAccounting.value", ".TasksAccounting.value"};
	for (size_t i = 0; i < 4; i++)
		cr_expect(ctt_json_get_bool(u, accounting[i]), "%s", accounting[i]);
	const char *cgroup = ctt_json_get_string(u, "._cgroup");
	cr_expect(ends_with(cgroup, "/system.slice/ctrun-web.scope"), "%s", cgroup);
	/* the init is in the unit's cgroup, and state.json names the unit */
	char *actual = proc_cgroup(pid);
	cr_expect_str_eq(actual, cgroup);
	char *state_file = ctt_path(fake.root, "web/state.json");
	yajl_val st = ctt_json_load(state_file);
	cr_expect_str_eq(ctt_json_get_string(st, ".ctrun.systemdUnit"), "ctrun-web.scope");
	const char *token = ctt_json_get_string(st, ".ctrun.systemdUnitToken");
	cr_expect(token && strstr(description, token), "token %s, unit's %s", token, description);
	cr_expect(ctt_json_get_bool(st, ".ctrun.systemdUnitStarted"));
	yajl_tree_free(st);
	yajl_tree_free(u);
	/* the init killed, the scope emptied goes as systemd's does (delete stops a unit still
	 * there: delete_stops_the_containers_own_unit_and_what_is_left_in_it) */
	SD_OK("delete", "--force", "web");
	cr_expect_null(unit_record("ctrun-web.scope"), "the unit is gone");
	char *log = calls();
	/* JobRemoved comes to the client that queued the job: no Subscribe to every signal;
	 * the version matters to memory.oom.group alone */
	cr_expect_not(strstr(log, "Subscribe"), "%s", log);
	cr_expect_not(strstr(log, "Get Version"), "%s", log);
	cr_expect_not(ctt_alive((pid_t)pid));
	assert_state_gone("web");
	free(log);
	free(actual);
	free(state_file);
}

Test(systemd_driver, nested_slices_and_a_unit_that_is_a_slice)
{
	fake_start(NULL);
	yajl_val u = sd_create_unit("a-b.slice:pre:c1", "c1", "pre-c1.scope");
	cr_expect(ends_with(ctt_json_get_string(u, "._cgroup"), "/a.slice/a-b.slice/pre-c1.scope"));
	char *actual = proc_cgroup(state_pid("c1"));
	cr_expect(ends_with(actual, "/a.slice/a-b.slice/pre-c1.scope"), "%s", actual);
	SD_OK("delete", "--force", "c1");
	yajl_val s =
		sd_create_unit("machine.slice:x:machine-pod1.slice", "c2", "machine-pod1.slice");
	cr_expect_str_eq(ctt_json_get_string(s, ".Wants.type"), "Array");
	cr_expect_str_eq(ctt_json_get_string(s, ".Wants.value[0]"), "machine.slice");
	cr_expect_null(ctt_json_get(s, ".Delegate"), "a slice is not delegated");
	free(actual);
	actual = proc_cgroup(state_pid("c2"));
	cr_expect(ends_with(actual, "/machine.slice/machine-pod1.slice"), "%s", actual);
	SD_OK("delete", "--force", "c2");
	cr_expect_null(unit_record("machine-pod1.slice"));
	yajl_tree_free(u);
	yajl_tree_free(s);
	free(actual);
}

Test(systemd_driver, commands_after_create_work_on_the_units_cgroup)
{
	fake_start(NULL);
	sd_create(":ctrun:cmds", "cmds");
	long long pid = state_pid("cmds");
	struct ctt_result r;
	SD(&r, "ps", "--format", "json", "cmds");
	cr_assert_eq(r.status, 0, "%s", r.err);
	char want[32];
	snprintf(want, sizeof(want), "[%lld]", pid);
	cr_expect(strstr(r.out, want), "ps: %s (init %lld)", r.out, pid);
	ctt_result_free(&r);
	SD_OK("pause", "cmds");
	SD(&r, "state", "cmds");
	cr_expect(strstr(r.out, "\"paused\""), "%s", r.out);
	ctt_result_free(&r);
	SD_OK("resume", "cmds");
	SD(&r, "state", "cmds");
	cr_expect(strstr(r.out, "\"created\""), "%s", r.out);
	ctt_result_free(&r);
	SD_OK("kill", "--all", "cmds", "KILL");
	for (int i = 0; i < 1000 && ctt_alive((pid_t)pid); i++)
		ctt_sleep_ms(10);
	cr_expect_not(ctt_alive((pid_t)pid), "kill --all reached the init");
	SD_OK("delete", "cmds");
	cr_expect_null(unit_record("ctrun-cmds.scope"));
	assert_state_gone("cmds");
}

Test(systemd_driver, annotations_become_properties)
{
	yajl_val u = sd_create_unit_with(".annotations",
					 "{\"org.systemd.property.TimeoutStopSec\": \"5\","
					 " \"org.systemd.property.CollectMode\": "
					 "\"'inactive-or-failed'\","
					 " \"org.systemd.property.Description\": \"'my pod'\","
					 " \"org.example.other\": \"x\"}",
					 ":ctrun:ann", "ann", "ctrun-ann.scope");
	/* a Description of the user's keeps the create's token at its end */
	const char *description = ctt_json_get_string(u, ".Description.value");
	cr_expect(ctt_matches(description, "^my pod \\(create [0-9a-f]{16}\\)$"), "%s",
		  description);
	cr_expect_str_eq(ctt_json_get_string(u, ".TimeoutStopUSec.type"), "UInt64");
	cr_expect_eq(ctt_json_get_int(u, ".TimeoutStopUSec.value"), 5000000);
	cr_expect_str_eq(ctt_json_get_string(u, ".CollectMode.value"), "inactive-or-failed");
	yajl_tree_free(u);
	SD_OK("delete", "--force", "ann");
}

Test(systemd_driver, bad_annotations_are_refused_before_anything_is_made)
{
	fake_start(NULL);
	static const char *const bad[][2] = {
		{"{\"org.systemd.property.lower\": \"1\"}", "is not a systemd property name"},
		{"{\"org.systemd.property.CPUWeight\": \"uint64 -1\"}",
		 "org.systemd.property.CPUWeight"},
		{"{\"org.systemd.property.TimeoutStopSec\": \"'x'\"}", "a duration in seconds"},
	};
	set_path(":ctrun:bad");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ctt_config_set(fake.bundle, ".annotations", bad[i][0]);
		sd_assert_create_fails("bad", bad[i][1]);
	}
	char *log = calls();
	cr_expect_not(strstr(log, "StartTransientUnit"), "%s", log);
	free(log);
}

Test(systemd_driver, systemds_error_reaches_the_user_verbatim)
{
	fake_start(NULL);
	set_path(":ctrun:unknown");
	ctt_config_set(fake.bundle, ".annotations", "{\"org.systemd.property.Bogus\": \"true\"}");
	sd_assert_create_fails("unknown", "Cannot set property Bogus, or unknown property.");
}

Test(systemd_driver, device_rules_become_a_strict_device_policy)
{
	yajl_val u = sd_create_unit_with(".linux.resources",
					 "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"},"
					 " {\"allow\": true, \"type\": \"c\", \"major\": 1,"
					 " \"minor\": 3, \"access\": \"rw\"}]}",
					 ":ctrun:dev", "dev", "ctrun-dev.scope");
	cr_expect_str_eq(ctt_json_get_string(u, ".DevicePolicy.value"), "strict");
	char *allow = ctt_json_text(ctt_json_get(u, ".DeviceAllow.value"));
	cr_expect(strstr(allow, "[\"/dev/char/1:3\",\"rw\"]"), "%s", allow);
	cr_expect(strstr(allow, "[\"char-pts\",\"rwm\"]"), "%s", allow);
	cr_expect(strstr(allow, "[\"char-*\",\"m\"]"), "%s", allow);
	free(allow);
	yajl_tree_free(u);
	/* update sets the unit's properties (and the files) */
	char *res = ctt_write_tmp("res.json", "{\"devices\": [{\"allow\": false, \"access\": "
					      "\"rwm\"}]}");
	SD_OK("update", "--resources", res, "dev");
	char *log = calls();
	cr_expect(strstr(log, "SetUnitProperties ctrun-dev.scope True"), "%s", log);
	cr_expect_not(strstr(log, "Subscribe"), "%s", log);
	u = unit_record("ctrun-dev.scope");
	allow = ctt_json_text(ctt_json_get(u, ".DeviceAllow.value"));
	cr_expect_not(strstr(allow, "[\"/dev/char/1:3\",\"rw\"]"), "after update: %s", allow);
	SD_OK("delete", "--force", "dev");
	free(allow);
	free(log);
	free(res);
	yajl_tree_free(u);
}

Test(systemd_driver, an_active_unit_of_that_name_is_an_error_and_is_left_alone)
{
	fake_start((const char *const[]){"ctrun-dup.scope:active", NULL});
	set_path(":ctrun:dup");
	sd_assert_create_fails("dup", "Unit ctrun-dup.scope already exists.");
	yajl_val u = unit_record("ctrun-dup.scope");
	cr_expect_not_null(u, "the other unit stays");
	char *log = calls();
	cr_expect_not(strstr(log, "StopUnit"), "%s", log);
	cr_expect_not(strstr(log, "ResetFailedUnit"), "%s", log);
	free(log);
	yajl_tree_free(u);
}

Test(systemd_driver, a_failed_unit_of_that_name_is_reset_and_the_start_retried)
{
	fake_start((const char *const[]){"ctrun-old.scope:failed", NULL});
	sd_create(":ctrun:old", "old");
	char *log = calls();
	cr_expect(ctt_matches(log, "StartTransientUnit ctrun-old.scope fail\n"
				   "(.*\n)*ResetFailedUnit ctrun-old.scope\n"
				   "StartTransientUnit ctrun-old.scope fail\n"),
		  "%s", log);
	yajl_val u = unit_record("ctrun-old.scope");
	cr_expect_str_eq(ctt_json_get_string(u, "._state"), "active");
	SD_OK("delete", "--force", "old");
	free(log);
	yajl_tree_free(u);
}

Test(systemd_driver, a_job_removed_before_the_reply_is_not_missed)
{
	fake_start(NULL);
	sd_create(":ctrun:earlyjob", "earlyjob");
	yajl_val u = unit_record("ctrun-earlyjob.scope");
	cr_expect_not_null(u);
	SD_OK("delete", "--force", "earlyjob");
	cr_expect_null(unit_record("ctrun-earlyjob.scope"));
	yajl_tree_free(u);
}

Test(systemd_driver, a_failed_job_fails_the_create_and_leaves_nothing)
{
	fake_start(NULL);
	set_path(":ctrun:failjob");
	struct ctt_result r;
	SD(&r, "create", "--bundle", fake.bundle, "failjob");
	cr_expect_eq(r.status, 1);
	cr_expect(ctt_matches(r.err, "start ctrun-failjob.scope: job .* ended \"failed\""), "%s",
		  r.err);
	ctt_result_free(&r);
	assert_state_gone("failjob");
	cr_expect_null(unit_record("ctrun-failjob.scope"), "the failed unit is reset");
}

/* How many lines of the manager's calls.log are line. */
static int count_calls(const char *line)
{
	char *log = calls();
	int n = 0;
	for (char *p = log; (p = strstr(p, line)); p += strlen(line))
		n += (p == log || p[-1] == '\n') && (p[strlen(line)] == '\n');
	free(log);
	return n;
}

/* The host's path of a unit's cgroup directory, as the fake recorded it. */
static char *unit_dir(const char *unit)
{
	yajl_val u = unit_record(unit);
	cr_assert_not_null(u, "%s", unit);
	char *dir;
	cr_assert(asprintf(&dir, "%s%s", fake.mount, ctt_json_get_string(u, "._cgroup")) > 0);
	yajl_tree_free(u);
	return dir;
}

/* A process of the test's own (argv) in the unit's cgroup, as one the killed create or its
 * init left there (the init's PDEATHSIG may not have been acted on yet). */
static pid_t stray_in_unit(const char *unit, const char *const *argv)
{
	char *dir = unit_dir(unit), *procs = ctt_path(dir, "cgroup.procs"), pid[32];
	pid_t stray = ctt_fork_exec(argv, NULL, "/dev/null", "/dev/null", "/dev/null", -1);
	snprintf(pid, sizeof(pid), "%d", (int)stray);
	ctt_write_file(procs, pid);
	free(procs);
	free(dir);
	return stray;
}

/* Whether the stray was killed (reaped here); one that was not is killed now, so that the
 * test leaves nothing behind either way. */
static bool stray_was_killed(pid_t stray)
{
	if (waitpid(stray, NULL, WNOHANG) == stray)
		return true;
	kill(stray, SIGKILL);
	waitpid(stray, NULL, 0);
	return false;
}

/* Turns on the fake manager's fault NAME (tests/helpers/fake_systemd.py), or off (NULL). */
static void fault(const char *name, const char *spec)
{
	char file[128];
	snprintf(file, sizeof(file), "fault.%s", name);
	char *path = ctt_path(fake.record, file);
	if (spec)
		ctt_write_file(path, spec);
	else
		cr_assert(unlink(path) == 0 || errno == ENOENT, "unlink %s", path);
	free(path);
}

/* A create of the bundle as id that is killed while it waits for its unit's start job (which
 * never ends), with a process of the test's own (argv) left in the unit. */
static pid_t killed_create_leaves(const char *id, const char *unit, const char *const *argv)
{
	const char *create[] = {fake.wrapper,	    "--root", fake.root,
				"--systemd-cgroup", "create", "--bundle",
				fake.bundle,	    id,	      NULL};
	char *out = ctt_path(fake.record, "create.out"), name[300];
	pid_t pid = ctt_fork_exec(create, NULL, "/dev/null", out, out, -1);
	snprintf(name, sizeof(name), "%s.json", unit);
	char *record = ctt_path(fake.record, name);
	ctt_wait_file(record); /* started; its job does not end */
	pid_t stray = stray_in_unit(unit, argv);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	free(record);
	free(out);
	return stray;
}

/* ctrun state id fails: no container of that id is recorded. */
static void assert_no_container(const char *id)
{
	struct ctt_result r;
	SD(&r, "state", id);
	cr_expect_neq(r.status, 0, "state %s: %s", id, r.out);
	cr_expect(strstr(r.err, "does not exist"), "%s", r.err);
	ctt_result_free(&r);
}

/* The stop of a "slowjob" unit never ends while a process is in it (as systemd's waits out
 * the stop timeout for processes that ignore SIGTERM, a container's init among them):
 * delete kills them itself, waits for them, and only then stops the unit. */
Test(systemd_driver, delete_force_after_a_killed_create_stops_the_unit)
{
	fake_start(NULL);
	set_path(":ctrun:slowjob");
	pid_t stray = killed_create_leaves("slowjob", "ctrun-slowjob.scope",
					   (const char *const[]){"sleep", "1000", NULL});
	SD_OK("delete", "--force", "slowjob");
	cr_expect(stray_was_killed(stray), "the unit's process was killed");
	cr_expect_null(unit_record("ctrun-slowjob.scope"), "the unit is stopped");
	cr_expect_eq(count_calls("StopUnit ctrun-slowjob.scope replace"), 1);
	assert_state_gone("slowjob");
}

/* A start job that does not end in time may still bring the unit up later: the create that
 * gave up on it stops it, so that nothing is left (a slice: it stays once emptied). */
Test(systemd_driver, a_start_job_that_does_not_end_in_time_is_stopped)
{
	fake_start(NULL);
	set_path("machine.slice:x:machine-slowstart.slice");
	struct ctt_result r;
	ctrun_sd_with(&r, &wait_out,
		      (const char *const[]){"create", "--bundle", fake.bundle, "slowstart", NULL});
	cr_expect_eq(r.status, 1);
	cr_expect(ctt_matches(r.err, "start machine-slowstart.slice: waiting for job .*"), "%s",
		  r.err);
	ctt_result_free(&r);
	assert_state_gone("slowstart");
	char *log = calls();
	cr_expect(ctt_matches(log, "StartTransientUnit machine-slowstart.slice fail\n"
				   "StopUnit machine-slowstart.slice replace\n"
				   "ResetFailedUnit machine-slowstart.slice\n"),
		  "%s", log);
	cr_expect_null(unit_record("machine-slowstart.slice"), "the unit is stopped");
	free(log);
}

/* The unit started, its cgroup cannot be known: the create fails naming systemd's error and
 * the unit is stopped once (by the create's clean-up, the one owner of it; a slice, which
 * stays once emptied). */
Test(systemd_driver, a_unit_whose_cgroup_is_unknown_fails_the_create_and_is_stopped_once)
{
	fake_start(NULL);
	set_path("machine.slice:x:machine-nocgroup.slice");
	sd_assert_create_fails("nocgroup",
			       "Access to machine-nocgroup.slice's ControlGroup denied.");
	cr_expect_null(unit_record("machine-nocgroup.slice"), "the unit is stopped");
	cr_expect_eq(count_calls("StopUnit machine-nocgroup.slice replace"), 1);
}

/* A start job that does not end in time (the unit may still come up), and a stop of the unit
 * that fails: the create fails and records nothing as a container, but keeps the unit's
 * record for `delete --force` and a create of the id to remove it. */
static char *create_leaves_a_unit_it_cannot_stop(const char *id, const char *unit)
{
	fault("start-job", "never");
	fault("StopUnit", "org.freedesktop.DBus.Error.Failed Refused for the test.");
	struct ctt_result r;
	ctrun_sd_with(&r, &wait_out,
		      (const char *const[]){"create", "--bundle", fake.bundle, id, NULL});
	cr_expect_eq(r.status, 1);
	char *start = NULL;
	cr_assert(asprintf(&start, "start %s: waiting for job ", unit) > 0);
	cr_expect(strstr(r.err, start), "%s", r.err);
	ctt_result_free(&r);
	free(start);
	assert_no_container(id);
	char *dir = unit_dir(unit); /* its stop failed: it is still there */
	fault("start-job", NULL);
	return dir;
}

Test(systemd_driver, delete_force_removes_the_unit_a_failed_create_could_not_stop)
{
	fake_start(NULL);
	set_path(":ctrun:lost");
	char *dir = create_leaves_a_unit_it_cannot_stop("lost", "ctrun-lost.scope");
	/* while systemd still refuses: one line naming the id, and the record stays */
	struct ctt_result r;
	SD(&r, "delete", "--force", "lost");
	cr_expect_eq(r.status, 1);
	cr_expect_eq(ctt_count_lines(r.err), 1, "%s", r.err);
	cr_expect(strstr(r.err, "\"lost\"") && strstr(r.err, "Refused for the test."), "%s", r.err);
	ctt_result_free(&r);
	cr_expect_not_null(unit_record("ctrun-lost.scope"));
	fault("StopUnit", NULL);
	SD_OK("delete", "--force", "lost");
	cr_expect_null(unit_record("ctrun-lost.scope"), "the unit is stopped");
	cr_expect_not(ctt_exists(dir), "%s left", dir);
	assert_state_gone("lost");
	free(dir);
}

Test(systemd_driver, a_create_of_the_id_removes_the_unit_a_failed_create_could_not_stop)
{
	fake_start(NULL);
	set_path(":ctrun:again");
	char *dir = create_leaves_a_unit_it_cannot_stop("again", "ctrun-again.scope");
	fault("StopUnit", NULL);
	SD_OK("create", "--bundle", fake.bundle, "again");
	char *log = calls();
	cr_expect(ctt_matches(log, "StartTransientUnit ctrun-again.scope fail\n"
				   "(.*\n)*StopUnit ctrun-again.scope replace\n"
				   "(.*\n)*StartTransientUnit ctrun-again.scope fail\n"),
		  "the old unit is stopped before the new one starts: %s", log);
	yajl_val u = unit_record("ctrun-again.scope");
	cr_assert_not_null(u);
	cr_expect_str_eq(ctt_json_get_string(u, "._state"), "active");
	long long pid = state_pid("again");
	char *init = proc_cgroup(pid);
	cr_expect_str_eq(init, ctt_json_get_string(u, "._cgroup"));
	SD_OK("delete", "--force", "again");
	cr_expect_null(unit_record("ctrun-again.scope"));
	cr_expect_not(ctt_exists(dir), "%s left", dir);
	assert_state_gone("again");
	yajl_tree_free(u);
	free(init);
	free(log);
	free(dir);
}

/* systemd cannot tell the unit's cgroup (a D-Bus error other than "no such unit" from the
 * Get of its ControlGroup), and its stop only sends SIGTERM, which the process left in the
 * unit ignores as a container's init does: delete --force has systemd kill the unit's
 * processes, so the stop ends at once, and removes everything. */
Test(systemd_driver, delete_force_kills_the_unit_whose_control_group_cannot_be_read)
{
	fake_start(NULL);
	set_path(":ctrun:blind");
	fault("start-job", "never");
	pid_t stray = killed_create_leaves(
		"blind", "ctrun-blind.scope",
		(const char *const[]){"sh", "-c", "trap '' TERM; exec sleep 1000", NULL});
	char *dir = unit_dir("ctrun-blind.scope");
	fault("ControlGroup", "org.freedesktop.DBus.Error.AccessDenied Denied for the test.");
	fault("stop-waits", "");
	struct ctt_result r;
	ctrun_sd_with(&r, &wait_out, (const char *const[]){"delete", "--force", "blind", NULL});
	cr_expect_eq(r.status, 0, "%s", r.err);
	ctt_result_free(&r);
	cr_expect(stray_was_killed(stray), "the unit's process was killed");
	cr_expect_null(unit_record("ctrun-blind.scope"), "the unit is stopped");
	cr_expect_not(ctt_exists(dir), "%s left", dir);
	assert_state_gone("blind");
	free(dir);
}

/* While systemd will not find units for another reason than "no such unit" (GetUnit
 * denied), delete --force of id fails in one line naming id and the unit, saying it cannot
 * tell whether the unit is the container's, and leaves the unit; then systemd answers again. */
static void assert_delete_force_fails_while_systemd_will_not_say(const char *id, const char *unit)
{
	fault("GetUnit", "org.freedesktop.DBus.Error.AccessDenied Denied for the test.");
	struct ctt_result r;
	SD(&r, "delete", "--force", id);
	char *want = NULL;
	cr_assert(asprintf(&want,
			   "\"%s\".*%s: cannot tell whether it is the container's.*Denied for the "
			   "test.$",
			   id, unit) > 0);
	cr_expect_eq(r.status, 1);
	cr_expect_eq(ctt_count_lines(r.err), 1, "%s", r.err);
	cr_expect(ctt_matches(r.err, want), "%s", r.err);
	ctt_result_free(&r);
	free(want);
	cr_expect_not_null(unit_record(unit), "stopped while it could be another's");
	fault("GetUnit", NULL);
}

/* systemd will not find the unit for another reason than "no such unit": whether the unit
 * of the name is still the container's cannot be told (it may have gone and another's been
 * made under its name), so delete --force fails in one line naming the container and keeps
 * the unit, its process and the record; once systemd answers, it kills and stops the unit. */
Test(systemd_driver, delete_force_keeps_the_unit_while_systemd_will_not_say_whose_it_is)
{
	fake_start(NULL);
	set_path(":ctrun:blind");
	fault("start-job", "never");
	pid_t stray = killed_create_leaves("blind", "ctrun-blind.scope",
					   (const char *const[]){"sleep", "1000", NULL});
	assert_delete_force_fails_while_systemd_will_not_say("blind", "ctrun-blind.scope");
	cr_expect_eq(waitpid(stray, NULL, WNOHANG), 0, "the unit's process was killed");
	SD_OK("delete", "--force", "blind");
	cr_expect(stray_was_killed(stray), "the unit's process was killed");
	cr_expect_null(unit_record("ctrun-blind.scope"), "the unit is stopped");
	assert_state_gone("blind");
}

/* ---- whose a unit is when the answer to its start was lost ---- */

#define SIGKILLED 137

/* The path of a file in the state directory of id. */
static char *state_file(const char *id, const char *name)
{
	char *rel, *path;
	cr_assert(asprintf(&rel, "%s/%s", id, name) > 0);
	path = ctt_path(fake.root, rel);
	free(rel);
	return path;
}

/* A create of the bundle as id that the manager kills at its start, as fault.start-call
 * `how` says (tests/helpers/fake_systemd.py): "unsent" (before the call went out) or
 * "unanswered" (before its answer came back). What is left is its pending record. */
static void create_killed_at_the_start(const char *id, const char *how)
{
	fault("start-call", how);
	struct ctt_result r;
	SD(&r, "create", "--bundle", fake.bundle, id);
	cr_expect_eq(r.status, SIGKILLED, "create killed at its start (%s): exit %d: %s", how,
		     r.status, r.err);
	ctt_result_free(&r);
	fault("start-call", NULL);
	char *pending = state_file(id, "pending.json");
	cr_expect(ctt_exists(pending), "%s", pending);
	free(pending);
	assert_no_container(id);
}

/* The other container (init other, in cgroup) of unit kept its init there, and its unit was
 * neither stopped nor signalled; then it is deleted, and its unit with it. */
static void assert_others_unit_untouched(long long other, const char *cgroup, const char *unit)
{
	cr_expect(ctt_alive((pid_t)other), "the other container's init was killed");
	char *now = proc_cgroup(other), *stop = NULL;
	cr_expect_str_eq(now, cgroup, "the other container's init left its unit");
	cr_assert(asprintf(&stop, "StopUnit %s replace", unit) > 0);
	cr_expect_eq(count_calls(stop), 0, "%s", stop);
	char *log = calls();
	cr_expect_not(strstr(log, "KillUnit"), "%s", log);
	SD_OK("delete", "--force", "other");
	cr_expect_null(unit_record(unit));
	free(log), free(stop), free(now);
}

/* Two cgroupsPaths of one unit name: another container's unit has the name the killed create
 * recorded before its start. delete --force and a create of the id find the unit is not the
 * killed create's (its Description lacks that create's token), say so, and leave the unit
 * and its processes alone, whether the kill came before the call or before systemd's
 * "already exists" reached the create. */
Test(systemd_driver, a_killed_create_leaves_anothers_unit_of_its_name_alone)
{
	fake_start(NULL);
	sd_create(":ctrun:shared", "other");
	long long other = state_pid("other");
	char *cgroup = proc_cgroup(other);
	static const char *const how[] = {"unsent", "unanswered"};
	for (size_t i = 0; i < 2; i++) {
		create_killed_at_the_start("mine", how[i]);
		struct ctt_result r;
		if (i == 0)
			SD(&r, "delete", "--force", "mine");
		else
			SD(&r, "create", "--bundle", fake.bundle, "mine");
		cr_expect_eq(r.status, i == 0 ? 0 : 1, "%s", r.err);
		cr_expect(strstr(r.err, "container \"mine\": systemd unit ctrun-shared.scope is "
					"another's (Description \"ctrun container other (create "),
			  "%s", r.err);
		cr_expect(i == 0 || strstr(r.err, "Unit ctrun-shared.scope already exists."), "%s",
			  r.err);
		ctt_result_free(&r);
		assert_state_gone("mine");
	}
	assert_others_unit_untouched(other, cgroup, "ctrun-shared.scope");
	free(cgroup);
}

/* The same kills with no unit of that name: systemd took the start the killed create never
 * heard of (a slice, which stays once empty), and delete --force stops it for its token;
 * while systemd will not tell the unit's Description, delete --force fails saying so in one
 * line and keeps the record. A start that never went out leaves nothing to stop. */
Test(systemd_driver, delete_force_stops_the_unit_of_a_create_killed_at_its_start)
{
	fake_start(NULL);
	set_path("machine.slice:x:machine-kill.slice");
	create_killed_at_the_start("kill", "unanswered");
	char *dir = unit_dir("machine-kill.slice");
	assert_delete_force_fails_while_systemd_will_not_say("kill", "machine-kill.slice");
	SD_OK("delete", "--force", "kill");
	cr_expect_null(unit_record("machine-kill.slice"), "the unit is stopped");
	cr_expect_not(ctt_exists(dir), "%s left", dir);
	assert_state_gone("kill");
	create_killed_at_the_start("kill", "unsent");
	SD_OK("delete", "--force", "kill");
	assert_state_gone("kill");
	cr_expect_eq(count_calls("StopUnit machine-kill.slice replace"), 1);
	cr_expect_eq(count_calls("StartTransientUnit machine-kill.slice fail"), 1);
	free(dir);
}

/* Killed as systemd's answer came in, before the record said systemd took the start (strace
 * kills create at its second write of pending.json, the first being before the start): the
 * unit's token decides, and delete --force stops it. */
Test(systemd_driver, delete_force_stops_the_unit_of_a_create_killed_before_recording_it_taken)
{
	fake_start(NULL);
	set_path("machine.slice:x:machine-rec.slice");
	const char *argv[] = {"strace",
			      "-o",
			      "/dev/null",
			      "-e",
			      "trace=openat",
			      "-e",
			      "inject=openat:signal=KILL:when=2",
			      "-P",
			      "pending.json.tmp",
			      fake.wrapper,
			      "--root",
			      fake.root,
			      "--systemd-cgroup",
			      "create",
			      "--bundle",
			      fake.bundle,
			      "rec",
			      NULL};
	struct ctt_result r;
	ctt_run(&r, NULL, argv);
	cr_expect_eq(r.status, SIGKILLED, "exit %d: %s", r.status, r.err);
	ctt_result_free(&r);
	char *file = state_file("rec", "pending.json");
	yajl_val pending = ctt_json_load(file);
	const char *token = ctt_json_get_string(pending, ".ctrun.systemdUnitToken");
	cr_expect_null(ctt_json_get(pending, ".ctrun.systemdUnitStarted"), "recorded as taken");
	yajl_val u = unit_record("machine-rec.slice");
	cr_assert_not_null(u, "systemd took the start");
	const char *description = ctt_json_get_string(u, ".Description.value");
	cr_expect(token && strstr(description, token), "token %s, unit's %s", token, description);
	SD_OK("delete", "--force", "rec");
	cr_expect_null(unit_record("machine-rec.slice"), "the unit is stopped");
	assert_state_gone("rec");
	yajl_tree_free(u);
	yajl_tree_free(pending);
	free(file);
}

/* systemd took the start, but its answer never came: once its wait is over the create fails
 * with one line naming the unit, and its clean-up stops the unit it finds carrying its
 * token (a slice: it does not go away when emptied). */
Test(systemd_driver, a_start_whose_answer_is_lost_fails_the_create_and_its_unit_is_stopped)
{
	fake_start(NULL);
	set_path("machine.slice:x:machine-lost.slice");
	fault("start-call", "lost");
	struct ctt_result r;
	ctrun_sd_with(&r, &wait_out,
		      (const char *const[]){"create", "--bundle", fake.bundle, "lost", NULL});
	cr_expect_eq(r.status, 1);
	cr_expect_eq(ctt_count_lines(r.err), 1, "%s", r.err);
	cr_expect(ctt_matches(r.err, "machine-lost.slice: .*StartTransientUnit"), "%s", r.err);
	ctt_result_free(&r);
	cr_expect_null(unit_record("machine-lost.slice"), "the unit is stopped");
	cr_expect_eq(count_calls("StopUnit machine-lost.slice replace"), 1);
	assert_state_gone("lost");
}

/* ---- whose the unit of the name is once the container's init is gone ---- */

/* Polls `state` until the container of id is stopped (its init killed). */
static void wait_stopped(const char *id)
{
	char status[32] = "";
	for (unsigned waited = 0; waited < CTT_POLL_LIMIT_MS; waited += 20) {
		struct ctt_result r;
		SD(&r, "state", id);
		yajl_val st = r.status == 0 ? ctt_json_parse(r.out, "state") : NULL;
		snprintf(status, sizeof(status), "%s",
			 st ? ctt_json_get_string(st, ".status") : "");
		yajl_tree_free(st);
		ctt_result_free(&r);
		if (strcmp(status, "stopped") == 0)
			return;
		ctt_sleep_ms(20);
	}
	cr_assert_fail("container %s is still %s", id, status);
}

/* ctrun ARGS... exits 0 and says in one line that the unit is another's, naming id and the
 * other container whose Description it has. */
static void assert_leaves_anothers_unit(const char *const *args, const char *id, const char *unit,
					const char *other)
{
	struct ctt_result r;
	ctrun_sd(&r, args);
	char *want = NULL;
	cr_assert(asprintf(&want,
			   "container \"%s\": systemd unit %s is another's (Description \"ctrun "
			   "container %s (create ",
			   id, unit, other) > 0);
	cr_expect_eq(r.status, 0, "%s: %s", args[0], r.err);
	cr_expect_eq(ctt_count_lines(r.err), 1, "%s", r.err);
	cr_expect(strstr(r.err, want), "%s", r.err);
	ctt_result_free(&r);
	free(want);
}

/* The container's unit went with its init (a scope emptied goes, as systemd's does), and
 * another container's unit was made under its name (two cgroupsPaths of one name), in the
 * same cgroup directory: kill --all and delete --force of the stopped container find the
 * unit's Description lacks its create's token, say so, and leave the unit and its process
 * alone; delete still removes the container. */
Test(systemd_driver, a_unit_made_under_the_name_once_the_containers_went_is_left_alone)
{
	fake_start(NULL);
	sd_create(":ctrun:reused", "mine");
	char *dir = unit_dir("ctrun-reused.scope");
	SD_OK("kill", "mine", "KILL");
	wait_stopped("mine");
	sd_create(":ctrun:reused", "other");
	long long other = state_pid("other");
	char *cgroup = proc_cgroup(other), *other_dir = unit_dir("ctrun-reused.scope");
	cr_expect_str_eq(other_dir, dir, "the other unit's cgroup is the one recorded for mine");
	assert_leaves_anothers_unit((const char *const[]){"kill", "--all", "mine", "KILL", NULL},
				    "mine", "ctrun-reused.scope", "other");
	assert_leaves_anothers_unit((const char *const[]){"delete", "--force", "mine", NULL},
				    "mine", "ctrun-reused.scope", "other");
	assert_state_gone("mine");
	cr_expect_not_null(unit_record("ctrun-reused.scope"), "the other's unit was stopped");
	assert_others_unit_untouched(other, cgroup, "ctrun-reused.scope");
	free(other_dir);
	free(cgroup);
	free(dir);
}

/* The init killed, a process it left in the unit keeps the unit up: delete of the stopped
 * container finds the unit still carries its create's token, kills what is in it and stops
 * it once. */
Test(systemd_driver, delete_stops_the_containers_own_unit_and_what_is_left_in_it)
{
	fake_start(NULL);
	sd_create(":ctrun:own", "own");
	pid_t stray =
		stray_in_unit("ctrun-own.scope", (const char *const[]){"sleep", "1000", NULL});
	char *dir = unit_dir("ctrun-own.scope");
	SD_OK("kill", "own", "KILL");
	wait_stopped("own");
	cr_expect_not_null(unit_record("ctrun-own.scope"),
			   "the unit went while a process is in it");
	SD_OK("delete", "own");
	cr_expect(stray_was_killed(stray), "the unit's process was killed");
	cr_expect_null(unit_record("ctrun-own.scope"), "the unit is stopped");
	cr_expect_eq(count_calls("StopUnit ctrun-own.scope replace"), 1);
	cr_expect_not(ctt_exists(dir), "%s left", dir);
	assert_state_gone("own");
	free(dir);
}

/* A process of the test's own in a cgroup of its own below dir. */
static pid_t sentinel_below(const char *dir)
{
	char *sub = ctt_path(dir, "sentinel"), *procs = ctt_path(sub, "cgroup.procs"), pid[32];
	ctt_mkdir_p(sub);
	pid_t p = ctt_fork_exec((const char *const[]){"sleep", "1000", NULL}, NULL, "/dev/null",
				"/dev/null", "/dev/null", -1);
	snprintf(pid, sizeof(pid), "%d", (int)p);
	ctt_write_file(procs, pid);
	free(procs);
	free(sub);
	return p;
}

/* systemd fails a scope's start once none of its PIDs is left, and the failed unit has no
 * cgroup: its ControlGroup is "", which is no directory of the unit's (read as a path, it is
 * the hierarchy's root, every process of the machine). The create fails on the job and
 * stops the unit without killing anything else. ctrun and the manager run in a cgroup
 * namespace rooted at the test's cgroup: that is all ctrun could reach if it went wrong. */
Test(systemd_driver, a_failed_unit_without_a_cgroup_is_stopped_and_nothing_else_killed)
{
	fake.cgroup_ns = true;
	fake_start(NULL);
	set_path(":ctrun:nopids");
	fault("start-job", "nopids");
	pid_t sentinel = sentinel_below(fake.cgroup_root);
	struct ctt_result r;
	SD(&r, "create", "--bundle", fake.bundle, "nopids");
	cr_expect_eq(r.status, 1, "%s", r.err);
	cr_expect(ctt_matches(r.err, "start ctrun-nopids.scope: job .* ended \"failed\""), "%s",
		  r.err);
	ctt_result_free(&r);
	cr_expect_not(stray_was_killed(sentinel), "a process outside the unit was killed");
	cr_expect_null(unit_record("ctrun-nopids.scope"), "the failed unit is stopped");
	assert_state_gone("nopids");
}

Test(systemd_driver, run_and_exec_in_the_unit)
{
	fake_start(NULL);
	set_path(":ctrun:ex");
	SD_OK("run", "--detach", "--bundle", fake.bundle, "ex");
	long long pid = state_pid("ex");
	yajl_val u = unit_record("ctrun-ex.scope");
	cr_assert_not_null(u);
	const char *cgroup = ctt_json_get_string(u, "._cgroup");
	char *pid_file = ctt_path(fake.record, "exec.pid");
	SD_OK("exec", "--detach", "--pid-file", pid_file, "ex", "busybox", "sleep", "1000");
	char *text = ctt_read_file(pid_file);
	char *init = proc_cgroup(pid), *exec = proc_cgroup(atoll(text));
	cr_expect_str_eq(init, cgroup);
	cr_expect_str_eq(exec, cgroup, "the exec'd process joins the unit's cgroup");
	SD_OK("delete", "--force", "ex");
	cr_expect_null(unit_record("ctrun-ex.scope"));
	/* a foreground run: its exit status, and no unit left after it */
	ctt_config_set(fake.bundle, ".process.args", "[\"sh\", \"-c\", \"exit 7\"]");
	struct ctt_result r;
	SD(&r, "run", "--bundle", fake.bundle, "fg");
	cr_expect_eq(r.status, 7, "%s", r.err);
	ctt_result_free(&r);
	cr_expect_null(unit_record("ctrun-fg.scope"));
	assert_state_gone("fg");
	yajl_tree_free(u);
	free(init);
	free(exec);
	free(text);
	free(pid_file);
}

/* restore with the systemd driver: the unit is started with criu in it (criu's restored
 * process is born there) and limited with the config's resources before criu works. A
 * stand-in criu keeps its pid, its cgroup and the unit as the manager had it, then exits
 * without an answer: the restore fails on that, and the unit is stopped. */
#define FAKE_CRIU                                                       \
	"#!/bin/sh\n"                                                   \
	"echo $$ > \"$REC/criu.pid\"\n"                                 \
	"sed -n 's/^0:://p' /proc/self/cgroup > \"$REC/criu.cgroup\"\n" \
	"cp \"$REC/ctrun-rst.scope.json\" \"$REC/unit-at-criu.json\"\n"

static void use_fake_criu(void)
{
	char *criu = ctt_path(fake.record, "criu");
	ctt_write_file(criu, FAKE_CRIU);
	cr_assert_eq(chmod(criu, 0755), 0);
	setenv("CTRUN_CRIU", criu, 1);
	setenv("REC", fake.record, 1);
	free(criu);
}

/* An image directory with the init's fds as descriptors.json records them. */
static char *image_dir(void)
{
	char *img = ctt_tmpdir(), *desc = ctt_path(img, "descriptors.json");
	ctt_write_file(desc, "[\"/dev/null\", \"/dev/null\", \"/dev/null\"]");
	free(desc);
	return img;
}

Test(systemd_driver, restore_starts_the_unit_with_criu_in_it)
{
	fake_start(NULL);
	set_path(":ctrun:rst");
	ctt_config_set(fake.bundle, ".linux.resources",
		       "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}");
	use_fake_criu();
	char *img = image_dir();
	struct ctt_result r;
	SD(&r, "restore", "--detach", "--image-path", img, "--bundle", fake.bundle, "rst");
	cr_expect_eq(r.status, 1);
	cr_expect(ctt_matches(r.err, "^ctrun: restore container \"rst\": criu"), "%s", r.err);
	ctt_result_free(&r);
	char *pid_file = ctt_path(fake.record, "criu.pid");
	char *cgroup_file = ctt_path(fake.record, "criu.cgroup");
	char *unit_file = ctt_path(fake.record, "unit-at-criu.json");
	cr_assert(ctt_exists(pid_file), "criu never ran");
	char *pid = ctt_read_file(pid_file), *cgroup = ctt_read_file(cgroup_file);
	yajl_val u = ctt_json_load(unit_file);
	cr_expect_eq(ctt_json_get_int(u, ".PIDs.value[0]"), atoll(pid), "PIDs holds criu");
	cr_expect_str_eq(ctt_json_get_string(u, ".DevicePolicy.value"), "strict",
			 "limited before criu ran");
	const char *unit_cgroup = ctt_json_get_string(u, "._cgroup");
	cr_expect(ends_with(unit_cgroup, "/ctrun-rst.scope"), "%s", unit_cgroup);
	cgroup[strcspn(cgroup, "\n")] = '\0';
	cr_expect_str_eq(cgroup, unit_cgroup, "criu ran in the unit's cgroup");
	/* the failed restore leaves nothing (the scope emptied once criu exited goes as
	 * systemd's does) */
	cr_expect_null(unit_record("ctrun-rst.scope"), "the unit is gone");
	assert_state_gone("rst");
	yajl_tree_free(u);
	free(pid);
	free(cgroup);
	free(unit_file);
	free(cgroup_file);
	free(pid_file);
	free(img);
}
