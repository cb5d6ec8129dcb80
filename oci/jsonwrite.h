/* The other direction of oci/jsonwalk.h, driven by the same descriptor tables: a struct back
 * to JSON, and one struct laid over another (`ctrun update` keeps the container's resources
 * as the config's with every update merged in). */
#ifndef OCI_JSONWRITE_H
#define OCI_JSONWRITE_H

#include <stdbool.h>
#include <yajl/yajl_gen.h>

#include "libct/base/error.h"
#include "oci/jsonwalk.h"

/* Writes obj as a JSON object: a field with a presence mark when it is set, a string when not
 * NULL, an array or map when not empty, a nested object without presence mark always, any
 * other scalar when required or not zero. What oci_walk_object reads back is obj again. */
void oci_write_object(yajl_gen g, const struct oci_field *fields, const void *obj);

/* Lays `src` over `dst`: every field src gives (by the rule above) replaces dst's, except
 * that objects both give are merged member by member. What src gives is moved out of it
 * (src is left to oci_walk_free as usual). */
void oci_merge_object(const struct oci_field *fields, void *dst, void *src);

/* A generated document as text: gen(g, arg) writes it into a fresh generator (nonzero: it
 * could not), two-space indented when pretty (the text then ends with a newline). Returns the
 * malloc'd text, its length in *len (when not NULL), or NULL with errno EINVAL (gen failed)
 * or ENOMEM. */
char *oci_json_generate(int (*gen)(yajl_gen g, const void *arg), const void *arg, bool pretty,
			size_t *len);

/* oci_json_generate with its failure in err, the message `what`. */
char *oci_json_document(int (*gen)(yajl_gen g, const void *arg), const void *arg, bool pretty,
			const char *what, struct ct_error *err);

#endif
