#include "libct/base/readall.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

#define READ_CHUNK 16384
/* What most files read here (state.json, cgroup and proc files) fit in: read on the stack
 * first, then allocated at their size, not as a 16 KiB buffer made and freed each time (and
 * in a container init, fewer heap pages written, each of them charged to its cgroup). */
#define FIRST_READ 4096

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

static ssize_t read_retrying(int fd, void *buf, size_t size)
{
	ssize_t n;
	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n;
}

/* buf (len bytes so far, cap allocated) read on to the end of fd. */
static int read_rest(int fd, char **buf, size_t *len, size_t *cap, size_t max)
{
	for (;;) {
		if (*cap - *len < 2 && grow(buf, cap, max) < 0)
			return -1;
		ssize_t n = read_retrying(fd, *buf + *len, *cap - *len - 1);
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		*len += (size_t)n;
		if (*len > max)
			return errno = EFBIG, -1;
	}
}

/* The n bytes at `first` copied to the heap and, unless at_end, read on to the end of fd. */
static char *read_on(int fd, const char *first, size_t n, bool at_end, size_t max, size_t *len_out)
{
	if (n > max)
		return errno = EFBIG, NULL;
	size_t len = n, cap = len + 2;
	_cleanup_free_ char *buf = malloc(cap);
	if (!buf)
		return errno = ENOMEM, NULL;
	memcpy(buf, first, len);
	if (!at_end && read_rest(fd, &buf, &len, &cap, max) < 0)
		return NULL;
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return steal_ptr(&buf);
}

static char *read_whole(int fd, size_t max, size_t *len_out, bool short_read_is_end)
{
	char first[FIRST_READ];
	ssize_t n = read_retrying(fd, first, sizeof(first));
	if (n < 0)
		return NULL;
	bool at_end = n == 0 || (short_read_is_end && (size_t)n < sizeof(first));
	return read_on(fd, first, (size_t)n, at_end, max, len_out);
}

char *ct_read_all(int fd, size_t max, size_t *len_out)
{
	return read_whole(fd, max, len_out, false);
}

char *ct_read_file(int fd, size_t max, size_t *len_out)
{
	return read_whole(fd, max, len_out, true);
}

const char *ct_read_file_into(int fd, char *buf, size_t size, size_t max, char **heap,
			      size_t *len_out)
{
	ssize_t n = read_retrying(fd, buf, size - 1);
	if (n < 0)
		return NULL;
	if ((size_t)n < size - 1 && (size_t)n <= max) {
		buf[n] = '\0';
		if (len_out)
			*len_out = (size_t)n;
		return buf;
	}
	*heap = read_on(fd, buf, (size_t)n, false, max, len_out);
	return *heap;
}

int ct_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 ? (errno = EIO, -1) : -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void ct_read_available(int *fd, void (*take)(void *ctx, const char *data, size_t len), void *ctx)
{
	char buf[8192];
	while (*fd >= 0) {
		ssize_t n = read(*fd, buf, sizeof(buf));
		if (n > 0) {
			take(ctx, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || errno != EAGAIN)
			ct_close_now(fd);
		return;
	}
}
