/* The typed channel between `ctrun create` (parent) and the container init (child), a
 * SOCK_SEQPACKET socketpair made before the clone: one record per message. Each message's
 * direction, fds and payload are declared in one table, and the parent refuses a message
 * its phase does not take, or one that comes twice (libct/plan/sync_phase.h). The core
 * exchange; rows in brackets happen only when the config asks for them, and where the
 * placement moves a step (libct/parent/placement.c) it says so there:
 *
 *   parent (ctrun create)                          child (container init, libct/child/init.c)
 *   make the cgroup; socketpair
 *   clone3 (into the cgroup2 directory) -------->  waits until it is in its cgroup
 *   put the init in its other cgroups
 *   CGROUP_READY (+ v1 `tasks` fds) ------------>  joins the v1 hierarchies itself
 *  [write uid_map, gid_map
 *   USERNS_READY ------------------------------->  setresgid/setresuid 0: root inside]
 *                                                  join namespaces, mounts, devices
 *  [    <------------------- CREATE_HOOKS
 *   run prestart, createRuntime
 *   HOOKS_DONE --------------------------------->  createContainer hooks]
 *                                                  pivot_root, process attributes
 *  [    <------------------- PTY_MASTER (+fd)      process.terminal]
 *  [    <------------------- SECCOMP_FD (+fd)      SCMP_ACT_NOTIFY: for listenerPath]
 *  [    <------------------- ROOT_BIND (+fd)       a shared mount namespace]
 *       <------------------- READY {note}          set-up done
 *   (create:) CREATED -------------------------->  blocks on the exec fifo until
 *   pid file, exit                                 `ctrun start`; EOF instead: exits
 *   (run:) START ------------------------------->  startContainer hooks
 *       <------------------- STARTED
 *       <------------------- EOF                   execve: the close-on-exec socket
 *   poststart hooks                                closes, so EOF means it has run
 *
 *   any step failing:  <----- ERROR {errno, "init step mounts: ..."} ; _exit(1)
 *   child dying without a word: recv returns EOF -> its pidfd says how.
 *
 *   `ctrun start` (create's init, CT_START_FIFO) has the same last steps over the exec
 *   fifo: its open for reading is START, then STARTED or ERROR as one whole ct_sync_msg
 *   (atomic: smaller than PIPE_BUF), then EOF at the execve (ct_sync_fifo_write/_read).
 *
 *   A joined user namespace, or a new one with other namespaces joined: a joiner (fork)
 *   joins them (the user namespace first) and clones the init as ctrun's child
 *   (CLONE_PARENT), so that the init's new namespaces belong to the right user namespace:
 *   fork ------------> joiner: setns(...), clone3 --> init: waits
 *        <------------ INIT_PIDFD (+pidfd) {pid, clone call}; joiner exits
 *   reap the joiner, write the maps of a new user namespace
 *   USERNS_READY ------------------------------->  setresgid/setresuid 0, the rest above
 *
 *   A peer that went with a message of ours unread (START sent ahead of READY) makes the
 *   first receive report ECONNRESET, once (libct/plan/sync.c).
 */
#ifndef CT_SYNC_H
#define CT_SYNC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"

enum ct_sync_type {
	CT_SYNC_EOF = 0, /* the child closed its end (died) */
	CT_SYNC_READY = 1,
	CT_SYNC_ERROR = 2,
	CT_SYNC_PTY_MASTER = 3,
	CT_SYNC_START = 4,	   /* parent -> child, `run` only */
	CT_SYNC_SECCOMP_FD = 5,	   /* the seccomp listener fd, for the agent at listenerPath */
	CT_SYNC_USERNS_READY = 6,  /* parent -> child: maps written, or the init's pidfd in hand */
	CT_SYNC_INIT_PIDFD = 7,	   /* joiner -> parent: the init it cloned */
	CT_SYNC_EXEC_ERROR = 8,	   /* exec: the command is missing or cannot be exec'd */
	CT_SYNC_CREATE_HOOKS = 9,  /* init -> parent: run prestart and createRuntime now */
	CT_SYNC_HOOKS_DONE = 10,   /* parent -> init: they passed, go on */
	CT_SYNC_STARTED = 11,	   /* init -> start/run: startContainer passed, exec next */
	CT_SYNC_CGROUP_READY = 12, /* parent -> child: the init is in its cgroup */
	CT_SYNC_CREATED = 13,	   /* parent -> init (create): done with it, it may wait */
	CT_SYNC_ROOT_BIND = 14,	   /* init -> parent: the rootfs's bind in a shared mount ns */
};

