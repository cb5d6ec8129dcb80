/* The user-facing documents keep up with the binary: every command and global flag that
 * `ctrun --help` prints is in the man page and offered by the bash completion, and
 * `make install` puts the binary, the man page and the completion where packagers expect
 * them; docs/testing.md lists the Makefile's targets. Needs $CTRUN (the built binary) and $CTRUN_SRC (the source tree), as `make
 * integration` sets them. */
#ifndef _GNU_SOURCE /* the Makefile defines it */
#endif
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oci/jsonwalk.h"

#define MAX_NAMES 64

struct names {
	char name[MAX_NAMES][64];
	size_t len;
};

static const char *ctrun_binary(void)
{
	const char *p = getenv("CTRUN");
	if (!p || !*p)
		cr_skip("CTRUN is not set (run through `make integration`)");
	if (access(p, X_OK) < 0)
		cr_skip("CTRUN=%s is not an executable: %s", p, strerror(errno));
	return p;
}

static const char *src_dir(void)
{
	const char *p = getenv("CTRUN_SRC");
	return p && *p ? p : ".";
}

static char *read_source_file(const char *rel)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", src_dir(), rel);
	struct ct_error err = {0};
	char *text = oci_read_file(path, 1 << 20, &err);
	cr_assert_not_null(text, "%s", err.msg);
	return text;
}

/* Runs argv with stdout captured into *out (malloc'd, NUL-terminated) and stderr sent to
 * /dev/null unless keep_stderr; returns the exit status, or -1 if it did not exit. */
