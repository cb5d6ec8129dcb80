/* The user process's attributes, shared by the container init and exec (process.h). */
#include "libct/child/process.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/clone.h"
#include "libct/base/syscalls.h"
#include "libct/cgroup/cgroup.h"
#include "libct/child/home_env.h"
#include "libct/child/lsm.h"
#include "libct/child/terminal.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/mountpoint.h"
#include "libct/fs/procfs.h"
#include "libct/fs/safefs.h"
#include "libct/plan/mount_expect.h"
#include "libct/plan/sync.h"
#include "oci/capabilities.h"

/* The keyring's user may search it (KEY_USR_SEARCH), as runc makes it: an exec'd process
 * of the container's user, which does not possess the keyring yet, then finds it by name and
 * joins it instead of making an empty one of its own. KEYCTL_DESCRIBE gives
 * "type;uid;gid;perm;name". */
static int make_searchable(long serial, struct ct_error *err)
{
	char desc[256];
	long n = syscall(SYS_keyctl, 6 /* KEYCTL_DESCRIBE */, serial, desc, sizeof(desc) - 1, 0);
	if (n < 0)
		return ct_error_sys(err, errno, "describe the session keyring");
	desc[n < (long)sizeof(desc) ? n : (long)sizeof(desc) - 1] = '\0';
	unsigned long perm;
	if (sscanf(desc, "%*[^;];%*[^;];%*[^;];%lx;", &perm) != 1)
		return ct_error_plain(err, EPROTO, "session keyring described as \"%s\"", desc);
	if (syscall(SYS_keyctl, 5 /* KEYCTL_SETPERM */, serial, perm | 0x080000, 0, 0) < 0)
		return ct_error_sys(err, errno, "make the session keyring searchable");
	return 0;
}

static int join_keyring(const struct ct_plan_process *proc, struct ct_error *err)
{
	if (!proc->new_keyring)
		return 0;
	/* KEYCTL_JOIN_SESSION_KEYRING = 1; kernels without keys (ENOSYS) or a profile that
	 * forbids keyctl are not an error, as with runc. */
	long serial = syscall(SYS_keyctl, 1, proc->keyring_name, 0, 0, 0);
	if (serial < 0 && errno != ENOSYS && errno != EPERM)
		return ct_error_sys(err, errno, "join session keyring \"%s\"", proc->keyring_name);
	return serial < 0 ? 0 : make_searchable(serial, err);
}

static int write_oom_score_adj(const struct oci_process *p, const struct ct_procfs *procfs,
			       struct ct_error *err)
{
	if (!p->has_oom_score_adj)
		return 0;
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", p->oom_score_adj);
	if (ct_procfs_write(procfs, "/proc/self/oom_score_adj", buf, err) < 0)
		return ct_error_prefix(err, "set oom_score_adj %d", p->oom_score_adj);
	return 0;
}

static int apply_rlimits(const struct ct_plan_process *proc, struct ct_error *err)
{
	for (size_t i = 0; i < proc->n_rlimits; i++) {
		const struct ct_planned_rlimit *r = &proc->rlimits[i];
		if (setrlimit(r->resource, &r->limit) < 0)
			return ct_error_sys(err, errno, "set %s", proc->p->rlimits.items[i].type);
	}
	return 0;
}

/* The name of capability number cap, for a message ("CAP_SYS_ADMIN"; a number the table
 * does not have stays a number, in buf). */
static const char *capability_name(int cap, char *buf, size_t size)
{
	for (int i = 0; oci_capability_names[i]; i++)
		if (i == cap)
			return oci_capability_names[i];
	snprintf(buf, size, "capability %d", cap);
	return buf;
}

/* Only what the process starts with and must lose (the plan knows both): no syscall for a
 * capability that is not there. */
static int drop_bounding_set(const struct ct_plan_process *proc, struct ct_error *err)
{
	for (int cap = 0; cap <= proc->cap_last; cap++) {
		if (!(proc->cap_drop & (1ULL << cap)))
			continue;
		char buf[32];
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			return ct_error_sys(err, errno, "drop %s from the bounding set",
					    capability_name(cap, buf, sizeof(buf)));
	}
	return 0;
}

/* With setgroups denied (a gid map of the caller's own gid), the groups stay as they are:
 * the plan refused additional gids there. */
