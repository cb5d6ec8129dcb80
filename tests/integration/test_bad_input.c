/* Bad input to the lifecycle commands: each is one clear error line naming what was wrong,
 * a non-zero exit, and nothing left behind (no state directory, process or mount). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(bad_input, .fini = lc_cleanup);

/* How many characters of an id ctrun quotes in its messages before cutting it. */
#define SHOWN_ID_MAX 64

/* Runs `ctrun --root R <args...>`, which must fail with one line holding every needle. */
static void assert_failure(const struct lc *t, const char *const *args, const char *const *needles)
{
	struct ctt_result r;
	lc_ctrunv(&r, t, args);
	ctt_assert_error_line(&r, needles);
	ctt_result_free(&r);
}

/* Both `create` and `run` of id on t's bundle fail, naming each needle. */
static void assert_create_fails(const struct lc *t, const char *id, const char *const *needles)
{
	static const char *const commands[] = {"create", "run"};
	for (size_t i = 0; i < 2; i++) {
		assert_failure(t,
			       (const char *const[]){commands[i], "--bundle", t->bundle, id, NULL},
			       needles);
		lc_assert_nothing_left(t);
	}
}

static char *real_path(const char *path)
{
	char *p = realpath(path, NULL);
	cr_assert_not_null(p, "realpath %s", path);
	return p;
}

/* ---- ids ---- */

Test(bad_input, unknown_id)
{
	static const char *const commands[][4] = {
		{"start", "ghost", NULL},  {"state", "ghost", NULL},  {"kill", "ghost", NULL},
		{"kill", "ghost", "KILL"}, {"delete", "ghost", NULL},
	};
	struct lc t;
	lc_init(&t);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		assert_failure(&t, commands[i],
			       (const char *const[]){"\"ghost\"", "does not exist", NULL});
	lc_assert_nothing_left(&t);
}

/* Every command that takes a container id, with id in place (N_ID_COMMANDS of them). */
#define N_ID_COMMANDS 7
typedef const char *id_command[6];

static void id_commands(const struct lc *t, const char *id, id_command out[N_ID_COMMANDS])
{
	const id_command commands[N_ID_COMMANDS] = {
		{"create", "--bundle", t->bundle, id, NULL},
		{"run", "--bundle", t->bundle, id, NULL},
		{"start", id, NULL},
		{"state", id, NULL},
		{"kill", id, "KILL", NULL},
		{"delete", id, NULL},
		{"delete", "--force", id, NULL},
	};
	memcpy(out, commands, sizeof(commands));
}

static void assert_invalid_id(const struct lc *t, const char *id)
{
	char needle[SHOWN_ID_MAX + 32];
	snprintf(needle, sizeof(needle), "invalid container id \"%.*s", SHOWN_ID_MAX, id);
	const char *const needles[] = {needle, NULL};
	id_command commands[N_ID_COMMANDS];
	id_commands(t, id, commands);
	for (size_t i = 0; i < N_ID_COMMANDS; i++)
		assert_failure(t, commands[i], needles);
	lc_assert_nothing_left(t);
}

Test(bad_input, invalid_ids)
{
	static const char *const ids[] = {"../x", "a/b", "..", ".hidden", "", "bad id", "x..y"};
	struct lc t;
	lc_init(&t);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		assert_invalid_id(&t, ids[i]);
}

Test(bad_input, id_longer_than_1024)
{
	char id[1100];
	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	struct lc t;
	lc_init(&t);
	assert_invalid_id(&t, id);
	struct ctt_result r;
	lc_ctrun(&r, &t, "state", id);
	cr_expect(strstr(r.err, "longer than 1024"), "stderr: %s", r.err);
	ctt_result_free(&r);
}

/* An error line quotes the id cut short, in the command's prefix as in the message. */
#define ERROR_LINE_MAX 300

/* Each command in `which` (indexes into id_commands(), -1 ends) fails with one line under
 * ERROR_LINE_MAX characters that still names the problem. */
static void assert_short_error_lines(const struct lc *t, const char *id, const int *which,
				     const char *problem)
{
	id_command commands[N_ID_COMMANDS];
	id_commands(t, id, commands);
	for (; *which >= 0; which++) {
		struct ctt_result r;
		lc_ctrunv(&r, t, commands[*which]);
		ctt_assert_error(&r, problem);
		cr_expect_lt(strlen(r.err), ERROR_LINE_MAX, "%s: a line of %zu characters: %s",
			     commands[*which][0], strlen(r.err), r.err);
		ctt_result_free(&r);
	}
	lc_assert_nothing_left(t);
}

