/* libct/criu: the protobuf wire format and CRIU's RPC messages. The expected bytes are
 * worked out by hand from the encoding rules (protobuf.dev, "Encoding") and rpc.proto's
 * field numbers, not produced by this code. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "libct/criu/criu_rpc.h"
#include "libct/criu/pbwire.h"

#define BYTES(...) ((const uint8_t[]){__VA_ARGS__}), sizeof((const uint8_t[]){__VA_ARGS__})

static void assert_bytes(const struct ct_pb_buf *b, const uint8_t *want, size_t n)
{
	cr_assert(!b->failed);
	cr_assert_eq(b->len, n, "length %zu, want %zu", b->len, n);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(b->data[i], want[i], "byte %zu: %#x, want %#x", i, b->data[i],
			     want[i]);
}

Test(pbwire, varint_of_150_is_the_documented_example)
{
	struct ct_pb_buf b = {0};
	ct_pb_put_varint(&b, 1, 150);
	assert_bytes(&b, BYTES(0x08, 0x96, 0x01));
	ct_pb_buf_free(&b);
}

Test(pbwire, negative_int32_takes_ten_bytes)
{
	struct ct_pb_buf b = {0};
	ct_pb_put_int32(&b, 2, -1);
	assert_bytes(&b, BYTES(0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
	ct_pb_buf_free(&b);
}

Test(pbwire, string_and_nested_message)
{
	struct ct_pb_buf b = {0}, inner = {0};
	ct_pb_put_string(&inner, 1, "ab");
	ct_pb_put_message(&b, 23, &inner);
	/* key 23<<3|2 = 186 = 0xba 0x01; length 4; inner: 0x0a 0x02 'a' 'b' */
	assert_bytes(&b, BYTES(0xba, 0x01, 0x04, 0x0a, 0x02, 'a', 'b'));
	cr_expect_null(inner.data);
	ct_pb_buf_free(&b);
}

Test(pbwire, reader_gives_each_wire_type)
{
	const uint8_t in[] = {0x08, 0x96, 0x01, 0x12, 0x02, 'h', 'i', 0x1d, 1, 0, 0,
			      0,    0x21, 2,	0,    0,    0,	 0,   0,    0, 0};
	struct ct_pb_reader r = ct_pb_reader(in, sizeof(in));
	struct ct_pb_field f;
	cr_assert_eq(ct_pb_next(&r, &f), 1);
	cr_expect(f.number == 1 && f.wire == CT_PB_VARINT && f.varint == 150);
	cr_assert_eq(ct_pb_next(&r, &f), 1);
	cr_expect(f.number == 2 && f.wire == CT_PB_LEN && f.len == 2 && !memcmp(f.data, "hi", 2));
	cr_assert_eq(ct_pb_next(&r, &f), 1);
	cr_expect(f.number == 3 && f.wire == CT_PB_FIXED32 && f.varint == 1);
	cr_assert_eq(ct_pb_next(&r, &f), 1);
	cr_expect(f.number == 4 && f.wire == CT_PB_FIXED64 && f.varint == 2);
	cr_expect_eq(ct_pb_next(&r, &f), 0);
}

static int read_all(const uint8_t *in, size_t n)
{
	struct ct_pb_reader r = ct_pb_reader(in, n);
	struct ct_pb_field f;
	int rc;
	while ((rc = ct_pb_next(&r, &f)) > 0)
		;
	return rc;
}

Test(pbwire, malformed_inputs_are_refused)
{
	cr_expect_eq(read_all(BYTES(0x08)), -1, "varint cut short");
	cr_expect_eq(read_all(BYTES(0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				    0xff, 0x01)),
		     -1, "varint of eleven bytes");
	cr_expect_eq(read_all(BYTES(0x12, 0x05, 'a')), -1, "length past the end");
	cr_expect_eq(read_all(BYTES(0x00, 0x01)), -1, "field number 0");
	cr_expect_eq(read_all(BYTES(0x0b)), -1, "start group");
	cr_expect_eq(read_all(BYTES(0x0e, 0x00)), -1, "wire type 6");
	cr_expect_eq(read_all(BYTES(0x1d, 1, 0)), -1, "fixed32 cut short");
}

Test(criu_rpc, dump_request_bytes)
{
	struct ct_criu_opts o;
	ct_criu_opts_init(&o);
	o.images_dir_fd = 5;
	o.pid = 300;
	o.leave_running = true;
	o.root = "/r";
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_opts_add_ext_mnt(&o, "/m", "/m", &err), 0);
	struct ct_criu_req req = {.type = CT_CRIU_DUMP, .opts = &o};
	struct ct_pb_buf b = {0};
	ct_criu_req_encode(&req, &b);
	/* type=1; opts { images_dir_fd=5; pid=300 (0xac 0x02); leave_running; root "/r";
	 * ext_mnt { key "/m" val "/m" } } */
	assert_bytes(&b, BYTES(0x08, 0x01, 0x12, 22, 0x08, 0x05, 0x10, 0xac, 0x02, 0x18, 0x01, 0x6a,
			       0x02, '/', 'r', 0xba, 0x01, 0x08, 0x0a, 0x02, '/', 'm', 0x12, 0x02,
			       '/', 'm'));
	ct_pb_buf_free(&b);
}

