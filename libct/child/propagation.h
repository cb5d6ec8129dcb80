/* How a new mount namespace is cut from the one it was copied from (linux.rootfsPropagation),
 * before the rootfs is bound and entered, and how the old root leaves it. */
#ifndef CT_PROPAGATION_H
#define CT_PROPAGATION_H

#include "libct/base/error.h"
#include "oci/config.h"

/* Slave by default (runc's choice): host mounts may appear, ours never leak out; "rprivate"
 * cuts the namespace off altogether. "shared" and "rshared" keep the namespace's mounts in
 * the host's peer groups, so that a bind with "rshared" (Kubernetes' Bidirectional) is a peer
 * of its host source and mounts made in it reach the host; the mount holding the rootfs is
 * made private, so that the rootfs's bind and what is mounted in it do not. */
int ct_cut_propagation(const struct oci_linux *lx, const char *rootfs, struct ct_error *err);

/* Detaches the old root (old_root: a directory fd of it, opened before pivot_root), made a
 * recursive slave first so that the detach does not propagate to the host's peers of its
 * mounts. Leaves the working directory wherever the old root was: the caller goes to "/". */
int ct_detach_old_root(int old_root, struct ct_error *err);

#endif
