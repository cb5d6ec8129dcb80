/* The id mapping helpers of libct/parent/userns.h: what the kernel would refuse in a uid_map or
 * gid_map is refused before the clone, naming the JSON path; the map text is one
 * "containerID hostID size" line per range. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libct/parent/idmap_writer.h"
#include "libct/parent/userns.h"

#define MAPS(...)                                 \
	((struct oci_id_mapping[]){__VA_ARGS__}), \
		sizeof((struct oci_id_mapping[]){__VA_ARGS__}) / sizeof(struct oci_id_mapping)

static oci_id_mappings mappings(struct oci_id_mapping *items, size_t n)
{
	oci_id_mappings m = {.items = items, .len = n};
	return m;
}

static void assert_refused(oci_id_mappings m, const char *msg)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_idmap_check(&m, "linux.uidMappings", &err), -1, "accepted, expected: %s",
		     msg);
	cr_expect_eq(err.errnum, EINVAL);
	cr_expect_str_eq(err.msg, msg);
}

static void assert_accepted(oci_id_mappings m)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_idmap_check(&m, "linux.gidMappings", &err), 0, "refused: %s", err.msg);
}

Test(userns, several_disjoint_ranges_are_accepted)
{
	assert_accepted(
		mappings(MAPS({0, 100000, 1000}, {1000, 300000, 1}, {1001, 100000 + 1000, 64535})));
}

Test(userns, adjacent_ranges_do_not_overlap)
{
	assert_accepted(mappings(MAPS({0, 1000, 10}, {10, 1010, 10})));
}

Test(userns, the_whole_id_space_is_one_range)
{
	assert_accepted(mappings(MAPS({0, 0, 4294967295u})));
}

Test(userns, size_zero_is_refused_with_its_path)
{
	assert_refused(mappings(MAPS({0, 100000, 10}, {10, 200000, 0})),
		       "config.json: .linux.uidMappings[1].size: must be at least 1");
}

Test(userns, overlapping_container_ids_are_refused)
{
	assert_refused(mappings(MAPS({0, 100000, 100}, {200, 300000, 10}, {50, 200000, 10})),
		       "config.json: .linux.uidMappings[2]: its containerID range overlaps that of "
		       ".linux.uidMappings[0]");
}

Test(userns, overlapping_host_ids_are_refused)
{
	assert_refused(mappings(MAPS({0, 100000, 100}, {100, 100099, 10})),
		       "config.json: .linux.uidMappings[1]: its hostID range overlaps that of "
		       ".linux.uidMappings[0]");
}

Test(userns, a_range_past_the_last_id_is_refused)
{
	assert_refused(mappings(MAPS({4294967000u, 0, 1000})),
		       "config.json: .linux.uidMappings[0]: the range ends past id 4294967295");
	assert_refused(mappings(MAPS({0, 4294967295u, 2})),
		       "config.json: .linux.uidMappings[0]: the range ends past id 4294967295");
}

static struct oci_id_mapping *single_ids(size_t n)
{
	struct oci_id_mapping *m = calloc(n, sizeof(*m));
	cr_assert_not_null(m);
	for (size_t i = 0; i < n; i++)
		m[i] = (struct oci_id_mapping){(uint32_t)i, (uint32_t)(1000 + 2 * i), 1};
	return m;
}

Test(userns, at_most_340_lines)
{
	struct oci_id_mapping *m = single_ids(CT_IDMAP_MAX_LINES + 1);
	assert_accepted(mappings(m, CT_IDMAP_MAX_LINES));
	assert_refused(mappings(m, CT_IDMAP_MAX_LINES + 1),
		       "config.json: .linux.uidMappings: 341 ranges, the kernel takes at most 340");
	free(m);
}

Test(userns, format_writes_one_line_per_range)
{
	oci_id_mappings m = mappings(MAPS({0, 100000, 65536}, {65536, 4294967294u, 1}));
	char *text = ct_idmap_format(&m);
	cr_assert_not_null(text);
	cr_expect_str_eq(text, "0 100000 65536\n65536 4294967294 1\n");
	free(text);
}

Test(userns, format_of_340_widest_lines_fits)
{
	struct oci_id_mapping *items = calloc(CT_IDMAP_MAX_LINES, sizeof(*items));
	cr_assert_not_null(items);
	for (size_t i = 0; i < CT_IDMAP_MAX_LINES; i++)
		items[i] = (struct oci_id_mapping){4000000000u, 4000000000u, 100000000u};
	oci_id_mappings m = mappings(items, CT_IDMAP_MAX_LINES);
	char *text = ct_idmap_format(&m);
	cr_assert_not_null(text);
	cr_expect_eq(strlen(text),
		     CT_IDMAP_MAX_LINES * strlen("4000000000 4000000000 100000000\n"));
	cr_expect_str_eq(text + strlen(text) - 32, "4000000000 4000000000 100000000\n");
	free(text);
	free(items);
}

Test(userns, format_of_no_range_is_empty)
{
	oci_id_mappings m = {0};
	char *text = ct_idmap_format(&m);
	cr_assert_not_null(text);
	cr_expect_str_eq(text, "");
	free(text);
}

/* libct/parent/idmap_writer.h: root writes any map; a user its own id alone (setgroups denied for
 * a gid map), anything else through newuidmap/newgidmap. */
Test(idmap_writer, who_writes_which_map)
{
	oci_id_mappings own = mappings(MAPS({.container_id = 0, .host_id = 1001, .size = 1}));
	oci_id_mappings wider = mappings(MAPS({.container_id = 0, .host_id = 1001, .size = 2}));
	oci_id_mappings other = mappings(MAPS({.container_id = 0, .host_id = 1002, .size = 1}));
	oci_id_mappings more = mappings(MAPS({.container_id = 0, .host_id = 1001, .size = 1},
					     {.container_id = 1, .host_id = 100000, .size = 10}));
	cr_expect_eq(ct_idmap_writer_for(&more, true, 0), CT_IDMAP_DIRECT);
	cr_expect_eq(ct_idmap_writer_for(&own, true, 1001), CT_IDMAP_DIRECT);
	cr_expect_eq(ct_idmap_writer_for(&own, false, 1001), CT_IDMAP_OWN_ID);
	cr_expect_eq(ct_idmap_writer_for(&wider, false, 1001), CT_IDMAP_HELPER);
	cr_expect_eq(ct_idmap_writer_for(&other, false, 1001), CT_IDMAP_HELPER);
	cr_expect_eq(ct_idmap_writer_for(&more, false, 1001), CT_IDMAP_HELPER);
	cr_expect_str_eq(ct_idmap_helper_name(false), "newuidmap");
	cr_expect_str_eq(ct_idmap_helper_name(true), "newgidmap");
}
