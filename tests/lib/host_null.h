/* The host's /dev/null as the runtimes a test starts see it: a null device of the test's
 * own, bound over /dev/null in a mount namespace of the test process. A runtime that
 * changes the node it is handed (crun 1.8.1 fchowns its stdio: to the container's root in a
 * user namespace, to -1:-1 otherwise, which still moves the ctime) then changes that one,
 * never the machine's, and the test sees it without other users of the machine moving the
 * same attributes. */
#ifndef CTRUN_TESTS_HOST_NULL_H
#define CTRUN_TESTS_HOST_NULL_H

#include <sys/stat.h>

struct host_null {
	char *dir;	 /* the tmpfs holding the node */
	struct stat was; /* the node as made */
};

/* Makes the node (mode 0666, owned by owner:owner) in a tmpfs at dir_in/host-null and binds
 * it over /dev/null; from here on the test process and its children are in a mount
 * namespace of their own. */
void hn_guard(struct host_null *g, const char *dir_in, unsigned owner);

/* Fails the test when the node's mode, owner or ctime changed, naming what ran (what). */
void hn_assert_untouched(const struct host_null *g, const char *what);

#endif
