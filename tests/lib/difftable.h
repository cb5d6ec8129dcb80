/* The differential suite's pure parts (tests/integration/test_differential.c): the facts a
 * probe prints, their comparison between two runtimes, and the table of deliberate
 * differences (docs/differences-from-runc.md) that explains them.
 *
 * Facts are "key: value" lines (tests/helpers/diffprobe.c). The document holds two markdown
 * tables joined by a key column: the rows people read (key | what | ctrun | runc | why) and the
 * rules the suite applies (key | vs | configs | field | ctrun | other), where vs is the
 * runtime compared with, configs space-separated shell patterns of config names (one written
 * "!P" excludes the names P matches), field a
 * pattern of fact keys and ctrun / other patterns of the two values (`(none)`: the fact is
 * absent on that side). A cell's surrounding backticks are dropped; "\|" is a '|'.
 *
 * A rule applies to a config when vs and a configs pattern match and the other runtime shows
 * what the rule says it shows: a fact matching field and the other pattern (when that is
 * `(none)`: ctrun a fact matching field and the ctrun pattern). A difference is explained by
 * the first applying rule whose field and values match it; a rule that applies must explain
 * at least one difference, so a row cannot outlive what it describes. No allocation failure is
 * survived: these are test helpers, they abort. */
#ifndef CTRUN_DIFFTABLE_H
#define CTRUN_DIFFTABLE_H

#include <stdbool.h>
#include <stddef.h>

#define DT_NONE "(none)"

struct dt_fact {
	char *key, *value;
};

struct dt_facts {
	struct dt_fact *v;
	size_t n, cap;
};

/* Adds key: value; -1 when key is already there (nothing changes). */
int dt_facts_add(struct dt_facts *f, const char *key, const char *value);
/* Adds every line of text; a line that is not "key: value" (a key without ':', an empty key)
 * or repeats a key: -1 with *bad_line its number (1-based). Empty lines are skipped. */
int dt_facts_parse(struct dt_facts *f, const char *text, size_t *bad_line);
/* The value of key, NULL when absent. */
const char *dt_facts_get(const struct dt_facts *f, const char *key);
void dt_facts_free(struct dt_facts *f);

struct dt_diff {
	const char *field;
	const char *ctrun, *other; /* NULL: absent on that side */
};

/* The keys whose values differ (or that one side lacks), in key order, pointing into a and b;
 * *n their number. Free the array with free(). */
struct dt_diff *dt_compare(const struct dt_facts *ctrun, const struct dt_facts *other, size_t *n);

struct dt_row {
	char *key, *what, *ctrun, *runc, *why;
};

struct dt_rule {
	char *key, *vs, *configs, *field, *ctrun, *other;
};

struct dt_table {
	struct dt_row *rows;
	size_t nrows;
	struct dt_rule *rules;
	size_t nrules;
};

/* Parses the document; -1 with a message in err when a table is missing or malformed, a rule
 * names no row or a row has no rule. */
int dt_table_parse(struct dt_table *t, const char *markdown, char *err, size_t errlen);
void dt_table_free(struct dt_table *t);

bool dt_rule_applies(const struct dt_rule *r, const char *vs, const char *config,
		     const struct dt_facts *ctrun, const struct dt_facts *other);
bool dt_rule_matches(const struct dt_rule *r, const struct dt_diff *d);

/* For each difference the index of the first applying rule that matches it (-1: none) in
 * rule_of[]; for each rule whether it applies (applies[]) and matched a difference (seen[]). */
void dt_explain(const struct dt_rule *rules, size_t nrules, const char *vs, const char *config,
		const struct dt_facts *ctrun, const struct dt_facts *other,
		const struct dt_diff *diffs, size_t ndiffs, long *rule_of, bool *applies,
		bool *seen);

#endif
