#include "libct/base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ct_error_set(struct ct_error *err, int errnum, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (errnum && (size_t)n < sizeof(err->msg))
		snprintf(err->msg + n, sizeof(err->msg) - n, ": %s", strerror(errnum));
	err->errnum = errnum;
	return -1;
}

int ct_error_set_plain(struct ct_error *err, int errnum, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->errnum = errnum;
	return -1;
}

int ct_error_prefix(struct ct_error *err, const char *fmt, ...)
{
	if (!err)
		return -1;
	char context[CT_ERROR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(context, sizeof(context), fmt, ap);
	va_end(ap);
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
