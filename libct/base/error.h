/* The error object every fallible function fills: an errno and one message made where the
 * failure happened. Callers add context with ct_error_prefix(); the top prints it once. */
#ifndef CT_ERROR_H
#define CT_ERROR_H

#include <stddef.h>

#define CT_ERROR_MSG_MAX 1024

struct ct_error {
	int errnum;		    /* the failed call's errno, or a plain error's code; 0: none */
	char msg[CT_ERROR_MSG_MAX]; /* "what: to what: strerror" */
};

/* The two ways to make an error; each sets err (when not NULL) and returns -1, so
 * `return ct_error_sys(...)` reads as it works.
 *
 * ct_error_sys: a call failed and the kernel (or libc) gave errnum; ": <strerror>" is
 * appended when errnum != 0. Pass only an errno that came back from a call.
 *
 * ct_error_plain: the message says it all. code is an errno-style kind callers may test
 * (EEXIST, ENOENT, EPROTO...), 0 when none matters; it is never printed. */
int ct_error_sys(struct ct_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ct_error_plain(struct ct_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prepends "<context>: " to the message; returns -1. */
int ct_error_prefix(struct ct_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void ct_error_clear(struct ct_error *err);

#endif
