/* A lean reader for a document read often whose full check is elsewhere (state.json under
 * `list`, which ctrun itself wrote): yajl's callback parser fills a struct from the same
 * field tables as the tree walker (oci/jsonwalk.h), building no tree, and skips the members
 * the caller does not want without storing them.
 *
 * Kinds read: OCI_STRING, OCI_BOOL, OCI_INT, OCI_UINT (oci_integer_store's rules),
 * OCI_OBJECT, and OCI_MAP of strings. A field of another kind is skipped as an unwanted one.
 * Required fields that are read must be present. Errors are not described: the answer is
 * only whether the document fits the tables; a reader that must say why (`ctrun state`,
 * `validate`) walks the tree with oci_walk_object. */
#ifndef OCI_JSONSAX_H
#define OCI_JSONSAX_H

#include <stdbool.h>
#include <stddef.h>

#include "oci/jsonwalk.h"

/* Whether the caller wants field f (at any level); NULL wants every field. */
typedef bool (*oci_sax_wanted)(const struct oci_field *f);

/* Fills `out` (zeroed by the caller) from the JSON object in text[0..len). Returns 0, or -1
 * when the text is not JSON or does not fit the tables; `out` may then hold part of the
 * document: release it with oci_walk_free(fields, out) either way. */
int oci_sax_fill(const char *text, size_t len, const struct oci_field *fields,
		 oci_sax_wanted wanted, void *out);

#endif
