/* libct/dbus: a message's bytes as the specification lays them out (written out by hand;
 * tests/integration/test_dbus.c checks that a real dbus-daemon takes what the writer
 * builds), built by the writer and checked by the reader; typed literals. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "libct/dbus/address.h"
#include "libct/dbus/literal.h"
#include "libct/dbus/message.h"

/* org.freedesktop.DBus.Hello, serial 1, as every client sends it first. */
static const uint8_t hello[] = {
	'l', 1,	  0,   1,   0,	 0,   0,   0,	1,   0,	  0,   0,   0x6d, 0,   0,   0,
	1,   1,	  'o', 0,   21,	 0,   0,   0,	'/', 'o', 'r', 'g', '/',  'f', 'r', 'e',
	'e', 'd', 'e', 's', 'k', 't', 'o', 'p', '/', 'D', 'B', 'u', 's',  0,   0,   0,
	2,   1,	  's', 0,   20,	 0,   0,   0,	'o', 'r', 'g', '.', 'f',  'r', 'e', 'e',
	'd', 'e', 's', 'k', 't', 'o', 'p', '.', 'D', 'B', 'u', 's', 0,	  0,   0,   0,
	3,   1,	  's', 0,   5,	 0,   0,   0,	'H', 'e', 'l', 'l', 'o',  0,   0,   0,
	6,   1,	  's', 0,   20,	 0,   0,   0,	'o', 'r', 'g', '.', 'f',  'r', 'e', 'e',
	'd', 'e', 's', 'k', 't', 'o', 'p', '.', 'D', 'B', 'u', 's', 0,	  0,   0,   0,
};

/* Every string of good passes check and every one of bad fails it (both NULL-terminated). */
static void assert_checked(bool (*check)(const char *), const char *const *good,
			   const char *const *bad)
{
	for (; *good; good++)
		cr_expect(check(*good), "\"%s\"", *good);
	for (; *bad; bad++)
		cr_expect_not(check(*bad), "\"%s\"", *bad);
}

Test(dbus_message, hello_is_built_as_the_reference_bus_expects)
{
	struct ct_dbus_msg m = {.type = CT_DBUS_METHOD_CALL,
				.serial = 1,
				.path = "/org/freedesktop/DBus",
				.interface = "org.freedesktop.DBus",
				.member = "Hello",
				.destination = "org.freedesktop.DBus"};
	struct ct_dbus_writer out;
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_message_build(&m, NULL, &out, &err), 0, "%s", err.msg);
	cr_assert_eq(out.len, sizeof(hello));
	cr_expect_arr_eq(out.buf, hello, sizeof(hello));
	ct_dbus_writer_free(&out);
}

Test(dbus_message, hello_parses_back)
{
	struct ct_dbus_msg m;
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_message_parse(hello, sizeof(hello), &m, &err), 0, "%s", err.msg);
	cr_expect_eq(m.type, CT_DBUS_METHOD_CALL);
	cr_expect_str_eq(m.member, "Hello");
	cr_expect_str_eq(m.path, "/org/freedesktop/DBus");
	cr_expect_str_eq(m.signature, "");
}

/* Every truncation, and each byte flipped where the reader must notice, is refused. */
Test(dbus_message, damaged_messages_are_refused)
{
	uint8_t copy[sizeof(hello)];
	struct ct_dbus_msg m;
	struct ct_error err;
	for (size_t n = 0; n < sizeof(hello); n++)
		cr_expect_eq(ct_dbus_message_parse(hello, n, &m, &err), -1, "%zu bytes", n);
	static const struct {
		size_t at;
		uint8_t v;
	} flips[] = {{0, 'x'}, {1, 9}, {3, 2}, {8, 0}, {17, 9}, {18, 's'}, {47, 1}, {45, 'x'}};
	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
		memcpy(copy, hello, sizeof(copy));
		copy[flips[i].at] = flips[i].v;
		if (flips[i].at == 8)
			copy[8] = copy[9] = copy[10] = copy[11] = 0;
		cr_expect_eq(ct_dbus_message_parse(copy, sizeof(copy), &m, &err), -1,
			     "byte %zu = %u", flips[i].at, flips[i].v);
		cr_expect_eq(err.errnum, EBADMSG);
	}
}

