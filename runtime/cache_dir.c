/* ctrun's cache directory (runtime/cache_dir.h).
 *
 * Root: /run/ctrun-cache. /run is a tmpfs on the hosts containerd and Podman run on, so a
 * cache read costs no disk I/O, and a reboot empties it, which loses nothing: an entry is
 * only valid for the binary (build id) that wrote it. /var/cache would persist programs no
 * later ctrun can use. It sits beside the default root /run/ctrun, not in it.
 * Any other user: $XDG_RUNTIME_DIR/ctrun-cache, beside the default rootless root: the user's
 * own tmpfs (0700, removed at logout), as runc keeps a user's state there; ~/.cache may be a
 * network home shared by hosts. Without XDG_RUNTIME_DIR: no cache (compiled every time). */
#include "runtime/cache_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

const char *ct_cache_dir(void)
{
	static char buf[4096];
	if (geteuid() == 0)
		return "/run/ctrun-cache";
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	if (!xdg || xdg[0] != '/')
		return NULL;
	int n = snprintf(buf, sizeof(buf), "%s/ctrun-cache", xdg);
	return n > 0 && (size_t)n < sizeof(buf) ? buf : NULL;
}
