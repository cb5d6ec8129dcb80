/* The sync records' decoder (libct/plan/sync_decode.h) against the table of messages
 * (libct/plan/sync_phase.c): every record a sender makes decodes to what it sent; one cut
 * short, one too long, one with fields no sender makes, a descriptor where none goes are
 * refused with an error naming the message; and what decodes still meets the phase checks
 * (a message of another phase, a repeated one). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "libct/plan/sync_decode.h"
#include "libct/plan/sync_phase.h"

/* A record's bytes, as a sender puts them on the wire. */
struct record {
	union {
		char bytes[CT_SYNC_WIRE_MAX + 8];
		struct ct_sync_msg msg;
	};
	size_t len;
};

static struct record encode(const struct ct_sync_msg *msg)
{
	struct record r;
	memset(&r, 0, sizeof(r));
	r.msg = *msg;
	r.len = ct_sync_wire_len(msg);
	return r;
}

static struct record error_record(int errnum, const char *text)
{
	struct ct_error cause = {.errnum = errnum};
	snprintf(cause.msg, sizeof(cause.msg), "%s", text);
	struct ct_sync_msg msg;
	ct_sync_error_msg(&msg, CT_SYNC_ERROR, &cause);
	return encode(&msg);
}

static struct record note_record(const char *text)
{
	struct ct_sync_msg msg = {.type = CT_SYNC_READY};
	msg.note.len = (uint16_t)strlen(text);
	memcpy(msg.note.text, text, msg.note.len);
	return encode(&msg);
}

static void decode_ok(const struct record *r, size_t n_fds, struct ct_sync_msg *out)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_decode(r->bytes, r->len, n_fds, out, &err), 0, "%s", err.msg);
}

static void assert_refused(const struct record *r, size_t n_fds, const char *want)
{
	struct ct_sync_msg out;
	struct ct_error err = {0};
	cr_assert_eq(ct_sync_decode(r->bytes, r->len, n_fds, &out, &err), -1, "decoded: %s", want);
	cr_expect_str_eq(err.msg, want);
}

Test(sync_decode, good_records_come_out_as_they_went_in)
{
	struct ct_sync_msg out;
	struct record r = error_record(EPERM, "init step mounts: refused");
	cr_expect_eq(r.len, 4 + 4 + 2 + strlen("init step mounts: refused"), "no padding sent");
	decode_ok(&r, 0, &out);
	cr_expect_eq(out.type, CT_SYNC_ERROR);
	cr_expect_eq(out.error.errnum, EPERM);
	cr_expect_str_eq(out.error.message.text, "init step mounts: refused");

	r = note_record("init steps: netns cgroup");
	decode_ok(&r, 0, &out);
	cr_expect_eq(out.type, CT_SYNC_READY);
	cr_expect_str_eq(out.note.text, "init steps: netns cgroup");

	r = note_record("");
	decode_ok(&r, 0, &out);
	cr_expect_str_empty(out.note.text, "READY's note may be empty");

	struct ct_sync_msg pidfd = {.type = CT_SYNC_INIT_PIDFD, .init_pidfd = {42, "clone3"}};
	r = encode(&pidfd);
	decode_ok(&r, 1, &out);
	cr_expect_eq(out.init_pidfd.pid, 42);
	cr_expect_str_eq(out.init_pidfd.method, "clone3");

	struct ct_sync_msg cgroup = {.type = CT_SYNC_CGROUP_READY};
	r = encode(&cgroup);
	cr_expect_eq(r.len, 4, "the type alone");
	decode_ok(&r, 0, &out);
	decode_ok(&r, 3, &out);
	cr_expect_eq(out.type, CT_SYNC_CGROUP_READY);
}

Test(sync_decode, empty_record_is_eof)
{
	struct ct_sync_msg out;
	struct record r = {.len = 0};
	decode_ok(&r, 0, &out);
	cr_expect_eq(out.type, CT_SYNC_EOF);
}

Test(sync_decode, the_longest_text_fits)
{
	char text[CT_SYNC_TEXT_MAX + 1];
	memset(text, 'x', CT_SYNC_TEXT_MAX);
	text[CT_SYNC_TEXT_MAX] = '\0';
	struct ct_sync_msg out;
	struct record r = error_record(EIO, text);
	cr_assert_leq(r.len, CT_SYNC_WIRE_MAX);
	decode_ok(&r, 0, &out);
	cr_expect_eq(strlen(out.error.message.text), CT_SYNC_TEXT_MAX);
}

struct bad {
	const char *what;
	size_t n_fds;
	const char *want;
};

/* A good ERROR record, then each way of breaking it. */
static void break_error(struct record *r, size_t i)
{
	*r = error_record(EPERM, "refused");
	switch (i) {
	case 0: /* truncated: the header cut */
		r->len = 3;
		break;
	case 1: /* truncated: the text cut */
		r->len -= 2;
		break;
	case 2: /* truncated: not even the length */
		r->len = 9;
		break;
	case 3: /* oversized: bytes after the text */
		r->len += 2;
		break;
	case 4: /* oversized: longer than any record */
		r->len = CT_SYNC_WIRE_MAX + 1;
		break;
	case 5: /* a length beyond the largest text */
		r->msg.error.message.len = CT_SYNC_TEXT_MAX + 1;
		r->len = CT_SYNC_WIRE_MAX;
		break;
	case 6:
		r->msg.error.errnum = 0;
		break;
	case 7:
		r->msg.error.errnum = -1;
		break;
	case 8:
		r->msg.error.errnum = 4096;
		break;
	case 9:
		r->msg.error.message.text[3] = '\0';
		break;
	case 10:
		r->msg.error.message.len = 0;
		r->len = 10;
		break;
	case 11:
		r->msg.type = 99;
		break;
	case 12:
		r->msg.type = CT_SYNC_EOF;
		break;
	}
}

