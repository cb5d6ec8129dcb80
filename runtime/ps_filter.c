/* ps(1) output filtered to a container's pids (see ps_filter.h). */
#include "runtime/ps_filter.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The index of the whitespace-separated field of line (up to its end) equal to word, -1. */
static int field_index(const char *line, size_t len, const char *word)
{
	size_t wlen = strlen(word);
	int idx = 0;
	for (size_t i = 0; i < len;) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		size_t start = i;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
		if (i == start)
			break;
		if (i - start == wlen && memcmp(line + start, word, wlen) == 0)
			return idx;
		idx++;
	}
	return -1;
}

/* The idx-th field of line as a pid, or -1. */
static long field_pid(const char *line, size_t len, int idx)
{
	size_t i = 0;
	for (int f = 0;; f++) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			return -1;
		if (f == idx)
			break;
		while (i < len && line[i] != ' ' && line[i] != '\t')
			i++;
	}
	char *end;
	long v = strtol(line + i, &end, 10);
	return end == line + i || (end < line + len && *end != ' ' && *end != '\t') ? -1 : v;
}

static bool has_pid(const pid_t *pids, size_t n, long pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

int ct_ps_filter(const char *ps_output, const pid_t *pids, size_t n, char **out,
		 struct ct_error *err)
{
	size_t header_len = strcspn(ps_output, "\n");
	int idx = field_index(ps_output, header_len, "PID");
	if (idx < 0)
		return ct_error_plain(err, EINVAL, "no PID column in the output of ps");
	size_t size;
	FILE *f = open_memstream(out, &size);
	if (!f)
		return ct_error_sys(err, errno, "ps output");
	fprintf(f, "%.*s\n", (int)header_len, ps_output);
	for (const char *line = ps_output + header_len; *line;) {
		line += *line == '\n';
		size_t len = strcspn(line, "\n");
		if (len && has_pid(pids, n, field_pid(line, len, idx)))
			fprintf(f, "%.*s\n", (int)len, line);
		line += len;
	}
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		return ct_error_sys(err, ENOMEM, "ps output");
	}
	return 0;
}
