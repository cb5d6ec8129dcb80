/* The growth step of a byte buffer that is appended to (the protobuf and D-Bus writers):
 * capacity doubled until it holds what is asked. */
#ifndef CT_GROWBUF_H
#define CT_GROWBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Makes *data (*cap bytes allocated) hold at least need bytes, starting from first bytes
 * when none are allocated yet: true, or false with *data and *cap unchanged when memory
 * ran out (or the doubled size would not fit a size_t). */
bool ct_grow_bytes(uint8_t **data, size_t *cap, size_t need, size_t first);

#endif
