#include "libct/plan/sync_decode.h"

#include <errno.h>
#include <string.h>

#include "libct/plan/sync_phase.h"

#define HEADER offsetof(struct ct_sync_msg, note)

static const struct ct_sync_text *text_of(const struct ct_sync_msg *msg,
					  const struct ct_sync_kind *k)
{
	return (const struct ct_sync_text *)((const char *)msg + HEADER + k->fixed_size);
}

size_t ct_sync_wire_len(const struct ct_sync_msg *msg)
{
	const struct ct_sync_kind *k = ct_sync_kind_of(msg->type);
	if (!k)
		return HEADER;
	if (!k->text_tail)
		return HEADER + k->fixed_size;
	return HEADER + k->fixed_size + offsetof(struct ct_sync_text, text) + text_of(msg, k)->len;
}

static int check_fds(const struct ct_sync_kind *k, size_t n, struct ct_error *err)
{
	if (n < k->min_fds)
		return ct_error_plain(err, EPROTO, "without its descriptor");
	if (n > k->max_fds && k->max_fds == 0)
		return ct_error_plain(err, EPROTO, "with a descriptor, it carries none");
	if (n > k->max_fds)
		return ct_error_plain(err, EPROTO, "with %zu descriptors, it carries at most %u", n,
				      k->max_fds);
	return 0;
}

/* The payload's length against its row; a text's against its len, and no NUL in it. */
static int check_length(const struct ct_sync_kind *k, const struct ct_sync_msg *msg, size_t len,
			struct ct_error *err)
{
	size_t fixed = HEADER + k->fixed_size;
	if (k->text_tail)
		fixed += offsetof(struct ct_sync_text, text);
	if (len < fixed || (!k->text_tail && len > fixed))
		return ct_error_plain(err, EPROTO, "%zu bytes, its payload (%s) takes %zu", len,
				      k->payload[0] ? k->payload : "none", fixed - HEADER);
	if (!k->text_tail)
		return 0;
	const struct ct_sync_text *t = text_of(msg, k);
	if (t->len > CT_SYNC_TEXT_MAX || len - fixed != t->len)
		return ct_error_plain(err, EPROTO, "%zu bytes of text, its length says %u",
				      len - fixed, t->len);
	if (memchr(t->text, '\0', t->len))
		return ct_error_plain(err, EPROTO, "a NUL inside its text");
	return 0;
}

static int check_record(const struct ct_sync_kind *k, const struct ct_sync_msg *msg, size_t len,
			size_t n_fds, struct ct_error *err)
{
	if (k->type == CT_SYNC_EOF)
		return ct_error_plain(err, EPROTO, "sent as a record: it is no message");
	if (check_fds(k, n_fds, err) < 0 || check_length(k, msg, len, err) < 0)
		return -1;
	return k->check ? k->check(msg, err) : 0;
}

int ct_sync_decode(const void *buf, size_t len, size_t n_fds, struct ct_sync_msg *msg,
		   struct ct_error *err)
{
	memset(msg, 0, sizeof(*msg));
	if (len == 0 && n_fds == 0)
		return 0; /* EOF */
	if (len < HEADER)
		return ct_error_plain(err, EPROTO, "sync record of %zu bytes: no message type",
				      len);
	if (len > CT_SYNC_WIRE_MAX)
		return ct_error_plain(err, EMSGSIZE, "sync record of %zu bytes: longer than any",
				      len);
	memcpy(msg, buf, len);
	const struct ct_sync_kind *k = ct_sync_kind_of(msg->type);
	if (!k)
		return ct_error_plain(err, EPROTO, "sync message of unknown type %u", msg->type);
	if (check_record(k, msg, len, n_fds, err) < 0)
		return ct_error_prefix(err, "sync message %s", k->name);
	return 0;
}
