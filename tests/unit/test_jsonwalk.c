/* The generic walker of oci/jsonwalk.c on a table made for the test: every kind, every
 * message, paths into arrays and maps, and the reporting of every error of a document. */
#include <criterion/criterion.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/jsonwalk.h"
#include "tests/unit/oci_types.h"
#include "tests/unit/reports.h"

/* ---- the test's own descriptor tables ---- */

struct item {
	char *name;
	uint32_t n;
	bool has_n;
};

struct keyed_item {
	char *key;
	char *name;
	uint32_t n;
};

/* Arrays of arrays to any depth: long paths. */
struct nest {
	struct nest *items;
	size_t len;
};

struct sample {
	char *str, *abs;
	bool flag;
	int32_t i32;
	int64_t i64;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	int color;
	struct item obj;
	bool has_obj;
	OCI_ARRAY(struct item) list;
	OCI_ARRAY(int) colors;
	oci_strings strs;
	oci_uint32s ids;
	oci_string_map map;
	OCI_ARRAY(struct keyed_item) objmap;
	struct nest nest;
};

static const char *const color_names[] = {"red", "green", "blue", NULL};
static const struct oci_type t_color = {.kind = OCI_ENUM, .names = color_names};
static const struct oci_type t_colors = ARRAY_OF(t_color, int);

static const struct oci_field item_fields[] = {
	OCI_FIELD_REQ(struct item, "name", name, oci_t_string),
	OCI_FIELD_OPT(struct item, "n", n, oci_t_uint32),
	{NULL},
};
static const struct oci_type t_item = OBJECT_OF(item_fields);
static const struct oci_type t_items = ARRAY_OF(t_item, struct item);

static const struct oci_field keyed_item_fields[] = {
	OCI_FIELD(struct keyed_item, "name", name, oci_t_string),
	OCI_FIELD(struct keyed_item, "n", n, oci_t_uint32),
	{NULL},
};
static const struct oci_type t_keyed_item = OBJECT_OF(keyed_item_fields);
static const struct oci_type t_keyed_items = MAP_OF(t_keyed_item, struct keyed_item);

static const struct oci_type t_nest = ARRAY_OF(t_nest, struct nest);

static const struct oci_field sample_fields[] = {
	OCI_FIELD(struct sample, "str", str, oci_t_string),
	OCI_FIELD(struct sample, "abs", abs, oci_t_abs_path),
	OCI_FIELD(struct sample, "flag", flag, oci_t_bool),
	OCI_FIELD(struct sample, "i32", i32, oci_t_int32),
	OCI_FIELD(struct sample, "i64", i64, oci_t_int64),
	OCI_FIELD(struct sample, "u8", u8, oci_t_uint8),
	OCI_FIELD(struct sample, "u16", u16, oci_t_uint16),
	OCI_FIELD(struct sample, "u32", u32, oci_t_uint32),
	OCI_FIELD(struct sample, "u64", u64, oci_t_uint64),
	OCI_FIELD(struct sample, "color", color, t_color),
	OCI_FIELD_OPT(struct sample, "obj", obj, t_item),
	OCI_FIELD(struct sample, "list", list, t_items),
	OCI_FIELD(struct sample, "colors", colors, t_colors),
	OCI_FIELD(struct sample, "strs", strs, oci_t_string_array),
	OCI_FIELD(struct sample, "ids", ids, oci_t_uint32_array),
	OCI_FIELD(struct sample, "map", map, oci_t_string_map),
	OCI_FIELD(struct sample, "objmap", objmap, t_keyed_items),
	OCI_FIELD(struct sample, "nest", nest, t_nest),
	{NULL},
};

/* A table with a required member at the top, for the message at the root path. */
struct required_doc {
	char *version;
};
static const struct oci_field required_doc_fields[] = {
	OCI_FIELD_REQ(struct required_doc, "version", version, oci_t_string),
	{NULL},
};

/* ---- running the walker ---- */

struct run {
	struct sample s;
	struct reports r;
	struct ct_error err;
	int ret;
};

