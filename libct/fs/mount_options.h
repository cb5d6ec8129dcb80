/* config-linux.md#mount-options: option strings -> mount(2) flags, propagation and the rest
 * as filesystem data. Pure: unit-tested without mounting anything. */
#ifndef CT_MOUNT_OPTIONS_H
#define CT_MOUNT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct ct_mount_flags {
	unsigned long flags;	   /* MS_* for the mount (and the remount of a bind) */
	unsigned long propagation; /* MS_PRIVATE/MS_SHARED/MS_SLAVE/MS_UNBINDABLE (| MS_REC) */
	bool bind, recursive_bind;
	/* The recursive options ("rro", "rnosuid", ...): MOUNT_ATTR_* for mount_setattr() with
	 * AT_RECURSIVE. An atime option puts MOUNT_ATTR__ATIME in rec_clear and its mode in
	 * rec_set, as the kernel asks. */
	unsigned rec_set, rec_clear;
	bool idmap, ridmap; /* "idmap", "ridmap" (recursive): an id-mapped mount */
	bool tmpcopyup;	    /* "tmpcopyup": a tmpfs gets the content of the directory it covers */
	int idmap_tree;	    /* with idmap: the parent's id-mapped detached mount, or -1 */
	char *data;	    /* unknown options joined with ',' ("size=64k,mode=755"), or NULL */
};

/* MS_* per-mount flags as MOUNT_ATTR_* (the atime mode included), as fsmount() and
 * mount_setattr() take them and statmount() reports them. Pure. */
unsigned ct_mount_attr_of(unsigned long ms);

/* The next option of comma-separated mount data, like strtok_r(), except that a comma inside
 * double quotes (SELinux's context="u:r:t:s0:c1,c2") does not split; NULL at the end.
 * Writes NULs into the string. Pure. */
char *ct_mount_data_next(char **cursor);

/* Returns 0, or -1 when out of memory. data must be freed by the caller. */
int ct_mount_flags_parse(char *const *options, size_t n, struct ct_mount_flags *out);

#endif
