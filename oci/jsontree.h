/* JSON text -> a yajl_val tree (yajl_tree.h's node layout) whose nodes, strings and member
 * arrays all live in one arena: freed at once, not node by node.
 *
 * yajl_tree_parse makes a malloc per node, string and key and a realloc per member of every
 * object and array: about 600 of the 1,000 allocations of a `ctrun run`, each costly in
 * musl's malloc. The walker (oci/jsonwalk.h) reads the tree once and copies what it keeps,
 * so the nodes need no lives of their own. */
#ifndef OCI_JSONTREE_H
#define OCI_JSONTREE_H

#include <yajl/yajl_tree.h>

#include "libct/base/error.h"

/* How deep objects and arrays may nest, the document itself being level 1: the walker
 * recurses once per level. No spec'd document nests past a dozen. */
#define OCI_JSON_MAX_DEPTH 1000

/* Parses a whole document: NUL-terminated text -> tree. Malformed JSON is reported with its
 * line and column, as is nesting deeper than OCI_JSON_MAX_DEPTH. Comments are allowed.
 * A number node holds its text (u.number.r) only, flags 0: readers take the text
 * (oci_integer_store). Free the tree with oci_json_free(), never yajl_tree_free(). */
yajl_val oci_json_parse(const char *file, const char *text, struct ct_error *err);

/* Releases a tree from oci_json_parse (NULL: nothing). */
void oci_json_free(yajl_val tree);

#endif
