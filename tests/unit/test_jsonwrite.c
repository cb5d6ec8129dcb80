/* oci/jsonwrite.c: a LinuxResources object written back is what was read, and a second one
 * laid over it replaces what it gives and keeps the rest. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oci/config.h"
#include "oci/jsonwrite.h"

#define JSON(...) #__VA_ARGS__

static struct oci_resources *parse(const char *json)
{
	struct oci_resources *r;
	struct ct_error err = {0};
	cr_assert_eq(oci_resources_parse(json, "r.json", &r, &err), 0, "%s", err.msg);
	return r;
}

static char *write_text(const struct oci_resources *r)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	oci_write_object(g, oci_resources_fields, r);
	const unsigned char *buf;
	size_t len;
	yajl_gen_get_buf(g, &buf, &len);
	char *text = strndup((const char *)buf, len);
	yajl_gen_free(g);
	return text;
}

static void assert_writes(const char *json, const char *want)
{
	struct oci_resources *r = parse(json);
	char *text = write_text(r);
	cr_expect_str_eq(text, want);
	struct oci_resources *again = parse(text);
	char *text2 = write_text(again);
	cr_expect_str_eq(text2, text, "read back and written again");
	free(text);
	free(text2);
	oci_resources_free(r);
	oci_resources_free(again);
}

Test(jsonwrite, resources_round_trip)
{
	assert_writes("{}", "{}");
	assert_writes(
		JSON({
			"devices" : [
				{"allow" : false, "access" : "rwm"},
				{"allow" : true, "type" : "c", "major" : 1, "minor" : -1}
			],
			"memory" : {"limit" : 0, "swap" : -1, "disableOOMKiller" : false},
			"cpu" : {"shares" : 1024, "quota" : -1, "cpus" : "0-1"},
			"pids" : {"limit" : 0},
			"blockIO" : {
				"weight" : 10,
				"weightDevice" : [ {"major" : 8, "minor" : 0, "weight" : 500} ]
			},
			"hugepageLimits" : [ {"pageSize" : "2MB", "limit" : 18446744073709551615} ],
			"unified" : {"memory.high" : "max"}
		}),
		"{\"devices\":[{\"allow\":false,\"access\":\"rwm\"},{\"allow\":true,\"type\":"
		"\"c\",\"major\":1,\"minor\":-1}],\"memory\":{\"limit\":0,\"swap\":-1,"
		"\"disableOOMKiller\":false},\"cpu\":{\"shares\":1024,\"quota\":-1,\"cpus\":"
		"\"0-1\"},\"pids\":{\"limit\":0},\"blockIO\":{\"weight\":10,\"weightDevice\":"
		"[{\"major\":8,\"minor\":0,\"weight\":500}]},\"hugepageLimits\":[{\"pageSize\":"
		"\"2MB\",\"limit\":18446744073709551615}],\"unified\":"
		"{\"memory.high\":\"max\"}}");
}

Test(jsonwrite, merge_replaces_given_fields_and_keeps_the_rest)
{
	struct oci_resources *base = parse(JSON({
		"memory" : {"limit" : 100, "swap" : 200},
		"cpu" : {"period" : 100000, "quota" : 5000, "cpus" : "0"},
		"devices" : [ {"allow" : false} ]
	}));
	struct oci_resources *upd = parse(JSON({
		"memory" : {"limit" : 50},
		"cpu" : {"cpus" : "1"},
		"pids" : {"limit" : 7},
		"devices" : [ {"allow" : true} ]
	}));
	oci_merge_object(oci_resources_fields, base, upd);
	oci_resources_free(upd);
	char *text = write_text(base);
	cr_expect_str_eq(text, "{\"devices\":[{\"allow\":true}],\"memory\":{\"limit\":50,\"swap\""
			       ":200},\"cpu\":{\"quota\":5000,\"period\":100000,\"cpus\":\"1\"},"
			       "\"pids\":{\"limit\":7}}");
	free(text);
	oci_resources_free(base);
}

/* Integers narrower than 64 bits keep their sign through the walker's store and the
 * writer's load; oci_json_generate returns the text. */
struct narrow {
	int8_t i8;
	int16_t i16;
	int32_t i32;
};
static const struct oci_type t_i8 = {.kind = OCI_INT, .width = 1, .min = INT8_MIN, .max = INT8_MAX};
static const struct oci_type t_i16 = {
	.kind = OCI_INT, .width = 2, .min = INT16_MIN, .max = INT16_MAX};
static const struct oci_field narrow_fields[] = {
	OCI_FIELD(struct narrow, "i8", i8, t_i8),
	OCI_FIELD(struct narrow, "i16", i16, t_i16),
	OCI_FIELD(struct narrow, "i32", i32, oci_t_int32),
	{NULL},
};

static int gen_narrow(yajl_gen g, const void *arg)
{
	oci_write_object(g, narrow_fields, arg);
	return 0;
}

Test(jsonwrite, narrow_signed_integers_keep_their_sign)
{
	struct narrow n = {0};
	cr_assert_eq(oci_integer_store(&t_i8, "-128", &n.i8), OCI_INTEGER_STORED);
	cr_assert_eq(oci_integer_store(&t_i16, "-300", &n.i16), OCI_INTEGER_STORED);
	cr_assert_eq(oci_integer_store(&oci_t_int32, "-2147483648", &n.i32), OCI_INTEGER_STORED);
	cr_expect_eq(n.i8, INT8_MIN);
	cr_expect_eq(n.i16, -300);
	cr_expect_eq(n.i32, INT32_MIN);
	size_t len;
	char *text = oci_json_generate(gen_narrow, &n, false, &len);
	cr_assert_not_null(text, "%s", strerror(errno));
	cr_expect_eq(len, strlen(text));
	cr_expect_str_eq(text, "{\"i8\":-128,\"i16\":-300,\"i32\":-2147483648}");
	free(text);
	n = (struct narrow){.i8 = 127, .i16 = -1, .i32 = 1};
	text = oci_json_generate(gen_narrow, &n, true, NULL);
	cr_assert_not_null(text, "%s", strerror(errno));
	cr_expect_str_eq(text, "{\n  \"i8\": 127,\n  \"i16\": -1,\n  \"i32\": 1\n}\n");
	free(text);
}

static int gen_refused(yajl_gen g, const void *arg)
{
	(void)arg;
	yajl_gen_map_open(g);
	return -1;
}

Test(jsonwrite, a_generator_that_fails_gives_no_text)
{
	errno = 0;
	cr_expect_null(oci_json_generate(gen_refused, NULL, true, NULL));
	cr_expect_eq(errno, EINVAL, "errno %d", errno);
}
