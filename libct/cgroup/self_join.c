/* A child joining its v1 hierarchies itself (libct/cgroup/cgroup.h, ct_cgroup_self_join):
 * "0" written to `tasks` by the thread that moves, through files the parent opened. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/internal.h"

void ct_cgroup_self_join_close(struct ct_cgroup_self_join *j)
{
	for (size_t i = 0; i < j->n; i++)
		ct_close_now(&j->fds[i]);
	j->n = 0;
}

/* Whether d is among the v1 directories whose key is `key` (match) or is not (!match). */
static bool selected(const struct ct_cgroup *cg, const struct ct_cgroup_dir *d, const char *key,
		     bool match)
{
	return cg->ops == &ct_cgroup_v1_ops && strcmp(d->key, CT_CGROUP_UNIFIED_KEY) != 0 &&
	       (key && strcmp(d->key, key) == 0) == match;
}

/* `tasks` of the selected directories. */
static int open_where(const struct ct_cgroup *cg, const char *key, bool match,
		      struct ct_cgroup_self_join *j, struct ct_error *err)
{
	j->n = 0;
	for (size_t i = 0; i < cg->n_dirs; i++) {
		const struct ct_cgroup_dir *d = &cg->dirs[i];
		if (!selected(cg, d, key, match))
			continue;
		if (j->n == CT_CGROUP_SELF_JOIN_MAX) {
			ct_cgroup_self_join_close(j);
			return ct_error_plain(err, E2BIG, "more than %d cgroup v1 hierarchies",
					      CT_CGROUP_SELF_JOIN_MAX);
		}
		char path[4096];
		int fd = ct_cg_open_at(d->fd, d->path, "tasks", O_WRONLY | O_CLOEXEC, path,
				       sizeof(path));
		if (fd < 0) {
			int saved = errno;
			ct_cgroup_self_join_close(j);
			return ct_error_sys(err, saved, "open \"%s\"", path);
		}
		j->keys[j->n] = d->key;
		j->fds[j->n++] = fd;
	}
	return 0;
}

int ct_cgroup_self_join_adopt(const struct ct_cgroup *cg, const char *skip_key, const int *fds,
			      size_t n, struct ct_cgroup_self_join *j, struct ct_error *err)
{
	size_t want = 0;
	for (size_t i = 0; i < cg->n_dirs; i++)
		want += selected(cg, &cg->dirs[i], skip_key, false);
	j->n = 0;
	if (n != want || n > CT_CGROUP_SELF_JOIN_MAX) {
		for (size_t i = 0; i < n; i++)
			close(fds[i]);
		return ct_error_plain(err, EPROTO,
				      "cgroup v1 `tasks` files: %zu passed for %zu hierarchies", n,
				      want);
	}
	for (size_t i = 0; i < cg->n_dirs; i++)
		if (selected(cg, &cg->dirs[i], skip_key, false)) {
			j->keys[j->n] = cg->dirs[i].key;
			j->fds[j->n] = fds[j->n];
			j->n++;
		}
	return 0;
}

int ct_cgroup_self_join_open(const struct ct_cgroup *cg, const char *skip_key,
			     struct ct_cgroup_self_join *j, struct ct_error *err)
{
	return open_where(cg, skip_key, false, j, err);
}

int ct_cgroup_self_join_open_one(const struct ct_cgroup *cg, const char *key,
				 struct ct_cgroup_self_join *j, struct ct_error *err)
{
	return open_where(cg, key, true, j, err);
}

int ct_cgroup_self_join(struct ct_cgroup_self_join *j, struct ct_error *err)
{
	int rc = 0;
	for (size_t i = 0; i < j->n; i++) {
		if (rc == 0 && ct_cg_write_fd(j->fds[i], "tasks", "0", err) < 0)
			rc = ct_error_prefix(err, "join the cgroup v1 hierarchy \"%s\"",
					     j->keys[i]);
		ct_close_now(&j->fds[i]);
	}
	j->n = 0;
	return rc;
}

/* Whether the parent leaves key to the child. */
static bool joined_by_child(const struct ct_cgroup_self_join *j, const char *key)
{
	for (size_t i = 0; j && i < j->n; i++)
		if (strcmp(j->keys[i], key) == 0)
			return true;
	return false;
}

int ct_cgroup_enter_others(struct ct_cgroup *cg, pid_t pid, bool born_in_unified,
			   const char *skip_key, const struct ct_cgroup_self_join *j,
			   struct ct_error *err)
{
	for (size_t i = 0; i < cg->n_dirs; i++) {
		const char *key = cg->dirs[i].key;
		if ((born_in_unified && strcmp(key, CT_CGROUP_UNIFIED_KEY) == 0) ||
		    (skip_key && strcmp(key, skip_key) == 0) || joined_by_child(j, key))
			continue;
		if (ct_cgroup_add_pid_to(cg, key, pid, err) < 0)
			return -1;
	}
	return 0;
}
