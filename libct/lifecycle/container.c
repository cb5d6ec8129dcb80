#include "libct/lifecycle/container.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/kernel.h"
#include "libct/base/pathbuf.h"
#include "libct/base/syscalls.h"
#include "libct/cgroup/zero_unset.h"
#include "libct/fs/canonical_path.h"
#include "libct/child/lsm.h"
#include "libct/child/terminal.h"
#include "libct/lifecycle/bundle.h"
#include "libct/lifecycle/cache_dir.h"
#include "libct/lifecycle/container_cgroup.h"
#include "libct/lifecycle/log.h"
#include "libct/parent/spawn.h"
#include "libct/parent/spawn_plan.h"
#include "libct/parent/spawned.h"
#include "libct/plan/sync.h"
#include "libct/plan/sync_phase.h"
#include "libct/state/shared_root.h"

int ct_write_pid_file(const char *path, pid_t pid, struct ct_error *err)
{
	char tmp[PATH_MAX], buf[32];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, getpid());
	int len = snprintf(buf, sizeof(buf), "%d", pid);
	_cleanup_close_ int fd =
		openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return ct_error_sys(err, errno, "write pid file \"%s\"", tmp);
	if (write(fd, buf, (size_t)len) != len || rename(tmp, path) < 0) {
		int saved = errno;
		unlink(tmp);
		return ct_error_sys(err, saved, "write pid file \"%s\"", path);
	}
	return 0;
}

static int load_bundle(const struct ct_create_args *a, char *bundle, char *rootfs,
		       struct oci_config **config, struct ct_error *err)
{
	if (!ct_canonical_path(a->bundle ? a->bundle : ".", bundle))
		return ct_error_sys(err, errno, "bundle \"%s\"", a->bundle ? a->bundle : ".");
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/config.json", bundle);
	struct oci_config_opts opts = {.on_unknown = ct_bundle_log_unknown};
	if (oci_config_load(path, &opts, config, err) < 0 ||
	    ct_bundle_rootfs(bundle, *config, rootfs, err) < 0)
		return -1;
	ct_cgroup_forget_unset(&(*config)->linux_.resources);
	if ((*config)->process.terminal && !a->console_socket && !a->relay_terminal)
		return ct_error_plain(err, EINVAL,
				      "config.json: .process.terminal is true: "
				      "--console-socket is required");
	/* As runc: a caller passing a socket waits for a master that would never come. */
	if (!(*config)->process.terminal && a->console_socket)
		return ct_error_plain(err, EINVAL,
				      "--console-socket \"%s\" given, but config.json: "
				      ".process.terminal is false",
				      a->console_socket);
	return 0;
}

static int copy_annotations(const oci_string_map *from, oci_string_map *to)
{
	if (!from->len)
		return 0;
	to->items = calloc(from->len, sizeof(*to->items));
	if (!to->items)
		return -1;
	for (size_t i = 0; i < from->len; i++) {
		to->items[i].key = strdup(from->items[i].key);
		to->items[i].value = strdup(from->items[i].value);
		to->len++;
		if (!to->items[i].key || !to->items[i].value)
			return -1;
	}
	return 0;
}

/* The state before the spawn: hooks read it (libct/plan/plan.h). The poststart and poststop
 * hooks move from the config into it, to be kept in state.json (libct/state/state.h). */
static int prepare_state(struct ct_container *c, const struct ct_create_args *a, const char *bundle,
			 const char *rootfs, struct oci_config *config, struct ct_error *err)
{
	struct ct_state *st = &c->state;
	struct timespec now;
	char created[CT_TIMESTAMP_MAX];
	clock_gettime(CLOCK_REALTIME, &now);
	ct_format_timestamp(&now, created);
	st->id = strdup(a->id);
	st->bundle = strdup(bundle);
	st->rootfs = strdup(rootfs);
	st->created = strdup(created);
	st->owner = geteuid();
	st->hooks.poststart = config->hooks.poststart;
	st->hooks.poststop = config->hooks.poststop;
	config->hooks.poststart = (oci_hook_list){NULL, 0};
	config->hooks.poststop = (oci_hook_list){NULL, 0};
	if (!st->id || !st->bundle || !st->rootfs || !st->created ||
	    copy_annotations(&config->annotations, &st->annotations) < 0)
		return ct_error_sys(err, ENOMEM, "record state");
	return 0;
}

struct record_args {
	struct ct_container *c;
	enum ct_start_mode start;
};

