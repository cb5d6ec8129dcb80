/* The JSON path of a value as messages show it: ".linux.sysctl", ".annotations[\"a.b\"]",
 * ".process.args[0]". Shared by the tree walker (oci/jsonwalk.h) and the tree builder
 * (oci/jsontree.h), which both name where in a document something is wrong. Pure. */
#ifndef OCI_JSONPATH_H
#define OCI_JSONPATH_H

#include <stddef.h>

/* One level of the path: a property name, or (name NULL) an array index. */
struct oci_path_step {
	const char *name;
	size_t index;
};

/* step appended to buf (size bytes) at offset len, as ".name" for an identifier,
 * "[\"name\"]" for any other name, "[3]" for an index; cut at the buffer's end. Returns the
 * new length. */
size_t oci_path_append(char *buf, size_t size, size_t len, const struct oci_path_step *step);

#endif
