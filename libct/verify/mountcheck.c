#include "libct/verify/mountcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/child/devices.h"
#include "libct/fs/mountfd.h"
#include "libct/base/pathbuf.h"
#include "libct/fs/safefs.h"
#include "libct/plan/spawn.h"
#include "libct/base/syscalls.h"

/* The per-mount flags a config can ask for, with the words a difference is told in. */
static const struct {
	uint64_t bit;
	const char *on, *off;
} attr_words[] = {
	{MOUNT_ATTR_RDONLY, "read-only", "read-write"},
	{MOUNT_ATTR_NOSUID, "nosuid", "suid"},
	{MOUNT_ATTR_NODEV, "nodev", "dev"},
	{MOUNT_ATTR_NOEXEC, "noexec", "exec"},
	{MOUNT_ATTR_NODIRATIME, "nodiratime", "diratime"},
	{MOUNT_ATTR_NOSYMFOLLOW, "nosymfollow", "symfollow"},
};

static const char *atime_word(uint64_t mode)
{
	return mode == MOUNT_ATTR_NOATIME	? "noatime"
	       : mode == MOUNT_ATTR_STRICTATIME ? "strictatime"
						: "relatime";
}

static const char *propagation_word(uint64_t p)
{
	return p & MS_SHARED	   ? "shared"
	       : p & MS_SLAVE	   ? "slave"
	       : p & MS_UNBINDABLE ? "unbindable"
				   : "private";
}

/* A slave with no master is private: that is what "slave" gives a mount of its own. */
static bool propagation_matches(uint64_t want, uint64_t have)
{
	switch (want) {
	case MS_SHARED:
		return have & MS_SHARED;
	case MS_SLAVE:
		return (have & MS_SLAVE) || have == MS_PRIVATE;
	case MS_UNBINDABLE:
		return have & MS_UNBINDABLE;
	default:
		return have == MS_PRIVATE;
	}
}

/* recursive: m is the mount checked or one below it, named in the message. */
static int attr_difference(uint64_t set, uint64_t clear, const struct ct_mount *m, bool recursive,
			   char *buf, size_t size)
{
	for (size_t i = 0; i < sizeof(attr_words) / sizeof(attr_words[0]); i++) {
		uint64_t bit = attr_words[i].bit;
		bool want_on = set & bit, want_off = clear & bit, on = m->attr & bit;
		if ((want_on && !on) || (want_off && on)) {
			snprintf(buf, size, "asked %s%s%s%s, the kernel has it %s",
				 want_on ? attr_words[i].on : attr_words[i].off,
				 recursive ? " recursively (\"" : "", recursive ? m->target : "",
				 recursive ? "\")" : "", on ? attr_words[i].on : attr_words[i].off);
			return -1;
		}
	}
	return 0;
}

int ct_mountcheck_compare(const struct ct_mount_expect *e, const struct ct_mount *m,
			  const struct ct_mount *const *below, size_t n_below, char *buf,
			  size_t size)
{
	if (e->fstype && strcmp(e->fstype, m->fstype) != 0)
		return snprintf(buf, size, "asked type %s, the kernel has %s", e->fstype,
				m->fstype),
		       -1;
	if (e->source && strcmp(e->source, m->source) != 0)
		return snprintf(buf, size, "asked source \"%s\", the kernel has \"%s\"", e->source,
				m->source),
		       -1;
	if (e->check_dev && (e->dev_major != m->dev_major || e->dev_minor != m->dev_minor))
		return snprintf(buf, size,
				"asked a bind of device %u:%u, the kernel has device %u:%u",
				e->dev_major, e->dev_minor, m->dev_major, m->dev_minor),
		       -1;
	if (attr_difference(e->attr_set, e->attr_clear, m, false, buf, size) < 0)
		return -1;
	uint64_t atime = m->attr & MOUNT_ATTR__ATIME;
	if (e->check_atime && atime != e->atime)
		return snprintf(buf, size, "asked %s, the kernel has %s", atime_word(e->atime),
				atime_word(atime)),
		       -1;
	if (e->propagation && !propagation_matches(e->propagation, m->propagation))
		return snprintf(buf, size, "asked %s propagation, the kernel has %s",
				propagation_word(e->propagation), propagation_word(m->propagation)),
		       -1;
	for (size_t i = 0; i <= n_below; i++) {
		const struct ct_mount *sub = i == 0 ? m : below[i - 1];
		if (attr_difference(e->rec_set, e->rec_clear, sub, true, buf, size) < 0)
			return -1;
	}
	return 0;
}

