#include "oci/jsonwalk.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/pathbuf.h"
#include "libct/base/readall.h"

/* ---- the JSON path of the value being walked ---- */

/* The walk only records each level (a pointer to the property name, or the array index):
 * most documents walk clean, and the path text is wanted only for a message. */
static void path_push_key(struct oci_walk *w, const char *key)
{
	if (w->depth < OCI_PATH_STEPS)
		w->steps[w->depth] = (struct oci_path_step){.name = key};
	w->depth++;
}

static void path_push_index(struct oci_walk *w, size_t index)
{
	if (w->depth < OCI_PATH_STEPS)
		w->steps[w->depth] = (struct oci_path_step){.index = index};
	w->depth++;
}

static void path_pop(struct oci_walk *w)
{
	w->depth--;
}

/* Appends text to w->path at *len, cut at the buffer's end. */
static void path_append(struct oci_walk *w, size_t *len, const char *text)
{
	*len = ct_buf_put(w->path, sizeof(w->path), *len, text);
}

/* w->path from the recorded steps, then subpath (NULL for none) after a '.'. */
static const char *path_render(struct oci_walk *w, const char *subpath)
{
	size_t len = 0, kept = w->depth < OCI_PATH_STEPS ? w->depth : OCI_PATH_STEPS;
	w->path[0] = '\0';
	for (size_t i = 0; i < kept; i++)
		len = oci_path_append(w->path, sizeof(w->path), len, &w->steps[i]);
	if (subpath) {
		path_append(w, &len, ".");
		path_append(w, &len, subpath);
	}
	return w->path;
}

/* ---- error reporting ---- */

static void report(struct oci_walk *w, const char *path, const char *fmt, va_list ap)
{
	char msg[CT_ERROR_MSG_MAX], line[CT_ERROR_MSG_MAX];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	snprintf(line, sizeof(line), "%s: %s: %s", w->file, *path ? path : ".", msg);
	if (w->nerrors++ == 0)
		ct_error_plain(w->err, 0, "%s", line);
	if (w->on_error)
		w->on_error(w->data, line);
}

int oci_walk_error(struct oci_walk *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(w, path_render(w, NULL), fmt, ap);
	va_end(ap);
	return -1;
}

int oci_walk_error_at(struct oci_walk *w, const char *subpath, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report(w, path_render(w, subpath), fmt, ap);
	va_end(ap);
	return -1;
}

/* What a JSON value is, for "expected X, got Y". */
static const char *describe(yajl_val v, char *buf, size_t size)
{
	if (YAJL_IS_STRING(v)) {
		const char *s = v->u.string;
		size_t len = strlen(s);
		snprintf(buf, size, "\"%.*s%s\"", len > 40 ? 40 : (int)len, s,
			 len > 40 ? "..." : "");
	} else if (YAJL_IS_NUMBER(v)) {
		snprintf(buf, size, "%s", v->u.number.r);
	} else if (YAJL_IS_OBJECT(v)) {
		snprintf(buf, size, "an object");
	} else if (YAJL_IS_ARRAY(v)) {
		snprintf(buf, size, "an array");
	} else if (YAJL_IS_TRUE(v)) {
		snprintf(buf, size, "true");
	} else if (YAJL_IS_FALSE(v)) {
		snprintf(buf, size, "false");
	} else {
		snprintf(buf, size, "null");
	}
	return buf;
}

static int type_error(struct oci_walk *w, const char *expected, yajl_val v)
{
	char got[64];
	return oci_walk_error(w, "expected %s, got %s", expected, describe(v, got, sizeof(got)));
}

/* ---- scalars ---- */

/* Signed values too: the low width bytes of a two's-complement int64_t are the narrower
 * integer's. */
static void store_bits(void *dst, unsigned width, uint64_t u)
{
	switch (width) {
	case 1:
		*(uint8_t *)dst = (uint8_t)u;
		break;
	case 2:
		*(uint16_t *)dst = (uint16_t)u;
		break;
	case 4:
		*(uint32_t *)dst = (uint32_t)u;
		break;
	default:
		*(uint64_t *)dst = u;
		break;
	}
}

