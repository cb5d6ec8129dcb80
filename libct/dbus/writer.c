/* D-Bus marshalling (libct/dbus/writer.h). */
#include "libct/dbus/writer.h"

#include <stdlib.h>
#include <string.h>

#include "libct/base/growbuf.h"
#include "libct/dbus/signature.h"

void ct_dbus_writer_init(struct ct_dbus_writer *w)
{
	*w = (struct ct_dbus_writer){.buf = NULL};
}

void ct_dbus_writer_free(struct ct_dbus_writer *w)
{
	free(w->buf);
	ct_dbus_writer_init(w);
}

/* Room for n more bytes (NULL for none: n is 0, or memory ran out). */
static uint8_t *reserve(struct ct_dbus_writer *w, size_t n)
{
	if (w->oom || n == 0)
		return NULL;
	if (!ct_grow_bytes(&w->buf, &w->cap, w->len + n, 256)) {
		w->oom = true;
		return NULL;
	}
	uint8_t *p = w->buf + w->len;
	w->len += n;
	return p;
}

void ct_dbus_put_raw(struct ct_dbus_writer *w, const void *data, size_t n)
{
	uint8_t *p = reserve(w, n);
	if (p)
		memcpy(p, data, n);
}

void ct_dbus_pad(struct ct_dbus_writer *w, size_t align)
{
	size_t n = (align - w->len % align) % align;
	uint8_t *p = reserve(w, n);
	if (p)
		memset(p, 0, n);
}

/* Little-endian, whatever the host's order. */
static void put_le(struct ct_dbus_writer *w, uint64_t v, size_t size)
{
	ct_dbus_pad(w, size);
	uint8_t *p = reserve(w, size);
	for (size_t i = 0; p && i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void ct_dbus_put_byte(struct ct_dbus_writer *w, uint8_t v)
{
	ct_dbus_put_raw(w, &v, 1);
}

void ct_dbus_put_bool(struct ct_dbus_writer *w, bool v)
{
	put_le(w, v ? 1 : 0, 4);
}

void ct_dbus_put_u32(struct ct_dbus_writer *w, uint32_t v)
{
	put_le(w, v, 4);
}

void ct_dbus_put_u64(struct ct_dbus_writer *w, uint64_t v)
{
	put_le(w, v, 8);
}

void ct_dbus_put_double(struct ct_dbus_writer *w, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	put_le(w, bits, 8);
}

void ct_dbus_put_fixed(struct ct_dbus_writer *w, char type, uint64_t v)
{
	put_le(w, type == 'b' ? v != 0 : v, ct_dbus_fixed_size(type));
}

void ct_dbus_put_string(struct ct_dbus_writer *w, const char *s)
{
	size_t n = strlen(s);
	ct_dbus_put_u32(w, (uint32_t)n);
	ct_dbus_put_raw(w, s, n + 1);
}

void ct_dbus_put_signature(struct ct_dbus_writer *w, const char *sig)
{
	size_t n = strlen(sig);
	ct_dbus_put_byte(w, (uint8_t)n);
	ct_dbus_put_raw(w, sig, n + 1);
}

struct ct_dbus_array_mark ct_dbus_array_open(struct ct_dbus_writer *w, char elem)
{
	struct ct_dbus_array_mark m;
	ct_dbus_pad(w, 4);
	m.len_pos = w->len;
	ct_dbus_put_u32(w, 0);
	/* the padding before the first element is there even when there is none */
	ct_dbus_pad(w, ct_dbus_type_align(elem));
	m.start = w->len;
	return m;
}

void ct_dbus_array_close(struct ct_dbus_writer *w, struct ct_dbus_array_mark m)
{
	if (w->oom)
		return;
	uint32_t n = (uint32_t)(w->len - m.start);
	for (size_t i = 0; i < 4; i++)
		w->buf[m.len_pos + i] = (uint8_t)(n >> (8 * i));
}

void ct_dbus_struct_open(struct ct_dbus_writer *w)
{
	ct_dbus_pad(w, 8);
}

void ct_dbus_variant_open(struct ct_dbus_writer *w, const char *sig)
{
	ct_dbus_put_signature(w, sig);
}