const char *ct_mountcheck_label(const struct ct_mount_expect *e, char *buf, size_t size)
{
	if (e->what)
		snprintf(buf, size, "%s \"%s\"", e->what, e->path);
	else
		snprintf(buf, size, "mount #%zu \"%s\"", e->mount, e->path);
	return buf;
}

const char *ct_mountcheck_normal_path(const char *path, char *buf, size_t size)
{
	bool normal = ct_path_is_normal(path);
	/* as ct_path_normalize, which leaves out what does not fit with room to spare */
	if (normal && strlen(path) + 2 < size)
		return path;
	ct_path_normalize(path, buf, size);
	return buf;
}

/* ---- expectations, in the parent ---- */

#define PER_MOUNT (MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC)

static void expect_flags(struct ct_mount_expect *e, const struct ct_mount_flags *f)
{
	uint64_t asked = ct_mount_attr_of(f->flags);
	e->attr_set = asked & ~(uint64_t)MOUNT_ATTR__ATIME;
	e->attr_clear = PER_MOUNT & ~asked;
	e->check_atime = f->flags & (MS_NOATIME | MS_STRICTATIME | MS_RELATIME);
	e->atime = asked & MOUNT_ATTR__ATIME;
	e->rec_set = f->rec_set & ~(unsigned)MOUNT_ATTR__ATIME;
	e->rec_clear = f->rec_clear & ~(unsigned)MOUNT_ATTR__ATIME;
	e->propagation = f->propagation & ~(unsigned long)MS_REC;
}

/* In a user namespace a bind keeps the locked flags of its source (mountfd.h): those may be
 * set whatever the config asked. */
static void allow_source_flags(const char *source, struct ct_mount_expect *e)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, source, O_PATH | O_CLOEXEC);
	if (fd >= 0)
		e->attr_clear &= ~(uint64_t)ct_mount_attr_of(ct_mount_lockable_flags(fd));
}

static void expect_planned(const struct ct_init_plan *plan, size_t i, struct ct_mount_expect *e)
{
	const struct ct_planned_mount *m = &plan->mounts[i];
	e->mount = i;
	e->path = m->destination;
	expect_flags(e, &m->flags);
	e->tree = m->flags.recursive_bind; /* an rbind brings its submounts */
	if (m->flags.bind) {
		/* without options a bind keeps its source's flags: nothing to ask */
		if (!m->flags.flags)
			e->attr_set = e->attr_clear = 0;
		if (plan->userns)
			allow_source_flags(m->bind_source, e);
		/* its device comes from the child, which stats the source as it binds it
		 * (ct_expect_bind_source): only then is a source covered by an earlier
		 * mount seen as it really is */
	} else if (m->is_cgroup) {
		bool v1 = !plan->cgroup2_host && strcmp(m->type, "cgroup2") != 0;
		e->fstype = v1 ? "tmpfs" : "cgroup2";
	} else {
		e->fstype = m->type;
		e->source = m->source ? m->source : m->type;
	}
}

static void expect_hierarchies(const struct ct_init_plan *plan, size_t i, struct ct_mount_expect *e)
{
	const struct ct_planned_mount *m = &plan->mounts[i];
	for (size_t h = 0; h <= plan->n_cgroup_v1; h++, e++) {
		bool unified = h == plan->n_cgroup_v1;
		if (unified && !plan->have_cgroup2_unified)
			break;
		const char *dir = unified ? "unified" : plan->cgroup_v1[h].dir;
		size_t n = ct_buf_put(e->own_path, sizeof(e->own_path), 0, m->destination);
		n = ct_buf_put(e->own_path, sizeof(e->own_path), n, "/");
		ct_buf_put(e->own_path, sizeof(e->own_path), n, dir);
		e->mount = i;
		e->path = e->own_path;
		expect_flags(e, &m->flags);
		e->fstype = unified ? "cgroup2" : "cgroup";
	}
}

static size_t hierarchies_per_mount(const struct ct_init_plan *plan)
{
	return plan->n_cgroup_v1 + (plan->have_cgroup2_unified ? 1 : 0);
}

static void expect_paths(struct ct_mount_expect *e, const oci_strings *paths, const char *what)
{
	for (size_t i = 0; i < paths->len; i++, e++) {
		e->what = what;
		e->path = paths->items[i];
		e->attr_set = MOUNT_ATTR_RDONLY;
		e->tree = true; /* a read-only path is an rbind of itself */
	}
}

