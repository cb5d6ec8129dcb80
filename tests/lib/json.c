/* JSON for tests: yajl trees, values by path (".linux.namespaces[0].type"), and rewriting a
 * file with one value changed, so a test starts from `ctrun spec` and states only what it
 * changes. */
#include "tests/lib/testlib.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

/* ---- paths ---- */

#define MAX_DEPTH 32

struct step {
	char *key; /* member name, or NULL for an array index */
	size_t index;
};

struct path {
	struct step steps[MAX_DEPTH];
	size_t len;
};

static void path_free(struct path *p)
{
	for (size_t i = 0; i < p->len; i++)
		free(p->steps[i].key);
}

/* ".a.b", "[3]", "[\"a.b\"]"; fails the test on a malformed path. */
static void path_parse(const char *s, struct path *p)
{
	const char *orig = s;
	p->len = 0;
	if (!strcmp(s, "."))
		return;
	while (*s) {
		cr_assert_lt(p->len, MAX_DEPTH, "JSON path too deep: %s", orig);
		struct step *st = &p->steps[p->len++];
		st->key = NULL;
		if (*s == '.') {
			size_t n = strcspn(s + 1, ".[");
			cr_assert_gt(n, 0, "bad JSON path: %s", orig);
			st->key = strndup(s + 1, n);
			s += 1 + n;
		} else if (s[0] == '[' && s[1] == '"') {
			const char *end = strstr(s + 2, "\"]");
			cr_assert_not_null(end, "bad JSON path: %s", orig);
			st->key = strndup(s + 2, (size_t)(end - s - 2));
			s = end + 2;
		} else if (*s == '[') {
			char *end;
			st->index = strtoul(s + 1, &end, 10);
			cr_assert(end != s + 1 && *end == ']', "bad JSON path: %s", orig);
			s = end + 1;
		} else {
			cr_assert_fail("bad JSON path: %s", orig);
		}
	}
}

/* The child of v for one step, or NULL. */
static yajl_val child(yajl_val v, const struct step *st)
{
	if (st->key && YAJL_IS_OBJECT(v)) {
		for (size_t i = 0; i < v->u.object.len; i++)
			if (!strcmp(v->u.object.keys[i], st->key))
				return v->u.object.values[i];
	} else if (!st->key && YAJL_IS_ARRAY(v) && st->index < v->u.array.len) {
		return v->u.array.values[st->index];
	}
	return NULL;
}

/* ---- reading ---- */

yajl_val ctt_json_parse(const char *text, const char *what)
{
	char errbuf[512];
	yajl_val tree = yajl_tree_parse(text, errbuf, sizeof(errbuf));
	cr_assert_not_null(tree, "%s is not JSON: %s\n%s", what, errbuf, text);
	return tree;
}

yajl_val ctt_json_load(const char *file)
{
	char *text = ctt_read_file(file);
	yajl_val tree = ctt_json_parse(text, file);
	free(text);
	return tree;
}

yajl_val ctt_json_get(yajl_val tree, const char *path)
{
	struct path p;
	path_parse(path, &p);
	yajl_val v = tree;
	for (size_t i = 0; v && i < p.len; i++)
		v = child(v, &p.steps[i]);
	path_free(&p);
	return v;
}

const char *ctt_json_get_string(yajl_val tree, const char *path)
{
	yajl_val v = ctt_json_get(tree, path);
	return YAJL_IS_STRING(v) ? v->u.string : NULL;
}

long long ctt_json_get_int(yajl_val tree, const char *path)
{
	yajl_val v = ctt_json_get(tree, path);
	cr_assert(YAJL_IS_INTEGER(v), "%s: not an integer", path);
	return YAJL_GET_INTEGER(v);
}

bool ctt_json_get_bool(yajl_val tree, const char *path)
{
	yajl_val v = ctt_json_get(tree, path);
	cr_assert(YAJL_IS_TRUE(v) || YAJL_IS_FALSE(v), "%s: not a boolean", path);
	return YAJL_IS_TRUE(v);
}

bool ctt_json_array_has(yajl_val tree, const char *path, const char *s)
{
	yajl_val v = ctt_json_get(tree, path);
	if (!YAJL_IS_ARRAY(v))
		return false;
	for (size_t i = 0; i < v->u.array.len; i++)
		if (YAJL_IS_STRING(v->u.array.values[i]) &&
		    !strcmp(v->u.array.values[i]->u.string, s))
			return true;
	return false;
}

long ctt_json_len(yajl_val tree, const char *path)
{
	yajl_val v = ctt_json_get(tree, path);
	if (YAJL_IS_ARRAY(v))
		return (long)v->u.array.len;
	if (YAJL_IS_OBJECT(v))
		return (long)v->u.object.len;
	return -1;
}

/* ---- writing: the tree again, with the value at one path replaced ---- */

struct edit {
	const struct path *path;
	yajl_val replacement; /* NULL: remove */
	bool done;
};

