/* A sync record's bytes into a message and back (libct/plan/sync.h): the length of every
 * record follows from its type's row (libct/plan/sync_phase.h), and a record that does not
 * hold to its row is refused with an error naming the message, before any of it is used. */
#ifndef CT_SYNC_DECODE_H
#define CT_SYNC_DECODE_H

#include <stddef.h>

#include "libct/base/error.h"
#include "libct/plan/sync.h"

/* The longest record: a type and the largest payload. */
#define CT_SYNC_WIRE_MAX sizeof(struct ct_sync_msg)

/* The bytes of msg's record: its type, its payload's fixed part and text. */
size_t ct_sync_wire_len(const struct ct_sync_msg *msg);

/* The record buf[0..len), received with n_fds descriptors, into *msg (zeroed first, texts
 * NUL-terminated): 0, or -1 with EPROTO (EMSGSIZE for more bytes than any record has). An
 * empty record is EOF. */
int ct_sync_decode(const void *buf, size_t len, size_t n_fds, struct ct_sync_msg *msg,
		   struct ct_error *err);

#endif