static int switch_user(const struct oci_user *u, bool setgroups_denied, struct ct_error *err)
{
	if (!setgroups_denied &&
	    ct_setgroups_1thread(u->additional_gids.len, u->additional_gids.items) < 0)
		return ct_error_sys(err, errno, "set additional groups");
	if (ct_setresgid_1thread(u->gid, u->gid, u->gid) < 0)
		return ct_error_sys(err, errno, "set gid %u", u->gid);
	if (ct_setresuid_1thread(u->uid, u->uid, u->uid) < 0)
		return ct_error_sys(err, errno, "set uid %u", u->uid);
	if (ct_stay_undumpable() < 0)
		return ct_error_sys(err, errno, "stay not dumpable after setting uid %u", u->uid);
	if (u->has_umask)
		umask(u->umask);
	return 0;
}

/* capset(2) itself: libcap's cap_set_proc() asks the kernel's version with capget first. */
static int apply_capabilities(const struct ct_plan_process *proc, struct ct_error *err)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		data[i].effective = (uint32_t)(proc->cap_effective >> (32 * i));
		data[i].permitted = (uint32_t)(proc->cap_permitted >> (32 * i));
		data[i].inheritable = (uint32_t)(proc->cap_inheritable >> (32 * i));
	}
	if (syscall(SYS_capset, &hdr, data) < 0)
		return ct_error_sys(err, errno, "set capabilities");
	for (int cap = 0; cap <= proc->cap_last; cap++)
		if ((proc->cap_ambient & (1ULL << cap)) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0)
			return ct_error_sys(err, errno, "raise ambient capability %d", cap);
	return 0;
}

/* Without process.capabilities the process keeps the runtime's sets, but for the
 * inheritable one (and so the ambient one): a caller's would let a program with inheritable
 * file capabilities gain them (CVE-2022-29162); empty, as runc leaves it. */
static int clear_inheritable(struct ct_error *err)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	if (syscall(SYS_capget, &hdr, data) < 0)
		return ct_error_sys(err, errno, "get capabilities");
	bool any = false;
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		any = any || data[i].inheritable;
		data[i].inheritable = 0;
	}
	if (any && syscall(SYS_capset, &hdr, data) < 0)
		return ct_error_sys(err, errno, "clear the inheritable capabilities");
	return 0;
}

/* Capabilities around the uid switch: bounding first (needs CAP_SETPCAP), keep the
 * permitted set across setuid, then set the configured sets. */
