/* oci/jsonsax.h: the field tables applied to the parse events of oci/jsonscan.h (yajl's
 * callbacks). A stack of frames follows
 * the open objects: an object frame knows its table and which members it has seen, a map
 * frame appends one element per key. A value nobody wants is skipped by counting the
 * containers it opens and closes. */
#include "oci/jsonsax.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oci/jsonscan.h"
#include "oci/yajl_events.h"

/* state.json nests three deep; a deeper wanted object is refused, not overflowed. */
#define SAX_MAX_DEPTH 8
/* An object frame marks seen members in a 64-bit mask. */
#define SAX_MAX_FIELDS 64
/* Longer than any integer a table can hold: the number is not one. */
#define SAX_NUMBER_MAX 32

enum frame_kind { FRAME_OBJECT, FRAME_MAP };

struct frame {
	enum frame_kind kind;
	const struct oci_field *fields; /* FRAME_OBJECT: the table */
	const struct oci_type *map;	/* FRAME_MAP: the map's type */
	char *base;			/* the struct, or the map's OCI_ARRAY */
	uint64_t seen;			/* FRAME_OBJECT: bit i when fields[i] was given */
};

struct sax {
	oci_sax_wanted wanted;
	const struct oci_field *root_fields;
	char *root;
	struct frame stack[SAX_MAX_DEPTH];
	int depth;
	bool had_root;
	const struct oci_field *pending; /* object member whose value comes next */
	char **map_value;		 /* map: where the next string goes */
	bool skip_next;			 /* the next value is not wanted */
	unsigned skipping;		 /* inside a value not wanted, this many levels deep */
};

static bool is_read(const struct sax *s, const struct oci_field *f)
{
	const struct oci_type *t = f->type;
	bool kind_read = t->kind == OCI_STRING || t->kind == OCI_BOOL || t->kind == OCI_INT ||
			 t->kind == OCI_UINT || t->kind == OCI_OBJECT ||
			 (t->kind == OCI_MAP && t->elem->kind == OCI_STRING);
	return kind_read && (!s->wanted || s->wanted(f));
}

static struct frame *top(struct sax *s)
{
	return s->depth ? &s->stack[s->depth - 1] : NULL;
}

/* A scalar or container start that belongs to a skipped value: consumed here. */
static bool skips_value(struct sax *s, bool opens)
{
	if (s->skipping) {
		s->skipping += opens;
		return true;
	}
	if (s->skip_next) {
		s->skip_next = false;
		s->skipping = opens;
		return true;
	}
	return false;
}

/* The member the value is for, if it is of `kind`; the value's place in *dst. */
static const struct oci_field *take_pending(struct sax *s, enum oci_kind kind, void **dst)
{
	const struct oci_field *f = s->pending;
	struct frame *fr = top(s);
	s->pending = NULL;
	if (!f || !fr || fr->kind != FRAME_OBJECT || f->type->kind != kind)
		return NULL;
	if (f->present != OCI_NO_PRESENCE)
		*(bool *)(fr->base + f->present) = true;
	*dst = fr->base + f->offset;
	return f;
}

static int on_string(void *ctx, const unsigned char *str, size_t len)
{
	struct sax *s = ctx;
	/* a "\u0000" inside, skipped or not: refused, as the tree refuses it (oci/jsontree.c) */
	if (memchr(str, '\0', len))
		return 0;
	if (skips_value(s, false))
		return 1;
	char **dst = s->map_value;
	s->map_value = NULL;
	const struct oci_field *f = NULL;
	if (!dst && !(f = take_pending(s, OCI_STRING, (void **)&dst)))
		return 0;
	free(*dst);
	*dst = strndup((const char *)str, len);
	if (!*dst)
		return 0;
	struct oci_walk quiet = {.file = ""};
	return !(f && f->type->check && f->type->check(&quiet, dst) < 0);
}

static int on_boolean(void *ctx, int value)
{
	struct sax *s = ctx;
	if (skips_value(s, false))
		return 1;
	void *dst;
	if (!take_pending(s, OCI_BOOL, &dst))
		return 0;
	*(bool *)dst = value;
	return 1;
}

static int on_number(void *ctx, const char *text, size_t len)
{
	struct sax *s = ctx;
	if (skips_value(s, false))
		return 1;
	const struct oci_field *f = s->pending;
	void *dst;
	if (!f || len >= SAX_NUMBER_MAX ||
	    !take_pending(s, f->type->kind == OCI_UINT ? OCI_UINT : OCI_INT, &dst))
		return 0;
	char buf[SAX_NUMBER_MAX];
	memcpy(buf, text, len);
	buf[len] = '\0';
	return oci_integer_store(f->type, buf, dst) == OCI_INTEGER_STORED;
}