/* state.json, written while the init sets itself up (readers wait for create's flock).
 * run starts at once (CT_START_SYNC): its state.json is written once, as started, since
 * each write makes a file (on an ext4 root without journal, the bench's, inode allocation
 * scans every recently freed inode: most of a run's file-system time). */
static int record_state(void *arg, const struct ct_spawned *s, struct ct_error *err)
{
	const struct record_args *a = arg;
	struct ct_state *st = &a->c->state;
	st->started = a->start == CT_START_SYNC;
	st->pid = s->pid;
	if (ct_proc_start_time(st->pid, &st->pid_start_time, err) < 0)
		return -1;
	if (a->c->cgroup && ct_cgroup_to_state(a->c->cgroup, st, err) < 0)
		return -1;
	return ct_state_write(&a->c->dir, st, err);
}

static void log_warning(const char *msg)
{
	ct_log(CT_LOG_WARNING, "%s", msg);
}

static void log_notice(const char *msg)
{
	ct_log(CT_LOG_DEBUG, "%s", msg);
}

struct loaded_bundle {
	char bundle[PATH_MAX], rootfs[PATH_MAX];
	struct oci_config *config;
};

/* Before anything of the planned cgroup is made, the directories create is to make are
 * recorded: a create killed before state.json leaves them to whoever removes its directory
 * (dead_reservation). One small file, no fsync: cgroups do not outlive the machine, and a
 * killed process's writes are not lost. */
static int record_pending(struct ct_container *c, struct ct_cgroup *planned, struct ct_error *err)
{
	if (!planned)
		return 0;
	const struct ct_state *st = &c->state;
	struct ct_state pending = {.id = st->id,
				   .bundle = st->bundle,
				   .rootfs = st->rootfs,
				   .created = st->created,
				   .owner = st->owner};
	int rc = ct_cgroup_unmade_to_state(planned, &pending, err);
	if (rc == 0 && (pending.cgroup_paths.len || pending.systemd_unit))
		rc = ct_state_write_pending(&c->dir, &pending, err);
	pending.id = pending.bundle = pending.rootfs = pending.created = NULL; /* borrowed */
	ct_state_free(&pending);
	return rc;
}

/* The driver knows more of what is the container's (systemd took its unit's start): the
 * record says it at once. */
static int record_pending_again(void *arg, struct ct_cgroup *cg, struct ct_error *err)
{
	return record_pending(arg, cg, err);
}

/* The container's cgroup planned, recorded and made (or its early part), then the init
 * spawned, ct_spawn making the rest. */
static int make_cgroup_and_spawn(const struct ct_lifecycle_opts *lc, const char *id,
				 const struct ct_init_maker *maker, struct ct_spawn_opts *so,
				 struct ct_container *c, struct ct_error *err)
{
	struct ct_cgroup *planned;
	const struct oci_resources *rest;
	if (ct_container_cgroup_plan(lc, id, so->config, &planned, err) < 0)
		return -1;
	if (record_pending(c, planned, err) < 0) {
		ct_cgroup_free(planned);
		return -1;
	}
	if (planned) {
		planned->record = record_pending_again;
		planned->record_arg = c;
	}
	if (ct_container_cgroup_make(id, so->config, planned, &c->cgroup, &rest, err) < 0)
		return -1;
	so->cgroup = c->cgroup;
	so->cgroup_rest = rest;
	return maker ? maker->make(maker->arg, so, &c->proc, err) : ct_spawn(so, &c->proc, err);
}

/* For the debug log: how the init was made and what its set-up said. */
static void log_spawned(const char *id, const struct ct_spawned *p)
{
	struct ct_shown_id shown = ct_shown_id(id);
	ct_log(CT_LOG_DEBUG, "container \"%s\": init %d spawned with %s", shown.s, p->pid,
	       p->method);
	if (p->born_in_cgroup)
		ct_log(CT_LOG_DEBUG,
		       "container \"%s\": init born in its cgroup (CLONE_INTO_CGROUP)", shown.s);
	if (p->cgroup_after_clone)
		ct_log(CT_LOG_DEBUG,
		       "container \"%s\": cgroup's other v1 hierarchies made after the clone, "
		       "while the init made its network namespace",
		       shown.s);
	if (p->note[0])
		ct_log(CT_LOG_DEBUG, "container \"%s\": %s", shown.s, p->note);
	if (p->start_sent)
		ct_log(CT_LOG_DEBUG, "container \"%s\": START sent with the set-up", shown.s);
}