static int apply_identity(const struct ct_plan_process *proc, bool setgroups_denied,
			  struct ct_error *err)
{
	const struct oci_process *p = proc->p;
	/* the permitted set is cleared only when no uid stays 0 (capabilities(7)) */
	bool keep = p->user.uid != 0;
	if (proc->set_caps && drop_bounding_set(proc, err) < 0)
		return -1;
	if (keep && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return ct_error_sys(err, errno, "keep capabilities across setuid");
	if (switch_user(&p->user, setgroups_denied, err) < 0)
		return -1;
	if (keep && prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return ct_error_sys(err, errno, "reset keep-capabilities");
	if (proc->set_caps ? apply_capabilities(proc, err) < 0 : clear_inheritable(err) < 0)
		return -1;
	if (p->no_new_privileges && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return ct_error_sys(err, errno, "set no_new_privs");
	return 0;
}

/* An image's own /dev (no tmpfs over it) may hold a /dev/console that is a symlink: to a
 * /proc file, or into a volume whose mounts propagate to the host, where the bind would
 * land (CVE-2025-52565). The pty goes only on a file or device at that very path, /dev
 * reached through no symlink either (checked first, so that a symlink refused after is
 * /dev/console's own); a missing /dev/console is made. */
static int open_console_mountpoint(int root, struct ct_error *err)
{
	_cleanup_close_ int dev = ct_root_open_exact(root, "/dev");
	if (dev < 0)
		return ct_error_sys(err, errno, "open \"/dev\" through no symlink");
	struct ct_mountpoints mp;
	ct_mountpoints_init(&mp, root);
	int fd = ct_mountpoint_open_exact(&mp, "/dev/console", CT_MAKE_FILE);
	if (fd < 0 && (errno == ELOOP || errno == EISDIR || errno == EINVAL))
		return ct_error_plain(
			err, EPERM,
			"the image's \"/dev/console\" is %s: the terminal goes only on "
			"a file or a device at that very path",
			errno == ELOOP ? "a symlink" : "neither a file nor a device");
	if (fd < 0)
		return ct_error_sys(err, errno, "create \"/dev/console\"");
	return fd;
}

/* /dev/console is the container's terminal (config-linux.md#default-devices). */
static int bind_console(int slave, uint64_t *mounted_id, struct ct_error *err)
{
	_cleanup_close_ int root = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct ct_mount_flags bind = {.bind = true};
	struct ct_mount_request rq = {
		.source = "the pty slave", .source_fd = slave, .flags = &bind, .file = true};
	if (root < 0)
		return ct_error_sys(err, errno, "open /");
	_cleanup_close_ int target = open_console_mountpoint(root, err);
	if (target < 0 || ct_mount_at(root, "/dev/console", target, &rq, mounted_id, NULL, err) < 0)
		return ct_error_prefix(err, "bind the terminal on /dev/console");
	return 0;
}

/* The slave is opened from the master (no path lookup in the container) before the master
 * leaves, so the terminal exists whatever the receiver does with its copy. The bind on
 * /dev/console records its mount in console_id (NULL: no check). */
static int setup_terminal(const struct ct_plan_process *proc, uint64_t *console_id, int sync_fd,
			  struct ct_error *err)
{
	const struct oci_process *p = proc->p;
	/* Without a terminal the process still leads a session of its own, as runc's does:
	 * CRIU dumps no process whose session leader is outside the container. */
	if (!p->terminal)
		return setsid() < 0 && getsid(0) != getpid() ? ct_error_sys(err, errno, "setsid")
							     : 0;
	_cleanup_close_ int master = -1;
	char slave_name[PATH_MAX];
	if (ct_pty_open(&master, slave_name, sizeof(slave_name), err) < 0)
		return -1;
	int slave = -1;
	int rc = -1;
	if (p->has_console_size && ct_pty_set_size(master, (unsigned short)p->console_size.height,
						   (unsigned short)p->console_size.width, err) < 0)
		goto out;
	slave = ct_pty_open_slave(master, slave_name, err);
	if (slave < 0 || (proc->console_is_terminal && bind_console(slave, console_id, err) < 0) ||
	    ct_sync_send_pty_master(sync_fd, master, err) < 0)
		goto out;
	rc = ct_pty_make_controlling_fd(slave, err);
	slave = -1; /* now fds 0-2 */
out:
	ct_close_now(&slave);
	return rc;
}

/* In runc's (Go's) words, which Podman looks for to tell 127 from 126. */
static int exec_error(struct ct_error *err, int errnum, const char *name)
{
	const char *why = errnum == ENOENT   ? "no such file or directory"
			  : errnum == EACCES ? "permission denied"
					     : strerror(errnum);
	return ct_error_plain(err, errnum, "exec \"%s\": %s", name, why);
}

/* 0 when path is executable, else why not as an errno. A directory is EACCES, as runc and
 * crun refuse it: access(X_OK) grants a directory's search bit, and the execve's EACCES
 * after start would leave the client a container that ran. The $PATH search takes only a
 * regular file (regular_only), as execvp passes over the rest. */
static int executable_errno(const char *path, bool regular_only)
{
	struct stat st;
	if (access(path, X_OK) < 0 || stat(path, &st) < 0)
		return errno;
	if (S_ISDIR(st.st_mode) || (regular_only && !S_ISREG(st.st_mode)))
		return EACCES;
	return 0;
}

/* Finds process.args[0] as execvp would, in the container, so a missing binary is an
 * error of create rather than of start. Returns a path in buf. */
static int resolve_executable(const struct ct_plan_process *proc, char *buf, size_t size,
			      struct ct_error *err)
{
	const char *name = proc->p->args.items[0];
	if (strchr(name, '/')) {
		int errnum = executable_errno(name, false);
		if (errnum)
			return exec_error(err, errnum, name);
		snprintf(buf, size, "%s", name);
		return 0;
	}
	const char *dir = proc->path_env;
	while (dir) {
		const char *end = strchr(dir, ':');
		size_t len = end ? (size_t)(end - dir) : strlen(dir);
		snprintf(buf, size, "%.*s/%s", (int)len, len ? dir : ".", name);
		if (executable_errno(buf, true) == 0)
			return 0;
		dir = end ? end + 1 : NULL;
	}
	return ct_error_plain(err, ENOENT, "exec \"%s\": executable file not found in $PATH", name);
}

/* The program into the page cache before READY, while on cgroup v1 the init is still in the
 * runtime's memory cgroup (it joins the container's once set up): faulted in from a cold
 * cache after the join, the program's pages and their readahead are charged to a container
 * with a small limit, which the OOM killer then ends, run after run (/bin/true under
 * 224 KiB). Only for a memory limit that joins late; on v2 the init is charged from its
 * birth, where a read of the whole file would only cost the container more. */
#define EXEC_READAHEAD_MAX (8u << 20)

static void read_ahead_executable(const struct oci_resources *r, struct ct_cgroup *cg,
				  const char *exe)
{
	if (!r->has_memory || !r->memory.has_limit || r->memory.limit <= 0 || !cg ||
	    !ct_cgroup_late_key(cg))
		return;
	_cleanup_close_ int fd = openat(AT_FDCWD, exe, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		readahead(fd, 0,
			  (size_t)st.st_size < EXEC_READAHEAD_MAX ? (size_t)st.st_size
								  : EXEC_READAHEAD_MAX);
}

/* cwd is resolved in the container's root like every rootfs path: "..", a symlink to a
 * host path or a magic link such as /proc/self/fd/N (an inherited host directory) cannot
 * leave it (CVE-2024-21626). */
static int enter_cwd(const struct oci_process *p, struct ct_error *err)
{
	if (strcmp(p->cwd, "/") == 0) /* the root itself: nothing to resolve */
		return chdir("/") < 0 ? ct_error_sys(err, errno, "chdir to cwd \"/\"") : 0;
	_cleanup_close_ int root = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return ct_error_sys(err, errno, "open /");
	_cleanup_close_ int fd = ct_root_open(root, p->cwd, false);
	if (fd < 0 || fchdir(fd) < 0)
		return ct_error_sys(err, errno, "chdir to cwd \"%s\"", p->cwd);
	return 0;
}

/* Without close_range(CLOSE_RANGE_CLOEXEC) (before 5.11): every open fd from `from` on,
 * as /proc/self/fd lists them, gets FD_CLOEXEC. */
static int cloexec_from_listing(int from, struct ct_error *err)
{
	_cleanup_closedir_ DIR *d = opendir("/proc/self/fd");
	if (!d)
		return ct_error_sys(err, errno, "list /proc/self/fd");
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (fd >= from && fd != dirfd(d) && fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 &&
		    errno != EBADF)
			return ct_error_sys(err, errno, "mark fd %d close-on-exec", fd);
	}
	return 0;
}

/* fds 3 .. 3+preserve-1 survive the exec, everything else is close-on-exec. In that range
 * an fd of ctrun's own is close-on-exec already (one its caller passed came through an
 * execve, so it is not) and stays so: only the caller's fds are passed on. */
static int prepare_fds(int preserve_fds, struct ct_error *err)
{
	int keep = 3 + preserve_fds;
	/* CLOSE_RANGE_CLOEXEC (4): the inherited fds the caller did not ask to pass on */
	if (syscall(SYS_close_range, keep, ~0U, 4) == 0)
		return 0;
	if (errno != ENOSYS && errno != EINVAL && errno != EPERM)
		return ct_error_sys(err, errno, "mark fds close-on-exec");
	return cloexec_from_listing(keep, err);
}

/* Handlers go at execve by themselves; an ignored signal stays ignored: only those (as the
 * parent saw them, libct/base/selfstatus.h) are set back to the default. The bare syscall: musl's
 * sigaction() refuses the signals it reserves (32-34), which the caller may have ignored. */
static void reset_signals(uint64_t ignored, const sigset_t *mask)
{
	/* the kernel's struct sigaction, all zero: SIG_DFL is 0, no flags, an empty mask, so
	 * whatever the architecture's order of its fields (mips puts flags first, arm64 has no
	 * restorer), zeros are right; 4 words cover every layout */
	static const uint64_t dfl[4];
	for (int sig = 1; sig <= 64; sig++)
		if (ignored & (1ULL << (sig - 1)))
			syscall(SYS_rt_sigaction, sig, dfl, NULL, sizeof(uint64_t));
	sigprocmask(SIG_SETMASK, mask, NULL);
}

/* Loads the filter when this is its point (libct/plan/plan.h); a notify fd goes to the parent,
 * which passes it on to the agent: the container keeps no copy that could answer for it. */
static int load_seccomp_at(const struct ct_plan_process *proc, enum ct_seccomp_point point,
			   int sync_fd, struct ct_error *err)
{
	if (!proc->seccomp.insns || proc->seccomp_point != point)
		return 0;
	_cleanup_close_ int listener = -1;
	if (ct_seccomp_load(&proc->seccomp, &listener, err) < 0)
		return -1;
	if (listener < 0)
		return 0;
	return ct_sync_send_seccomp_fd(sync_fd, listener, err);
}

/* The rows: each hands its step the part of the plan (or two) the step works on; those
 * that take ctx make or use what ctx carries. */
static int keyring_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return join_keyring(&ctx->plan->process, err);
}

static int oom_score_adj_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	if (ctx->plan->process.oom_score_adj_by_parent)
		return 0;
	return write_oom_score_adj(ctx->plan->process.p, &ctx->plan->procfs, err);
}

static int rlimits_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return apply_rlimits(&ctx->plan->process, err);
}

