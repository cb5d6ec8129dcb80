/* For the harnesses: whether a JSON text holds a string or property name with a NUL byte
 * ("\u0000") anywhere, as yajl's own callback parser decodes it, independent of the readers
 * under test. A document that holds one must never be taken: its strings would reach the
 * kernel cut short (oci/jsontree.c). Answers false for text yajl refuses. */
#ifndef TESTS_FUZZ_JSON_NUL_H
#define TESTS_FUZZ_JSON_NUL_H

#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_parse.h>

static int json_nul_string(void *ctx, const unsigned char *s, size_t len)
{
	if (memchr(s, '\0', len))
		*(bool *)ctx = true;
	return 1;
}

static inline bool json_has_nul_string(const char *text)
{
	static const yajl_callbacks cb = {.yajl_string = json_nul_string,
					  .yajl_map_key = json_nul_string};
	bool found = false;
	yajl_handle h = yajl_alloc(&cb, NULL, &found);
	if (!h)
		abort();
	yajl_config(h, yajl_allow_comments, 1);
	bool parsed = yajl_parse(h, (const unsigned char *)text, strlen(text)) == yajl_status_ok &&
		      yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	return parsed && found;
}

#endif
