/* Who writes the maps of a new user namespace (user_namespaces(7), "Defining user and group
 * ID mappings"). Root writes /proc/PID/{uid,gid}_map itself and may map any range. A user
 * without privilege may write one line mapping its own id only, and a gid_map only after
 * "deny" went to /proc/PID/setgroups; anything more takes the setuid helpers newuidmap and
 * newgidmap (Debian package "uidmap"), which allow the ranges of /etc/subuid and
 * /etc/subgid. That is runc's rootless scheme. */
#ifndef CT_IDMAP_WRITER_H
#define CT_IDMAP_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"
#include "oci/config.h"

/* The writer for map m of a parent that is privileged (root) or not, whose own id (euid
 * for a uid map, egid for a gid map) is own_id. Pure. */
enum ct_idmap_writer ct_idmap_writer_for(const oci_id_mappings *m, bool privileged,
					 uint32_t own_id);

/* "newuidmap" or "newgidmap". */
const char *ct_idmap_helper_name(bool gid);

/* Writes map (the formatted text of libct/parent/userns.h) of process pid with writer w; gid
 * says which map it is. A helper that is missing or refuses the ranges fails with its
 * name and what it said ("newuidmap: uid range [0-65536) -> [100000-165536) not allowed"). */
int ct_idmap_write_with(pid_t pid, bool gid, enum ct_idmap_writer w, const char *map,
			struct ct_error *err);

#endif
