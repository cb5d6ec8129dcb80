/* Reading a whole file from an open fd, or what a pipe holds now, and writing a whole buffer
 * to one. */
#ifndef CT_READALL_H
#define CT_READALL_H

#include <stddef.h>

/* Reads fd to its end into a malloc'd, NUL-terminated buffer; *len (when not NULL) gets the
 * number of bytes. To the end, not to st_size: proc files report size 0. More than max
 * bytes fails with EFBIG. Returns NULL with errno set; EINTR is retried. */
char *ct_read_all(int fd, size_t max, size_t *len);

/* ct_read_all for a file whose first short read is its end: a regular file (Linux returns
 * less than asked only at the end), or a kernel seq_file view such as /proc/PID/stat or a
 * cgroup file (each read fills the buffer while records remain). What fits the first read
 * then costs one read(2), not two: the second only ever said "end of file". Never for a
 * pipe, socket or terminal, whose reads return what is there so far. */
char *ct_read_file(int fd, size_t max, size_t *len);

/* ct_read_file into the caller's buf (size bytes) first: a file shorter than size - 1 bytes
 * is returned in buf, NUL-terminated, with no allocation (a state.json read per container by
 * `list`); a longer one is read on into a malloc'd copy stored in *heap (the caller's to
 * free) and returned. NULL with errno set, as ct_read_file. */
const char *ct_read_file_into(int fd, char *buf, size_t size, size_t max, char **heap, size_t *len);

/* Writes all len bytes of buf, retrying EINTR and short writes: 0, or -1 with errno set
 * (EIO for a write that took nothing). */
int ct_write_all(int fd, const void *buf, size_t len);

/* Reads what the non-blocking *fd holds now, each piece to take(ctx, data, len), EINTR
 * retried; at its end, or on an error other than EAGAIN, closes it and sets *fd to -1. */
void ct_read_available(int *fd, void (*take)(void *ctx, const char *data, size_t len), void *ctx);

#endif
