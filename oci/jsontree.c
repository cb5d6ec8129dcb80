/* JSON text -> a yajl_val tree in one arena (oci/jsontree.h): yajl's callback parser, a
 * stack of the objects and arrays still open, and their members gathered on a second stack
 * until each closes, when they are copied into arrays of their final size. */
#include "oci/jsontree.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "oci/jsonpath.h"
#include "oci/yajl_events.h"

/* ---- the arena ---- */

/* A config.json of the spec's defaults makes about 12 KiB of nodes and strings. */
#define ARENA_BLOCK_SIZE (16u << 10)
/* The strictest alignment of what is stored: nodes hold a long long and a double. */
#define ARENA_ALIGN _Alignof(struct yajl_val_s)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	_Alignas(ARENA_ALIGN) char data[];
};

/* What a tree handed out lives in: the root node is a member, so oci_json_free finds the
 * blocks from the tree alone. */
struct json_doc {
	struct arena_block *blocks;
	struct yajl_val_s root;
};

static void *arena_alloc(struct json_doc *doc, size_t size)
{
	size = (size + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
	struct arena_block *b = doc->blocks;
	if (!b || b->size - b->used < size) {
		size_t block_size = size > ARENA_BLOCK_SIZE ? size : ARENA_BLOCK_SIZE;
		if (!(b = malloc(sizeof(*b) + block_size)))
			return NULL;
		*b = (struct arena_block){.next = doc->blocks, .size = block_size};
		doc->blocks = b;
	}
	void *p = b->data + b->used;
	b->used += size;
	return p;
}

static char *arena_strndup(struct json_doc *doc, const void *s, size_t len)
{
	char *copy = arena_alloc(doc, len + 1);
	if (copy) {
		memcpy(copy, s, len);
		copy[len] = '\0';
	}
	return copy;
}

void oci_json_free(yajl_val tree)
{
	if (!tree)
		return;
	struct json_doc *doc = (struct json_doc *)((char *)tree - offsetof(struct json_doc, root));
	for (struct arena_block *b = doc->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(doc);
}

/* ---- the builder ---- */

/* A growing stack of pointers (scratch space: freed when the parse ends). */
struct ptr_stack {
	void **items;
	size_t len, cap;
};

static bool push(struct ptr_stack *s, void *p)
{
	if (s->len == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void **grown = realloc(s->items, cap * sizeof(*grown));
		if (!grown)
			return false;
		s->items = grown;
		s->cap = cap;
	}
	s->items[s->len++] = p;
	return true;
}

struct builder {
	struct json_doc *doc;
	/* The objects and arrays open, innermost last. Until it closes, a container's len
	 * holds the index in `members` of its first member. */
	struct ptr_stack open;
	/* The members of the open containers, in order: an object's as name, value, name,
	 * value...; an array's as values. */
	struct ptr_stack members;
	/* Why the parse was cancelled (neither: out of memory). */
	bool too_deep;
	bool nul;
	/* Where the string with a NUL is, what of it comes before the NUL, and whether it is a
	 * property name (the path is then its object's). */
	char nul_path[256], nul_text[48];
	bool nul_in_key;
};

/* yajl's callbacks return 1 to go on, 0 to cancel the parse. */
enum { CANCEL = 0, CONTINUE = 1 };

/* A zeroed node; the document's first is its root. */
static yajl_val new_node(struct builder *b, yajl_type type)
{
	yajl_val v = b->open.len ? arena_alloc(b->doc, sizeof(*v)) : &b->doc->root;
	if (v) {
		memset(v, 0, sizeof(*v));
		v->type = type;
	}
	return v;
}

/* A finished value becomes a member of the innermost open container (the root: nothing). */
static int add_value(struct builder *b, yajl_val v)
{
	if (!v)
		return CANCEL;
	if (!b->open.len)
		return CONTINUE;
	return push(&b->members, v) ? CONTINUE : CANCEL;
}

static int on_null(void *ctx)
{
	struct builder *b = ctx;
	return add_value(b, new_node(b, yajl_t_null));
}

static int on_boolean(void *ctx, int value)
{
	struct builder *b = ctx;
	return add_value(b, new_node(b, value ? yajl_t_true : yajl_t_false));
}

static int on_number(void *ctx, const char *text, size_t len)
{
	struct builder *b = ctx;
	yajl_val v = new_node(b, yajl_t_number);
	if (v && !(v->u.number.r = arena_strndup(b->doc, text, len)))
		return CANCEL;
	return add_value(b, v);
}

/* ---- strings with a NUL byte ---- */

/* Index in `members` of an open container's first member: its len while it is open. */
static size_t first_member(yajl_val open)
{
	return open->type == yajl_t_object ? open->u.object.len : open->u.array.len;
}

/* The path of the member being built in the innermost open container: for each container,
 * the key or index of its member that holds the next one. */
static void render_open_path(const struct builder *b, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < b->open.len; i++) {
		yajl_val v = b->open.items[i];
		bool object = v->type == yajl_t_object;
		size_t first = first_member(v);
		size_t end =
			i + 1 < b->open.len ? first_member(b->open.items[i + 1]) : b->members.len;
		struct oci_path_step step = {.index = (end - first) / (object ? 2 : 1)};
		if (object && end > first && (end - first) % 2) /* its key is pushed */
			step.name = b->members.items[end - 1];
		else if (object)
			break; /* a key itself: the path is the object's */
		len = oci_path_append(buf, size, len, &step);
	}
}

/* JSON may carry "\u0000" inside a string; a C string ends there, so what the runtime would
 * pass on (an argument, a path, a hostname) is not what the document says: refused. */
static bool refuse_nul(struct builder *b, const unsigned char *text, size_t len, bool key)
{
	if (!memchr(text, '\0', len))
		return false;
	b->nul = true;
	b->nul_in_key = key;
	render_open_path(b, b->nul_path, sizeof(b->nul_path));
	snprintf(b->nul_text, sizeof(b->nul_text), "%s", (const char *)text);
	return true;
}

static int on_string(void *ctx, const unsigned char *text, size_t len)
{
	struct builder *b = ctx;
	if (refuse_nul(b, text, len, false))
		return CANCEL;
	yajl_val v = new_node(b, yajl_t_string);
	if (v && !(v->u.string = arena_strndup(b->doc, text, len)))
		return CANCEL;
	return add_value(b, v);
}

static int on_map_key(void *ctx, const unsigned char *text, size_t len)
{
	struct builder *b = ctx;
	if (refuse_nul(b, text, len, true))
		return CANCEL;
	char *key = arena_strndup(b->doc, text, len);
	return key && push(&b->members, key) ? CONTINUE : CANCEL;
}

static int open_container(struct builder *b, yajl_type type)
{
	if (b->open.len >= OCI_JSON_MAX_DEPTH) {
		b->too_deep = true;
		return CANCEL;
	}
	yajl_val v = new_node(b, type);
	if (!v || !push(&b->open, v))
		return CANCEL;
	if (type == yajl_t_object)
		v->u.object.len = b->members.len;
	else
		v->u.array.len = b->members.len;
	return CONTINUE;
}

/* The container's members, from the end of b->members into arrays of their final size. */
static int close_container(struct builder *b)
{
	yajl_val v = b->open.items[--b->open.len];
	bool object = v->type == yajl_t_object;
	size_t first = object ? v->u.object.len : v->u.array.len;
	void *const *m = b->members.items; /* NULL while no member was ever pushed */
	size_t n = (b->members.len - first) / (object ? 2 : 1);
	yajl_val *values = n ? arena_alloc(b->doc, n * sizeof(*values)) : NULL;
	const char **keys = n && object ? arena_alloc(b->doc, n * sizeof(*keys)) : NULL;
	if (n && (!values || (object && !keys)))
		return CANCEL;
	for (size_t i = 0; i < n; i++) {
		if (object) {
			keys[i] = m[first + 2 * i];
			values[i] = m[first + 2 * i + 1];
		} else {
			values[i] = m[first + i];
		}
	}
	b->members.len = first;
	if (object) {
		v->u.object.keys = keys;
		v->u.object.values = values;
		v->u.object.len = n;
	} else {
		v->u.array.values = values;
		v->u.array.len = n;
	}
	return add_value(b, v);
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, yajl_t_object);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, yajl_t_array);
}