static int run_capture(char *const argv[], char **out, bool keep_stderr)
{
	int pipefd[2];
	cr_assert_eq(pipe2(pipefd, O_CLOEXEC), 0, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	cr_assert_neq(pid, -1, "fork: %s", strerror(errno));
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		if (!keep_stderr) {
			int devnull = open("/dev/null", O_WRONLY);
			if (devnull >= 0)
				dup2(devnull, STDERR_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	cr_assert_not_null(buf);
	for (;;) {
		if (len + 1 == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			cr_assert_not_null(buf);
		}
		ssize_t n = read(pipefd[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(pipefd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		cr_assert_eq(errno, EINTR, "waitpid: %s", strerror(errno));
	*out = buf;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *ctrun_help(void)
{
	char *argv[] = {(char *)ctrun_binary(), "--help", NULL};
	char *out = NULL;
	cr_assert_eq(run_capture(argv, &out, true), 0, "ctrun --help failed");
	return out;
}

/* The lines of `section` ("Commands:") up to the next empty line. */
static const char *section_body(const char *help, const char *section)
{
	const char *p = strstr(help, section);
	cr_assert_not_null(p, "ctrun --help has no \"%s\" section:\n%s", section, help);
	p = strchr(p, '\n');
	cr_assert_not_null(p);
	return p + 1;
}

/* "  create      create a container ..." -> "create", for every line of the section. */
static void help_commands(const char *help, struct names *out)
{
	*out = (struct names){0};
	for (const char *line = section_body(help, "Commands:"); *line && *line != '\n';) {
		const char *name = line + strspn(line, " ");
		size_t n = strcspn(name, " \n");
		cr_assert_lt(out->len, MAX_NAMES);
		cr_assert_gt(n, 0, "odd line in Commands: %.40s", line);
		snprintf(out->name[out->len++], sizeof(out->name[0]), "%.*s", (int)n, name);
		const char *next = strchr(line, '\n');
		line = next ? next + 1 : line + strlen(line);
	}
	cr_assert_gt(out->len, 5, "only %zu commands in ctrun --help", out->len);
}

/* Every "--flag" word of the "Global flags:" section. */
static void help_global_flags(const char *help, struct names *out)
{
	*out = (struct names){0};
	for (const char *line = section_body(help, "Global flags:"); *line && *line != '\n';) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		for (const char *p = strstr(line, "--"); p && p < end; p = strstr(p + 2, "--")) {
			if (p > line && p[-1] != ' ')
				continue;
			size_t n = strspn(p, "-abcdefghijklmnopqrstuvwxyz");
			cr_assert_lt(out->len, MAX_NAMES);
			snprintf(out->name[out->len++], sizeof(out->name[0]), "%.*s", (int)n, p);
		}
		line = *end ? end + 1 : end;
	}
	cr_assert_gt(out->len, 5, "only %zu global flags in ctrun --help", out->len);
}

/* Whether `man` has a line starting with `prefix` followed by a space or the line's end. */
static bool has_roff_line(const char *man, const char *prefix)
{
	size_t n = strlen(prefix);
	for (const char *line = man; line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (strncmp(line, prefix, n) == 0 && (line[n] == ' ' || line[n] == '\n'))
			return true;
	}
	return false;
}

/* "--log-format" as roff writes it: "\-\-log\-format". */
static void roff_escape(const char *flag, char *out, size_t size)
{
	size_t o = 0;
	for (const char *p = flag; *p && o + 3 < size; p++) {
		if (*p == '-')
			out[o++] = '\\';
		out[o++] = *p;
	}
	out[o] = '\0';
}

/* The names list() finds in ctrun --help. */
static void help_names(void (*list)(const char *help, struct names *out), struct names *out)
{
	char *help = ctrun_help();
	list(help, out);
	free(help);
}

/* The man page mentions each name list() finds in --help: a command as a ".B name" entry,
 * a flag anywhere in roff's spelling. */
static void assert_man_page_lists(void (*list)(const char *help, struct names *out), bool as_entry)
{
	struct names names;
	help_names(list, &names);
	char *man = read_source_file("contrib/man/ctrun.8");
	for (size_t i = 0; i < names.len; i++) {
		char want[160];
		if (as_entry)
			snprintf(want, sizeof(want), ".B %s", names.name[i]);
		else
			roff_escape(names.name[i], want, sizeof(want));
		cr_expect(as_entry ? has_roff_line(man, want) : strstr(man, want) != NULL,
			  "contrib/man/ctrun.8 does not mention %s (as %s)", names.name[i], want);
	}
	free(man);
}

Test(docs, man_page_lists_every_command)
{
	assert_man_page_lists(help_commands, true);
}

Test(docs, man_page_lists_every_global_flag)
{
	assert_man_page_lists(help_global_flags, false);
}

/* What the completion offers for "ctrun <words...> <cur>", one candidate a line. */
static char *complete(const char *words, const char *cur)
{
	char script[PATH_MAX + 512];
	snprintf(script, sizeof(script),
		 "source \"$1\" || exit 99; COMP_WORDS=(ctrun %s \"$2\");"
		 " COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _ctrun || exit 98;"
		 " printf '%%s\\n' \"${COMPREPLY[@]}\"",
		 words);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/contrib/completion/ctrun.bash", src_dir());
	char *argv[] = {"bash", "--norc", "-c", script, "bash", path, (char *)cur, NULL};
	char *out = NULL;
	int rc = run_capture(argv, &out, true);
	cr_assert_eq(rc, 0, "completion of \"ctrun %s %s\" failed with %d", words, cur, rc);
	return out;
}

static bool has_line(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

/* Bash completion after words (prev, cur) offers each name list() finds in --help (what
 * they are, for the message). */
static void assert_completion_offers(const char *prev, const char *cur,
				     void (*list)(const char *help, struct names *out),
				     const char *what)
{
	struct names want;
	help_names(list, &want);
	char *offered = complete(prev, cur);
	for (size_t i = 0; i < want.len; i++)
		cr_expect(has_line(offered, want.name[i]),
			  "bash completion does not offer %s %s; it offers:\n%s", what,
			  want.name[i], offered);
	free(offered);
}

Test(docs, completion_offers_every_command)
{
	assert_completion_offers("", "", help_commands, "command");
}

Test(docs, completion_offers_every_global_flag)
{
	assert_completion_offers("", "--", help_global_flags, "global flag");
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

static void expect_installed(const char *root, const char *rel, mode_t mode)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s%s", root, rel);
	struct stat st;
	if (stat(path, &st) < 0) {
		cr_expect_fail("make install did not create %s: %s", rel, strerror(errno));
		return;
	}
	cr_expect(S_ISREG(st.st_mode), "%s is not a regular file", rel);
	cr_expect_eq(st.st_mode & 07777, mode, "%s has mode %o, expected %o", rel,
		     st.st_mode & 07777, mode);
}

Test(docs, install_puts_binary_man_page_and_completion)
{
	const char *ctrun = ctrun_binary();
	char build[PATH_MAX], tmp[] = "/tmp/ctrun-docs-XXXXXX";
	cr_assert_not_null(realpath(ctrun, build), "realpath %s: %s", ctrun, strerror(errno));
	*strrchr(build, '/') = '\0'; /* the build directory make put ctrun in */
	cr_assert_not_null(mkdtemp(tmp), "mkdtemp: %s", strerror(errno));

	char build_arg[PATH_MAX + 8], destdir_arg[PATH_MAX + 16];
	snprintf(build_arg, sizeof(build_arg), "BUILD=%s", build);
	snprintf(destdir_arg, sizeof(destdir_arg), "DESTDIR=%s", tmp);
	char *argv[] = {"make",
			"--no-print-directory",
			"-s",
			"-C",
			(char *)src_dir(),
			build_arg,
			"install",
			destdir_arg,
			"PREFIX=/usr",
			NULL};
	char *out = NULL;
	int rc = run_capture(argv, &out, true);
	cr_expect_eq(rc, 0, "make install failed (%d): %s", rc, out);
	free(out);

	expect_installed(tmp, "/usr/sbin/ctrun", 0755);
	expect_installed(tmp, "/usr/share/man/man8/ctrun.8", 0644);
	expect_installed(tmp, "/usr/share/bash-completion/completions/ctrun", 0644);
	nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Whether a test of tests/integration defines suite/name (a fnmatch pattern) with Test(suite,
 * or ParameterizedTest(param, suite,. */
static bool integration_test_exists(const char *suite, const char *name_pattern)
{
	char glob_path[PATH_MAX], needle[96];
	snprintf(glob_path, sizeof(glob_path), "%s/tests/integration", src_dir());
	snprintf(needle, sizeof(needle), "%s, ", suite);
	DIR *d = opendir(glob_path);
	cr_assert_not_null(d, "opendir %s: %s", glob_path, strerror(errno));
	bool found = false;
	for (struct dirent *e; !found && (e = readdir(d));) {
		if (fnmatch("test_*.c", e->d_name, 0) != 0)
			continue;
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "tests/integration/%s", e->d_name);
		char *text = read_source_file(rel);
		for (char *p = text; !found && (p = strstr(p, needle)); p++) {
			char *line = p;
			while (line > text && line[-1] != '\n')
				line--;
			bool defines = p > text && (p[-1] == '(' || p[-1] == ' ') &&
				       (strncmp(line, "Test(", 5) == 0 ||
					strncmp(line, "ParameterizedTest(", 18) == 0);
			char name[128];
			if (defines && sscanf(p + strlen(needle), "%127[a-z0-9_]", name) == 1)
				found = fnmatch(name_pattern, name, 0) == 0;
		}
		free(text);
	}
	closedir(d);
	return found;
}

/* Every `suite/name` (a shell pattern) in the last column of the table whose header ends
 * in "| tested by |" names an integration test that exists; returns how many it checked. */
static unsigned expect_tested_by_column_exists(const char *rel)
{
	char *text = read_source_file(rel);
	char *table = strstr(text, "| tested by |");
	cr_assert_not_null(table, "%s: no table with a \"tested by\" column", rel);
	unsigned checked = 0;
	for (char *line = strchr(table, '\n'); line && line[1] == '|';
	     line = strchr(line + 1, '\n')) {
		char *end = strchr(line + 1, '\n');
		cr_assert_not_null(end, "%s: the table's last line has no newline", rel);
		/* the last cell: between the last two '|' of the line */
		char *last = memrchr(line + 1, '|', (size_t)(end - line - 1));
		last = last ? memrchr(line + 1, '|', (size_t)(last - line - 1)) : NULL;
		cr_assert_not_null(last, "%s: not a table row: %.*s", rel, (int)(end - line), line);
		for (char *tick = strchr(last, '`'); tick && tick < end;) {
			char *close = strchr(tick + 1, '`');
			cr_assert(close && close < end, "%s: unbalanced ` in: %.*s", rel,
				  (int)(end - line), line);
			char ref[160], *slash;
			snprintf(ref, sizeof(ref), "%.*s", (int)(close - tick - 1), tick + 1);
			if ((slash = strchr(ref, '/'))) {
				*slash = '\0';
				cr_expect(integration_test_exists(ref, slash + 1),
					  "%s: no test %s/%s", rel, ref, slash + 1);
				checked++;
			}
			tick = strchr(close + 1, '`');
		}
	}
	free(text);
	return checked;
}

/* The differences no shared config reaches are each held by an integration test. */
Test(docs, every_difference_outside_the_suite_names_a_test_that_exists)
{
	cr_expect_gt(expect_tested_by_column_exists("docs/differences-from-runc.md"), 0,
		     "no test named in the table");
}

/* Each escape class security.md lists names the tests that hold it. */
Test(docs, every_escape_class_names_tests_that_exist)
{
	cr_expect_gt(expect_tested_by_column_exists("docs/security.md"), 0,
		     "no test named in the table");
}

/* The first `...` span of each row of a table, whose first word is the command; at most
 * MAX_NAMES rows. */
struct table_row {
	char name[64];
	char usage[512];
};

/* The rows of the table of doc (a file name, for messages) whose header line is header. */
static size_t table_rows(const char *doc, const char *text, const char *header,
			 struct table_row *rows)
{
	const char *table = strstr(text, header);
	cr_assert_not_null(table, "%s has no \"%.*s\" table", doc, (int)strcspn(header + 1, "\n"),
			   header + 1);
	size_t n = 0;
	for (const char *line = strchr(table + 1, '\n') + 1; strncmp(line, "|", 1) == 0;) {
		const char *end = strchr(line, '\n');
		cr_assert_not_null(end);
		const char *open = strchr(line, '`');
		if (open && open < end) {
			const char *close = strchr(open + 1, '`');
			cr_assert(close && close < end, "%s: unbalanced ` in %.*s", doc,
				  (int)(end - line), line);
			cr_assert_lt(n, MAX_NAMES);
			snprintf(rows[n].usage, sizeof(rows[n].usage), "%.*s",
				 (int)(close - open - 1), open + 1);
			snprintf(rows[n].name, sizeof(rows[n].name), "%.*s",
				 (int)strcspn(rows[n].usage, " "), rows[n].usage);
			n++;
		}
		line = end + 1;
	}
	return n;
}

static bool has_name(const struct names *names, const char *name)
{
	for (size_t i = 0; i < names->len; i++)
		if (strcmp(names->name[i], name) == 0)
			return true;
	return false;
}

/* Whether `word` occurs in text not followed by another letter, digit or '-'. */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = text; (p = strstr(p, word)); p += n) {
		char next = p[n];
		if (!(next == '-' || (next >= 'a' && next <= 'z') || (next >= '0' && next <= '9')))
			return true;
	}
	return false;
}

/* Every --flag of a README row is one `ctrun COMMAND --help` prints. */
static void expect_row_flags_known(const struct table_row *row)
{
	if (!strstr(row->usage, "--"))
		return;
	char *argv[] = {(char *)ctrun_binary(), (char *)row->name, "--help", NULL};
	char *help = NULL;
	cr_assert_eq(run_capture(argv, &help, false), 0, "ctrun %s --help failed", row->name);
	for (const char *p = strstr(row->usage, "--"); p; p = strstr(p + 2, "--")) {
		char flag[64];
		snprintf(flag, sizeof(flag), "%.*s", (int)strspn(p, "-abcdefghijklmnopqrstuvwxyz"),
			 p);
		cr_expect(
			has_word(help, flag),
			"README.md: the row of %s names %s, which `ctrun %s --help` does not:\n%s",
			row->name, flag, row->name, help);
	}
	free(help);
}

/* The README's command table lists exactly the commands `ctrun --help` lists, each once,
 * with flags the command knows. */
Test(docs, readme_command_table_matches_help)
{
	char *help = ctrun_help();
	struct names cmds;
	help_commands(help, &cmds);
	char *readme = read_source_file("README.md");
	struct table_row rows[MAX_NAMES];
	size_t n = table_rows("README.md", readme, "\n| command | what it does |\n", rows);
	struct names listed = {0};
	for (size_t i = 0; i < n; i++) {
		cr_expect(has_name(&cmds, rows[i].name),
			  "README.md lists command %s, which ctrun --help does not", rows[i].name);
		cr_expect(!has_name(&listed, rows[i].name), "README.md lists %s twice",
			  rows[i].name);
		snprintf(listed.name[listed.len++], sizeof(listed.name[0]), "%s", rows[i].name);
		expect_row_flags_known(&rows[i]);
	}
	for (size_t i = 0; i < cmds.len; i++)
		cr_expect(has_name(&listed, cmds.name[i]),
			  "ctrun --help lists %s, which README.md's command table does not",
			  cmds.name[i]);
	free(readme);
	free(help);
}

/* The targets of the Makefile's .PHONY line: the ones a developer runs. */
static void makefile_targets(struct names *out)
{
	char *makefile = read_source_file("Makefile");
	const char *p = strstr(makefile, "\n.PHONY:");
	cr_assert_not_null(p, "Makefile has no .PHONY line");
	out->len = 0;
	for (p += strlen("\n.PHONY:"); *p != '\n';) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t\n");
		if (n) {
			cr_assert_lt(out->len, MAX_NAMES);
			snprintf(out->name[out->len++], sizeof(out->name[0]), "%.*s", (int)n, p);
		}
		p += n;
	}
	free(makefile);
}

/* docs/testing.md's table of make targets lists exactly the Makefile's, each once ("make"
 * alone is `all`). */
Test(docs, testing_md_lists_every_make_target)
{
	struct names targets;
	makefile_targets(&targets);
	char *doc = read_source_file("docs/testing.md");
	struct table_row rows[MAX_NAMES];
	size_t n = table_rows("docs/testing.md", doc, "\n| target | what it runs | how long |\n",
			      rows);
	struct names listed = {0};
	for (size_t i = 0; i < n; i++) {
		cr_expect_str_eq(rows[i].name, "make", "docs/testing.md: a row of `%s`",
				 rows[i].usage);
		const char *target = rows[i].usage + strlen(rows[i].name);
		target += strspn(target, " ");
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(target, " "), target);
		if (!*name)
			snprintf(name, sizeof(name), "all");
		cr_expect(has_name(&targets, name),
			  "docs/testing.md lists make %s, which the Makefile does not declare",
			  name);
		cr_expect(!has_name(&listed, name), "docs/testing.md lists make %s twice", name);
		snprintf(listed.name[listed.len++], sizeof(listed.name[0]), "%s", name);
	}
	for (size_t i = 0; i < targets.len; i++)
		cr_expect(has_name(&listed, targets.name[i]),
			  "the Makefile declares %s, which docs/testing.md's table does not list",
			  targets.name[i]);
	free(doc);
}

static bool path_exists(const char *rel)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", src_dir(), rel);
	return access(path, F_OK) == 0;
}

/* A `span` names a repository path when it is one word with a '/' whose first component is
 * an entry at the top of the source tree (build/ is make's output, not the repository's);
 * patterns and placeholders (<name>, *, $VAR) are not paths. */
static bool names_repository_path(const char *span)
{
	if (!strchr(span, '/') || span[strcspn(span, " \t\n<>*$[]{}|:=,;()'\"")] ||
	    strncmp(span, "../", 3) == 0 || span[0] == '/')
		return false;
	char top[PATH_MAX];
	snprintf(top, sizeof(top), "%.*s", (int)strcspn(span, "/"), span);
	return strcmp(top, "build") != 0 && strcmp(top, ".git") != 0 && path_exists(top);
}

/* Every word of a line in a fenced code block that names a repository path exists. */
static unsigned expect_fenced_paths_exist(const char *doc, const char *line, size_t len)
{
	unsigned checked = 0;
	for (size_t i = 0; i < len;) {
		i += strspn(line + i, " \t");
		size_t n = strcspn(line + i, " \t\n");
		char word[PATH_MAX];
		snprintf(word, sizeof(word), "%.*s", (int)n, line + i);
		if (n && names_repository_path(word)) {
			cr_expect(path_exists(word),
				  "%s names %s in a code block; it does not exist", doc, word);
			checked++;
		}
		i += n ? n : 1;
	}
	return checked;
}

/* Checks the paths of fenced code blocks (``` lines and what is between them), then blanks
 * the blocks out: their backticks do not delimit spans. Returns how many it checked. */
static unsigned expect_fenced_blocks_checked_and_blanked(const char *doc, char *text)
{
	unsigned checked = 0;
	bool inside = false;
	for (char *line = text; *line;) {
		char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		bool fence = strncmp(line, "```", 3) == 0;
		if (inside && !fence)
			checked += expect_fenced_paths_exist(doc, line, (size_t)(end - line));
		if (fence || inside)
			memset(line, ' ', (size_t)(end - line));
		if (fence)
			inside = !inside;
		line = *end ? end + 1 : end;
	}
	return checked;
}

/* Every repository path doc (relative to the source tree) names in backticks or in a code
 * block, and every relative link target, exists. Returns how many it checked. */
static unsigned expect_named_paths_exist(const char *doc)
{
	char *text = read_source_file(doc);
	unsigned checked = expect_fenced_blocks_checked_and_blanked(doc, text);
	for (char *tick = strchr(text, '`'); tick; tick = strchr(tick + 1, '`')) {
		char *close = strchr(tick + 1, '`');
		if (!close)
			break;
		char span[PATH_MAX];
		snprintf(span, sizeof(span), "%.*s", (int)(close - tick - 1), tick + 1);
		if (names_repository_path(span)) {
			cr_expect(path_exists(span), "%s names `%s`, which does not exist", doc,
				  span);
			checked++;
		}
		tick = close;
	}
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", doc);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	for (char *link = strstr(text, "]("); link; link = strstr(link + 2, "](")) {
		char target[PATH_MAX];
		snprintf(target, sizeof(target), "%.*s", (int)strcspn(link + 2, ")#\n"), link + 2);
		if (!*target || strstr(target, "://"))
			continue;
		char rel[2 * PATH_MAX];
		snprintf(rel, sizeof(rel), "%s%s", dir, target);
		cr_expect(path_exists(rel), "%s links to %s, which does not exist", doc, target);
		checked++;
	}
	free(text);
	return checked;
}

Test(docs, every_path_the_readme_and_docs_name_exists)
{
	cr_expect_gt(expect_named_paths_exist("README.md"), 10, "README.md names few paths");
	char docs[PATH_MAX];
	snprintf(docs, sizeof(docs), "%s/docs", src_dir());
	DIR *d = opendir(docs);
	cr_assert_not_null(d, "opendir %s: %s", docs, strerror(errno));
	unsigned files = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (fnmatch("*.md", e->d_name, 0) != 0)
			continue;
		char rel[PATH_MAX];
		snprintf(rel, sizeof(rel), "docs/%s", e->d_name);
		expect_named_paths_exist(rel);
		files++;
	}
	closedir(d);
	cr_expect_geq(files, 4, "docs/ holds only %u .md files", files);
}
