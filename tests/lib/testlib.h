/* Helpers for the integration tests: run ctrun and other programs, make temporary files and
 * bundles, read JSON, check documents against the spec's schemas. The one helper library of
 * the tests, in tests/lib by concern: this header (run.c, proc.c, fs.c, json.c, bundle.c,
 * schema.c, checks.c); container.h, a container under test with its own state root
 * (container.c, config.c, spawn.c, checks.c); cgroup.h, the cgroup suites' subtree
 * (cgroup.c); host_null.h, a /dev/null of the test's own (host_null.c); rows.h,
 * parameterized tests over a table; difftable.h, the differential table (difftable.c, also
 * in the unit tests).
 *
 * Set-up helpers never return an error: a failure of the machinery (fork, mkdir, a missing
 * $CTRUN) fails the test with cr_assert_fail() and says what went wrong, and a missing
 * prerequisite (busybox-static, python3-jsonschema, the spec directory) skips it with the
 * reason. Every temporary directory is registered and removed by ctt_cleanup(), which a
 * suite installs as its .fini (Criterion runs it after a failed assertion too):
 *
 *	TestSuite(spec, .fini = ctt_cleanup);
 *	Test(spec, writes_config) {
 *		char *dir = ctt_tmpdir();
 *		struct ctt_result r;
 *		ctt_ctrun(&r, NULL, "spec", "--bundle", dir, NULL);
 *		cr_assert_eq(r.status, 0, "stderr: %s", r.err);
 *	}
 */
#ifndef CTRUN_TESTLIB_H
#define CTRUN_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <yajl/yajl_tree.h>

/* ---- running programs (run.c) ---- */

#define CTT_DEFAULT_TIMEOUT_MS 30000

struct ctt_run_opts {
	const char *input;	/* written to stdin; NULL: stdin is /dev/null */
	size_t input_len;	/* 0: strlen(input) */
	const char *cwd;	/* working directory of the program; NULL: the test's */
	const char *const *env; /* extra "NAME=value" entries (NULL-terminated), override */
	unsigned timeout_ms;	/* 0: CTT_DEFAULT_TIMEOUT_MS */
	bool allow_timeout;	/* false: a timeout fails the test; true: see timed_out */
};

struct ctt_result {
	int status;	 /* exit code; 128 + N when killed by signal N */
	int signal;	 /* the signal that killed it, 0 when it exited */
	bool timed_out;	 /* killed (SIGKILL, its whole process group) at the deadline */
	char *out, *err; /* all of stdout / stderr, NUL-terminated, never NULL */
	size_t out_len, err_len;
};

/* Runs argv[0] (searched in PATH when it has no '/') with argv, waits for it to exit and
 * returns its status (res->status). Output is captured until the program exits: what a
 * process it left behind writes later is not waited for. opts may be NULL. */
int ctt_run(struct ctt_result *res, const struct ctt_run_opts *opts, const char *const *argv);

/* Runs $CTRUN with the given arguments (NULL-terminated). */
int ctt_ctrun(struct ctt_result *res, const struct ctt_run_opts *opts, ...)
	__attribute__((sentinel));
int ctt_ctrunv(struct ctt_result *res, const struct ctt_run_opts *opts, const char *const *args);

void ctt_result_free(struct ctt_result *res);

/* $CTRUN (set by `make integration`); fails the test when unset. */
const char *ctt_ctrun_path(void);

/* $CTRUN_HELPERS/name: a program of tests/helpers/ (set by `make integration`); fails the
 * test when the variable is unset or the helper is not built. Static storage, reused after
 * four calls. */
const char *ctt_helper(const char *name);

/* Number of lines of s (a last line without '\n' counts). */
unsigned ctt_count_lines(const char *s);

/* ---- processes (run.c, proc.c) ---- */

/* Forks argv (a name without '/' looked up in PATH) with stdin from in_file, stdout and
 * stderr appended to out and err (which may be one file), fd3 (when >= 0) as its fd 3 and env
 * as its environment (NULL: the test's); returns its pid, which the caller waits for. */
pid_t ctt_fork_exec(const char *const *argv, char *const *env, const char *in_file, const char *out,
		    const char *err, int fd3);
