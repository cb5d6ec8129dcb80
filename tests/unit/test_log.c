/* The --log-format json record that Podman and containerd read, and its timestamp. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "runtime/log.h"

static const char *const time_sample = "2026-12-03T08:00:00.123456789Z";

static void assert_record(enum ct_log_level level, const char *msg, const char *expected)
{
	char buf[512];
	cr_assert_eq(ct_log_format_json(buf, sizeof(buf), level, msg, time_sample), 0);
	cr_assert_str_eq(buf, expected);
}

Test(log_json, error_record_has_level_msg_time)
{
	assert_record(CT_LOG_ERROR, "container \"web\" not found",
		      "{\"level\":\"error\",\"msg\":\"container \\\"web\\\" not found\","
		      "\"time\":\"2026-12-03T08:00:00.123456789Z\"}");
}

Test(log_json, every_level_has_its_name)
{
	const char *names[] = {"debug", "info", "warning", "error"};
	for (int level = CT_LOG_DEBUG; level <= CT_LOG_ERROR; level++) {
		char buf[256], expected[256];
		cr_assert_eq(ct_log_format_json(buf, sizeof(buf), level, "m", time_sample), 0);
		snprintf(expected, sizeof(expected),
			 "{\"level\":\"%s\",\"msg\":\"m\",\"time\":\"%s\"}", names[level],
			 time_sample);
		cr_expect_str_eq(buf, expected);
	}
}

Test(log_json, escapes_quotes_newlines_backslashes)
{
	assert_record(CT_LOG_WARNING, "a \"b\"\nc\\d\te",
		      "{\"level\":\"warning\",\"msg\":\"a \\\"b\\\"\\nc\\\\d\\te\","
		      "\"time\":\"2026-12-03T08:00:00.123456789Z\"}");
}

Test(log_json, record_is_one_line)
{
	char buf[256];
	cr_assert_eq(ct_log_format_json(buf, sizeof(buf), CT_LOG_INFO, "one\ntwo\r\n", time_sample),
		     0);
	cr_expect_null(strchr(buf, '\n'));
	cr_expect_null(strchr(buf, '\r'));
}

Test(log_json, too_small_buffer_is_refused)
{
	char buf[16];
	cr_expect_eq(
		ct_log_format_json(buf, sizeof(buf), CT_LOG_ERROR, "a long message", time_sample),
		-1);
}

Test(log_time, rfc3339_utc_with_nanoseconds)
{
	char buf[64];
	ct_log_time_rfc3339(buf, sizeof(buf));
	regex_t re;
	cr_assert_eq(regcomp(&re,
			     "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{9}Z$",
			     REG_EXTENDED | REG_NOSUB),
		     0);
	int rc = regexec(&re, buf, 0, NULL, 0);
	regfree(&re);
	cr_assert_eq(rc, 0, "\"%s\" is not RFC 3339 UTC with nanoseconds", buf);
}

/* JSON: the file holds the error alone (Podman reads it as one object), all with --debug;
 * text keeps every record. */
Test(log_file, json_takes_errors_only_unless_debug)
{
	for (int level = CT_LOG_DEBUG; level <= CT_LOG_ERROR; level++) {
		cr_expect_eq(ct_log_file_takes(CT_LOG_JSON, level, false), level == CT_LOG_ERROR,
			     "json, level %d", level);
		cr_expect(ct_log_file_takes(CT_LOG_JSON, level, true), "json --debug, level %d",
			  level);
		cr_expect(ct_log_file_takes(CT_LOG_TEXT, level, false), "text, level %d", level);
	}
}

/* The text format is logrus's, as runc writes it: msg quoted as Go's %q, so a reader of
 * key="value" pairs finds where it ends. */
static void assert_text_record(const char *msg, const char *expected_msg)
{
	char buf[512], expected[512];
	cr_assert_eq(ct_log_format_text(buf, sizeof(buf), CT_LOG_ERROR, msg, time_sample), 0);
	snprintf(expected, sizeof(expected), "time=\"%s\" level=error msg=%s", time_sample,
		 expected_msg);
	cr_assert_str_eq(buf, expected);
}

Test(log_text, message_quoted_as_go_does)
{
	assert_text_record("container \"web\" not found", "\"container \\\"web\\\" not found\"");
	assert_text_record("a\nb\\c\td\re", "\"a\\nb\\\\c\\td\\re\"");
	assert_text_record("bell\a bs\b ff\f vt\v", "\"bell\\a bs\\b ff\\f vt\\v\"");
	assert_text_record("esc\x1b del\x7f", "\"esc\\x1b del\\x7f\"");
}

/* Go's %q keeps valid UTF-8, writes the C1 controls, U+00A0 and U+00AD as \u00HH and a
 * byte of no valid sequence as \xHH (a stray continuation, an overlong form, a surrogate, a
 * cut sequence). */
Test(log_text, utf8_quoted_as_go_does)
{
	assert_text_record("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xb3",
			   "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xb3\"");
	assert_text_record("c1 \xc2\x85 nbsp \xc2\xa0 shy \xc2\xad",
			   "\"c1 \\u0085 nbsp \\u00a0 shy \\u00ad\"");
	assert_text_record("bad \xff \x80 \xc0\xaf \xed\xa0\x80 \xe2\x82",
			   "\"bad \\xff \\x80 \\xc0\\xaf \\xed\\xa0\\x80 \\xe2\\x82\"");
}

Test(log_text, plain_message_left_unquoted_as_logrus_leaves_it)
{
	assert_text_record("started", "started");
	assert_text_record("a-b.c_d/e@f^g+h9", "a-b.c_d/e@f^g+h9");
	assert_text_record("", "");
	assert_text_record("two words", "\"two words\"");
	assert_text_record("k=v", "\"k=v\"");
}

Test(log_text, too_small_buffer_is_refused)
{
	char buf[64];
	cr_expect_eq(ct_log_format_text(buf, sizeof(buf), CT_LOG_ERROR, "a message too long to fit",
					time_sample),
		     -1);
	cr_expect_eq(ct_log_format_text(buf, sizeof(buf), CT_LOG_ERROR, "", time_sample), 0);
}