/* A node bound from the host where mknod is refused: a plain bind, its device recorded by the
 * child (ct_expect_bind_source); not made, nothing to check. */
static void expect_device_binds(struct ct_init_plan *plan)
{
	for (size_t i = 0; i < plan->expect_masked - plan->expect_devices; i++) {
		struct ct_mount_expect *e = &plan->expect[plan->expect_devices + i];
		e->path = ct_devices_path(plan, i);
		e->what = "device";
	}
}

/* A "cgroup" mount on a v1 host: a tmpfs with one mount per hierarchy. */
static bool has_hierarchies(const struct ct_init_plan *plan, size_t i)
{
	return plan->mounts[i].is_cgroup && strcmp(plan->expect[i].fstype, "tmpfs") == 0;
}

/* When the child makes expectation k: a cgroup v1 hierarchy right after its own "cgroup"
 * mount, though it is listed after all the mounts; everything else in list order. */
static size_t made_order(const struct ct_init_plan *plan, size_t k)
{
	if (k < plan->n_mounts || k >= plan->expect_devices)
		return 2 * k;
	for (size_t i = 0; i < plan->n_mounts; i++) {
		size_t first = plan->mounts[i].expect_hierarchies;
		if (has_hierarchies(plan, i) && k >= first &&
		    k < first + hierarchies_per_mount(plan))
			return 2 * i + 1;
	}
	return 2 * k;
}

/* An expectation's path, normalised once for the pairwise comparison. */
struct shadow_key {
	size_t order;	  /* made_order: it walks the mounts */
	const char *path; /* normalised; NULL when the expectation has none */
	char *copy;	  /* path, when it had to be normalised */
};

/* A mount made later at a hides one made at b. The root never does: it is made read-only
 * in place, not mounted. */
static bool covers(const struct shadow_key *a, const struct shadow_key *b)
{
	return strcmp(a->path, "/") != 0 && ct_path_within(b->path, a->path);
}

static void shadow_keys_free(struct shadow_key *k, size_t n)
{
	for (size_t i = 0; k && i < n; i++)
		free(k[i].copy);
	free(k);
}

static struct shadow_key *shadow_keys_make(const struct ct_init_plan *plan)
{
	struct shadow_key *k = calloc(plan->n_expect, sizeof(*k));
	for (size_t i = 0; k && i < plan->n_expect; i++) {
		char buf[PATH_MAX];
		const char *path = plan->expect[i].path;
		k[i].order = made_order(plan, i);
		if (!path)
			continue;
		k[i].path = ct_mountcheck_normal_path(path, buf, sizeof(buf));
		if (k[i].path == buf && !(k[i].path = k[i].copy = strdup(buf))) {
			shadow_keys_free(k, plan->n_expect);
			return NULL;
		}
	}
	return k;
}

/* An expectation a later one covers is not checked. */
static int mark_shadowed(struct ct_init_plan *plan, struct ct_error *err)
{
	struct shadow_key *k = shadow_keys_make(plan);
	size_t n = plan->n_expect;
	if (!k)
		return ct_error_set(err, ENOMEM, "plan the mount check");
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && k[i].path && !plan->expect[i].shadowed; j++)
			if (k[j].path && k[j].order > k[i].order)
				plan->expect[i].shadowed = covers(&k[j], &k[i]);
	shadow_keys_free(k, n);
	return 0;
}

