/* The typed channel between `ctrun create` (parent) and the container init (child), a
 * SOCK_SEQPACKET socketpair made before the clone: one record per message.
 *
 *   parent (ctrun create)                          child (container init, libct/init.c)
 *   socketpair, clone3 ------------------------->  (a new user namespace: waits, with
 *                                                  no id mapped, for its maps)
 *   write /proc/<pid>/uid_map, gid_map
 *   USERNS_READY ------------------------------->  setresgid/setresuid 0: root inside
 *                                                  join namespaces, mounts, pivot_root,
 *                                                  process attributes
 *        <------------------- PTY_MASTER (+fd)     (only with process.terminal)
 *        <------------------- SECCOMP_FD (+fd)     (only with SCMP_ACT_NOTIFY: loaded the
 *   send it to listenerPath                        filter; the parent passes the fd on
 *   with the process state                         before READY, the child keeps no copy)
 *        <------------------- READY {note}         set-up done, about to block on the
 *   write state.json, pid file, exit               exec fifo until `ctrun start`
 *   (run: write state.json, then)
 *   START ------------------------------------->   execve the user process
 *
 *   A joined user namespace, or a new one with other namespaces joined: a joiner (fork)
 *   joins them (the user namespace first) and clones the init as ctrun's child
 *   (CLONE_PARENT), so that the init's new namespaces belong to the right user namespace:
 *   fork ------------> joiner: setns(...), clone3 --> init: waits
 *        <------------ INIT_PIDFD (+pidfd) {"<pid> <clone call>"}; joiner exits
 *   reap the joiner, write the maps of a new user namespace
 *   USERNS_READY ------------------------------->  setresgid/setresuid 0, the rest above
 *
 *   any step failing:  <----- ERROR {errno, "mount \"proc\" on \"/proc\": ..."} ; _exit(1)
 *   child dying without a word: recv returns EOF -> "container init exited during set-up"
 */
#ifndef CT_SYNC_H
#define CT_SYNC_H

#include <stdint.h>
#include <sys/types.h>

#include "libct/error.h"

enum ct_sync_type {
	CT_SYNC_EOF = 0, /* the child closed its end (died) */
	CT_SYNC_READY = 1,
	CT_SYNC_ERROR = 2,
	CT_SYNC_PTY_MASTER = 3,
	CT_SYNC_START = 4,	  /* parent -> child, `run` only */
	CT_SYNC_SECCOMP_FD = 5,	  /* the seccomp listener fd, for the agent at listenerPath */
	CT_SYNC_USERNS_READY = 6, /* parent -> child: maps written, or the init's pidfd in hand */
	CT_SYNC_INIT_PIDFD = 7,	  /* joiner -> parent: the init it cloned */
	CT_SYNC_EXEC_ERROR = 8,	  /* exec: the command is missing or cannot be exec'd */
};

struct ct_sync_msg {
	uint32_t type;
	int32_t errnum;
	char text[CT_ERROR_MSG_MAX];
};

/* Creates the pair: fds[0] for the parent, fds[1] for the child (both close-on-exec). */
int ct_sync_pair(int fds[2], struct ct_error *err);

int ct_sync_send(int sock, const struct ct_sync_msg *msg, struct ct_error *err);
/* note: a line for the runtime's debug log (what the set-up found), or NULL. */
int ct_sync_send_ready(int sock, const char *note, struct ct_error *err);
int ct_sync_send_error(int sock, const struct ct_error *cause);
/* ERROR, or EXEC_ERROR when the command itself could not be run (exit status 126/127). */
int ct_sync_send_error_typed(int sock, uint32_t type, const struct ct_error *cause);
int ct_sync_send_pty_master(int sock, int master, struct ct_error *err);
int ct_sync_send_seccomp_fd(int sock, int listener, struct ct_error *err);

/* Parent -> child: the child's user namespace is ready (libct/userns.h). */
int ct_sync_send_userns_ready(int sock, struct ct_error *err);
/* Joiner -> parent: the init's pidfd, its pid and the call that made it ("clone3"). */
int ct_sync_send_init_pidfd(int sock, int pidfd, pid_t pid, const char *method,
			    struct ct_error *err);
/* Child: receives one message, which must be of that type (any fd passed is closed); any
 * other, or EOF, fails with ECANCELED and "runtime went away before <what>". */
int ct_sync_expect(int sock, uint32_t type, const char *what, struct ct_error *err);

/* Receives one message; *fd gets a passed descriptor or -1. */
int ct_sync_recv(int sock, struct ct_sync_msg *msg, int *fd, struct ct_error *err);

#endif
