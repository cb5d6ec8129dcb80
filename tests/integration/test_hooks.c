/* The OCI hooks (hooks/hooks.h): every hook is tests/helpers/hook_recorder, which appends
 * a line to one log (a directory bound into the container at its host path, so that the
 * hooks in the container write there too) with its kind, namespaces, root, argv, env,
 * inherited fds and the state it read on stdin. The tests compare that with what they see
 * from outside: the order of the six kinds across create/start/delete and run, the
 * namespace of each (the host's or the init's), the state against `ctrun state`, and the
 * failure rules of runtime.md#lifecycle with nothing left behind. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(hooks, .fini = lc_cleanup);

#define ID	    "hooked"
#define IN_ROOTFS   "/hook_recorder" /* startContainer's path: only in the rootfs */
#define MAX_RECORDS 16

struct hk {
	struct lc t;
	char *log;	/* the recorders' log, the same path on the host and inside */
	char *host_rec; /* the recorder on the host (not in the rootfs) */
};

/* A bundle with the recorder at IN_ROOTFS in its rootfs (and not on the host). */
static void hk_init(struct hk *h)
{
	lc_init(&h->t);
	h->log = ctt_tmp_path("log");
	h->host_rec = strdup(ctt_helper("hook_recorder"));
	char *inside = lc_rootfs_path(&h->t, IN_ROOTFS + 1);
	FILE *src = fopen(h->host_rec, "r"), *dst = fopen(inside, "w");
	cr_assert(src && dst, "copy %s to %s", h->host_rec, inside);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), src)) > 0)
		cr_assert_eq(fwrite(buf, 1, n, dst), n);
	fclose(src);
	cr_assert_eq(fclose(dst), 0);
	cr_assert_eq(chmod(inside, 0755), 0);
	cr_assert_neq(access(IN_ROOTFS, F_OK), 0, "%s exists on the host", IN_ROOTFS);
	free(inside);
	lc_set_script(&h->t, "exit 0");
}

/* The log's directory bound into the container at its host path, for hooks that run after
 * pivot_root (startContainer); the others see the host's. */
static void hk_bind_log(struct hk *h)
{
	char *dir = strndup(h->log, strrchr(h->log, '/') - h->log);
	lc_add_mount(&h->t, dir, "bind", dir, "rbind,rw");
	free(dir);
}

/* One hook entry: the recorder for kind (at path), extra args (a JSON list's inside, or
 * NULL), env (likewise) and a timeout (0: none). */
static char *hook(const struct hk *h, const char *path, const char *kind, const char *extra,
		  const char *env, int timeout)
{
	char *p = ctt_json_quote(path), *l = ctt_json_quote(h->log), *json;
	char tm[32] = "";
	if (timeout)
		snprintf(tm, sizeof(tm), ",\"timeout\":%d", timeout);
	cr_assert_geq(asprintf(&json,
			       "{\"path\":%s,\"args\":[\"hook_recorder\",\"%s\",%s%s%s]%s%s%s%s}",
			       p, kind, l, extra ? "," : "", extra ? extra : "",
			       env ? ",\"env\":[" : "", env ? env : "", env ? "]" : "", tm),
		      0);
	free(p);
	free(l);
	return json;
}

