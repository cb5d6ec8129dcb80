/* libFuzzer harness: the shared-root record (libct/state/shared_root.h) -> ct_shared_root_parse;
 * what parsed is formatted again and must give the same text and read back the same. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/state/shared_root.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ct_shared_root r, back;
	if (ct_shared_root_parse(text, &r) == 0) {
		char again[PATH_MAX + 128];
		int n = ct_shared_root_format(&r, again, sizeof(again));
		if (n < 0 || (size_t)n >= sizeof(again) || ct_shared_root_parse(again, &back) < 0 ||
		    back.unique != r.unique || back.mount_id != r.mount_id ||
		    back.ns_dev != r.ns_dev || back.ns_ino != r.ns_ino ||
		    strcmp(back.joined, r.joined) != 0)
			abort(); /* the record does not read back as written */
	}
	free(text);
	return 0;
}