static int walk_fields(const char *text, const struct oci_field *fields, void *out,
		       struct reports *r, struct ct_error *err)
{
	yajl_val tree = oci_json_parse("t.json", text, err);
	cr_assert_not_null(tree, "test document does not parse: %s", err->msg);
	struct oci_walk w = {.file = "t.json",
			     .err = err,
			     .on_error = collect_error,
			     .on_unknown = collect_unknown,
			     .data = r};
	int ret = oci_walk_object(&w, fields, tree, out);
	oci_json_free(tree);
	cr_assert_eq(w.nerrors, r->nerrors, "nerrors %u, on_error called %u times", w.nerrors,
		     r->nerrors);
	cr_assert_eq(ret == 0, w.nerrors == 0, "returned %d with %u errors", ret, w.nerrors);
	cr_assert_eq(w.depth, 0, "path not restored: depth %zu", w.depth);
	return ret;
}

static void walk(struct run *run, const char *text)
{
	memset(run, 0, sizeof(*run));
	run->ret = walk_fields(text, sample_fields, &run->s, &run->r, &run->err);
}

static void done(struct run *run)
{
	oci_walk_free(sample_fields, &run->s);
}

/* The document must be refused with exactly this one message. */
static void assert_only_error(const char *text, const char *msg)
{
	struct run run;
	walk(&run, text);
	cr_expect_eq(run.ret, -1, "%s was accepted", text);
	cr_expect_eq(run.r.nerrors, 1, "%s: %u errors, first: %s", text, run.r.nerrors,
		     run.r.errors[0]);
	cr_expect_str_eq(run.r.errors[0], msg);
	cr_expect_str_eq(run.err.msg, msg);
	cr_expect_eq(run.err.errnum, 0);
	done(&run);
}

static void assert_ok(struct run *run, const char *text)
{
	walk(run, text);
	cr_assert_eq(run->ret, 0, "%s refused: %s", text, run->err.msg);
	cr_assert_eq(run->r.nerrors, 0);
}

/* ---- strings and booleans ---- */

Test(jsonwalk_string, stored_as_copy)
{
	struct run run;
	assert_ok(&run, "{\"str\": \"hello \\\"world\\\" \\u00e9\"}");
	cr_expect_str_eq(run.s.str, "hello \"world\" \xc3\xa9");
	done(&run);
}

Test(jsonwalk_string, wrong_type)
{
	assert_only_error("{\"str\": 5}", "t.json: .str: expected a string, got 5");
	assert_only_error("{\"str\": true}", "t.json: .str: expected a string, got true");
	assert_only_error("{\"str\": []}", "t.json: .str: expected a string, got an array");
	assert_only_error("{\"str\": {}}", "t.json: .str: expected a string, got an object");
}

Test(jsonwalk_string, long_value_is_shortened_in_messages)
{
	assert_only_error("{\"u32\": \"0123456789012345678901234567890123456789abcdef\"}",
			  "t.json: .u32: expected an integer, got "
			  "\"0123456789012345678901234567890123456789...\"");
}

Test(jsonwalk_string, absolute_path_check)
{
	struct run run;
	assert_ok(&run, "{\"abs\": \"/usr/bin\"}");
	cr_expect_str_eq(run.s.abs, "/usr/bin");
	done(&run);
	assert_only_error("{\"abs\": \"usr/bin\"}",
			  "t.json: .abs: expected an absolute path, got \"usr/bin\"");
	assert_only_error("{\"abs\": \"\"}", "t.json: .abs: expected an absolute path, got \"\"");
}

Test(jsonwalk_bool, true_and_false)
{
	struct run run;
	assert_ok(&run, "{\"flag\": true}");
	cr_expect(run.s.flag);
	done(&run);
	run.s.flag = true;
	assert_ok(&run, "{\"flag\": false}");
	cr_expect_not(run.s.flag);
	done(&run);
}

Test(jsonwalk_bool, wrong_type)
{
	assert_only_error("{\"flag\": \"yes\"}", "t.json: .flag: expected a boolean, got \"yes\"");
	assert_only_error("{\"flag\": 1}", "t.json: .flag: expected a boolean, got 1");
}

/* ---- integers ---- */

/* An integer member of the sample: its name and a literal for it in a document. */
struct int_case {
	const char *member, *literal;
	const char *want; /* in range: the value read, printed; else the range in the message */
};

/* The limits of each width, in range and one past them; -0 is 0. */
static const struct int_case in_range[] = {
	{"i32", "2147483647", "2147483647"},
	{"i32", "-2147483648", "-2147483648"},
	{"i64", "9223372036854775807", "9223372036854775807"},
	{"i64", "-9223372036854775808", "-9223372036854775808"},
	{"i64", "-42", "-42"},
	{"u8", "255", "255"},
	{"u16", "65535", "65535"},
	{"u32", "4294967295", "4294967295"},
	{"u32", "0", "0"},
	{"u32", "-0", "0"},
	{"u64", "18446744073709551615", "18446744073709551615"},
};

