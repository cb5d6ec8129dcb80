#ifndef CT_MOUNT_EXPECT_H
#define CT_MOUNT_EXPECT_H

#include <stddef.h>
#include <stdint.h>

struct ct_plan_verify;
struct stat;

/* Where the child stores the id of what it mounted for expectation i; NULL when the check
 * is off (--no-verify-mounts), so that nothing is recorded for nothing. */
uint64_t *ct_expect_id(struct ct_plan_verify *v, size_t i);

/* The child, as it binds the source of expectation i: the device of the source is the one
 * seen now, not the parent's, since an earlier mount of the container may cover the source
 * (a bind of "rootfs/shared" after a tmpfs on /shared is a bind of that tmpfs). No-op when
 * the check is off. */
void ct_expect_bind_source(struct ct_plan_verify *v, size_t i, const struct stat *st);

#endif
