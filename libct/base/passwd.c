/* passwd(5) lines, as runc reads them (see passwd.h). */
#include "libct/base/passwd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_NAME, F_PASSWORD, F_UID, F_GID, F_GECOS, F_HOME, F_COUNT };

struct entry {
	const char *field[F_COUNT]; /* start of each field, NULL when the line has fewer */
	size_t len[F_COUNT];
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The fields of the line [line, end), trimmed of white space at both ends. */
static void split_line(const char *line, const char *end, struct entry *e)
{
	while (line < end && is_space(*line))
		line++;
	while (end > line && is_space(end[-1]))
		end--;
	*e = (struct entry){0};
	for (int f = 0; f < F_COUNT && line <= end; f++) {
		const char *colon = memchr(line, ':', end - line);
		e->field[f] = line;
		e->len[f] = (colon ? colon : end) - line;
		if (!colon)
			break;
		line = colon + 1;
	}
}

/* The uid field as a number, or -1 when it is missing, empty, not decimal or above 2^32-1. */
static long long entry_uid(const struct entry *e)
{
	const char *p = e->field[F_UID];
	size_t n = e->len[F_UID];
	if (!p)
		return -1;
	if (n && *p == '+')
		p++, n--;
	if (!n)
		return -1;
	long long uid = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		uid = uid * 10 + (p[i] - '0');
		if (uid > 0xffffffffLL)
			return -1;
	}
	return uid;
}

/* The first entry of uid whose name is non-empty when named; false when there is none. */
static bool find_entry(const char *text, size_t len, uid_t uid, bool named, struct entry *e)
{
	const char *end_of_text = text + len;
	for (const char *line = text; line < end_of_text;) {
		const char *end = memchr(line, '\n', end_of_text - line);
		if (!end)
			end = end_of_text;
		split_line(line, end, e);
		if (entry_uid(e) == (long long)uid && (!named || e->len[F_NAME]))
			return true;
		line = end + 1;
	}
	return false;
}

bool ct_passwd_find_name(const char *text, size_t len, uid_t uid, char *name, size_t size)
{
	struct entry e;
	if (!find_entry(text, len, uid, true, &e))
		return false;
	snprintf(name, size, "%.*s", (int)e.len[F_NAME], e.field[F_NAME]);
	return true;
}

int ct_passwd_find_home(const char *text, size_t len, uid_t uid, char **home)
{
	struct entry e;
	if (!find_entry(text, len, uid, false, &e))
		return 1;
	*home = strndup(e.field[F_HOME] ? e.field[F_HOME] : "", e.len[F_HOME]);
	return *home ? 0 : -1;
}
