/* The foreground of `run` and `exec`: every signal a shell may send is passed on to the
 * process, which is waited for on its pidfd; its status becomes ours. */
#ifndef CT_FORWARD_H
#define CT_FORWARD_H

#include <signal.h>

#include "libct/base/error.h"

/* The signals to pass on (all but the faults, which stay ours). Block them before the
 * process is spawned, so that none is lost in between. */
void ct_forwarded_signals(sigset_t *set);

/* Passes each signal of `signals` (blocked) to send(data, sig) until the process of pidfd
 * exits, reaps it and returns its status as shells give it (128+N when killed by signal
 * N), or -1 with err set. */
int ct_forward_and_wait(int pidfd, const sigset_t *signals, int (*send)(void *data, int sig),
			void *data, struct ct_error *err);

/* A reaped child's status as shells give it: its exit code, or 128+N after signal N. */
int ct_exit_status_of(const siginfo_t *info);

#endif
