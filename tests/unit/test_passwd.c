/* libct/base/passwd.h: passwd(5) text read as runc reads it, for list's OWNER column and for a
 * container's HOME. */
#include <criterion/criterion.h>
#include <string.h>

#include "libct/base/passwd.h"

static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\n"
			     "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
			     "# a comment line has no uid field\n"
			     "broken:x:12a:1::/:/bin/sh\n"
			     ":x:7:7::/nameless:/bin/sh\n"
			     "alice:x:1000:1000:Alice,,,:/home/alice:/bin/bash\n"
			     "alias:x:1000:1000::/home/alias:/bin/sh\n"
			     "big:x:4294967295:1::/:/bin/sh\n"
			     "last:x:65534:65534::/nonexistent:/bin/sh";

static bool find_name(const char *text, uid_t uid, char *name, size_t size)
{
	return ct_passwd_find_name(text, strlen(text), uid, name, size);
}

static void assert_name(uid_t uid, const char *want)
{
	char name[64] = "";
	cr_assert(find_name(passwd, uid, name, sizeof(name)), "uid %u not found", (unsigned)uid);
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
	cr_expect_not(find_name(passwd, 12, name, sizeof(name)), "uid field \"12a\"");
	cr_expect_not(find_name(passwd, 7, name, sizeof(name)), "empty name");
	cr_expect_not(find_name(passwd, 2, name, sizeof(name)), "absent uid");
	cr_expect_not(find_name("", 0, name, sizeof(name)), "empty file");
	cr_expect_not(find_name("root:x", 0, name, sizeof(name)), "no uid field");
	cr_expect_not(find_name("root:x::0", 0, name, sizeof(name)), "empty uid field");
	cr_expect_not(find_name("root:x:4294967296:0", 0, name, sizeof(name)), "above 2^32-1");
	cr_expect_not(find_name("root:x:-0:0", 0, name, sizeof(name)), "a minus sign");
	cr_expect_str_eq(name, "unchanged");
}

Test(passwd, a_long_name_is_truncated_to_the_buffer)
{
	char name[4];
	cr_assert(find_name(passwd, 1000, name, sizeof(name)));
	cr_expect_str_eq(name, "ali");
}

/* The home of uid in text, "(none)" when no line has it. */
static char *home_of(const char *text, size_t len, uid_t uid)
{
	char *home = NULL;
	int found = ct_passwd_find_home(text, len, uid, &home);
	cr_assert_geq(found, 0);
	return found == 0 ? home : strdup("(none)");
}

static void assert_home(const char *text, uid_t uid, const char *want)
{
	char *home = home_of(text, strlen(text), uid);
	cr_expect_str_eq(home, want, "uid %u in %s", (unsigned)uid, text);
	free(home);
}

Test(passwd, home_of_the_first_entry_of_a_uid)
{
	assert_home(passwd, 0, "/root");
	assert_home(passwd, 1000, "/home/alice");
	assert_home(passwd, 65534, "/nonexistent");
	assert_home(passwd, 7, "/nameless"); /* runc matches a line by its uid alone */
	assert_home(passwd, 2, "(none)");
	assert_home(passwd, 12, "(none)");
	assert_home("", 0, "(none)");
}

/* What runc 1.1.5 sets HOME to for each of these files (checked by running it). */
Test(passwd, home_read_as_runc_reads_it)
{
	/* a passwd file and the home of uid 1000 in it ("": none) */
	static const char *const rows[][2] = {
		{"a:x:1000:1::/first:/bin/sh\nb:x:1000:1::/second:/bin/sh\n", "/first"},
		{"  alice:x:1000:1::/sp  \n", "/sp"},
		{"alice:x:1000:1::/crlf:/bin/sh\r\n", "/crlf"},
		{"#c:x:1000:1::/comment:/bin/sh\n", "/comment"},
		{"alice:x:1000:1::/short\n", "/short"},
		{"alice:x:1000:1\n", ""},
		{"alice:x:1000\n", ""},
		{"bob:x:1000:1000:::/bin/sh\n", ""},
		{"alice:x:+1000:1::/plus:/bin/sh\n", "/plus"},
		{"alice:x:01000:1::/zero:/bin/sh\n", "/zero"},
		{"\n\n   \nalice:x:1000:1::/after-blank:/bin/sh", "/after-blank"},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_home(rows[i][0], 1000, rows[i][1]);
	assert_home("a:x:1000:1::/h:/s:extra:fields\n", 1000, "/h");
}

/* A line whose uid is not a number never matches: runc reads it as uid 0, which would give
 * root the home a malformed line names (a deliberate difference, docs). */
Test(passwd, a_malformed_uid_is_not_root)
{
	assert_home("bad:x:abc:0::/bad:/bin/sh\nroot:x:0:0::/root:/bin/sh\n", 0, "/root");
	assert_home("bad:x::0::/bad:/bin/sh\n", 0, "(none)");
}

/* The text is taken by its length: what follows a NUL byte is read on, and nothing past
 * len is. */
Test(passwd, the_text_is_read_to_its_length)
{
	static const char text[] = "x:x:1:1::/a\0b:/s\nalice:x:1000:1::/home/alice:/bin/sh\n";
	char *home = home_of(text, sizeof(text) - 1, 1000);
	cr_expect_str_eq(home, "/home/alice");
	free(home);
	home = home_of(text, 11, 1);
	cr_expect_str_eq(home, "/a");
	free(home);
	home = home_of("a:x:1:1::/cut-here", 12, 1);
	cr_expect_str_eq(home, "/cu");
	free(home);
}
