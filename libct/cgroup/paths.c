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

/* Appends the components of rel to buf (which holds a normalised absolute path of *len
 * characters), refusing "." and "..": a cgroupsPath never climbs out of where it is put. */
static int append_components(char *buf, size_t size, size_t *len, const char *rel,
			     const char *shown, struct ct_error *err)
{
	for (const char *p = rel; *p;) {
		size_t clen = strcspn(p, "/");
		if ((clen == 1 && p[0] == '.') || (clen == 2 && p[0] == '.' && p[1] == '.'))
			return ct_error_plain(err, EINVAL,
					      "config.json: .linux.cgroupsPath: \"%s\": \".\" "
					      "and \"..\" components are not allowed",
					      shown);
		if (clen) {
			if (*len + clen + 2 > size)
				return ct_error_plain(
					err, ENAMETOOLONG,
					"config.json: .linux.cgroupsPath: \"%s\": too long", shown);
			if (*len > 1)
				buf[(*len)++] = '/';
			memcpy(buf + *len, p, clen);
			*len += clen;
			buf[*len] = '\0';
		}
		p += clen;
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
		return ct_error_plain(err, ENOTSUP,
				      "config.json: .linux.cgroupsPath: \"%s\": the systemd "
				      "form slice:prefix:name is the systemd cgroup driver's "
				      "(--systemd-cgroup)",
				      given);
	char buf[4096] = "/";
	size_t len = 1;
	if (*given != '/' && append_components(buf, sizeof(buf), &len, caller_path, given, err) < 0)
		return -1;
	if (*given) {
		if (append_components(buf, sizeof(buf), &len, given, given, err) < 0)
			return -1;
	} else {
		char def[1200];
		snprintf(def, sizeof(def), "ctrun/%s", id);
		if (append_components(buf, sizeof(buf), &len, def, def, err) < 0)
			return -1;
	}
	if (strcmp(buf, "/") == 0)
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.cgroupsPath: \"%s\": the root of "
				      "the hierarchy cannot be a container's cgroup",
				      given);
	*out = strdup(buf);
	return *out ? 0 : ct_error_sys(err, ENOMEM, "cgroup path");
}

int ct_cgroup_dir_for(const char *mountpoint, const char *mount_root, const char *path, char **out,
		      struct ct_error *err)
{
	size_t rlen = strlen(mount_root);
	if (strcmp(mount_root, "/") == 0)
		rlen = 0;
	else if (strncmp(path, mount_root, rlen) != 0 || (path[rlen] && path[rlen] != '/'))
		return ct_error_plain(err, EXDEV,
				      "cgroup \"%s\" is outside the hierarchy mounted on "
				      "\"%s\" (from \"%s\")",
				      path, mountpoint, mount_root);
	const char *rest = strcmp(path + rlen, "/") == 0 ? "" : path + rlen;
	/* joined by hand: one per hierarchy of every container, asprintf's stdio costs more */
	size_t mlen = strlen(mountpoint), restlen = strlen(rest);
	if (!(*out = malloc(mlen + restlen + 1)))
		return ct_error_sys(err, ENOMEM, "cgroup path");
	memcpy(*out, mountpoint, mlen);
	memcpy(*out + mlen, rest, restlen + 1);
	return 0;
}
