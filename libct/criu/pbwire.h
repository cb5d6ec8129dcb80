/* The protocol buffers wire format (protobuf.dev/programming-guides/encoding), as much of it
 * as CRIU's RPC needs: varints, booleans, strings and nested messages written into a
 * growing buffer; fields read back one at a time from a byte range. ctrun is one static
 * binary, so it carries this instead of protobuf-c. */
#ifndef CT_PBWIRE_H
#define CT_PBWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ct_pb_wire { CT_PB_VARINT = 0, CT_PB_FIXED64 = 1, CT_PB_LEN = 2, CT_PB_FIXED32 = 5 };

/* A message being written. A failed allocation sets `failed` and makes every later write a
 * no-op, so a message is built without checks and looked at once at the end. */
struct ct_pb_buf {
	uint8_t *data;
	size_t len, cap;
	bool failed;
};

void ct_pb_put_varint(struct ct_pb_buf *b, uint32_t field, uint64_t v);
/* int32 as protobuf writes it: a negative value as ten bytes of its 64-bit two's
 * complement. */
void ct_pb_put_int32(struct ct_pb_buf *b, uint32_t field, int32_t v);
void ct_pb_put_bool(struct ct_pb_buf *b, uint32_t field, bool v);
void ct_pb_put_bytes(struct ct_pb_buf *b, uint32_t field, const void *data, size_t len);
void ct_pb_put_string(struct ct_pb_buf *b, uint32_t field, const char *s);
/* A nested message: `inner`'s bytes as a length-delimited field (inner is freed). */
void ct_pb_put_message(struct ct_pb_buf *b, uint32_t field, struct ct_pb_buf *inner);
void ct_pb_buf_free(struct ct_pb_buf *b);

/* One field as read: the number, its wire type and its value (varint and fixed types in
 * `varint`, length-delimited ones as a range of the input). */
struct ct_pb_field {
	uint32_t number;
	enum ct_pb_wire wire;
	uint64_t varint;
	const uint8_t *data;
	size_t len;
};

struct ct_pb_reader {
	const uint8_t *p, *end;
};

static inline struct ct_pb_reader ct_pb_reader(const void *data, size_t len)
{
	return (struct ct_pb_reader){data, (const uint8_t *)data + len};
}

/* The next field: 1 with *f filled, 0 at the end of the input, -1 when the input is not
 * the wire format (a varint longer than ten bytes, a length past the end, field number 0,
 * the deprecated group wire types or an unknown one). */
int ct_pb_next(struct ct_pb_reader *r, struct ct_pb_field *f);

#endif
