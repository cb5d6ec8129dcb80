/* Rootless containers: a user other than root (made here with useradd, with ranges in
 * /etc/subuid and /etc/subgid; kept for the next run) runs busybox containers from a
 * `spec --rootless` config. Its own id alone is mapped by ctrun itself (setgroups denied),
 * more through newuidmap/newgidmap; devices are bound, as mknod is refused. Every command
 * runs as that user (setpriv); the state lives in $XDG_RUNTIME_DIR/ctrun by default. */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(rootless, .fini = lc_cleanup);

#define ID	   "rl"
#define USER_NAME  "ctrun-rootless"
#define OUTSIDE_ID "10000000" /* in no /etc/subuid range */

struct user {
	unsigned uid, gid, sub_uid, sub_gid, sub_size;
	char reuid[32], regid[32];
};

struct rl {
	struct lc t;
	struct user u;
	const char *wrapper[10];
};

/* "NAME:start:count" of name in file, or false. */
static bool read_sub_range(const char *file, const char *name, unsigned *start, unsigned *count)
{
	FILE *f = fopen(file, "re");
	char line[256], who[64];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63[^:]:%u:%u", who, start, count) == 3 &&
			strcmp(who, name) == 0;
	if (f)
		fclose(f);
	return found;
}

static void add_sub_range(const char *file, const char *name)
{
	FILE *f = fopen(file, "ae");
	cr_assert_not_null(f, "open %s", file);
	fprintf(f, "%s:300000:65536\n", name);
	fclose(f);
}

/* The test user, made on first use (useradd gives it subordinate ranges on Debian; the
 * files get one where it did not). */
static void ensure_user(struct user *u)
{
	if (access("/usr/bin/newuidmap", X_OK) != 0 && access("/usr/sbin/newuidmap", X_OK) != 0)
		ctt_skip("newuidmap is not installed (Debian package uidmap; `make deps`)");
	if (!getpwnam(USER_NAME)) {
		struct ctt_result r;
		ctt_run(&r, NULL, LC_ARGV("useradd", "-M", "-s", "/usr/sbin/nologin", USER_NAME));
		cr_assert_eq(r.status, 0, "useradd: %s", r.err);
		ctt_result_free(&r);
	}
	struct passwd *pw = getpwnam(USER_NAME);
	cr_assert_not_null(pw);
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	unsigned n;
	if (!read_sub_range("/etc/subuid", USER_NAME, &u->sub_uid, &n))
		add_sub_range("/etc/subuid", USER_NAME);
	if (!read_sub_range("/etc/subgid", USER_NAME, &u->sub_gid, &n))
		add_sub_range("/etc/subgid", USER_NAME);
	cr_assert(read_sub_range("/etc/subuid", USER_NAME, &u->sub_uid, &u->sub_size));
	cr_assert(read_sub_range("/etc/subgid", USER_NAME, &u->sub_gid, &n));
	cr_assert_geq(n, u->sub_size);
	snprintf(u->reuid, sizeof(u->reuid), "--reuid=%u", u->uid);
	snprintf(u->regid, sizeof(u->regid), "--regid=%u", u->gid);
}

/* argv prefix that runs a program as the user, then extra (NULL-terminated) */
static void as_user(struct rl *r, const char *const *extra)
{
	size_t n = 0;
	r->wrapper[n++] = "setpriv";
	r->wrapper[n++] = r->u.reuid;
	r->wrapper[n++] = r->u.regid;
	r->wrapper[n++] = "--clear-groups";
	r->wrapper[n++] = "--";
	for (; extra && *extra; extra++)
		r->wrapper[n++] = *extra;
	r->wrapper[n] = NULL;
	r->t.wrapper = r->wrapper;
}

