/* How a new mount namespace is cut from the one it was copied from (linux.rootfsPropagation),
 * before the rootfs is bound and entered, and how the old root leaves it. */
#ifndef CT_PROPAGATION_H
#define CT_PROPAGATION_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "oci/config.h"

/* Slave by default (runc's choice): host mounts may appear, ours never leak out; "rprivate"
 * cuts the namespace off altogether. "rshared" makes every mount of the namespace shared
 * (those in the host's peer groups stay there), so that a bind with "rshared" (Kubernetes'
 * Bidirectional) is a peer of its host source and mounts made in it reach the host; "shared"
 * does so for the root alone, as runc 1.1.5. The mount holding the rootfs is made private,
 * so that the rootfs's bind and what is mounted in it do not. */
int ct_cut_propagation(const struct oci_linux *lx, const char *rootfs, struct ct_error *err);

/* Whether rootfsPropagation keeps the namespace in the host's peer groups. */
bool ct_propagation_shared(const struct oci_linux *lx);

/* pivot_root(".", ".") from the rootfs, then the old root stacked on it detached; shared: the
 * namespace was kept shared, and the old root is made a recursive slave before the detach,
 * so that the detach does not propagate to the host. The caller then goes to "/". */
int ct_pivot_root_here(bool shared, const char *rootfs, struct ct_error *err);

/* --no-pivot: the rootfs (the cwd) moved onto "/"; shared: "/" is made private first, else
 * the move would stack the rootfs, and every mount made in it then, on the host's root. */
int ct_move_root_here(bool shared, struct ct_error *err);

#endif
