/* The child's records into the plan's mount expectations (libct/verify/mountcheck.h), made
 * as it mounts. */
#include "libct/plan/mount_expect.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "libct/plan/plan.h"

uint64_t *ct_expect_id(struct ct_plan_verify *v, size_t i)
{
	return v->expect ? &v->expect[i].mounted_id : NULL;
}

void ct_expect_bind_source(struct ct_plan_verify *v, size_t i, const struct stat *st)
{
	if (!v->expect)
		return;
	v->expect[i].check_dev = true;
	v->expect[i].dev_major = major(st->st_dev);
	v->expect[i].dev_minor = minor(st->st_dev);
}