int ct_mountcheck_plan(struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_config *c = plan->config;
	const struct oci_linux *lx = &c->linux_;
	size_t n_sub = 0;
	for (size_t i = 0; i < plan->n_mounts; i++)
		if (plan->mounts[i].is_cgroup && !plan->cgroup2_host)
			n_sub += hierarchies_per_mount(plan);
	plan->expect_devices = plan->n_mounts + n_sub;
	plan->expect_masked = plan->expect_devices + ct_devices_count(plan);
	plan->expect_readonly = plan->expect_masked + lx->masked_paths.len;
	plan->expect_console = plan->expect_readonly + lx->readonly_paths.len;
	plan->expect_root = plan->expect_console + 1;
	plan->n_expect = plan->expect_root + 1;
	plan->expect = calloc(plan->n_expect, sizeof(*plan->expect));
	if (!plan->expect)
		return ct_error_set(err, ENOMEM, "plan the mount check");
	size_t sub = plan->n_mounts;
	for (size_t i = 0; i < plan->n_mounts; i++) {
		expect_planned(plan, i, &plan->expect[i]);
		plan->mounts[i].expect_hierarchies = sub;
		if (has_hierarchies(plan, i)) {
			expect_hierarchies(plan, i, &plan->expect[sub]);
			sub += hierarchies_per_mount(plan);
		}
	}
	expect_device_binds(plan);
	expect_paths(&plan->expect[plan->expect_masked], &lx->masked_paths, "masked path");
	expect_paths(&plan->expect[plan->expect_readonly], &lx->readonly_paths, "read-only path");
	plan->expect[plan->expect_console].what = "terminal";
	plan->expect[plan->expect_console].path = "/dev/console";
	struct ct_mount_expect *root = &plan->expect[plan->expect_root];
	root->what = "root";
	root->path = "/";
	root->attr_set = c->root.readonly ? MOUNT_ATTR_RDONLY : 0;
	return mark_shadowed(plan, err);
}

/* ---- the check, in the child ---- */

uint64_t *ct_expect_id(struct ct_init_plan *plan, size_t i)
{
	return plan->expect ? &plan->expect[i].mounted_id : NULL;
}

void ct_expect_bind_source(struct ct_init_plan *plan, size_t i, const struct stat *st)
{
	if (!plan->expect)
		return;
	plan->expect[i].check_dev = true;
	plan->expect[i].dev_major = major(st->st_dev);
	plan->expect[i].dev_minor = minor(st->st_dev);
}

static bool made_by_ctrun(const struct ct_mount_expect *e, size_t n, uint64_t mnt_id)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].mounted_id == mnt_id)
			return true;
	return false;
}

/* Whether v is in the tree of mounts under top as top was made: ctrun's own later mounts
 * there (and what is under them) were not reached by top's recursive options and have
 * expectations of their own. A mount only hidden under top's path is not below it. */
static bool below_as_made(const struct ct_mount_table *t, const struct ct_mount *v,
			  const struct ct_mount *top, const struct ct_mount_expect *all, size_t n)
{
	for (size_t depth = 0; v && depth <= t->n; depth++) {
		if (v == top)
			return depth > 0;
		if (made_by_ctrun(all, n, v->mnt_id))
			return false;
		v = ct_mount_find_by_id(t, v->parent_mnt_id);
	}
	return false;
}

/* The mounts below m, into below (t->n entries). */
static size_t mounts_below(const struct ct_mount_table *t, const struct ct_mount *m,
			   const struct ct_mount_expect *all, size_t n_all,
			   const struct ct_mount **below)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++)
		if (below_as_made(t, &t->v[i], m, all, n_all))
			below[n++] = &t->v[i];
	return n;
}

/* Compares the mount found for e (seen: with the device stat() gives) with e. */
static int compare_found(const struct ct_mount_expect *e, const struct ct_mount_expect *all,
			 size_t n_all, const struct ct_mount_table *t, const struct ct_mount *m,
			 const struct ct_mount *seen, const struct ct_mount **below,
			 struct ct_error *err)
{
	size_t n_below = e->rec_set | e->rec_clear ? mounts_below(t, m, all, n_all, below) : 0;
	char diff[CT_ERROR_MSG_MAX / 2], label[CT_ERROR_MSG_MAX / 4];
	if (ct_mountcheck_compare(e, seen, below, n_below, diff, sizeof(diff)) < 0)
		return ct_error_set_plain(err, EIO, "%s: %s",
					  ct_mountcheck_label(e, label, sizeof(label)), diff);
	return 0;
}

/* The mount made for e, when the table alone proves that e's path leads to it; NULL when
 * the kernel has to be asked. A bind's device is always asked: stat() may see another one
 * than the superblock's that the table gives (a btrfs subvolume). */
static const struct ct_mount *found_in_table(const struct ct_mount_expect *e,
					     const struct ct_mount_table *t)
{
	const struct ct_mount *m = ct_mount_find_by_id(t, e->mounted_id);
	char buf[PATH_MAX];
	if (!m || e->check_dev)
		return NULL;
	/* a ".." the path takes after a symlink leads where the text does not say: only a path
	 * that is normal as it stands is proved by the table */
	const char *path = ct_mountcheck_normal_path(e->path, buf, sizeof(buf));
	if (path != e->path)
		return NULL;
	return ct_mount_reached_by(t, m, path) ? m : NULL;
}