static char *repeated(char c, size_t n)
{
	char *s = malloc(n + 1);
	cr_assert_not_null(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

Test(bad_input, error_lines_for_very_long_ids_stay_short)
{
	static const int every[] = {0, 1, 2, 3, 4, 5, 6, -1};
	struct lc t;
	lc_init(&t);
	char *too_long = repeated('a', 1100);
	assert_short_error_lines(&t, too_long, every, "longer than 1024 characters");
	/* the longest valid id: longer than a file name may be (NAME_MAX), so no such
	 * container can exist or be made */
	char *longest = repeated('b', 1024);
	/* strerror(ENAMETOOLONG): "File name too long" (glibc), "Filename too long" (musl) */
	assert_short_error_lines(&t, longest, every, "name too long");
	free(too_long);
	free(longest);
}

Test(bad_input, duplicate_id)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "sleep 1000");
	lc_ok(&t, "create", "--bundle", t.bundle, "dup");
	pid_t pid = lc_pid(&t, "dup");
	assert_failure(&t, (const char *const[]){"create", "--bundle", t.bundle, "dup", NULL},
		       (const char *const[]){"\"dup\"", "already exists", NULL});
	assert_failure(&t, (const char *const[]){"run", "--bundle", t.bundle, "dup", NULL},
		       (const char *const[]){"\"dup\"", "already exists", NULL});
	/* the first container is untouched and still works */
	cr_expect_eq(lc_pid(&t, "dup"), pid);
	lc_assert_status(&t, "dup", "created");
	lc_ok(&t, "start", "dup");
	lc_wait_status(&t, "dup", "running");
	lc_ok(&t, "delete", "--force", "dup");
	lc_assert_nothing_left(&t);
}

/* ---- bundles ---- */

Test(bad_input, missing_bundle_dir)
{
	struct lc t;
	lc_init(&t);
	char *missing = ctt_path(t.bundle, "no-such-bundle");
	const char *const needles[] = {missing, "No such file", NULL};
	assert_failure(&t, (const char *const[]){"create", "--bundle", missing, "b1", NULL},
		       needles);
	assert_failure(&t, (const char *const[]){"run", "--bundle", missing, "b1", NULL}, needles);
	lc_assert_nothing_left(&t);
	free(missing);
}

Test(bad_input, bundle_without_config)
{
	struct lc t;
	lc_init(&t);
	char *config = ctt_path(t.bundle, "config.json");
	cr_assert_eq(unlink(config), 0);
	char *shown = real_path(t.bundle);
	char *needle = ctt_path(shown, "config.json");
	assert_create_fails(&t, "b1", (const char *const[]){needle, "No such file", NULL});
	free(needle);
	free(shown);
	free(config);
}

Test(bad_input, malformed_config_names_file_and_line)
{
	struct lc t;
	lc_init(&t);
	char *config = ctt_path(t.bundle, "config.json");
	ctt_write_file(config, "{\n  \"ociVersion\": \"1.0.2\",\n  \"process\": {,\n}\n");
	assert_create_fails(&t, "b1", (const char *const[]){"config.json", "line 3", NULL});
	free(config);
}

Test(bad_input, missing_rootfs)
{
	struct lc t;
	lc_init(&t);
	char *shown = real_path(t.bundle);
	char *rootfs = ctt_path(shown, "rootfs");
	cr_assert_eq(ctt_rm_rf(rootfs), 0);
	assert_create_fails(&t, "b1", (const char *const[]){rootfs, "No such file", NULL});
	free(rootfs);
	free(shown);
}

/* ---- errors in the container's set-up, reported by the child ---- */

Test(bad_input, missing_binary)
{
	struct lc t;
	lc_init(&t);
	lc_set_args(&t, (const char *const[]){"/bin/no-such-program", NULL});
	assert_create_fails(&t, "p1",
			    (const char *const[]){"exec", "\"/bin/no-such-program\"", NULL});
}

/* A directory is not a program: refused at create, with the words Podman reads as 126
 * (runc and crun refuse it there too; its search bit passes access(X_OK)). */
Test(bad_input, directory_as_binary)
{
	struct lc t;
	lc_init(&t);
	lc_set_args(&t, (const char *const[]){"/bin", NULL});
	assert_create_fails(&t, "p1", (const char *const[]){"exec \"/bin\": permission denied", NULL});
}

/* A missing cwd is made (as runc does); one below a file cannot be. */
Test(bad_input, bad_cwd)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.cwd", "\"/bin/busybox/dir\"");
	assert_create_fails(&t, "p1",
			    (const char *const[]){"make cwd", "\"/bin/busybox/dir\"", NULL});
}

Test(bad_input, failing_bind_mount)
{
	struct lc t;
	lc_init(&t);
	char *source = ctt_tmp_path("missing-source");
	char *json;
	cr_assert_geq(asprintf(&json,
			       "{\"destination\":\"/mnt/data\",\"type\":\"bind\",\"source\":\"%s\","
			       "\"options\":[\"rbind\"]}",
			       source),
		      0);
	lc_config_append(&t, ".mounts", json);
	assert_create_fails(&t, "p1", (const char *const[]){source, NULL});
	free(json);
	free(source);
}

/* This host runs neither AppArmor nor SELinux: a label asked for is refused, not dropped
 * (the container would run unconfined). */
static void assert_label_refused(const char *field, const char *label, const char *lsm,
				 const char *enabled_file)
{
	if (ctt_exists(enabled_file))
		cr_skip("%s is enabled here (%s): the refusal cannot be seen", lsm, enabled_file);
	struct lc t;
	lc_init(&t);
	char path[64], json[64];
	snprintf(path, sizeof(path), ".process.%s", field);
	snprintf(json, sizeof(json), "\"%s\"", label);
	ctt_config_set(t.bundle, path, json);
	assert_create_fails(&t, "lsm",
			    (const char *const[]){path, label, lsm, "not enabled", NULL});
}