static const struct bad bad_errors[] = {
	{"header cut", 0, "sync record of 3 bytes: no message type"},
	{"text cut", 0, "sync message ERROR: 5 bytes of text, its length says 7"},
	{"length cut", 0,
	 "sync message ERROR: 9 bytes, its payload (struct ct_sync_error error) takes 6"},
	{"bytes after the text", 0, "sync message ERROR: 9 bytes of text, its length says 7"},
	{"longer than any", 0, "sync record of 1037 bytes: longer than any"},
	{"length too large", 0, "sync message ERROR: 1026 bytes of text, its length says 1024"},
	{"errno 0", 0, "sync message ERROR: errno 0 out of range"},
	{"errno -1", 0, "sync message ERROR: errno -1 out of range"},
	{"errno 4096", 0, "sync message ERROR: errno 4096 out of range"},
	{"NUL in the text", 0, "sync message ERROR: a NUL inside its text"},
	{"empty message", 0, "sync message ERROR: empty message"},
	{"unknown type", 0, "sync message of unknown type 99"},
	{"EOF as a record", 0, "sync message EOF: sent as a record: it is no message"},
	{"a descriptor", 1, "sync message ERROR: with a descriptor, it carries none"},
};

ParameterizedTestParameters(sync_decode, broken_error_is_refused)
{
	static size_t rows[sizeof(bad_errors) / sizeof(bad_errors[0])];
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rows[i] = i;
	return cr_make_param_array(size_t, rows, sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(size_t *i, sync_decode, broken_error_is_refused)
{
	struct record r;
	break_error(&r, *i);
	cr_log_info("%s", bad_errors[*i].what);
	assert_refused(&r, bad_errors[*i].n_fds, bad_errors[*i].want);
}

Test(sync_decode, descriptors_must_match_the_row)
{
	struct ct_sync_msg pty = {.type = CT_SYNC_PTY_MASTER};
	struct record r = encode(&pty);
	assert_refused(&r, 0, "sync message PTY_MASTER: without its descriptor");
	assert_refused(&r, 2, "sync message PTY_MASTER: with 2 descriptors, it carries at most 1");
	r = note_record("x");
	assert_refused(&r, 1, "sync message READY: with a descriptor, it carries none");
}

Test(sync_decode, broken_init_pidfd_is_refused)
{
	struct ct_sync_msg p = {.type = CT_SYNC_INIT_PIDFD, .init_pidfd = {0, "clone3"}};
	struct record r = encode(&p);
	assert_refused(&r, 1, "sync message INIT_PIDFD: pid 0");
	p.init_pidfd.pid = 7;
	memset(p.init_pidfd.method, 'c', sizeof(p.init_pidfd.method));
	r = encode(&p);
	assert_refused(&r, 1, "sync message INIT_PIDFD: clone call not a NUL-terminated name");
	p.init_pidfd.method[0] = '\0';
	r = encode(&p);
	assert_refused(&r, 1, "sync message INIT_PIDFD: clone call not a NUL-terminated name");
	r = encode(&(struct ct_sync_msg){.type = CT_SYNC_INIT_PIDFD, .init_pidfd = {7, "clone"}});
	r.len -= 1;
	assert_refused(&r, 1,
		       "sync message INIT_PIDFD: 39 bytes, its payload (struct ct_sync_init_pidfd "
		       "init_pidfd) takes 36");
}

Test(sync_decode, payload_where_none_goes_is_refused)
{
	struct record r = encode(&(struct ct_sync_msg){.type = CT_SYNC_START});
	r.len += 4;
	assert_refused(&r, 0, "sync message START: 8 bytes, its payload (none) takes 0");
}

/* What decodes is still checked against the phase: the decoder knows no order. */
static void assert_accepted_in_phase(struct ct_sync_phase_state *st, const struct record *r,
				     int want, const char *want_msg)
{
	struct ct_sync_msg out;
	struct ct_error err = {0};
	decode_ok(r, 0, &out);
	cr_expect_eq(ct_sync_phase_accept(st, out.type, &err), want, "%s", err.msg);
	cr_expect_str_eq(err.msg, want_msg);
}

Test(sync_decode, decoded_message_of_the_wrong_phase_is_refused)
{
	struct ct_sync_phase_state st;
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_SET_UP);
	struct record start = encode(&(struct ct_sync_msg){.type = CT_SYNC_START});
	assert_accepted_in_phase(
		&st, &start, -1,
		"sync message START out of phase: the set-up phase does not take it");
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_START);
	struct record ready = note_record("late");
	assert_accepted_in_phase(
		&st, &ready, -1,
		"sync message READY out of phase: the start phase does not take it");
}

Test(sync_decode, decoded_message_repeated_is_refused)
{
	struct ct_sync_phase_state st;
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_SET_UP);
	struct record ready = note_record("done");
	assert_accepted_in_phase(&st, &ready, 0, "");
	assert_accepted_in_phase(&st, &ready, -1,
				 "sync message READY repeated in the set-up phase");
}
