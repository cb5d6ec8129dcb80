/* runtime-spec/CONFORMANCE.md stays complete and honest: every property the spec's JSON
 * schemas define (config.json, Linux parts; state.json) has a row, every row names a real
 * property, and every test the table cites exists. The schemas come from
 * ../shared/runtime-spec (or $CTRUN_SPEC_DIR), the table from the repo ($CTRUN_SRC or the
 * current directory, where `make unit` runs). */
#ifndef _GNU_SOURCE /* the Makefile defines it */
#endif
#include <criterion/criterion.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yajl/yajl_tree.h>

#include "oci/jsonwalk.h"

#define MAX_SCHEMA_FILES 16
#define MAX_DEPTH	 64
#define MAX_FILE_SIZE	 (4 << 20)

/* ---- small helpers ---- */

struct strings {
	char **items;
	size_t len, cap;
};

static void strings_add(struct strings *s, const char *str)
{
	if (s->len == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->items = realloc(s->items, s->cap * sizeof(char *));
		cr_assert_not_null(s->items);
	}
	s->items[s->len] = strdup(str);
	cr_assert_not_null(s->items[s->len]);
	s->len++;
}

static bool strings_has(const struct strings *s, const char *str)
{
	for (size_t i = 0; i < s->len; i++)
		if (strcmp(s->items[i], str) == 0)
			return true;
	return false;
}

static void strings_free(struct strings *s)
{
	for (size_t i = 0; i < s->len; i++)
		free(s->items[i]);
	free(s->items);
	*s = (struct strings){0};
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);
	return v && *v ? v : fallback;
}

static const char *src_dir(void)
{
	return env_or("CTRUN_SRC", ".");
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Reads a whole text file of the test's inputs; a missing one fails the test. */
static char *read_text(const char *path)
{
	struct ct_error err = {0};
	char *text = oci_read_file(path, MAX_FILE_SIZE, &err);
	cr_assert_not_null(text, "%s", err.msg);
	return text;
}

static yajl_val object_get(yajl_val obj, const char *key)
{
	if (!YAJL_IS_OBJECT(obj))
		return NULL;
	for (size_t i = 0; i < obj->u.object.len; i++)
		if (strcmp(obj->u.object.keys[i], key) == 0)
			return obj->u.object.values[i];
	return NULL;
}

/* ---- the schemas: files loaded on demand, $ref followed across them ---- */

struct schemas {
	char dir[PATH_MAX];
	struct {
		char name[64];
		yajl_val tree;
	} files[MAX_SCHEMA_FILES];
	size_t nfiles;
	struct strings paths; /* every property path found, in schema order */
};

/* Points `dir` at the schema directory, or skips the test: the spec is not part of the repo. */
static void schemas_init(struct schemas *s)
{
	*s = (struct schemas){0};
	snprintf(s->dir, sizeof(s->dir), "%s/schema",
		 env_or("CTRUN_SPEC_DIR", "../shared/runtime-spec"));
	char probe[PATH_MAX + 32];
	snprintf(probe, sizeof(probe), "%s/config-schema.json", s->dir);
	if (!is_file(probe))
		cr_skip("runtime-spec schemas not found at %s (set CTRUN_SPEC_DIR)", s->dir);
}

static void schemas_free(struct schemas *s)
{
	for (size_t i = 0; i < s->nfiles; i++)
		oci_json_free(s->files[i].tree);
	strings_free(&s->paths);
}

static yajl_val schema_file(struct schemas *s, const char *name)
{
	for (size_t i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i].name, name) == 0)
			return s->files[i].tree;
	cr_assert_lt(s->nfiles, MAX_SCHEMA_FILES, "too many schema files");
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", s->dir, name);
	char *text = read_text(path);
	struct ct_error err = {0};
	yajl_val tree = oci_json_parse(name, text, &err);
	free(text);
	cr_assert_not_null(tree, "%s", err.msg);
	snprintf(s->files[s->nfiles].name, sizeof(s->files[0].name), "%s", name);
	s->files[s->nfiles++].tree = tree;
	return tree;
}

/* "defs-linux.json#/definitions/Device" seen from `*file`: returns the node and moves
 * `*file` to the file that holds it (a bare "#/..." stays in the same file). */
