/* For the harnesses: whether yajl's own callback parser, reading a JSON text in order, meets
 * a string or property name with a NUL byte ("\u0000") before any syntax error, independent
 * of the readers under test. A document that holds one must never be taken: its strings
 * would reach the kernel cut short (oci/jsontree.c); the tree reports it when it comes
 * before a syntax error, as here. */
#ifndef TESTS_FUZZ_JSON_NUL_H
#define TESTS_FUZZ_JSON_NUL_H

#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_parse.h>

static int json_nul_string(void *ctx, const unsigned char *s, size_t len)
{
	if (!memchr(s, '\0', len))
		return 1;
	*(bool *)ctx = true;
	return 0; /* found: read no further */
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
	if (yajl_parse(h, (const unsigned char *)text, strlen(text)) == yajl_status_ok)
		yajl_complete_parse(h);
	yajl_free(h);
	return found;
}

#endif