/* Sets .hooks.<kind> to the one hook given (owned). */
static void set_hook(const struct hk *h, const char *kind, char *json)
{
	char path[64];
	snprintf(path, sizeof(path), ".hooks.%s", kind);
	char *file = ctt_path(h->t.bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	bool has_hooks = ctt_json_get(tree, ".hooks") != NULL;
	yajl_tree_free(tree);
	if (!has_hooks)
		ctt_config_set(h->t.bundle, ".hooks", "{}");
	char *list;
	cr_assert_geq(asprintf(&list, "[%s]", json), 0);
	ctt_config_set(h->t.bundle, path, list);
	free(list);
	free(json);
	free(file);
}

static const char *const kinds[] = {"prestart",	      "createRuntime", "createContainer",
				    "startContainer", "poststart",     "poststop"};

/* All six, recording only; startContainer from the rootfs, the others from the host. */
static void set_all_six(struct hk *h)
{
	hk_bind_log(h);
	for (size_t i = 0; i < 6; i++)
		set_hook(h, kinds[i],
			 hook(h, strcmp(kinds[i], "startContainer") ? h->host_rec : IN_ROOTFS,
			      kinds[i], NULL, NULL, 0));
}

/* ---- the log ---- */

static size_t read_records(const struct hk *h, char *lines[MAX_RECORDS])
{
	if (!ctt_exists(h->log))
		return 0;
	char *text = ctt_read_file(h->log), *save = NULL;
	size_t n = 0;
	for (char *l = strtok_r(text, "\n", &save); l && n < MAX_RECORDS;
	     l = strtok_r(NULL, "\n", &save))
		lines[n++] = strdup(l);
	free(text);
	return n;
}

static void free_records(char *lines[], size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
}

/* The value of key in a record, malloc'd ("" when absent). */
static char *field(const char *line, const char *key)
{
	char needle[32];
	snprintf(needle, sizeof(needle), "%s=", key);
	const char *p = line;
	while ((p = strstr(p, needle)) && p != line && p[-1] != '\t')
		p++;
	if (!p)
		return strdup("");
	p += strlen(needle);
	return strndup(p, strcspn(p, "\t"));
}

/* The kinds recorded, space-separated (malloc'd). */
static char *recorded_kinds(const struct hk *h)
{
	char *lines[MAX_RECORDS];
	size_t n = read_records(h, lines);
	char *out = calloc(1, 256);
	for (size_t i = 0; i < n; i++) {
		char *k = field(lines[i], "kind");
		strcat(out, i ? " " : "");
		strncat(out, k, 200 - strlen(out));
		free(k);
	}
	free_records(lines, n);
	return out;
}

/* The record of kind (the last one), malloc'd; fails when there is none. */
static char *record_of(const struct hk *h, const char *kind)
{
	char *lines[MAX_RECORDS], *found = NULL;
	size_t n = read_records(h, lines);
	for (size_t i = 0; i < n; i++) {
		char *k = field(lines[i], "kind");
		if (strcmp(k, kind) == 0) {
			free(found);
			found = strdup(lines[i]);
		}
		free(k);
	}
	free_records(lines, n);
	cr_assert_not_null(found, "no %s hook ran", kind);
	return found;
}

static char *file_id(const char *dir)
{
	struct stat sb;
	cr_assert_eq(stat(dir, &sb), 0, "stat %s", dir);
	char *s;
	cr_assert_geq(asprintf(&s, "%lu:%lu", (unsigned long)sb.st_dev, (unsigned long)sb.st_ino),
		      0);
	return s;
}

/* The record's key equals want. */
static void assert_field(const char *record, const char *key, const char *want)
{
	char *v = field(record, key);
	cr_expect_str_eq(v, want, "%s of %.40s...", key, record);
	free(v);
}

/* The state the hook read: status and pid as given, the rest as `ctrun state` says. */
static void assert_hook_state(const char *record, yajl_val state, const char *status, long long pid)
{
	char *text = field(record, "state");
	yajl_val got = ctt_json_parse(text, "the hook's stdin");
	cr_expect_str_eq(ctt_json_get_string(got, ".status"), status, "status: %s", text);
	cr_expect_eq(ctt_json_get_int(got, ".pid"), pid, "pid: %s", text);
	static const char *const same[] = {".ociVersion", ".id", ".bundle", ".rootfs", ".created"};
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		cr_expect_str_eq(ctt_json_get_string(got, same[i]),
				 ctt_json_get_string(state, same[i]), "%s: %s", same[i], text);
	cr_expect_null(strchr(text, '\n'), "not one line");
	yajl_tree_free(got);
	free(text);
}

/* The hook ran in the runtime's (our) namespaces on the host's root, with fds 0-2 only. */
static void assert_in_runtime(const char *record)
{
	char *mnt = ctt_ns_link("self", "mnt"), *pid = ctt_ns_link("self", "pid"),
	     *root = file_id("/");
	assert_field(record, "mnt", mnt);
	assert_field(record, "pid", pid);
	assert_field(record, "root", root);
	assert_field(record, "fds", "0,1,2");
	free(mnt);
	free(pid);
	free(root);
}

/* The namespaces of the init, read while it lives. */
struct init_ns {
	char *mnt, *pid, *net, *user;
};

static struct init_ns init_ns_of(pid_t init)
{
	char p[16];
	snprintf(p, sizeof(p), "%d", init);
	return (struct init_ns){ctt_ns_link(p, "mnt"), ctt_ns_link(p, "pid"), ctt_ns_link(p, "net"),
				ctt_ns_link(p, "user")};
}

/* The hook ran in the init's namespaces, on root (a dev:ino), with fds 0-2 only. */
static void assert_in_container(const char *record, const struct init_ns *ns, const char *root)
{
	assert_field(record, "mnt", ns->mnt);
	assert_field(record, "pid", ns->pid);
	assert_field(record, "net", ns->net);
	assert_field(record, "user", ns->user);
	assert_field(record, "root", root);
	assert_field(record, "fds", "0,1,2");
}

/* The state's pid ran the program at path (on the host) when the hook ran. */
static void assert_exe(const char *record, const char *path)
{
	char *want = file_id(path);
	assert_field(record, "exe", want);
	free(want);
}

/* The init before its execve runs ctrun from a read-only view of the binary (a read-only
 * bind of the file, or a sealed memfd: another file; libct/parent/exe_view.h), never from the
 * host's file on its writable mount. */
static void assert_exe_is_a_view_of(const char *record, const char *path)
{
	char *host = file_id(path), *v = field(record, "exe"), *m = field(record, "exe_mount");
	cr_expect(strcmp(v, "?") != 0 && (strcmp(v, host) != 0 || strcmp(m, "ro") == 0),
		  "exe %s (mount %s) of %.40s... is not a view of %s (%s)", v, m, record, path,
		  host);
	free(m);
	free(v);
	free(host);
}

static void assert_kinds(const struct hk *h, const char *want)
{
	char *got = recorded_kinds(h);
	cr_expect_str_eq(got, want, "hooks ran: \"%s\"", got);
	free(got);
}

static void init_ns_free(struct init_ns *ns)
{
	free(ns->mnt);
	free(ns->pid);
	free(ns->net);
	free(ns->user);
}

/* After create: prestart and createRuntime in the runtime's namespaces (createRuntime with
 * its args and env, run by the init before its execve); createContainer before pivot_root:
 * the container's namespaces, the host's root, the pid as the container's pid namespace sees
 * it. */
static void assert_create_hooks(const struct hk *h, yajl_val state, pid_t init,
				const struct init_ns *ns)
{
	char *r = record_of(h, "prestart");
	assert_in_runtime(r);
	assert_hook_state(r, state, "creating", init);
	assert_field(r, "env", "");
	free(r);
	r = record_of(h, "createRuntime");
	assert_in_runtime(r);
	assert_exe_is_a_view_of(r, ctt_ctrun_path());
	assert_hook_state(r, state, "creating", init);
	char *argv;
	cr_assert_geq(asprintf(&argv, "hook_recorder|createRuntime|%s|x y", h->log), 0);
	assert_field(r, "argv", argv);
	assert_field(r, "env", "HOOK_ENV=1|B=2");
	free(argv);
	free(r);
	char *host_root = file_id("/");
	r = record_of(h, "createContainer");
	assert_in_container(r, ns, host_root);
	assert_hook_state(r, state, "creating", 1);
	free(r);
	free(host_root);
}

/* After start: startContainer in the container on its root; poststart after the execve,
 * when the init is the container's program. */
static void assert_start_hooks(struct hk *h, yajl_val state, pid_t init, const struct init_ns *ns)
{
	char *rootfs = lc_rootfs_path(&h->t, ""), *container_root = file_id(rootfs);
	char *r = record_of(h, "startContainer");
	assert_in_container(r, ns, container_root);
	assert_hook_state(r, state, "created", 1);
	free(r);
	r = record_of(h, "poststart");
	assert_in_runtime(r);
	assert_hook_state(r, state, "running", init);
	char *busybox = lc_rootfs_path(&h->t, "bin/busybox");
	assert_exe(r, busybox);
	free(busybox);
	free(r);
	free(container_root);
	free(rootfs);
}

Test(hooks, all_six_in_order_in_their_namespaces_with_the_state)
{
	struct hk h;
	hk_init(&h);
	set_all_six(&h);
	set_hook(&h, "createRuntime",
		 hook(&h, h.host_rec, "createRuntime", "\"x y\"", "\"HOOK_ENV=1\",\"B=2\"", 0));
	lc_set_script(&h.t, "sleep 1000");
	lc_ok(&h.t, "create", "--bundle", h.t.bundle, ID);
	assert_kinds(&h, "prestart createRuntime createContainer");
	yajl_val state = lc_state(&h.t, ID);
	pid_t init = (pid_t)ctt_json_get_int(state, ".pid");
	struct init_ns ns = init_ns_of(init);
	assert_create_hooks(&h, state, init, &ns);

	lc_ok(&h.t, "start", ID);
	assert_kinds(&h, "prestart createRuntime createContainer startContainer poststart");
	assert_start_hooks(&h, state, init, &ns);

	lc_ok(&h.t, "delete", "--force", ID);
	assert_kinds(&h, "prestart createRuntime createContainer startContainer poststart "
			 "poststop");
	char *r = record_of(&h, "poststop");
	assert_in_runtime(r);
	assert_hook_state(r, state, "stopped", 0);
	free(r);
	lc_assert_nothing_left(&h.t);
	yajl_tree_free(state);
	init_ns_free(&ns);
}

/* What hooks write on stdout is kept for an error only (runc's way): ctrun's stdout, the
 * container's here, has none of it. */
Test(hooks, run_calls_all_six_in_order)
{
	struct hk h;
	hk_init(&h);
	set_all_six(&h);
	static const char *const noisy[] = {"createRuntime", "poststart", "poststop"};
	for (size_t i = 0; i < 3; i++)
		set_hook(&h, noisy[i],
			 hook(&h, h.host_rec, noisy[i], "\"--stdout\",\"noise\"", NULL, 0));
	lc_set_script(&h.t, "echo ran");
	char *out = lc_run_output(&h.t);
	cr_expect_str_eq(out, "ran\n");
	assert_kinds(&h, "prestart createRuntime createContainer startContainer poststart "
			 "poststop");
	lc_assert_nothing_left(&h.t);
	free(out);
}

/* A failure during create: the error names the hook and carries its stderr, nothing is
 * left, and the poststop hooks ran (runtime.md#lifecycle: on to steps 12 and 13). */
static void assert_create_fails(struct hk *h, const char *const *needles, const char *ran)
{
	set_hook(h, "poststop", hook(h, h->host_rec, "poststop", NULL, NULL, 0));
	lc_expect_failv(&h->t, LC_ARGV("create", "--bundle", h->t.bundle, ID), needles);
	assert_kinds(h, ran);
	lc_assert_nothing_left(&h->t);
}

Test(hooks, create_runtime_timeout_kills_it_and_leaves_nothing)
{
	struct hk h;
	hk_init(&h);
	/* CTT_MARK: lc_assert_nothing_left() would find the hook if it were still there */
	char *mark;
	cr_assert_geq(asprintf(&mark, "\"CTT_MARK=%s\"", h.t.root), 0);
	set_hook(&h, "createRuntime",
		 hook(&h, h.host_rec, "createRuntime", "\"--sleep\",\"600\"", mark, 1));
	char *name;
	cr_assert_geq(asprintf(&name, "createRuntime hook #0 \"%s\"", h.host_rec), 0);
	assert_create_fails(&h, LC_ARGV(name, "timed out after 1 s"), "createRuntime poststop");
	free(name);
	free(mark);
}

/* The init's own runner: createContainer is killed at its timeout inside the container. */
Test(hooks, create_container_timeout_kills_it_and_leaves_nothing)
{
	struct hk h;
	hk_init(&h);
	char *mark;
	cr_assert_geq(asprintf(&mark, "\"CTT_MARK=%s\"", h.t.root), 0);
	set_hook(&h, "createContainer",
		 hook(&h, h.host_rec, "createContainer",
		      "\"--stderr\",\"sleeping\",\"--sleep\",\"600\"", mark, 1));
	assert_create_fails(
		&h, LC_ARGV("createContainer hook #0", "timed out after 1 s", "(stderr: sleeping)"),
		"createContainer poststop");
	free(mark);
}

Test(hooks, failing_create_runtime_hook_stops_create_with_its_stderr)
{
	struct hk h;
	hk_init(&h);
	set_hook(&h, "createRuntime",
		 hook(&h, h.host_rec, "createRuntime",
		      "\"--stderr\",\"no network for you\",\"--exit\",\"3\"", NULL, 0));
	set_hook(&h, "createContainer", hook(&h, h.host_rec, "createContainer", NULL, NULL, 0));
	char *name;
	cr_assert_geq(asprintf(&name, "createRuntime hook #0 \"%s\"", h.host_rec), 0);
	assert_create_fails(&h,
			    LC_ARGV(name, "exited with status 3", "(stderr: no network for you)"),
			    "createRuntime poststop");
	free(name);
}

Test(hooks, failing_prestart_hook_stops_create)
{
	struct hk h;
	hk_init(&h);
	set_hook(&h, "prestart",
		 hook(&h, h.host_rec, "prestart", "\"--stdout\",\"said\",\"--exit\",\"1\"", NULL,
		      0));
	set_hook(&h, "createRuntime", hook(&h, h.host_rec, "createRuntime", NULL, NULL, 0));
	assert_create_fails(&h,
			    LC_ARGV("prestart hook #0", "exited with status 1", "(stdout: said)"),
			    "prestart poststop");
}

Test(hooks, failing_create_container_hook_stops_create)
{
	struct hk h;
	hk_init(&h);
	char *ok = hook(&h, h.host_rec, "createContainer", NULL, NULL, 0);
	char *bad = hook(&h, h.host_rec, "createContainer", "\"--stderr\",\"bad\",\"--exit\",\"7\"",
			 NULL, 0);
	char *both;
	cr_assert_geq(asprintf(&both, "%s,%s", ok, bad), 0);
	set_hook(&h, "createContainer", both);
	assert_create_fails(
		&h, LC_ARGV("createContainer hook #1", "exited with status 7", "stderr: bad"),
		"createContainer createContainer poststop");
	free(ok);
	free(bad);
}

Test(hooks, missing_hook_program_stops_create)
{
	struct hk h;
	hk_init(&h);
	set_hook(&h, "createRuntime",
		 hook(&h, "/nonexistent/hook", "createRuntime", NULL, NULL, 0));
	assert_create_fails(&h,
			    LC_ARGV("createRuntime hook #0 \"/nonexistent/hook\": exec: No such "
				    "file or directory"),
			    "poststop");
}

/* A failing start: start fails naming the hook, the container is deleted, poststop ran. */
static void assert_start_fails(struct hk *h, const char *const *needles, const char *ran)
{
	set_hook(h, "poststop", hook(h, h->host_rec, "poststop", NULL, NULL, 0));
	lc_set_script(&h->t, "sleep 1000");
	lc_ok(&h->t, "create", "--bundle", h->t.bundle, ID);
	lc_expect_failv(&h->t, LC_ARGV("start", ID), needles);
	assert_kinds(h, ran);
	lc_assert_nothing_left(&h->t);
}

Test(hooks, failing_start_container_hook_fails_start_and_deletes)
{
	struct hk h;
	hk_init(&h);
	hk_bind_log(&h);
	set_hook(&h, "startContainer",
		 hook(&h, IN_ROOTFS, "startContainer",
		      "\"--stderr\",\"no ldconfig\",\"--exit\",\"2\"", NULL, 0));
	set_hook(&h, "poststart", hook(&h, h.host_rec, "poststart", NULL, NULL, 0));
	assert_start_fails(&h,
			   LC_ARGV("start container \"" ID "\": startContainer hook #0 \"" IN_ROOTFS
				   "\": exited with status 2 (stderr: no ldconfig)"),
			   "startContainer poststop");
}

/* config.md: the startContainer path resolves in the container, so the host's recorder,
 * which is not in the rootfs, is not found there. */
Test(hooks, start_container_path_resolves_in_the_container)
{
	struct hk h;
	hk_init(&h);
	set_hook(&h, "startContainer", hook(&h, h.host_rec, "startContainer", NULL, NULL, 0));
	assert_start_fails(&h, LC_ARGV("startContainer hook #0", "exec: No such file or directory"),
			   "poststop");
}

Test(hooks, failing_poststart_hook_fails_start_and_deletes)
{
	struct hk h;
	hk_init(&h);
	set_hook(&h, "poststart",
		 hook(&h, h.host_rec, "poststart", "\"--stderr\",\"not today\",\"--exit\",\"4\"",
		      NULL, 0));
	assert_start_fails(&h, LC_ARGV("poststart hook #0", "exited with status 4", "not today"),
			   "poststart poststop");
}

Test(hooks, failing_poststop_hook_is_a_warning_and_delete_completes)
{
	struct hk h;
	hk_init(&h);
	char *bad = hook(&h, h.host_rec, "poststop",
			 "\"--stderr\",\"cannot clean\",\"--exit\",\"5\"", NULL, 0);
	char *ok = hook(&h, h.host_rec, "poststop", NULL, NULL, 0);
	char *both;
	cr_assert_geq(asprintf(&both, "%s,%s", bad, ok), 0);
	set_hook(&h, "poststop", both);
	lc_ok(&h.t, "run", "--bundle", h.t.bundle, "--keep", ID);
	struct ctt_result r;
	lc_ctrun(&r, &h.t, "delete", ID);
	cr_expect_eq(r.status, 0, "delete: %s", r.err);
	cr_expect(strstr(r.err, "poststop hook #0") && strstr(r.err, "cannot clean"),
		  "no warning: %s", r.err);
	ctt_result_free(&r);
	assert_kinds(&h, "poststop poststop");
	lc_assert_nothing_left(&h.t);
	free(bad);
	free(ok);
}

/* runtime.md#lifecycle step 2: config.json changed after create does not affect the
 * container; the poststop hooks of create time run at delete. */
Test(hooks, poststop_is_kept_from_create_when_the_bundle_changes)
{
	struct hk h;
	hk_init(&h);
	set_hook(&h, "poststop", hook(&h, h.host_rec, "poststop", NULL, NULL, 0));
	lc_ok(&h.t, "create", "--bundle", h.t.bundle, ID);
	ctt_config_set(h.t.bundle, ".hooks", "{}");
	lc_ok(&h.t, "start", ID);
	lc_wait_status(&h.t, ID, "stopped");
	lc_ok(&h.t, "delete", ID);
	assert_kinds(&h, "poststop");
}

/* A createContainer hook mounting over a planned mount is caught by the mount check; one
 * mounting elsewhere is reported as extra. */
Test(hooks, create_container_mount_over_a_planned_one_is_refused)
{
	struct hk h;
	hk_init(&h);
	/* the covered-mount bundle, but /y a plain directory: the hook does the covering */
	lc_covered_mounts(&h.t);
	char *x = lc_rootfs_path(&h.t, "x"), *y = lc_rootfs_path(&h.t, "y"), *extra;
	cr_assert_eq(unlink(y), 0);
	cr_assert_geq(asprintf(&extra, "\"--mount-tmpfs\",\"%s\"", x), 0);
	set_hook(&h, "createContainer", hook(&h, h.host_rec, "createContainer", extra, NULL, 0));
	lc_assert_fails(&h.t, LC_ARGV("create", "--bundle", h.t.bundle, ID), LC_COVERED_REFUSAL);
	lc_assert_nothing_left(&h.t);
	free(extra);
	free(x);
	free(y);
}

Test(hooks, create_container_mount_elsewhere_is_extra)
{
	struct hk h;
	hk_init(&h);
	char *mnt = lc_rootfs_path(&h.t, "hookmnt"), *extra;
	ctt_mkdir_p(mnt);
	cr_assert_geq(asprintf(&extra, "\"--mount-tmpfs\",\"%s\"", mnt), 0);
	set_hook(&h, "createContainer", hook(&h, h.host_rec, "createContainer", extra, NULL, 0));
	lc_set_script(&h.t, "sleep 1000");
	struct ctt_result r;
	lc_ctrun(&r, &h.t, "--debug", "create", "--bundle", h.t.bundle, ID);
	cr_assert_eq(r.status, 0, "create: %s", r.err);
	cr_expect(ctt_matches(r.err,
			      "mounts verified with [a-z]+: [0-9]+ checked, 1 extra: /hookmnt"),
		  "debug: %s", r.err);
	ctt_result_free(&r);
	lc_ctrun(&r, &h.t, "mounts", ID);
	cr_expect_eq(r.status, 0, "mounts: %s", r.err);
	cr_expect(ctt_matches(r.out, "/hookmnt.*extra"), "mounts: %s", r.out);
	ctt_result_free(&r);
	lc_ok(&h.t, "delete", "--force", ID);
	free(extra);
	free(mnt);
}

/* The runner's fallbacks (docs/design.md): hooks cloned with clone() (clone3 missing) or clone()
 * then pidfd_open() (no CLONE_PIDFD), and a timed-out hook killed with kill() where
 * pidfd_send_signal is refused. */
static void assert_hooks_under_enosys(const char *const *enosys_args)
{
	struct hk h;
	hk_init(&h);
	const char *wrapper[LC_WRAPPER_MAX];
	lc_wrap_enosys(&h.t, wrapper, enosys_args);
	set_all_six(&h);
	lc_set_script(&h.t, "echo ran");
	char *out = lc_run_output(&h.t);
	cr_expect_str_eq(out, "ran\n");
	free(out);
	assert_kinds(&h, "prestart createRuntime createContainer startContainer poststart "
			 "poststop");
	char *mark;
	cr_assert_geq(asprintf(&mark, "\"CTT_MARK=%s\"", h.t.root), 0);
	set_hook(&h, "createRuntime",
		 hook(&h, h.host_rec, "createRuntime", "\"--sleep\",\"600\"", mark, 1));
	lc_assert_fails(&h.t, LC_ARGV("create", "--bundle", h.t.bundle, ID),
			"createRuntime hook #0", "timed out after 1 s");
	lc_assert_nothing_left(&h.t);
	free(mark);
}

Test(hooks, run_and_time_out_without_clone3_and_pidfd_send_signal)
{
	static const char *const args[] = {"clone3,pidfd_send_signal", NULL};
	assert_hooks_under_enosys(args);
}

Test(hooks, run_and_time_out_with_clone_then_pidfd_open)
{
	static const char *const args[] = {"--clone-pidfd-einval", "clone3", NULL};
	assert_hooks_under_enosys(args);
}

/* Without a mount namespace the init chroots instead of pivot_root: createContainer runs
 * before the chroot, startContainer inside it. */
Test(hooks, without_a_mount_namespace_around_the_chroot)
{
	struct hk h;
	hk_init(&h);
	lc_namespace_set(&h.t, "mount", NULL);
	/* the log sits in the rootfs, which startContainer writes */
	ctt_config_set(h.t.bundle, ".root.readonly", "false");
	free(h.log);
	h.log = lc_rootfs_path(&h.t, "hooks.log");
	set_hook(&h, "createContainer", hook(&h, h.host_rec, "createContainer", NULL, NULL, 0));
	char *start_log = ctt_json_quote("/hooks.log"), *json;
	cr_assert_geq(asprintf(&json,
			       "{\"path\":\"" IN_ROOTFS "\",\"args\":[\"hook_recorder\","
			       "\"startContainer\",%s]}",
			       start_log),
		      0);
	set_hook(&h, "startContainer", json);
	lc_ok(&h.t, "run", "--bundle", h.t.bundle, ID);
	assert_kinds(&h, "createContainer startContainer");
	char *host_root = file_id("/"), *rootfs = lc_rootfs_path(&h.t, ""),
	     *container_root = file_id(rootfs);
	char *r = record_of(&h, "createContainer");
	assert_field(r, "root", host_root);
	free(r);
	r = record_of(&h, "startContainer");
	assert_field(r, "root", container_root);
	free(r);
	lc_assert_nothing_left(&h.t);
	free(start_log);
	free(host_root);
	free(rootfs);
	free(container_root);
}

/* In a user namespace of its own, the init's hooks run in it too (as its mapped root),
 * the runtime's in the host's. */
Test(hooks, in_a_user_namespace_the_container_hooks_run_in_it)
{
	struct hk h;
	hk_init(&h);
	const unsigned host_id = 100000;
	lc_map_root(&h.t, host_id, 65536);
	/* the mapped root appends to the log the runtime's hooks start */
	char *dir = strndup(h.log, strrchr(h.log, '/') - h.log);
	ctt_make_searchable(dir);
	cr_assert_eq(chown(dir, host_id, host_id), 0);
	ctt_write_file(h.log, "");
	cr_assert_eq(chmod(h.log, 0666), 0);
	hk_bind_log(&h);
	set_hook(&h, "createRuntime", hook(&h, h.host_rec, "createRuntime", NULL, NULL, 0));
	set_hook(&h, "createContainer", hook(&h, h.host_rec, "createContainer", NULL, NULL, 0));
	set_hook(&h, "startContainer", hook(&h, IN_ROOTFS, "startContainer", NULL, NULL, 0));
	lc_set_script(&h.t, "sleep 1000");
	lc_ok(&h.t, "create", "--bundle", h.t.bundle, ID);
	struct init_ns ns = init_ns_of(lc_pid(&h.t, ID));
	char *host_user = ctt_ns_link("self", "user"), *host_root = file_id("/"),
	     *rootfs = lc_rootfs_path(&h.t, ""), *container_root = file_id(rootfs);
	cr_expect_str_neq(ns.user, host_user, "the init is in the host's user namespace");
	char *r = record_of(&h, "createRuntime");
	assert_field(r, "user", host_user);
	free(r);
	r = record_of(&h, "createContainer");
	assert_in_container(r, &ns, host_root);
	free(r);
	lc_ok(&h.t, "start", ID);
	r = record_of(&h, "startContainer");
	assert_in_container(r, &ns, container_root);
	free(r);
	lc_ok(&h.t, "delete", "--force", ID);
	lc_assert_nothing_left(&h.t);
	init_ns_free(&ns);
	free(host_user);
	free(host_root);
	free(container_root);
	free(rootfs);
	free(dir);
}