/* uid and gid maps: the user's own id as root, then size ids of its ranges from 1. */
static void set_maps(struct rl *r, unsigned size, const char *sub_uid_text)
{
	char uids[192], gids[192];
	const char *own = "{\"containerID\": 0, \"hostID\": %u, \"size\": 1}";
	int n = snprintf(uids, sizeof(uids), "[");
	n += snprintf(uids + n, sizeof(uids) - n, own, r->u.uid);
	if (size)
		snprintf(uids + n, sizeof(uids) - n,
			 ", {\"containerID\": 1, \"hostID\": %s, \"size\": %u}", sub_uid_text,
			 size);
	strcat(uids, "]");
	n = snprintf(gids, sizeof(gids), "[");
	n += snprintf(gids + n, sizeof(gids) - n, own, r->u.gid);
	if (size)
		snprintf(gids + n, sizeof(gids) - n,
			 ", {\"containerID\": 1, \"hostID\": %u, \"size\": %u}", r->u.sub_gid,
			 size);
	strcat(gids, "]");
	ctt_config_set(r->t.bundle, ".linux.uidMappings", uids);
	ctt_config_set(r->t.bundle, ".linux.gidMappings", gids);
}

/* 1000 ids of the user's /etc/subuid and /etc/subgid ranges, from id 1. */
static void map_subordinate_ids(struct rl *r)
{
	char sub[16];
	snprintf(sub, sizeof(sub), "%u", r->u.sub_uid);
	set_maps(r, 1000, sub);
}

/* A `spec --rootless` bundle and a state root, both the user's; its own ids mapped. */
static void rl_init(struct rl *r)
{
	ensure_user(&r->u);
	lc_init(&r->t);
	lc_use_rootless_spec(&r->t);
	set_maps(r, 0, NULL);
	ctt_make_searchable(r->t.bundle);
	ctt_make_searchable(r->t.root);
	ctt_chown_tree(r->t.bundle, r->u.uid);
	ctt_chown_tree(r->t.root, r->u.uid);
	as_user(r, NULL);
}

