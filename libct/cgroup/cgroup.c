/* The container's cgroup (libct/cgroup/cgroup.h): planning its directories from the layout,
 * recording and loading them, and the calls that dispatch to the driver. */
#include "libct/cgroup/cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/internal.h"

static int add_dir(struct ct_cgroup *cg, const char *key, char *path, struct ct_error *err)
{
	struct ct_cgroup_dir *grown = realloc(cg->dirs, (cg->n_dirs + 1) * sizeof(*grown));
	if (!grown) {
		free(path);
		return ct_error_sys(err, ENOMEM, "plan cgroup");
	}
	cg->dirs = grown;
	cg->dirs[cg->n_dirs] =
		(struct ct_cgroup_dir){.key = strdup(key), .path = path, .fd = -1, .parent_fd = -1};
	if (!cg->dirs[cg->n_dirs++].key)
		return ct_error_sys(err, ENOMEM, "plan cgroup");
	return 0;
}

static int plan_dir(struct ct_cgroup *cg, const struct ct_cgroup_config *cfg, const char *key,
		    const char *mountpoint, const char *mount_root, const char *caller,
		    struct ct_error *err)
{
	_cleanup_free_ char *path = NULL;
	char *dir;
	if (ct_cgroup_resolve_path(cfg->cgroups_path, caller, cfg->id, &path, err) < 0 ||
	    ct_cgroup_dir_for(mountpoint, mount_root, path, &dir, err) < 0 ||
	    add_dir(cg, key, dir, err) < 0)
		return -1;
	bool relative = !cfg->cgroups_path || cfg->cgroups_path[0] != '/';
	if (relative && ct_cgroup_dir_for(mountpoint, mount_root, caller,
					  &cg->dirs[cg->n_dirs - 1].base, err) < 0)
		return -1;
	return 0;
}

static struct ct_cgroup *cgroup_new(void (*warn)(const char *))
{
	struct ct_cgroup *cg = calloc(1, sizeof(*cg));
	if (cg) {
		cg->unified_fd = -1;
		cg->warn = warn;
	}
	return cg;
}

int ct_cgroup_plan(const struct ct_cgroup_config *cfg, struct ct_cgroup **out, struct ct_error *err)
{
	const struct ct_cgroup_layout *l;
	*out = NULL;
	if (ct_cgroup_layout_get(&l, err) < 0)
		return -1;
	if (l->mode == CT_CGROUP_MODE_NONE && !cfg->systemd)
		return ct_error_plain(err, ENOTSUP,
				      "no cgroup hierarchy is mounted on " CT_CGROUP_ROOT
				      " (use --cgroup-manager disabled to run without one)");
	struct ct_cgroup *cg = cgroup_new(cfg->warn);
	if (!cg)
		return ct_error_sys(err, ENOMEM, "plan cgroup");
	if (cfg->systemd) {
		if (ct_cgroup_systemd_plan(cfg, cg, err) < 0)
			goto fail;
		*out = cg;
		return 0;
	}
	cg->ops = l->mode == CT_CGROUP_MODE_UNIFIED ? &ct_cgroup_v2_ops : &ct_cgroup_v1_ops;
	for (size_t i = 0; i < l->n_v1; i++) {
		const struct ct_cgroup_hierarchy_info *h = &l->v1[i];
		if (plan_dir(cg, cfg, h->key, h->mountpoint, h->mount_root, h->caller_path, err) <
		    0)
			goto fail;
	}
	if (l->unified_mount && plan_dir(cg, cfg, CT_CGROUP_UNIFIED_KEY, l->unified_mount,
					 l->unified_mount_root, l->unified_caller_path, err) < 0)
		goto fail;
	*out = cg;
	return 0;
fail:
	ct_cgroup_free(cg);
	return -1;
}

static const char *map_get(const oci_string_map *m, const char *key)
{
	for (size_t i = 0; i < m->len; i++)
		if (strcmp(m->items[i].key, key) == 0)
			return m->items[i].value;
	return NULL;
}

