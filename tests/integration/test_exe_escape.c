/* CVE-2019-5736, the whole class (docs/security.md), as the published attack does it: a
 * process that enters a container executes /proc/self/exe while its image is still
 * ctrun's, directly or as a script's interpreter; an attacker in a container
 * (tests/helpers/exe_attack) opens /proc/<victim>/exe O_PATH, waits until it is no longer
 * executed, reopens it for writing, and, refused, clears the read-only flag of its mount
 * from a user namespace of its own and tries again.
 *
 * The victim enters by `exec` (foreground, --detach, --tty) into the attacker's container,
 * as the init (`run`, `create`+`start`) of a container that joins the attacker's pid
 * namespace, or as the init of a container of its own, whose handle an accomplice exec'd
 * there passes to the attacker. Each test runs a copy of ctrun from a directory of its own, so that
 * a successful attack destroys only the copy; the copy's SHA-256 must be unchanged and the attacker
 * must report no write. The ways of protection are each tested: the kept view (made in one call
 * and in two), the detached view (a read-only cache directory), the sealed memfd copy
 * (open_tree made ENOSYS), and none where the binary's mount is read-only already; and how
 * the kept view is made once by commands that start together and dropped once its binary is
 * deleted. Last, the victim caught before the image is the container's: a seccomp agent holds
 * it in its last execve, ctrun's code with every fd open, while a process of the container
 * probes it (its exe, fds, environ, mem, ptrace: CVE-2016-9962 as well). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/sha256.h"
#include "tests/lib/container.h"
#include "tests/lib/rows.h"

TestSuite(exe_escape, .fini = lc_cleanup);

#define ATTACKER "attacker"
#define VICTIM	 "victim"
#define FIFO	 "/shared/fifo"
#define SOCK	 "/shared/sock" /* where an attacker takes a handle another one found */
/* The victim's runtime blocks opening the fifo for its log until the attacker reads. */
#define VICTIM_ARGS "--log", FIFO, "state", "x"
/* A script whose interpreter is /proc/self/exe: `--root` takes the script's own path. */
#define SCRIPT "#!/proc/self/exe --root\n"

enum how { DIRECT, SCRIPTED };
/* The views, as the handle's link shows them: KEPT_VIEW stands for the kept view of the
 * test's copy, CACHE_DIR/exe-<dev>-<ino> (libct/parent/exe_bind.h; make integration gives
 * the suite a cache directory of its own); the detached view is the root of a bind mount of
 * the file alone, unmounted. */
#define CACHE_DIR     "/run/ctrun-cache"
#define KEPT_VIEW     NULL
#define DETACHED_VIEW "/"
/* How `exec` runs the victim: its flag, or none. */
#define FOREGROUND NULL
#define DETACHED   "--detach"
#define ON_A_TTY   "--tty"

struct attack {
	struct lc attacker;
	char *copy;   /* the ctrun every command runs */
	char *shared; /* bind-mounted at /shared into every container */
	char *out;    /* the attacker's output */
	char digest[CT_SHA256_HEX_LEN + 1];
	const char *wrapper[LC_WRAPPER_MAX];
};

static void sha256_file(const char *path, char hex[CT_SHA256_HEX_LEN + 1])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	struct ct_sha256 c;
	ct_sha256_init(&c);
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		ct_sha256_update(&c, buf, (size_t)n);
	cr_assert_eq(n, 0, "read %s: %s", path, strerror(errno));
	close(fd);
	unsigned char d[CT_SHA256_LEN];
	ct_sha256_final(&c, d);
	ct_sha256_hex(d, hex);
}

/* A copy of ctrun in a directory of its own, made the CTRUN of this test's process. */
static char *copy_ctrun(void)
{
	char *dir = ctt_path(ctt_tmpdir(), "bin");
	ctt_mkdir_p(dir);
	char *copy = ctt_path(dir, "ctrun");
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"cp", ctt_ctrun_path(), copy, NULL});
	cr_assert_eq(r.status, 0, "cp ctrun: %s", r.err);
	ctt_result_free(&r);
	cr_assert_eq(chmod(copy, 0755), 0);
	cr_assert_eq(setenv("CTRUN", copy, 1), 0);
	free(dir);
	return copy;
}

static void install(const struct lc *t, const char *rel, const char *from)
{
	char *dest = lc_rootfs_path(t, rel);
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"cp", from, dest, NULL});
	cr_assert_eq(r.status, 0, "cp %s: %s", from, r.err);
	ctt_result_free(&r);
	free(dest);
}

