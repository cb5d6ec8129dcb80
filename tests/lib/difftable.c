/* The differential suite's facts, comparison and differences table: see difftable.h. */
#include "tests/lib/difftable.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *must(void *p)
{
	if (!p)
		abort();
	return p;
}

static char *dup_n(const char *s, size_t len)
{
	return must(strndup(s, len));
}

/* ---- facts ---- */

const char *dt_facts_get(const struct dt_facts *f, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].key, key) == 0)
			return f->v[i].value;
	return NULL;
}

int dt_facts_add(struct dt_facts *f, const char *key, const char *value)
{
	if (dt_facts_get(f, key))
		return -1;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->v = must(realloc(f->v, f->cap * sizeof(*f->v)));
	}
	f->v[f->n].key = must(strdup(key));
	f->v[f->n].value = must(strdup(value));
	f->n++;
	return 0;
}

static int add_line(struct dt_facts *f, const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	if (!colon || colon == line)
		return -1;
	/* The key ends at the first ": " (a key may hold ':' itself, "cgroup.name=systemd"). */
	const char *sep = line;
	while ((sep = memchr(sep, ':', len - (size_t)(sep - line)))) {
		if ((size_t)(sep - line) + 1 == len || sep[1] == ' ')
			break;
		sep++;
	}
	if (!sep || sep == line)
		return -1;
	char *key = dup_n(line, (size_t)(sep - line));
	size_t skip = (size_t)(sep - line) + ((size_t)(sep - line) + 1 < len ? 2 : 1);
	char *value = dup_n(line + skip, len - skip);
	int rc = dt_facts_add(f, key, value);
	free(key);
	free(value);
	return rc;
}

int dt_facts_parse(struct dt_facts *f, const char *text, size_t *bad_line)
{
	size_t number = 0;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n");
		number++;
		if (len && add_line(f, p, len) < 0) {
			*bad_line = number;
			return -1;
		}
		p += len + (p[len] == '\n');
	}
	return 0;
}

void dt_facts_free(struct dt_facts *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].key);
		free(f->v[i].value);
	}
	free(f->v);
	*f = (struct dt_facts){0};
}

static int diff_order(const void *a, const void *b)
{
	return strcmp(((const struct dt_diff *)a)->field, ((const struct dt_diff *)b)->field);
}

static void push_diff(struct dt_diff **v, size_t *n, const char *field, const char *a,
		      const char *b)
{
	*v = must(realloc(*v, (*n + 1) * sizeof(**v)));
	(*v)[(*n)++] = (struct dt_diff){field, a, b};
}

struct dt_diff *dt_compare(const struct dt_facts *ctrun, const struct dt_facts *other, size_t *n)
{
	struct dt_diff *v = must(malloc(sizeof(*v)));
	*n = 0;
	for (size_t i = 0; i < ctrun->n; i++) {
		const char *theirs = dt_facts_get(other, ctrun->v[i].key);
		if (!theirs || strcmp(theirs, ctrun->v[i].value) != 0)
			push_diff(&v, n, ctrun->v[i].key, ctrun->v[i].value, theirs);
	}
	for (size_t i = 0; i < other->n; i++)
		if (!dt_facts_get(ctrun, other->v[i].key))
			push_diff(&v, n, other->v[i].key, NULL, other->v[i].value);
	qsort(v, *n, sizeof(*v), diff_order);
	return v;
}

/* ---- the document's tables ---- */

/* The cells of a table line "| a | b |", trimmed, backticks around a cell dropped, "\|"
 * unescaped; the number of cells, or -1 when the line is not a table row. */