/* The cgroup2 directory last, as ct_cgroup_plan orders them. */
static void unified_last(struct ct_cgroup *cg)
{
	for (size_t i = 0; i + 1 < cg->n_dirs; i++)
		if (strcmp(cg->dirs[i].key, CT_CGROUP_UNIFIED_KEY) == 0) {
			struct ct_cgroup_dir d = cg->dirs[i];
			memmove(&cg->dirs[i], &cg->dirs[i + 1], (cg->n_dirs - i - 1) * sizeof(d));
			cg->dirs[cg->n_dirs - 1] = d;
			return;
		}
}

/* The unit recorded by a create with the systemd driver: the container's once systemd took
 * the start; before, only if it carries the create's token. A record without a token is
 * from before tokens, when every recorded unit was taken as the container's. */
static int load_systemd_unit(struct ct_cgroup *cg, const struct ct_state *st, struct ct_error *err)
{
	const char *token = st->systemd_unit_token;
	if (!ct_systemd_unit_name_valid(st->systemd_unit))
		return ct_error_plain(err, EINVAL, "state.json: systemd unit \"%s\" is not valid",
				      st->systemd_unit);
	if (token && !ct_systemd_token_valid(token))
		return ct_error_plain(err, EINVAL,
				      "state.json: systemd unit token \"%s\" is not %d hex digits",
				      token, CT_SYSTEMD_TOKEN_LEN);
	struct ct_cgroup_systemd *sd = calloc(1, sizeof(*sd));
	if (!(cg->systemd = sd))
		return ct_error_sys(err, ENOMEM, "load cgroup");
	snprintf(sd->unit.name, sizeof(sd->unit.name), "%s", st->systemd_unit);
	snprintf(sd->token, sizeof(sd->token), "%s", token ? token : "");
	sd->id = st->id;
	sd->user_bus = geteuid() != 0;
	sd->claim = st->systemd_unit_started || !token ? CT_SYSTEMD_OURS : CT_SYSTEMD_IF_MARKED;
	return 0;
}

int ct_cgroup_from_state(const struct ct_state *st, void (*warn)(const char *msg),
			 struct ct_cgroup **out, struct ct_error *err)
{
	const oci_string_map *paths = &st->cgroup_paths;
	*out = NULL;
	if (!paths->len && !st->systemd_unit)
		return 0;
	struct ct_cgroup *cg = cgroup_new(warn);
	if (!cg)
		return ct_error_sys(err, ENOMEM, "load cgroup");
	if (st->systemd_unit && load_systemd_unit(cg, st, err) < 0) {
		ct_cgroup_free(cg);
		return -1;
	}
	bool v1 = false;
	for (size_t i = 0; i < paths->len; i++) {
		const struct oci_kv *kv = &paths->items[i];
		const char *base = map_get(&st->cgroup_bases, kv->key);
		if (kv->value[0] != '/') {
			ct_cgroup_free(cg);
			return ct_error_plain(err, EINVAL,
					      "state.json: cgroup path \"%s\" is not absolute",
					      kv->value);
		}
		char *path = strdup(kv->value);
		if (!path || add_dir(cg, kv->key, path, err) < 0 ||
		    (base && !(cg->dirs[cg->n_dirs - 1].base = strdup(base)))) {
			ct_cgroup_free(cg);
			return ct_error_sys(err, ENOMEM, "load cgroup");
		}
		v1 |= strcmp(kv->key, CT_CGROUP_UNIFIED_KEY) != 0;
	}
	unified_last(cg);
	cg->ops = cg->systemd ? &ct_cgroup_systemd_ops : v1 ? &ct_cgroup_v1_ops : &ct_cgroup_v2_ops;
	*out = cg;
	return 0;
}

static int copy_map(const struct ct_cgroup *cg, bool bases, oci_string_map *out)
{
	out->items = calloc(cg->n_dirs + 1, sizeof(*out->items));
	out->len = 0;
	if (!out->items)
		return -1;
	for (size_t i = 0; i < cg->n_dirs; i++) {
		const char *v = bases ? cg->dirs[i].base : cg->dirs[i].path;
		if (!v)
			continue;
		struct oci_kv *kv = &out->items[out->len++];
		kv->key = strdup(cg->dirs[i].key);
		kv->value = strdup(v);
		if (!kv->key || !kv->value)
			return -1;
	}
	return 0;
}

