/* Mount verification (docs/design.md, the statmount row): after the rootfs is set up and before
 * the user process runs, the live mount table (libct/fs/fsinfo.h) is compared with what
 * config.json asked for. A difference fails create with one line naming the mount and the
 * difference: `mount #3 "/data": asked read-only, the kernel has it read-write`.
 *
 * The expectations are made in the parent from the plan (ct_mountcheck_plan); the child
 * records, as it mounts, the id of each mount it made (ct_mount_in_root's mounted_id), and
 * at the end looks up what is at each destination now: a mount that is not the one made
 * there (a path swapped for a symlink between resolution and mount, a mount moved or covered
 * by something else) is caught by its id before its flags are compared. */
#ifndef CT_MOUNTCHECK_H
#define CT_MOUNTCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/fs/fsinfo.h"

/* What one mount must look like. Zero fields are not checked. */
struct ct_mount_expect {
	/* What an error calls it (ct_mountcheck_label): `mount #3 "/data"` when what is NULL,
	 * else `masked path "/proc/kcore"`. Made only for an error: a start that passes the
	 * check formats nothing. */
	const char *what;   /* "masked path", "read-only path", "device", "terminal", "root" */
	size_t mount;	    /* with what NULL: the index in config.json's mounts */
	const char *path;   /* in the container, after pivot_root */
	char own_path[128]; /* where path points for a cgroup v1 hierarchy */
	const char *fstype; /* NULL: a bind, whose type is its source's */
	const char *source; /* the filesystem source asked for; NULL: not checked */
	bool check_dev;	    /* a bind: the source's superblock device */
	unsigned dev_major, dev_minor;
	uint64_t attr_set, attr_clear; /* MOUNT_ATTR_* bits that must be set / clear */
	bool check_atime;
	uint64_t atime;		     /* the MOUNT_ATTR__ATIME mode asked for */
	uint64_t rec_set, rec_clear; /* the same for the mount and every mount below it */
	uint64_t propagation;	     /* MS_SHARED, MS_PRIVATE, MS_SLAVE, MS_UNBINDABLE; 0 */
	bool shadowed;		     /* a later mount covers it: only made, not compared */
	bool tree; /* an rbind: the mounts below it come with it (planned, not extra) */
	/* Filled by the child: the id of the mount it made (the reusable mnt_id, which is
	 * unique among live mounts), 0 when nothing was mounted (a masked path that is absent). */
	uint64_t mounted_id;
};

/* First difference between e and the mount m found at its destination, written into buf
 * as `asked read-only, the kernel has it read-write`; 0 when they agree. Pure. below: the
 * mounts under m (for the recursive options), n_below of them. */
int ct_mountcheck_compare(const struct ct_mount_expect *e, const struct ct_mount *m,
			  const struct ct_mount *const *below, size_t n_below, char *buf,
			  size_t size);

/* e's name in errors, into buf: `mount #3 "/data"`, `masked path "/proc/kcore"`. */
const char *ct_mountcheck_label(const struct ct_mount_expect *e, char *buf, size_t size);

/* path itself when it is normal already (ct_path_normalize would give it back unchanged:
 * the common case, found without formatting anything), else its normal form in buf. Pure. */
const char *ct_mountcheck_normal_path(const char *path, char *buf, size_t size);

/* What a check that passed saw, for the debug log. */
struct ct_mountcheck_report {
	enum ct_mounts_backend backend;
	size_t checked;	 /* expectations compared */
	size_t n_extra;	 /* mounts nobody planned (a hook's, say): reported, not refused */
	char extra[256]; /* their targets, ", "-separated, cut to fit */
};

/* Reads the table and checks every expectation that was mounted. rootfd: "/" of the
 * container. Fills *backend with the back end used. */
int ct_mountcheck_run(const struct ct_mount_expect *e, size_t n, int rootfd,
		      struct ct_mountcheck_report *report, struct ct_error *err);

#endif
