#include "runtime/json_out.h"

#include <stdio.h>
#include <string.h>

void ct_json_key(yajl_gen g, const char *key)
{
	yajl_gen_string(g, (const unsigned char *)key, strlen(key));
}

void ct_json_str(yajl_gen g, const char *key, const char *value)
{
	ct_json_key(g, key);
	yajl_gen_string(g, (const unsigned char *)value, strlen(value));
}

void ct_json_int(yajl_gen g, const char *key, long long value)
{
	ct_json_key(g, key);
	yajl_gen_integer(g, value);
}

void ct_json_bool(yajl_gen g, const char *key, bool value)
{
	ct_json_key(g, key);
	yajl_gen_bool(g, value);
}

void ct_json_print(yajl_gen g)
{
	const unsigned char *buf;
	size_t len;
	yajl_gen_get_buf(g, &buf, &len);
	printf("%.*s\n", (int)len, (const char *)buf);
	yajl_gen_free(g);
}
