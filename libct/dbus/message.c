/* D-Bus messages as bytes (libct/dbus/message.h): the header built for what ctrun sends, and
 * checked, field by field, for what it receives. */
#include "libct/dbus/message.h"

#include <errno.h>
#include <string.h>

#include "libct/dbus/signature.h"

enum field_code {
	FIELD_PATH = 1,
	FIELD_INTERFACE,
	FIELD_MEMBER,
	FIELD_ERROR_NAME,
	FIELD_REPLY_SERIAL,
	FIELD_DESTINATION,
	FIELD_SENDER,
	FIELD_SIGNATURE,
	FIELD_UNIX_FDS,
};

/* The type each header field must have, by code; 0 for codes the reader passes over. */
static char field_type(uint8_t code)
{
	static const char types[] = {
		[FIELD_PATH] = 'o',	  [FIELD_INTERFACE] = 's',    [FIELD_MEMBER] = 's',
		[FIELD_ERROR_NAME] = 's', [FIELD_REPLY_SERIAL] = 'u', [FIELD_DESTINATION] = 's',
		[FIELD_SENDER] = 's',	  [FIELD_SIGNATURE] = 'g',    [FIELD_UNIX_FDS] = 'u',
	};
	return code < sizeof(types) ? types[code] : 0;
}

static void put_field(struct ct_dbus_writer *w, uint8_t code, const char *s)
{
	if (!s)
		return;
	char type[2] = {field_type(code), '\0'};
	ct_dbus_struct_open(w);
	ct_dbus_put_byte(w, code);
	ct_dbus_variant_open(w, type);
	if (type[0] == 'g')
		ct_dbus_put_signature(w, s);
	else
		ct_dbus_put_string(w, s);
}

static void put_u32_field(struct ct_dbus_writer *w, uint8_t code, uint32_t v)
{
	ct_dbus_struct_open(w);
	ct_dbus_put_byte(w, code);
	ct_dbus_variant_open(w, "u");
	ct_dbus_put_u32(w, v);
}

int ct_dbus_message_build(const struct ct_dbus_msg *m, const struct ct_dbus_writer *body,
			  struct ct_dbus_writer *out, struct ct_error *err)
{
	const char *sig = m->signature ? m->signature : "";
	size_t body_len = body ? body->len : 0;
	if (!ct_dbus_signature_valid(sig))
		return ct_error_plain(err, EINVAL, "D-Bus signature \"%s\" is not valid", sig);
	if ((body && body->oom) || body_len > CT_DBUS_MESSAGE_MAX / 2)
		return ct_error_sys(err, ENOMEM, "build a D-Bus message");
	ct_dbus_writer_init(out);
	ct_dbus_put_byte(out, 'l');
	ct_dbus_put_byte(out, m->type);
	ct_dbus_put_byte(out, m->flags);
	ct_dbus_put_byte(out, 1);
	ct_dbus_put_u32(out, (uint32_t)body_len);
	ct_dbus_put_u32(out, m->serial);
	struct ct_dbus_array_mark fields = ct_dbus_array_open(out, '(');
	put_field(out, FIELD_PATH, m->path);
	put_field(out, FIELD_INTERFACE, m->interface);
	put_field(out, FIELD_MEMBER, m->member);
	put_field(out, FIELD_ERROR_NAME, m->error_name);
	if (m->has_reply_serial)
		put_u32_field(out, FIELD_REPLY_SERIAL, m->reply_serial);
	put_field(out, FIELD_DESTINATION, m->destination);
	if (*sig)
		put_field(out, FIELD_SIGNATURE, sig);
	ct_dbus_array_close(out, fields);
	ct_dbus_pad(out, 8);
	if (body_len)
		ct_dbus_put_raw(out, body->buf, body_len);
	if (out->oom) {
		ct_dbus_writer_free(out);
		return ct_error_sys(err, ENOMEM, "build a D-Bus message");
	}
	return 0;
}

