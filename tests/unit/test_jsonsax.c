/* oci_sax_fill: the field tables through yajl's callbacks, as list reads state.json. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "oci/jsonsax.h"
#include "tests/unit/oci_types.h"

struct inner {
	uint64_t big;
	bool flag;
};

struct doc {
	char *name;
	int32_t count;
	uint32_t owner;
	bool has_owner;
	oci_string_map labels;
	oci_strings tags; /* an array: never read, always skipped */
	char *secret;	  /* not wanted by want_no_secret */
	struct inner inner;
};

static const struct oci_type t_small = {.kind = OCI_INT, .width = 4, .min = -5, .max = 100};

static const struct oci_field inner_fields[] = {
	OCI_FIELD_REQ(struct inner, "big", big, oci_t_uint64),
	OCI_FIELD(struct inner, "flag", flag, oci_t_bool),
	{NULL},
};
static const struct oci_type t_inner = OBJECT_OF(inner_fields);

static const struct oci_field doc_fields[] = {
	OCI_FIELD_REQ(struct doc, "name", name, oci_t_string),
	OCI_FIELD(struct doc, "count", count, t_small),
	OCI_FIELD_OPT(struct doc, "owner", owner, oci_t_uint32),
	OCI_FIELD(struct doc, "labels", labels, oci_t_string_map),
	OCI_FIELD(struct doc, "tags", tags, oci_t_string_array),
	OCI_FIELD_REQ(struct doc, "secret", secret, oci_t_string),
	OCI_FIELD_REQ(struct doc, "inner", inner, t_inner),
	{NULL},
};

static bool want_no_secret(const struct oci_field *f)
{
	return strcmp(f->name, "secret") != 0;
}

static int fill(const char *text, struct doc *d, oci_sax_wanted wanted)
{
	memset(d, 0, sizeof(*d));
	return oci_sax_fill(text, strlen(text), doc_fields, wanted, d);
}

/* Each of the n texts is refused (the secret not wanted). */
static void expect_refused(const char *const *texts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct doc d;
		cr_expect_eq(fill(texts[i], &d, want_no_secret), -1, "accepted: %s", texts[i]);
		oci_walk_free(doc_fields, &d);
	}
}

#define GOOD_INNER "\"inner\": {\"big\": 18446744073709551615, \"flag\": true}"

Test(jsonsax, fills_every_kind_it_reads)
{
	struct doc d;
	const char *text = "{\"name\": \"web\", \"count\": -5, \"owner\": 0, \"secret\": \"s\", "
			   "\"labels\": {\"a\": \"1\", \"b\": \"2\", \"c\": \"3\"}, " GOOD_INNER
			   ", \"unknown\": [1, {\"x\": [null]}]}";
	cr_assert_eq(fill(text, &d, NULL), 0);
	cr_expect_str_eq(d.name, "web");
	cr_expect_eq(d.count, -5);
	cr_expect_eq(d.owner, 0);
	cr_expect(d.has_owner, "the presence flag of an optional field");
	cr_expect_str_eq(d.secret, "s");
	cr_expect_eq(d.inner.big, UINT64_MAX);
	cr_expect(d.inner.flag);
	cr_assert_eq(d.labels.len, 3);
	cr_expect_str_eq(d.labels.items[0].key, "a");
	cr_expect_str_eq(d.labels.items[2].value, "3");
	oci_walk_free(doc_fields, &d);
}

Test(jsonsax, skips_unwanted_fields_and_arrays_unread)
{
	struct doc d;
	const char *text = "{\"tags\": [\"x\", \"y\"], \"secret\": {\"deep\": [1, [2, {}]]}, "
			   "\"name\": \"n\", " GOOD_INNER "}";
	cr_assert_eq(fill(text, &d, want_no_secret), 0);
	cr_expect_null(d.secret);
	cr_expect_eq(d.tags.len, 0);
	cr_expect_str_eq(d.name, "n");
	cr_expect_not(d.has_owner);
	oci_walk_free(doc_fields, &d);
}