static const struct int_case out_of_range[] = {
	{"i32", "2147483648", "-2147483648, 2147483647"},
	{"i32", "-2147483649", "-2147483648, 2147483647"},
	{"i64", "9223372036854775808", "-9223372036854775808, 9223372036854775807"},
	{"i64", "-9223372036854775809", "-9223372036854775808, 9223372036854775807"},
	{"u8", "256", "0, 255"},
	{"u8", "-200", "0, 255"},
	{"u16", "65536", "0, 65535"},
	{"u32", "4294967296", "0, 4294967295"},
	{"u32", "-1", "0, 4294967295"},
	{"u64", "-1", "0, 18446744073709551615"},
	{"u64", "18446744073709551616", "0, 18446744073709551615"},
	{"u64", "99999999999999999999999", "0, 18446744073709551615"},
};

/* The integer member of s, printed. */
static void int_member_text(const struct sample *s, const char *member, char *buf, size_t size)
{
	if (strcmp(member, "i32") == 0)
		snprintf(buf, size, "%" PRId32, s->i32);
	else if (strcmp(member, "i64") == 0)
		snprintf(buf, size, "%" PRId64, s->i64);
	else if (strcmp(member, "u8") == 0)
		snprintf(buf, size, "%u", s->u8);
	else if (strcmp(member, "u16") == 0)
		snprintf(buf, size, "%u", s->u16);
	else if (strcmp(member, "u32") == 0)
		snprintf(buf, size, "%" PRIu32, s->u32);
	else
		snprintf(buf, size, "%" PRIu64, s->u64);
}

Test(jsonwalk_int, each_width_reads_its_limits)
{
	for (size_t i = 0; i < sizeof(in_range) / sizeof(in_range[0]); i++) {
		const struct int_case *c = &in_range[i];
		char doc[128], got[32];
		snprintf(doc, sizeof(doc), "{\"%s\": %s}", c->member, c->literal);
		struct run run;
		assert_ok(&run, doc);
		int_member_text(&run.s, c->member, got, sizeof(got));
		cr_expect_str_eq(got, c->want, "%s: read %s", doc, got);
		done(&run);
	}
}

Test(jsonwalk_int, each_width_refuses_past_its_limits_naming_the_range)
{
	for (size_t i = 0; i < sizeof(out_of_range) / sizeof(out_of_range[0]); i++) {
		const struct int_case *c = &out_of_range[i];
		char doc[128], msg[256];
		snprintf(doc, sizeof(doc), "{\"%s\": %s}", c->member, c->literal);
		snprintf(msg, sizeof(msg), "t.json: .%s: %s is out of range [%s]", c->member,
			 c->literal, c->want);
		assert_only_error(doc, msg);
	}
}

Test(jsonwalk_int, non_integers_refused)
{
	assert_only_error("{\"u32\": 1.5}", "t.json: .u32: expected an integer, got 1.5");
	assert_only_error("{\"u32\": 1e3}", "t.json: .u32: expected an integer, got 1e3");
	assert_only_error("{\"i64\": 1.0}", "t.json: .i64: expected an integer, got 1.0");
	assert_only_error("{\"i32\": -2E2}", "t.json: .i32: expected an integer, got -2E2");
	assert_only_error("{\"u64\": \"5\"}", "t.json: .u64: expected an integer, got \"5\"");
	assert_only_error("{\"i32\": false}", "t.json: .i32: expected an integer, got false");
}

/* ---- enums ---- */

Test(jsonwalk_enum, known_names_store_their_index)
{
	struct run run;
	assert_ok(&run, "{\"color\": \"blue\", \"colors\": [\"green\", \"red\"]}");
	cr_expect_eq(run.s.color, 2);
	cr_assert_eq(run.s.colors.len, 2);
	cr_expect_eq(run.s.colors.items[0], 1);
	cr_expect_eq(run.s.colors.items[1], 0);
	done(&run);
}

Test(jsonwalk_enum, unknown_name_lists_choices)
{
	assert_only_error(
		"{\"color\": \"pink\"}",
		"t.json: .color: expected one of \"red\", \"green\", \"blue\", got \"pink\"");
	assert_only_error(
		"{\"color\": \"Red\"}",
		"t.json: .color: expected one of \"red\", \"green\", \"blue\", got \"Red\"");
	assert_only_error(
		"{\"colors\": [\"red\", 2]}",
		"t.json: .colors[1]: expected one of \"red\", \"green\", \"blue\", got 2");
}

