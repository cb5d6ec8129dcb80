/* ct_path_is_below(): the string check that keeps a resolved mount target inside the rootfs.
 * Component-wise, so a sibling sharing a prefix ("/ab" next to "/a") is outside. */
#include <criterion/criterion.h>

#include "libct/rootfs.h"

Test(path_is_below, the_root_itself)
{
	cr_expect(ct_path_is_below("/a", "/a"));
	cr_expect(ct_path_is_below("/run/ctrun/rootfs", "/run/ctrun/rootfs"));
}

Test(path_is_below, descendants)
{
	cr_expect(ct_path_is_below("/a", "/a/b"));
	cr_expect(ct_path_is_below("/a", "/a/b/c/d"));
	cr_expect(ct_path_is_below("/tmp/bundle/rootfs", "/tmp/bundle/rootfs/proc"));
}

Test(path_is_below, shared_prefix_is_not_below)
{
	cr_expect_not(ct_path_is_below("/a", "/ab"));
	cr_expect_not(ct_path_is_below("/a", "/ab/c"));
	cr_expect_not(ct_path_is_below("/tmp/bundle/rootfs", "/tmp/bundle/rootfs2/etc"));
}

Test(path_is_below, outside)
{
	cr_expect_not(ct_path_is_below("/a", "/"));
	cr_expect_not(ct_path_is_below("/a/b", "/a"));
	cr_expect_not(ct_path_is_below("/a", "/b/a"));
	cr_expect_not(ct_path_is_below("/a", "/etc/passwd"));
}

Test(path_is_below, slash_root_holds_every_absolute_path)
{
	cr_expect(ct_path_is_below("/", "/"));
	cr_expect(ct_path_is_below("/", "/etc"));
	cr_expect(ct_path_is_below("/", "/a/b/c"));
	cr_expect_not(ct_path_is_below("/", "relative"));
	cr_expect_not(ct_path_is_below("/", ""));
}

Test(path_is_below, trailing_slashes_on_the_root_do_not_matter)
{
	cr_expect(ct_path_is_below("/a/", "/a"));
	cr_expect(ct_path_is_below("/a/", "/a/b"));
	cr_expect(ct_path_is_below("/a//", "/a/b"));
	cr_expect_not(ct_path_is_below("/a/", "/ab"));
	cr_expect(ct_path_is_below("//", "/etc"), "all slashes is still /");
}

Test(path_is_below, trailing_slash_on_the_path)
{
	cr_expect(ct_path_is_below("/a", "/a/"));
	cr_expect(ct_path_is_below("/a", "/a/b/"));
	cr_expect_not(ct_path_is_below("/a", "/ab/"));
}
