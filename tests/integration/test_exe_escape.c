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
 * must report no write. The ways of protection are each tested: the read-only bind view, the sealed
 * memfd copy (open_tree made ENOSYS), and none where the binary's mount is read-only already. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/sha256.h"
#include "tests/integration/lifecycle_util.h"

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
/* The binary's path in the view: the root of a bind mount of the file alone, unmounted. */
#define BIND_VIEW "/"
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
	char *path = lc_rootfs_path(t, "victim.sh");
	ctt_write_file(path, SCRIPT);
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

/* The attacker's container runs exe_attack until a victim came and went. Detached: no
 * ctrun stays to execute the binary (which would keep it busy, ETXTBSY, where no view is
 * made). */
static void start_attacker(struct attack *a, const char *sock, const char *const *enosys_args)
{
	a->shared = ctt_path(ctt_tmpdir(), "shared");
	ctt_mkdir_p(a->shared);
	a->out = ctt_path(ctt_tmpdir(), "attacker.out");
	prepare(a, &a->attacker, a->wrapper, enosys_args);
	install(&a->attacker, "bin/exe_attack", ctt_helper("exe_attack"));
	lc_set_args(&a->attacker, (const char *const[]){"exe_attack", FIFO, sock, NULL});
	lc_spawn(&a->attacker,
		 lc_ctrun_argv(&a->attacker,
			       (const char *const[]){"run", "--detach", "--bundle",
						     a->attacker.bundle, ATTACKER, NULL}),
		 a->out, -1);
	free(lc_wait_content(a->out, "ready\n"));
}

/* The attacker's report line (malloc'd), once it is done. */
static char *report(const struct attack *a)
{
	char *out = lc_wait_content(a->out, "done\n");
	char *line = strstr(out, "exe=");
	cr_assert_not_null(line, "the attacker reported nothing:\n%s", out);
	char *text = strndup(line, strcspn(line, "\n"));
	free(out);
	return text;
}

/* No write reached anything, the copy is intact, and the handle was exe_link. */
static void expect_defeated(const struct attack *a, const char *exe_link)
{
	char *line = report(a);
	cr_expect_null(strstr(line, "write=ok"), "the attacker wrote: %s", line);
	char now[CT_SHA256_HEX_LEN + 1];
	sha256_file(a->copy, now);
	cr_expect_str_eq(now, a->digest, "the host's ctrun (%s) was changed: %s", a->copy, line);
	char want[512];
	snprintf(want, sizeof(want), "exe=%s ", exe_link);
	cr_expect(strncmp(line, want, strlen(want)) == 0, "the attacker's handle: %s, want %s",
		  line, want);
	/* the view is detached: no mount table shows a bind of the binary */
	char *mounts = ctt_read_file("/proc/self/mountinfo");
	cr_expect_null(strstr(mounts, a->copy), "the binary is in the mount table:\n%s", mounts);
	free(mounts);
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

static void assert_own_init_attack_fails(enum how how, bool create_start)
{
	struct attack a;
	copy_and_hash(&a);
	start_attacker(&a, SOCK, NULL);
	own_init_victim(&a, how, create_start);
	expect_defeated(&a, BIND_VIEW);
}

/* The attack on an exec'd victim, under the wrapper of enosys_args (NULL: none); the
 * attacker's handle must be view. */
static void assert_exec_attack_fails(enum how how, const char *flag, const char *const *enosys_args,
				     const char *view)
{
	struct attack a;
	copy_and_hash(&a);
	start_attacker(&a, NULL, enosys_args);
	exec_victim(&a, how, flag);
	expect_defeated(&a, view);
}

/* The same on the init of a pid-namespace joiner. */
static void assert_init_attack_fails(enum how how, bool create_start,
				     const char *const *enosys_args, const char *view)
{
	struct attack a;
	copy_and_hash(&a);
	start_attacker(&a, NULL, enosys_args);
	init_victim(&a, how, create_start, enosys_args);
	expect_defeated(&a, view);
}

Test(exe_escape, exec_of_proc_self_exe)
{
	assert_exec_attack_fails(DIRECT, FOREGROUND, NULL, BIND_VIEW);
}

Test(exe_escape, exec_of_a_script_interpreted_by_proc_self_exe)
{
	assert_exec_attack_fails(SCRIPTED, FOREGROUND, NULL, BIND_VIEW);
}

Test(exe_escape, exec_detach_of_proc_self_exe)
{
	assert_exec_attack_fails(DIRECT, DETACHED, NULL, BIND_VIEW);
}

Test(exe_escape, exec_detach_of_a_script)
{
	assert_exec_attack_fails(SCRIPTED, DETACHED, NULL, BIND_VIEW);
}

Test(exe_escape, exec_tty_of_proc_self_exe)
{
	assert_exec_attack_fails(DIRECT, ON_A_TTY, NULL, BIND_VIEW);
}

Test(exe_escape, init_of_proc_self_exe_by_run)
{
	assert_own_init_attack_fails(DIRECT, false);
}

Test(exe_escape, init_script_by_run)
{
	assert_own_init_attack_fails(SCRIPTED, false);
}

Test(exe_escape, init_of_proc_self_exe_by_create_start)
{
	assert_own_init_attack_fails(DIRECT, true);
}

Test(exe_escape, init_script_by_create_start)
{
	assert_own_init_attack_fails(SCRIPTED, true);
}

Test(exe_escape, init_of_a_pid_namespace_joiner_by_run)
{
	assert_init_attack_fails(DIRECT, false, NULL, BIND_VIEW);
}

Test(exe_escape, init_script_of_a_pid_namespace_joiner_by_run)
{
	assert_init_attack_fails(SCRIPTED, false, NULL, BIND_VIEW);
}

Test(exe_escape, init_of_a_pid_namespace_joiner_by_create_start)
{
	assert_init_attack_fails(DIRECT, true, NULL, BIND_VIEW);
}

Test(exe_escape, init_script_of_a_pid_namespace_joiner_by_create_start)
{
	assert_init_attack_fails(SCRIPTED, true, NULL, BIND_VIEW);
}

/* Before Linux 6.15 (no open_tree_attr) the view is made in two calls, open_tree and
 * mount_setattr: the same view. */
Test(exe_escape, exec_under_the_bind_view_made_in_two_calls)
{
	assert_exec_attack_fails(DIRECT, FOREGROUND,
				 ((const char *const[]){"open_tree_attr", NULL}), BIND_VIEW);
}

/* Without the mount API (an old kernel, a seccomp profile, no CAP_SYS_ADMIN): the sealed
 * copy, which the attacker may open for writing but not write. */
#define NO_MOUNT_API ((const char *const[]){"open_tree,open_tree_attr", NULL})
#define MEMFD_VIEW   "/memfd:ctrun (deleted)"

Test(exe_escape, exec_under_the_memfd_fallback)
{
	assert_exec_attack_fails(DIRECT, FOREGROUND, NO_MOUNT_API, MEMFD_VIEW);
}

Test(exe_escape, init_script_under_the_memfd_fallback)
{
	assert_init_attack_fails(SCRIPTED, true, NO_MOUNT_API, MEMFD_VIEW);
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
