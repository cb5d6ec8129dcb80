/* ctrun's cache directory (libct/lifecycle/cache_dir.h).
 *
 * The host's root: /run/ctrun-cache. /run is a tmpfs on the hosts containerd and Podman run
 * on, so a cache read costs no disk I/O, and a reboot empties it, which loses nothing: an
 * entry is only valid for the binary (build id) that wrote it. /var/cache would persist
 * programs no later ctrun can use. It sits beside the default root /run/ctrun, not in it.
 * Any other user, and root of a user namespace (rootless Podman runs ctrun in one, where
 * /run is not its own): $XDG_RUNTIME_DIR/ctrun-cache, beside the default rootless root: the
 * user's own tmpfs (0700, removed at logout); ~/.cache may be a network home shared by hosts.
 * Without XDG_RUNTIME_DIR there: no cache (compiled every time). */
#include "libct/lifecycle/cache_dir.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

/* euid 0 in the initial user namespace, whose uid_map maps every id to itself. */
static bool host_root(void)
{
	if (geteuid() != 0)
		return false;
	char map[128];
	int fd = openat(AT_FDCWD, "/proc/self/uid_map", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, map, sizeof(map) - 1) : -1;
	ct_close_now(&fd);
	if (n <= 0)
		return true; /* no /proc to tell: taken for the host, as the default root is */
	map[n] = '\0';
	unsigned long inside, outside, count;
	return sscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3 && inside == 0 &&
	       outside == 0 && count == 4294967295UL;
}

static const char *find_cache_dir(void)
{
	static char buf[4096];
	if (host_root())
		return "/run/ctrun-cache";
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	if (!xdg || xdg[0] != '/')
		return NULL;
	int n = snprintf(buf, sizeof(buf), "%s/ctrun-cache", xdg);
	return n > 0 && (size_t)n < sizeof(buf) ? buf : NULL;
}

/* Found once: a command asks at its start (the view of the binary) and again for the
 * seccomp cache, and its user, user namespace and environment do not change between. */
const char *ct_cache_dir(void)
{
	static const char *dir;
	static bool found;
	if (!found) {
		dir = find_cache_dir();
		found = true;
	}
	return dir;
}
