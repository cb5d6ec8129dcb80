/* libFuzzer harness: /proc/PID/mountinfo text -> ct_mountinfo_parse, and on a table that
 * parsed, the lookup by target of every mount it holds. */
#include <string.h>
#include <stdint.h>

#include "libct/fs/fsinfo.h"
#include "tests/fuzz/fuzz_input.h"

/* Any mount found is one at that target. None may be found: text with a cycle of ids
 * (11 on 12, 12 on 11, both at /s) has no top mount, and the kernel never shows one. */
static void find_every_target(const struct ct_mount_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_mount *m = ct_mount_find_by_target(t, t->v[i].target);
		if (m && strcmp(m->target, t->v[i].target) != 0)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ct_mount_table t;
	struct ct_error err = {0};
	if (ct_mountinfo_parse(text, &t, &err) == 0)
		find_every_target(&t);
	else if (t.n || t.v)
		abort(); /* fsinfo.h: on failure the table is empty */
	ct_mount_table_free(&t);
	free(text);
	return 0;
}