static yajl_val resolve_ref(struct schemas *s, const char *ref, char *file, size_t file_size)
{
	const char *hash = strchr(ref, '#');
	size_t name_len = hash ? (size_t)(hash - ref) : strlen(ref);
	if (name_len > 0)
		snprintf(file, file_size, "%.*s", (int)name_len, ref);
	yajl_val node = schema_file(s, file);
	char *frag = strdup(hash ? hash + 1 : "");
	cr_assert_not_null(frag);
	char *save = NULL;
	for (char *seg = strtok_r(frag, "/", &save); seg && node; seg = strtok_r(NULL, "/", &save))
		node = object_get(node, seg);
	free(frag);
	cr_assert_not_null(node, "%s: $ref \"%s\" points nowhere", file, ref);
	return node;
}

/* Sections of other platforms get one row each ("ignored on Linux"); nothing below. */
static bool is_other_platform(const char *path)
{
	static const char *const platforms[] = {".solaris", ".windows", ".vm",
						".zos",	    ".freebsd", NULL};
	for (int i = 0; platforms[i]; i++)
		if (strcmp(path, platforms[i]) == 0)
			return true;
	return false;
}

static void walk_schema(struct schemas *s, yajl_val node, const char *file, const char *path,
			int depth);

static void walk_with_suffix(struct schemas *s, yajl_val node, const char *file, const char *path,
			     const char *suffix, int depth)
{
	char sub[512];
	int n = snprintf(sub, sizeof(sub), "%s%s", path, suffix);
	cr_assert_lt((size_t)n, sizeof(sub), "path too long: %s%s", path, suffix);
	walk_schema(s, node, file, sub, depth + 1);
}

static void walk_properties(struct schemas *s, yajl_val props, const char *file, const char *path,
			    int depth)
{
	if (!YAJL_IS_OBJECT(props))
		return;
	for (size_t i = 0; i < props->u.object.len; i++) {
		char sub[512];
		int n = snprintf(sub, sizeof(sub), "%s.%s", path, props->u.object.keys[i]);
		cr_assert_lt((size_t)n, sizeof(sub), "path too long below %s", path);
		strings_add(&s->paths, sub);
		if (depth == 0 && is_other_platform(sub))
			continue;
		walk_schema(s, props->u.object.values[i], file, sub, depth + 1);
	}
}

/* Collects the path of every named property below `node`. An array element adds "[]", a
 * map value (additionalProperties / patternProperties) adds ".*"; the map's own values are
 * not properties, only their named members are. */
static void walk_schema(struct schemas *s, yajl_val node, const char *file, const char *path,
			int depth)
{
	cr_assert_lt(depth, MAX_DEPTH, "schema nests too deep at %s", path);
	if (!YAJL_IS_OBJECT(node))
		return;
	yajl_val ref = object_get(node, "$ref");
	if (YAJL_IS_STRING(ref)) {
		char target[64];
		snprintf(target, sizeof(target), "%s", file);
		yajl_val to = resolve_ref(s, YAJL_GET_STRING(ref), target, sizeof(target));
		walk_schema(s, to, target, path, depth + 1);
	}
	static const char *const combinators[] = {"allOf", "anyOf", "oneOf", NULL};
	for (int c = 0; combinators[c]; c++) {
		yajl_val list = object_get(node, combinators[c]);
		for (size_t i = 0; YAJL_IS_ARRAY(list) && i < list->u.array.len; i++)
			walk_schema(s, list->u.array.values[i], file, path, depth + 1);
	}
	walk_properties(s, object_get(node, "properties"), file, path, depth);
	yajl_val items = object_get(node, "items");
	if (YAJL_IS_OBJECT(items))
		walk_with_suffix(s, items, file, path, "[]", depth);
	yajl_val extra = object_get(node, "additionalProperties");
	if (YAJL_IS_OBJECT(extra))
		walk_with_suffix(s, extra, file, path, ".*", depth);
	yajl_val patterns = object_get(node, "patternProperties");
	for (size_t i = 0; YAJL_IS_OBJECT(patterns) && i < patterns->u.object.len; i++)
		walk_with_suffix(s, patterns->u.object.values[i], file, path, ".*", depth);
}

static void collect_schema_paths(struct schemas *s, const char *top_file)
{
	walk_schema(s, schema_file(s, top_file), top_file, "", 0);
}

