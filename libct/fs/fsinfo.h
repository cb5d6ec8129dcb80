/* The mount query layer: the mount table of the caller's mount namespace, as the kernel
 * reports it, in one struct whichever interface answered (docs/design.md "The kernel interfaces
 * that make ctrun itself", the statmount row).
 *
 * Two back ends fill the same struct ct_mount:
 * - statmount()/listmount() (Linux 6.8; ctrun uses them from 6.11, when statmount learnt
 *   to report the mount source): every mount by its 64-bit unique id;
 * - /proc/self/mountinfo, where those calls are missing (ENOSYS on an old kernel, EPERM or
 *   ENOSYS from a seccomp profile) or too old to report every field.
 * Fields are normalised so that both back ends give equal values for the same mount; the
 * only difference is the unique ids, which mountinfo does not show.
 *
 * Everything here reads; nothing mounts. */
#ifndef CT_FSINFO_H
#define CT_FSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"

enum ct_mounts_backend {
	CT_MOUNTS_AUTO,	     /* statmount/listmount, else mountinfo */
	CT_MOUNTS_STATMOUNT, /* statmount/listmount only: fails where they are missing */
	CT_MOUNTS_MOUNTINFO, /* /proc/self/mountinfo only */
};

/* Superblock flags, as statmount's sb_flags reports them (the SB_* values, which equal
 * the MS_* ones of mount(2)). mountinfo shows them as the super options ro, sync, dirsync
 * and lazytime. */
#define CT_SB_RDONLY	  0x00000001U
#define CT_SB_SYNCHRONOUS 0x00000010U
#define CT_SB_DIRSYNC	  0x00000080U
#define CT_SB_LAZYTIME	  0x02000000U

struct ct_mount {
	uint64_t id, parent_id;		   /* unique 64-bit ids; 0 from mountinfo */
	uint32_t mnt_id, parent_mnt_id;	   /* the reusable ids mountinfo shows; always set */
	unsigned int dev_major, dev_minor; /* the superblock's device */
	char *target;			   /* mount point under the caller's root, unescaped */
	char *root;			   /* root of the mount within its filesystem, unescaped */
	bool root_deleted;		   /* root was unlinked; "//deleted" is cut from root */
	char *fstype;			   /* "type", or "type.subtype" (fuse) */
	char *source;			   /* unescaped; "none" when the mount has none */
	/* The filesystem's own options ("size=64k,mode=755"), "" when none: comma separated,
	 * escaped as the kernel shows them (a ',' in a value is "\054"), without ro/rw and
	 * the other superblock flags, which are in sb_flags. */
	char *fs_options;
	/* MOUNT_ATTR_* of this mount: RDONLY, NOSUID, NODEV, NOEXEC, NODIRATIME,
	 * NOSYMFOLLOW, IDMAP, and one atime mode (RELATIME, which is 0, NOATIME or
	 * STRICTATIME): attr & MOUNT_ATTR__ATIME gives it. */
	uint64_t attr;
	uint32_t sb_flags; /* CT_SB_* */
	bool sb_readonly;  /* sb_flags & CT_SB_RDONLY: the filesystem itself is read-only */
	/* MS_SHARED | MS_SLAVE | MS_UNBINDABLE (any of them), or MS_PRIVATE when none. */
	uint64_t propagation;
	uint64_t peer_group;	 /* shared:N, 0 when not shared */
	uint64_t master;	 /* master:N, 0 when not a slave */
	uint64_t propagate_from; /* propagate_from:N; 0 when none or the same as master */
};

struct ct_strblock;

/* The mounts' strings belong to the table (blocks it frees with the table). */
struct ct_mount_table {
	struct ct_mount *v;
	size_t n, cap; /* cap: entries allocated */
	struct ct_strblock *strings;
	enum ct_mounts_backend backend; /* the back end that filled it (never AUTO) */
};

/* Reads the mount table of the caller's mount namespace, as seen from its root, with the
 * back end asked for. AUTO takes statmount/listmount and falls back to mountinfo when they
 * fail with ENOSYS or EPERM or cannot report every field (kernels 6.8 to 6.10); the other
 * errors fail. t is overwritten (not freed); on failure it is empty. */
int ct_mounts_read(struct ct_mount_table *t, enum ct_mounts_backend want, struct ct_error *err);

/* ct_mounts_read() without the strings that cost the kernel most and that a comparison of
 * types, sources, devices, flags and mount points does not need: root and fs_options are ""
 * from statmount (mountinfo, which prints them anyway, still fills them). For the mount
 * check, in every container start. */
int ct_mounts_read_brief(struct ct_mount_table *t, enum ct_mounts_backend want,
			 struct ct_error *err);

/* Parses the text of /proc/PID/mountinfo into t. Pure. An error names the line:
 * `mountinfo line 3: no " - " separator`. Empty text is an empty table. t is overwritten;
 * on failure it is empty. */
int ct_mountinfo_parse(const char *text, struct ct_mount_table *t, struct ct_error *err);

/* The text of /proc/PID/mountinfo (pid 0: /proc/self), malloc'd; NULL with err. Another
 * process's table is seen from its root, as it sees it. */
char *ct_mountinfo_read(pid_t pid, struct ct_error *err);

void ct_mount_table_free(struct ct_mount_table *t);

/* "auto", "statmount", "mountinfo". */
const char *ct_mounts_backend_name(enum ct_mounts_backend b);

/* The mount visible at target: of mounts stacked there, the top one. NULL when none. */
const struct ct_mount *ct_mount_find_by_target(const struct ct_mount_table *t, const char *target);
/* The mount whose reusable id (mnt_id, as statx STATX_MNT_ID gives) is id. NULL when none. */
const struct ct_mount *ct_mount_find_by_id(const struct ct_mount_table *t, uint64_t id);

/* Whether a lookup of path (absolute, normalised: ct_path_normalize) from the root of the
 * table ends on m, as far as the table tells: m is at path, nothing is mounted on top of it,
 * and the walk down from the root passes through m's parents without meeting another
 * mount on the way (one on a directory above a mount point, or stacked on it). Pure. False
 * is no proof of the opposite: path may lead to m through a symlink, which the table does
 * not show; ask the kernel then. */
bool ct_mount_reached_by(const struct ct_mount_table *t, const struct ct_mount *m,
			 const char *path);

/* The id of the mount fd is on (fd may be O_PATH). unique: the 64-bit unique id (statx
 * STATX_MNT_ID_UNIQUE, Linux 6.8), else an error; !unique: the reusable id (statx
 * STATX_MNT_ID, 5.8, or /proc/self/fdinfo before that). */
int ct_fd_mount_id(int fd, bool unique, uint64_t *id, struct ct_error *err);

/* The mount of t that fd is on, found by the kind of id t's back end knows. NULL with err
 * set when the id cannot be read or t has no such mount (ENOENT). */
const struct ct_mount *ct_mount_find_by_fd(const struct ct_mount_table *t, int fd,
					   struct ct_error *err);

#endif