/* JSON integers only: an optional minus and digits (no fraction, no exponent). */
static bool is_integer_text(const char *s)
{
	if (*s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

enum oci_integer_result oci_integer_store(const struct oci_type *t, const char *text, void *dst)
{
	if (!is_integer_text(text))
		return OCI_NOT_AN_INTEGER;
	errno = 0;
	if (t->kind == OCI_UINT) {
		uint64_t u = strtoull(text, NULL, 10);
		bool negative = text[0] == '-' && strspn(text + 1, "0") != strlen(text + 1);
		if (negative || errno == ERANGE || u > t->umax)
			return OCI_OUT_OF_RANGE;
		store_bits(dst, t->width, u);
		return OCI_INTEGER_STORED;
	}
	int64_t i = strtoll(text, NULL, 10);
	if (errno == ERANGE || i < t->min || i > t->max)
		return OCI_OUT_OF_RANGE;
	store_bits(dst, t->width, (uint64_t)i);
	return OCI_INTEGER_STORED;
}

static int walk_integer(struct oci_walk *w, const struct oci_type *t, yajl_val v, void *dst)
{
	if (!YAJL_IS_NUMBER(v))
		return type_error(w, "an integer", v);
	const char *text = v->u.number.r;
	switch (oci_integer_store(t, text, dst)) {
	case OCI_INTEGER_STORED:
		return 0;
	case OCI_NOT_AN_INTEGER:
		return type_error(w, "an integer", v);
	case OCI_OUT_OF_RANGE:
		break;
	}
	if (t->kind == OCI_UINT)
		return oci_walk_error(w, "%s is out of range [0, %" PRIu64 "]", text, t->umax);
	return oci_walk_error(w, "%s is out of range [%" PRId64 ", %" PRId64 "]", text, t->min,
			      t->max);
}

static int walk_enum(struct oci_walk *w, const struct oci_type *t, yajl_val v, int *dst)
{
	if (YAJL_IS_STRING(v)) {
		for (int i = 0; t->names[i]; i++) {
			if (strcmp(t->names[i], v->u.string) == 0) {
				*dst = i;
				return 0;
			}
		}
	}
	char expected[CT_ERROR_MSG_MAX / 2];
	size_t n = snprintf(expected, sizeof(expected), "one of");
	for (int i = 0; t->names[i] && n < sizeof(expected); i++)
		n += snprintf(expected + n, sizeof(expected) - n, "%s \"%s\"", i ? "," : "",
			      t->names[i]);
	return type_error(w, expected, v);
}

/* ---- containers ---- */

static int walk_value(struct oci_walk *w, const struct oci_type *t, yajl_val v, void *dst);

static int walk_element(struct oci_walk *w, const struct oci_type *t, yajl_val v, size_t i,
			char *elem)
{
	path_push_index(w, i);
	int ret = walk_value(w, t->elem, v->u.array.values[i], elem);
	path_pop(w);
	return ret;
}

/* The tree keeps every member of an object, repeated names included (oci/jsontree.h). */
static bool is_repeated_key(yajl_val v, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(v->u.object.keys[j], v->u.object.keys[i]) == 0)
			return true;
	return false;
}

/* A map's element is its key (a string) and the value at t->value_offset. */
static int walk_member(struct oci_walk *w, const struct oci_type *t, yajl_val v, size_t i,
		       char *elem)
{
	int ret = 0;
	*(char **)elem = strdup(v->u.object.keys[i]);
	path_push_key(w, v->u.object.keys[i]);
	if (!*(char **)elem)
		ret = oci_walk_error(w, "out of memory");
	else if (is_repeated_key(v, i))
		ret = oci_walk_error(w, "duplicate property");
	else
		ret = walk_value(w, t->elem, v->u.object.values[i], elem + t->value_offset);
	path_pop(w);
	return ret;
}

/* An OCI_ARRAY (from a JSON array) or OCI_MAP (from an object): {items, len}. Every element
 * is walked, so that every error in them is reported. */
static int walk_items(struct oci_walk *w, const struct oci_type *t, yajl_val v, void *dst)
{
	bool map = t->kind == OCI_MAP;
	if (map ? !YAJL_IS_OBJECT(v) : !YAJL_IS_ARRAY(v))
		return type_error(w, map ? "an object" : "an array", v);
	size_t len = map ? v->u.object.len : v->u.array.len;
	char *items = len ? calloc(len, t->elem_size) : NULL;
	if (len && !items)
		return oci_walk_error(w, "out of memory");
	int ret = 0;
	for (size_t i = 0; i < len; i++) {
		char *elem = items + i * t->elem_size;
		if ((map ? walk_member(w, t, v, i, elem) : walk_element(w, t, v, i, elem)) < 0)
			ret = -1;
	}
	memcpy(dst, &items, sizeof(items));
	memcpy((char *)dst + sizeof(items), &len, sizeof(len));
	return ret;
}

static int walk_value(struct oci_walk *w, const struct oci_type *t, yajl_val v, void *dst)
{
	int ret;
	switch (t->kind) {
	case OCI_STRING:
		if (!YAJL_IS_STRING(v))
			return type_error(w, "a string", v);
		*(char **)dst = strdup(v->u.string);
		ret = *(char **)dst ? 0 : oci_walk_error(w, "out of memory");
		break;
	case OCI_BOOL:
		if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v))
			return type_error(w, "a boolean", v);
		*(bool *)dst = YAJL_IS_TRUE(v);
		ret = 0;
		break;
	case OCI_INT:
	case OCI_UINT:
		ret = walk_integer(w, t, v, dst);
		break;
	case OCI_ENUM:
		ret = walk_enum(w, t, v, dst);
		break;
	case OCI_OBJECT:
		ret = oci_walk_object(w, t->fields, v, dst);
		break;
	case OCI_ARRAY:
	case OCI_MAP:
		ret = walk_items(w, t, v, dst);
		break;
	default:
		ret = oci_walk_error(w, "internal error: unknown descriptor kind");
	}
	if (ret == 0 && t->check)
		ret = t->check(w, dst);
	return ret;
}

