/* The record of a rootfs bind in a shared mount namespace (libct/state/shared_root.h): what is
 * written reads back the same, and nothing else is taken for a record. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "libct/state/shared_root.h"

static void assert_round_trip(const struct ct_shared_root *r)
{
	char text[PATH_MAX + 128];
	int n = ct_shared_root_format(r, text, sizeof(text));
	cr_assert(n > 0 && (size_t)n < sizeof(text));
	struct ct_shared_root back;
	cr_assert_eq(ct_shared_root_parse(text, &back), 0, "%s", text);
	cr_expect_eq(back.unique, r->unique);
	cr_expect_eq(back.mount_id, r->mount_id);
	cr_expect_eq(back.ns_dev, r->ns_dev);
	cr_expect_eq(back.ns_ino, r->ns_ino);
	cr_expect_str_eq(back.joined, r->joined);
}

Test(shared_root, inherited_and_joined_records_read_back)
{
	struct ct_shared_root inherited = {.unique = true,
					   .mount_id = 0x100000000000123ULL,
					   .ns_dev = 4,
					   .ns_ino = 4026531841ULL};
	assert_round_trip(&inherited);
	struct ct_shared_root joined = {.mount_id = 57, .ns_dev = 4, .ns_ino = 4026532300ULL};
	strcpy(joined.joined, "/run/netns/../mntns/pod a");
	assert_round_trip(&joined);
}

Test(shared_root, the_record_text_is_as_documented)
{
	struct ct_shared_root r = {.unique = true, .mount_id = 9, .ns_dev = 4, .ns_ino = 77};
	strcpy(r.joined, "/proc/12/ns/mnt");
	char text[256];
	ct_shared_root_format(&r, text, sizeof(text));
	cr_expect_str_eq(text, "1 9 4 77\n/proc/12/ns/mnt\n");
}

Test(shared_root, anything_else_is_refused)
{
	static const char *const bad[] = {
		"",
		"1 9 4 77\n",			   /* no path line */
		"1 9 4 77",			   /* no newline at all */
		"2 9 4 77\n\n",			   /* unique is 0 or 1 */
		"1 9 4\n\n",			   /* a field missing */
		"1 9 4 77 extra\n\n",		   /* a field too many */
		"1 9 4 77\n/a\n/b\n",		   /* a second path */
		"1 x 4 77\n\n",			   /* not a number */
		"1 9 4 77\n/a",			   /* the path unterminated */
		"1 99999999999999999999 4 77\n\n", /* out of range */
		"+1 9 4 77\n\n",		   /* a sign */
		"1 -9 4 77\n\n",		   /* a negative id */
		" 1 9 4 77\n\n",		   /* a leading space */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_shared_root r;
		cr_expect_eq(ct_shared_root_parse(bad[i], &r), -1, "accepted \"%s\"", bad[i]);
	}
}