/* The victim's script in t's rootfs. */
static void install_script(const struct lc *t)
{
	char *path = lc_rootfs_file(t, "victim.sh", SCRIPT);
	cr_assert_eq(chmod(path, 0755), 0);
	free(path);
}

/* A container of a's with /shared, the victim script and enosys_args's wrapper (NULL:
 * none). */
static void prepare(const struct attack *a, struct lc *t, const char **wrapper,
		    const char *const *enosys_args)
{
	lc_init(t);
	char *mountpoint = lc_rootfs_path(t, "shared");
	ctt_mkdir_p(mountpoint);
	free(mountpoint);
	lc_add_mount(t, "/shared", "bind", a->shared, "rbind,rw");
	install_script(t);
	lc_wrap_enosys(t, wrapper, enosys_args);
}

static void copy_and_hash(struct attack *a)
{
	a->copy = copy_ctrun();
	sha256_file(a->copy, a->digest);
}

/* The attacker's container, exe_attack installed, args its process (/shared and the
 * attacker's output made first). */
static void prepare_attacker(struct attack *a, const char *const *args,
			     const char *const *enosys_args)
{
	char *dir = ctt_tmpdir();
	a->shared = ctt_path(dir, "shared");
	ctt_mkdir_p(a->shared);
	/* for a prober that is not host root (a mapped root, another uid) */
	ctt_make_searchable(dir);
	cr_assert_eq(chmod(a->shared, 01777), 0);
	free(dir);
	a->out = ctt_path(ctt_tmpdir(), "attacker.out");
	prepare(a, &a->attacker, a->wrapper, enosys_args);
	install(&a->attacker, "bin/exe_attack", ctt_helper("exe_attack"));
	lc_set_args(&a->attacker, args);
}

/* Detached: no ctrun stays to execute the binary (which would keep it busy, ETXTBSY, where
 * no view is made). */
static void run_attacker(struct attack *a)
{
	lc_spawn(&a->attacker,
		 lc_ctrun_argv(&a->attacker,
			       (const char *const[]){"run", "--detach", "--bundle",
						     a->attacker.bundle, ATTACKER, NULL}),
		 a->out, -1);
	free(ctt_wait_content(a->out, "ready\n"));
}

/* The attacker's container runs exe_attack until a victim came and went. */
static void start_attacker(struct attack *a, const char *sock, const char *const *enosys_args)
{
	prepare_attacker(a, (const char *const[]){"exe_attack", FIFO, sock, NULL}, enosys_args);
	run_attacker(a);
}

/* The attacker's report line (malloc'd), once it is done. */
static char *report(const struct attack *a)
{
	char *out = ctt_wait_content(a->out, "done\n");
	char *line = strstr(out, "exe=");
	cr_assert_not_null(line, "the attacker reported nothing:\n%s", out);
	char *text = strndup(line, strcspn(line, "\n"));
	free(out);
	return text;
}

/* The kept view's path for the binary at path (malloc'd). */
static char *kept_view_of(const char *path)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	char *view;
	cr_assert_geq(asprintf(&view, CACHE_DIR "/exe-%llx-%llx", (unsigned long long)st.st_dev,
			       (unsigned long long)st.st_ino),
		      0);
	return view;
}

/* How many mounts this namespace has at path, and whether each is read-only. */
static int mounts_at(const char *path, bool *all_read_only)
{
	char *table = ctt_read_file("/proc/self/mountinfo"), *save = NULL;
	int n = 0;
	*all_read_only = true;
	for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char point[4096], opts[256];
		if (sscanf(line, "%*s %*s %*s %*s %4095s %255s", point, opts) != 2 ||
		    strcmp(point, path) != 0)
			continue;
		n++;
		*all_read_only &= strncmp(opts, "ro", 2) == 0 && (!opts[2] || opts[2] == ',');
	}
	free(table);
	return n;
}

static void assert_kept_view_mounted(const char *copy)
{
	char *view = kept_view_of(copy);
	bool read_only;
	cr_expect_eq(mounts_at(view, &read_only), 1, "mounts at %s", view);
	cr_expect(read_only, "the kept view %s is not read-only", view);
	free(view);
}

/* No write reached anything, the copy is intact, and the handle was exe_link (KEPT_VIEW:
 * the kept view of the copy, mounted once and read-only). */
