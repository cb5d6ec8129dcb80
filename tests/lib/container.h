/* A container under test (container.c, config.c, spawn.c, checks.c): one busybox bundle and
 * one private state root per test, ctrun always run with `--root`, and a clean-up that
 * force-deletes every container the test left behind before the temporary directories go.
 *
 * Every ctrun the helpers start, and every container process, carries CTT_MARK=<root> in
 * its environment (the init's copy of ctrun's environment before exec, the config's env
 * after), which is how lc_assert_nothing_left() finds a process a failed create left. */
#ifndef CTRUN_TESTS_CONTAINER_H
#define CTRUN_TESTS_CONTAINER_H

#include <stdbool.h>
#include <sys/types.h>
#include <yajl/yajl_tree.h>

#include "tests/lib/testlib.h"

struct lc {
	char *root;   /* the --root of every command */
	char *bundle; /* a busybox bundle whose config env has CTT_MARK */
	/* argv prefix every ctrun of the helpers runs under (NULL-terminated), e.g.
	 * {enosys, "clone3", "--", NULL}; NULL: none. lc_cleanup() never uses it. */
	const char *const *wrapper;
};

/* A new root and bundle (no wrapper), registered for lc_cleanup(). */
void lc_init(struct lc *t);

/* Replaces t's config.json with what `ctrun spec --rootless` writes for the caller (with the
 * environment lc_init() gave the process). */
void lc_use_rootless_spec(const struct lc *t);

/* Use as a suite's .fini: `delete --force` of every container, then ctt_cleanup(). */
void lc_cleanup(void);

/* Sets process.args to argv (NULL-terminated) / to `sh -c script`. */
void lc_set_args(const struct lc *t, const char *const *argv);
void lc_set_script(const struct lc *t, const char *script);
/* Appends json to the array at path of config.json (made when absent). */
void lc_config_append(const struct lc *t, const char *path, const char *json);
/* Index of the element of the array at path whose string at member ("" for the element
 * itself, ".type" for its type) is value; -1 when none is. */
long lc_config_index(const struct lc *t, const char *array, const char *member, const char *value);
/* Index of the namespace of that type in .linux.namespaces, -1 when absent. */
long lc_namespace_index(const struct lc *t, const char *type);
/* Replaces (json) or removes (NULL) the namespace entry of that type. */
void lc_namespace_set(const struct lc *t, const char *type, const char *json);

/* A new user namespace for the container mapping ids 0..size-1 (uids and gids) to host_id on;
 * the bundle searchable and the rootfs owned by the mapped root. */
void lc_map_root(const struct lc *t, unsigned host_id, unsigned size);

/* Appends {destination, type, source, options} to .mounts; options comma-separated
 * ("ro,size=1m"), NULL for none. */
void lc_add_mount(const struct lc *t, const char *dest, const char *type, const char *source,
		  const char *options);

/* lc_add_mount() of a tmpfs. */
void lc_add_tmpfs(const struct lc *t, const char *dest, const char *options);

/* Mounts with options of every kind, in this order: /ro, a read-only nosuid bind of source;
 * /t, a tmpfs with data and flags; /rro, an rbind of source with rro and rnodev; /strict,
 * a tmpfs with atime flags and nosymfollow; /shared, a shared tmpfs, and /slave, a slave
 * bind of the bundle's rootfs/shared. */
void lc_add_option_mounts(const struct lc *t, const char *source);

/* Removes the entry of .mounts whose destination is dest (which must be there). */
void lc_remove_mount(const struct lc *t, const char *dest);
/* A mount the mount check must refuse: #7 a read-only tmpfs at /x, #8 a tmpfs at /y, which
 * the image makes a symlink to /x, so the later mount covers the earlier one. The root is
 * writable; the process prints the mountinfo line of /x and "x-writable" if it is. */
void lc_covered_mounts(const struct lc *t);
/* What create says of it (the needles of ctt_assert_error). */
#define LC_COVERED_REFUSAL "mount #7 \"/x\"", "is not the one made there"