static int unit_to_state(const struct ct_cgroup *cg, struct ct_state *st)
{
	const struct ct_cgroup_systemd *sd = cg->systemd;
	if (!sd)
		return 0;
	free(st->systemd_unit);
	free(st->systemd_unit_token);
	st->systemd_unit = strdup(sd->unit.name);
	st->systemd_unit_token = sd->token[0] ? strdup(sd->token) : NULL;
	st->systemd_unit_started = sd->claim == CT_SYSTEMD_OURS;
	return st->systemd_unit && (st->systemd_unit_token || !sd->token[0]) ? 0 : -1;
}

int ct_cgroup_to_state(const struct ct_cgroup *cg, struct ct_state *st, struct ct_error *err)
{
	if (copy_map(cg, false, &st->cgroup_paths) < 0 ||
	    copy_map(cg, true, &st->cgroup_bases) < 0 || unit_to_state(cg, st) < 0)
		return ct_error_sys(err, ENOMEM, "record cgroup paths");
	return 0;
}

static bool dir_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 || errno != ENOENT;
}

/* The deepest ancestor of path that exists (the hierarchy's root at least): where the
 * directories create makes for path begin, and where removing them stops. */
static char *existing_ancestor(const char *path)
{
	char *dir = strdup(path);
	for (char *slash; dir && (slash = strrchr(dir, '/')) && slash != dir;) {
		*slash = '\0';
		if (dir_exists(dir))
			break;
	}
	return dir;
}

static int add_kv(oci_string_map *m, const char *key, char *value)
{
	struct oci_kv *kv = &m->items[m->len++];
	kv->key = strdup(key);
	kv->value = value;
	return kv->key && kv->value ? 0 : -1;
}

/* Whether d's leaf is there: 1, 0 (ENOENT), -1 with errno when it cannot be told. Its
 * parent is opened rather than the leaf and the parent looked up by path, each a walk of
 * the long path: the leaf is looked up in it, and the mkdir that follows starts from it. A
 * parent that is not there (ENOENT) leaves the leaf to a lookup by path. */
static int leaf_there(struct ct_cgroup_dir *d, const char *parent)
{
	struct stat st;
	if (parent)
		d->parent_fd = openat(AT_FDCWD, parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->parent_fd >= 0) {
		if (fstatat(d->parent_fd, strrchr(d->path, '/') + 1, &st, 0) == 0)
			return 1;
	} else if ((!parent || errno == ENOENT) && stat(d->path, &st) == 0) {
		return 1;
	}
	return errno == ENOENT ? 0 : -1;
}

/* Records d when it is not there yet, with where removing it stops: its parent when that was
 * open, else the deepest ancestor there. A lookup that fails otherwise than ENOENT (EACCES,
 * ENOTDIR) is an error naming the path: what create is to make cannot be told. */
static int record_unmade(struct ct_cgroup_dir *d, oci_string_map *paths, oci_string_map *bases,
			 struct ct_error *err)
{
	const char *slash = strrchr(d->path, '/');
	_cleanup_free_ char *parent =
		slash && slash != d->path ? strndup(d->path, (size_t)(slash - d->path)) : NULL;
	int there = leaf_there(d, parent);
	if (there < 0)
		return ct_error_sys(err, errno, "record cgroup paths: %s", d->path);
	if (there)
		return 0;
	char *base;
	if (d->parent_fd >= 0) {
		base = parent;
		parent = NULL;
	} else {
		base = existing_ancestor(d->path);
	}
	if (add_kv(paths, d->key, strdup(d->path)) < 0) {
		free(base);
		return ct_error_sys(err, ENOMEM, "record cgroup paths");
	}
	if (add_kv(bases, d->key, base) < 0)
		return ct_error_sys(err, ENOMEM, "record cgroup paths");
	return 0;
}

