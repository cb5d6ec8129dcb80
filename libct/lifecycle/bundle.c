#include "libct/lifecycle/bundle.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "libct/fs/canonical_path.h"
#include "libct/lifecycle/log.h"

int ct_bundle_rootfs(const char *bundle, const struct oci_config *config, char *rootfs,
		     struct ct_error *err)
{
	char path[PATH_MAX];
	const char *root = config->root.path;
	if (root[0] == '/')
		snprintf(path, sizeof(path), "%s", root);
	else
		snprintf(path, sizeof(path), "%s/%s", bundle, root);
	struct stat st;
	if (lstat(path, &st) < 0)
		return ct_error_sys(err, errno, "config.json: .root.path: \"%s\"", path);
	/* an image cannot choose where the rootfs is: the directory itself or nothing */
	if (S_ISLNK(st.st_mode))
		return ct_error_plain(err, ELOOP,
				      "config.json: .root.path: \"%s\" is a symlink: give the "
				      "directory itself",
				      path);
	if (!S_ISDIR(st.st_mode))
		return ct_error_plain(err, ENOTDIR,
				      "config.json: .root.path: \"%s\" is not a directory", path);
	if (rootfs && !ct_canonical_path(path, rootfs))
		return ct_error_sys(err, errno, "config.json: .root.path: \"%s\"", path);
	return 0;
}

void ct_bundle_log_unknown(void *data, const char *file, const char *path)
{
	(void)data;
	ct_log(CT_LOG_DEBUG, "%s: %s: unknown property ignored", file, path);
}