static int on_null(void *ctx)
{
	return skips_value(ctx, false);
}

static int push(struct sax *s, struct frame fr)
{
	if (s->depth == SAX_MAX_DEPTH)
		return 0;
	if (fr.kind == FRAME_OBJECT) {
		size_t n = 0;
		while (fr.fields[n].name)
			n++;
		if (n > SAX_MAX_FIELDS)
			return 0;
	}
	s->stack[s->depth++] = fr;
	return 1;
}

static int on_start_map(void *ctx)
{
	struct sax *s = ctx;
	if (skips_value(s, true))
		return 1;
	if (!s->depth) {
		if (s->had_root)
			return 0;
		s->had_root = true;
		return push(s, (struct frame){FRAME_OBJECT, s->root_fields, NULL, s->root, 0});
	}
	const struct oci_field *f = s->pending;
	void *dst;
	if (f && f->type->kind == OCI_MAP && take_pending(s, OCI_MAP, &dst))
		return push(s, (struct frame){FRAME_MAP, NULL, f->type, dst, 0});
	if (!take_pending(s, OCI_OBJECT, &dst))
		return 0;
	return push(s, (struct frame){FRAME_OBJECT, f->type->fields, NULL, dst, 0});
}

/* One more element of a map of strings: its key set, its value awaited. The array grows
 * at every power of two, so its length alone tells when. The OCI_ARRAY {items, len} is
 * reached by memcpy, as the walker does: its element type is the table's, not ours. */
static int map_append(struct sax *s, struct frame *fr, const unsigned char *key, size_t len)
{
	char *items;
	size_t n, size = fr->map->elem_size;
	memcpy(&items, fr->base, sizeof(items));
	memcpy(&n, fr->base + sizeof(items), sizeof(n));
	if ((n & (n - 1)) == 0) {
		char *grown = realloc(items, (n ? 2 * n : 1) * size);
		if (!grown)
			return 0;
		items = grown;
		memcpy(fr->base, &items, sizeof(items));
	}
	char *elem = items + n * size;
	memset(elem, 0, size);
	char *copy = strndup((const char *)key, len);
	if (!copy)
		return 0;
	memcpy(elem, &copy, sizeof(copy));
	n++;
	memcpy(fr->base + sizeof(items), &n, sizeof(n));
	s->map_value = (char **)(elem + fr->map->value_offset);
	return 1;
}

static int on_map_key(void *ctx, const unsigned char *key, size_t len)
{
	struct sax *s = ctx;
	if (memchr(key, '\0', len))
		return 0; /* as on_string */
	if (s->skipping)
		return 1;
	struct frame *fr = top(s);
	if (fr->kind == FRAME_MAP)
		return map_append(s, fr, key, len);
	for (size_t i = 0; fr->fields[i].name; i++) {
		const struct oci_field *f = &fr->fields[i];
		if (strlen(f->name) != len || memcmp(f->name, key, len) != 0)
			continue;
		if (!is_read(s, f))
			break;
		fr->seen |= UINT64_C(1) << i;
		s->pending = f;
		return 1;
	}
	s->skip_next = true;
	return 1;
}

static bool has_required(const struct sax *s, const struct frame *fr)
{
	for (size_t i = 0; fr->fields[i].name; i++)
		if (fr->fields[i].required && is_read(s, &fr->fields[i]) &&
		    !(fr->seen & (UINT64_C(1) << i)))
			return false;
	return true;
}

static int on_end_map(void *ctx)
{
	struct sax *s = ctx;
	if (s->skipping) {
		s->skipping--;
		return 1;
	}
	struct frame *fr = top(s);
	if (fr->kind == FRAME_OBJECT && !has_required(s, fr))
		return 0;
	s->depth--;
	return 1;
}

static int on_start_array(void *ctx)
{
	return skips_value(ctx, true);
}

static int on_end_array(void *ctx)
{
	struct sax *s = ctx;
	if (!s->skipping)
		return 0;
	s->skipping--;
	return 1;
}

static const yajl_callbacks callbacks = OCI_YAJL_EVENTS;

int oci_sax_fill(const char *text, size_t len, const struct oci_field *fields,
		 oci_sax_wanted wanted, void *out)
{
	struct sax s = {.wanted = wanted, .root_fields = fields, .root = out};
	bool ok = oci_json_scan(text, len, &callbacks, &s) == 0 && s.had_root && s.depth == 0;
	return ok ? 0 : -1;
}