int ct_cgroup_unmade_to_state(struct ct_cgroup *cg, struct ct_state *st, struct ct_error *err)
{
	oci_string_map *paths = &st->cgroup_paths, *bases = &st->cgroup_bases;
	paths->items = calloc(cg->n_dirs + 1, sizeof(*paths->items));
	bases->items = calloc(cg->n_dirs + 1, sizeof(*bases->items));
	if (!paths->items || !bases->items || unit_to_state(cg, st) < 0)
		return ct_error_sys(err, ENOMEM, "record cgroup paths");
	for (size_t i = 0; i < cg->n_dirs; i++)
		if (record_unmade(&cg->dirs[i], paths, bases, err) < 0)
			return -1;
	return 0;
}

void ct_cgroup_free(struct ct_cgroup *cg)
{
	if (!cg)
		return;
	for (size_t i = 0; i < cg->n_dirs; i++) {
		free(cg->dirs[i].key);
		free(cg->dirs[i].path);
		free(cg->dirs[i].made_from);
		free(cg->dirs[i].base);
		ct_close_now(&cg->dirs[i].fd);
		ct_close_now(&cg->dirs[i].parent_fd);
	}
	free(cg->dirs);
	ct_close_now(&cg->unified_fd);
	free(cg->systemd);
	free(cg);
}

const char *ct_cgroup_late_key(const struct ct_cgroup *cg)
{
	if (cg->ops != &ct_cgroup_v1_ops)
		return NULL;
	for (size_t i = 0; i < cg->n_dirs; i++)
		if (strcmp(cg->dirs[i].key, "memory") == 0)
			return cg->dirs[i].key;
	return NULL;
}

int ct_cgroup_enter(struct ct_cgroup *cg, pid_t pid, bool born_in_unified, const char *skip_key,
		    struct ct_error *err)
{
	return ct_cgroup_enter_others(cg, pid, born_in_unified, skip_key, NULL, err);
}

int ct_cgroup_create_part(struct ct_cgroup *cg, enum ct_cgroup_part part, struct ct_error *err)
{
	if (cg->ops->create(cg, part, err) < 0)
		return -1;
	if (part != CT_CGROUP_REST && ct_cgroup_dir_path(cg, CT_CGROUP_UNIFIED_KEY) &&
	    ct_cgroup_clone_fd(cg, err) < 0) {
		struct ct_error ignored;
		cg->ops->destroy(cg, &ignored);
		return -1;
	}
	return 0;
}

int ct_cgroup_create(struct ct_cgroup *cg, struct ct_error *err)
{
	return ct_cgroup_create_part(cg, CT_CGROUP_ALL, err);
}

int ct_cgroup_apply(struct ct_cgroup *cg, const struct oci_resources *res,
		    enum ct_cgroup_apply_mode mode, struct ct_error *err)
{
	return cg->ops->apply(cg, res, mode, err);
}

int ct_cgroup_freeze(struct ct_cgroup *cg, bool frozen, struct ct_error *err)
{
	return cg->ops->freeze(cg, frozen, err);
}

int ct_cgroup_list_pids(struct ct_cgroup *cg, pid_t **pids, size_t *n, struct ct_error *err)
{
	return cg->ops->list_pids(cg, pids, n, err);
}

int ct_cgroup_stats(struct ct_cgroup *cg, struct ct_cgroup_stats *out, struct ct_error *err)
{
	memset(out, 0, sizeof(*out));
	return cg->ops->stats(cg, out, err);
}

int ct_cgroup_oom_watch(struct ct_cgroup *cg, struct ct_error *err)
{
	return cg->ops->oom_watch(cg, err);
}

int ct_cgroup_kill_all(struct ct_cgroup *cg, int sig, struct ct_error *err)
{
	return cg->ops->kill_all(cg, sig, err);
}

int ct_cgroup_destroy(struct ct_cgroup *cg, struct ct_error *err)
{
	return cg->ops->destroy(cg, err);
}

int ct_cgroup_still_containers(struct ct_cgroup *cg, struct ct_error *err)
{
	return cg->systemd ? ct_cgroup_systemd_still_ours(cg, err) : 1;
}