/* The uid of pid, as the host sees it. */
static unsigned host_uid_of(pid_t pid)
{
	char path[64], line[256];
	unsigned uid = ~0U;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	cr_assert_not_null(f, "open %s", path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid:\t%u", &uid) == 1)
			break;
	fclose(f);
	return uid;
}

Test(rootless, lifecycle_as_a_user)
{
	struct rl r;
	rl_init(&r);
	lc_set_args(&r.t, LC_ARGV("sleep", "1000"));
	lc_ok(&r.t, "create", "--bundle", r.t.bundle, ID);
	cr_expect_eq(host_uid_of(lc_pid(&r.t, ID)), r.u.uid, "the init is not the user's");
	lc_assert_status(&r.t, ID, "created");
	lc_ok(&r.t, "start", ID);
	lc_wait_status(&r.t, ID, "running");
	lc_ok(&r.t, "kill", ID, "KILL");
	lc_wait_status(&r.t, ID, "stopped");
	lc_ok(&r.t, "delete", ID);
	lc_assert_nothing_left(&r.t);
}

/* Inside: root, mapped to the user; the config's hostname; /dev/null bound from the host. */
Test(rootless, run_sees_root_mapped_to_the_user)
{
	struct rl r;
	rl_init(&r);
	struct ctt_result res;
	lc_run_sh(&res, &r.t, ID,
		  "id -u; id -g; tr -s ' ' < /proc/self/uid_map; hostname; "
		  "stat -c '%t:%T' /dev/null; exit 7");
	cr_expect_eq(res.status, 7, "exit %d: %s", res.status, res.err);
	char want[128];
	snprintf(want, sizeof(want), "0\n0\n 0 %u 1\nctrun\n1:3\n", r.u.uid);
	cr_expect_str_eq(res.out, want);
	ctt_result_free(&res);
	lc_assert_nothing_left(&r.t);
}

/* Cgroups not delegated to the user: the container runs without one, with a warning; a
 * limit it asks for cannot be had, and create says so with nothing left. */
Test(rootless, cgroup_skipped_with_a_warning_unless_a_limit_is_asked)
{
	struct rl r;
	rl_init(&r);
	struct ctt_result res;
	lc_run_sh(&res, &r.t, ID, "grep -c /ctrun/ /proc/self/cgroup; true");
	cr_expect_eq(res.status, 0, "exit %d: %s", res.status, res.err);
	cr_expect_str_eq(res.out, "0\n", "the container is in a cgroup of ctrun's");
	cr_expect(strstr(res.err, "runs without a cgroup: cgroups are not delegated to this user"),
		  "no warning: %s", res.err);
	ctt_result_free(&res);
	ctt_config_set(r.t.bundle, ".linux.resources", "{\"pids\": {\"limit\": 10}}");
	lc_ctrun(&res, &r.t, "run", "--bundle", r.t.bundle, ID);
	cr_expect_neq(res.status, 0, "a limit without a cgroup: %s", res.out);
	cr_expect(strstr(res.err, "Permission denied"), "%s", res.err);
	ctt_result_free(&res);
	lc_assert_nothing_left(&r.t);
}

/* --log-format json: the warning goes to stderr, never into the file, which on a failure
 * holds the error alone (Podman reads it as one object); --debug puts everything there. */
Test(rootless, json_log_holds_the_error_alone)
{
	struct rl r;
	rl_init(&r);
	lc_set_script(&r.t, "true");
	char *dir = ctt_tmpdir(), *ok = ctt_path(dir, "ok.json"), *failed = ctt_path(dir, "f.json");
	char *debug = ctt_path(dir, "debug.json");
	ctt_make_searchable(dir);
	ctt_chown_tree(dir, r.u.uid);
	struct ctt_result res;
	lc_ctrun(&res, &r.t, "--log", ok, "--log-format", "json", "run", "--bundle", r.t.bundle,
		 ID);
	cr_expect_eq(res.status, 0, "exit %d: %s", res.status, res.err);
	cr_expect(strstr(res.err, "warning: container"), "no warning on stderr: %s", res.err);
	cr_expect_str_eq(ctt_exists(ok) ? ctt_read_file(ok) : "", "", "the warning is in the file");
	ctt_result_free(&res);
	lc_ctrun(&res, &r.t, "--debug", "--log", debug, "--log-format", "json", "run", "--bundle",
		 r.t.bundle, ID);
	cr_expect_eq(res.status, 0, "exit %d: %s", res.status, res.err);
	cr_expect(ctt_matches(ctt_read_file(debug), "\"level\":\"warning\",\"msg\":\"container"),
		  "--debug: no warning record");
	ctt_result_free(&res);
	ctt_config_set(r.t.bundle, ".linux.resources", "{\"pids\": {\"limit\": 10}}");
	lc_ctrun(&res, &r.t, "--log", failed, "--log-format", "json", "run", "--bundle", r.t.bundle,
		 ID);
	cr_expect_neq(res.status, 0);
	ctt_assert_log_one_error(failed, "Permission denied");
	ctt_result_free(&res);
	lc_assert_nothing_left(&r.t);
	free(debug), free(failed), free(ok), free(dir);
}

/* More than its own id: the /etc/subuid range through newuidmap and newgidmap; the process
 * runs as one of those ids. */
Test(rootless, subordinate_ids_through_newuidmap)
{
	struct rl r;
	rl_init(&r);
	map_subordinate_ids(&r);
	ctt_config_set(r.t.bundle, ".process.user", "{\"uid\": 1000, \"gid\": 1000}");
	lc_set_script(&r.t, "tr -s ' ' < /proc/self/uid_map; tr -s ' ' < /proc/self/gid_map; "
			    "id -u; id -g");
	char *out = lc_run_output(&r.t);
	char want[256];
	snprintf(want, sizeof(want), " 0 %u 1\n 1 %u 1000\n 0 %u 1\n 1 %u 1000\n1000\n1000\n",
		 r.u.uid, r.u.sub_uid, r.u.gid, r.u.sub_gid);
	cr_expect_str_eq(out, want);
	free(out);
	lc_assert_nothing_left(&r.t);
}

Test(rootless, missing_newuidmap_is_named)
{
	struct rl r;
	rl_init(&r);
	map_subordinate_ids(&r);
	/* an empty directory of the test's own: a PATH entry that exists nowhere could be made by
	 * anyone (Debian's nobody has /nonexistent as its home) */
	char tools[PATH_MAX], path_env[PATH_MAX + 8];
	snprintf(tools, sizeof(tools), "%s/no-tools", r.t.bundle);
	cr_assert_eq(mkdir(tools, 0755), 0, "mkdir %s: %s", tools, strerror(errno));
	snprintf(path_env, sizeof(path_env), "PATH=%s", tools);
	as_user(&r, LC_ARGV("/usr/bin/env", path_env));
	lc_assert_create_refused(&r.t, ID,
				 LC_ARGV("uid_map", "newuidmap not found in $PATH", "uidmap"));
}

Test(rootless, a_mapping_outside_subuid_fails_with_newuidmaps_reason)
{
	struct rl r;
	rl_init(&r);
	set_maps(&r, 1000, OUTSIDE_ID);
	lc_assert_create_refused(&r.t, ID, LC_ARGV("newuidmap failed", "not allowed"));
}

/* The user's `ctrun mounts` enters the container's user namespace, then its mounts. */
Test(rootless, mounts_of_a_rootless_container)
{
	struct rl r;
	rl_init(&r);
	lc_set_args(&r.t, LC_ARGV("sleep", "1000"));
	lc_ok(&r.t, "create", "--bundle", r.t.bundle, ID);
	struct ctt_result res;
	lc_ctrun(&res, &r.t, "mounts", ID);
	cr_expect_eq(res.status, 0, "mounts: %s", res.err);
	cr_expect(ctt_matches(res.out, "/proc +proc +proc "), "no /proc:\n%s", res.out);
	cr_expect(ctt_matches(res.out, "/dev/null +[a-z0-9]+ "), "no /dev/null:\n%s", res.out);
	ctt_result_free(&res);
	lc_ok(&r.t, "delete", "--force", ID);
	lc_assert_nothing_left(&r.t);
}

/* ctrun as the user, with env_args (for env(1)) before it and args after: no --root. */
static void run_as_user(struct ctt_result *res, const struct rl *r, const char *const *env_args,
			const char *const *args)
{
	const char *argv[24];
	size_t n = 0;
	for (size_t i = 0; i < 4; i++)
		argv[n++] = r->wrapper[i];
	argv[n++] = "--";
	argv[n++] = "env";
	for (; *env_args; env_args++)
		argv[n++] = *env_args;
	argv[n++] = ctt_ctrun_path();
	for (; *args && n < 23; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	ctt_run(res, NULL, argv);
}

/* Without --root: $XDG_RUNTIME_DIR/ctrun; with it unset, an error that says so. */
Test(rootless, state_in_xdg_runtime_dir)
{
	struct rl r;
	rl_init(&r);
	lc_set_args(&r.t, LC_ARGV("sleep", "1000"));
	char *xdg = ctt_tmpdir(), env[512];
	ctt_make_searchable(xdg);
	ctt_chown_tree(xdg, r.u.uid);
	snprintf(env, sizeof(env), "XDG_RUNTIME_DIR=%s", xdg);
	struct ctt_result res;
	run_as_user(&res, &r, LC_ARGV(env), LC_ARGV("create", "--bundle", r.t.bundle, ID));
	cr_assert_eq(res.status, 0, "create: %s", res.err);
	ctt_result_free(&res);
	char state[600];
	snprintf(state, sizeof(state), "%s/ctrun/" ID "/state.json", xdg);
	cr_expect(ctt_exists(state), "no %s", state);
	run_as_user(&res, &r, LC_ARGV(env), LC_ARGV("delete", "--force", ID));
	cr_expect_eq(res.status, 0, "delete: %s", res.err);
	ctt_result_free(&res);
	cr_expect(!ctt_exists(state), "%s left", state);
	run_as_user(&res, &r, LC_ARGV("-u", "XDG_RUNTIME_DIR"), LC_ARGV("list"));
	ctt_assert_error(&res, "list: XDG_RUNTIME_DIR is not set", "--root");
	ctt_result_free(&res);
	lc_assert_nothing_left(&r.t);
	free(xdg);
}

/* `spec --rootless` run by the user maps root to the user itself, with no network
 * namespace of its own (it could not mount sysfs) and /sys bound. */
Test(rootless, spec_rootless_maps_the_caller)
{
	struct rl r;
	rl_init(&r);
	char *dir = ctt_tmpdir();
	ctt_make_searchable(dir);
	ctt_chown_tree(dir, r.u.uid);
	lc_ok(&r.t, "spec", "--rootless", "--bundle", dir);
	char *file = ctt_path(dir, "config.json");
	yajl_val c = ctt_json_load(file);
	cr_expect_eq(ctt_json_get_int(c, ".linux.uidMappings[0].hostID"), r.u.uid);
	cr_expect_eq(ctt_json_get_int(c, ".linux.gidMappings[0].hostID"), r.u.gid);
	cr_expect_eq(ctt_json_get_int(c, ".linux.uidMappings[0].size"), 1);
	const struct lc spec = {.bundle = dir};
	cr_expect_geq(lc_namespace_index(&spec, "user"), 0, "no user namespace");
	cr_expect_eq(lc_namespace_index(&spec, "network"), -1, "a network namespace");
	yajl_tree_free(c);
	free(file);
	free(dir);
}

/* runc's --rootless true|false|auto: taken by every command (as root too). */
Test(rootless, rootless_flag_values)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo ok");
	for (const char *const *v = LC_ARGV("true", "false", "auto"); *v; v++) {
		struct ctt_result res;
		lc_ctrun(&res, &t, "--rootless", *v, "run", "--bundle", t.bundle, ID);
		cr_expect_eq(res.status, 0, "--rootless %s: %s", *v, res.err);
		cr_expect_str_eq(res.out, "ok\n");
		ctt_result_free(&res);
	}
	struct ctt_result res;
	lc_ctrun(&res, &t, "--rootless", "maybe", "run", "--bundle", t.bundle, ID);
	ctt_assert_error(&res, "--rootless: invalid value \"maybe\"");
	ctt_result_free(&res);
	lc_assert_nothing_left(&t);
}

/* exec as the user: the process joins the container's user namespace with the rest and is
 * its root, mapped to the user on the host. */
Test(rootless, exec_as_the_user)
{
	struct rl r;
	rl_init(&r);
	lc_set_args(&r.t, LC_ARGV("sleep", "1000"));
	lc_ok(&r.t, "run", "--detach", "--bundle", r.t.bundle, ID);
	struct ctt_result res;
	lc_ctrun(&res, &r.t, "exec", ID, "sh", "-c", "id -u; readlink /proc/self/ns/user");
	cr_assert_eq(res.status, 0, "exec: exit %d\nstderr: %s", res.status, res.err);
	char path[64], userns[128] = "";
	snprintf(path, sizeof(path), "/proc/%d/ns/user", lc_pid(&r.t, ID));
	cr_assert_gt(readlink(path, userns, sizeof(userns) - 1), 0);
	cr_expect(ctt_matches(res.out, "^0$"), "got:\n%s", res.out);
	cr_expect(strstr(res.out, userns), "not the container's user namespace:\n%s", res.out);
	ctt_result_free(&res);
	/* its own gid alone is mapped: setgroups is denied there */
	lc_ctrun(&res, &r.t, "exec", "--additional-gids", "0", ID, "true");
	cr_expect_eq(res.status, 255);
	ctt_assert_error(&res, "additionalGids", "denies setgroups");
	ctt_result_free(&res);
}

/* The created init is not dumpable until its execve (CVE-2016-9962): the user's exec waits
 * for `start`, refused in one line until then (runc lets it in), and nothing is left. */
Test(rootless, exec_into_a_created_container_waits_for_start)
{
	struct rl r;
	rl_init(&r);
	lc_set_args(&r.t, LC_ARGV("sleep", "1000"));
	lc_ok(&r.t, "create", "--bundle", r.t.bundle, ID);
	struct ctt_result res;
	lc_ctrun(&res, &r.t, "exec", ID, "sh", "-c", "id -u");
	cr_expect_eq(res.status, 255, "exec: exit %d\nstderr: %s", res.status, res.err);
	ctt_assert_error(&res, ID, "created, not started", "until it is started");
	ctt_result_free(&res);
	lc_assert_status(&r.t, ID, "created");
	lc_ok(&r.t, "start", ID);
	lc_wait_status(&r.t, ID, "running");
	lc_ctrun(&res, &r.t, "exec", ID, "sh", "-c", "id -u");
	cr_expect_eq(res.status, 0, "exec: exit %d\nstderr: %s", res.status, res.err);
	cr_expect(ctt_matches(res.out, "^0$"), "got:\n%s", res.out);
	ctt_result_free(&res);
	lc_ok(&r.t, "delete", "--force", ID);
	lc_assert_nothing_left(&r.t);
}

/* A user's compiled seccomp programs go to its own $XDG_RUNTIME_DIR/ctrun-cache, never to
 * the state root ($XDG_RUNTIME_DIR/ctrun), which is left empty; the next run loads them. */
Test(rootless, seccomp_cache_in_xdg_runtime_dir)
{
	struct rl r;
	rl_init(&r);
	ctt_config_set(r.t.bundle, ".linux.seccomp",
		       "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": "
		       "[\"mkdir\", \"mkdirat\"], \"action\": \"SCMP_ACT_ERRNO\"}]}");
	lc_set_script(&r.t, "mkdir /tmp/x 2>/dev/null || echo refused");
	char *xdg = ctt_tmpdir(), env[512], kept[600], state_root[600];
	ctt_make_searchable(xdg);
	ctt_chown_tree(xdg, r.u.uid);
	snprintf(env, sizeof(env), "XDG_RUNTIME_DIR=%s", xdg);
	snprintf(kept, sizeof(kept), "filter kept in the cache (%s/ctrun-cache/seccomp/", xdg);
	snprintf(state_root, sizeof(state_root), "%s/ctrun", xdg);
	const char *notes[] = {kept, "filter loaded from the cache"};
	for (int i = 0; i < 2; i++) {
		struct ctt_result res;
		run_as_user(&res, &r, LC_ARGV(env),
			    LC_ARGV("--debug", "run", "--bundle", r.t.bundle, ID));
		cr_expect_eq(res.status, 0, "run: %s", res.err);
		cr_expect_str_eq(res.out, "refused\n");
		cr_expect(strstr(res.err, notes[i]), "no \"%s\" in:\n%s", notes[i], res.err);
		ctt_result_free(&res);
		ctt_run(&res, NULL, LC_ARGV("ls", "-A", state_root));
		cr_expect_str_empty(res.out, "left in %s: %s", state_root, res.out);
		ctt_result_free(&res);
	}
	lc_assert_nothing_left(&r.t);
	free(xdg);
}

/* The created init's exe, as the host sees it, for ctrun at ctrun (the CTRUN of the test). */
static void create_with(struct rl *r, const char *ctrun, const char *id, struct stat *exe)
{
	cr_assert_eq(setenv("CTRUN", ctrun, 1), 0);
	lc_ok(&r->t, "create", "--bundle", r->t.bundle, id);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", lc_pid(&r->t, id));
	cr_assert_eq(stat(path, exe), 0, "stat %s", path);
}

/* CVE-2019-5736 (libct/parent/exe_view.h): a binary owned by root that only root may write is out
 * of every rootless container's reach, so the user's ctrun runs from it as it is; a binary
 * the user owns would be in reach (the container's root is the user), so ctrun runs from a
 * sealed copy of it. */
Test(rootless, a_root_owned_binary_runs_as_it_is_a_users_own_from_a_sealed_copy)
{
	struct rl r;
	rl_init(&r);
	lc_set_args(&r.t, LC_ARGV("sleep", "1000"));
	char *host = strdup(ctt_ctrun_path());
	struct stat want, exe;
	cr_assert_eq(stat(host, &want), 0);
	cr_assert(want.st_uid == 0 && !(want.st_mode & 022), "%s: not root's alone", host);
	create_with(&r, host, "rl-root", &exe);
	cr_expect(exe.st_dev == want.st_dev && exe.st_ino == want.st_ino,
		  "the init does not run %s itself", host);

	char *dir = ctt_tmpdir(), *own = ctt_path(dir, "ctrun");
	struct ctt_result res;
	ctt_run(&res, NULL, LC_ARGV("cp", host, own));
	cr_assert_eq(res.status, 0, "cp: %s", res.err);
	ctt_result_free(&res);
	ctt_make_searchable(dir);
	ctt_chown_tree(dir, r.u.uid);
	create_with(&r, own, "rl-own", &exe);
	char link[128] = "", path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", lc_pid(&r.t, "rl-own"));
	cr_assert_gt(readlink(path, link, sizeof(link) - 1), 0);
	cr_expect(strncmp(link, "/memfd:ctrun", 12) == 0, "the init runs %s, not a sealed copy",
		  link);
	free(own);
	free(dir);
	free(host);
}
