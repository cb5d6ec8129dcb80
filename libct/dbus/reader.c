/* Reading D-Bus values from a message that is not trusted (libct/dbus/message.h): every read
 * checks its bounds, alignment padding and the type the signature says comes next. */
#include <errno.h>
#include <string.h>

#include "libct/base/abspath.h"
#include "libct/dbus/message.h"
#include "libct/dbus/signature.h"

#define DEPTH_MAX (2 * CT_DBUS_NESTING_MAX) /* arrays, structs and variants together */

static int bad(struct ct_error *err, const struct ct_dbus_iter *it, const char *what)
{
	return ct_error_plain(err, EBADMSG, "malformed D-Bus message: %s at byte %zu", what,
			      it->pos);
}

/* The number of continuation bytes a lead byte announces, -1 for a byte that cannot lead. */
static int utf8_tail(unsigned char c)
{
	if (c < 0x80)
		return 0;
	if (c >= 0xc2 && c < 0xe0)
		return 1;
	if (c >= 0xe0 && c < 0xf0)
		return 2;
	if (c >= 0xf0 && c < 0xf5)
		return 3;
	return -1;
}

bool ct_dbus_utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = 0; i < len;) {
		int n = utf8_tail(s[i]);
		if (n < 0 || (size_t)n >= len - i)
			return false;
		unsigned cp = s[i] & (n ? 0x3fu >> n : 0x7fu);
		for (int k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return false;
		i += (size_t)n + 1;
	}
	return true;
}

