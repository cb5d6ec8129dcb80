/* libct/dbus: a message's bytes as the specification lays them out (written out by hand;
 * tests/integration/test_dbus.c checks that a real dbus-daemon takes what the writer
 * builds), built by the writer and checked by the reader; typed literals. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

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