/* Sets t->wrapper to `enosys ARGS... --` built in argv (LC_WRAPPER_MAX entries, owned by the
 * caller); enosys_args NULL: no wrapper. */
#define LC_WRAPPER_MAX 8
void lc_wrap_enosys(struct lc *t, const char **argv, const char *const *enosys_args);

/* The value at path of ../shared/configs/file (what runc, crun, Podman, containerd, Docker
 * and Buildah really write) as JSON text, malloc'd; skips the test when the file is missing. */
char *lc_shared_config_value(const char *file, const char *path);

/* `ctrun --root ROOT args...`. */
int lc_ctrunv(struct ctt_result *r, const struct lc *t, const char *const *args);
#define lc_ctrun(r, t, ...) lc_ctrunv(r, t, (const char *const[]){__VA_ARGS__, NULL})
/* The same with input (NULL: /dev/null) on ctrun's stdin. */
int lc_ctrun_inputv(struct ctt_result *r, const struct lc *t, const char *input,
		    const char *const *args);
#define lc_ctrun_input(r, t, input, ...) \
	lc_ctrun_inputv(r, t, input, (const char *const[]){__VA_ARGS__, NULL})
/* A NULL-terminated argument list in place. */
#define LC_ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})
/* The same, expecting exit status 0 (the result is freed). */
void lc_okv(const struct lc *t, const char *const *args);
#define lc_ok(t, ...) lc_okv(t, (const char *const[]){__VA_ARGS__, NULL})

/* `run --bundle B id` of `sh -c script` (process.args set so); returns its exit status. */
int lc_run_sh(struct ctt_result *r, const struct lc *t, const char *id, const char *script);
/* The same with --debug: what ctrun logged is in r->err. */
int lc_debug_run_sh(struct ctt_result *r, const struct lc *t, const char *id, const char *script);
/* `run --bundle B ID` of `sh -c script`; expects exit 0 and returns stdout (malloc'd). */
char *lc_sh_output(const struct lc *t, const char *script);
/* The same for process.args as configured. */
char *lc_run_output(const struct lc *t);
/* lc_sh_output() of script is exactly want. */
void lc_assert_sh_output(const struct lc *t, const char *script, const char *want);
/* The container runs its process.args as they are and writes exactly want. */
void lc_assert_run_output(const struct lc *t, const char *want);

/* `state ID`, which must succeed, parsed. */
yajl_val lc_state(const struct lc *t, const char *id);
/* The status from `state`, malloc'd. */
char *lc_status(const struct lc *t, const char *id);
/* The status from `state` is want. */
void lc_assert_status(const struct lc *t, const char *id, const char *want);
/* Polls `state` until the status is want (fails after 10 s). */
void lc_wait_status(const struct lc *t, const char *id, const char *want);
/* The pid from `state`. */
pid_t lc_pid(const struct lc *t, const char *id);

/* ROOT/id/state.json, malloc'd. */
char *lc_state_file(const struct lc *t, const char *id);

/* bundle/rootfs/rel on the host, malloc'd; the container writes its /rel there. */
char *lc_rootfs_path(const struct lc *t, const char *rel);
/* Writes text as bundle/rootfs/rel, its directories made; the path, malloc'd. */
char *lc_rootfs_file(const struct lc *t, const char *rel, const char *text);
/* Polls until bundle/rootfs/rel holds needle, then expects it to be exactly want. */
void lc_assert_rootfs_content(const struct lc *t, const char *rel, const char *want);

/* Starts argv in the background: stdin /dev/null, stdout and stderr appended to out,
 * fd3 (when >= 0) as its fd 3, CTT_MARK of t in its environment. Killed at lc_cleanup()
 * if still there. */
pid_t lc_spawn(const struct lc *t, const char *const *argv, const char *out, int fd3);
/* The same with stdin from in (opened for reading: a fifo or /proc/self/fd/N of a pipe). */
pid_t lc_spawn_stdin(const struct lc *t, const char *const *argv, const char *in, const char *out,
		     int fd3);
