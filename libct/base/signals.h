/* Signal names as `kill` takes them ("KILL", "SIGKILL", "kill", "9") and as messages print
 * them. Pure, unit-tested. */
#ifndef CT_SIGNALS_H
#define CT_SIGNALS_H

/* Returns the signal number, or -1 when the text names no signal. "0" is 0: as kill(2),
 * runc and crun take it, `kill ID 0` probes that the container's init lives. */
int ct_signal_parse(const char *text);

/* The name without "SIG" ("KILL" for 9), or NULL for a number that has none (real-time
 * signals): sigabbrev_np() is glibc-only. */
const char *ct_signal_abbrev(int sig);

#endif
