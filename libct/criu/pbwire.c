#include "libct/criu/pbwire.h"

#include <stdlib.h>
#include <string.h>

#include "libct/base/growbuf.h"

#define VARINT_MAX_BYTES 10
#define FIELD_NUMBER_MAX ((1u << 29) - 1)

static bool reserve(struct ct_pb_buf *b, size_t more)
{
	if (!b->failed && !ct_grow_bytes(&b->data, &b->cap, b->len + more, 64))
		b->failed = true;
	return !b->failed;
}

static void put_raw_varint(struct ct_pb_buf *b, uint64_t v)
{
	if (!reserve(b, VARINT_MAX_BYTES))
		return;
	do {
		uint8_t byte = v & 0x7f;
		v >>= 7;
		b->data[b->len++] = byte | (v ? 0x80 : 0);
	} while (v);
}

static void put_key(struct ct_pb_buf *b, uint32_t field, enum ct_pb_wire wire)
{
	put_raw_varint(b, (uint64_t)field << 3 | wire);
}

void ct_pb_put_varint(struct ct_pb_buf *b, uint32_t field, uint64_t v)
{
	put_key(b, field, CT_PB_VARINT);
	put_raw_varint(b, v);
}

void ct_pb_put_int32(struct ct_pb_buf *b, uint32_t field, int32_t v)
{
	ct_pb_put_varint(b, field, (uint64_t)(int64_t)v);
}

void ct_pb_put_bool(struct ct_pb_buf *b, uint32_t field, bool v)
{
	ct_pb_put_varint(b, field, v);
}

void ct_pb_put_bytes(struct ct_pb_buf *b, uint32_t field, const void *data, size_t len)
{
	put_key(b, field, CT_PB_LEN);
	put_raw_varint(b, len);
	if (len && reserve(b, len)) {
		memcpy(b->data + b->len, data, len);
		b->len += len;
	}
}

void ct_pb_put_string(struct ct_pb_buf *b, uint32_t field, const char *s)
{
	ct_pb_put_bytes(b, field, s, strlen(s));
}

void ct_pb_put_message(struct ct_pb_buf *b, uint32_t field, struct ct_pb_buf *inner)
{
	if (inner->failed)
		b->failed = true;
	else
		ct_pb_put_bytes(b, field, inner->data, inner->len);
	ct_pb_buf_free(inner);
}

void ct_pb_buf_free(struct ct_pb_buf *b)
{
	free(b->data);
	*b = (struct ct_pb_buf){0};
}

static int read_varint(struct ct_pb_reader *r, uint64_t *out)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < VARINT_MAX_BYTES && r->p < r->end; i++) {
		uint8_t byte = *r->p++;
		v |= (uint64_t)(byte & 0x7f) << (7 * i);
		if (!(byte & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

static int read_fixed(struct ct_pb_reader *r, size_t size, uint64_t *out)
{
	if ((size_t)(r->end - r->p) < size)
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += size;
	*out = v;
	return 0;
}

static int read_value(struct ct_pb_reader *r, struct ct_pb_field *f)
{
	switch (f->wire) {
	case CT_PB_VARINT:
		return read_varint(r, &f->varint);
	case CT_PB_FIXED64:
		return read_fixed(r, 8, &f->varint);
	case CT_PB_FIXED32:
		return read_fixed(r, 4, &f->varint);
	case CT_PB_LEN: {
		uint64_t len;
		if (read_varint(r, &len) < 0 || len > (uint64_t)(r->end - r->p))
			return -1;
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return 0;
	}
	}
	return -1;
}

int ct_pb_next(struct ct_pb_reader *r, struct ct_pb_field *f)
{
	if (r->p >= r->end)
		return 0;
	uint64_t key;
	if (read_varint(r, &key) < 0)
		return -1;
	*f = (struct ct_pb_field){.number = (uint32_t)(key >> 3), .wire = key & 7};
	if (key >> 3 == 0 || key >> 3 > FIELD_NUMBER_MAX)
		return -1;
	return read_value(r, f) < 0 ? -1 : 1;
}