static int split_row(const char *line, size_t len, char **cells, int max)
{
	while (len && (line[len - 1] == ' ' || line[len - 1] == '\r'))
		len--;
	if (len < 2 || line[0] != '|' || line[len - 1] != '|')
		return -1;
	int n = 0;
	char *cell = must(malloc(len + 1));
	size_t clen = 0;
	for (size_t i = 1; i < len; i++) {
		if (line[i] == '\\' && i + 1 < len && line[i + 1] == '|') {
			cell[clen++] = line[++i];
			continue;
		}
		if (line[i] != '|') {
			cell[clen++] = line[i];
			continue;
		}
		size_t start = 0;
		while (start < clen && cell[start] == ' ')
			start++;
		while (clen > start && cell[clen - 1] == ' ')
			clen--;
		if (clen - start >= 2 && cell[start] == '`' && cell[clen - 1] == '`') {
			start++;
			clen--;
		}
		if (n < max)
			cells[n] = dup_n(cell + start, clen - start);
		n++;
		clen = 0;
	}
	free(cell);
	return n;
}

static void free_cells(char **cells, int n, int max)
{
	for (int i = 0; i < n && i < max; i++)
		free(cells[i]);
}

#define MAX_CELLS 8

static const char *const row_header[] = {"key", "what", "ctrun", "runc", "why"};
static const char *const rule_header[] = {"key", "vs", "configs", "field", "ctrun", "other"};

static bool is_header(char **cells, int n, const char *const *want, int nwant)
{
	if (n != nwant)
		return false;
	for (int i = 0; i < n; i++)
		if (strcmp(cells[i], want[i]) != 0)
			return false;
	return true;
}

static bool is_separator(char **cells, int n)
{
	for (int i = 0; i < n; i++)
		if (strspn(cells[i], "-:") != strlen(cells[i]) || !cells[i][0])
			return false;
	return n > 0;
}

enum section { NONE, ROWS, RULES };

static void keep_row(struct dt_table *t, char **cells)
{
	t->rows = must(realloc(t->rows, (t->nrows + 1) * sizeof(*t->rows)));
	t->rows[t->nrows++] = (struct dt_row){cells[0], cells[1], cells[2], cells[3], cells[4]};
}

static void keep_rule(struct dt_table *t, char **cells)
{
	t->rules = must(realloc(t->rules, (t->nrules + 1) * sizeof(*t->rules)));
	t->rules[t->nrules++] =
		(struct dt_rule){cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]};
}

/* One line of the document: a header opens a table, a non-table line closes it. */
static int take_line(struct dt_table *t, enum section *in, const char *line, size_t len,
		     size_t number, char *err, size_t errlen)
{
	char *cells[MAX_CELLS];
	int n = split_row(line, len, cells, MAX_CELLS);
	if (n < 0) {
		*in = NONE;
		return 0;
	}
	if (is_header(cells, n, row_header, 5) || is_header(cells, n, rule_header, 6)) {
		*in = n == 5 ? ROWS : RULES;
	} else if (is_separator(cells, n) || *in == NONE) {
	} else if ((*in == ROWS && n == 5) || (*in == RULES && n == 6)) {
		if (*in == ROWS)
			keep_row(t, cells);
		else
			keep_rule(t, cells);
		return 0;
	} else {
		snprintf(err, errlen, "line %zu: %d cells, the table has %d", number, n,
			 *in == ROWS ? 5 : 6);
		free_cells(cells, n, MAX_CELLS);
		return -1;
	}
	free_cells(cells, n, MAX_CELLS);
	return 0;
}

static bool has_row(const struct dt_table *t, const char *key)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (strcmp(t->rows[i].key, key) == 0)
			return true;
	return false;
}

static bool has_rule(const struct dt_table *t, const char *key)
{
	for (size_t i = 0; i < t->nrules; i++)
		if (strcmp(t->rules[i].key, key) == 0)
			return true;
	return false;
}

static int check_keys(const struct dt_table *t, char *err, size_t errlen)
{
	if (!t->nrows || !t->nrules) {
		snprintf(err, errlen, "no %s table", t->nrows ? "rule" : "differences");
		return -1;
	}
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t j = 0; j < i; j++)
			if (strcmp(t->rows[i].key, t->rows[j].key) == 0) {
				snprintf(err, errlen, "row \"%s\" twice", t->rows[i].key);
				return -1;
			}
		if (!has_rule(t, t->rows[i].key)) {
			snprintf(err, errlen, "row \"%s\" has no rule", t->rows[i].key);
			return -1;
		}
	}
	for (size_t i = 0; i < t->nrules; i++)
		if (!has_row(t, t->rules[i].key)) {
			snprintf(err, errlen, "rule \"%s\" names no row", t->rules[i].key);
			return -1;
		}
	return 0;
}