static int scheduler_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return ct_sched_apply(&ctx->plan->process.sched, err);
}

static int terminal_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct ct_init_plan *plan = ctx->plan;
	uint64_t *console_id = ct_expect_id(&plan->verify, plan->verify.expect_console);
	return setup_terminal(&plan->process, console_id, plan->sync.fd, err);
}

/* first of the late rows: as root, before a label or filter could refuse the read */
static int home_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return ct_home_env_apply(&ctx->plan->process, err);
}

static int lsm_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	const struct oci_process *p = ctx->plan->process.p;
	return ct_lsm_apply(&ctx->plan->procfs, p->apparmor_profile, p->selinux_label, err);
}

static int seccomp_before_identity_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return load_seccomp_at(&ctx->plan->process, CT_SECCOMP_BEFORE_IDENTITY, ctx->plan->sync.fd,
			       err);
}

static int identity_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return apply_identity(&ctx->plan->process, ctx->plan->ns.setgroups_denied, err);
}

static int cwd_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return enter_cwd(ctx->plan->process.p, err);
}

/* A failure here is the command's own (126/127), not the set-up's. */
static int executable_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	struct ct_init_plan *plan = ctx->plan;
	if (resolve_executable(&plan->process, ctx->exe, sizeof(ctx->exe), err) < 0) {
		ctx->exec_failed = true;
		return -1;
	}
	read_ahead_executable(&plan->config->linux_.resources, plan->cgroup.cg, ctx->exe);
	return 0;
}