/* In a shared mount namespace the init made its mounts in a bind of the rootfs there, which
 * delete detaches (libct/state/shared_root.h). */
static int record_shared_root(struct ct_container *c, const struct oci_config *config,
			      struct ct_error *err)
{
	if (c->proc.shared_root < 0)
		return 0;
	int rc = ct_shared_root_record(&c->dir, c->proc.shared_root, ct_shared_root_joined(config),
				       err);
	ct_close_now(&c->proc.shared_root);
	return rc;
}

static int spawn_and_record(const struct ct_lifecycle_opts *lc, const struct ct_create_args *a,
			    struct loaded_bundle *b, struct ct_container *c, struct ct_error *err)
{
	const char *bundle = b->bundle, *rootfs = b->rootfs;
	if (prepare_state(c, a, bundle, rootfs, b->config, err) < 0)
		return -1;
	const struct oci_config *config = b->config;
	const struct ct_seccomp_cache cache = {ct_cache_dir(), lc->version};
	struct record_args record = {c, a->start};
	struct ct_spawn_opts so = {
		.config = config,
		.bundle = bundle,
		.rootfs = rootfs,
		.id = a->id,
		.state_dirfd = c->dir.dirfd,
		.state = &c->state,
		.start = a->start,
		.start_early = !a->pid_file && !a->console_socket,
		.no_pivot = a->no_pivot,
		.no_new_keyring = a->no_new_keyring,
		.verify_mounts = !lc->no_verify_mounts,
		.warn = log_warning,
		.notice = log_notice,
		.log_steps = ct_log_debug_enabled(),
		.preserve_fds = a->preserve_fds + ct_listen_fds(),
		.child_sigmask = a->child_sigmask,
		.runtime_fds = {c->rootfd, c->dir.dirfd, c->dir.lockfd},
		.n_runtime_fds = 3,
		.seccomp_cache = cache.dir ? &cache : NULL,
		.while_setting_up = record_state,
		.while_arg = &record,
	};
	c->state.no_device_filter = ct_container_lacks_device_filter(lc, config);
	if (config->linux_.mount_label && *config->linux_.mount_label && !ct_selinux_enabled())
		ct_log(CT_LOG_DEBUG,
		       "container \"%s\": linux.mountLabel ignored: SELinux is not enabled",
		       ct_shown_id(a->id).s);
	if (make_cgroup_and_spawn(lc, a->id, a->maker, &so, c, err) < 0 ||
	    record_shared_root(c, config, err) < 0)
		return -1;
	log_spawned(a->id, &c->proc);
	if (c->proc.pty_master >= 0 && a->console_socket) {
		if (ct_console_send_master(a->console_socket, c->proc.pty_master, err) < 0)
			return -1;
		ct_close_now(&c->proc.pty_master); /* the receiver's now: nothing to relay */
	}
	if (a->pid_file && ct_write_pid_file(a->pid_file, c->proc.pid, err) < 0)
		return -1;
	c->status = CT_STATUS_CREATED;
	/* once it is made, so that a create that fails still says one line */
	if (!c->cgroup && lc->cgroup_manager != CT_CGROUP_DISABLED && geteuid() != 0)
		ct_log(CT_LOG_WARNING,
		       "container \"%s\" runs without a cgroup: cgroups are not delegated to this "
		       "user",
		       ct_shown_id(a->id).s);
	return 0;
}

static void container_init(struct ct_container *c)
{
	*c = (struct ct_container){.rootfd = -1,
				   .dir = CT_CONTAINER_DIR_INIT,
				   .proc = {.pid = -1,
					    .pidfd = -1,
					    .pty_master = -1,
					    .sync_fd = -1,
					    .shared_root = -1}};
}

static int open_in(int rootfd, const char *id, bool exclusive, struct ct_container *c,
		   struct ct_error *err);

/* The id's directory, reserved. One that is there already may be what a create killed
 * before recording its container left: open_in removes it with what it made, and the id
 * is reserved again; else the container exists. */
static int reserve(int rootfd, const char *id, struct ct_container_dir *dir, struct ct_error *err)
{
	if (ct_state_reserve(rootfd, id, dir, err) == 0)
		return 0;
	if (err->errnum != EEXIST)
		return -1;
	struct ct_container old;
	struct ct_error why = {0};
	container_init(&old);
	int found = open_in(rootfd, id, true, &old, &why);
	ct_container_close(&old);
	if (found == 0)
		return -1;
	if (why.errnum != ENOENT) {
		*err = why;
		return -1;
	}
	return ct_state_reserve(rootfd, id, dir, err);
}

