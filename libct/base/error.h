/* The error object every fallible function fills: an errno and one message made where the
 * failure happened. Callers add context with ct_error_prefix(); the top prints it once. */
#ifndef CT_ERROR_H
#define CT_ERROR_H

#include <stddef.h>

#define CT_ERROR_MSG_MAX 1024

struct ct_error {
	int errnum;		    /* errno of the cause, 0 when there is none */
	char msg[CT_ERROR_MSG_MAX]; /* "what: to what: strerror" */
};

/* Sets err (when not NULL) and returns -1, so `return ct_error_set(...)` reads as it works.
 * errnum != 0 appends ": <strerror>". */
int ct_error_set(struct ct_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like ct_error_set, but the message already says what errnum means (no strerror). */
int ct_error_set_plain(struct ct_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prepends "<context>: " to the message; returns -1. */
int ct_error_prefix(struct ct_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void ct_error_clear(struct ct_error *err);

#endif
