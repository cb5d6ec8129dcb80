/* Signal names as `kill` takes them: "KILL", "SIGKILL", "kill", "9". Pure, unit-tested. */
#ifndef CT_SIGNALS_H
#define CT_SIGNALS_H

/* Returns the signal number, or -1 when the text names no signal. */
int ct_signal_parse(const char *text);

#endif