/* ---- objects ---- */

Test(jsonwalk_object, nested_fields_and_presence)
{
	struct run run;
	assert_ok(&run, "{\"obj\": {\"name\": \"a\", \"n\": 3}}");
	cr_expect(run.s.has_obj);
	cr_expect_str_eq(run.s.obj.name, "a");
	cr_expect(run.s.obj.has_n);
	cr_expect_eq(run.s.obj.n, 3);
	done(&run);
	assert_ok(&run, "{\"obj\": {\"name\": \"a\"}}");
	cr_expect(run.s.has_obj);
	cr_expect_not(run.s.obj.has_n);
	done(&run);
	assert_ok(&run, "{}");
	cr_expect_not(run.s.has_obj);
	cr_expect_null(run.s.obj.name);
	done(&run);
}

Test(jsonwalk_object, missing_required_property)
{
	assert_only_error("{\"obj\": {\"n\": 1}}",
			  "t.json: .obj: missing required property \"name\"");
	assert_only_error("{\"list\": [{\"name\": \"a\"}, {}]}",
			  "t.json: .list[1]: missing required property \"name\"");
}

Test(jsonwalk_object, missing_required_property_at_the_root)
{
	struct required_doc doc = {0};
	struct reports r = {0};
	struct ct_error err = {0};
	cr_assert_eq(walk_fields("{}", required_doc_fields, &doc, &r, &err), -1);
	cr_assert_eq(r.nerrors, 1);
	cr_expect_str_eq(r.errors[0], "t.json: .: missing required property \"version\"");
	oci_walk_free(required_doc_fields, &doc);
}

Test(jsonwalk_object, wrong_type)
{
	assert_only_error("{\"obj\": [1]}", "t.json: .obj: expected an object, got an array");
	struct required_doc doc = {0};
	struct reports r = {0};
	struct ct_error err = {0};
	cr_assert_eq(walk_fields("[]", required_doc_fields, &doc, &r, &err), -1);
	cr_expect_str_eq(err.msg, "t.json: .: expected an object, got an array");
	oci_walk_free(required_doc_fields, &doc);
}

Test(jsonwalk_object, duplicate_property)
{
	assert_only_error("{\"str\": \"a\", \"str\": \"b\"}", "t.json: .str: duplicate property");
	assert_only_error("{\"obj\": {\"name\": \"a\", \"n\": 1, \"n\": 2}}",
			  "t.json: .obj.n: duplicate property");
}

Test(jsonwalk_object, duplicate_property_keeps_the_first_value)
{
	struct run run;
	walk(&run, "{\"str\": \"a\", \"str\": \"b\"}");
	cr_expect_eq(run.ret, -1);
	cr_expect_str_eq(run.s.str, "a");
	done(&run);
}

Test(jsonwalk_object, unknown_property_reported_and_ignored)
{
	struct run run;
	assert_ok(&run, "{\"str\": \"x\", \"extra\": [1, 2], \"obj\": {\"name\": \"a\", "
			"\"future\": {\"deep\": 1}}, \"list\": [{\"name\": \"b\", \"z\": null}]}");
	cr_expect_str_eq(run.s.str, "x");
	cr_expect_str_eq(run.s.obj.name, "a");
	cr_assert_eq(run.r.nunknown, 3);
	cr_expect_str_eq(run.r.unknown[0], "t.json .extra");
	cr_expect_str_eq(run.r.unknown[1], "t.json .obj.future");
	cr_expect_str_eq(run.r.unknown[2], "t.json .list[0].z");
	done(&run);
}

Test(jsonwalk_object, unknown_property_with_odd_name_is_quoted)
{
	struct run run;
	assert_ok(&run, "{\"io.example/x\": 1}");
	cr_assert_eq(run.r.nunknown, 1);
	cr_expect_str_eq(run.r.unknown[0], "t.json [\"io.example/x\"]");
	done(&run);
}

/* text walked into s with neither callback set: returns what the walk returned, its error
 * count in *nerrors. */
static int walk_without_callbacks(const char *text, struct sample *s, struct ct_error *err,
				  unsigned *nerrors)
{
	yajl_val tree = oci_json_parse("t.json", text, err);
	cr_assert_not_null(tree);
	struct oci_walk w = {.file = "t.json", .err = err};
	int ret = oci_walk_object(&w, sample_fields, tree, s);
	oci_json_free(tree);
	*nerrors = w.nerrors;
	return ret;
}

