/* tests/lib/difftable.c: the differential suite's probe facts, their comparison and the
 * differences table that explains them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/difftable.h"

static const char doc[] =
	"# Differences\n"
	"\n"
	"| key | what | ctrun | runc | why |\n"
	"|---|---|---|---|---|\n"
	"| `ro-tmpfs` | a tmpfs | read-only | rw | asked \\| so |\n"
	"| `gone` | a field | x | (none) | y |\n"
	"\n"
	"text between the tables\n"
	"\n"
	"| key | vs | configs | field | ctrun | other |\n"
	"|---|---|---|---|---|---|\n"
	"| `ro-tmpfs` | runc | `podman-* !*privileged*` | `mount.*` | `tmpfs ro*` | "
	"`tmpfs rw*` |\n"
	"| `gone` | runc | `*` | `extra` | `x` | `(none)` |\n";

static struct dt_facts facts(const char *text)
{
	struct dt_facts f = {0};
	size_t bad = 0;
	cr_assert_eq(dt_facts_parse(&f, text, &bad), 0, "line %zu", bad);
	return f;
}

Test(difftable, parses_key_value_lines)
{
	struct dt_facts f = facts("status.CapEff: 00000000a80425fb\n"
				  "cgroup.name=systemd: /x\n"
				  "empty:\n"
				  "\n"
				  "env.A: b: c");
	cr_expect_eq(f.n, 4);
	cr_expect_str_eq(dt_facts_get(&f, "status.CapEff"), "00000000a80425fb");
	cr_expect_str_eq(dt_facts_get(&f, "cgroup.name=systemd"), "/x");
	cr_expect_str_eq(dt_facts_get(&f, "empty"), "");
	cr_expect_str_eq(dt_facts_get(&f, "env.A"), "b: c");
	cr_expect_null(dt_facts_get(&f, "env.B"));
	dt_facts_free(&f);
}

Test(difftable, refuses_malformed_lines_and_repeated_keys)
{
	static const struct {
		const char *text;
		size_t line;
	} bad[] = {
		{"a: 1\nno separator\n", 2},
		{": no key\n", 1},
		{"a: 1\nb: 2\na: 3\n", 3},
		{"a:1\n", 1},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct dt_facts f = {0};
		size_t line = 0;
		cr_expect_eq(dt_facts_parse(&f, bad[i].text, &line), -1, "%s", bad[i].text);
		cr_expect_eq(line, bad[i].line, "%s", bad[i].text);
		dt_facts_free(&f);
	}
}

Test(difftable, compares_both_ways_in_key_order)
{
	struct dt_facts a = facts("same: 1\nb: ctrun\nonly.ctrun: x\n");
	struct dt_facts b = facts("same: 1\nb: runc\na.only.runc: y\n");
	size_t n;
	struct dt_diff *d = dt_compare(&a, &b, &n);
	cr_assert_eq(n, 3);
	cr_expect_str_eq(d[0].field, "a.only.runc");
	cr_expect_null(d[0].ctrun);
	cr_expect_str_eq(d[0].other, "y");
	cr_expect_str_eq(d[1].field, "b");
	cr_expect_str_eq(d[1].ctrun, "ctrun");
	cr_expect_str_eq(d[1].other, "runc");
	cr_expect_str_eq(d[2].field, "only.ctrun");
	cr_expect_null(d[2].other);
	free(d);
	dt_facts_free(&a);
	dt_facts_free(&b);
}

Test(difftable, parses_both_tables)
{
	struct dt_table t;
	char err[128] = "";
	cr_assert_eq(dt_table_parse(&t, doc, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(t.nrows, 2);
	cr_expect_str_eq(t.rows[0].key, "ro-tmpfs");
	cr_expect_str_eq(t.rows[0].why, "asked | so");
	cr_assert_eq(t.nrules, 2);
	cr_expect_str_eq(t.rules[0].configs, "podman-* !*privileged*");
	cr_expect_str_eq(t.rules[1].other, DT_NONE);
	dt_table_free(&t);
}

static void assert_table_error(const char *text, const char *needle)
{
	struct dt_table t;
	char err[128] = "";
	cr_expect_eq(dt_table_parse(&t, text, err, sizeof(err)), -1, "%s", text);
	cr_expect(strstr(err, needle), "error \"%s\" lacks \"%s\"", err, needle);
	dt_table_free(&t);
}

Test(difftable, refuses_rows_without_rules_and_rules_without_rows)
{
	static const char rows[] = "| key | what | ctrun | runc | why |\n|---|---|---|---|---|\n";
	static const char rules[] = "| key | vs | configs | field | ctrun | other |\n"
				    "|---|---|---|---|---|---|\n";
	char text[1024];
	snprintf(text, sizeof(text),
		 "%s| `a` | w | c | r | y |\n\n%s| `b` | runc | `*` | f | x | y |\n", rows, rules);
	assert_table_error(text, "row \"a\" has no rule");
	snprintf(text, sizeof(text),
		 "%s| `a` | w | c | r | y |\n\n%s| `a` | runc | `*` | f | x | y |\n"
		 "| `b` | runc | `*` | f | x | y |\n",
		 rows, rules);
	assert_table_error(text, "rule \"b\" names no row");
	snprintf(text, sizeof(text), "%s| `a` | w | c | r |\n", rows);
	assert_table_error(text, "4 cells");
	assert_table_error("no tables at all\n", "no differences table");
	snprintf(text, sizeof(text),
		 "%s| `a` | w | c | r | y |\n| `a` | w | c | r | y |\n\n%s"
		 "| `a` | runc | `*` | f | x | y |\n",
		 rows, rules);
	assert_table_error(text, "row \"a\" twice");
}

/* A rule explains a matching difference where it applies; one that applies and explains
 * nothing is stale; a config it excludes is none of its business. */
