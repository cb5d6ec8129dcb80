/* libFuzzer harness: state.json text -> ct_state_parse; what parsed is formatted again as
 * `ctrun state` prints it, so the reader's output is also the formatter's input. The lean
 * reader of `list` must accept whatever the full one does, with the same values; neither
 * takes a document with a NUL byte in a string. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/state/state.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/json_nul.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ct_state st;
	struct ct_error err = {0};
	struct ct_state lean;
	int lean_ret = ct_state_parse_for_list("state.json", text, strlen(text), &lean, &err);
	int full_ret = ct_state_parse("state.json", text, &st, &err);
	if ((lean_ret == 0 || full_ret == 0) && json_has_nul_string(text))
		abort(); /* a string with a NUL inside was taken */
	if (full_ret == 0) {
		char *json = NULL, *lean_json = NULL;
		if (lean_ret < 0)
			abort(); /* the lean reader refused a valid state */
		if (ct_state_format_json(&st, "running", &json, &err) == 0 &&
		    (ct_state_format_json(&lean, "running", &lean_json, &err) < 0 ||
		     strcmp(json, lean_json) != 0 || st.pid_start_time != lean.pid_start_time ||
		     st.started != lean.started || st.owner != lean.owner ||
		     st.cgroup_paths.len != lean.cgroup_paths.len))
			abort(); /* the two readers disagree */
		free(json);
		free(lean_json);
	}
	ct_state_free(&lean);
	ct_state_free(&st);
	free(text);
	return 0;
}
