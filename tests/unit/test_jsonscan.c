/* oci_json_scan against yajl: the same events for what both accept, a refusal for what yajl
 * refuses, and the documented differences. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "oci/jsonscan.h"
#include "oci/yajl_events.h"

/* The events as text: "{", "}", "[", "]", "k:KEY", "s:STRING", "n:NUMBER", "t", "f", "0",
 * one per line; bytes outside printable ASCII as \xNN so a NUL inside shows. */
struct trace {
	char out[4096];
	size_t len;
	int stop_after; /* a callback returns 0 at this event (0: never) */
	int events;
};

static int add(struct trace *t, const char *tag, const unsigned char *s, size_t n)
{
	/* room for the longest piece ("\\xNN" or a tag) and the NUL; a longer trace is cut */
	for (size_t i = 0; tag[i] && t->len + 8 < sizeof(t->out); i++)
		t->out[t->len++] = tag[i];
	for (size_t i = 0; s && i < n && t->len + 8 < sizeof(t->out); i++)
		t->len += (size_t)snprintf(t->out + t->len, sizeof(t->out) - t->len,
					   s[i] >= 0x20 && s[i] < 0x7f ? "%c" : "\\x%02x", s[i]);
	if (t->len + 8 < sizeof(t->out))
		t->out[t->len++] = '\n';
	t->out[t->len] = '\0';
	return ++t->events != t->stop_after;
}

static int on_null(void *c)
{
	return add(c, "0", NULL, 0);
}
static int on_boolean(void *c, int v)
{
	return add(c, v ? "t" : "f", NULL, 0);
}
static int on_number(void *c, const char *s, size_t n)
{
	return add(c, "n:", (const unsigned char *)s, n);
}
static int on_string(void *c, const unsigned char *s, size_t n)
{
	return add(c, "s:", s, n);
}
static int on_map_key(void *c, const unsigned char *s, size_t n)
{
	return add(c, "k:", s, n);
}
static int on_start_map(void *c)
{
	return add(c, "{", NULL, 0);
}
static int on_end_map(void *c)
{
	return add(c, "}", NULL, 0);
}
static int on_start_array(void *c)
{
	return add(c, "[", NULL, 0);
}
static int on_end_array(void *c)
{
	return add(c, "]", NULL, 0);
}

static const yajl_callbacks callbacks = OCI_YAJL_EVENTS;

static int by_yajl(const char *text, size_t len, struct trace *t)
{
	memset(t, 0, sizeof(*t));
	yajl_handle h = yajl_alloc(&callbacks, NULL, t);
	yajl_config(h, yajl_allow_comments, 1); /* as yajl_tree_parse, the full reader */
	int ok = yajl_parse(h, (const unsigned char *)text, len) == yajl_status_ok &&
		 yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	return ok ? 0 : -1;
}

static int by_scan(const char *text, size_t len, struct trace *t)
{
	memset(t, 0, sizeof(*t));
	return oci_json_scan(text, len, &callbacks, t);
}

static void assert_same_as_yajl(const char *text, size_t len)
{
	struct trace y, s;
	int yr = by_yajl(text, len, &y), sr = by_scan(text, len, &s);
	cr_expect_eq(sr, yr, "%.*s: yajl %d, scan %d", (int)len, text, yr, sr);
	if (yr == 0)
		cr_expect_str_eq(s.out, y.out, "%.*s", (int)len, text);
}

#define assert_same(lit) assert_same_as_yajl(lit, sizeof(lit) - 1)

Test(jsonscan, accepts_what_yajl_accepts_with_the_same_events)
{
	assert_same("{\"a\": 1, \"b\": [true, false, null], \"c\": {\"d\": \"e\"}}");
	assert_same(" \t\r\n{}\n ");
	assert_same("{\f\"a\"\v:\f1\v}");
	assert_same("[]");
	assert_same("[[], {}, [[1]]]");
	assert_same("\"top\"");
	assert_same("-0");
	assert_same("[0, -1, 12.5, -0.25e+10, 1E-3, 18446744073709551616]");
	assert_same("{\"\": \"\"}");
	assert_same("{\"a\": 1, \"a\": 2}");
	assert_same(
		"[\"a much longer string of plain text / with paths / and more / 0123456789\"]");
}

Test(jsonscan, decodes_escapes_and_utf8_as_yajl)
{
	assert_same("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]");
	assert_same("[\"caf\\u00e9 \\u20ac \\ud83d\\ude00 \\u0041\"]");
	assert_same("[\"plain first, then \\n an escape, then plain again\"]");
	assert_same("{\"k\\u0000ey\": \"v\\u0000al\"}");
	assert_same("[\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"]");
	assert_same("[\"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 eight of "
		    "them\"]");
}