static const struct oci_field *find_field(const struct oci_field *fields, const char *name)
{
	for (const struct oci_field *f = fields; f->name; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

int oci_walk_object(struct oci_walk *w, const struct oci_field *fields, yajl_val v, void *out)
{
	if (!YAJL_IS_OBJECT(v))
		return type_error(w, "an object", v);
	uint64_t seen = 0; /* descriptor tables stay under 64 fields */
	int ret = 0;
	for (size_t i = 0; i < v->u.object.len; i++) {
		const char *key = v->u.object.keys[i];
		yajl_val value = v->u.object.values[i];
		const struct oci_field *f = find_field(fields, key);
		path_push_key(w, key);
		if (!f) {
			if (w->on_unknown)
				w->on_unknown(w->data, w->file, path_render(w, NULL));
		} else if (seen & (1ULL << (f - fields))) {
			ret = oci_walk_error(w, "duplicate property");
		} else if (!YAJL_IS_NULL(value)) {
			/* null is taken as absent, as Go encoders write it for nil fields */
			seen |= 1ULL << (f - fields);
			if (walk_value(w, f->type, value, (char *)out + f->offset) < 0)
				ret = -1;
			else if (f->present != OCI_NO_PRESENCE)
				*(bool *)((char *)out + f->present) = true;
		}
		path_pop(w);
	}
	for (const struct oci_field *f = fields; f->name; f++)
		if (f->required && !(seen & (1ULL << (f - fields))))
			ret = oci_walk_error(w, "missing required property \"%s\"", f->name);
	return ret;
}

/* ---- releasing ---- */

static void free_value(const struct oci_type *t, void *p)
{
	switch (t->kind) {
	case OCI_STRING:
		free(*(char **)p);
		break;
	case OCI_OBJECT:
		oci_walk_free(t->fields, p);
		break;
	case OCI_ARRAY:
	case OCI_MAP: {
		char *items;
		size_t len;
		memcpy(&items, p, sizeof(items));
		memcpy(&len, (char *)p + sizeof(items), sizeof(len));
		for (size_t i = 0; i < len && items; i++) {
			char *elem = items + i * t->elem_size;
			if (t->kind == OCI_MAP) {
				free(*(char **)elem);
				elem += t->value_offset;
			}
			free_value(t->elem, elem);
		}
		free(items);
		break;
	}
	default:
		break;
	}
}

void oci_walk_free(const struct oci_field *fields, void *obj)
{
	if (!obj)
		return;
	for (const struct oci_field *f = fields; f->name; f++)
		free_value(f->type, (char *)obj + f->offset);
}

/* ---- files ---- */

char *oci_read_file(const char *path, size_t max, struct ct_error *err)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path), NULL;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return ct_error_sys(err, errno, "stat \"%s\"", path), NULL;
	if (!S_ISREG(st.st_mode))
		return ct_error_plain(err, EINVAL, "\"%s\" is not a regular file", path), NULL;
	if ((size_t)st.st_size > max)
		return ct_error_plain(err, EFBIG, "\"%s\" is larger than %zu bytes", path, max),
		       NULL;
	size_t len;
	_cleanup_free_ char *buf = ct_read_all(fd, max, &len);
	if (!buf && errno == EFBIG) /* grew past max since the fstat */
		return ct_error_plain(err, EFBIG, "\"%s\" is larger than %zu bytes", path, max),
		       NULL;
	if (!buf)
		return ct_error_sys(err, errno, "read \"%s\"", path), NULL;
	if (strlen(buf) != len)
		return ct_error_plain(err, EINVAL, "%s: contains a NUL byte", path), NULL;
	return steal_ptr(&buf);
}