static void assert_literal(const char *text, const char *sig)
{
	struct ct_dbus_lit v;
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_literal_parse(text, &v, &err), 0, "%s: %s", text, err.msg);
	cr_expect_str_eq(v.sig, sig, "%s", text);
	ct_dbus_literal_free(&v);
}

Test(dbus_literal, runcs_annotation_values)
{
	assert_literal("true", "b");
	assert_literal("42", "i");
	assert_literal("1.5", "d");
	assert_literal("uint64 1024", "t");
	assert_literal("@t 5", "t");
	assert_literal("'idle'", "s");
	assert_literal("\"a\\\"b\"", "s");
	assert_literal("['a', 'b']", "as");
	assert_literal("@as []", "as");
	assert_literal("[('/dev/null', 'rwm')]", "a(ss)");
	assert_literal("@a(ss) [('x', 'r')]", "a(ss)");
}

/* Each fixed-size type at its alignment and size, little-endian (the specification's
 * marshalling table), bytes written out by hand. */
Test(dbus_literal, fixed_size_values_are_written_as_marshalled)
{
	static const uint8_t want[] = {
		1,    0,    0xfe, 0xff, 3,    0,    0,	  0,	/* y 1, padding, n -2, u 3 */
		0xfc, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* x -4 */
		1,    0,    0,	  0,	7,    0,		/* b true, q 7 */
	};
	struct ct_dbus_lit v;
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_literal_parse("(byte 1, int16 -2, uint32 3, int64 -4, true, uint16 7)",
					   &v, &err),
		     0, "%s", err.msg);
	struct ct_dbus_writer w;
	ct_dbus_writer_init(&w);
	ct_dbus_literal_write(&v, &w);
	cr_assert_eq(w.len, sizeof(want));
	cr_expect_arr_eq(w.buf, want, sizeof(want));
	ct_dbus_writer_free(&w);
	ct_dbus_literal_free(&v);
}

Test(dbus_literal, bad_values_are_refused)
{
	static const char *const bad[] = {"",	       "[]",	 "uint64 -1", "byte 256",
					  "int32 1e3", "'open",	 "[1, 'a']",  "(1,",
					  "yes",       "@t 'x'", "1 2",	      "objectpath 'x'"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_dbus_lit v;
		struct ct_error err = {0};
		cr_expect_eq(ct_dbus_literal_parse(bad[i], &v, &err), -1, "\"%s\"", bad[i]);
	}
}

Test(dbus_signature, valid_and_invalid)
{
	assert_checked(ct_dbus_signature_valid,
		       (const char *const[]){"", "y", "a(sv)", "a(sa(sv))", "a{sv}", "(ii)(s)",
					     "av", "aay", "a{s(ua{sv})}", NULL},
		       (const char *const[]){"a", "()", "(i", "{sv}", "a{vs}", "a{s}", "a{sss}",
					     "z", "i)", "a(sv", NULL});
	char deep[80];
	memset(deep, 'a', 33);
	strcpy(deep + 33, "y");
	cr_expect_not(ct_dbus_signature_valid(deep), "33 nested arrays");
	cr_expect(ct_dbus_signature_valid(deep + 1), "32 nested arrays");
}

/* A reply in big-endian order, as a bus on such a host may send it: reply to serial 1,
 * one u32 (7). */
