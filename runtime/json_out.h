/* Small yajl_gen helpers for the commands that print JSON: one call per member. */
#ifndef CTRUN_JSON_OUT_H
#define CTRUN_JSON_OUT_H

#include <stdbool.h>
#include <yajl/yajl_gen.h>

void ct_json_key(yajl_gen g, const char *key);
void ct_json_str(yajl_gen g, const char *key, const char *value);
void ct_json_int(yajl_gen g, const char *key, long long value);
void ct_json_bool(yajl_gen g, const char *key, bool value);

/* Prints the document and a newline on stdout, then frees g. */
void ct_json_print(yajl_gen g);

#endif
