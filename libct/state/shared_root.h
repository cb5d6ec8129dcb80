/* The rootfs's bind in a shared mount namespace (inherited, or joined by path): the init
 * makes its mounts there, in a private bind of the rootfs (libct/child/rootfs.h), which outlives
 * the container in that namespace. create records which mount it is and in which namespace
 * (the file "shared-root" of the container directory); delete detaches it, with every mount
 * made in it, where it can still be reached: in delete's own namespace, or by the joined
 * namespace's path. runc and crun leave these mounts behind.
 *
 * The record: "<unique 0|1> <mount id> <namespace dev> <namespace ino>\n<joined path>\n",
 * the id the unique one (statx STATX_MNT_ID_UNIQUE) where the kernel has it. */
#ifndef CT_SHARED_ROOT_H
#define CT_SHARED_ROOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/state/state.h"
#include "oci/config.h"

struct ct_shared_root {
	bool unique;
	uint64_t mount_id;
	dev_t ns_dev;
	ino_t ns_ino;
	char joined[PATH_MAX]; /* "" for an inherited namespace */
};

/* The record's text (its length, as snprintf), and back: -1 for anything not written so.
 * Pure. */
int ct_shared_root_format(const struct ct_shared_root *r, char *buf, size_t size);
int ct_shared_root_parse(const char *text, struct ct_shared_root *r);

/* The mount namespace a config shares with its caller when it has no new one: the path of
 * a joined one, NULL for a new or an inherited one. Pure. */
const char *ct_shared_root_joined(const struct oci_config *c);

/* What identifies the bind whose root is root (the init's ROOT_BIND, libct/plan/sync.h) and its
 * mount namespace: the one at joined_path, or for an inherited one (NULL) the caller's own. */
int ct_shared_root_describe(int root, const char *joined_path, struct ct_shared_root *r,
			    struct ct_error *err);

/* Detaches r's mount at rootfs, when it is still the top one there, in the caller's own
 * namespace or by the joined one's path: 0 also when the namespace is gone or out of reach. */
int ct_shared_root_detach(const struct ct_shared_root *r, const char *rootfs, struct ct_error *err);

/* ct_shared_root_describe, kept in the container directory for delete. */
int ct_shared_root_record(const struct ct_container_dir *d, int root, const char *joined_path,
			  struct ct_error *err);

/* ct_shared_root_detach of what was recorded: 0 also when nothing was. */
int ct_shared_root_release(const struct ct_container_dir *d, const char *rootfs,
			   struct ct_error *err);

#endif
