/* What the v1 and v2 drivers do alike (libct/cgroup/internal.h): making and removing the
 * directories, listing and signalling their processes, reading numbers, freeing stats. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/internal.h"

/* Removes what ct_cg_make_dirs made of part (after a failure). */
static void unmake_dirs(struct ct_cgroup *cg, enum ct_cgroup_part part)
{
	for (size_t i = cg->n_dirs; i-- > 0;) {
		struct ct_cgroup_dir *d = &cg->dirs[i];
		if (!ct_cgroup_dir_in_part(d, part))
			continue;
		ct_close_now(&d->fd);
		ct_close_now(&d->parent_fd);
		if (!d->made_from)
			continue;
		ct_cg_rmdir_up(d->path, d->made_from);
		free(d->made_from);
		d->made_from = NULL;
	}
}

/* After the REST part failed, with the EARLY one made and the init perhaps in it: the
 * container's cgroup is the EARLY directories alone, which destroy removes once the init is
 * killed. The REST ones are not the container's: the one that failed may be another's. */
static void drop_rest(struct ct_cgroup *cg)
{
	size_t kept = 0;
	for (size_t i = 0; i < cg->n_dirs; i++) {
		struct ct_cgroup_dir *d = &cg->dirs[i];
		if (!ct_cgroup_dir_in_part(d, CT_CGROUP_REST)) {
			cg->dirs[kept++] = *d;
			continue;
		}
		free(d->key);
		free(d->path);
		free(d->base);
	}
	cg->n_dirs = kept;
}

/* A cgroup that was there already and holds processes belongs to someone else (another
 * container of the same id under another --root): joining it would put limits on them, and
 * delete would kill them. */
static int refuse_populated(const struct ct_cgroup_dir *d, struct ct_error *err)
{
	if (d->made_from)
		return 0;
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	if (ct_cg_collect_pids(d->path, &pids, &n, err) < 0)
		return -1;
	if (!n)
		return 0;
	return ct_error_plain(err, EBUSY,
			      "cgroup \"%s\" exists and has processes (another container's?)",
			      d->path);
}

/* An absolute cgroupsPath ("/libpod_parent/libpod-ID", containerd's "/<ns>/<ID>"): the
 * parents made here go with the container once empty, as a relative path's do, so that
 * nothing of ours is left; the ones that were there stay. */
static int anchor_made_parents(struct ct_cgroup_dir *d, struct ct_error *err)
{
	if (d->base || !d->made_from)
		return 0;
	const char *slash = strrchr(d->made_from, '/');
	d->base = strndup(d->made_from, slash ? (size_t)(slash - d->made_from) : 0);
	return d->base ? 0 : ct_error_sys(err, ENOMEM, "cgroup \"%s\"", d->path);
}

int ct_cg_make_dirs(struct ct_cgroup *cg, enum ct_cgroup_part part,
		    int (*prepare)(struct ct_cgroup *cg, struct ct_cgroup_dir *d,
				   struct ct_error *err),
		    struct ct_error *err)
{
	for (size_t i = 0; i < cg->n_dirs; i++) {
		struct ct_cgroup_dir *d = &cg->dirs[i];
		if (!ct_cgroup_dir_in_part(d, part))
			continue;
		if (ct_cg_mkdir_leaf(d->path, &d->parent_fd, &d->fd, &d->made_from, err) < 0 ||
		    refuse_populated(d, err) < 0 || anchor_made_parents(d, err) < 0 ||
		    (prepare && prepare(cg, d, err) < 0)) {
			unmake_dirs(cg, part);
			if (part == CT_CGROUP_REST)
				drop_rest(cg);
			return -1;
		}
	}
	return 0;
}

/* The parents that are the container's too, once its own directory is gone. */
static void remove_parents(const struct ct_cgroup_dir *d)
{
	if (d->made_from)
		ct_cg_rmdir_up(d->path, d->made_from);
	else if (d->base)
		ct_cg_rmdir_parents(d->path, d->base);
}

int ct_cg_remove_dirs(struct ct_cgroup *cg, struct ct_error *err)
{
	int rc = 0;
	for (size_t i = cg->n_dirs; i-- > 0;) {
		struct ct_cgroup_dir *d = &cg->dirs[i];
		if (ct_cg_remove_tree(d->path, rc < 0 ? NULL : err) < 0)
			rc = -1;
		else
			remove_parents(d);
	}
	return rc;
}