/* dbus-specification: "[A-Z][a-z][0-9]_" only. */
static bool object_path_element_ok(const char *element, size_t len)
{
	return strspn(element, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
	       len;
}

bool ct_dbus_object_path_valid(const char *s)
{
	return ct_abspath_components_ok(s, object_path_element_ok);
}

static uint64_t load(const struct ct_dbus_iter *it, size_t size)
{
	const uint8_t *p = it->base + it->pos;
	uint64_t v = 0;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)p[it->big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

/* Moves to a multiple of align over zero padding, leaving room for need bytes. */
static int align_for(struct ct_dbus_iter *it, size_t align, size_t need, struct ct_error *err)
{
	size_t to = (it->pos + align - 1) / align * align;
	if (to > it->end || need > it->end - to)
		return bad(err, it, "value past the end");
	for (; it->pos < to; it->pos++)
		if (it->base[it->pos])
			return bad(err, it, "padding that is not zero");
	return 0;
}

static int fixed(struct ct_dbus_iter *it, size_t size, uint64_t *v, struct ct_error *err)
{
	if (align_for(it, size, size, err) < 0)
		return -1;
	*v = load(it, size);
	it->pos += size;
	return 0;
}

/* s, o: a u32 length, the bytes, a NUL; g: the same with a u8 length. */
static int text(struct ct_dbus_iter *it, char type, const char **out, struct ct_error *err)
{
	uint64_t len;
	if (type == 'g') {
		if (align_for(it, 1, 1, err) < 0)
			return -1;
		len = it->base[it->pos++];
	} else if (fixed(it, 4, &len, err) < 0) {
		return -1;
	}
	if (len >= it->end - it->pos)
		return bad(err, it, "string past the end");
	const char *s = (const char *)it->base + it->pos;
	if (s[len] != '\0' || memchr(s, '\0', len))
		return bad(err, it, "string not ended by its only NUL");
	if (!ct_dbus_utf8_valid(s, len))
		return bad(err, it, "string that is not UTF-8");
	if (type == 'o' && !ct_dbus_object_path_valid(s))
		return bad(err, it, "invalid object path");
	if (type == 'g' && !ct_dbus_signature_valid_n(s, len))
		return bad(err, it, "invalid signature");
	it->pos += len + 1;
	*out = s;
	return 0;
}

static int basic(struct ct_dbus_iter *it, char type, union ct_dbus_value *v, struct ct_error *err)
{
	if (type == 's' || type == 'o' || type == 'g')
		return text(it, type, &v->s, err);
	uint64_t raw;
	if (fixed(it, ct_dbus_fixed_size(type), &raw, err) < 0)
		return -1;
	switch (type) {
	case 'y':
		v->y = (uint8_t)raw;
		break;
	case 'b':
		if (raw > 1)
			return bad(err, it, "boolean that is neither 0 nor 1");
		v->b = raw == 1;
		break;
	case 'n':
	case 'q':
		v->q = (uint16_t)raw;
		break;
	case 'i':
	case 'u':
	case 'h':
		v->u = (uint32_t)raw;
		break;
	default: /* x t d */
		v->t = raw;
		break;
	}
	return 0;
}

char ct_dbus_iter_type(const struct ct_dbus_iter *it)
{
	if (it->array)
		return it->pos < it->end ? it->sig[0] : 0;
	return it->sig_pos < it->sig_len ? it->sig[it->sig_pos] : 0;
}

/* The signature of the next value, its length in *len. */
static const char *next_sig(const struct ct_dbus_iter *it, size_t *len)
{
	const char *s = it->array ? it->sig : it->sig + it->sig_pos;
	size_t avail = it->array ? it->sig_len : it->sig_len - it->sig_pos;
	*len = ct_dbus_complete_type_len(s, avail);
	return s;
}

static void advance_sig(struct ct_dbus_iter *it, size_t len)
{
	if (!it->array)
		it->sig_pos += len;
}

int ct_dbus_iter_get(struct ct_dbus_iter *it, char type, union ct_dbus_value *v,
		     struct ct_error *err)
{
	char next = ct_dbus_iter_type(it);
	if (!next)
		return bad(err, it, "fewer values than expected");
	if (next != type || !ct_dbus_type_is_basic(type))
		return ct_error_plain(err, EBADMSG,
				      "D-Bus value of type '%c' where '%c' was expected", next,
				      type);
	if (basic(it, type, v, err) < 0)
		return -1;
	advance_sig(it, 1);
	return 0;
}

static int enter_array(struct ct_dbus_iter *it, struct ct_dbus_iter *sub, const char *sig,
		       size_t len, struct ct_error *err)
{
	uint64_t n;
	if (fixed(it, 4, &n, err) < 0)
		return -1;
	if (n > CT_DBUS_ARRAY_MAX)
		return bad(err, it, "array longer than 64 MiB");
	if (align_for(it, ct_dbus_type_align(sig[1]), 0, err) < 0)
		return -1;
	if (n > it->end - it->pos)
		return bad(err, it, "array past the end");
	*sub = *it;
	sub->end = it->pos + n;
	sub->sig = sig + 1;
	sub->sig_len = len - 1;
	sub->sig_pos = 0;
	sub->array = true;
	it->pos += n;
	return 0;
}

static int enter_variant(struct ct_dbus_iter *it, struct ct_dbus_iter *sub, struct ct_error *err)
{
	const char *vsig;
	if (text(it, 'g', &vsig, err) < 0)
		return -1;
	size_t len = strlen(vsig);
	if (!len || ct_dbus_complete_type_len(vsig, len) != len)
		return bad(err, it, "variant signature that is not one complete type");
	*sub = *it;
	sub->sig = vsig;
	sub->sig_len = len;
	sub->sig_pos = 0;
	sub->array = false;
	return 0;
}

static int enter_struct(struct ct_dbus_iter *it, struct ct_dbus_iter *sub, const char *sig,
			size_t len, struct ct_error *err)
{
	if (align_for(it, 8, 0, err) < 0)
		return -1;
	*sub = *it;
	sub->sig = sig + 1;
	sub->sig_len = len - 2;
	sub->sig_pos = 0;
	sub->array = false;
	return 0;
}

/* Passes over everything sub holds, then moves it to after it. */
static int finish(struct ct_dbus_iter *it, const struct ct_dbus_iter *sub, struct ct_error *err)
{
	struct ct_dbus_iter walk = *sub;
	while (ct_dbus_iter_type(&walk))
		if (ct_dbus_iter_skip(&walk, err) < 0)
			return -1;
	if (walk.array && walk.pos != walk.end)
		return bad(err, &walk, "array elements that do not fill it");
	if (!walk.array)
		it->pos = walk.pos;
	return 0;
}

int ct_dbus_iter_enter(struct ct_dbus_iter *it, struct ct_dbus_iter *sub, struct ct_error *err)
{
	size_t len;
	const char *sig = next_sig(it, &len);
	char type = ct_dbus_iter_type(it);
	if (!type)
		return bad(err, it, "fewer values than expected");
	if (it->depth + 1 > DEPTH_MAX)
		return bad(err, it, "values nested too deep");
	int rc;
	if (type == 'a')
		rc = enter_array(it, sub, sig, len, err);
	else if (type == 'v')
		rc = enter_variant(it, sub, err);
	else if (type == '(' || type == '{')
		rc = enter_struct(it, sub, sig, len, err);
	else
		return ct_error_plain(err, EBADMSG, "D-Bus value of type '%c' is not a container",
				      type);
	if (rc < 0)
		return -1;
	sub->depth = it->depth + 1;
	if (finish(it, sub, err) < 0)
		return -1;
	advance_sig(it, len);
	return 0;
}

int ct_dbus_iter_skip(struct ct_dbus_iter *it, struct ct_error *err)
{
	char type = ct_dbus_iter_type(it);
	if (ct_dbus_type_is_basic(type)) {
		union ct_dbus_value v;
		return ct_dbus_iter_get(it, type, &v, err);
	}
	struct ct_dbus_iter sub;
	return ct_dbus_iter_enter(it, &sub, err);
}

void ct_dbus_iter_body(struct ct_dbus_iter *it, const struct ct_dbus_msg *m)
{
	*it = (struct ct_dbus_iter){
		.base = m->body,
		.pos = 0,
		.end = m->body_len,
		.big_endian = m->big_endian,
		.sig = m->signature,
		.sig_len = strlen(m->signature),
	};
}

const char *ct_dbus_iter_signature(const struct ct_dbus_iter *it, char *buf, size_t size)
{
	if (it->sig_len >= size)
		return "";
	memcpy(buf, it->sig, it->sig_len);
	buf[it->sig_len] = '\0';
	return buf;
}