Test(jsonwalk_object, unknown_property_without_callback_is_ignored)
{
	struct sample s = {0};
	struct ct_error err = {0};
	unsigned nerrors;
	cr_expect_eq(walk_without_callbacks("{\"nope\": 1, \"u8\": 9}", &s, &err, &nerrors), 0);
	cr_expect_eq(nerrors, 0);
	cr_expect_eq(s.u8, 9);
	oci_walk_free(sample_fields, &s);
}

Test(jsonwalk_object, null_is_absent)
{
	struct run run;
	assert_ok(&run, "{\"str\": null, \"flag\": null, \"u32\": null, \"obj\": null, "
			"\"list\": null, \"map\": null, \"color\": null}");
	cr_expect_null(run.s.str);
	cr_expect_not(run.s.flag);
	cr_expect_eq(run.s.u32, 0);
	cr_expect_not(run.s.has_obj);
	cr_expect_eq(run.s.list.len, 0);
	cr_expect_eq(run.s.map.len, 0);
	cr_expect_eq(run.r.nunknown, 0);
	done(&run);
}

Test(jsonwalk_object, null_required_property_is_missing)
{
	assert_only_error("{\"obj\": {\"name\": null}}",
			  "t.json: .obj: missing required property \"name\"");
}

/* ---- arrays ---- */

Test(jsonwalk_array, elements_in_order)
{
	struct run run;
	assert_ok(&run, "{\"strs\": [\"a\", \"b\", \"c\"], \"ids\": [0, 4294967295], "
			"\"list\": [{\"name\": \"x\", \"n\": 1}, {\"name\": \"y\"}]}");
	cr_assert_eq(run.s.strs.len, 3);
	cr_expect_str_eq(run.s.strs.items[0], "a");
	cr_expect_str_eq(run.s.strs.items[2], "c");
	cr_assert_eq(run.s.ids.len, 2);
	cr_expect_eq(run.s.ids.items[1], UINT32_MAX);
	cr_assert_eq(run.s.list.len, 2);
	cr_expect_str_eq(run.s.list.items[0].name, "x");
	cr_expect(run.s.list.items[0].has_n);
	cr_expect_str_eq(run.s.list.items[1].name, "y");
	cr_expect_not(run.s.list.items[1].has_n);
	done(&run);
}

Test(jsonwalk_array, empty)
{
	struct run run;
	assert_ok(&run, "{\"strs\": []}");
	cr_expect_eq(run.s.strs.len, 0);
	cr_expect_null(run.s.strs.items);
	done(&run);
}

Test(jsonwalk_array, index_in_path)
{
	assert_only_error("{\"strs\": [\"a\", \"b\", 3]}",
			  "t.json: .strs[2]: expected a string, got 3");
	assert_only_error("{\"list\": [{\"name\": \"a\"}, {\"name\": \"b\", \"n\": \"x\"}]}",
			  "t.json: .list[1].n: expected an integer, got \"x\"");
	assert_only_error("{\"ids\": [1, 4294967296]}",
			  "t.json: .ids[1]: 4294967296 is out of range [0, 4294967295]");
}

Test(jsonwalk_array, wrong_type)
{
	assert_only_error("{\"strs\": \"a\"}", "t.json: .strs: expected an array, got \"a\"");
	assert_only_error("{\"list\": {}}", "t.json: .list: expected an array, got an object");
}

Test(jsonwalk_array, later_elements_walked_after_an_error)
{
	struct run run;
	walk(&run, "{\"list\": [{\"n\": 1}, {\"name\": \"ok\"}]}");
	cr_expect_eq(run.ret, -1);
	cr_assert_eq(run.s.list.len, 2);
	cr_expect_str_eq(run.s.list.items[1].name, "ok");
	done(&run);
}

/* ---- maps ---- */

Test(jsonwalk_map, keys_and_values_in_order)
{
	struct run run;
	assert_ok(&run, "{\"map\": {\"foo\": \"1\", \"net.ipv4.ip_forward\": \"0\", \"\": \"e\"}}");
	cr_assert_eq(run.s.map.len, 3);
	cr_expect_str_eq(run.s.map.items[0].key, "foo");
	cr_expect_str_eq(run.s.map.items[0].value, "1");
	cr_expect_str_eq(run.s.map.items[1].key, "net.ipv4.ip_forward");
	cr_expect_str_eq(run.s.map.items[1].value, "0");
	cr_expect_str_eq(run.s.map.items[2].key, "");
	cr_expect_str_eq(run.s.map.items[2].value, "e");
	done(&run);
}

