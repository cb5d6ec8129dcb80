#include "libct/base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "libct/base/vaformat.h"

/* Formats into err->msg; returns the length the message wanted. */
static int format_into(struct ct_error *err, const char *fmt, va_list ap)
{
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return n < 0 ? 0 : n;
}

int ct_error_sys(struct ct_error *err, int errnum, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int n = format_into(err, fmt, ap);
	va_end(ap);
	if (errnum && (size_t)n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(errnum));
	err->errnum = errnum;
	return -1;
}

int ct_error_plain(struct ct_error *err, int code, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	format_into(err, fmt, ap);
	va_end(ap);
	err->errnum = code;
	return -1;
}

int ct_error_prefix(struct ct_error *err, const char *fmt, ...)
{
	if (!err)
		return -1;
	char context[CT_ERROR_MSG_MAX];
	CT_VA_FORMAT(context, fmt);
	char joined[CT_ERROR_MSG_MAX];
	snprintf(joined, sizeof(joined), "%s: %s", context, err->msg);
	memcpy(err->msg, joined, sizeof(err->msg));
	return -1;
}

void ct_error_clear(struct ct_error *err)
{
	err->errnum = 0;
	err->msg[0] = '\0';
}
