/* Reading a whole file from an open fd. */
#ifndef CT_READALL_H
#define CT_READALL_H

#include <stddef.h>

/* Reads fd to its end into a malloc'd, NUL-terminated buffer; *len (when not NULL) gets the
 * number of bytes. To the end, not to st_size: proc files report size 0. More than max
 * bytes fails with EFBIG. Returns NULL with errno set; EINTR is retried. */
char *ct_read_all(int fd, size_t max, size_t *len);

#endif
