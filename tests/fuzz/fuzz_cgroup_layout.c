/* libFuzzer harness: /proc/self/mountinfo and /proc/self/cgroup text -> the cgroup layout
 * (ct_cgroup_layout_parse). The input holds both, mountinfo first, cut at the first NUL
 * byte (none: /proc/self/cgroup is empty). */
#include <string.h>
#include <stdint.h>

#include "libct/cgroup/cgroup.h"
#include "tests/fuzz/fuzz_input.h"

/* What cgroup.h promises of a parsed layout: every v1 hierarchy complete, mounted right
 * below CT_CGROUP_ROOT, found by its own key (maybe as a wider one listed first). */
static void check_layout(const struct ct_cgroup_layout *l)
{
	size_t root_len = strlen(CT_CGROUP_ROOT);
	for (size_t i = 0; i < l->n_v1; i++) {
		const struct ct_cgroup_hierarchy_info *h = &l->v1[i];
		if (!h->key || !h->mountpoint || !h->mount_root || !h->caller_path || !h->options)
			abort();
		if (strncmp(h->mountpoint, CT_CGROUP_ROOT "/", root_len + 1) != 0 ||
		    strchr(h->mountpoint + root_len + 1, '/'))
			abort();
		if (!ct_cgroup_layout_find(l, h->key))
			abort();
	}
	if (l->mode == CT_CGROUP_MODE_UNIFIED && l->n_v1)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *mountinfo = fuzz_text(data, size);
	size_t first = strlen(mountinfo);
	char *cgroup = fuzz_text(first < size ? data + first + 1 : data + size,
				 first < size ? size - first - 1 : 0);
	struct ct_cgroup_layout l;
	struct ct_error err = {0};
	if (ct_cgroup_layout_parse(mountinfo, cgroup, &l, &err) == 0)
		check_layout(&l);
	ct_cgroup_layout_free(&l);
	free(cgroup);
	free(mountinfo);
	return 0;
}