static void expect_defeated(const struct attack *a, const char *exe_link)
{
	char *line = report(a);
	cr_expect_null(strstr(line, "write=ok"), "the attacker wrote: %s", line);
	char now[CT_SHA256_HEX_LEN + 1];
	sha256_file(a->copy, now);
	cr_expect_str_eq(now, a->digest, "the host's ctrun (%s) was changed: %s", a->copy, line);
	char *kept = exe_link ? NULL : kept_view_of(a->copy);
	char want[512];
	snprintf(want, sizeof(want), "exe=%s ", exe_link ? exe_link : kept);
	cr_expect(strncmp(line, want, strlen(want)) == 0, "the attacker's handle: %s, want %s",
		  line, want);
	if (kept)
		assert_kept_view_mounted(a->copy);
	free(kept);
	free(line);
}

static const char *const *victim_argv(enum how how)
{
	static const char *const direct[] = {"/proc/self/exe", VICTIM_ARGS, NULL};
	static const char *const scripted[] = {"/victim.sh", VICTIM_ARGS, NULL};
	return how == DIRECT ? direct : scripted;
}

/* `exec [flag] attacker VICTIM...`: the exec'd process is the victim. */
static void exec_victim(const struct attack *a, enum how how, const char *flag)
{
	const char *args[16] = {"exec"};
	size_t n = 1;
	if (flag)
		args[n++] = flag;
	args[n++] = ATTACKER;
	for (const char *const *v = victim_argv(how); *v; v++)
		args[n++] = *v;
	struct ctt_result r;
	lc_ctrunv(&r, &a->attacker, args);
	ctt_result_free(&r); /* `state x` fails: the victim's own status does not matter */
}

/* A container that joins the attacker's pid namespace, the victim as its init, by `run`
 * or by `create` and `start`. */
static void init_victim(const struct attack *a, enum how how, bool create_start,
			const char *const *enosys_args)
{
	struct lc v;
	const char *wrapper[LC_WRAPPER_MAX];
	prepare(a, &v, wrapper, enosys_args);
	char ns[96];
	snprintf(ns, sizeof(ns), "{\"type\":\"pid\",\"path\":\"/proc/%d/ns/pid\"}",
		 (int)lc_pid(&a->attacker, ATTACKER));
	lc_namespace_set(&v, "pid", ns);
	lc_set_args(&v, victim_argv(how));
	struct ctt_result r;
	if (create_start) {
		lc_ok(&v, "create", "--bundle", v.bundle, VICTIM);
		lc_ctrun(&r, &v, "start", VICTIM);
	} else {
		lc_ctrun(&r, &v, "run", "--bundle", v.bundle, VICTIM);
	}
	ctt_result_free(&r);
}

/* A container with a pid namespace of its own, the victim as its init (pid 1), by
 * `run --detach` or by `create` and `start`; `exec` of an accomplice into it that passes
 * the handle to the attacker, which outlives the container. */
static void own_init_victim(const struct attack *a, enum how how, bool create_start)
{
	struct lc v;
	const char *wrapper[LC_WRAPPER_MAX];
	prepare(a, &v, wrapper, NULL);
	install(&v, "bin/exe_attack", ctt_helper("exe_attack"));
	lc_set_args(&v, victim_argv(how));
	if (create_start) {
		lc_ok(&v, "create", "--bundle", v.bundle, VICTIM);
		lc_ok(&v, "start", VICTIM);
	} else {
		lc_ok(&v, "run", "--detach", "--bundle", v.bundle, VICTIM);
	}
	lc_ok(&v, "exec", VICTIM, "exe_attack", "--send", SOCK);
}

/* A cache directory of this test's own, in a mount namespace of the test process (the
 * ctruns it starts inherit it): an empty tmpfs, read-only when asked. */
static void private_cache(bool read_only)
{
	cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare: %s", strerror(errno));
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	unsigned long flags = MS_NOSUID | MS_NODEV | (read_only ? MS_RDONLY : 0);
	cr_assert_eq(mount("tmpfs", CACHE_DIR, "tmpfs", flags, "mode=0700"), 0,
		     "mount a tmpfs on " CACHE_DIR ": %s", strerror(errno));
}

/* Without the mount API (an old kernel, a seccomp profile, no CAP_SYS_ADMIN): the sealed
 * copy, which the attacker may open for writing but not write. */
#define NO_MOUNT_API "open_tree,open_tree_attr"
#define MEMFD_VIEW   "/memfd:ctrun (deleted)"

