/* `exec --tty` in the foreground without --console-socket, as runc does it: ctrun keeps
 * the pty master and relays between it and its own stdin and stdout, with the caller's
 * terminal (when stdin is one) in raw mode and its window size passed on (SIGWINCH). */
#ifndef CT_TTY_RELAY_H
#define CT_TTY_RELAY_H

#include <signal.h>

#include "libct/base/error.h"

/* Like ct_forward_and_wait() (libct/lifecycle/forward.h), relaying the terminal meanwhile; returns
 * once the process has exited and everything it wrote has been passed on. */
int ct_tty_relay_and_wait(int pidfd, int master, const sigset_t *signals,
			  int (*send)(void *data, int sig), void *data, struct ct_error *err);

#endif