Test(jsonscan, refuses_what_yajl_refuses)
{
	assert_same("");
	assert_same("   ");
	assert_same("{");
	assert_same("{\"a\"}");
	assert_same("{\"a\" 1}");
	assert_same("{\"a\": 1,}");
	assert_same("[1,]");
	assert_same("[1 2]");
	assert_same("{a: 1}");
	assert_same("01");
	assert_same("[-]");
	assert_same("[1.]");
	assert_same("[.5]");
	assert_same("[1e]");
	assert_same("[+1]");
	assert_same("tru");
	assert_same("[truex]");
	assert_same("nul");
	assert_same("{} {}");
	assert_same("{}x");
	assert_same("[\"unterminated]");
	assert_same("[\"tab\there\"]");
	assert_same("[\"\\x\"]");
	assert_same("[\"\\u12\"]");
	assert_same("[\"\\u12g4\"]");
	assert_same("[\"\xc3\x28\"]");
	assert_same("[\"\xff\"]");
	assert_same("[\"\xe2\x82\"]");
	assert_same("/ {}");
	assert_same("{}/");
	assert_same("[1 /* unterminated");
	assert_same("[1 // no end of line");
}

/* yajl lexes the text plus one space: a string still open at the end after a whole value is
 * an unfinished token, which it takes; a whole one, or a broken one, is garbage */
Test(jsonscan, takes_a_string_left_open_after_the_value_as_yajl)
{
	assert_same("{} \"open");
	assert_same("{}\"open \\u0041 \\n caf\xc3\xa9 \\ud800");
	assert_same("{} // c\n\"open");
	assert_same("{} \"closed\"");
	assert_same("{} \"closed\" \"open");
	assert_same("{} \"bad escape \\x");
	assert_same("{} \"cut escape \\");
	assert_same("{} \"cut hex \\u12");
	assert_same("{} \"cut pair \\ud800\\u00");
	assert_same("{} \"cut utf-8 \xc3");
	assert_same("{} \"control \n");
	assert_same("{\"a\": \"open");
}

/* yajl_tree_parse, which reads the same state.json in full, takes comments */
Test(jsonscan, takes_comments_where_white_space_goes_as_yajl)
{
	assert_same("/* c */ {}");
	assert_same("[1] // c");
	assert_same("[1] // c\n");
	assert_same("// first\n[1, /* a */ 2 /**/, /***/3]");
	assert_same("{\"a\"/*x*/:/* y */\"b\" // z\n}");
	assert_same("[1] /* unterminated after the value");
	assert_same("[\"/* not a comment */\"]");
}

Test(jsonscan, a_nul_byte_outside_a_string_is_not_json)
{
	assert_same("[1,\0 2]");
	assert_same("{}\0");
}

/* What yajl lets through, the full reader of the same file: the lean one must too. */
Test(jsonscan, takes_yajls_loose_utf8_and_surrogates_as_yajl)
{
	assert_same("[\"\\ud83d\"]");
	assert_same("[\"\\ude00\"]");
	assert_same("[\"\\ud83d\\u0041\"]");
	assert_same("[\"\\ud83dx\"]");
	assert_same("[\"\xc0\xaf\"]");
	assert_same("[\"\xed\xa0\x80\"]");
	assert_same("[\"\xf4\x90\x80\x80\"]");
	assert_same("[\"\xf7\xbf\xbf\xbf\"]");
	assert_same("[\"\xf8\x88\x80\x80\x80\"]");
	assert_same("[\"\\ud83d\\u12\"]");
}

Test(jsonscan, refuses_nesting_deeper_than_its_limit)
{
	struct trace t;
	static char deep[2 * (OCI_JSON_SCAN_MAX_DEPTH + 1)];
	for (int depth = OCI_JSON_SCAN_MAX_DEPTH; depth <= OCI_JSON_SCAN_MAX_DEPTH + 1; depth++) {
		memset(deep, '[', (size_t)depth);
		memset(deep + depth, ']', (size_t)depth);
		memset(&t, 0, sizeof(t));
		cr_expect_eq(oci_json_scan(deep, 2 * (size_t)depth, &callbacks, &t),
			     depth <= OCI_JSON_SCAN_MAX_DEPTH ? 0 : -1, "depth %d", depth);
	}
}

Test(jsonscan, a_callback_returning_zero_stops_the_read)
{
	const char text[] = "{\"a\": [1, 2], \"b\": \"c\"}";
	struct trace t;
	for (int stop = 1; stop <= 8; stop++) {
		memset(&t, 0, sizeof(t));
		t.stop_after = stop;
		cr_expect_eq(oci_json_scan(text, sizeof(text) - 1, &callbacks, &t), -1, "stop %d",
			     stop);
		cr_expect_eq(t.events, stop, "no event after the refusing one");
	}
	memset(&t, 0, sizeof(t));
	cr_expect_eq(oci_json_scan(text, sizeof(text) - 1, &callbacks, &t), 0);
	cr_expect_eq(t.events, 9);
}

Test(jsonscan, reads_only_the_given_length)
{
	struct trace t;
	const char text[] = "[1][2]";
	cr_expect_eq(by_scan(text, 3, &t), 0);
	cr_expect_str_eq(t.out, "[\nn:1\n]\n");
	cr_expect_eq(by_scan("\"abc\"", 4, &t), -1, "the closing quote is past the end");
}