static int on_end_map(void *ctx)
{
	return close_container(ctx);
}

static int on_end_array(void *ctx)
{
	return close_container(ctx);
}

static const yajl_callbacks build_callbacks = OCI_YAJL_EVENTS;

/* ---- documents ---- */

static void offset_to_line_col(const char *text, size_t offset, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < offset && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* The builder's parse stops at the first error; the bare parser, run again, says where and
 * why in yajl's words. */
static int describe_syntax_error(const char *file, const char *text, struct ct_error *err)
{
	size_t len = strlen(text);
	yajl_handle h = yajl_alloc(NULL, NULL, NULL);
	if (!h)
		return ct_error_sys(err, ENOMEM, "%s: parse", file);
	yajl_config(h, yajl_allow_comments, 1);
	yajl_status st = yajl_parse(h, (const unsigned char *)text, len);
	size_t offset = yajl_get_bytes_consumed(h);
	if (st == yajl_status_ok) {
		st = yajl_complete_parse(h);
		offset = len;
	}
	char reason[256] = "unexpected end of input";
	if (st != yajl_status_ok) {
		unsigned char *e = yajl_get_error(h, 0, (const unsigned char *)text, len);
		const char *r = (const char *)e;
		if (strncmp(r, "parse error: ", 13) == 0)
			r += 13;
		snprintf(reason, sizeof(reason), "%s", r);
		reason[strcspn(reason, "\n")] = '\0';
		size_t n = strlen(reason);
		while (n && (reason[n - 1] == ' ' || reason[n - 1] == '.'))
			reason[--n] = '\0';
		yajl_free_error(h, e);
	}
	yajl_free(h);
	unsigned line, col;
	offset_to_line_col(text, offset ? offset - 1 : 0, &line, &col);
	return ct_error_plain(err, 0, "%s: malformed JSON at line %u, column %u: %s", file, line,
			      col, reason);
}

static int report_nul(const char *file, const struct builder *b, struct ct_error *err)
{
	return ct_error_plain(err, 0,
			      "%s: %s: %s \"%s\\u0000...\" holds a NUL byte (\\u0000), which would "
			      "cut it short",
			      file, *b->nul_path ? b->nul_path : ".",
			      b->nul_in_key ? "the property name" : "the string", b->nul_text);
}

static int report_too_deep(const char *file, const char *text, size_t offset, struct ct_error *err)
{
	unsigned line, col;
	offset_to_line_col(text, offset ? offset - 1 : 0, &line, &col);
	return ct_error_plain(err, 0, "%s: JSON nested deeper than %d levels at line %u, column %u",
			      file, OCI_JSON_MAX_DEPTH, line, col);
}

/* Runs yajl over the whole text with the builder's callbacks; the offset it stopped at. */
static yajl_status build(struct builder *b, const char *text, size_t *offset)
{
	yajl_handle h = yajl_alloc(&build_callbacks, NULL, b);
	if (!h)
		return yajl_status_client_canceled; /* out of memory, as a callback's */
	yajl_config(h, yajl_allow_comments, 1);
	yajl_status st = yajl_parse(h, (const unsigned char *)text, strlen(text));
	*offset = yajl_get_bytes_consumed(h);
	if (st == yajl_status_ok)
		st = yajl_complete_parse(h);
	yajl_free(h);
	return st;
}

yajl_val oci_json_parse(const char *file, const char *text, struct ct_error *err)
{
	struct json_doc *doc = calloc(1, sizeof(*doc));
	if (!doc)
		return ct_error_sys(err, ENOMEM, "%s: parse", file), NULL;
	struct builder b = {.doc = doc};
	size_t offset = 0;
	yajl_status st = build(&b, text, &offset);
	free(b.open.items);
	free(b.members.items);
	if (st == yajl_status_ok)
		return &doc->root;
	oci_json_free(&doc->root);
	if (st != yajl_status_client_canceled)
		describe_syntax_error(file, text, err);
	else if (b.nul)
		report_nul(file, &b, err);
	else if (b.too_deep)
		report_too_deep(file, text, offset, err);
	else
		ct_error_sys(err, ENOMEM, "%s: parse", file);
	return NULL;
}