/* Each is refused; whatever was filled before is freed by oci_walk_free (no leak under
 * valgrind or ASan). */
Test(jsonsax, refuses_what_does_not_fit)
{
	static const char *const bad[] = {
		"",
		"[]",
		"1",
		"{\"name\": ",
		"{\"name\": \"n\"}",				     /* inner missing */
		"{\"name\": \"n\", \"inner\": {\"flag\": true}}",    /* inner.big missing */
		"{\"name\": 1, " GOOD_INNER "}",		     /* a number for a string */
		"{\"name\": \"n\", \"count\": 101, " GOOD_INNER "}", /* out of range */
		"{\"name\": \"n\", \"count\": 1.5, " GOOD_INNER "}", /* not an integer */
		"{\"name\": \"n\", \"owner\": -1, " GOOD_INNER "}",  /* negative unsigned */
		"{\"name\": \"n\", \"labels\": {\"a\": 1}, " GOOD_INNER "}",
		"{\"name\": \"n\", \"labels\": [], " GOOD_INNER "}",
		"{\"name\": null, " GOOD_INNER "}",
		"{\"name\": \"n\", " GOOD_INNER "} {}",
		"{\"name\": \"n\", \"count\": 123456789012345678901234567890123, " GOOD_INNER "}",
	};
	expect_refused(bad, sizeof(bad) / sizeof(bad[0]));
}

Test(jsonsax, a_repeated_member_keeps_the_last_value)
{
	struct doc d;
	cr_assert_eq(fill("{\"name\": \"a\", \"name\": \"b\", " GOOD_INNER "}", &d, want_no_secret),
		     0);
	cr_expect_str_eq(d.name, "b");
	oci_walk_free(doc_fields, &d);
}

/* More keys than one growth step, past several powers of two. */
Test(jsonsax, a_map_grows_past_powers_of_two)
{
	char text[4096] = "{\"name\": \"n\", " GOOD_INNER ", \"labels\": {";
	for (int i = 0; i < 40; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s\"k%d\": \"v%d\"",
			 i ? ", " : "", i, i);
	strcat(text, "}}");
	struct doc d;
	cr_assert_eq(fill(text, &d, want_no_secret), 0, "%s", text);
	cr_assert_eq(d.labels.len, 40);
	cr_expect_str_eq(d.labels.items[39].key, "k39");
	cr_expect_str_eq(d.labels.items[39].value, "v39");
	cr_expect_str_eq(d.labels.items[16].value, "v16");
	oci_walk_free(doc_fields, &d);
}

/* A "\u0000" inside a string or a key, read, skipped or unwanted, refuses the document, as
 * the tree refuses it (oci/jsontree.c): the lean reader of `list` takes no more than that. */
Test(jsonsax, a_nul_in_any_string_or_key_is_refused)
{
	static const char *const docs[] = {
		"{\"name\\u0000x\": \"n\", \"secret\": \"s\", " GOOD_INNER "}",
		"{\"name\": \"n\\u0000x\", \"secret\": \"s\", " GOOD_INNER "}",
		"{\"name\": \"n\", \"secret\": \"s\\u0000\", " GOOD_INNER "}",
		"{\"name\": \"n\", \"secret\": \"s\", \"tags\": [\"\\u0000\"], " GOOD_INNER "}",
		"{\"name\": \"n\", \"secret\": \"s\", \"labels\": {\"k\\u0000\": "
		"\"v\"}, " GOOD_INNER "}",
		"{\"name\": \"n\", \"secret\": \"s\", \"other\": {\"\\u0000\": 1}, " GOOD_INNER "}",
	};
	expect_refused(docs, sizeof(docs) / sizeof(docs[0]));
	struct doc d;
	cr_expect_eq(fill("{\"name\": \"n\\u0001\", \"secret\": \"s\", " GOOD_INNER "}", &d,
			  want_no_secret),
		     0, "another control character is no NUL");
	oci_walk_free(doc_fields, &d);
}
