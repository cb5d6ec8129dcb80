/* Short forms of the walker's descriptor types (oci/jsonwalk.h) for the tables the parser
 * tests make of their own (test_jsonwalk.c, test_jsonsax.c). */
#ifndef CTRUN_TESTS_UNIT_OCI_TYPES_H
#define CTRUN_TESTS_UNIT_OCI_TYPES_H

#include "oci/jsonwalk.h"

/* An object with the fields of the table (ended by {NULL}). */
#define OBJECT_OF(field_table)                              \
	{                                                   \
		.kind = OCI_OBJECT, .fields = (field_table) \
	}
/* An array (a map by name) of elements of type elem_type, stored as T. */
#define ARRAY_OF(elem_type, T)                                                  \
	{                                                                       \
		.kind = OCI_ARRAY, .elem = &(elem_type), .elem_size = sizeof(T) \
	}
#define MAP_OF(elem_type, T)                                                  \
	{                                                                     \
		.kind = OCI_MAP, .elem = &(elem_type), .elem_size = sizeof(T) \
	}

#endif