/* ---- the spec's shared types (defs.json) ---- */

static int check_abs_path(struct oci_walk *w, const void *value)
{
	const char *s = *(char *const *)value;
	if (s[0] != '/')
		return oci_walk_error(w, "expected an absolute path, got \"%s\"", s);
	return 0;
}

const struct oci_type oci_t_string = {.kind = OCI_STRING};
const struct oci_type oci_t_abs_path = {.kind = OCI_STRING, .check = check_abs_path};
const struct oci_type oci_t_bool = {.kind = OCI_BOOL};
const struct oci_type oci_t_int32 = {
	.kind = OCI_INT, .width = 4, .min = INT32_MIN, .max = INT32_MAX};
const struct oci_type oci_t_int64 = {
	.kind = OCI_INT, .width = 8, .min = INT64_MIN, .max = INT64_MAX};
const struct oci_type oci_t_uint8 = {.kind = OCI_UINT, .width = 1, .umax = UINT8_MAX};
const struct oci_type oci_t_uint16 = {.kind = OCI_UINT, .width = 2, .umax = UINT16_MAX};
const struct oci_type oci_t_uint32 = {.kind = OCI_UINT, .width = 4, .umax = UINT32_MAX};
const struct oci_type oci_t_uint64 = {.kind = OCI_UINT, .width = 8, .umax = UINT64_MAX};
const struct oci_type oci_t_string_array = {
	.kind = OCI_ARRAY, .elem = &oci_t_string, .elem_size = sizeof(char *)};
const struct oci_type oci_t_uint32_array = {
	.kind = OCI_ARRAY, .elem = &oci_t_uint32, .elem_size = sizeof(uint32_t)};
const struct oci_type oci_t_string_map = {.kind = OCI_MAP,
					  .elem = &oci_t_string,
					  .elem_size = sizeof(struct oci_kv),
					  .value_offset = offsetof(struct oci_kv, value)};
