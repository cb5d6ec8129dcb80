/* A null device of the test's own over /dev/null (host_null.h). */
#include "tests/lib/host_null.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/lib/testlib.h"

void hn_guard(struct host_null *g, const char *dir_in, unsigned owner)
{
	cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare(CLONE_NEWNS): %s", strerror(errno));
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0,
		     "make the mounts private: %s", strerror(errno));
	g->dir = ctt_path(dir_in, "host-null");
	ctt_mkdir_p(g->dir);
	cr_assert_eq(mount("tmpfs", g->dir, "tmpfs", 0, "mode=0755"), 0, "mount tmpfs on %s: %s",
		     g->dir, strerror(errno));
	char *node = ctt_path(g->dir, "null");
	cr_assert_eq(mknod(node, S_IFCHR | 0666, makedev(1, 3)), 0, "mknod %s: %s", node,
		     strerror(errno));
	cr_assert_eq(chmod(node, 0666), 0, "chmod %s: %s", node, strerror(errno)); /* umask */
	cr_assert_eq(chown(node, owner, owner), 0, "chown %s: %s", node, strerror(errno));
	cr_assert_eq(mount(node, "/dev/null", NULL, MS_BIND, NULL), 0, "bind %s over /dev/null: %s",
		     node, strerror(errno));
	/* the bind keeps the tmpfs: its directory is a plain one again for the cleanup */
	cr_assert_eq(umount2(g->dir, MNT_DETACH), 0, "umount %s: %s", g->dir, strerror(errno));
	free(node);
	/* a ctime read now makes the kernel give the next change a later one */
	cr_assert_eq(stat("/dev/null", &g->was), 0, "stat /dev/null: %s", strerror(errno));
}

void hn_assert_untouched(const struct host_null *g, const char *what)
{
	struct stat now;
	cr_assert_eq(stat("/dev/null", &now), 0, "stat /dev/null: %s", strerror(errno));
	cr_assert(now.st_ino == g->was.st_ino && now.st_rdev == g->was.st_rdev,
		  "%s: /dev/null is no longer the test's null device", what);
	cr_expect_eq(now.st_mode, g->was.st_mode, "%s changed the mode of /dev/null: %o -> %o",
		     what, g->was.st_mode & 07777, now.st_mode & 07777);
	cr_expect(now.st_uid == g->was.st_uid && now.st_gid == g->was.st_gid,
		  "%s changed the owner of /dev/null: %u:%u -> %u:%u", what, g->was.st_uid,
		  g->was.st_gid, now.st_uid, now.st_gid);
	cr_expect(now.st_ctim.tv_sec == g->was.st_ctim.tv_sec &&
			  now.st_ctim.tv_nsec == g->was.st_ctim.tv_nsec,
		  "%s changed /dev/null (its ctime moved: a chown or chmod, maybe to the same "
		  "values)",
		  what);
}