static uint32_t load32(const uint8_t *p, bool big_endian)
{
	return big_endian
		       ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		       : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int bad_header(struct ct_error *err, const char *what)
{
	return ct_error_plain(err, EBADMSG, "malformed D-Bus message: %s", what);
}

int ct_dbus_message_size(const uint8_t *buf, size_t *size, struct ct_error *err)
{
	if (buf[0] != 'l' && buf[0] != 'B')
		return bad_header(err, "unknown byte order");
	if (buf[3] != 1)
		return bad_header(err, "protocol version is not 1");
	bool be = buf[0] == 'B';
	uint64_t body = load32(buf + 4, be), fields = load32(buf + 12, be);
	uint64_t header = (CT_DBUS_FIXED_HEADER + fields + 7) / 8 * 8;
	if (fields > CT_DBUS_ARRAY_MAX || header + body > CT_DBUS_MESSAGE_MAX)
		return bad_header(err, "longer than the maximum of 128 MiB");
	*size = (size_t)(header + body);
	return 0;
}

/* The header field whose code is at `it`, into m. */
static int read_field(struct ct_dbus_iter *fields, struct ct_dbus_msg *m, struct ct_error *err)
{
	struct ct_dbus_iter entry, value;
	union ct_dbus_value code, v;
	if (ct_dbus_iter_enter(fields, &entry, err) < 0 ||
	    ct_dbus_iter_get(&entry, 'y', &code, err) < 0 ||
	    ct_dbus_iter_enter(&entry, &value, err) < 0)
		return -1;
	char want = field_type(code.y);
	if (!want)
		return 0; /* a field of a later version of the protocol */
	if (value.sig_len != 1 || value.sig[0] != want)
		return ct_error_plain(
			err, EBADMSG,
			"malformed D-Bus message: header field %u is not of type '%c'", code.y,
			want);
	if (ct_dbus_iter_get(&value, want, &v, err) < 0)
		return -1;
	const char **strings[] = {
		[FIELD_PATH] = &m->path,
		[FIELD_INTERFACE] = &m->interface,
		[FIELD_MEMBER] = &m->member,
		[FIELD_ERROR_NAME] = &m->error_name,
		[FIELD_DESTINATION] = &m->destination,
		[FIELD_SENDER] = &m->sender,
		[FIELD_SIGNATURE] = &m->signature,
	};
	if (code.y == FIELD_REPLY_SERIAL) {
		m->reply_serial = v.u;
		m->has_reply_serial = true;
	} else if (code.y == FIELD_UNIX_FDS) {
		m->unix_fds = v.u;
	} else {
		*strings[code.y] = v.s;
	}
	return 0;
}

/* What each type of message must carry (the specification's "Message Types"). */
static int check_required(const struct ct_dbus_msg *m, struct ct_error *err)
{
	bool ok;
	switch (m->type) {
	case CT_DBUS_METHOD_CALL:
		ok = m->path && m->member;
		break;
	case CT_DBUS_METHOD_RETURN:
		ok = m->has_reply_serial;
		break;
	case CT_DBUS_ERROR:
		ok = m->has_reply_serial && m->error_name;
		break;
	case CT_DBUS_SIGNAL:
		ok = m->path && m->interface && m->member;
		break;
	default:
		return bad_header(err, "unknown message type");
	}
	return ok ? 0 : bad_header(err, "a header field its type requires is missing");
}

static int read_header(const uint8_t *buf, size_t header_end, struct ct_dbus_msg *m,
		       struct ct_error *err)
{
	struct ct_dbus_iter it = {
		.base = buf,
		.pos = 12,
		.end = header_end,
		.big_endian = m->big_endian,
		.sig = "a(yv)",
		.sig_len = 5,
	};
	struct ct_dbus_iter fields;
	if (ct_dbus_iter_enter(&it, &fields, err) < 0)
		return -1;
	while (ct_dbus_iter_type(&fields))
		if (read_field(&fields, m, err) < 0)
			return -1;
	for (size_t i = it.pos; i < header_end; i++)
		if (buf[i])
			return bad_header(err, "padding after the header that is not zero");
	return 0;
}

int ct_dbus_message_parse(const uint8_t *buf, size_t len, struct ct_dbus_msg *m,
			  struct ct_error *err)
{
	size_t size;
	memset(m, 0, sizeof(*m));
	if (len < CT_DBUS_FIXED_HEADER)
		return bad_header(err, "shorter than its fixed header");
	if (ct_dbus_message_size(buf, &size, err) < 0)
		return -1;
	if (size != len)
		return bad_header(err, "its lengths do not add up to its size");
	m->big_endian = buf[0] == 'B';
	m->type = buf[1];
	m->flags = buf[2];
	m->serial = load32(buf + 8, m->big_endian);
	if (!m->serial)
		return bad_header(err, "serial 0");
	m->body_len = load32(buf + 4, m->big_endian);
	size_t header_end = len - m->body_len;
	if (read_header(buf, header_end, m, err) < 0 || check_required(m, err) < 0)
		return -1;
	if (!m->signature)
		m->signature = "";
	m->body = buf + header_end;
	struct ct_dbus_iter body;
	ct_dbus_iter_body(&body, m);
	while (ct_dbus_iter_type(&body))
		if (ct_dbus_iter_skip(&body, err) < 0)
			return -1;
	if (body.pos != body.end)
		return bad_header(err, "bytes after the values its signature lists");
	return 0;
}
