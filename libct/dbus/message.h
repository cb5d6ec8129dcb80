/* D-Bus messages: building one (header fields and a body from libct/dbus/writer.h) and
 * reading one that came from the socket, which is hostile until checked. The reader checks
 * everything the specification's wire format asks: the fixed header, every header field's
 * type, the signature, and each value of the body: lengths within the message, padding
 * that is zero, booleans 0 or 1, strings NUL-terminated without a NUL inside and valid
 * UTF-8, object paths and signatures well formed, arrays no longer than 64 MiB whose
 * elements fill them exactly, nesting within limits. Pure. */
#ifndef CT_DBUS_MESSAGE_H
#define CT_DBUS_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/dbus/writer.h"

enum ct_dbus_msg_type {
	CT_DBUS_METHOD_CALL = 1,
	CT_DBUS_METHOD_RETURN = 2,
	CT_DBUS_ERROR = 3,
	CT_DBUS_SIGNAL = 4,
};

#define CT_DBUS_FLAG_NO_REPLY_EXPECTED 0x1
#define CT_DBUS_FIXED_HEADER	       16	  /* up to and including the fields' length */
#define CT_DBUS_MESSAGE_MAX	       (1u << 27) /* the specification's limit: 128 MiB */
#define CT_DBUS_ARRAY_MAX	       (1u << 26)

/* A message's header; in a parsed message the strings point into its buffer. A field the
 * message lacks is NULL (has_reply_serial false). */
struct ct_dbus_msg {
	uint8_t type, flags;
	uint32_t serial, reply_serial;
	bool has_reply_serial;
	const char *path, *interface, *member, *error_name, *destination, *sender;
	const char *signature; /* "" for an empty body */
	uint32_t unix_fds;
	/* parsed only: the body and its byte order */
	const uint8_t *body;
	size_t body_len;
	bool big_endian;
};

/* Builds a whole message into out (cleared first): the header of m (type, flags, serial,
 * reply_serial when has_reply_serial, the non-NULL strings; sender is the bus's to set)
 * and body (NULL or empty for none; m->signature must describe it). Fails on a signature
 * that is not valid, or ENOMEM. */
int ct_dbus_message_build(const struct ct_dbus_msg *m, const struct ct_dbus_writer *body,
			  struct ct_dbus_writer *out, struct ct_error *err);

/* The whole length of the message that starts with the CT_DBUS_FIXED_HEADER bytes at buf
 * (header, padding, body), or -1 (EBADMSG) when those bytes cannot start one or it would
 * exceed CT_DBUS_MESSAGE_MAX. */
int ct_dbus_message_size(const uint8_t *buf, size_t *size, struct ct_error *err);

/* Checks the len bytes of a whole message and fills m (its strings point into buf, which
 * must outlive m). -1 with EBADMSG and what is wrong. */
int ct_dbus_message_parse(const uint8_t *buf, size_t len, struct ct_dbus_msg *m,
			  struct ct_error *err);

/* ---- reading values ---- */

union ct_dbus_value {
	uint8_t y;
	bool b;
	int16_t n;
	uint16_t q;
	int32_t i;
	uint32_t u;
	int64_t x;
	uint64_t t;
	double d;
	uint32_t h;
	const char *s; /* s, o and g */
};

/* A position in a sequence of values: a body, a struct's members, an array's elements
 * (its one element type again and again) or a variant's value. */
struct ct_dbus_iter {
	const uint8_t *base; /* what alignment is counted from */
	size_t pos, end;
	bool big_endian;
	const char *sig; /* the types of the sequence (not NUL-terminated) */
	size_t sig_len, sig_pos;
	bool array; /* the element type repeats until end */
	int depth;  /* containers around it */
};

/* The values of a parsed message's body. */
void ct_dbus_iter_body(struct ct_dbus_iter *it, const struct ct_dbus_msg *m);
/* The type code of the next value, 0 at the end of the sequence. */
char ct_dbus_iter_type(const struct ct_dbus_iter *it);
/* Reads the next value, a basic one of type code type (the next must be of that type). */
int ct_dbus_iter_get(struct ct_dbus_iter *it, char type, union ct_dbus_value *v,
		     struct ct_error *err);
/* Enters the next value, an array, struct, dict entry or variant: sub iterates what it
 * holds, and it moves past it (the whole of it is checked first). */
int ct_dbus_iter_enter(struct ct_dbus_iter *it, struct ct_dbus_iter *sub, struct ct_error *err);
/* Checks and passes over the next value. */
int ct_dbus_iter_skip(struct ct_dbus_iter *it, struct ct_error *err);
/* A sub-iterator's whole signature as a string in buf ("" when too long): a variant's type. */
const char *ct_dbus_iter_signature(const struct ct_dbus_iter *it, char *buf, size_t size);

/* Whether s is a valid object path ("/", "/a/b_1"). */
bool ct_dbus_object_path_valid(const char *s);
/* Whether s[0..len) is valid UTF-8 (no overlong form, no surrogate, at most U+10FFFF). */
bool ct_dbus_utf8_valid(const char *s, size_t len);

#endif
