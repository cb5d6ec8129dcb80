#include "libct/criu/criu_config.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"

#define CONFIG_MAX (1 << 20) /* a config file is a few lines: more is not one */
#define OPTION	   "log-file"

/* What is left of one line, split into words as criu splits it: at blanks; a word starting
 * with '#' ends the line; an argument starting with '"' runs to the next '"' not escaped by
 * '\' (the option itself is taken as it is). */
struct line {
	const char *at, *end;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next word's start, or NULL at the line's end. */
static const char *word_start(struct line *l)
{
	while (l->at < l->end && is_blank(*l->at))
		l->at++;
	return l->at == l->end || *l->at == '#' ? NULL : l->at;
}

/* The option: its bytes, up to a blank, as they are. */
static size_t take_option(struct line *l)
{
	const char *start = l->at;
	while (l->at < l->end && !is_blank(*l->at))
		l->at++;
	return (size_t)(l->at - start);
}

/* Copies an argument into out: -1 when it does not fit size. */
static int copy_argument(struct line *l, char *out, size_t size)
{
	bool quoted = *l->at == '"';
	size_t n = 0;
	for (l->at += quoted; l->at < l->end; l->at++) {
		char c = *l->at;
		if (quoted ? c == '"' : is_blank(c))
			break;
		if (quoted && c == '\\' && l->at + 1 < l->end && l->at[1] == '"')
			c = *++l->at;
		if (n + 1 >= size)
			return -1;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

/* A line's log-file: 1 with its value in out, 0 when the line sets another option (or
 * none), -1 when its log-file has no value or the value does not fit. */
static int line_log_file(struct line l, char *out, size_t size)
{
	const char *opt = word_start(&l);
	if (!opt)
		return 0;
	size_t n = take_option(&l);
	const size_t len = sizeof(OPTION) - 1;
	if (n > len && strncmp(opt, OPTION "=", len + 1) == 0) {
		if (n - len - 1 >= size)
			return -1;
		memcpy(out, opt + len + 1, n - len - 1);
		out[n - len - 1] = '\0';
		return out[0] ? 1 : -1;
	}
	if (n != len || strncmp(opt, OPTION, len) != 0)
		return 0;
	if (!word_start(&l) || copy_argument(&l, out, size) < 0)
		return -1;
	return out[0] ? 1 : -1;
}

int ct_criu_config_log_file(const char *text, size_t len, char *out, size_t size)
{
	int found = 0;
	const char *end = text + len;
	out[0] = '\0';
	for (const char *at = text; at < end;) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		const char *line_end = nl ? nl : end;
		int rc = line_log_file((struct line){at, line_end}, out, size);
		if (rc != 0)
			found = rc; /* the last one wins, as each overrides the one before */
		at = line_end + (nl != NULL);
	}
	if (found < 0)
		out[0] = '\0';
	return found;
}

/* config_file's log-file: 1 with it in out, 0 when it sets none, -1 when it sets one ctrun
 * cannot tell, -2 when the file cannot be read. */
static int configured_log_file(const char *config_file, char *out, size_t size)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, config_file, O_RDONLY | O_CLOEXEC);
	size_t len;
	_cleanup_free_ char *text = fd >= 0 ? ct_read_file(fd, CONFIG_MAX, &len) : NULL;
	return text ? ct_criu_config_log_file(text, len, out, size) : -2;
}

void ct_criu_log_locate(struct ct_criu_log *log, const char *config_file, const char *work_dir,
			const char *name)
{
	char value[PATH_MAX];
	int set = config_file ? configured_log_file(config_file, value, sizeof(value)) : 0;
	log->config = config_file;
	log->unread = set == -2;
	if (set == -1)
		log->path[0] = '\0';
	else if (set == 1 && value[0] == '/')
		snprintf(log->path, sizeof(log->path), "%s", value);
	else
		snprintf(log->path, sizeof(log->path), "%s/%s", work_dir, set == 1 ? value : name);
}

void ct_criu_log_hint(const struct ct_criu_log *log, char *out, size_t size)
{
	if (log->unread)
		snprintf(out, size, " (see %s, unless %s moves it)", log->path, log->config);
	else if (log->path[0])
		snprintf(out, size, " (see %s)", log->path);
	else
		snprintf(out, size, " (criu's log is where %s's log-file puts it)", log->config);
}
