/* What the container process inherits from ctrun that the init must undo, read once in the
 * parent before the clone (one /proc/self/status read instead of a syscall per signal and
 * per capability in the init): the signals ctrun's caller left ignored (SIG_IGN survives
 * the clone and execve; handlers do not) and the bounding set the init starts from. */
#ifndef CT_SELFSTATUS_H
#define CT_SELFSTATUS_H

#include <stdint.h>

struct ct_self_status {
	uint64_t sig_ignored;  /* SigIgn: bit n-1 is signal n */
	uint64_t cap_bounding; /* CapBnd: bit n is capability n */
};

/* The text after "<key>:" on the line of a /proc/PID/status text that starts with it (a key
 * matches at a line start only, whole); NULL when no line does. Pure. */
const char *ct_proc_status_field(const char *text, const char *key);

/* Parses the text of /proc/PID/status. Returns 0, or -1 when SigIgn or CapBnd is missing
 * or not hexadecimal. Pure, unit-tested. */
int ct_self_status_parse(const char *text, struct ct_self_status *out);

/* This process's status; when it cannot be read (no /proc), every bit set: the init then
 * resets every signal and drops every unwanted capability, as if all were there. */
void ct_self_status_read(struct ct_self_status *out);

#endif
