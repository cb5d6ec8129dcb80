/* Struct -> JSON and struct-over-struct by the descriptor tables (see jsonwrite.h). */
#include "oci/jsonwrite.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t load_uint(const void *p, unsigned width)
{
	switch (width) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		return *(const uint16_t *)p;
	case 4:
		return *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
}

/* The same bits, the top one of the width the sign. */
static int64_t load_int(const void *p, unsigned width)
{
	uint64_t u = load_uint(p, width);
	if (width >= sizeof(u))
		return (int64_t)u;
	uint64_t sign = UINT64_C(1) << (8 * width - 1);
	return (int64_t)(u ^ sign) - (int64_t)sign;
}

/* The length of an OCI_ARRAY / OCI_MAP value ({items, len}). */
static size_t array_len(const void *p)
{
	size_t len;
	memcpy(&len, (const char *)p + sizeof(void *), sizeof(len));
	return len;
}

static const char *array_items(const void *p)
{
	const char *items;
	memcpy(&items, p, sizeof(items));
	return items;
}

static bool scalar_is_zero(const struct oci_type *t, const void *p)
{
	switch (t->kind) {
	case OCI_BOOL:
		return !*(const bool *)p;
	case OCI_INT:
		return load_int(p, t->width) == 0;
	case OCI_UINT:
		return load_uint(p, t->width) == 0;
	case OCI_ENUM:
		return *(const int *)p == 0;
	default:
		return false;
	}
}

/* Whether the field holds something to write or to merge. */
static bool field_given(const struct oci_field *f, const void *obj)
{
	const char *p = (const char *)obj + f->offset;
	if (f->present != OCI_NO_PRESENCE)
		return *(const bool *)((const char *)obj + f->present);
	switch (f->type->kind) {
	case OCI_STRING:
		return *(char *const *)p != NULL;
	case OCI_ARRAY:
	case OCI_MAP:
		return array_len(p) > 0;
	case OCI_OBJECT:
		return true;
	default:
		return f->required || !scalar_is_zero(f->type, p);
	}
}

static void write_number(yajl_gen g, const struct oci_type *t, const void *p)
{
	char num[24];
	int len = t->kind == OCI_UINT ? snprintf(num, sizeof(num), "%" PRIu64, load_uint(p, t->width))
				      : snprintf(num, sizeof(num), "%" PRId64, load_int(p, t->width));
	yajl_gen_number(g, num, (size_t)len);
}

static void write_string(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

static void write_value(yajl_gen g, const struct oci_type *t, const void *p)
{
	switch (t->kind) {
	case OCI_STRING:
		write_string(g, *(char *const *)p);
		break;
	case OCI_BOOL:
		yajl_gen_bool(g, *(const bool *)p);
		break;
	case OCI_INT:
	case OCI_UINT:
		write_number(g, t, p);
		break;
	case OCI_ENUM:
		write_string(g, t->names[*(const int *)p]);
		break;
	case OCI_OBJECT:
		oci_write_object(g, t->fields, p);
		break;
	case OCI_ARRAY:
	case OCI_MAP: {
		const char *items = array_items(p);
		size_t len = array_len(p);
		t->kind == OCI_MAP ? yajl_gen_map_open(g) : yajl_gen_array_open(g);
		for (size_t i = 0; i < len; i++) {
			const char *elem = items + i * t->elem_size;
			if (t->kind == OCI_MAP) {
				write_string(g, *(char *const *)elem);
				elem += t->value_offset;
			}
			write_value(g, t->elem, elem);
		}
		t->kind == OCI_MAP ? yajl_gen_map_close(g) : yajl_gen_array_close(g);
		break;
	}
	}
}

void oci_write_object(yajl_gen g, const struct oci_field *fields, const void *obj)
{
	yajl_gen_map_open(g);
	for (const struct oci_field *f = fields; f->name; f++) {
		if (!field_given(f, obj))
			continue;
		write_string(g, f->name);
		write_value(g, f->type, (const char *)obj + f->offset);
	}
	yajl_gen_map_close(g);
}

/* The size of a field's storage, for moving it. */
static size_t value_size(const struct oci_type *t)
{
	switch (t->kind) {
	case OCI_STRING:
		return sizeof(char *);
	case OCI_BOOL:
		return sizeof(bool);
	case OCI_INT:
	case OCI_UINT:
		return t->width;
	case OCI_ENUM:
		return sizeof(int);
	case OCI_ARRAY:
	case OCI_MAP:
		return sizeof(void *) + sizeof(size_t);
	case OCI_OBJECT:
		break;
	}
	return 0;
}

void oci_merge_object(const struct oci_field *fields, void *dst, void *src)
{
	for (const struct oci_field *f = fields; f->name; f++) {
		if (!field_given(f, src))
			continue;
		char *d = (char *)dst + f->offset, *s = (char *)src + f->offset;
		if (f->type->kind == OCI_OBJECT) {
			oci_merge_object(f->type->fields, d, s);
		} else {
			const struct oci_field one[] = {*f, {NULL}};
			oci_walk_free(one, dst);
			size_t size = value_size(f->type);
			memcpy(d, s, size);
			memset(s, 0, size); /* moved: src no longer owns it */
		}
		if (f->present != OCI_NO_PRESENCE)
			*(bool *)((char *)dst + f->present) = true;
	}
}

char *oci_json_generate(int (*gen)(yajl_gen g, const void *arg), const void *arg, bool pretty,
			size_t *len)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	if (!g)
		return errno = ENOMEM, NULL;
	if (pretty) {
		yajl_gen_config(g, yajl_gen_beautify, 1);
		yajl_gen_config(g, yajl_gen_indent_string, "  ");
	}
	const unsigned char *buf;
	size_t n;
	char *out = NULL;
	if (gen(g, arg) != 0 || yajl_gen_get_buf(g, &buf, &n) != yajl_gen_status_ok)
		errno = EINVAL;
	else if (!(out = malloc(n + 2)))
		errno = ENOMEM;
	if (out) {
		memcpy(out, buf, n);
		/* yajl's beautifier ends the document with a newline; make sure of it */
		if (pretty && (n == 0 || out[n - 1] != '\n'))
			out[n++] = '\n';
		out[n] = '\0';
		if (len)
			*len = n;
	}
	yajl_gen_free(g);
	return out;
}

char *oci_json_document(int (*gen)(yajl_gen g, const void *arg), const void *arg, bool pretty,
			const char *what, struct ct_error *err)
{
	char *text = oci_json_generate(gen, arg, pretty, NULL);
	if (!text)
		ct_error_sys(err, errno, "%s", what);
	return text;
}
