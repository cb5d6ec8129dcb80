/* hugetlb statistics, one entry per huge page size the kernel has, as runc reads them: v1
 * hugetlb.<size>.usage_in_bytes, .max_usage_in_bytes and .failcnt; cgroup2 .current and the
 * "max" count of .events (how often the limit refused a page). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/hugetlb_sizes.h"
#include "libct/cgroup/internal.h"

#define MAX_SIZES 16

/* false when the size has no usage file here (no entry then, as with runc) */
static bool read_v1(const char *dir, struct ct_cgroup_hugetlb_entry *e)
{
	char file[64];
	snprintf(file, sizeof(file), "hugetlb.%s.usage_in_bytes", e->page_size);
	if (!ct_cg_read_u64(dir, file, &e->usage))
		return false;
	snprintf(file, sizeof(file), "hugetlb.%s.max_usage_in_bytes", e->page_size);
	ct_cg_read_u64(dir, file, &e->max_usage);
	snprintf(file, sizeof(file), "hugetlb.%s.failcnt", e->page_size);
	ct_cg_read_u64(dir, file, &e->failcnt);
	return true;
}

static bool read_v2(const char *dir, struct ct_cgroup_hugetlb_entry *e)
{
	char file[64];
	unsigned long long v;
	snprintf(file, sizeof(file), "hugetlb.%s.current", e->page_size);
	if (!ct_cg_read_u64(dir, file, &e->usage))
		return false;
	snprintf(file, sizeof(file), "hugetlb.%s.events", e->page_size);
	_cleanup_free_ char *events = ct_cg_read(dir, file);
	if (events && ct_cg_keyed_value(events, "max", &v))
		e->failcnt = v;
	return true;
}

int ct_cg_hugetlb_stats(const char *dir, bool unified, struct ct_cgroup_stats *st)
{
	char names[MAX_SIZES][CT_HUGETLB_NAME_MAX];
	size_t n = ct_hugetlb_sizes(names, MAX_SIZES);
	if (!n)
		return 0;
	st->hugetlb = calloc(n, sizeof(*st->hugetlb));
	if (!st->hugetlb)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct ct_cgroup_hugetlb_entry *e = &st->hugetlb[st->n_hugetlb];
		snprintf(e->page_size, sizeof(e->page_size), "%s", names[i]);
		if ((unified ? read_v2 : read_v1)(dir, e))
			st->n_hugetlb++;
		else
			memset(e, 0, sizeof(*e));
	}
	return 0;
}