/* A cgroup a failed create could not remove (a unit systemd would not stop) stays named by
 * its pending record, without state.json: the directory is then what a killed create
 * leaves, which delete --force and a create of the id clean up (dead_reservation). */
static void keep_for_delete(struct ct_container *c, const struct ct_error *why)
{
	struct ct_shown_id id = ct_shown_id(c->dir.id);
	unlinkat(c->dir.dirfd, CT_STATE_FILE, 0);
	ct_log(CT_LOG_WARNING,
	       "container \"%s\": its cgroup is left (%s): `delete --force %s` removes it", id.s,
	       why->msg, id.s);
	ct_container_dir_close(&c->dir);
}

/* What a create that failed made goes: the init, its cgroup, its directory. */
static void undo_create(struct ct_container *c, const char *rootfs)
{
	struct ct_error ignored, why;
	bool spawned = c->proc.pid > 0;
	ct_spawned_kill(&c->proc);
	bool cgroup_left = c->cgroup && ct_cgroup_destroy(c->cgroup, &why) < 0;
	ct_shared_root_release(&c->dir, rootfs, &ignored);
	if (cgroup_left)
		keep_for_delete(c, &why);
	else
		ct_state_remove(c->rootfd, &c->dir, &ignored);
	/* the container existed: its deletion ends with poststop (runtime.md#lifecycle) */
	if (spawned)
		ct_container_poststop(c);
}

int ct_container_create(const struct ct_lifecycle_opts *lc, const struct ct_create_args *a,
			struct ct_container *c, struct ct_error *err)
{
	container_init(c);
	struct loaded_bundle b = {.config = NULL};
	if (ct_state_check_id(a->id, err) < 0 ||
	    load_bundle(a, b.bundle, b.rootfs, &b.config, err) < 0)
		goto fail;
	c->rootfd = ct_state_root_open(lc->root, true, err);
	if (c->rootfd < 0 || reserve(c->rootfd, a->id, &c->dir, err) < 0)
		goto fail;
	if (spawn_and_record(lc, a, &b, c, err) == 0) {
		oci_config_free(b.config);
		return 0;
	}
	undo_create(c, b.rootfs);
fail:
	oci_config_free(b.config);
	ct_state_free(&c->state);
	ct_cgroup_free(c->cgroup);
	c->cgroup = NULL;
	return -1;
}

/* A container made by create has an exec fifo until start removes it, which is how start
 * records that it ran (as runc tells created from running); state.json, written once at
 * create, keeps "started": false. fifo_path is relative to atfd. */
