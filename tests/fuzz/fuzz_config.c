/* libFuzzer harness: config.json text -> oci_config_parse, which runs the descriptor-table
 * walker over the whole document and every check that needs no kernel, then frees what it
 * made. The callbacks format every message, so an error path with a bad format is found.
 * A document with a NUL byte in any string is never taken: no string of a parsed config
 * reaches the kernel cut short. */
#include <stdint.h>
#include <stdio.h>

#include "oci/config.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/json_nul.h"

/* The messages land in a buffer, so the formatting runs but nothing is printed. */
static void on_error(void *data, const char *msg)
{
	snprintf(data, CT_ERROR_MSG_MAX, "%s", msg);
}

static void on_unknown(void *data, const char *file, const char *path)
{
	snprintf(data, CT_ERROR_MSG_MAX, "%s: %s", file, path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char last[CT_ERROR_MSG_MAX];
	struct oci_config_opts opts = {
		.on_error = on_error, .on_unknown = on_unknown, .data = last};
	struct oci_config *config = NULL;
	struct ct_error err = {0};
	if (oci_config_parse(text, &opts, &config, &err) == 0) {
		if (json_has_nul_string(text))
			abort(); /* a string with a NUL inside was taken */
		oci_config_free(config);
	} else if (config)
		abort(); /* config.h: *out is NULL on failure */
	free(text);
	return 0;
}