/* ---- the table: rows of CONFORMANCE.md by section ---- */

enum section { SEC_OTHER, SEC_CONFIG, SEC_STATE };

struct table {
	struct strings config, state; /* the field cell of each row, backticks removed */
	char *text;
};

static enum section section_of_heading(const char *line)
{
	if (strstr(line, "config.json"))
		return SEC_CONFIG;
	if (strstr(line, "state.json"))
		return SEC_STATE;
	return SEC_OTHER;
}

/* "| `.root.path` | parsed | ..." -> ".root.path"; false for a line that is not a row. */
static bool first_cell(const char *line, char *out, size_t size)
{
	if (line[0] != '|')
		return false;
	const char *start = line + 1, *end = strchr(start, '|');
	if (!end)
		return false;
	while (start < end && isspace((unsigned char)*start))
		start++;
	while (end > start && isspace((unsigned char)end[-1]))
		end--;
	if (end - start >= 2 && start[0] == '`' && end[-1] == '`') {
		start++;
		end--;
	}
	snprintf(out, size, "%.*s", (int)(end - start), start);
	return true;
}

/* Header and separator rows are not fields: a field path starts with '.'. */
static void add_row(struct table *t, enum section sec, const char *line)
{
	char cell[512];
	if (!first_cell(line, cell, sizeof(cell)) || cell[0] != '.')
		return;
	if (sec == SEC_CONFIG)
		strings_add(&t->config, cell);
	else if (sec == SEC_STATE)
		strings_add(&t->state, cell);
}

static const char *table_path(char *buf, size_t size)
{
	snprintf(buf, size, "%s/runtime-spec/CONFORMANCE.md", src_dir());
	return buf;
}

static void table_load(struct table *t)
{
	*t = (struct table){0};
	char path[PATH_MAX + 64];
	t->text = read_text(table_path(path, sizeof(path)));
	char *copy = strdup(t->text), *save = NULL;
	cr_assert_not_null(copy);
	enum section sec = SEC_OTHER;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "## ", 3) == 0)
			sec = section_of_heading(line);
		else
			add_row(t, sec, line);
	}
	free(copy);
}

static void table_free(struct table *t)
{
	strings_free(&t->config);
	strings_free(&t->state);
	free(t->text);
}

/* Fails once per item of have that want lacks, with the message "CONFORMANCE.md: <doc>
 * <what> <item> <why>"; returns how many. */
static unsigned assert_each_in(const struct strings *have, const struct strings *want,
			       const char *doc, const char *what, const char *why)
{
	unsigned lacking = 0;
	for (size_t i = 0; i < have->len; i++) {
		if (strings_has(want, have->items[i]))
			continue;
		cr_expect_fail("CONFORMANCE.md: %s %s %s %s", doc, what, have->items[i], why);
		lacking++;
	}
	return lacking;
}

static void assert_document_covered(const char *schema_file_name, bool config, const char *doc)
{
	struct schemas s;
	schemas_init(&s);
	collect_schema_paths(&s, schema_file_name);
	struct table t;
	table_load(&t);
	const struct strings *rows = config ? &t.config : &t.state;
	cr_assert_gt(s.paths.len, 0, "no property found in %s", schema_file_name);
	/* every schema path has a row; a row for a property the schema does not have is a typo
	 * or a stale row */
	unsigned missing = assert_each_in(&s.paths, rows, doc, "field", "has no row");
	unsigned stray = assert_each_in(rows, &s.paths, doc, "row", "is not in the schema");
	table_free(&t);
	schemas_free(&s);
	cr_assert(missing == 0 && stray == 0,
		  "%s: %u fields without a row, %u rows not in the schema", doc, missing, stray);
}

