/* D-Bus marshalling, little-endian: values appended to a growing buffer, each aligned as its
 * type wants relative to the buffer's start (a message body starts 8-aligned, so the body's
 * offsets align as the whole message's). The caller writes values that match the signature
 * it declares; an allocation failure is remembered (oom) and reported once by the user of
 * the buffer (ct_dbus_message_build). */
#ifndef CT_DBUS_WRITER_H
#define CT_DBUS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_dbus_writer {
	uint8_t *buf;
	size_t len, cap;
	bool oom;
};

/* Where an open array's length goes and where its elements begin. */
struct ct_dbus_array_mark {
	size_t len_pos, start;
};

void ct_dbus_writer_init(struct ct_dbus_writer *w);
void ct_dbus_writer_free(struct ct_dbus_writer *w);
/* Zero bytes up to a multiple of align. */
void ct_dbus_pad(struct ct_dbus_writer *w, size_t align);

/* Bytes as they are (a body built apart, appended at an 8-aligned offset). */
void ct_dbus_put_raw(struct ct_dbus_writer *w, const void *data, size_t n);
void ct_dbus_put_byte(struct ct_dbus_writer *w, uint8_t v);
void ct_dbus_put_bool(struct ct_dbus_writer *w, bool v);
void ct_dbus_put_u32(struct ct_dbus_writer *w, uint32_t v);
void ct_dbus_put_u64(struct ct_dbus_writer *w, uint64_t v);
void ct_dbus_put_double(struct ct_dbus_writer *w, double v);
/* A value of fixed-size integer type (y b n q i u h x t), v cut to its size; for b,
 * whether v is not 0. */
void ct_dbus_put_fixed(struct ct_dbus_writer *w, char type, uint64_t v);
/* s (string) and o (object path): u32 length, bytes, NUL. */
void ct_dbus_put_string(struct ct_dbus_writer *w, const char *s);
/* g (signature): u8 length, bytes, NUL. */
void ct_dbus_put_signature(struct ct_dbus_writer *w, const char *sig);

/* An array of elements of type code elem ('y', '(', '{', 's'...): its length is filled in by
 * ct_dbus_array_close once the elements are written. */
struct ct_dbus_array_mark ct_dbus_array_open(struct ct_dbus_writer *w, char elem);
void ct_dbus_array_close(struct ct_dbus_writer *w, struct ct_dbus_array_mark m);
/* A struct or dict entry: aligned to 8, members follow. */
void ct_dbus_struct_open(struct ct_dbus_writer *w);
/* A variant holding one value of type sig: the signature, then the caller writes the value. */
void ct_dbus_variant_open(struct ct_dbus_writer *w, const char *sig);

#endif
