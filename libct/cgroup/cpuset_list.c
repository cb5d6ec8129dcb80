/* cpuset list parsing (see cpuset_list.h). */
#include "libct/cgroup/cpuset_list.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CPUSET_LIST_MAX 65535UL
/* No kernel writes more numbers than there are of 16 bits: a longer list (ranges repeated) is
 * no cpuset's, and would cost memory without bound. */
#define CPUSET_LIST_MAX_ENTRIES (CPUSET_LIST_MAX + 1)

/* One decimal number at *p, advancing *p past it. */
static int parse_number(const char **p, unsigned long *out)
{
	const char *s = *p;
	unsigned long v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > CPUSET_LIST_MAX)
			return -1;
	}
	*p = s;
	*out = v;
	return 0;
}

/* What a list of n numbers has room for: a power of two, so that a list of single numbers
 * grows in few steps, not one per number. */
static size_t room_for(size_t n)
{
	size_t room = 16;
	while (room < n)
		room *= 2;
	return n ? room : 0;
}

static int append_range(uint16_t **out, size_t *n, unsigned long first, unsigned long last)
{
	size_t need = *n + (last - first + 1);
	if (need > room_for(*n)) {
		uint16_t *grown = realloc(*out, room_for(need) * sizeof(*grown));
		if (!grown)
			return -1;
		*out = grown;
	}
	for (unsigned long v = first; v <= last; v++)
		(*out)[(*n)++] = (uint16_t)v;
	return 0;
}

/* "N" or "N-M" with N <= M, at *p, ending at a comma or the end. */
static int parse_item(const char **p, uint16_t **out, size_t *n)
{
	unsigned long first, last;
	if (parse_number(p, &first) < 0)
		return -1;
	last = first;
	if (**p == '-' && (++*p, parse_number(p, &last) < 0))
		return -1;
	if (last < first || (**p != ',' && **p != '\0'))
		return -1;
	if (*n + (last - first + 1) > CPUSET_LIST_MAX_ENTRIES)
		return -1;
	return append_range(out, n, first, last) < 0 ? -2 : 0;
}

int ct_cpuset_list_parse(const char *text, uint16_t **out, size_t *n)
{
	size_t len = strcspn(text, "\n");
	char *copy = strndup(text, len);
	*out = NULL;
	*n = 0;
	if (!copy)
		return errno = ENOMEM, -1;
	int rc = 0;
	for (const char *p = copy; rc == 0 && *copy;) {
		rc = parse_item(&p, out, n);
		if (rc == 0 && *p == ',' && !*++p)
			rc = -1; /* a trailing comma */
		if (rc == 0 && !*p)
			break;
	}
	free(copy);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		errno = rc == -2 ? ENOMEM : EINVAL;
		return -1;
	}
	return 0;
}
