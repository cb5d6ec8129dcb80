/* libct/cgroup/paused.h: the freezer read from recorded paths, for a status. */
#include "libct/cgroup/paused.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/internal.h"

/* Larger than freezer.state ("FREEZING\n") and cgroup.events ("populated 1\nfrozen 1\n"). */
#define FREEZER_TEXT_MAX 128

const char *ct_cgroup_freezer_dir(const oci_string_map *paths, bool *v2)
{
	const char *unified = NULL, *freezer = NULL;
	bool any_v1 = false;
	for (size_t i = 0; i < paths->len; i++) {
		const struct oci_kv *kv = &paths->items[i];
		if (strcmp(kv->key, CT_CGROUP_UNIFIED_KEY) == 0) {
			if (!unified)
				unified = kv->value;
			continue;
		}
		any_v1 = true; /* one v1 key makes the layout v1 (ct_cgroup_from_state) */
		if (!freezer && ct_cg_key_has(kv->key, "freezer"))
			freezer = kv->value;
	}
	*v2 = !any_v1 && unified;
	return any_v1 ? freezer : unified;
}

bool ct_cgroup_v1_text_paused(const char *freezer_state)
{
	return strncmp(freezer_state, "FROZEN", 6) == 0 ||
	       strncmp(freezer_state, "FREEZING", 8) == 0;
}

/* dir/file into buf (NUL-terminated) with one read: these files are one short seq_file. */
static bool read_small(const char *dir, const char *file, char buf[FREEZER_TEXT_MAX])
{
	char path[4096]; /* one too long is left empty: its open fails */
	_cleanup_close_ int fd =
		ct_cg_open_at(-1, dir, file, O_RDONLY | O_CLOEXEC, path, sizeof(path));
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, FREEZER_TEXT_MAX - 1);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return true;
}

static bool v2_paused(const char *dir)
{
	char text[FREEZER_TEXT_MAX];
	unsigned long long frozen;
	/* no cgroup.events "frozen" (a kernel before 5.2): no freezer, as the v2 driver says */
	if (!read_small(dir, "cgroup.events", text) || !ct_cg_keyed_value(text, "frozen", &frozen))
		return false;
	if (frozen)
		return true;
	return read_small(dir, "cgroup.freeze", text) && text[0] == '1';
}

bool ct_cgroup_paths_paused(const oci_string_map *paths)
{
	bool v2;
	const char *dir = ct_cgroup_freezer_dir(paths, &v2);
	if (!dir)
		return false;
	if (v2)
		return v2_paused(dir);
	char text[FREEZER_TEXT_MAX];
	return read_small(dir, "freezer.state", text) && ct_cgroup_v1_text_paused(text);
}
