/* libFuzzer harness: oci_json_parse (one arena) against yajl_tree_parse (the reference).
 * Either both take the text and build the same tree, or both refuse it; oci_json_parse
 * alone also refuses nesting deeper than OCI_JSON_MAX_DEPTH, so deeper input is cut off
 * before yajl_tree_parse (which recurses per level) sees it, and a string or name with a
 * NUL byte inside (which yajl's tree would keep cut short), refused exactly then. */
#include <stdint.h>
#include <stdio.h>

#include "oci/jsontree.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/json_nul.h"
#include "tests/fuzz/json_same.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct ct_error err = {0};
	yajl_val mine = oci_json_parse("f.json", text, &err);
	if (!mine && strstr(err.msg, "nested deeper than")) {
		free(text);
		return 0;
	}
	bool nul = json_has_nul_string(text);
	if (nul != (!mine && strstr(err.msg, "holds a NUL byte")))
		abort(); /* refused for a NUL it does not hold, or took one */
	if (nul) {
		free(text);
		return 0;
	}
	char errbuf[256];
	yajl_val ref = yajl_tree_parse(text, errbuf, sizeof(errbuf));
	if (!mine != !ref)
		abort();
	if (mine && !json_same_tree(mine, ref))
		abort();
	if (!mine && strncmp(err.msg, "f.json: malformed JSON at line ", 31) != 0)
		abort();
	oci_json_free(mine);
	yajl_tree_free(ref);
	free(text);
	return 0;
}