Test(jsonwalk_map, identifier_key_in_path)
{
	assert_only_error("{\"map\": {\"foo\": 1}}", "t.json: .map.foo: expected a string, got 1");
	assert_only_error("{\"map\": {\"a_B9\": true}}",
			  "t.json: .map.a_B9: expected a string, got true");
}

Test(jsonwalk_map, other_keys_quoted_in_path)
{
	assert_only_error("{\"map\": {\"net.ipv4.ip_forward\": 1}}",
			  "t.json: .map[\"net.ipv4.ip_forward\"]: expected a string, got 1");
	assert_only_error("{\"map\": {\"a-b\": 1}}",
			  "t.json: .map[\"a-b\"]: expected a string, got 1");
	assert_only_error("{\"map\": {\"\": 1}}", "t.json: .map[\"\"]: expected a string, got 1");
}

Test(jsonwalk_map, object_values_hold_their_key)
{
	struct run run;
	assert_ok(&run, "{\"objmap\": {\"eth0\": {\"name\": \"c0\", \"n\": 2}, \"ens4\": {}}}");
	cr_assert_eq(run.s.objmap.len, 2);
	cr_expect_str_eq(run.s.objmap.items[0].key, "eth0");
	cr_expect_str_eq(run.s.objmap.items[0].name, "c0");
	cr_expect_eq(run.s.objmap.items[0].n, 2);
	cr_expect_str_eq(run.s.objmap.items[1].key, "ens4");
	cr_expect_null(run.s.objmap.items[1].name);
	done(&run);
	assert_only_error("{\"objmap\": {\"mlx5_1\": {\"n\": \"x\"}}}",
			  "t.json: .objmap.mlx5_1.n: expected an integer, got \"x\"");
}

Test(jsonwalk_map, wrong_type)
{
	assert_only_error("{\"map\": [\"a=b\"]}", "t.json: .map: expected an object, got an array");
	assert_only_error("{\"objmap\": {\"eth0\": \"x\"}}",
			  "t.json: .objmap.eth0: expected an object, got \"x\"");
}

Test(jsonwalk_map, repeated_key_refused)
{
	assert_only_error("{\"map\": {\"a\": \"1\", \"b\": \"2\", \"a\": \"3\"}}",
			  "t.json: .map.a: duplicate property");
}

/* ---- every error is reported ---- */

Test(jsonwalk_errors, every_error_reaches_on_error)
{
	struct run run;
	walk(&run, "{\"str\": 1,\n \"u8\": 300,\n \"list\": [{}, {\"name\": 2}],\n"
		   " \"map\": {\"k.x\": false},\n \"color\": \"pink\"}");
	cr_expect_eq(run.ret, -1);
	cr_assert_eq(run.r.nerrors, 6, "%u errors", run.r.nerrors);
	cr_expect_str_eq(run.r.errors[0], "t.json: .str: expected a string, got 1");
	cr_expect_str_eq(run.r.errors[1], "t.json: .u8: 300 is out of range [0, 255]");
	cr_expect_str_eq(run.r.errors[2], "t.json: .list[0]: missing required property \"name\"");
	cr_expect_str_eq(run.r.errors[3], "t.json: .list[1].name: expected a string, got 2");
	cr_expect_str_eq(run.r.errors[4], "t.json: .map[\"k.x\"]: expected a string, got false");
	cr_expect_str_eq(
		run.r.errors[5],
		"t.json: .color: expected one of \"red\", \"green\", \"blue\", got \"pink\"");
	/* err keeps the first problem, as the one line a user sees. */
	cr_expect_str_eq(run.err.msg, run.r.errors[0]);
	done(&run);
}

Test(jsonwalk_errors, without_callback_err_has_the_first)
{
	struct sample s = {0};
	struct ct_error err = {0};
	unsigned nerrors;
	cr_expect_eq(walk_without_callbacks("{\"u8\": -1, \"u16\": -1}", &s, &err, &nerrors), -1);
	cr_expect_eq(nerrors, 2);
	cr_expect_str_eq(err.msg, "t.json: .u8: -1 is out of range [0, 255]");
	oci_walk_free(sample_fields, &s);
}

