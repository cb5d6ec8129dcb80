/* A JSON reader (RFC 8259, as loose as yajl) that reports what it reads as yajl's callbacks
 * do, for the one document read in a loop: `list` reads a state.json per container, and yajl's
 * lexer with its handle, buffers and per-token state was the largest part of that read. Strings
 * without an escape are handed over in place; escaped ones are decoded into one scratch
 * buffer made on the first. It accepts and refuses what yajl does with its tree reader's
 * options (UTF-8 checked as yajl checks it, comments, one top-level value, nothing after it
 * but white space, comments and a string left open at the end, '\v' and '\f' included) and decodes \u escapes as yajl
 * does, since `list` must read every file the full reader (yajl's tree) takes, with the same
 * values (tests/fuzz/fuzz_state.c). The one difference: nesting deeper than
 * OCI_JSON_SCAN_MAX_DEPTH is refused (the reader recurses), which no input shorter than
 * twice that reaches.
 *
 * The callbacks used: yajl_null, yajl_boolean, yajl_number (the number's text, as yajl gives
 * it when yajl_number is set), yajl_string, yajl_start_map, yajl_map_key, yajl_end_map,
 * yajl_start_array, yajl_end_array; every one of them must be set. One returning 0 stops
 * the read, which then fails. */
#ifndef OCI_JSONSCAN_H
#define OCI_JSONSCAN_H

#include <stddef.h>
#include <yajl/yajl_parse.h>

#define OCI_JSON_SCAN_MAX_DEPTH 4096

/* Reads text[0..len) (it need not end with a NUL). Returns 0 when the whole text was one
 * JSON value and every callback returned non-zero, else -1 (also when the scratch buffer
 * could not be made). */
int oci_json_scan(const char *text, size_t len, const yajl_callbacks *cb, void *ctx);

#endif
