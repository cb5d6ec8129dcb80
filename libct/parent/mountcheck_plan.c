/* The mount check's expectations (libct/verify/mountcheck.h), built by the parent from the
 * plan: what each mount, cgroup hierarchy, device bind, masked and read-only path, the
 * console and the root should look like once the child made them. */
#include "libct/parent/mountcheck_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "libct/base/cleanup.h"
#include "libct/base/pathbuf.h"
#include "libct/base/syscalls.h"
#include "libct/child/devices.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/safefs.h"
#include "libct/verify/mountcheck.h"

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
	/* the recursive options are applied last, to the mount itself too ("rro" on a tmpfs) */
	e->attr_set &= ~(uint64_t)e->rec_clear;
	e->attr_clear &= ~(uint64_t)e->rec_set;
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
	const struct ct_planned_mount *m = &plan->rootfs.mounts[i];
	e->mount = i;
	e->path = m->destination;
	expect_flags(e, &m->flags);
	e->tree = m->flags.recursive_bind; /* an rbind brings its submounts */
	if (m->flags.bind) {
		/* without options a bind keeps its source's flags: nothing to ask */
		if (!m->flags.flags)
			e->attr_set = e->attr_clear = 0;
		if (plan->ns.userns)
			allow_source_flags(m->bind_source, e);
		/* its device comes from the child, which stats the source as it binds it
		 * (ct_expect_bind_source): only then is a source covered by an earlier
		 * mount seen as it really is */
	} else if (m->is_cgroup) {
		bool v1 = !plan->rootfs.cgroup2_host && strcmp(m->type, "cgroup2") != 0;
		e->fstype = v1 ? "tmpfs" : "cgroup2";
	} else {
		e->fstype = m->type;
		e->source = m->source ? m->source : m->type;
	}
}

static void expect_hierarchies(const struct ct_init_plan *plan, size_t i, struct ct_mount_expect *e)
{
	const struct ct_planned_mount *m = &plan->rootfs.mounts[i];
	for (size_t h = 0; h <= plan->rootfs.n_cgroup_v1; h++, e++) {
		bool unified = h == plan->rootfs.n_cgroup_v1;
		if (unified && !plan->rootfs.have_cgroup2_unified)
			break;
		const char *dir = unified ? "unified" : plan->rootfs.cgroup_v1[h].dir;
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
	return plan->rootfs.n_cgroup_v1 + (plan->rootfs.have_cgroup2_unified ? 1 : 0);
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
	for (size_t i = 0; i < plan->verify.expect_masked - plan->verify.expect_devices; i++) {
		struct ct_mount_expect *e = &plan->verify.expect[plan->verify.expect_devices + i];
		e->path = ct_devices_path(&plan->rootfs, i);
		e->what = "device";
	}
}

/* A "cgroup" mount on a v1 host: a tmpfs with one mount per hierarchy. */
static bool has_hierarchies(const struct ct_init_plan *plan, size_t i)
{
	return plan->rootfs.mounts[i].is_cgroup &&
	       strcmp(plan->verify.expect[i].fstype, "tmpfs") == 0;
}

/* When the child makes expectation k: a cgroup v1 hierarchy right after its own "cgroup"
 * mount, though it is listed after all the mounts; everything else in list order. */
static size_t made_order(const struct ct_init_plan *plan, size_t k)
{
	if (k < plan->rootfs.n_mounts || k >= plan->verify.expect_devices)
		return 2 * k;
	for (size_t i = 0; i < plan->rootfs.n_mounts; i++) {
		size_t first = plan->rootfs.mounts[i].expect_hierarchies;
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
	struct shadow_key *k = calloc(plan->verify.n_expect, sizeof(*k));
	for (size_t i = 0; k && i < plan->verify.n_expect; i++) {
		char buf[PATH_MAX];
		const char *path = plan->verify.expect[i].path;
		k[i].order = made_order(plan, i);
		if (!path)
			continue;
		k[i].path = ct_mountcheck_normal_path(path, buf, sizeof(buf));
		if (k[i].path == buf && !(k[i].path = k[i].copy = strdup(buf))) {
			shadow_keys_free(k, plan->verify.n_expect);
			return NULL;
		}
	}
	return k;
}

/* An expectation a later one covers is not checked. */
static int mark_shadowed(struct ct_init_plan *plan, struct ct_error *err)
{
	struct shadow_key *k = shadow_keys_make(plan);
	size_t n = plan->verify.n_expect;
	if (!k)
		return ct_error_sys(err, ENOMEM, "plan the mount check");
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n && k[i].path && !plan->verify.expect[i].shadowed; j++)
			if (k[j].path && k[j].order > k[i].order)
				plan->verify.expect[i].shadowed = covers(&k[j], &k[i]);
	shadow_keys_free(k, n);
	return 0;
}

int ct_mountcheck_plan(struct ct_init_plan *plan, struct ct_error *err)
{
	const struct oci_config *c = plan->config;
	const struct oci_linux *lx = &c->linux_;
	size_t n_sub = 0;
	for (size_t i = 0; i < plan->rootfs.n_mounts; i++)
		if (plan->rootfs.mounts[i].is_cgroup && !plan->rootfs.cgroup2_host)
			n_sub += hierarchies_per_mount(plan);
	plan->verify.expect_devices = plan->rootfs.n_mounts + n_sub;
	plan->verify.expect_masked = plan->verify.expect_devices + ct_devices_count(&plan->rootfs);
	plan->verify.expect_readonly = plan->verify.expect_masked + lx->masked_paths.len;
	plan->verify.expect_console = plan->verify.expect_readonly + lx->readonly_paths.len;
	plan->verify.expect_root = plan->verify.expect_console + 1;
	plan->verify.n_expect = plan->verify.expect_root + 1;
	plan->verify.expect = calloc(plan->verify.n_expect, sizeof(*plan->verify.expect));
	if (!plan->verify.expect)
		return ct_error_sys(err, ENOMEM, "plan the mount check");
	size_t sub = plan->rootfs.n_mounts;
	for (size_t i = 0; i < plan->rootfs.n_mounts; i++) {
		expect_planned(plan, i, &plan->verify.expect[i]);
		plan->rootfs.mounts[i].expect_hierarchies = sub;
		if (has_hierarchies(plan, i)) {
			expect_hierarchies(plan, i, &plan->verify.expect[sub]);
			sub += hierarchies_per_mount(plan);
		}
	}
	expect_device_binds(plan);
	expect_paths(&plan->verify.expect[plan->verify.expect_masked], &lx->masked_paths,
		     "masked path");
	expect_paths(&plan->verify.expect[plan->verify.expect_readonly], &lx->readonly_paths,
		     "read-only path");
	plan->verify.expect[plan->verify.expect_console].what = "terminal";
	plan->verify.expect[plan->verify.expect_console].path = "/dev/console";
	struct ct_mount_expect *root = &plan->verify.expect[plan->verify.expect_root];
	root->what = "root";
	root->path = "/";
	root->attr_set = c->root.readonly ? MOUNT_ATTR_RDONLY : 0;
	return mark_shadowed(plan, err);
}
