/* The container's user namespace (config-linux.md#user-namespace-mappings): the parent
 * checks and formats .linux.uidMappings/.gidMappings before the clone and writes them to
 * /proc/<pid>/{uid,gid}_map after it; the child waits for that (libct/plan/sync.h) and then
 * becomes root inside. */
#ifndef CT_USERNS_H
#define CT_USERNS_H

#include <stddef.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "oci/config.h"

/* The most lines a uid_map or gid_map takes (user_namespaces(7), since Linux 4.15). */
#define CT_IDMAP_MAX_LINES 340

/* Refuses what the kernel would refuse, naming the JSON path (field is where m sits,
 * "linux.uidMappings", "mounts[2].gidMappings"): a size of 0, a range past 2^32, two ranges that
 * overlap inside or on the host, more than CT_IDMAP_MAX_LINES ranges. Pure. */
int ct_idmap_check(const oci_id_mappings *m, const char *field, struct ct_error *err);

/* The map file's text, "containerID hostID size\n" per range, malloc'd; NULL without
 * memory. Pure. */
char *ct_idmap_format(const oci_id_mappings *m);

/* A user namespace with these maps (formatted), for MOUNT_ATTR_IDMAP: made by a child that
 * exits once its namespace is open. Returns the O_RDONLY fd of the namespace, or -1. */
int ct_userns_open(const char *uid_map, const char *gid_map, struct ct_error *err);

/* Writes the formatted maps (either may be NULL: not written) of process pid. */
int ct_idmap_write(pid_t pid, const char *uid_map, const char *gid_map, struct ct_error *err);

#endif
