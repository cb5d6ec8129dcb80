/* oci/jsontree.c: the arena tree holds the same document as yajl_tree_parse's, for every
 * kind of value, scalar roots, repeated names, documents bigger than an arena block; the
 * depth limit at its edge; errors and freeing. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/jsontree.h"
#include "tests/fuzz/json_same.h"

/* text parses, and to the tree yajl_tree_parse makes of it. */
static void assert_same_as_yajl_tree(const char *text)
{
	struct ct_error err = {0};
	yajl_val mine = oci_json_parse("t.json", text, &err);
	cr_assert_not_null(mine, "%.60s: %s", text, err.msg);
	char errbuf[256];
	yajl_val ref = yajl_tree_parse(text, errbuf, sizeof(errbuf));
	cr_assert_not_null(ref, "%.60s: %s", text, errbuf);
	cr_expect(json_same_tree(mine, ref), "trees differ for %.60s", text);
	oci_json_free(mine);
	yajl_tree_free(ref);
}

Test(jsontree, every_kind_of_value)
{
	assert_same_as_yajl_tree(
		"// a comment\n{\"s\": \"t\\u00e9xt \\\"q\\\"\\n\", \"n\": -12.5e3, \"i\": 42, "
		"\"b\": [true, false, null], \"e\": {}, \"a\": [], /* more */ "
		"\"o\": {\"x\": [[1], {\"y\": \"z\"}], \"\": 0}}");
}

Test(jsontree, scalar_roots)
{
	assert_same_as_yajl_tree("\"alone\"");
	assert_same_as_yajl_tree("7");
	assert_same_as_yajl_tree("null");
	assert_same_as_yajl_tree("true");
	assert_same_as_yajl_tree("[]");
}

/* Every member is kept, a repeated name too: the walker reports it. */
Test(jsontree, repeated_names_kept_in_order)
{
	struct ct_error err = {0};
	yajl_val v = oci_json_parse("t.json", "{\"a\": 1, \"b\": 2, \"a\": 3}", &err);
	cr_assert_not_null(v, "%s", err.msg);
	cr_assert_eq(v->u.object.len, 3);
	cr_expect_str_eq(v->u.object.keys[2], "a");
	cr_expect_str_eq(v->u.object.values[2]->u.number.r, "3");
	oci_json_free(v);
}

/* Members of nested containers go to the right one though they share the builder's
 * stacks: an object inside an array inside an object, closed in turn. */
Test(jsontree, nested_members_in_their_containers)
{
	struct ct_error err = {0};
	yajl_val v = oci_json_parse("t.json", "{\"l\": [1, {\"k\": [2, 3]}, 4], \"m\": 5}", &err);
	cr_assert_not_null(v, "%s", err.msg);
	cr_assert_eq(v->u.object.len, 2);
	yajl_val l = v->u.object.values[0];
	cr_assert_eq(l->u.array.len, 3);
	cr_expect_str_eq(l->u.array.values[2]->u.number.r, "4");
	yajl_val k = l->u.array.values[1]->u.object.values[0];
	cr_assert_eq(k->u.array.len, 2);
	cr_expect_str_eq(k->u.array.values[1]->u.number.r, "3");
	cr_expect_str_eq(v->u.object.values[1]->u.number.r, "5");
	oci_json_free(v);
}

/* Many arena blocks: 4,000 members, and one string bigger than a block alone. */
Test(jsontree, larger_than_an_arena_block)
{
	size_t size = 200000;
	char *text = malloc(size);
	cr_assert_not_null(text);
	size_t n = (size_t)snprintf(text, size, "{\"big\": \"");
	memset(text + n, 'x', 50000);
	n += 50000;
	n += (size_t)snprintf(text + n, size - n, "\", \"list\": [");
	for (int i = 0; i < 4000; i++)
		n += (size_t)snprintf(text + n, size - n, "%s{\"k%d\": \"v%d\"}", i ? "," : "", i,
				      i);
	snprintf(text + n, size - n, "]}");
	assert_same_as_yajl_tree(text);
	free(text);
}

static char *nested_arrays(int depth)
{
	char *text = malloc(2 * (size_t)depth + 1);
	cr_assert_not_null(text);
	memset(text, '[', (size_t)depth);
	memset(text + depth, ']', (size_t)depth);
	text[2 * depth] = '\0';
	return text;
}

Test(jsontree, depth_limit_at_its_edge)
{
	struct ct_error err = {0};
	char *ok = nested_arrays(OCI_JSON_MAX_DEPTH);
	yajl_val v = oci_json_parse("t.json", ok, &err);
	cr_expect_not_null(v, "%s", err.msg);
	oci_json_free(v);
	free(ok);
	char *deep = nested_arrays(OCI_JSON_MAX_DEPTH + 1);
	cr_expect_null(oci_json_parse("t.json", deep, &err));
	char want[128];
	snprintf(want, sizeof(want),
		 "t.json: JSON nested deeper than %d levels at line 1, column %d",
		 OCI_JSON_MAX_DEPTH, OCI_JSON_MAX_DEPTH + 1);
	cr_expect_str_eq(err.msg, want);
	free(deep);
}

Test(jsontree, malformed_refused_and_null_freed)
{
	struct ct_error err = {0};
	cr_expect_null(oci_json_parse("t.json", "{\"a\": [1, }", &err));
	cr_expect(strncmp(err.msg, "t.json: malformed JSON at line 1, column ", 41) == 0, "%s",
		  err.msg);
	cr_expect_null(oci_json_parse("t.json", "", &err));
	oci_json_free(NULL);
}