bool ct_cg_remove_empty_dirs(struct ct_cgroup *cg)
{
	for (size_t i = cg->n_dirs; i-- > 0;) {
		struct ct_cgroup_dir *d = &cg->dirs[i];
		if (rmdir(d->path) < 0 && errno != ENOENT)
			return false;
		remove_parents(d);
	}
	return true;
}

int ct_cg_list_all_pids(struct ct_cgroup *cg, pid_t **pids, size_t *n, struct ct_error *err)
{
	*pids = NULL;
	*n = 0;
	for (size_t i = 0; i < cg->n_dirs; i++)
		if (ct_cg_collect_pids(cg->dirs[i].path, pids, n, err) < 0) {
			free(*pids);
			*pids = NULL;
			*n = 0;
			return -1;
		}
	ct_cg_pids_sort(*pids, n);
	return 0;
}

int ct_cg_signal_frozen(struct ct_cgroup *cg, int sig,
			int (*freeze)(struct ct_cgroup *cg, bool frozen, struct ct_error *err),
			struct ct_error *err)
{
	if (freeze && freeze(cg, true, err) < 0)
		return -1;
	_cleanup_free_ pid_t *pids = NULL;
	size_t n;
	int rc = ct_cg_list_all_pids(cg, &pids, &n, err);
	if (rc == 0)
		ct_cg_signal_pids(pids, n, sig);
	struct ct_error thaw_err;
	if (freeze && freeze(cg, false, rc < 0 ? &thaw_err : err) < 0)
		rc = -1;
	return rc;
}

int ct_cg_kill_v2(struct ct_cgroup *cg, struct ct_error *err)
{
	const char *dir = ct_cgroup_dir_path(cg, CT_CGROUP_UNIFIED_KEY);
	if (!dir || !ct_cg_has(dir, "cgroup.kill"))
		return 0;
	return ct_cg_write(dir, "cgroup.kill", "1", err) < 0 ? -1 : 1;
}

bool ct_cg_read_u64(const char *dir, const char *file, uint64_t *out)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	unsigned long long v;
	if (!text)
		return false;
	if (strncmp(text, "max", 3) == 0) {
		*out = 0;
		return true;
	}
	if (sscanf(text, "%llu", &v) != 1)
		return false;
	*out = v;
	return true;
}

int ct_cg_read_u64_list(const char *dir, const char *file, uint64_t **out, size_t *n)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	for (char *p = text, *end; p && *p; p = end) {
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p)
			break;
		uint64_t *grown = realloc(*out, (*n + 1) * sizeof(*grown));
		if (!grown)
			return -1;
		*out = grown;
		grown[(*n)++] = v;
	}
	return 0;
}

int ct_cg_read_raw_stats(const char *dir, const char *file, struct ct_cgroup_stats *st)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	if (!text)
		return 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char key[128];
		unsigned long long v;
		if (sscanf(line, "%127s %llu", key, &v) != 2)
			continue;
		size_t n = st->memory.n_raw;
		char **keys = realloc(st->memory.raw_keys, (n + 1) * sizeof(*keys));
		if (!keys)
			return -1;
		st->memory.raw_keys = keys;
		uint64_t *values = realloc(st->memory.raw_values, (n + 1) * sizeof(*values));
		if (!values)
			return -1;
		st->memory.raw_values = values;
		if (!(keys[n] = strdup(key)))
			return -1;
		values[n] = v;
		st->memory.n_raw++;
	}
	return 0;
}

void ct_cgroup_stats_free(struct ct_cgroup_stats *st)
{
	free(st->cpu.percpu_ns);
	free(st->cpu.percpu_kernel_ns);
	free(st->cpu.percpu_user_ns);
	free(st->cpuset.cpus);
	free(st->cpuset.mems);
	for (size_t i = 0; i < st->memory.n_raw; i++)
		free(st->memory.raw_keys[i]);
	free(st->memory.raw_keys);
	free(st->memory.raw_values);
	for (size_t i = 0; i < CT_BLKIO_LISTS; i++)
		free(st->blkio[i].entries);
	free(st->hugetlb);
	memset(st, 0, sizeof(*st));
}
