/* Paths put together on hot paths without snprintf: under musl one snprintf("%s/%s") costs
 * ~1,500 instructions, and `list` builds four paths per container (state.json, the exec
 * fifo, /proc/PID/stat, freezer.state). Pure. */
#ifndef CT_PATHBUF_H
#define CT_PATHBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* dir "/" name into buf (size bytes, NUL-terminated); false, with buf empty, when it does
 * not fit. */
static inline bool ct_path_join(char *buf, size_t size, const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);
	if (size == 0)
		return false;
	if (d + 1 + n >= size) {
		buf[0] = '\0';
		return false;
	}
	memcpy(buf, dir, d);
	buf[d] = '/';
	memcpy(buf + d + 1, name, n + 1);
	return true;
}

/* s appended at offset `at` of buf (size bytes), cut to what fits and NUL-terminated, as
 * snprintf's "%s" would cut it; returns the new end (at most size - 1). Chained calls build
 * "%s/%s" without stdio. at must be below size. */
static inline size_t ct_buf_put(char *buf, size_t size, size_t at, const char *s)
{
	size_t n = strlen(s);
	if (size == 0 || at >= size)
		return at;
	if (n > size - 1 - at)
		n = size - 1 - at;
	memcpy(buf + at, s, n);
	buf[at + n] = '\0';
	return at + n;
}

/* The decimal digits of v into buf (at least CT_DEC_MAX bytes), NUL-terminated; returns
 * their count. */
#define CT_DEC_MAX 21
static inline size_t ct_format_dec(char buf[CT_DEC_MAX], uint64_t v)
{
	char rev[CT_DEC_MAX];
	size_t n = 0;
	do
		rev[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	for (size_t i = 0; i < n; i++)
		buf[i] = rev[n - 1 - i];
	buf[n] = '\0';
	return n;
}

#endif