int dt_table_parse(struct dt_table *t, const char *markdown, char *err, size_t errlen)
{
	enum section in = NONE;
	size_t number = 0;
	*t = (struct dt_table){0};
	for (const char *p = markdown; *p;) {
		size_t len = strcspn(p, "\n");
		if (take_line(t, &in, p, len, ++number, err, errlen) < 0)
			return -1;
		p += len + (p[len] == '\n');
	}
	return check_keys(t, err, errlen);
}

void dt_table_free(struct dt_table *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		struct dt_row *r = &t->rows[i];
		char *fields[] = {r->key, r->what, r->ctrun, r->runc, r->why};
		for (size_t j = 0; j < sizeof(fields) / sizeof(fields[0]); j++)
			free(fields[j]);
	}
	for (size_t i = 0; i < t->nrules; i++) {
		struct dt_rule *r = &t->rules[i];
		char *fields[] = {r->key, r->vs, r->configs, r->field, r->ctrun, r->other};
		for (size_t j = 0; j < sizeof(fields) / sizeof(fields[0]); j++)
			free(fields[j]);
	}
	free(t->rows);
	free(t->rules);
	*t = (struct dt_table){0};
}

/* ---- explaining differences ---- */

/* Whether name matches one of the space-separated patterns and none of those written "!P". */
static bool any_pattern_matches(const char *patterns, const char *name)
{
	char *copy = must(strdup(patterns)), *save = NULL;
	bool hit = false, excluded = false;
	for (char *p = strtok_r(copy, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		if (*p == '!')
			excluded = excluded || fnmatch(p + 1, name, 0) == 0;
		else
			hit = hit || fnmatch(p, name, 0) == 0;
	}
	free(copy);
	return hit && !excluded;
}

static bool value_matches(const char *pattern, const char *value)
{
	if (!value)
		return strcmp(pattern, DT_NONE) == 0;
	return fnmatch(pattern, value, 0) == 0;
}

/* Whether a fact of f has a key matching field and a value matching value. */
static bool has_fact(const struct dt_facts *f, const char *field, const char *value)
{
	for (size_t i = 0; i < f->n; i++)
		if (fnmatch(field, f->v[i].key, 0) == 0 && fnmatch(value, f->v[i].value, 0) == 0)
			return true;
	return false;
}

bool dt_rule_applies(const struct dt_rule *r, const char *vs, const char *config,
		     const struct dt_facts *ctrun, const struct dt_facts *other)
{
	if (!any_pattern_matches(r->vs, vs) || !any_pattern_matches(r->configs, config))
		return false;
	if (strcmp(r->other, DT_NONE) != 0)
		return has_fact(other, r->field, r->other);
	return has_fact(ctrun, r->field, r->ctrun);
}

bool dt_rule_matches(const struct dt_rule *r, const struct dt_diff *d)
{
	return fnmatch(r->field, d->field, 0) == 0 && value_matches(r->ctrun, d->ctrun) &&
	       value_matches(r->other, d->other);
}

void dt_explain(const struct dt_rule *rules, size_t nrules, const char *vs, const char *config,
		const struct dt_facts *ctrun, const struct dt_facts *other,
		const struct dt_diff *diffs, size_t ndiffs, long *rule_of, bool *applies,
		bool *seen)
{
	for (size_t r = 0; r < nrules; r++) {
		applies[r] = dt_rule_applies(&rules[r], vs, config, ctrun, other);
		seen[r] = false;
	}
	for (size_t d = 0; d < ndiffs; d++) {
		rule_of[d] = -1;
		for (size_t r = 0; r < nrules && rule_of[d] < 0; r++)
			if (applies[r] && dt_rule_matches(&rules[r], &diffs[d]))
				rule_of[d] = (long)r;
		if (rule_of[d] >= 0)
			seen[rule_of[d]] = true;
	}
}