Test(criu_rpc, notify_reply_bytes)
{
	struct ct_criu_req req = {
		.type = CT_CRIU_NOTIFY, .has_notify_success = true, .notify_success = true};
	struct ct_pb_buf b = {0};
	ct_criu_req_encode(&req, &b);
	assert_bytes(&b, BYTES(0x08, 0x06, 0x18, 0x01));
	ct_pb_buf_free(&b);
}

Test(criu_rpc, inherit_fd_and_cg_root_without_ctrl)
{
	struct ct_criu_opts o;
	ct_criu_opts_init(&o);
	o.images_dir_fd = 3;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_opts_add_inherit_fd(&o, "pipe:[7]", 9, &err), 0);
	cr_assert_eq(ct_criu_opts_add_cg_root(&o, "", "/c", &err), 0);
	struct ct_criu_req req = {.type = CT_CRIU_RESTORE, .opts = &o};
	struct ct_pb_buf b = {0};
	ct_criu_req_encode(&req, &b);
	/* cg_root (25): path (2) only; inherit_fd (27): key, fd */
	assert_bytes(&b, BYTES(0x08, 0x02, 0x12, 24, 0x08, 0x03, 0xca, 0x01, 0x04, 0x12, 0x02, '/',
			       'c', 0xda, 0x01, 0x0c, 0x0a, 0x08, 'p', 'i', 'p', 'e', ':', '[', '7',
			       ']', 0x10, 0x09));
	ct_pb_buf_free(&b);
}

Test(criu_rpc, full_list_is_an_error)
{
	struct ct_criu_opts o;
	ct_criu_opts_init(&o);
	struct ct_error err = {0};
	for (int i = 0; i < CT_CRIU_LIST_MAX; i++)
		cr_assert_eq(ct_criu_opts_add_external(&o, "x", &err), 0);
	cr_expect_eq(ct_criu_opts_add_external(&o, "x", &err), -1);
	cr_expect_eq(err.errnum, E2BIG);
}

Test(criu_rpc, restore_response)
{
	/* type=RESTORE, success=true, restore { pid=4242 } */
	const uint8_t in[] = {0x08, 0x02, 0x10, 0x01, 0x22, 0x03, 0x08, 0x92, 0x21};
	struct ct_criu_resp r;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_resp_decode(in, sizeof(in), &r, &err), 0, "%s", err.msg);
	cr_expect_eq(r.type, CT_CRIU_RESTORE);
	cr_expect(r.success);
	cr_expect_eq(r.restore_pid, 4242);
}

Test(criu_rpc, notify_response_with_unknown_fields)
{
	/* type=NOTIFY, success, notify { script "post-restore", pid 7 }, unknown field 99
	 * (varint), unknown field 12 (fixed32) */
	const uint8_t in[] = {0x08, 0x06, 0x10, 0x01, 0x2a, 0x10, 0x0a, 0x0c, 'p', 'o',
			      's',  't',  '-',	'r',  'e',  's',  't',	'o',  'r', 'e',
			      0x10, 0x07, 0x98, 0x06, 0x05, 0x65, 1,	2,    3,   4};
	struct ct_criu_resp r;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_resp_decode(in, sizeof(in), &r, &err), 0, "%s", err.msg);
	cr_expect_eq(r.type, CT_CRIU_NOTIFY);
	cr_expect_str_eq(r.notify_script, "post-restore");
	cr_expect_eq(r.notify_pid, 7);
}

Test(criu_rpc, failure_response_keeps_errno_and_message)
{
	const uint8_t in[] = {0x08, 0x01, 0x10, 0x00, 0x38, 0x03, 0x4a, 0x04, 'o', 'o', 'p', 's'};
	struct ct_criu_resp r;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_resp_decode(in, sizeof(in), &r, &err), 0, "%s", err.msg);
	cr_expect(!r.success);
	cr_expect_eq(r.cr_errno, 3);
	cr_expect_str_eq(r.cr_errmsg, "oops");
}

Test(criu_rpc, long_message_is_cut)
{
	uint8_t in[8 + 300];
	memcpy(in, BYTES(0x08, 0x01, 0x10, 0x00, 0x4a, 0xac, 0x02));
	memset(in + 7, 'x', 300);
	struct ct_criu_resp r;
	struct ct_error err = {0};
	cr_assert_eq(ct_criu_resp_decode(in, 7 + 300, &r, &err), 0, "%s", err.msg);
	cr_expect_eq(strlen(r.cr_errmsg), CT_CRIU_TEXT_MAX - 1);
}

Test(criu_rpc, response_without_required_fields_is_refused)
{
	struct ct_criu_resp r;
	struct ct_error err = {0};
	cr_expect_eq(ct_criu_resp_decode(BYTES(0x08, 0x01), &r, &err), -1);
	cr_expect_eq(err.errnum, EPROTO);
	cr_expect(strstr(err.msg, "criu response"), "%s", err.msg);
}

Test(criu_rpc, nested_message_must_be_length_delimited)
{
	struct ct_criu_resp r;
	struct ct_error err = {0};
	cr_expect_eq(ct_criu_resp_decode(BYTES(0x08, 0x01, 0x10, 0x01, 0x20, 0x05), &r, &err), -1);
	cr_expect_eq(ct_criu_resp_decode(BYTES(0x08, 0x01, 0x10, 0x01, 0x22, 0x02, 0x08), &r, &err),
		     -1, "a malformed nested message");
}
