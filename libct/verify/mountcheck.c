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
#include "libct/base/pathbuf.h"
#include "libct/base/syscalls.h"
#include "libct/fs/mountfd.h"
#include "libct/fs/safefs.h"

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