/* INIT_PIDFD's payload (with the pidfd): the init the joiner cloned, and how. */
struct ct_sync_init_pidfd {
	int32_t pid;
	char method[32]; /* "clone3", NUL-terminated */
};

/* One record: the type, then the payload its row declares (libct/plan/sync_phase.c). */
struct ct_sync_msg {
	uint32_t type;
	int32_t errnum;
	union {
		char text[CT_ERROR_MSG_MAX]; /* READY's note, ERROR's message */
		struct ct_sync_init_pidfd init_pidfd;
	};
};

/* Creates the pair: fds[0] for the parent, fds[1] for the child (both close-on-exec). */
int ct_sync_pair(int fds[2], struct ct_error *err);

int ct_sync_send(int sock, const struct ct_sync_msg *msg, struct ct_error *err);
/* note: a line for the runtime's debug log (what the set-up found), or NULL. */
int ct_sync_send_ready(int sock, const char *note, struct ct_error *err);
/* Init -> parent: an O_PATH fd of the root of the rootfs's bind (libct/state/shared_root.h). */
int ct_sync_send_root_bind(int sock, int root, struct ct_error *err);
int ct_sync_send_error(int sock, const struct ct_error *cause);
/* ERROR, or EXEC_ERROR when the command itself could not be run (exit status 126/127). */
int ct_sync_send_error_typed(int sock, uint32_t type, const struct ct_error *cause);
int ct_sync_send_pty_master(int sock, int master, struct ct_error *err);
int ct_sync_send_seccomp_fd(int sock, int listener, struct ct_error *err);

/* Parent -> child: the child's user namespace is ready (libct/parent/userns.h). */
int ct_sync_send_userns_ready(int sock, struct ct_error *err);
/* Parent -> child: the init is in its cgroup (libct/cgroup/cgroup.h). */
int ct_sync_send_cgroup_ready(int sock, struct ct_error *err);
/* The same with the `tasks` files of the v1 directories made after the clone, for the init
 * to join them itself (at most CT_FDPASS_MAX). */
int ct_sync_send_cgroup_ready_fds(int sock, const int *fds, size_t n, struct ct_error *err);
/* Joiner -> parent: the init's pidfd, its pid and the call that made it ("clone3"). */
int ct_sync_send_init_pidfd(int sock, int pidfd, pid_t pid, const char *method,
			    struct ct_error *err);
/* Init -> parent: time for the prestart and createRuntime hooks (libct/child/init_hooks.c). */
int ct_sync_send_create_hooks(int sock, struct ct_error *err);
/* Parent -> init: they all passed. */
int ct_sync_send_hooks_done(int sock, struct ct_error *err);
/* Parent -> init (create, after READY): every cgroup joined; the init now outlives create. */
int ct_sync_send_created(int sock, struct ct_error *err);
/* Init -> run: started (the startContainer hooks passed), the execve comes next. */
int ct_sync_send_started(int sock, struct ct_error *err);

/* The exec fifo as a channel (a stream, not records): one whole message per write. */
int ct_sync_fifo_write(int fd, const struct ct_sync_msg *msg, struct ct_error *err);
/* Reads a message from a readable fifo: type CT_SYNC_EOF when the writer closed it. */
int ct_sync_fifo_read(int fd, struct ct_sync_msg *msg, struct ct_error *err);

/* Child: receives one message, which must be of that type (any fd passed is closed); any
 * other, or EOF, fails with ECANCELED and "runtime went away before <what>". */
int ct_sync_expect(int sock, uint32_t type, const char *what, struct ct_error *err);

/* ct_sync_expect for a message that carries up to max fds: fds[0..*n) get them. */
int ct_sync_expect_fds(int sock, uint32_t type, const char *what, int *fds, size_t max, size_t *n,
		       struct ct_error *err);

/* Receives one message; *fd gets a passed descriptor or -1. */
int ct_sync_recv(int sock, struct ct_sync_msg *msg, int *fd, struct ct_error *err);

#endif