Test(difftable, explains_and_finds_stale_rules)
{
	struct dt_table t;
	char err[128] = "";
	cr_assert_eq(dt_table_parse(&t, doc, err, sizeof(err)), 0, "%s", err);
	struct dt_facts ours = facts("mount./sys: tmpfs ro,nosuid\nmount./x: ext4\nextra: x\n");
	struct dt_facts theirs = facts("mount./sys: tmpfs rw,nosuid\nmount./x: ext3\n");
	size_t n;
	struct dt_diff *d = dt_compare(&ours, &theirs, &n);
	cr_assert_eq(n, 3);
	long rule_of[3];
	bool applies[2], seen[2];
	dt_explain(t.rules, t.nrules, "runc", "podman-default", &ours, &theirs, d, n, rule_of,
		   applies, seen);
	cr_expect_eq(rule_of[0], 1, "extra: the (none) rule");
	cr_expect_eq(rule_of[1], 0, "mount./sys: the tmpfs rule");
	cr_expect_eq(rule_of[2], -1, "mount./x: unexplained");
	cr_expect(applies[0] && seen[0] && applies[1] && seen[1]);

	dt_explain(t.rules, t.nrules, "runc", "podman-privileged", &ours, &theirs, d, n, rule_of,
		   applies, seen);
	cr_expect_not(applies[0], "excluded by !*privileged*");
	cr_expect_eq(rule_of[1], -1);
	dt_explain(t.rules, t.nrules, "crun", "podman-default", &ours, &theirs, d, n, rule_of,
		   applies, seen);
	cr_expect_not(applies[0] || applies[1], "the rules compare with runc");
	free(d);

	/* ctrun now shows what runc shows: the tmpfs rule still applies, and is stale */
	struct dt_facts same = facts("mount./sys: tmpfs rw,nosuid\nmount./x: ext3\n");
	d = dt_compare(&same, &theirs, &n);
	cr_assert_eq(n, 0);
	dt_explain(t.rules, t.nrules, "runc", "podman-default", &same, &theirs, d, n, rule_of,
		   applies, seen);
	cr_expect(applies[0] && !seen[0]);
	cr_expect_not(applies[1], "ctrun no longer shows the extra fact");
	free(d);
	dt_facts_free(&same);
	dt_facts_free(&ours);
	dt_facts_free(&theirs);
	dt_table_free(&t);
}