Test(jsonwalk_errors, error_at_subpath)
{
	struct reports r = {0};
	struct ct_error err = {0};
	struct oci_walk w = {
		.file = "config.json", .err = &err, .on_error = collect_error, .data = &r};
	cr_expect_eq(oci_walk_error_at(&w, "linux.devices[2]", "bad %s", "thing"), -1);
	cr_expect_str_eq(err.msg, "config.json: .linux.devices[2]: bad thing");
	cr_expect_eq(oci_walk_error(&w, "at the root"), -1);
	cr_expect_str_eq(r.errors[1], "config.json: .: at the root");
	cr_expect_eq(w.depth, 0);
	cr_expect_eq(w.nerrors, 2);
	/* err keeps the first one */
	cr_expect_str_eq(err.msg, "config.json: .linux.devices[2]: bad thing");
}

/* A path longer than the 511 characters of w->path is cut there, however deep the walk goes
 * (past OCI_PATH_STEPS levels too), and the levels are all popped again. */
Test(jsonwalk_errors, long_path_cut_at_511_characters)
{
	enum { LEVELS = 300 };
	char text[4 * LEVELS + 32], want_path[8 + 3 * LEVELS];
	size_t n = (size_t)snprintf(text, sizeof(text), "{\"nest\": ");
	size_t p = (size_t)snprintf(want_path, sizeof(want_path), ".nest");
	for (int i = 0; i < LEVELS; i++) {
		text[n++] = '[';
		p += (size_t)snprintf(want_path + p, sizeof(want_path) - p, "[0]");
	}
	text[n++] = '7';
	for (int i = 0; i < LEVELS; i++)
		text[n++] = ']';
	snprintf(text + n, sizeof(text) - n, "}");
	want_path[511] = '\0';
	char want[CT_ERROR_MSG_MAX];
	snprintf(want, sizeof(want), "t.json: %s: expected an array, got 7", want_path);
	assert_only_error(text, want);
}

Test(jsonwalk_errors, long_unknown_key_cut_at_511_characters)
{
	char key[600], text[700], want[600];
	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	snprintf(text, sizeof(text), "{\"obj\": {\"name\": \"a\", \"%s\": 1}}", key);
	struct run run;
	assert_ok(&run, text);
	cr_assert_eq(run.r.nunknown, 1);
	snprintf(want, sizeof(want), "t.json .obj.%.*s", 511 - 5, key);
	cr_expect_str_eq(run.r.unknown[0], want);
	done(&run);
}

Test(jsonwalk_errors, error_without_err_or_callback)
{
	struct oci_walk w = {.file = "f"};
	cr_expect_eq(oci_walk_error(&w, "x"), -1);
	cr_expect_eq(w.nerrors, 1);
}

/* ---- documents ---- */

static void assert_malformed(const char *text, const char *msg)
{
	struct ct_error err = {0};
	yajl_val tree = oci_json_parse("config.json", text, &err);
	cr_expect_null(tree, "%s parsed", text);
	if (tree)
		oci_json_free(tree);
	cr_expect_str_eq(err.msg, msg);
}

Test(jsonwalk_parse, malformed_json_has_line_and_column)
{
	assert_malformed("{\n  \"ociVersion\": \"1.0.0\",\n  \"root\": ]\n}",
			 "config.json: malformed JSON at line 3, column 11: unallowed token at "
			 "this point in JSON text");
	assert_malformed("{]",
			 "config.json: malformed JSON at line 1, column 2: invalid object key "
			 "(must be a string)");
}

Test(jsonwalk_parse, truncated_json)
{
	assert_malformed("{\"a\":",
			 "config.json: malformed JSON at line 1, column 5: premature EOF");
	assert_malformed("", "config.json: malformed JSON at line 1, column 1: premature EOF");
}

Test(jsonwalk_parse, trailing_garbage)
{
	struct ct_error err = {0};
	yajl_val tree = oci_json_parse("config.json", "{}\n{}", &err);
	cr_expect_null(tree);
	cr_expect_not_null(strstr(err.msg, "config.json: malformed JSON at line 2, column 1"), "%s",
			   err.msg);
}

Test(jsonwalk_parse, good_json)
{
	struct ct_error err = {0};
	yajl_val tree = oci_json_parse("config.json", "{\"a\": [1, \"b\"]}", &err);
	cr_assert_not_null(tree, "%s", err.msg);
	cr_expect(YAJL_IS_OBJECT(tree));
	oci_json_free(tree);
}

