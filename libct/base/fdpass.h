/* Passing file descriptors over an AF_UNIX socket (SCM_RIGHTS), with a small payload: the
 * child hands the pty master to the parent this way, and the parent hands it on to the
 * --console-socket listener (conmon, the containerd shim) and the seccomp fd to the
 * listenerPath agent; the parent hands the init the `tasks` files of the cgroup directories
 * it made after the clone (libct/plan/sync.h). */
#ifndef CT_FDPASS_H
#define CT_FDPASS_H

#include <stddef.h>

#include "libct/base/error.h"

#define CT_FDPASS_MAX 32 /* fds in one message */

/* Sends len bytes of data with fd attached. A stream socket delivers ancillary data only
 * together with at least one byte of data (unix(7)), so len == 0 sends one NUL byte.
 * fd < 0 sends the data alone. Never raises SIGPIPE: a closed peer is EPIPE. */
int ct_send_fd(int sock, int fd, const void *data, size_t len, struct ct_error *err);

/* Receives one message: at most *len bytes into data (*len becomes the count received) and
 * the fd attached to it in *fd (O_CLOEXEC), or -1 when the message carried none. EINTR is
 * retried. The peer closing the socket returns 0 with *len == 0 and *fd == -1: ct_send_fd()
 * never sends an empty message, so that is EOF (the sync layer turns it into "the child
 * died"). A message with more than one fd or more data than fits is an error, and every fd
 * that came with it is closed. With data NULL or *len 0 the payload is dropped and *len
 * (when len is not NULL) is still 0 only at EOF. */
int ct_recv_fd(int sock, int *fd, void *data, size_t *len, struct ct_error *err);

/* The same for n fds (at most CT_FDPASS_MAX; none: the data alone). */
int ct_send_fds(int sock, const int *fds, size_t n, const void *data, size_t len,
		struct ct_error *err);
/* The same as ct_recv_fd for up to max fds (max <= CT_FDPASS_MAX): fds[0..*n) get them,
 * the rest of fds[0..max) -1; more than max is an error, every fd that came closed. */
int ct_recv_fds(int sock, int *fds, size_t max, size_t *n, void *data, size_t *len,
		struct ct_error *err);

/* Connects to the AF_UNIX SOCK_STREAM listener at path; a path longer than sun_path holds
 * is reached through an O_PATH fd of the socket file (conmon and CI systems put sockets in
 * deep directories). what names the listener in the error ("console socket"). Returns the
 * socket (O_CLOEXEC) or -1. */
int ct_unix_connect(const char *path, const char *what, struct ct_error *err);
/* Connects to path, sends data with fd as ct_send_fd() does and closes the connection: one
 * message per connection, the caller still owns fd. */
int ct_send_fd_to(const char *path, const char *what, int fd, const void *data, size_t len,
		  struct ct_error *err);

#endif
