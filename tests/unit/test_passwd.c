/* ct_passwd_find_name: list's OWNER column from passwd(5) text, without NSS. */
#include <criterion/criterion.h>

#include "runtime/passwd.h"

static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
			     "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
			     "# a comment line has no uid field\n"
			     "broken:x:12a:1::/:/bin/sh\n"
			     ":x:7:7::/:/bin/sh\n"
			     "alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\n"
			     "alias:x:1000:1000::/home/alice:/bin/sh\n"
			     "big:x:4294967295:1::/:/bin/sh\n"
			     "last:x:65534:65534::/:/bin/sh";

static void assert_name(uid_t uid, const char *want)
{
	char name[64] = "";
	cr_assert(ct_passwd_find_name(passwd, uid, name, sizeof(name)), "uid %u not found",
		  (unsigned)uid);
	cr_expect_str_eq(name, want, "uid %u", (unsigned)uid);
}

Test(passwd, finds_the_first_entry_of_a_uid)
{
	assert_name(0, "root");
	assert_name(1, "daemon");
	assert_name(1000, "alice");
	assert_name(4294967295u, "big");
}

Test(passwd, the_last_line_needs_no_newline)
{
	assert_name(65534, "last");
}

Test(passwd, malformed_lines_and_empty_names_never_match)
{
	char name[64] = "unchanged";
	cr_expect_not(ct_passwd_find_name(passwd, 12, name, sizeof(name)), "uid field \"12a\"");
	cr_expect_not(ct_passwd_find_name(passwd, 7, name, sizeof(name)), "empty name");
	cr_expect_not(ct_passwd_find_name(passwd, 2, name, sizeof(name)), "absent uid");
	cr_expect_not(ct_passwd_find_name("", 0, name, sizeof(name)), "empty file");
	cr_expect_not(ct_passwd_find_name("root:x", 0, name, sizeof(name)), "no uid field");
	cr_expect_str_eq(name, "unchanged");
}

Test(passwd, a_long_name_is_truncated_to_the_buffer)
{
	char name[4];
	cr_assert(ct_passwd_find_name(passwd, 1000, name, sizeof(name)));
	cr_expect_str_eq(name, "ali");
}
