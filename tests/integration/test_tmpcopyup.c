/* The "tmpcopyup" tmpfs option (a runc/crun extension Podman puts on /run, /tmp
 * and friends): the image's directory content, with modes, owners and symlinks, is in the
 * new tmpfs, seen from inside the container; the image itself is untouched (seen from
 * outside); a symlinked destination or a symlink in the image never reaches the host; and
 * the same holds with the legacy mount API. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(tmpcopyup, .fini = lc_cleanup);

#define NO_NEW_MOUNT_API "fsopen,fsmount,fsconfig,open_tree,move_mount,mount_setattr"

/* What the image has in /data: a setuid file of 12:34, a 0751 directory of 5:6 holding a
 * fifo, an absolute symlink and a 1733 /data itself. */
static void image_data_dir(const struct lc *t)
{
	char *data = lc_rootfs_path(t, "data"), *sub = lc_rootfs_path(t, "data/sub");
	char *file = lc_rootfs_path(t, "data/f"), *fifo = lc_rootfs_path(t, "data/sub/fifo");
	char *link = lc_rootfs_path(t, "data/link");
	ctt_mkdir_p(sub);
	ctt_write_file(file, "from the image\n");
	cr_assert_eq(chown(file, 12, 34), 0);
	cr_assert_eq(chmod(file, 04755), 0);
	cr_assert_eq(chown(sub, 5, 6), 0);
	cr_assert_eq(chmod(sub, 0751), 0);
	cr_assert_eq(mkfifo(fifo, 0640), 0);
	cr_assert_eq(symlink("/etc/passwd", link), 0);
	cr_assert_eq(chmod(data, 01733), 0);
	free(data), free(sub), free(file), free(fifo), free(link);
}

#define LIST_DATA                                                                                \
	"stat -c '%n %a %u:%g %F' /data /data/f /data/sub /data/sub/fifo; readlink /data/link; " \
	"cat /data/f; grep ' /data ' /proc/self/mountinfo | cut -d' ' -f9; "

static const char want_listing[] = "/data 1733 0:0 directory\n"
				   "/data/f 4755 12:34 regular file\n"
				   "/data/sub 751 5:6 directory\n"
				   "/data/sub/fifo 640 0:0 fifo\n"
				   "/etc/passwd\n"
				   "from the image\n"
				   "tmpfs\n";

/* Inside: the copy with its attributes, on a tmpfs, writable; outside: the image's /data
 * did not get what the container wrote, and nothing is left. (The default capabilities have
 * no CAP_DAC_OVERRIDE: the modes are ones the container's root may read.) */
static void assert_copied_up(struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	image_data_dir(t);
	lc_add_mount(t, "/data", "tmpfs", "tmpfs", "tmpcopyup,nosuid,size=1m");
	char *out = lc_sh_output(t, LIST_DATA "echo new > /data/new && cat /data/new");
	char want[sizeof(want_listing) + 8];
	snprintf(want, sizeof(want), "%snew\n", want_listing);
	cr_expect_str_eq(out, want);
	char *image_new = lc_rootfs_path(t, "data/new");
	cr_expect_not(ctt_exists(image_new), "the container wrote into the image's /data");
	lc_assert_nothing_left(t);
	free(image_new);
	free(out);
}

Test(tmpcopyup, copies_content_modes_owners_and_symlinks)
{
	struct lc t;
	lc_init(&t);
	assert_copied_up(&t);
}

Test(tmpcopyup, copies_the_same_without_the_new_mount_api)
{
	struct lc t;
	lc_init(&t);
	const char *argv[LC_WRAPPER_MAX];
	lc_wrap_enosys(&t, argv, (const char *const[]){NO_NEW_MOUNT_API, NULL});
	assert_copied_up(&t);
}

/* A tmpfs at dest with options (over the image's /data when image_data); the container's
 * `sh -c script` prints want. */
static void assert_tmpfs_view(const char *dest, bool image_data, const char *options,
			      const char *script, const char *want)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	if (image_data)
		image_data_dir(&t);
	lc_add_mount(&t, dest, "tmpfs", "tmpfs", options);
	lc_assert_sh_output(&t, script, want);
}

/* "ro": the copy is made before the tmpfs turns read-only. */
Test(tmpcopyup, a_read_only_tmpfs_still_gets_the_copy)
{
	char want[sizeof(want_listing) + 8];
	snprintf(want, sizeof(want), "%s1\n", want_listing);
	assert_tmpfs_view("/data", true, "tmpcopyup,ro",
			  LIST_DATA "touch /data/x 2>&1 | grep -c 'Read-only'", want);
}

/* mode= / uid= in the options win over the image directory's own. */
Test(tmpcopyup, explicit_mode_and_uid_win)
{
	assert_tmpfs_view("/data", true, "tmpcopyup,mode=705,uid=7,gid=8",
			  "stat -c '%a %u:%g' /data; cat /data/f", "705 7:8\nfrom the image\n");
}

/* A destination the image lacks gets an empty tmpfs, as without the option. */
Test(tmpcopyup, a_missing_directory_gives_an_empty_tmpfs)
{
	assert_tmpfs_view("/fresh", false, "tmpcopyup",
			  "ls -A /fresh; grep -c ' /fresh .* tmpfs ' /proc/self/mountinfo", "1\n");
}

/* The image makes /data a symlink climbing to a host directory: the copy resolves it inside
 * the rootfs (a fresh directory there), never reads or covers the host's. */
Test(tmpcopyup, a_symlinked_destination_stays_in_the_rootfs)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	char *host = ctt_tmpdir(), *secret = ctt_path(host, "secret");
	ctt_write_file(secret, "host only\n");
	char target[4096], *link = lc_rootfs_path(&t, "data");
	snprintf(target, sizeof(target), "../../../../../../../..%s", host);
	cr_assert_eq(symlink(target, link), 0);
	lc_add_mount(&t, "/data", "tmpfs", "tmpfs", "tmpcopyup");
	char *out = lc_sh_output(&t, "ls -A /data; echo end; echo planted > /data/x");
	cr_expect_str_eq(out, "end\n", "the host's directory was copied in");
	char *planted = ctt_path(host, "x");
	cr_expect_not(ctt_exists(planted), "the container wrote into the host's directory");
	cr_expect_str_eq(ctt_read_file(secret), "host only\n");
	lc_assert_nothing_left(&t);
	free(planted), free(out), free(link), free(secret), free(host);
}