Test(bad_input, apparmor_profile_without_apparmor)
{
	assert_label_refused("apparmorProfile", "ctrun-test", "AppArmor",
			     "/sys/module/apparmor/parameters/enabled");
}

Test(bad_input, selinux_label_without_selinux)
{
	assert_label_refused("selinuxLabel", "system_u:system_r:container_t:s0", "SELinux",
			     "/sys/fs/selinux/enforce");
}

/* ---- entries runc 1.1.5 and crun 1.8.1 pass over (differences-from-runc.md) ---- */

static const struct {
	const char *path, *json, *needle;
} passed_over[] = {
	/* runc warns and drops it, crun drops it: a name no capability has is a typo */
	{".process.capabilities.bounding", "[\"CAP_KILL\", \"CAP_FOO\"]",
	 ".process.capabilities.bounding[1]: unknown capability \"CAP_FOO\""},
	/* the schema's minItems: a rule without a syscall decides nothing */
	{".linux.seccomp",
	 "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [], "
	 "\"action\": \"SCMP_ACT_ERRNO\"}]}",
	 ".linux.seccomp.syscalls[0].names: expected at least one entry"},
	/* offsets are the time namespace's: without one they would be dropped */
	{".linux.timeOffsets", "{\"monotonic\": {\"secs\": 86400, \"nanosecs\": 0}}",
	 ".linux.timeOffsets: time offsets need a new time namespace"},
	/* mappings dropped would run the process as the host's root, not as the ids mapped */
	{".linux.uidMappings", "[{\"containerID\": 0, \"hostID\": 100000, \"size\": 65536}]",
	 ".linux.uidMappings: id mappings need a user namespace"},
	/* config-linux.md: major and minor are required for "b", "c" and "u" */
	{".linux.devices", "[{\"path\": \"/dev/nonum\", \"type\": \"b\"}]",
	 ".linux.devices[0]: major and minor are required for type \"b\""},
	/* a set-id or sticky bit on a device node means nothing but trouble */
	{".linux.devices",
	 "[{\"path\": \"/dev/sticky\", \"type\": \"c\", \"major\": 1, \"minor\": 3, "
	 "\"fileMode\": 4095}]",
	 ".linux.devices[0].fileMode: 07777 has bits beyond the permissions"},
	/* the masked files get the null device, never a node the config put at /dev/null */
	{".linux.devices",
	 "[{\"path\": \"/dev/null\", \"type\": \"c\", \"major\": 1, \"minor\": 5}]",
	 "\"/dev/null\" is not the null device (char 1:3)"},
	/* a device the config moves in is not dropped: one the runtime's namespace lacks is an
	 * error (the net_devices suite moves real ones) */
	{".linux.netDevices", "{\"ctrun-absent0\": {}}",
	 ".linux.netDevices[\"ctrun-absent0\"]: no network device"},
	/* config.md: uid and gid are required; runc and crun run a missing one as 0, root's */
	{".process.user", "{\"uid\": 1000}", ".process.user: missing required property \"gid\""},
	{".process.user", "{\"username\": \"nobody\"}",
	 ".process.user: missing required property \"uid\""},
};

/* Refused in one line naming the path, nothing left, where both anchors run the container
 * without the entry. */
Test(bad_input, entries_the_anchors_pass_over_are_refused)
{
	struct lc t;
	lc_init(&t);
	char *config = ctt_path(t.bundle, "config.json");
	char *pristine = ctt_read_file(config);
	for (size_t i = 0; i < sizeof(passed_over) / sizeof(passed_over[0]); i++) {
		ctt_config_set(t.bundle, passed_over[i].path, passed_over[i].json);
		assert_create_fails(&t, "passed-over",
				    (const char *const[]){passed_over[i].needle, NULL});
		ctt_write_file(config, pristine);
	}
	free(pristine);
	free(config);
}

/* A mount on "/" would lie under the root the process gets: refused in one line, as runc
 * and crun fail on it too, instead of running without it. */
Test(bad_input, mount_on_the_containers_root_is_refused)
{
	struct lc t;
	lc_init(&t);
	lc_add_tmpfs(&t, "/.", "size=1m");
	assert_create_fails(&t, "on-root",
			    (const char *const[]){".mounts[", "].destination: \"/.\" is the "
						  "container's root", NULL});
}

/* A mount with neither a type nor "bind" in its options: one line naming its JSON path
 * (ctrun said `open filesystem "(null)": Bad address`), nothing left. */
Test(bad_input, mount_without_a_type_that_is_no_bind)
{
	struct lc t;
	lc_init(&t);
	lc_config_append(&t, ".mounts", "{\"destination\": \"/typeless\", \"source\": \"tmpfs\"}");
	assert_create_fails(&t, "typeless",
			    (const char *const[]){".mounts[", "].type: missing, and \"/typeless\" "
						  "is no bind", NULL});
}
