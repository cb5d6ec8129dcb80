/* Inputs that crashed a parser, each fed to the parser it crashed (the fuzz harnesses of
 * tests/fuzz/ and what they taught), so that `make check` keeps them covered without clang.
 * Suite fuzz_regressions. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/cgroup/cpuset_list.h"
#include "libct/criu/criu_config.h"
#include "libct/state/state.h"
#include "oci/config.h"
#include "oci/jsonwalk.h"

/* A JSON document: `head`, `depth` times `open`, `mid`, `depth` times `close`, `tail`. */
static char *nested(const char *head, const char *open, const char *mid, const char *close,
		    size_t depth, const char *tail)
{
	size_t lo = strlen(open), lc = strlen(close);
	size_t len = strlen(head) + depth * (lo + lc) + strlen(mid) + strlen(tail);
	char *s = malloc(len + 1);
	cr_assert_not_null(s);
	char *p = stpcpy(s, head);
	for (size_t i = 0; i < depth; i++)
		p = stpcpy(p, open);
	p = stpcpy(p, mid);
	for (size_t i = 0; i < depth; i++)
		p = stpcpy(p, close);
	stpcpy(p, tail);
	return s;
}

#define CONFIG_HEAD "{\"ociVersion\": \"1.3.0\", \"root\": {\"path\": \"rootfs\"}, \"x-vendor\": "
/* The pieces that nest objects, and the end of a document (out of the test bodies, whose
 * braces then balance for the eye and for tools that count them). */
#define OBJECT_OPEN  "{\"a\": "
#define OBJECT_CLOSE "}"
#define DOC_CLOSE    "}"

/* The config with an unknown member nested `depth` arrays deep (the document adds 1). */
static int parse_config_nested(size_t depth, struct ct_error *err)
{
	char *text = nested(CONFIG_HEAD, "[", "", "]", depth, "}");
	struct oci_config *config = NULL;
	int r = oci_config_parse(text, NULL, &config, err);
	free(text);
	if (r == 0)
		oci_config_free(config);
	else
		cr_expect_null(config);
	return r;
}

static void expect_too_deep(const struct ct_error *err, const char *file)
{
	char want[128];
	snprintf(want, sizeof(want), "%s: JSON nested deeper than %d levels at line 1", file,
		 OCI_JSON_MAX_DEPTH);
	cr_expect(strstr(err->msg, want), "error \"%s\" lacks \"%s\"", err->msg, want);
}

/* yajl_tree_free recursed once per level: a config.json of a million '[' (2 MB, well under
 * the 16 MB a config may have) overflowed the stack and killed ctrun with SIGSEGV. */
Test(fuzz_regressions, config_nested_a_million_deep_is_refused)
{
	struct ct_error err = {0};
	cr_assert_eq(parse_config_nested(1000000, &err), -1);
	expect_too_deep(&err, "config.json");
}

Test(fuzz_regressions, config_nested_objects_a_million_deep_is_refused)
{
	char *text = nested(CONFIG_HEAD, OBJECT_OPEN, "1", OBJECT_CLOSE, 1000000, DOC_CLOSE);
	struct oci_config *config = NULL;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_parse(text, NULL, &config, &err), -1);
	expect_too_deep(&err, "config.json");
	free(text);
}

/* The limit counts the document itself as level 1, and is the only thing refused. */
Test(fuzz_regressions, config_depth_limit_is_exact)
{
	struct ct_error err = {0};
	cr_expect_eq(parse_config_nested(OCI_JSON_MAX_DEPTH - 1, &err), 0, "%s", err.msg);
	cr_expect_eq(parse_config_nested(OCI_JSON_MAX_DEPTH, &err), -1);
	expect_too_deep(&err, "config.json");
}

/* Brackets in strings and comments are not levels; a quote in a comment does not hide the
 * brackets after it. */
Test(fuzz_regressions, depth_is_counted_by_the_json_lexer)
{
	struct ct_error err = {0};
	char *text = nested(CONFIG_HEAD "[\"[[[[\", ", "", "", "", 0, "[]]" DOC_CLOSE);
	struct oci_config *config = NULL;
	cr_expect_eq(oci_config_parse(text, NULL, &config, &err), 0, "%s", err.msg);
	oci_config_free(config);
	free(text);
	text = nested("/* \" */" CONFIG_HEAD, "[", "", "]", 100000, DOC_CLOSE);
	cr_expect_eq(oci_config_parse(text, NULL, &config, &err), -1);
	expect_too_deep(&err, "config.json");
	free(text);
}

/* state.json goes through the same parser: read by the same parser, it had the same crash. */
Test(fuzz_regressions, state_nested_a_million_deep_is_refused)
{
	char *text = nested("{\"id\": ", "[", "", "]", 1000000, "}");
	struct ct_state st;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_parse("state.json", text, &st, &err), -1);
	expect_too_deep(&err, "state.json");
	free(text);
}

/* fuzz_state: the full reader (yajl's tree) takes comments, so list's lean reader must too. */
Test(fuzz_regressions, state_with_comments_is_read_by_both_readers)
{
	static const char text[] =
		"/* c */{\"ociVersion\": \"1.3.0\", \"id\": \"web\", // the id\n"
		"\"bundle\": \"/b\", \"rootfs\": \"/r\", \"created\": \"c\", \"owner\": 0, "
		"\"pid\": 1, \"ctrun\": {\"pidStartTime\": 1, /**/\"started\": false}}";
	struct ct_state full, lean;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_parse("state.json", text, &full, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_state_parse_for_list("state.json", text, sizeof(text) - 1, &lean, &err), 0,
		     "%s", err.msg);
	cr_expect_str_eq(lean.id, full.id);
	cr_expect_eq(lean.pid, full.pid);
	ct_state_free(&full);
	ct_state_free(&lean);
}

/* fuzz_criu_config: an empty quoted log-file was taken as set to nothing; criu's log is not
 * known then, as with "log-file=" */
Test(fuzz_regressions, criu_config_empty_quoted_log_file_is_unknown)
{
	static const char text[] = "teedteed\nlog-file\t\\d \"\xa7\\d\"\"\n\"[d\n"
				   "log-file\t \"\xa7\\d\"\"\n\"[ed\nlog-file\t \"\"\n";
	char value[32];
	cr_assert_eq(ct_criu_config_log_file(text, sizeof(text) - 1, value, sizeof(value)), -1);
	cr_assert_str_eq(value, "");
}

/* fuzz_cpuset_list ran out of memory on "20-65535": written back as 65516 single numbers, the
 * list grew by one number a time (a copy each); it grows by powers of two now. */
Test(fuzz_regressions, cpuset_list_of_many_single_numbers_is_read_whole)
{
	char *text = malloc(65536 * 6 + 1), *p = text;
	cr_assert_not_null(text);
	for (unsigned v = 20; v <= 65535; v++)
		p += sprintf(p, "%s%u", v > 20 ? "," : "", v);
	uint16_t *got = NULL;
	size_t n = 0;
	cr_assert_eq(ct_cpuset_list_parse(text, &got, &n), 0);
	cr_expect_eq(n, 65516);
	cr_expect_eq(got[0], 20);
	cr_expect_eq(got[n - 1], 65535);
	free(got);
	free(text);
}
