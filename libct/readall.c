#include "libct/readall.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "libct/cleanup.h"

#define READ_CHUNK 16384

/* Room for one more read; never beyond max + 1 bytes and the NUL, enough to see "too big". */
static int grow(char **buf, size_t *cap, size_t max)
{
	size_t want = *cap + READ_CHUNK;
	if (want > max + 2)
		want = max + 2;
	char *grown = realloc(*buf, want);
	if (!grown)
		return errno = ENOMEM, -1;
	*buf = grown;
	*cap = want;
	return 0;
}

char *ct_read_all(int fd, size_t max, size_t *len_out)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (cap - len < 2 && grow(&buf, &cap, max) < 0)
			return NULL;
		ssize_t n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return NULL;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max)
			return errno = EFBIG, NULL;
	}
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return steal_ptr(&buf);
}