/* Whether pid is a live process (a zombie has exited). Read here, not through libct, so
 * that ctrun's own parser does not judge ctrun. */
bool ctt_alive(pid_t pid);

/* readlink of /proc/<who>/ns/<name> ("self" or a pid), e.g. "mnt:[4026531841]", malloc'd. */
char *ctt_ns_link(const char *who, const char *name);

/* Number of processes whose pid namespace is that of pid and whose cmdline is cmdline
 * (arguments joined by spaces). */
int ctt_count_in_pidns(pid_t pid, const char *cmdline);
/* The pid (as seen here) of one such process; fails when none comes within the poll limit. */
pid_t ctt_find_in_pidns(pid_t pid, const char *cmdline);
/* Polls until ctt_count_in_pidns() is want (fails after 10 s). */
void ctt_wait_count_in_pidns(pid_t pid, const char *cmdline, int want);

/* Its start time (field 22 of /proc/PID/stat, clock ticks since boot). */
unsigned long long ctt_start_time(pid_t pid);
/* How many processes other than the test have entry ("NAME=value") in their environment. */
int ctt_count_processes_with_env(const char *entry);
/* environ with extra ("NAME=value", NULL-terminated; may be NULL) laid over it, same NAME
 * replaced; built before a fork, since the child of a threaded process should only exec.
 * Free the array only. */
char **ctt_env_with(const char *const *extra);
/* The path of program name in $PATH (malloc'd), NULL when it is not there. */
char *ctt_which(const char *name);
void ctt_sleep_ms(unsigned ms);

/* ---- checks (checks.c, run.c, fs.c) ---- */

/* How long a test polls for something to happen before it fails. */
#define CTT_POLL_LIMIT_MS 10000

/* Whether item is one of the comma-separated list ("rw,nosuid,nodev"). */
bool ctt_in_list(const char *list, const char *item);
/* Whether text has a line matching regex (extended). */
bool ctt_matches(const char *text, const char *regex);
/* Expects a line of text to match regex; the failure quotes both. */
void ctt_assert_line(const char *text, const char *regex);
/* Removes the "\r" a terminal puts before each "\n", so lines can be matched. */
void ctt_strip_cr(char *s);
/* The run exited with status and wrote exactly out and err. */
void ctt_assert_output(const struct ctt_result *r, int status, const char *out, const char *err);
/* An error of ctrun: non-zero exit, one line on stderr that contains each of the
 * NULL-terminated needles. */
void ctt_assert_error_line(const struct ctt_result *r, const char *const *needles);
#define ctt_assert_error(r, ...) ctt_assert_error_line(r, (const char *const[]){__VA_ARGS__, NULL})
/* The whole --log file is one JSON object {"level":"error","msg":...,"time":...} (Podman
 * unmarshals it as one), its msg holding needle. */
void ctt_assert_log_one_error(const char *log, const char *needle);
/* The file holds exactly want (a victim file a container must not have written). */
void ctt_assert_file_text(const char *path, const char *want);

/* Polls until the file exists (fails after 10 s). */
void ctt_wait_file(const char *path);
/* Polls until the file holds needle (fails after 10 s); returns the content, malloc'd. */
char *ctt_wait_content(const char *path, const char *needle);

/* ---- files and temporary directories (fs.c) ---- */

/* A new empty directory under $TMPDIR (or /tmp), removed by ctt_cleanup(). malloc'd. */
char *ctt_tmpdir(void);

/* "dir/name" for a new ctt_tmpdir() dir, malloc'd (name is not made). */
char *ctt_tmp_path(const char *name);

/* Removes every directory ctt_tmpdir() made in this test. Use as a suite's .fini. */
void ctt_cleanup(void);

/* Removes path recursively without following symlinks and without crossing into another
 * file system (a mount left inside is reported, never descended). Returns 0 or -1 (errno). */
int ctt_rm_rf(const char *path);

/* "dir/name", malloc'd. */
char *ctt_path(const char *dir, const char *name);

/* mkdir -p with mode 0755. */
void ctt_mkdir_p(const char *path);

/* Writes (creates or truncates) a file with mode 0644. */
void ctt_write_file(const char *path, const char *text);

/* The whole file, malloc'd and NUL-terminated. */
char *ctt_read_file(const char *path);

bool ctt_exists(const char *path);

