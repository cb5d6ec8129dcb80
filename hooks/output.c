/* What a hook's failure says about it: the end of what it wrote, and how it ended. Pure. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "hooks/hooks.h"
#include "libct/base/signals.h"

void ct_hook_tail_append(struct ct_hook_tail *t, const char *data, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		size_t end = (t->start + t->len) % CT_HOOK_TAIL_MAX;
		t->buf[end] = data[i];
		if (t->len < CT_HOOK_TAIL_MAX) {
			t->len++;
		} else {
			t->start = (t->start + 1) % CT_HOOK_TAIL_MAX;
			t->truncated = true;
		}
	}
}

/* The tail in order, NUL-terminated, control bytes other than newline as '?'. */
static void tail_linear(const struct ct_hook_tail *t, char out[CT_HOOK_TAIL_MAX + 1])
{
	for (size_t i = 0; i < t->len; i++) {
		unsigned char c = (unsigned char)t->buf[(t->start + i) % CT_HOOK_TAIL_MAX];
		out[i] = c == '\n' || (c >= 0x20 && c != 0x7f) ? (char)c : '?';
	}
	out[t->len] = '\0';
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '?')
			return false;
	return true;
}

void ct_hook_tail_format(const struct ct_hook_tail *t, unsigned lines, char *out, size_t size)
{
	char text[CT_HOOK_TAIL_MAX + 1];
	tail_linear(t, text);
	/* walk back from the end to the start of the last `lines` non-blank lines */
	size_t from = strlen(text), kept = 0;
	bool cut = t->truncated;
	size_t end = from;
	while (end > 0 && kept < lines) {
		size_t begin = end;
		while (begin > 0 && text[begin - 1] != '\n')
			begin--;
		if (!blank(text + begin, end - begin)) {
			kept++;
			from = begin;
		}
		end = begin ? begin - 1 : 0;
	}
	if (end > 0)
		cut = true;
	size_t n = (size_t)snprintf(out, size, "%s", cut && kept ? "..." : "");
	for (size_t i = from; text[i] && n + 1 < size;) {
		size_t len = strcspn(text + i, "\n");
		if (!blank(text + i, len))
			n += (size_t)snprintf(out + n, size - n, "%s%.*s",
					      n && strcmp(out, "...") ? "; " : "", (int)len,
					      text + i);
		i += len + (text[i + len] == '\n');
	}
}

void ct_hook_describe_exit(int code, int status, char *out, size_t size)
{
	if (code == CLD_EXITED) {
		snprintf(out, size, "exited with status %d", status);
		return;
	}
	const char *name = ct_signal_abbrev(status);
	snprintf(out, size, "killed by signal %d%s%s%s", status, name ? " (SIG" : "",
		 name ? name : "", name ? ")" : "");
}