static void gen_string(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

static void gen_value(yajl_gen g, yajl_val v, struct edit *e, size_t depth, bool on_path);

static void gen_object(yajl_gen g, yajl_val v, struct edit *e, size_t depth, bool on_path)
{
	const struct step *next = on_path && depth < e->path->len ? &e->path->steps[depth] : NULL;
	yajl_gen_map_open(g);
	for (size_t i = 0; i < v->u.object.len; i++) {
		bool hit = next && next->key && !strcmp(next->key, v->u.object.keys[i]);
		if (hit && depth + 1 == e->path->len && !e->replacement) {
			e->done = true; /* removed */
			continue;
		}
		gen_string(g, v->u.object.keys[i]);
		gen_value(g, v->u.object.values[i], e, depth + 1, hit);
	}
	if (next && next->key && depth + 1 == e->path->len && !e->done && e->replacement) {
		gen_string(g, next->key); /* a new member */
		gen_value(g, e->replacement, NULL, 0, false);
		e->done = true;
	}
	yajl_gen_map_close(g);
}

static void gen_array(yajl_gen g, yajl_val v, struct edit *e, size_t depth, bool on_path)
{
	const struct step *next = on_path && depth < e->path->len ? &e->path->steps[depth] : NULL;
	bool last = next && !next->key && depth + 1 == e->path->len;
	yajl_gen_array_open(g);
	for (size_t i = 0; i < v->u.array.len; i++) {
		bool hit = next && !next->key && next->index == i;
		if (hit && last && !e->replacement) {
			e->done = true;
			continue;
		}
		gen_value(g, v->u.array.values[i], e, depth + 1, hit);
	}
	if (last && next->index == v->u.array.len && e->replacement) {
		gen_value(g, e->replacement, NULL, 0, false); /* append */
		e->done = true;
	}
	yajl_gen_array_close(g);
}

static void gen_value(yajl_gen g, yajl_val v, struct edit *e, size_t depth, bool on_path)
{
	if (e && on_path && depth == e->path->len) {
		v = e->replacement;
		e->done = true;
		e = NULL;
		on_path = false;
	}
	switch (v->type) {
	case yajl_t_string:
		gen_string(g, v->u.string);
		break;
	case yajl_t_number:
		yajl_gen_number(g, v->u.number.r, strlen(v->u.number.r));
		break;
	case yajl_t_true:
		yajl_gen_bool(g, 1);
		break;
	case yajl_t_false:
		yajl_gen_bool(g, 0);
		break;
	case yajl_t_null:
		yajl_gen_null(g);
		break;
	case yajl_t_object:
		gen_object(g, v, e, depth, on_path);
		break;
	case yajl_t_array:
		gen_array(g, v, e, depth, on_path);
		break;
	default:
		cr_assert_fail("unexpected yajl value type %d", (int)v->type);
	}
}

void ctt_json_edit_file(const char *file, const char *path, const char *json)
{
	struct path p;
	path_parse(path, &p);
	cr_assert(p.len > 0 || json, "cannot remove the whole document");
	yajl_val tree = ctt_json_load(file);
	/* Wrapped in an array so that a bare scalar ("5", "\"x\"") parses too. */
	yajl_val wrapper = NULL, replacement = NULL;
	if (json) {
		char *text;
		cr_assert_geq(asprintf(&text, "[%s]", json), 0, "out of memory");
		wrapper = ctt_json_parse(text, "the new value");
		free(text);
		cr_assert_eq(wrapper->u.array.len, 1, "not one JSON value: %s", json);
		replacement = wrapper->u.array.values[0];
	}
	struct edit e = {.path = &p, .replacement = replacement};
	yajl_gen g = yajl_gen_alloc(NULL);
	yajl_gen_config(g, yajl_gen_beautify, 1);
	yajl_gen_config(g, yajl_gen_indent_string, "  ");
	gen_value(g, tree, &e, 0, true);
	cr_assert(e.done, "%s: no %s to change", file, path);
	const unsigned char *buf;
	size_t len;
	cr_assert_eq(yajl_gen_get_buf(g, &buf, &len), yajl_gen_status_ok);
	char *out = strndup((const char *)buf, len);
	ctt_write_file(file, out);
	free(out);
	yajl_gen_free(g);
	yajl_tree_free(wrapper);
	yajl_tree_free(tree);
	path_free(&p);
}

char *ctt_json_text(yajl_val v)
{
	cr_assert_not_null(v, "no value to write");
	yajl_gen g = yajl_gen_alloc(NULL);
	gen_value(g, v, NULL, 0, false);
	const unsigned char *buf;
	size_t len;
	cr_assert_eq(yajl_gen_get_buf(g, &buf, &len), yajl_gen_status_ok);
	char *out = strndup((const char *)buf, len);
	yajl_gen_free(g);
	return out;
}

char *ctt_json_quote(const char *s)
{
	char *out = malloc(strlen(s) * 6 + 3);
	cr_assert_not_null(out, "out of memory");
	char *p = out;
	*p++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			p += sprintf(p, "\\%c", c);
		else if (c < 0x20)
			p += sprintf(p, "\\u%04x", c);
		else
			*p++ = (char)c;
	}
	*p++ = '"';
	*p = '\0';
	return out;
}