/* Entries of dir, "." and ".." aside; fails the test when dir cannot be opened. */
unsigned ctt_count_entries(const char *dir);

/* A file of text in a fresh directory of the test's (ctt_tmpdir()): its path, malloc'd. */
char *ctt_write_tmp(const char *name, const char *text);

/* Mounts a tmpfs on the host's path (a directory of the test's), detached by ctt_cleanup()
 * before the directories go. */
void ctt_mount_tmpfs(const char *path, unsigned long flags, const char *data);

/* Skips the test where mount_setattr is missing (ENOSYS, or EPERM from a seccomp profile):
 * recursive mount attributes (rro, rnosuid, ...) need it. */
void ctt_require_mount_setattr(void);

/* chown -R -h uid:uid path (for a user namespace's mapped root). */
void ctt_chown_tree(const char *path, unsigned uid);
/* chmod 0755 of a directory the mapped root must search (temporary ones are 0700). */
void ctt_make_searchable(const char *dir);

/* fn runs first at the next ctt_cleanup() (once): what a helper library must undo before the
 * directories go, e.g. the containers of container.h, also when a test skips. */
void ctt_cleanup_first(void (*fn)(void));

/* Skips the current test with the reason, after ctt_cleanup() (Criterion runs no .fini for
 * a skipped test). */
#define ctt_skip(...)                 \
	do {                          \
		ctt_cleanup();        \
		cr_skip(__VA_ARGS__); \
	} while (0)

/* ---- bundles (bundle.c) ---- */

/* Makes dir (created when missing) a busybox bundle: rootfs/bin/busybox from the host's
 * busybox-static with a symlink per applet in rootfs/bin, the usual mount points, a minimal
 * /etc/passwd and /etc/group, and config.json from `ctrun spec`. Skips the test when
 * /bin/busybox is missing or not static. */
void ctt_bundle_make(const char *dir);

/* A new temporary bundle (ctt_tmpdir() + ctt_bundle_make()); the path is malloc'd. */
char *ctt_bundle_new(void);

/* Changes one value of bundle/config.json: see ctt_json_edit_file(). */
void ctt_config_set(const char *bundle, const char *path, const char *json);

/* ---- JSON (json.c) ---- */

/* JSON string literal of s, malloc'd. */
char *ctt_json_quote(const char *s);

/* Paths: "" or "." is the document, ".process.args[0]", ".annotations[\"a.b\"]". */

/* Parses text; fails the test (quoting what) when it is not JSON. Free: yajl_tree_free. */
yajl_val ctt_json_parse(const char *text, const char *what);
yajl_val ctt_json_load(const char *file);

/* The value at path, or NULL when there is none. */
yajl_val ctt_json_get(yajl_val tree, const char *path);
/* The string at path, or NULL when absent or not a string. */
const char *ctt_json_get_string(yajl_val tree, const char *path);
/* The integer at path; fails the test when absent or not an integer. */
long long ctt_json_get_int(yajl_val tree, const char *path);
/* true/false at path; fails the test when absent or not a boolean. */
bool ctt_json_get_bool(yajl_val tree, const char *path);
/* Whether the array at path has the string s among its elements. */
bool ctt_json_array_has(yajl_val tree, const char *path, const char *s);
/* Length of the array (or object) at path; -1 when absent or neither. */
long ctt_json_len(yajl_val tree, const char *path);

/* v as compact JSON text, malloc'd. */
char *ctt_json_text(yajl_val v);

/* Rewrites file with the value at path replaced by json (JSON text), or removed when json
 * is NULL. A missing last key of an existing object is added; "[N]" with N the array's
 * length appends. Fails the test when the path does not lead there. */
void ctt_json_edit_file(const char *file, const char *path, const char *json);

/* ---- schemas (schema.c) ---- */

/* The runtime-spec directory: $CTRUN_SPEC_DIR, else $CTRUN_SRC/../shared/runtime-spec; NULL
 * when it does not exist. */
const char *ctt_spec_dir(void);

/* Validates file against schema/<schema> of the spec ("config-schema.json") with python3's
 * jsonschema; fails the test with every violation. Skips when python3-jsonschema or the
 * spec directory is missing. */
void ctt_assert_schema_valid(const char *file, const char *schema);

#endif
