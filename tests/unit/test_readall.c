/* ct_read_all: to the end of what the fd gives, whatever st_size says, within a cap. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/readall.h"

/* The read end of a pipe that holds n bytes of 'a'..'z' and is closed for writing. */
static int pipe_with(size_t n)
{
	int p[2];
	cr_assert_eq(pipe(p), 0, "pipe: %s", strerror(errno));
	char *data = malloc(n);
	cr_assert_not_null(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	cr_assert_eq(write(p[1], data, n), (ssize_t)n, "write: %s", strerror(errno));
	free(data);
	close(p[1]);
	return p[0];
}

/* More than one growth step of the buffer, exactly max bytes. */
Test(readall, reads_past_one_chunk_up_to_max)
{
	int fd = pipe_with(40000);
	size_t len = 0;
	char *text = ct_read_all(fd, 40000, &len);
	close(fd);
	cr_assert_not_null(text, "ct_read_all: %s", strerror(errno));
	cr_expect_eq(len, 40000);
	cr_expect_eq(strlen(text), 40000, "not NUL-terminated at its end");
	cr_expect_eq(text[39999], (char)('a' + 39999 % 26));
	free(text);
}

Test(readall, more_than_max_is_efbig)
{
	int fd = pipe_with(101);
	errno = 0;
	cr_expect_null(ct_read_all(fd, 100, NULL));
	cr_expect_eq(errno, EFBIG, "errno %d", errno);
	close(fd);
}

/* A proc file reports size 0 and still has text. */
Test(readall, proc_file_of_size_zero)
{
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open: %s", strerror(errno));
	size_t len = 0;
	char *text = ct_read_all(fd, 1 << 24, &len);
	close(fd);
	cr_assert_not_null(text, "ct_read_all: %s", strerror(errno));
	cr_expect_gt(len, 0);
	cr_expect(strstr(text, " / "), "no root mount in: %s", text);
	free(text);
}

Test(readall, bad_fd_fails_with_its_errno)
{
	errno = 0;
	cr_expect_null(ct_read_all(-1, 100, NULL));
	cr_expect_eq(errno, EBADF, "errno %d", errno);
}

/* An empty file of the test's own, already unlinked: its fd. */
static int unlinked_file(void)
{
	char path[] = "/tmp/ctrun-readall-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0, "mkstemp: %s", strerror(errno));
	unlink(path);
	return fd;
}

/* A regular file that fits the first read costs one read; one larger is read to its end. */
static void assert_read_file_of(size_t n)
{
	int fd = unlinked_file();
	char *data = malloc(n);
	cr_assert_not_null(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	cr_assert_eq(pwrite(fd, data, n, 0), (ssize_t)n);
	size_t len = 0;
	char *text = ct_read_file(fd, 1 << 20, &len);
	close(fd);
	cr_assert_not_null(text, "ct_read_file: %s", strerror(errno));
	cr_expect_eq(len, n);
	cr_expect_eq(memcmp(text, data, n), 0);
	cr_expect_eq(text[n], '\0');
	free(text);
	free(data);
}

Test(readall, read_file_small_large_and_empty)
{
	assert_read_file_of(0);
	assert_read_file_of(100);
	assert_read_file_of(4095);
	assert_read_file_of(4096);
	assert_read_file_of(40000);
}

Test(readall, read_file_of_proc_stat)
{
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open: %s", strerror(errno));
	char *text = ct_read_file(fd, 1 << 16, NULL);
	close(fd);
	cr_assert_not_null(text, "ct_read_file: %s", strerror(errno));
	cr_expect(strchr(text, ')') && text[strlen(text) - 1] == '\n', "cut short: %s", text);
	free(text);
}

Test(readall, read_file_over_max_is_efbig)
{
	int fd = unlinked_file();
	cr_assert_eq(pwrite(fd, "0123456789", 10, 0), 10); /* one byte more than 9 */
	errno = 0;
	cr_expect_null(ct_read_file(fd, 9, NULL));
	cr_expect_eq(errno, EFBIG, "errno %d", errno);
	close(fd);
}

/* ct_read_file_into: a file shorter than the buffer stays in it (no copy made); a longer one
 * is read on, whole, into the heap. */
static void assert_read_into_of(size_t n, size_t bufsize)
{
	int fd = unlinked_file();
	char *data = malloc(n + 1);
	cr_assert_not_null(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	cr_assert_eq(pwrite(fd, data, n, 0), (ssize_t)n);
	char *buf = malloc(bufsize), *heap = NULL;
	cr_assert_not_null(buf);
	size_t len = 0;
	const char *text = ct_read_file_into(fd, buf, bufsize, 1 << 20, &heap, &len);
	close(fd);
	cr_assert_not_null(text, "ct_read_file_into(%zu): %s", n, strerror(errno));
	if (n < bufsize - 1)
		cr_expect(text == buf && !heap, "%zu bytes: not read into the buffer", n);
	else
		cr_expect(text == heap, "%zu bytes: not read into the heap", n);
	cr_expect_eq(len, n);
	cr_expect_eq(memcmp(text, data, n), 0, "%zu bytes: other text", n);
	cr_expect_eq(text[n], '\0');
	free(heap);
	free(buf);
	free(data);
}

Test(readall, read_file_into_buffer_or_heap)
{
	assert_read_into_of(0, 64);
	assert_read_into_of(62, 64);
	assert_read_into_of(63, 64);
	assert_read_into_of(64, 64);
	assert_read_into_of(40000, 64);
}

Test(readall, read_file_into_over_max_is_efbig)
{
	int fd = unlinked_file();
	cr_assert_eq(pwrite(fd, "0123456789", 10, 0), 10); /* one byte more than 9 */
	char buf[64], *heap = NULL;
	errno = 0;
	cr_expect_null(ct_read_file_into(fd, buf, sizeof(buf), 9, &heap, NULL));
	cr_expect_eq(errno, EFBIG, "errno %d", errno);
	cr_expect_null(heap);
	close(fd);
}

/* ct_write_all: the whole buffer, read back the same; a closed reader is an error. */
Test(readall, write_all_writes_everything_or_fails)
{
	char *data = malloc(100000);
	cr_assert_not_null(data);
	for (size_t i = 0; i < 100000; i++)
		data[i] = (char)('a' + i % 26);
	FILE *tmp = tmpfile();
	cr_assert_not_null(tmp);
	cr_assert_eq(ct_write_all(fileno(tmp), data, 100000), 0, "%s", strerror(errno));
	cr_assert_eq(lseek(fileno(tmp), 0, SEEK_SET), 0);
	size_t len = 0;
	char *back = ct_read_all(fileno(tmp), 200000, &len);
	cr_assert_not_null(back);
	cr_expect_eq(len, 100000);
	cr_expect_eq(memcmp(back, data, len), 0);
	free(back);
	fclose(tmp);
	free(data);
	int p[2];
	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	cr_expect_eq(ct_write_all(p[1], "x", 1), -1);
	cr_expect_eq(errno, EPIPE, "errno %d", errno);
	close(p[1]);
}
