/* libFuzzer harness: state.json text -> ct_state_parse; what parsed is formatted again as
 * `ctrun state` prints it, so the reader's output is also the formatter's input. */
#include <stdint.h>

#include "libct/state.h"
#include "tests/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ct_state st;
	struct ct_error err = {0};
	if (ct_state_parse("state.json", text, &st, &err) == 0) {
		char *json = NULL;
		if (ct_state_format_json(&st, "running", &json, &err) == 0)
			free(json);
	}
	ct_state_free(&st);
	free(text);
	return 0;
}
