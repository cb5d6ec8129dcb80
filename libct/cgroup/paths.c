/* linux.cgroupsPath -> a path in each hierarchy (libct/cgroup/cgroup.h). Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/cgroup/cgroup.h"

bool ct_cgroup_path_is_systemd(const char *p)
{
	if (!p || *p == '/')
		return false;
	const char *c1 = strchr(p, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	return c2 && !strchr(c2 + 1, ':');
}

/* Appends the components of rel to buf (which holds a normalised absolute path), refusing
 * "." and "..": a cgroupsPath never climbs out of where it is put. */
static int append_components(char *buf, size_t size, const char *rel, const char *shown,
			     struct ct_error *err)
{
	for (const char *p = rel; *p;) {
		size_t len = strcspn(p, "/");
		if ((len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '.'))
			return ct_error_set_plain(err, EINVAL,
						  "config.json: .linux.cgroupsPath: \"%s\": \".\" "
						  "and \"..\" components are not allowed",
						  shown);
		if (len) {
			size_t n = strlen(buf);
			if (n + len + 2 > size)
				return ct_error_set_plain(
					err, ENAMETOOLONG,
					"config.json: .linux.cgroupsPath: \"%s\": too long", shown);
			snprintf(buf + n, size - n, "%s%.*s", n > 1 ? "/" : "", (int)len, p);
		}
		p += len;
		while (*p == '/')
			p++;
	}
	return 0;
}

int ct_cgroup_resolve_path(const char *cgroups_path, const char *caller_path, const char *id,
			   char **out, struct ct_error *err)
{
	const char *given = cgroups_path ? cgroups_path : "";
	if (ct_cgroup_path_is_systemd(given))
		return ct_error_set_plain(err, ENOTSUP,
					  "config.json: .linux.cgroupsPath: \"%s\": the systemd "
					  "form slice:prefix:name needs the systemd cgroup manager, "
					  "which is not supported yet",
					  given);
	char buf[4096] = "/";
	if (*given != '/' && append_components(buf, sizeof(buf), caller_path, given, err) < 0)
		return -1;
	if (*given) {
		if (append_components(buf, sizeof(buf), given, given, err) < 0)
			return -1;
	} else {
		char def[1200];
		snprintf(def, sizeof(def), "ctrun/%s", id);
		if (append_components(buf, sizeof(buf), def, def, err) < 0)
			return -1;
	}
	if (strcmp(buf, "/") == 0)
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .linux.cgroupsPath: \"%s\": the root of "
					  "the hierarchy cannot be a container's cgroup",
					  given);
	*out = strdup(buf);
	return *out ? 0 : ct_error_set(err, ENOMEM, "cgroup path");
}

int ct_cgroup_dir_for(const char *mountpoint, const char *mount_root, const char *path,
		      char **out, struct ct_error *err)
{
	size_t rlen = strlen(mount_root);
	if (strcmp(mount_root, "/") == 0)
		rlen = 0;
	else if (strncmp(path, mount_root, rlen) != 0 || (path[rlen] && path[rlen] != '/'))
		return ct_error_set_plain(err, EXDEV,
					  "cgroup \"%s\" is outside the hierarchy mounted on "
					  "\"%s\" (from \"%s\")",
					  path, mountpoint, mount_root);
	const char *rest = strcmp(path + rlen, "/") == 0 ? "" : path + rlen;
	if (asprintf(out, "%s%s", mountpoint, rest) < 0) {
		*out = NULL;
		return ct_error_set(err, ENOMEM, "cgroup path");
	}
	return 0;
}