/* A stopped container's pid recycled: a process of ours (lc_spawn()ed `sleep 1000`, started
 * in another clock tick than the init) whose pid state.json of id now names. */
pid_t lc_recycle_pid(const struct lc *t, const char *id);

/* Copies tests/helpers/sysprobe (static: raw syscalls, see there) into the rootfs as
 * /bin/sysprobe. */
void lc_install_sysprobe(const struct lc *t);
/* Copies the static helper build/helpers/NAME to the rootfs's /bin/NAME. */
void lc_install_helper(const struct lc *t, const char *name);

/* argv of `ctrun --root ROOT args...` for lc_spawn (static storage, one at a time). */
const char *const *lc_ctrun_argv(const struct lc *t, const char *const *args);
/* How many processes other than the test carry t's CTT_MARK (ctrun's and its containers'). */
int lc_count_left_processes(const struct lc *t);
/* Kills and reaps every lc_spawn()ed process still there (the clean-up does). */
void lc_kill_spawned(void);
/* "CTT_MARK=<root>", malloc'd. */
char *lc_mark_env(const struct lc *t);
/* Waits for a lc_spawn()ed process; returns its status (128+N when killed by signal N). */
int lc_wait(pid_t pid, unsigned timeout_ms);

/* lc_spawn() of argv with fd3 (when >= 0) as its fd 3, waited for (20 s); its exit status
 * in *status, its output returned (malloc'd). */
char *lc_spawn_output(const struct lc *t, const char *const *argv, int fd3, int *status);

/* Command i of a concurrent run: its arguments after `ctrun --root ROOT` into args (at most
 * LC_COMMAND_MAX - 1, NULL-terminated), using buf (size bytes) for any it makes. */
#define LC_COMMAND_MAX 16
typedef void (*lc_command_fn)(const struct lc *t, size_t i, const char **args, char *buf,
			      size_t size);
/* The n commands started at once, each waited for (exit 0 expected within timeout_ms); their
 * outputs, malloc'd (the array too). */
char **lc_run_concurrently(const struct lc *t, size_t n, lc_command_fn command,
			   unsigned timeout_ms);

/* Starts tests/helpers/console_receiver on sock with opts (NULL-terminated, may be NULL),
 * its output appended to out, and waits until it listens. */
pid_t lc_console_receiver(const struct lc *t, const char *sock, const char *out,
			  const char *const *opts);

/* Starts tests/helpers/seccomp_listener on sock (state: where it writes the state it gets;
 * answer: its ANSWER, hold: it keeps each call until SIGUSR1), its output appended to out,
 * and waits until it listens. */
pid_t lc_seccomp_listener(const struct lc *t, const char *sock, const char *state, const char *out,
			  const char *answer, bool hold);
/* Until the listener at sock took its one connection (it unlinks its socket then). */
void lc_wait_listener_taken(const char *sock);

/* Every fd of pid (seen from the host) from keep on is close-on-exec, and there is one:
 * ctrun's own, still open in its process before the execve. */
void lc_assert_fds_cloexec(pid_t pid, int keep);

/* `ctrun --root ROOT args...` fails as ctt_assert_error() checks, with each needle. */
void lc_expect_failv(const struct lc *t, const char *const *args, const char *const *needles);
#define lc_assert_fails(t, args, ...) lc_expect_failv(t, args, LC_ARGV(__VA_ARGS__))

/* `--debug run` of id with a program that writes "ran" and exits 5: it runs once, after the
 * set-up, with its output and status, and START went with the set-up (no round trip)
 * exactly when with_setup. */
void lc_assert_start_with_setup(const struct lc *t, const char *id, bool with_setup);

/* Both `create` and `run` of id fail as ctt_assert_error() checks, and leave nothing. */
void lc_assert_create_refused(const struct lc *t, const char *id, const char *const *needles);
/* The root has no container (no entry, `list -q` empty), no process of the test's
 * containers exists and no mount below the test's directories is left. */
void lc_assert_nothing_left(const struct lc *t);

#endif
