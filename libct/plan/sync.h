/* The channel between ctrun (parent) and the container init (child): a SOCK_SEQPACKET
 * socketpair, one record per message. Each message's direction, descriptors and binary
 * payload are declared in one table, and the parent takes a message only in its phase and
 * only once (libct/plan/sync_phase.h). The core exchange:
 *
 *   parent                                     child (libct/child/init.c)
 *   clone into the cgroup ------------------>  waits
 *   CGROUP_READY --------------------------->  joins its cgroups
 *  [USERNS_READY: maps written ------------->  becomes root in its user namespace]
 *                                              namespaces, mounts, pivot_root, process
 *        <---------------------------------- READY {note}
 *   START (run), or CREATED (create; then
 *   `ctrun start` opens the exec fifo) ----->  startContainer hooks
 *        <---------------------------------- STARTED
 *        <---------------------------------- EOF: the execve closed the socket
 *
 *   any step failing: <--------------------- ERROR {errno, "init step mounts: ..."}
 *
 * Where the config asks for it the child also sends CREATE_HOOKS (the parent runs prestart
 * and createRuntime, then HOOKS_DONE), NET_DEVICES with an rtnetlink socket of its network
 * namespace (the parent moves .linux.netDevices there, then NET_DEVICES_DONE), PTY_MASTER,
 * SECCOMP_FD and ROOT_BIND, each with its fd; a joiner that clones the init in a joined user namespace sends INIT_PIDFD first
 * (libct/parent/spawn.c). Where the placement moves a step, libct/parent/placement.c says so.
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
	CT_SYNC_NET_DEVICES = 15,  /* init -> parent: move the network devices (an rtnl socket) */
	CT_SYNC_NET_DEVICES_DONE = 16, /* parent -> init: moved, addressed and up */
};

/* The payloads, as the table of libct/plan/sync_phase.c declares them. On the wire a record
 * is the type and then its payload's bytes as laid out here, a text only as long as its
 * len says (no NUL); ct_sync_decode (libct/plan/sync_decode.h) checks every one. */
#define CT_SYNC_TEXT_MAX (CT_ERROR_MSG_MAX - 1)

/* A text: len bytes, none of them NUL (NUL-terminated once decoded). */
struct ct_sync_text {
	uint16_t len;
	char text[CT_SYNC_TEXT_MAX + 1];
};

/* ERROR's and EXEC_ERROR's: an errno (1..4095) and a message that is not empty. */
struct ct_sync_error {
	int32_t errnum;
	struct ct_sync_text message;
};

/* INIT_PIDFD's (with the pidfd): the init the joiner cloned, and how. */
struct ct_sync_init_pidfd {
	int32_t pid;	 /* > 0 */
	char method[32]; /* "clone3": NUL-terminated, not empty */
};

/* One record: the type, then the payload its row declares. */
struct ct_sync_msg {
	uint32_t type;
	union {
		struct ct_sync_text note; /* READY's: a line for the debug log, may be empty */
		struct ct_sync_error error;
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
/* The ERROR (or EXEC_ERROR) of cause: its errno, or EPROTO where it has none a peer would
 * take; its message, cut to CT_SYNC_TEXT_MAX bytes. */
void ct_sync_error_msg(struct ct_sync_msg *msg, uint32_t type, const struct ct_error *cause);
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
/* Init -> parent: a NETLINK_ROUTE socket of the init's network namespace, for the parent to
 * move the network devices there (libct/parent/net_devices.h). */
int ct_sync_send_net_devices(int sock, int rtnl, struct ct_error *err);
/* Parent -> init: they are in, addressed and up. */
int ct_sync_send_net_devices_done(int sock, struct ct_error *err);
/* Parent -> init (create, after READY): every cgroup joined; the init now outlives create. */
int ct_sync_send_created(int sock, struct ct_error *err);
/* Init -> run: started (the startContainer hooks passed), the execve comes next. */
int ct_sync_send_started(int sock, struct ct_error *err);

/* The exec fifo as a channel (a stream, not records): one whole message per write, one
 * message per channel before EOF. */
int ct_sync_fifo_write(int fd, const struct ct_sync_msg *msg, struct ct_error *err);
/* Reads a message from a readable fifo: type CT_SYNC_EOF when the writer closed it. */
int ct_sync_fifo_read(int fd, struct ct_sync_msg *msg, struct ct_error *err);

/* Child: receives one message, which must be of that type (any fd passed is closed); any
 * other, or EOF, fails with ECANCELED and "runtime went away before <what>". */
int ct_sync_expect(int sock, uint32_t type, const char *what, struct ct_error *err);

/* ct_sync_expect for a message that carries up to max fds: fds[0..*n) get them. */
int ct_sync_expect_fds(int sock, uint32_t type, const char *what, int *fds, size_t max, size_t *n,
		       struct ct_error *err);

/* Receives one message, decoded and checked (libct/plan/sync_decode.h): a record that is
 * not a message is an error naming it; *fd gets a passed descriptor or -1. */
int ct_sync_recv(int sock, struct ct_sync_msg *msg, int *fd, struct ct_error *err);

#endif