/* The kernel's answer: what e's path leads to now, by a lookup in the root. */
static int check_by_lookup(const struct ct_mount_expect *e, const struct ct_mount_expect *all,
			   size_t n_all, const struct ct_mount_table *t, int rootfd,
			   const struct ct_mount **below, struct ct_error *err)
{
	_cleanup_close_ int fd = ct_root_open(rootfd, e->path, false);
	int saved = errno;
	char label[CT_ERROR_MSG_MAX / 4];
	uint64_t now;
	ct_mountcheck_label(e, label, sizeof(label));
	if (fd < 0)
		return ct_error_set(err, saved, "%s: the path no longer leads to a mount", label);
	if (ct_fd_mount_id(fd, false, &now, err) < 0)
		return ct_error_prefix(err, "%s", label);
	if (now != e->mounted_id)
		return ct_error_set_plain(err, EIO,
					  "%s: the mount at its destination (id %" PRIu64
					  ") is not the one made there (id %" PRIu64 ")",
					  label, now, e->mounted_id);
	const struct ct_mount *m = ct_mount_find_by_id(t, now);
	if (!m)
		return ct_error_set_plain(err, EIO, "%s: mount %" PRIu64 " is not in the table",
					  label, now);
	/* A bind's device as stat() sees it, as for its source: a btrfs subvolume's differs
	 * from the superblock's that the table gives. */
	struct ct_mount seen = *m;
	struct stat st;
	if (e->check_dev && fstat(fd, &st) == 0) {
		seen.dev_major = major(st.st_dev);
		seen.dev_minor = minor(st.st_dev);
	}
	return compare_found(e, all, n_all, t, m, &seen, below, err);
}

/* The mount at e's path must be the one made there (not one that covers it or that a
 * swapped path led to) and as asked. Mostly the table shows that; else the kernel says. */
static int check_one(const struct ct_mount_expect *e, const struct ct_mount_expect *all,
		     size_t n_all, const struct ct_mount_table *t, int rootfd,
		     const struct ct_mount **below, struct ct_error *err)
{
	const struct ct_mount *m = found_in_table(e, t);
	if (m)
		return compare_found(e, all, n_all, t, m, m, below, err);
	return check_by_lookup(e, all, n_all, t, rootfd, below, err);
}

/* Made by ctrun (its id recorded), the root, or below an rbind of the plan. */
static bool accounted(const struct ct_mount *m, const struct ct_mount_expect *e, size_t n,
		      const struct ct_mount_table *t)
{
	if (strcmp(m->target, "/") == 0 || made_by_ctrun(e, n, m->mnt_id))
		return true; /* all of a plain start's: no rbind tree is looked up */
	for (size_t i = 0; i < n; i++) {
		const struct ct_mount *tree =
			e[i].tree ? ct_mount_find_by_id(t, e[i].mounted_id) : NULL;
		size_t len = tree ? strlen(tree->target) : 0;
		if (tree && strncmp(m->target, tree->target, len) == 0 && m->target[len] == '/')
			return true;
	}
	return false;
}

static void report_extras(const struct ct_mount_expect *e, size_t n, const struct ct_mount_table *t,
			  struct ct_mountcheck_report *r)
{
	for (size_t i = 0; i < t->n; i++) {
		if (accounted(&t->v[i], e, n, t))
			continue;
		size_t len = strlen(r->extra);
		snprintf(r->extra + len, sizeof(r->extra) - len, "%s%s", r->n_extra ? ", " : "",
			 t->v[i].target);
		r->n_extra++;
	}
}

int ct_mountcheck_run(const struct ct_mount_expect *e, size_t n, int rootfd,
		      struct ct_mountcheck_report *report, struct ct_error *err)
{
	struct ct_mount_table t;
	*report = (struct ct_mountcheck_report){0};
	if (ct_mounts_read_brief(&t, CT_MOUNTS_AUTO, err) < 0)
		return ct_error_prefix(err, "verify the mounts");
	report->backend = t.backend;
	const struct ct_mount **below = calloc(t.n + 1, sizeof(*below));
	int rc = below ? 0 : ct_error_set(err, ENOMEM, "verify the mounts");
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (e[i].mounted_id && !e[i].shadowed) {
			rc = check_one(&e[i], e, n, &t, rootfd, below, err);
			report->checked++;
		}
	if (rc == 0)
		report_extras(e, n, &t, report);
	free(below);
	ct_mount_table_free(&t);
	return rc;
}
