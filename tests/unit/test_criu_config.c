/* Where criu's log is (libct/criu/criu_config.c): the log-file a criu config file sets, read
 * as criu reads the file, and the path a failure's message names from it. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/criu/criu_config.h"

/* The log-file of text: its return, and its value in *out (static). */
static int log_file_of(const char *text, const char **out)
{
	static char value[64];
	int rc = ct_criu_config_log_file(text, strlen(text), value, sizeof(value));
	*out = value;
	return rc;
}

static void assert_log_file(const char *text, const char *want)
{
	const char *got;
	cr_assert_eq(log_file_of(text, &got), 1, "no log-file found in \"%s\"", text);
	cr_assert_str_eq(got, want, "log-file of \"%s\"", text);
}

static void assert_none(const char *text, int want)
{
	const char *got;
	cr_assert_eq(log_file_of(text, &got), want, "\"%s\": want %d", text, want);
	cr_assert_str_eq(got, "", "\"%s\" left \"%s\"", text, got);
}

Test(criu_config, reads_the_forms_criu_takes)
{
	assert_log_file("log-file moved.log\n", "moved.log");
	assert_log_file("  \tlog-file\t moved.log  # where it goes\n", "moved.log");
	assert_log_file("log-file=/var/log/criu.log", "/var/log/criu.log");
	assert_log_file("log-file \"my \\\"odd\\\" log\"\n", "my \"odd\" log");
	assert_log_file("log-file \"a\\b\"", "a\\b"); /* other escapes are literal */
}

Test(criu_config, the_last_log_file_wins_among_other_options)
{
	assert_log_file("tcp-established\nlog-file first.log\n"
			"work-dir \"/w d\"\n# log-file commented.log\nlog-file second.log\n"
			"ext-unix-sk\n",
			"second.log");
	assert_log_file("log-file x\r\nlog-level 4\r\n", "x");
}

Test(criu_config, other_options_and_comments_set_none)
{
	assert_none("", 0);
	assert_none("tcp-established\nlog-level 4\n", 0);
	assert_none("# log-file commented.log\n", 0);
	assert_none("log-files x\nlog-filex=y\nlog-pid\nwork-dir log-file\n", 0);
	assert_none("#log-file x", 0);
}

/* criu takes what follows as the value (or fails): ctrun cannot tell where its log goes */
Test(criu_config, a_log_file_without_a_value_or_too_long_is_unknown)
{
	assert_none("log-file\n", -1);
	assert_none("log-file # comment\n", -1);
	assert_none("log-file=\n", -1);
	assert_none("log-file \"\"\n", -1);
	assert_none("log-file x\nlog-file\n", -1);
	assert_none("log-file 0123456789012345678901234567890123456789012345678901234567890123",
		    -1);
	assert_none("log-file=0123456789012345678901234567890123456789012345678901234567890123",
		    -1);
	/* a later valid one settles it */
	assert_log_file("log-file\nlog-file y\n", "y");
}

Test(criu_config, stops_at_the_given_length)
{
	const char *text = "log-file abc\nlog-file def\n";
	char value[16];
	cr_assert_eq(ct_criu_config_log_file(text, 12, value, sizeof(value)), 1);
	cr_assert_str_eq(value, "abc");
	cr_assert_eq(ct_criu_config_log_file(text, 11, value, sizeof(value)), 1);
	cr_assert_str_eq(value, "ab");
}

static char dir[] = "/tmp/criu-config-XXXXXX";
/* Whether dir is made: mkdtemp's name may hold an X of its own. */
static bool dir_made;

static void remove_dir(void)
{
	if (!dir_made)
		return;
	char path[sizeof(dir) + 16];
	snprintf(path, sizeof(path), "%s/conf", dir);
	unlink(path);
	rmdir(dir);
}

TestSuite(criu_log, .fini = remove_dir);

/* A config file holding text: its path (static). */
static const char *config(const char *text)
{
	static char path[sizeof(dir) + 16];
	if (!dir_made) {
		cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
		dir_made = true;
	}
	snprintf(path, sizeof(path), "%s/conf", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
	return path;
}

/* The hint a failure's message ends with, for config_file (NULL: none). */
static char *hint_for(const char *config_file)
{
	static char hint[PATH_MAX + 64];
	struct ct_criu_log log;
	ct_criu_log_locate(&log, config_file, "/img", "dump.log");
	ct_criu_log_hint(&log, hint, sizeof(hint));
	return hint;
}

Test(criu_log, is_in_the_work_dir_without_a_config)
{
	cr_assert_str_eq(hint_for(NULL), " (see /img/dump.log)");
	cr_assert_str_eq(hint_for(config("tcp-established\n")), " (see /img/dump.log)");
}

Test(criu_log, is_where_the_config_moves_it)
{
	cr_assert_str_eq(hint_for(config("log-file moved.log\n")), " (see /img/moved.log)");
	cr_assert_str_eq(hint_for(config("log-file=/var/log/c.log\n")), " (see /var/log/c.log)");
}

Test(criu_log, names_the_config_when_it_cannot_tell)
{
	const char *path = config("log-file\n");
	char want[PATH_MAX + 64];
	snprintf(want, sizeof(want), " (criu's log is where %s's log-file puts it)", path);
	cr_assert_str_eq(hint_for(path), want);
}

/* criu reads it as ctrun does: where criu is asked to write it, unless the config says */
Test(criu_log, names_both_when_the_config_cannot_be_read)
{
	const char *path = config("log-file moved.log\n");
	unlink(path);
	char want[PATH_MAX + 64];
	snprintf(want, sizeof(want), " (see /img/dump.log, unless %s moves it)", path);
	cr_assert_str_eq(hint_for(path), want);
}
