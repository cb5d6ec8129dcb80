/* Whether two yajl_val trees hold the same document: types, strings, the text of numbers,
 * members in order (repeated names included). For checking oci_json_parse's tree against
 * yajl_tree_parse's, by a unit test and by the fuzz_jsontree harness. */
#ifndef TESTS_FUZZ_JSON_SAME_H
#define TESTS_FUZZ_JSON_SAME_H

#include <stdbool.h>
#include <string.h>
#include <yajl/yajl_tree.h>

static inline bool json_same_tree(yajl_val a, yajl_val b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case yajl_t_string:
		return strcmp(a->u.string, b->u.string) == 0;
	case yajl_t_number:
		return strcmp(a->u.number.r, b->u.number.r) == 0;
	case yajl_t_object:
		if (a->u.object.len != b->u.object.len)
			return false;
		for (size_t i = 0; i < a->u.object.len; i++)
			if (strcmp(a->u.object.keys[i], b->u.object.keys[i]) != 0 ||
			    !json_same_tree(a->u.object.values[i], b->u.object.values[i]))
				return false;
		return true;
	case yajl_t_array:
		if (a->u.array.len != b->u.array.len)
			return false;
		for (size_t i = 0; i < a->u.array.len; i++)
			if (!json_same_tree(a->u.array.values[i], b->u.array.values[i]))
				return false;
		return true;
	default:
		return true; /* null, true, false, or yajl_t_any (never made) */
	}
}

#endif
