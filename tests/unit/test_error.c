/* The error object: one message made where the failure happened, strerror appended once,
 * context prepended by callers, always a NUL-terminated string that fits. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "libct/base/error.h"

Test(error, set_appends_strerror)
{
	struct ct_error err = {0};
	cr_expect_eq(ct_error_set(&err, ENOENT, "open \"%s\"", "/etc/x"), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_str_eq(err.msg, "open \"/etc/x\": No such file or directory");
}

Test(error, set_without_errno_has_no_suffix)
{
	struct ct_error err = {.errnum = EIO};
	cr_expect_eq(ct_error_set(&err, 0, "container \"%s\" is %s", "web", "running"), -1);
	cr_expect_eq(err.errnum, 0, "errnum is replaced, not kept from before");
	cr_expect_str_eq(err.msg, "container \"web\" is running");
}

Test(error, set_plain_never_appends_strerror)
{
	struct ct_error err = {0};
	cr_expect_eq(ct_error_set_plain(&err, EEXIST, "container \"%s\" already exists", "a"), -1);
	cr_expect_eq(err.errnum, EEXIST);
	cr_expect_str_eq(err.msg, "container \"a\" already exists");

	cr_expect_eq(ct_error_set_plain(&err, 0, "plain"), -1);
	cr_expect_eq(err.errnum, 0);
	cr_expect_str_eq(err.msg, "plain");
}

Test(error, prefix_prepends_context)
{
	struct ct_error err = {0};
	ct_error_set(&err, EPERM, "mount \"proc\" on \"/proc\"");
	cr_expect_eq(ct_error_prefix(&err, "create container \"%s\"", "web"), -1);
	cr_expect_str_eq(err.msg,
			 "create container \"web\": mount \"proc\" on \"/proc\": Operation not "
			 "permitted");
	cr_expect_eq(err.errnum, EPERM, "the prefix keeps the cause's errno");

	ct_error_prefix(&err, "ctx");
	cr_expect_eq(strncmp(err.msg, "ctx: create container", 21), 0, "got \"%s\"", err.msg);
}

Test(error, clear_empties)
{
	struct ct_error err = {0};
	ct_error_set(&err, EINVAL, "bad");
	ct_error_clear(&err);
	cr_expect_eq(err.errnum, 0);
	cr_expect_str_empty(err.msg);
}

static void fill(char *buf, size_t n, char c)
{
	memset(buf, c, n - 1);
	buf[n - 1] = '\0';
}

Test(error, long_message_is_truncated_and_terminated)
{
	static char huge[4 * CT_ERROR_MSG_MAX];
	fill(huge, sizeof(huge), 'x');
	struct ct_error err;
	memset(&err, 'z', sizeof(err)); /* no help from a zeroed buffer */
	cr_expect_eq(ct_error_set(&err, ENOENT, "%s", huge), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(err.msg[0], 'x');
	cr_expect_eq(err.msg[CT_ERROR_MSG_MAX - 2], 'x');

	memset(&err, 'z', sizeof(err));
	ct_error_set_plain(&err, 0, "%s", huge);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
}

/* A message that fits, but not with its strerror: the strerror is cut, the string ends. */
Test(error, strerror_suffix_is_truncated_and_terminated)
{
	char almost[CT_ERROR_MSG_MAX - 4];
	fill(almost, sizeof(almost), 'y');
	struct ct_error err;
	memset(&err, 'z', sizeof(err));
	ct_error_set(&err, ENOENT, "%s", almost);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(strncmp(err.msg + sizeof(almost) - 1, ": N", 3), 0, "got tail \"%s\"",
		     err.msg + sizeof(almost) - 1);
}

Test(error, long_prefix_is_truncated_and_terminated)
{
	static char huge[2 * CT_ERROR_MSG_MAX];
	fill(huge, sizeof(huge), 'p');
	struct ct_error err = {0};
	ct_error_set(&err, EPERM, "cause");
	cr_expect_eq(ct_error_prefix(&err, "%s", huge), -1);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(err.msg[0], 'p');
	cr_expect_eq(err.errnum, EPERM);

	/* a long cause under a short prefix: the front (the context) survives */
	char cause[CT_ERROR_MSG_MAX];
	fill(cause, sizeof(cause), 'c');
	ct_error_set_plain(&err, 0, "%s", cause);
	ct_error_prefix(&err, "ctx");
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(strncmp(err.msg, "ctx: ccc", 8), 0);
}

Test(error, null_error_is_allowed)
{
	cr_expect_eq(ct_error_set(NULL, ENOENT, "open \"%s\"", "x"), -1);
	cr_expect_eq(ct_error_set_plain(NULL, EINVAL, "bad"), -1);
	cr_expect_eq(ct_error_prefix(NULL, "ctx"), -1);
}
