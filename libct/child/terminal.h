/* The container's terminal (process.terminal, config.md#process): a pty made inside the
 * container, its slave as the process's controlling terminal and stdio, its master handed to
 * the --console-socket listener the way runc does it, so conmon and the containerd shim take
 * it unchanged.
 *
 *   child (container mount ns)              parent                 console socket owner
 *   ct_pty_open()     /dev/ptmx -> master
 *   ct_pty_set_size() consoleSize
 *   ct_pty_make_controlling(slave)
 *   ct_send_fd(sync, master) ------------>  ct_recv_fd(sync)
 *   close(master)                           ct_console_send_master() ---> recvmsg(SCM_RIGHTS)
 */
#ifndef CT_TERMINAL_H
#define CT_TERMINAL_H

#include <stddef.h>

#include "libct/base/error.h"

/* What runc sends with the master (the name of its file); conmon ignores it, containerd uses
 * it as the name of the received file. */
#define CT_CONSOLE_PAYLOAD "/dev/ptmx"

/* Opens a new pty through the /dev/ptmx of the calling mount namespace (so a container's
 * private devpts instance): *master gets the master (O_RDWR|O_NOCTTY|O_CLOEXEC), slave_name
 * the slave's path ("/dev/pts/0"). */
int ct_pty_open(int *master, char *slave_name, size_t size, struct ct_error *err);

/* Opens the slave of master (O_RDWR|O_NOCTTY|O_CLOEXEC) from the master itself
 * (TIOCGPTPEER), so no path is resolved; by slave_name on kernels before 4.13. */
int ct_pty_open_slave(int master, const char *slave_name, struct ct_error *err);

/* Sets the window size the process sees (consoleSize: rows = height, cols = width). */
int ct_pty_set_size(int master, unsigned short rows, unsigned short cols, struct ct_error *err);

/* In the child: starts a new session, opens slave_name and makes it the controlling
 * terminal and fds 0, 1 and 2. */
int ct_pty_make_controlling(const char *slave_name, struct ct_error *err);

/* The same with a slave already open (e.g. from ct_pty_open_slave()); slave is closed
 * unless it is one of 0, 1, 2. */
int ct_pty_make_controlling_fd(int slave, struct ct_error *err);

/* Connects to socket_path and sends master with CT_CONSOLE_PAYLOAD, then closes the
 * connection; the caller still owns master. */
int ct_console_send_master(const char *socket_path, int master, struct ct_error *err);

#endif
