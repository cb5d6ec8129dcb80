/* The error object: one message made where the failure happened, strerror appended once and
 * only to an errno a call gave, context prepended by callers, always a NUL-terminated string
 * that fits. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "libct/base/error.h"

Test(error, sys_appends_strerror)
{
	struct ct_error err = {0};
	cr_expect_eq(ct_error_sys(&err, ENOENT, "open \"%s\"", "/etc/x"), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_str_eq(err.msg, "open \"/etc/x\": No such file or directory");
}

Test(error, sys_without_errno_has_no_suffix)
{
	struct ct_error err = {.errnum = EIO};
	cr_expect_eq(ct_error_sys(&err, 0, "container \"%s\" is %s", "web", "running"), -1);
	cr_expect_eq(err.errnum, 0, "errnum is replaced, not kept from before");
	cr_expect_str_eq(err.msg, "container \"web\" is running");
}

Test(error, plain_never_appends_strerror)
{
	struct ct_error err = {0};
	cr_expect_eq(ct_error_plain(&err, EEXIST, "container \"%s\" already exists", "a"), -1);
	cr_expect_eq(err.errnum, EEXIST);
	cr_expect_str_eq(err.msg, "container \"a\" already exists");

	cr_expect_eq(ct_error_plain(&err, 0, "plain"), -1);
	cr_expect_eq(err.errnum, 0);
	cr_expect_str_eq(err.msg, "plain");
}

Test(error, prefix_prepends_context)
{
	struct ct_error err = {0};
	ct_error_sys(&err, EPERM, "mount \"proc\" on \"/proc\"");
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
	ct_error_sys(&err, EINVAL, "bad");
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
	cr_expect_eq(ct_error_sys(&err, ENOENT, "%s", huge), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(err.msg[0], 'x');
	cr_expect_eq(err.msg[CT_ERROR_MSG_MAX - 2], 'x');

	memset(&err, 'z', sizeof(err));
	ct_error_plain(&err, 0, "%s", huge);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
}

/* A message that fits, but not with its strerror: the strerror is cut, the string ends. */
Test(error, strerror_suffix_is_truncated_and_terminated)
{
	char almost[CT_ERROR_MSG_MAX - 4];
	fill(almost, sizeof(almost), 'y');
	struct ct_error err;
	memset(&err, 'z', sizeof(err));
	ct_error_sys(&err, ENOENT, "%s", almost);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(strncmp(err.msg + sizeof(almost) - 1, ": N", 3), 0, "got tail \"%s\"",
		     err.msg + sizeof(almost) - 1);
}

Test(error, long_prefix_is_truncated_and_terminated)
{
	static char huge[2 * CT_ERROR_MSG_MAX];
	fill(huge, sizeof(huge), 'p');
	struct ct_error err = {0};
	ct_error_sys(&err, EPERM, "cause");
	cr_expect_eq(ct_error_prefix(&err, "%s", huge), -1);
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(err.msg[0], 'p');
	cr_expect_eq(err.errnum, EPERM);

	/* a long cause under a short prefix: the front (the context) survives */
	char cause[CT_ERROR_MSG_MAX];
	fill(cause, sizeof(cause), 'c');
	ct_error_plain(&err, 0, "%s", cause);
	ct_error_prefix(&err, "ctx");
	cr_expect_eq(strnlen(err.msg, sizeof(err.msg)), CT_ERROR_MSG_MAX - 1);
	cr_expect_eq(strncmp(err.msg, "ctx: ccc", 8), 0);
}

Test(error, null_error_is_allowed)
{
	cr_expect_eq(ct_error_sys(NULL, ENOENT, "open \"%s\"", "x"), -1);
	cr_expect_eq(ct_error_plain(NULL, EINVAL, "bad"), -1);
	cr_expect_eq(ct_error_prefix(NULL, "ctx"), -1);
}

/* A plain error's code is for callers to test, never words in the message. */
Test(error, plain_code_is_kept_not_printed)
{
	struct ct_error err = {0};
	int codes[] = {ECHILD, EPROTO, ECANCELED, EBADMSG, EINVAL};
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		cr_expect_eq(ct_error_plain(&err, codes[i], "init exited before start"), -1);
		cr_expect_eq(err.errnum, codes[i]);
		cr_expect_str_eq(err.msg, "init exited before start", "code %d printed: \"%s\"",
				 codes[i], err.msg);
	}
}

/* Each constructor replaces what an earlier one left: no strerror or code carried over. */
Test(error, constructors_replace_the_previous_error)
{
	struct ct_error err = {0};
	ct_error_sys(&err, EACCES, "open \"%s\"", "/a");
	ct_error_plain(&err, EEXIST, "container \"%s\" already exists", "b");
	cr_expect_eq(err.errnum, EEXIST);
	cr_expect_str_eq(err.msg, "container \"b\" already exists");
	ct_error_sys(&err, EPERM, "mount \"%s\"", "/c");
	cr_expect_eq(err.errnum, EPERM);
	cr_expect_str_eq(err.msg, "mount \"/c\": Operation not permitted");
}

/* Context on a plain error keeps its code and adds no strerror either. */
Test(error, prefix_on_plain_keeps_code)
{
	struct ct_error err = {0};
	ct_error_plain(&err, ECHILD, "init exited before start");
	ct_error_prefix(&err, "container \"%s\"", "web");
	cr_expect_eq(err.errnum, ECHILD);
	cr_expect_str_eq(err.msg, "container \"web\": init exited before start");
}
