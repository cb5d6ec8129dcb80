/* The directories of a container's cgroup (struct ct_cgroup_dir), found by hierarchy key or
 * by controller, for the front (cgroup.c) and the drivers alike. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/internal.h"

/* Whether controller is one of key's comma-separated names. */
bool ct_cg_key_has(const char *key, const char *controller)
{
	size_t len = strlen(controller);
	for (const char *p = key; *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && strncmp(p, controller, len) == 0)
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static const struct ct_cgroup_dir *dir_of(const struct ct_cgroup *cg, const char *key)
{
	for (size_t i = 0; i < cg->n_dirs; i++)
		if (strcmp(cg->dirs[i].key, key) == 0)
			return &cg->dirs[i];
	return NULL;
}

const char *ct_cgroup_dir_path(const struct ct_cgroup *cg, const char *key)
{
	const struct ct_cgroup_dir *d = dir_of(cg, key);
	return d ? d->path : NULL;
}

const struct ct_cgroup_dir *ct_cg_controller(const struct ct_cgroup *cg, const char *controller)
{
	if (cg->ops->unified)
		return dir_of(cg, CT_CGROUP_UNIFIED_KEY);
	for (size_t i = 0; i < cg->n_dirs; i++)
		if (ct_cg_key_has(cg->dirs[i].key, controller))
			return &cg->dirs[i];
	return NULL;
}

const char *ct_cg_controller_dir(const struct ct_cgroup *cg, const char *controller)
{
	const struct ct_cgroup_dir *d = ct_cg_controller(cg, controller);
	return d ? d->path : NULL;
}

int ct_cgroup_clone_fd(struct ct_cgroup *cg, struct ct_error *err)
{
	if (cg->unified_fd >= 0)
		return cg->unified_fd;
	const struct ct_cgroup_dir *d = dir_of(cg, CT_CGROUP_UNIFIED_KEY);
	if (!d)
		return -1;
	const char *dir = d->path;
	cg->unified_fd = d->fd >= 0 ? openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
				    : openat(AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->unified_fd < 0)
		return ct_error_sys(err, errno, "open cgroup \"%s\"", dir);
	return cg->unified_fd;
}

int ct_cgroup_add_pid_to(struct ct_cgroup *cg, const char *key, pid_t pid, struct ct_error *err)
{
	const struct ct_cgroup_dir *d = dir_of(cg, key);
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", pid);
	if (!d)
		return ct_error_plain(err, ENOENT, "the cgroup has no \"%s\" hierarchy", key);
	/* by path: this join is rare (where a seccomp filter could refuse the init its own),
	 * and the path in the syscall is what a trace (test_killed_create) matches */
	return ct_cg_write(d->path, "cgroup.procs", buf, err);
}

bool ct_cgroup_dir_in_part(const struct ct_cgroup_dir *d, enum ct_cgroup_part part)
{
	if (part == CT_CGROUP_ALL)
		return true;
	bool early = strcmp(d->key, CT_CGROUP_UNIFIED_KEY) == 0 || strcmp(d->key, "memory") == 0;
	return early == (part == CT_CGROUP_EARLY);
}

/* A sub-cgroup path: relative (a leading '/' is the cgroup's own root, as runc joins it, and
 * "/" alone the cgroup itself), no empty name, no "." or ".." name. */
static bool sub_path_ok(const char *sub)
{
	if (!*sub)
		return false;
	while (*sub == '/')
		sub++;
	for (const char *p = sub; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && strncmp(p, "..", 2) == 0))
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

static int descend_dir(struct ct_cgroup_dir *d, const char *sub, struct ct_error *err)
{
	while (*sub == '/')
		sub++;
	if (!*sub)
		return 0; /* "/": where it is */
	char *path = NULL;
	if (asprintf(&path, "%s/%s", d->path, sub) < 0)
		return ct_error_sys(err, ENOMEM, "sub-cgroup path");
	struct stat st;
	int e = stat(path, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (e) {
		ct_error_sys(err, e, "sub-cgroup \"%s\" (%s)", sub, path);
		free(path);
		return -1;
	}
	free(d->path);
	d->path = path;
	ct_close_now(&d->fd);
	return 0;
}

/* Whether key's hierarchy holds one of the comma-separated controllers of list. */
static bool key_has_any(const char *key, const char *list)
{
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n && n < sizeof(name) && ct_cg_key_has(key, name))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

int ct_cgroup_descend(struct ct_cgroup *cg, const char *controllers, const char *sub,
		      struct ct_error *err)
{
	if (!sub_path_ok(sub))
		return ct_error_plain(err, EINVAL,
				      "sub-cgroup \"%s\": a path below the container's cgroup "
				      "(no \"..\", \".\" or empty name)",
				      sub);
	bool found = false;
	for (size_t i = 0; i < cg->n_dirs; i++) {
		struct ct_cgroup_dir *d = &cg->dirs[i];
		if (controllers && !cg->ops->unified && !key_has_any(d->key, controllers))
			continue;
		/* co-mounted controllers (cpu,cpuacct) name one hierarchy: it descends once, and
		 * a second --cgroup for it would stack its SUB on the first's */
		if (d->descended)
			return ct_error_plain(err, EINVAL, "the \"%s\" hierarchy is named twice",
					      d->key);
		if (descend_dir(d, sub, err) < 0)
			return -1;
		d->descended = found = true;
	}
	if (!found)
		return ct_error_plain(err, ENOENT, "the container's cgroup has no \"%s\" hierarchy",
				      controllers);
	ct_close_now(&cg->unified_fd); /* CLONE_INTO_CGROUP's is opened again, below */
	return 0;
}