/* Over OCI_JSON_MAX_DEPTH brackets in all, but in strings, comments and siblings: shallow
 * text that the bracket count sends to yajl's own depth count, which lets it pass. */
Test(jsonwalk_parse, many_brackets_but_shallow)
{
	static char text[8 * OCI_JSON_MAX_DEPTH];
	size_t n = (size_t)snprintf(text, sizeof(text), "/* {{ */ {\"s\": \"");
	for (int i = 0; i < OCI_JSON_MAX_DEPTH; i++)
		text[n++] = '[';
	n += (size_t)snprintf(text + n, sizeof(text) - n, "\", \"a\": [");
	for (int i = 0; i < OCI_JSON_MAX_DEPTH; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s{}", i ? "," : "");
	snprintf(text + n, sizeof(text) - n, "]}");
	struct ct_error err = {0};
	yajl_val tree = oci_json_parse("config.json", text, &err);
	cr_assert_not_null(tree, "%s", err.msg);
	cr_expect_eq(tree->u.object.values[1]->u.array.len, OCI_JSON_MAX_DEPTH);
	oci_json_free(tree);
}

/* ---- reading files ---- */

static char *write_temp(const char *content, size_t len)
{
	char *path = strdup("/tmp/ctrun-unit-XXXXXX");
	cr_assert_not_null(path);
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
	cr_assert_eq(write(fd, content, len), (ssize_t)len);
	close(fd);
	return path;
}

Test(jsonwalk_read, whole_file)
{
	char *path = write_temp("{\"a\": 1}\n", 9);
	struct ct_error err = {0};
	char *text = oci_read_file(path, 100, &err);
	cr_assert_not_null(text, "%s", err.msg);
	cr_expect_str_eq(text, "{\"a\": 1}\n");
	free(text);
	unlink(path);
	free(path);
}

Test(jsonwalk_read, missing_file)
{
	struct ct_error err = {0};
	cr_expect_null(oci_read_file("/nonexistent/config.json", 100, &err));
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_str_eq(err.msg, "open \"/nonexistent/config.json\": No such file or directory");
}

Test(jsonwalk_read, directory_refused)
{
	struct ct_error err = {0};
	cr_expect_null(oci_read_file("/", 100, &err));
	cr_expect_eq(err.errnum, EINVAL);
	cr_expect_str_eq(err.msg, "\"/\" is not a regular file");
}

Test(jsonwalk_read, too_large_refused)
{
	char *path = write_temp("0123456789", 10);
	struct ct_error err = {0};
	cr_expect_null(oci_read_file(path, 9, &err));
	cr_expect_eq(err.errnum, EFBIG);
	cr_expect_not_null(strstr(err.msg, "is larger than 9 bytes"), "%s", err.msg);
	unlink(path);
	free(path);
}

Test(jsonwalk_read, nul_byte_refused)
{
	char *path = write_temp("{}\0{}", 5);
	struct ct_error err = {0};
	cr_expect_null(oci_read_file(path, 100, &err));
	cr_expect_not_null(strstr(err.msg, "contains a NUL byte"), "%s", err.msg);
	unlink(path);
	free(path);
}

/* ---- freeing ---- */

Test(jsonwalk_free, everything_and_partial_walks)
{
	/* Run under valgrind to see no leak; here: freeing full, partial and empty results. */
	struct run run;
	assert_ok(&run,
		  "{\"str\": \"s\", \"abs\": \"/a\", \"obj\": {\"name\": \"n\"}, "
		  "\"list\": [{\"name\": \"a\"}], \"colors\": [\"red\"], \"strs\": [\"x\"], "
		  "\"ids\": [1], \"map\": {\"k\": \"v\"}, \"objmap\": {\"e\": {\"name\": \"c\"}}}");
	cr_expect_eq(run.s.objmap.len, 1);
	done(&run);
	walk(&run, "{\"abs\": \"rel\", \"list\": [{\"name\": \"a\"}, {\"n\": 1}], "
		   "\"map\": {\"k\": \"v\", \"k\": \"w\", \"z\": 1}}");
	cr_expect_eq(run.ret, -1);
	cr_expect_str_eq(run.s.abs, "rel");
	done(&run);
	struct sample empty = {0};
	oci_walk_free(sample_fields, &empty);
	oci_walk_free(sample_fields, NULL);
	cr_expect_null(empty.str);
}
