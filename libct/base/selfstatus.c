#include "libct/base/selfstatus.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"

const char *ct_proc_status_field(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line)
		if (strncmp(line, key, n) == 0 && line[n] == ':')
			return line + n + 1;
	return NULL;
}

/* The value of the line "<key>:\t<hex>". */
static int hex_field(const char *text, const char *key, uint64_t *out)
{
	const char *p = ct_proc_status_field(text, key);
	if (!p)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!isxdigit((unsigned char)*p))
		return -1;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, 16);
	if (errno || (*end && *end != '\n'))
		return -1;
	*out = v;
	return 0;
}

int ct_self_status_parse(const char *text, struct ct_self_status *out)
{
	struct ct_self_status s;
	if (hex_field(text, "SigIgn", &s.sig_ignored) < 0 ||
	    hex_field(text, "CapBnd", &s.cap_bounding) < 0)
		return -1;
	*out = s;
	return 0;
}

void ct_self_status_read(struct ct_self_status *out)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *text = fd >= 0 ? ct_read_file(fd, 1 << 16, NULL) : NULL;
	if (!text || ct_self_status_parse(text, out) < 0)
		out->sig_ignored = out->cap_bounding = ~0ULL;
}
