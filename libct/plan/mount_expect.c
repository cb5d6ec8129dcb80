/* The child's records into the plan's mount expectations (libct/verify/mountcheck.h), made
 * as it mounts. */
#include "libct/plan/mount_expect.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "libct/plan/plan.h"

uint64_t *ct_expect_id(struct ct_init_plan *plan, size_t i)
{
	return plan->expect ? &plan->expect[i].mounted_id : NULL;
}

void ct_expect_bind_source(struct ct_init_plan *plan, size_t i, const struct stat *st)
{
	if (!plan->expect)
		return;
	plan->expect[i].check_dev = true;
	plan->expect[i].dev_major = major(st->st_dev);
	plan->expect[i].dev_minor = minor(st->st_dev);
}
