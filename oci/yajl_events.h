/* yajl's nine parse events, each to the handler of the including file named after it:
 * on_null, on_boolean, on_number, on_string, on_start_map, on_map_key, on_end_map,
 * on_start_array and on_end_array. oci/jsonscan.h wants every one set; yajl's own parser
 * takes the same table. */
#ifndef OCI_YAJL_EVENTS_H
#define OCI_YAJL_EVENTS_H

#include <yajl/yajl_parse.h>

#define OCI_YAJL_EVENTS                                                                     \
	{                                                                                   \
		.yajl_null = on_null, .yajl_boolean = on_boolean, .yajl_number = on_number, \
		.yajl_string = on_string, .yajl_start_map = on_start_map,                   \
		.yajl_map_key = on_map_key, .yajl_end_map = on_end_map,                     \
		.yajl_start_array = on_start_array, .yajl_end_array = on_end_array,         \
	}

#endif