/* the set-up's memory stays charged outside; before prepare_fds closes the fd */
static int memory_late_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return ct_cgroup_self_join(&ctx->plan->cgroup.join_late, err);
}

static int fds_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return prepare_fds(ctx->plan->process.preserve_fds, err);
}

static int personality_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return ct_personality_apply(&ctx->plan->process.sched, err);
}

static int seccomp_before_ready_row(struct ct_step_ctx *ctx, struct ct_error *err)
{
	return load_seccomp_at(&ctx->plan->process, CT_SECCOMP_BEFORE_READY, ctx->plan->sync.fd,
			       err);
}

const struct ct_step ct_process_keyring = {"keyring", keyring_row};

static const struct ct_step *const early_rows[] = {
	&(const struct ct_step){"oom-score-adj", oom_score_adj_row},
	&(const struct ct_step){"rlimits", rlimits_row},
	&(const struct ct_step){"scheduler", scheduler_row},
	&(const struct ct_step){"terminal", terminal_row},
};
const struct ct_step ct_process_early = CT_STEP_GROUP("process-early", early_rows);

static const struct ct_step *const late_rows[] = {
	&(const struct ct_step){"home", home_row},
	&(const struct ct_step){"lsm-label", lsm_row},
	&(const struct ct_step){"seccomp-before-identity", seccomp_before_identity_row},
	&(const struct ct_step){"identity", identity_row},
	&(const struct ct_step){"enter-cwd", cwd_row},
	&(const struct ct_step){"executable", executable_row},
	&(const struct ct_step){"memory-late", memory_late_row},
	&(const struct ct_step){"fds", fds_row},
	&(const struct ct_step){"personality", personality_row},
	&(const struct ct_step){"seccomp-before-ready", seccomp_before_ready_row},
};
const struct ct_step ct_process_late = CT_STEP_GROUP("process-late", late_rows);

int ct_process_exec(const struct ct_plan_process *proc, int sync_fd, const char *exe,
		    struct ct_error *err)
{
	reset_signals(proc->sig_reset, &proc->sigmask);
	if (load_seccomp_at(proc, CT_SECCOMP_BEFORE_EXEC, sync_fd, err) < 0)
		return -1;
	extern char **environ;
	environ = proc->envp;
	execv(exe, proc->argv);
	int saved = errno;
	exec_error(err, saved, exe);
	return ct_process_exec_status(saved);
}

int ct_process_exec_status(int errnum)
{
	return errnum == ENOENT ? 127 : 126;
}

bool ct_process_writes_proc(const struct oci_process *p)
{
	return p->has_oom_score_adj || (p->apparmor_profile && *p->apparmor_profile) ||
	       (p->selinux_label && *p->selinux_label);
}