/* Whose ctrun the attacker goes for. */
enum victim {
	EXEC,	    /* a process `exec` starts in the attacker's container */
	OWN_INIT,   /* the init of a container of its own, sending the attack itself */
	JOINER_INIT /* the init of a container joining the attacker's pid namespace */
};

struct attack_case {
	const char *what;
	enum victim victim;
	enum how how;
	const char *flag;     /* EXEC: how `exec` runs the victim */
	bool create_start;    /* the inits: by create and start, not run */
	const char *enosys;   /* the syscalls ctrun runs without (enosys's argument); NULL: none */
	bool read_only_cache; /* no view can be kept */
	const char *view;     /* the attacker's handle; KEPT_VIEW: the kept view */
};

static const struct attack_case attacks[] = {
	{"exec of /proc/self/exe", EXEC, DIRECT, FOREGROUND},
	{"exec of a script interpreted by /proc/self/exe", EXEC, SCRIPTED, FOREGROUND},
	{"exec --detach of /proc/self/exe", EXEC, DIRECT, DETACHED},
	{"exec --detach of a script", EXEC, SCRIPTED, DETACHED},
	{"exec --tty of /proc/self/exe", EXEC, DIRECT, ON_A_TTY},
	{"init of /proc/self/exe by run", OWN_INIT, DIRECT},
	{"init script by run", OWN_INIT, SCRIPTED},
	{"init of /proc/self/exe by create and start", OWN_INIT, DIRECT, .create_start = true},
	{"init script by create and start", OWN_INIT, SCRIPTED, .create_start = true},
	{"init of a pid namespace joiner by run", JOINER_INIT, DIRECT},
	{"init script of a pid namespace joiner by run", JOINER_INIT, SCRIPTED},
	{"init of a pid namespace joiner by create and start", JOINER_INIT, DIRECT,
	 .create_start = true},
	{"init script of a pid namespace joiner by create and start", JOINER_INIT, SCRIPTED,
	 .create_start = true},
	/* before Linux 6.15 (no open_tree_attr) the bind is made in two calls, open_tree and
	 * mount_setattr: the same view */
	{"exec under the kept view made in two calls", EXEC, DIRECT, FOREGROUND,
	 .enosys = "open_tree_attr"},
	/* no view can be kept (a read-only cache directory): the view made for the command
	 * alone */
	{"exec under the detached view", EXEC, DIRECT, FOREGROUND, .read_only_cache = true,
	 .view = DETACHED_VIEW},
	{"init script under the detached view", JOINER_INIT, SCRIPTED, .create_start = true,
	 .read_only_cache = true, .view = DETACHED_VIEW},
	{"exec under the memfd fallback", EXEC, DIRECT, FOREGROUND, .enosys = NO_MOUNT_API,
	 .view = MEMFD_VIEW},
	{"init script under the memfd fallback", JOINER_INIT, SCRIPTED, .create_start = true,
	 .enosys = NO_MOUNT_API, .view = MEMFD_VIEW},
};

ParameterizedTestParameters(exe_escape, attack_on_the_ctrun_binary_fails)
{
	return ctt_rows(CTT_COUNT(attacks));
}

ParameterizedTest(size_t *i, exe_escape, attack_on_the_ctrun_binary_fails)
{
	const struct attack_case *c = &attacks[*i];
	cr_log_info("attack: %s", c->what);
	if (c->read_only_cache)
		private_cache(true);
	const char *const enosys_args[] = {c->enosys, NULL};
	const char *const *enosys = c->enosys ? enosys_args : NULL;
	struct attack a;
	copy_and_hash(&a);
	start_attacker(&a, c->victim == OWN_INIT ? SOCK : NULL, enosys);
	if (c->victim == EXEC)
		exec_victim(&a, c->how, c->flag);
	else if (c->victim == OWN_INIT)
		own_init_victim(&a, c->how, c->create_start);
	else
		init_victim(&a, c->how, c->create_start, enosys);
	expect_defeated(&a, c->view);
}

/* `ctrun exec` of a container that does not exist: it makes (or uses) the kept view first,
 * then fails. */
static pid_t start_view_user(const char *ctrun)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		dup2(null, 1);
		dup2(null, 2);
		execl(ctrun, ctrun, "--root", ctt_tmpdir(), "exec", "no-such-container", "true",
		      (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void wait_view_users(const pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		int status;
		cr_assert_eq(waitpid(pids[i], &status, 0), pids[i]);
		/* the container is unknown: a failure, not a crash, nor a command not run */
		cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
				  WEXITSTATUS(status) != 127,
			  "ctrun exec: status %#x", status);
	}
}