Test(conformance, schema_walk_finds_nested_properties)
{
	struct schemas s;
	schemas_init(&s);
	collect_schema_paths(&s, "config-schema.json");
	/* One path through each kind of step: $ref to another file, array items, allOf,
	 * additionalProperties, a top-level platform section that is not descended into. */
	cr_expect(strings_has(&s.paths, ".linux.resources.memory.limit"));
	cr_expect(strings_has(&s.paths, ".linux.devices[].fileMode"));
	cr_expect(strings_has(&s.paths, ".linux.resources.blockIO.weightDevice[].major"));
	cr_expect(strings_has(&s.paths, ".linux.netDevices.*.name"));
	cr_expect(strings_has(&s.paths, ".hooks.poststop[].timeout"));
	cr_expect(strings_has(&s.paths, ".windows"));
	for (size_t i = 0; i < s.paths.len; i++)
		cr_expect(strncmp(s.paths.items[i], ".windows.", 9) != 0, "walked into %s",
			  s.paths.items[i]);
	cr_assert_gt(s.paths.len, 150, "only %zu paths found", s.paths.len);
	schemas_free(&s);
}

Test(conformance, every_config_field_has_a_row)
{
	assert_document_covered("config-schema.json", true, "config.json");
}

Test(conformance, every_state_field_has_a_row)
{
	assert_document_covered("state-schema.json", false, "state.json");
}

/* ---- cited tests: "tests/unit/test_config.c: config/process_user" ---- */

static size_t span_identifier(const char *s)
{
	size_t n = 0;
	while (s[n] == '_' || isalnum((unsigned char)s[n]))
		n++;
	return n;
}

/* Parses one citation at `p` (which starts with "tests/"); false when it is only a mention
 * of a file in prose. */
static bool parse_citation(const char *p, char *file, size_t fsize, char *suite, size_t ssize,
			   char *name, size_t nsize)
{
	const char *colon = strstr(p, ".c: ");
	const char *stop = p + strcspn(p, " |`;,\n");
	if (!colon || colon + 2 > stop)
		return false;
	const char *s = colon + 4;
	size_t slen = span_identifier(s);
	if (slen == 0 || s[slen] != '/')
		return false;
	const char *n = s + slen + 1;
	size_t nlen = span_identifier(n);
	if (nlen == 0)
		return false;
	snprintf(file, fsize, "%.*s", (int)(colon + 2 - p), p);
	snprintf(suite, ssize, "%.*s", (int)slen, s);
	snprintf(name, nsize, "%.*s", (int)nlen, n);
	return true;
}

/* Test(suite, name) with any spacing after the comma, as clang-format leaves it. */
/* Whether text defines the test suite/name: a Test(suite, name, or a
 * ParameterizedTest(param, suite, name. */
static bool file_defines_test(const char *text, const char *suite, const char *name)
{
	size_t suite_len = strlen(suite);
	for (const char *p = strstr(text, "Test("); p; p = strstr(p + 1, "Test(")) {
		const char *q = p + strlen("Test(");
		if (p >= text + strlen("Parameterized") &&
		    strncmp(p - strlen("Parameterized"), "Parameterized",
			    strlen("Parameterized")) == 0)
			q = strchr(q, ',') ? strchr(q, ',') + 1 : q; /* past the parameter */
		q += strspn(q, " \t");
		if (strncmp(q, suite, suite_len) != 0 || q[suite_len] != ',')
			continue;
		q += suite_len + 1;
		q += strspn(q, " \t");
		if (strncmp(q, name, strlen(name)) == 0 && span_identifier(q) == strlen(name))
			return true;
	}
	return false;
}

static bool cited_test_exists(const char *file, const char *suite, const char *name)
{
	char path[PATH_MAX + 256];
	snprintf(path, sizeof(path), "%s/%s", src_dir(), file);
	if (!is_file(path))
		return false;
	char *text = read_text(path);
	bool found = file_defines_test(text, suite, name);
	free(text);
	return found;
}

Test(conformance, every_cited_test_exists)
{
	struct table t;
	table_load(&t);
	unsigned cited = 0, broken = 0;
	for (const char *p = strstr(t.text, "tests/"); p; p = strstr(p + 1, "tests/")) {
		char file[256], suite[128], name[128];
		if (!parse_citation(p, file, sizeof(file), suite, sizeof(suite), name,
				    sizeof(name)))
			continue;
		cited++;
		if (cited_test_exists(file, suite, name))
			continue;
		cr_expect_fail("CONFORMANCE.md cites %s: %s/%s, which does not exist", file, suite,
			       name);
		broken++;
	}
	table_free(&t);
	cr_assert_gt(cited, 0, "CONFORMANCE.md cites no test");
	cr_assert_eq(broken, 0, "%u of %u cited tests do not exist", broken, cited);
}