static const uint8_t big_endian_reply[] = {
	'B', 2, 0,   1, 0, 0,	0, 4, 0, 0, 0, 2, 0, 0, 0, 15, /* fixed header */
	5,   1, 'u', 0, 0, 0,	0, 1,			       /* REPLY_SERIAL 1 */
	8,   1, 'g', 0, 1, 'u', 0, 0,			       /* SIGNATURE "u", pad */
	0,   0, 0,   7,					       /* the body */
};

Test(dbus_message, big_endian_messages_are_read)
{
	struct ct_dbus_msg m;
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_message_parse(big_endian_reply, sizeof(big_endian_reply), &m, &err), 0,
		     "%s", err.msg);
	cr_expect(m.big_endian);
	cr_expect_eq(m.reply_serial, 1);
	cr_expect_str_eq(m.signature, "u");
	struct ct_dbus_iter it;
	union ct_dbus_value v;
	ct_dbus_iter_body(&it, &m);
	cr_assert_eq(ct_dbus_iter_get(&it, 'u', &v, &err), 0, "%s", err.msg);
	cr_expect_eq(v.u, 7);
	cr_expect_eq(ct_dbus_iter_get(&it, 'u', &v, &err), -1, "one value only");
}

Test(dbus_message, a_body_that_does_not_match_its_signature_is_refused)
{
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, "text");
	struct ct_dbus_msg m = {.type = CT_DBUS_METHOD_RETURN,
				.serial = 2,
				.has_reply_serial = true,
				.reply_serial = 1,
				.signature = "s"};
	struct ct_dbus_writer out;
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_message_build(&m, &body, &out, &err), 0, "%s", err.msg);
	struct ct_dbus_msg parsed;
	cr_expect_eq(ct_dbus_message_parse(out.buf, out.len, &parsed, &err), 0, "%s", err.msg);
	/* the string's NUL replaced: it no longer ends where its length says */
	out.buf[out.len - 1] = 'x';
	cr_expect_eq(ct_dbus_message_parse(out.buf, out.len, &parsed, &err), -1);
	cr_expect(strstr(err.msg, "string not ended by its only NUL"), "%s", err.msg);
	ct_dbus_writer_free(&out);
	ct_dbus_writer_free(&body);
}

Test(dbus_address, unix_sockets_by_path_or_abstract_name)
{
	struct sockaddr_un sa;
	socklen_t len;
	struct ct_error err = {0};
	cr_assert_eq(
		ct_dbus_address_parse("unix:path=/run/dbus/system_bus_socket", &sa, &len, &err), 0,
		"%s", err.msg);
	cr_expect_str_eq(sa.sun_path, "/run/dbus/system_bus_socket");
	cr_assert_eq(ct_dbus_address_parse("tcp:host=x,port=1;unix:abstract=/tmp/d%2cx,guid=ab",
					   &sa, &len, &err),
		     0, "%s", err.msg);
	cr_expect_eq(sa.sun_path[0], '\0');
	cr_expect_str_eq(sa.sun_path + 1, "/tmp/d,x");
	cr_expect_eq(len, offsetof(struct sockaddr_un, sun_path) + 1 + strlen("/tmp/d,x"));
	cr_expect_eq(ct_dbus_address_parse("tcp:host=x", &sa, &len, &err), -1);
	cr_expect(strstr(err.msg, "tcp:host=x"), "%s", err.msg);
	cr_expect_eq(ct_dbus_address_parse("unix:path=/a%zz", &sa, &len, &err), -1);
}

/* dbus-specification "Valid Object Paths": '/' or '/'-joined elements of [A-Za-z0-9_]. */
Test(dbus_message, object_paths_are_checked_as_the_specification_says)
{
	assert_checked(ct_dbus_object_path_valid,
		       (const char *const[]){"/", "/a", "/org/freedesktop/systemd1",
					     "/unit/ctrun_2dweb_2escope", "/A_9/b", NULL},
		       (const char *const[]){"", "a", "//", "/a/", "/a//b", "/a-b", "/a.b", "/a b",
					     "/\xc3\xa4", "/a/./b", NULL});
}