static void run_view_users(const char *ctrun, int n)
{
	pid_t pids[16];
	for (int i = 0; i < n; i++)
		pids[i] = start_view_user(ctrun);
	wait_view_users(pids, n);
}

/* How many of pids[0..n) /proc/locks shows blocked on a flock of the inode ino. */
static int flock_waiters(const pid_t *pids, int n, ino_t ino)
{
	char *table = ctt_read_file("/proc/locks"), *save = NULL;
	int waiting = 0;
	for (char *line = strtok_r(table, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *arrow = strstr(line, "-> FLOCK ");
		int pid;
		unsigned long long on;
		if (!arrow || sscanf(arrow, "-> FLOCK %*s %*s %d %*x:%*x:%llu", &pid, &on) != 2 ||
		    on != (unsigned long long)ino)
			continue;
		for (int i = 0; i < n; i++)
			waiting += pids[i] == pid;
	}
	free(table);
	return waiting;
}

/* Until all of pids[0..n) wait for the flock on ino; failing when one ends instead. */
static void wait_for_flock_waiters(const pid_t *pids, int n, ino_t ino)
{
	for (unsigned waited = 0; flock_waiters(pids, n, ino) < n; waited += 20) {
		for (int i = 0; i < n; i++) {
			siginfo_t info = {0};
			cr_assert_eq(
				waitid(P_PID, (id_t)pids[i], &info, WEXITED | WNOHANG | WNOWAIT),
				0);
			cr_assert_eq(info.si_pid, 0,
				     "ctrun %d ended without waiting for the cache directory's "
				     "lock: it ran while the lock was held",
				     pids[i]);
		}
		cr_assert_lt(waited, CTT_POLL_LIMIT_MS, "the commands never waited for the lock");
		ctt_sleep_ms(20);
	}
}

/* Commands that start at once make one view between them, not one each: the test holds
 * the cache directory's lock, which the maker takes, while they start; each must find no
 * view and wait for it. Let go, they make one between them, and later ones use it. */
Test(exe_escape, concurrent_commands_make_one_kept_view)
{
	private_cache(false);
	char *copy = copy_ctrun(), *view = kept_view_of(copy);
	int dir = open(CACHE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dir, 0, "open " CACHE_DIR ": %s", strerror(errno));
	struct stat st;
	cr_assert_eq(fstat(dir, &st), 0);
	cr_assert_eq(flock(dir, LOCK_EX), 0, "flock " CACHE_DIR ": %s", strerror(errno));
	pid_t pids[8];
	int n = sizeof(pids) / sizeof(pids[0]);
	for (int i = 0; i < n; i++)
		pids[i] = start_view_user(copy);
	wait_for_flock_waiters(pids, n, st.st_ino);
	bool read_only;
	cr_expect_eq(mounts_at(view, &read_only), 0, "a view was made under the lock");
	close(dir);
	wait_view_users(pids, n);
	assert_kept_view_mounted(copy);
	run_view_users(copy, 1);
	assert_kept_view_mounted(copy);
	free(view);
	free(copy);
}

/* A binary deleted since its view was kept (an upgrade replaced it) runs no later command:
 * the next view made drops its view and mount point. */
Test(exe_escape, a_deleted_binarys_kept_view_is_dropped)
{
	private_cache(false);
	char *built = strdup(ctt_ctrun_path());
	char *old = copy_ctrun(), *old_view = kept_view_of(old);
	run_view_users(old, 1);
	assert_kept_view_mounted(old);
	cr_assert_eq(unlink(old), 0);
	cr_assert_eq(setenv("CTRUN", built, 1), 0);
	char *new = copy_ctrun();
	run_view_users(new, 1);
	assert_kept_view_mounted(new);
	bool read_only;
	cr_expect_eq(mounts_at(old_view, &read_only), 0, "the deleted binary's view is mounted");
	cr_expect_neq(access(old_view, F_OK), 0, "the deleted binary's mount point is left");
	free(old_view);
	free(old);
	free(new);
	free(built);
}

/* A binary on a read-only mount of the host's is left as it is: the container cannot
 * change a mount of another namespace, so no view is made and the handle is the binary
 * itself, on which every write fails. */
Test(exe_escape, a_read_only_binary_is_run_as_it_is)
{
	cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare: %s", strerror(errno));
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	struct attack a;
	copy_and_hash(&a);
	char *dir = strdup(a.copy);
	*strrchr(dir, '/') = '\0';
	cr_assert_eq(mount(dir, dir, NULL, MS_BIND, NULL), 0, "bind %s: %s", dir, strerror(errno));
	cr_assert_eq(mount(NULL, dir, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL), 0);
	start_attacker(&a, NULL, NULL);
	exec_victim(&a, DIRECT, FOREGROUND);
	expect_defeated(&a, a.copy);
	lc_ok(&a.attacker, "delete", "--force", ATTACKER);
	cr_expect_eq(umount2(dir, MNT_DETACH), 0);
	free(dir);
}

/* ---- held at its execve: ctrun's process in the container, its fds all open ---- */

#define PID_FIFO "/shared/pid" /* where the prober takes the victim's pid from */
#define PROBE	 "exe_attack", "--probe", PID_FIFO
/* as a container's init, which must outlive the probe: its end would kill the victim */
#define PROBING_INIT "sh", "-c", "exe_attack --probe " PID_FIFO "; exec sleep 1000"
/* the victim's program, once let go: its output and status must come back */
#define VICTIM_PROGRAM "sh", "-c", "echo ran; exit 7"
#define VICTIM_STATUS  7

struct held_case {
	const char *what;
	enum victim victim;	/* EXEC, OWN_INIT or JOINER_INIT */
	bool no_new_privileges; /* the filter is loaded last with it, before the ids without */
	bool non_root;		/* every process runs as NON_ROOT: the victim changes its uid */
	bool userns;		/* the container has a user namespace of its own */
};

#define NON_ROOT    "{\"uid\": 1000, \"gid\": 1000}"
#define MAPPED_ROOT 100000

/* t's processes as c says, each execve handed to the agent at sock. */
static void configure_held(const struct lc *t, const struct held_case *c, const char *sock)
{
	char *quoted = ctt_json_quote(sock), json[1024];
	snprintf(json, sizeof(json),
		 "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"listenerPath\": %s, \"syscalls\": "
		 "[{\"names\": [\"execve\", \"execveat\"], \"action\": \"SCMP_ACT_NOTIFY\"}]}",
		 quoted);
	free(quoted);
	ctt_config_set(t->bundle, ".linux.seccomp", json);
	ctt_config_set(t->bundle, ".process.noNewPrivileges",
		       c->no_new_privileges ? "true" : "false");
	if (c->non_root)
		ctt_config_set(t->bundle, ".process.user", NON_ROOT);
	if (c->userns)
		lc_map_root(t, MAPPED_ROOT, 65536);
}

/* The agents: `passer` lets each execve run at once, `holder` keeps the victim's until
 * released; each takes one connection on sock, so the second starts once the first took
 * its own. */
struct held {
	struct attack a;
	char *sock, *victim_out, *holder_out;
	pid_t holder, passer, victim; /* victim: the ctrun whose process is held */
};

static pid_t start_agent(struct held *h, const struct lc *t, bool hold)
{
	char *dir = ctt_tmpdir(), *state = ctt_path(dir, "state.json"),
	     *out = ctt_path(dir, "agent.out");
	pid_t pid = lc_seccomp_listener(t, h->sock, state, out, "continue", hold);
	if (hold)
		h->holder_out = out;
	else
		free(out);
	free(state);
	free(dir);
	return pid;
}

static void held_init(struct held *h)
{
	copy_and_hash(&h->a);
	h->sock = ctt_path(ctt_tmpdir(), "agent.sock");
	h->victim_out = ctt_path(ctt_tmpdir(), "victim.out");
}

/* The victim's pid on the host, from the holder's "holding execve PID": held in execve,
 * still ctrun's image (the kept view of the copy). */
static pid_t await_held(const struct held *h)
{
	char *out = ctt_wait_content(h->holder_out, "holding execve");
	int pid = 0;
	const char *line = strstr(out, "holding execve ");
	cr_assert(line && sscanf(line, "holding execve %d", &pid) == 1, "%s", out);
	free(out);
	char exe[64], link[512] = "";
	snprintf(exe, sizeof(exe), "/proc/%d/exe", pid);
	ssize_t n = readlink(exe, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	char *view = kept_view_of(h->a.copy);
	cr_assert_str_eq(link, view, "the held process %d is not ctrun's", pid);
	free(view);
	lc_assert_fds_cloexec(pid, 3);
	return pid;
}

/* pid in its innermost pid namespace: the last of its NSpid. */
static int pid_inside(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	char *status = ctt_read_file(path);
	const char *ns = strstr(status, "\nNSpid:");
	cr_assert_not_null(ns, "%s has no NSpid", path);
	const char *last = ns + strcspn(ns + 1, "\n");
	while (last > ns && last[-1] != '\t' && last[-1] != ' ')
		last--;
	int inside = atoi(last);
	free(status);
	return inside;
}

/* The prober (waiting on PID_FIFO) is told the held victim's pid. */
static void tell_prober(const struct held *h, pid_t victim)
{
	char *fifo = ctt_path(h->a.shared, "pid");
	FILE *f = fopen(fifo, "w");
	cr_assert_not_null(f, "open %s: %s", fifo, strerror(errno));
	fprintf(f, "%d\n", pid_inside(victim));
	cr_assert_eq(fclose(f), 0);
	free(fifo);
}

/* The value of "name=" in a prober's line (malloc'd). */
static char *field(const char *line, const char *name)
{
	char key[32];
	snprintf(key, sizeof(key), " %s=", name);
	const char *at = strstr(line, key);
	cr_assert_not_null(at, "no %s in: %s", name, line);
	at += strlen(key);
	return strndup(at, strcspn(at, " \n"));
}

/* The prober's line for who (malloc'd). */
static char *probe_line(const char *out, const char *who)
{
	char start[16];
	snprintf(start, sizeof(start), "%s ", who);
	const char *line = strstr(out, start);
	cr_assert_not_null(line, "the prober reported nothing on the %s:\n%s", who, out);
	return strndup(line, strcspn(line, "\n"));
}

static void expect_field(const char *line, const char *name, const char *a, const char *b)
{
	char *v = field(line, name);
	cr_expect(strcmp(v, a) == 0 || (b && strcmp(v, b) == 0), "%s: want %s=%s%s%s", line, name,
		  a, b ? " or " : "", b ? b : "");
	free(v);
}

/* The probes reach the prober's own child (they are able to), nothing of the held victim:
 * its exe neither for writing nor O_PATH, none of its fds, environ, mem, ptrace. */
static void expect_out_of_reach(const struct held *h)
{
	char *out = ctt_wait_content(h->a.out, "done\n");
	char *control = probe_line(out, "control"), *victim = probe_line(out, "victim");
	cr_log_info("%s\n%s", control, victim);
	for (const char *const *f = LC_ARGV("exe_path", "environ", "mem", "ptrace"); *f; f++)
		expect_field(control, *f, "ok", NULL);
	char *fds = field(control, "fds"), *opened = field(control, "fd_opened");
	cr_expect(atoi(fds) > 0 && strcmp(fds, opened) == 0, "%s", control);
	free(fds);
	free(opened);
	for (const char *const *f = LC_ARGV("exe_write", "exe_path", "environ", "mem"); *f; f++)
		expect_field(victim, *f, "EACCES", "EPERM");
	expect_field(victim, "reopen", "-", NULL);
	expect_field(victim, "fd_opened", "0", NULL);
	expect_field(victim, "ptrace", "EPERM", NULL);
	char now[CT_SHA256_HEX_LEN + 1];
	sha256_file(h->a.copy, now);
	cr_expect_str_eq(now, h->a.digest, "the host's ctrun (%s) was changed", h->a.copy);
	free(control);
	free(victim);
	free(out);
}

/* Let go, the victim runs its program, whose output and status come back. */
static void release_victim(const struct held *h)
{
	cr_assert_eq(kill(h->holder, SIGUSR1), 0);
	cr_expect_eq(lc_wait(h->victim, 20000), VICTIM_STATUS, "%s", ctt_read_file(h->victim_out));
	char *out = ctt_read_file(h->victim_out);
	cr_expect(strstr(out, "ran\n"), "the victim's output: %s", out);
	free(out);
	char *agent = ctt_read_file(h->holder_out);
	cr_expect(strstr(agent, "answered execve"), "%s", agent);
	free(agent);
}

/* The init of a container that joins the attacker's pid namespace, t's configuration
 * but its own bundle (in *v). */
static void run_joiner(struct held *h, const struct held_case *c, struct lc *v)
{
	const char *wrapper[LC_WRAPPER_MAX];
	prepare(&h->a, v, wrapper, NULL);
	configure_held(v, c, h->sock);
	char ns[96];
	snprintf(ns, sizeof(ns), "{\"type\":\"pid\",\"path\":\"/proc/%d/ns/pid\"}",
		 (int)lc_pid(&h->a.attacker, ATTACKER));
	lc_namespace_set(v, "pid", ns);
	lc_set_args(v, LC_ARGV(VICTIM_PROGRAM));
	h->victim = lc_spawn(v, lc_ctrun_argv(v, LC_ARGV("run", "--bundle", v->bundle, VICTIM)),
			     h->victim_out, -1);
}

/* An `exec`'d process, or a joiner's init, held; the prober is the attacker's init. */
static void held_by_the_attackers_init(struct held *h, const struct held_case *c)
{
	struct lc *t = &h->a.attacker, joiner;
	prepare_attacker(&h->a, LC_ARGV(PROBING_INIT), NULL);
	configure_held(t, c, h->sock);
	h->passer = start_agent(h, t, false);
	run_attacker(&h->a);
	lc_wait_listener_taken(h->sock);
	h->holder = start_agent(h, t, true);
	if (c->victim == JOINER_INIT)
		run_joiner(h, c, &joiner);
	else
		h->victim = lc_spawn(t, lc_ctrun_argv(t, LC_ARGV("exec", ATTACKER, VICTIM_PROGRAM)),
				     h->victim_out, -1);
	tell_prober(h, await_held(h));
	expect_out_of_reach(h);
	release_victim(h);
	lc_ok(t, "delete", "--force", ATTACKER);
}

/* A container's init held; the prober is `exec`'d into that container. */
static void held_init_process(struct held *h, const struct held_case *c)
{
	struct lc *t = &h->a.attacker;
	prepare_attacker(&h->a, LC_ARGV(VICTIM_PROGRAM), NULL);
	configure_held(t, c, h->sock);
	h->holder = start_agent(h, t, true);
	h->victim = lc_spawn(t, lc_ctrun_argv(t, LC_ARGV("run", "--bundle", t->bundle, VICTIM)),
			     h->victim_out, -1);
	pid_t victim = await_held(h);
	lc_wait_listener_taken(h->sock);
	h->passer = start_agent(h, t, false);
	pid_t prober = lc_spawn(t, lc_ctrun_argv(t, LC_ARGV("exec", VICTIM, PROBE)), h->a.out, -1);
	free(ctt_wait_content(h->a.out, "ready\n"));
	tell_prober(h, victim);
	expect_out_of_reach(h);
	cr_expect_eq(lc_wait(prober, 20000), 0, "%s", ctt_read_file(h->a.out));
	release_victim(h);
}

static const struct held_case helds[] = {
	{"exec", EXEC, true},
	{"exec without no_new_privs", EXEC, false},
	{"exec as a user other than root", EXEC, true, .non_root = true},
	{"exec into a user namespace", EXEC, true, .userns = true},
	{"init", OWN_INIT, true},
	{"init without no_new_privs", OWN_INIT, false},
	{"init as a user other than root", OWN_INIT, false, .non_root = true},
	{"init in a user namespace", OWN_INIT, true, .userns = true},
	{"init of a pid namespace joiner", JOINER_INIT, true},
};

ParameterizedTestParameters(exe_escape, held_at_its_execve_out_of_reach_of_the_container)
{
	return ctt_rows(CTT_COUNT(helds));
}

/* A seccomp agent (SCMP_ACT_NOTIFY on execve) holds the process ctrun sends into the
 * container in its last execve: ctrun's code, every fd still open. Another process of the
 * container (same uid, the capabilities of `ctrun spec`) reaches none of it; let go, the
 * process runs and its status comes back. */
ParameterizedTest(size_t *i, exe_escape, held_at_its_execve_out_of_reach_of_the_container)
{
	const struct held_case *c = &helds[*i];
	cr_log_info("held: %s", c->what);
	struct held h = {0};
	held_init(&h);
	if (c->victim == OWN_INIT)
		held_init_process(&h, c);
	else
		held_by_the_attackers_init(&h, c);
	cr_expect_eq(lc_wait(h.holder, 20000), 0, "the holding agent");
	cr_expect_eq(lc_wait(h.passer, 20000), 0, "the passing agent");
	free(h.holder_out);
	free(h.victim_out);
	free(h.sock);
}