static bool start_consumed_fifo(int atfd, const char *fifo_path)
{
	struct stat st;
	return fstatat(atfd, fifo_path, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT;
}

/* The one rule for every command that shows a status (state, list, start, kill, ...): the
 * process first (pid and start time), the fifo only for a live one not known as started,
 * the freezer only for a live one. Sets st->started when the fifo says so. */
static int container_status(int atfd, const char *fifo_path, struct ct_state *st,
			    enum ct_status *out, struct ct_error *err)
{
	enum ct_status status;
	if (ct_status_read(st->pid, st->pid_start_time, st->started, &status, err) < 0)
		return ct_error_prefix(err, "the status of its init");
	if (status == CT_STATUS_CREATED && start_consumed_fifo(atfd, fifo_path)) {
		st->started = true;
		status = CT_STATUS_RUNNING;
	}
	if (status != CT_STATUS_STOPPED && ct_container_cgroup_frozen(st))
		status = CT_STATUS_PAUSED;
	*out = status;
	return 0;
}

/* What a create killed before state.json made (or a failed one could not remove): the
 * cgroup its pending record names (processes left in it are its init's), none when it
 * had none. */
static int remove_pending(struct ct_container *c, struct ct_error *err)
{
	struct ct_state pending;
	if (ct_state_read_pending(&c->dir, &pending, err) < 0)
		return err->errnum == ENOENT ? 0 : -1;
	int rc = ct_container_cgroup_destroy(&pending, err);
	ct_state_free(&pending);
	return rc;
}

/* The lock is ours and there is no state.json: create holds the lock from its reservation
 * until state.json is written, so the create that reserved id was killed before recording
 * a container (its init died with it: libct/child/init.c), or failed and could not remove
 * its cgroup (keep_for_delete). None exists; an exclusive opener
 * (delete, start, create of the id, ...) removes what that create made and the
 * reservation, so that the id may be created again. */
static int dead_reservation(int rootfd, const char *id, bool exclusive, struct ct_container *c,
			    struct ct_error *err)
{
	struct ct_error ignored;
	if (exclusive && remove_pending(c, err) < 0)
		return ct_error_prefix(err,
				       "container \"%s\": remove what its unfinished create left",
				       ct_shown_id(id).s);
	if (exclusive)
		ct_state_remove(rootfd, &c->dir, &ignored);
	return ct_error_plain(err, ENOENT,
			      "container \"%s\" does not exist: its create failed or was killed "
			      "before recording it%s",
			      ct_shown_id(id).s, exclusive ? " (its directory is removed)" : "");
}

/* Opens, reads and derives the status of id in rootfd (owned by the caller). */
static int open_in(int rootfd, const char *id, bool exclusive, struct ct_container *c,
		   struct ct_error *err)
{
	if (ct_state_open(rootfd, id, exclusive, &c->dir, err) < 0)
		return -1;
	if (ct_state_read(&c->dir, &c->state, err) < 0)
		return err->errnum == ENOENT ? dead_reservation(rootfd, id, exclusive, c, err) : -1;
	return container_status(c->dir.dirfd, CT_EXEC_FIFO_FILE, &c->state, &c->status, err);
}

int ct_container_open(const struct ct_lifecycle_opts *lc, const char *id, bool exclusive,
		      struct ct_container *c, struct ct_error *err)
{
	container_init(c);
	if (ct_state_check_id(id, err) < 0)
		return -1;
	c->rootfd = ct_state_root_open(lc->root, false, err);
	if (c->rootfd < 0) {
		if (err->errnum == ENOENT)
			ct_error_plain(err, ENOENT, "container \"%s\" does not exist",
				       ct_shown_id(id).s);
		return -1;
	}
	return open_in(c->rootfd, id, exclusive, c, err);
}

int ct_container_peek(int rootfd, const char *id, struct ct_state *st, enum ct_status *status,
		      struct ct_error *err)
{
	if (ct_state_read_unlocked(rootfd, id, st, err) < 0)
		return -1;
	char fifo_path[CT_ID_MAX + sizeof("/" CT_EXEC_FIFO_FILE)];
	ct_path_join(fifo_path, sizeof(fifo_path), id, CT_EXEC_FIFO_FILE); /* fits: a checked id */
	return container_status(rootfd, fifo_path, st, status, err);
}

int ct_container_attach(struct ct_container *c, struct ct_error *err)
{
	if (c->proc.pid > 0)
		return 0;
	int fd = ct_pidfd_open(c->state.pid, 0);
	int saved = errno;
	/* pidfd_open missing: go on without a pidfd, every signal is a checked kill() */
	if (fd < 0 && ct_kernel_has(CT_KF_PIDFD_OPEN) && saved == ESRCH)
		return ct_error_sys(err, saved, "container not running"); /* runc's words */
	if (fd < 0 && ct_kernel_has(CT_KF_PIDFD_OPEN)) /* EMFILE, ENOMEM: not a sign it went */
		return ct_error_sys(err, saved, "open a pidfd for its init (pid %d)",
				    (int)c->state.pid);
	/* The pidfd pins the process: if its start time still matches, it is ours. */
	if (ct_status_derive(c->state.pid, c->state.pid_start_time, true) == CT_STATUS_STOPPED) {
		ct_close_now(&fd);
		return ct_error_plain(err, ESRCH, "container not running");
	}
	c->proc.pidfd = fd;
	c->proc.pid = c->state.pid;
	return 0;
}

int ct_container_signal(struct ct_container *c, int sig, struct ct_error *err)
{
	if (c->proc.pidfd >= 0) {
		if (ct_pidfd_send_signal(c->proc.pidfd, sig, NULL, 0) == 0)
			return 0;
		if (ct_kernel_has(CT_KF_PIDFD_SEND_SIGNAL))
			return ct_error_sys(err, errno, "send signal %d", sig);
	}
	return ct_proc_kill_checked(c->state.pid, c->state.pid_start_time, sig, err);
}

/* Without a pidfd to poll, how often the init is looked at while waiting for it. */
#define NO_PIDFD_POLL_MS 20

static int poll_timeout(const struct ct_container *c)
{
	return c->proc.pidfd >= 0 ? -1 : NO_PIDFD_POLL_MS;
}

/* The init is gone: its pidfd turned readable, or (without one) its start time says so. */
static bool init_gone(const struct ct_container *c, const struct pollfd *pidfd_poll)
{
	if (c->proc.pidfd >= 0)
		return pidfd_poll->revents != 0;
	return ct_status_derive(c->state.pid, c->state.pid_start_time, true) == CT_STATUS_STOPPED;
}

int ct_container_wait_exit(struct ct_container *c, struct ct_error *err)
{
	struct pollfd p = {.fd = c->proc.pidfd, .events = POLLIN};
	do {
		if (poll(&p, 1, poll_timeout(c)) < 0 && errno != EINTR)
			return ct_error_sys(err, errno, "wait for the container to exit");
	} while (!init_gone(c, &p));
	return 0;
}

/* Waits until the fifo has a message or EOF (the init's end closed), noticing a dead init
 * on its pidfd (or, without one, by looking at it now and then) instead of blocking. */
static int await_fifo(struct ct_container *c, int fifo, struct ct_sync_msg *msg,
		      struct ct_error *err)
{
	struct pollfd fds[2] = {{.fd = fifo, .events = POLLIN},
				{.fd = c->proc.pidfd, .events = POLLIN}};
	for (;;) {
		if (poll(fds, 2, poll_timeout(c)) < 0) {
			if (errno == EINTR)
				continue;
			return ct_error_sys(err, errno, "wait for the container init");
		}
		if (fds[0].revents)
			return ct_sync_fifo_read(fifo, msg, err);
		if (init_gone(c, &fds[1])) {
			msg->type = CT_SYNC_EOF;
			return 0;
		}
	}
}

/* Opening the read end lets the init's blocking open of the write end return; it runs the
 * startContainer hooks and says STARTED (or why not), and its execve closes its end
 * (libct/plan/sync.h). */
int ct_container_start_fifo(struct ct_container *c, struct ct_error *err)
{
	if (ct_container_attach(c, err) < 0)
		return -1;
	_cleanup_close_ int fifo =
		openat(c->dir.dirfd, CT_EXEC_FIFO_FILE, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fifo < 0)
		return ct_error_sys(err, errno, "container \"%s\": open exec fifo",
				    ct_shown_id(c->state.id).s);
	struct ct_sync_msg msg;
	struct ct_sync_phase_state phase;
	ct_sync_phase_enter(&phase, CT_SYNC_PHASE_START);
	if (await_fifo(c, fifo, &msg, err) < 0 || ct_sync_phase_accept(&phase, msg.type, err) < 0)
		return -1;
	if (msg.type == CT_SYNC_ERROR) {
		c->start_refused = true;
		return ct_error_plain(err, msg.error.errnum, "%s", msg.error.message.text);
	}
	if (msg.type != CT_SYNC_STARTED)
		return ct_error_plain(err, ECHILD, "container \"%s\": init exited before start",
				      ct_shown_id(c->state.id).s);
	/* poststart runs after the execve: EOF, the fifo closed on exec (or the init died) */
	if (c->state.hooks.poststart.len &&
	    (await_fifo(c, fifo, &msg, err) < 0 || ct_sync_phase_accept(&phase, msg.type, err) < 0))
		return -1;
	/* the fifo's absence says started (ct_container_open): no state.json to rewrite */
	if (unlinkat(c->dir.dirfd, CT_EXEC_FIFO_FILE, 0) < 0 && errno != ENOENT)
		return ct_error_sys(err, errno, "container \"%s\": remove exec fifo",
				    ct_shown_id(c->state.id).s);
	c->state.started = true;
	c->status = CT_STATUS_RUNNING;
	return 0;
}

int ct_container_destroy(struct ct_container *c, struct ct_error *err)
{
	if (ct_container_cgroup_destroy(&c->state, err) < 0 ||
	    ct_shared_root_release(&c->dir, c->state.rootfs, err) < 0)
		return -1;
	return ct_state_remove(c->rootfd, &c->dir, err);
}

void ct_container_close(struct ct_container *c)
{
	ct_spawned_close(&c->proc);
	ct_cgroup_free(c->cgroup);
	c->cgroup = NULL;
	ct_container_dir_close(&c->dir);
	ct_close_now(&c->rootfd);
	ct_state_free(&c->state);
}
