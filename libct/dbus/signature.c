/* D-Bus type signatures (libct/dbus/signature.h). */
#include "libct/dbus/signature.h"

#include <string.h>

bool ct_dbus_type_is_basic(char c)
{
	return c && strchr("ybnqiuxtdsogh", c) != NULL;
}

size_t ct_dbus_type_align(char c)
{
	switch (c) {
	case 'y':
	case 'g':
	case 'v':
		return 1;
	case 'n':
	case 'q':
		return 2;
	case 'b':
	case 'i':
	case 'u':
	case 's':
	case 'o':
	case 'a':
	case 'h':
		return 4;
	case 'x':
	case 't':
	case 'd':
	case '(':
	case '{':
		return 8;
	default:
		return 0;
	}
}

size_t ct_dbus_fixed_size(char c)
{
	if (!c || !strchr("ybnqiuhxtd", c))
		return 0;
	return c == 'y' ? 1 : ct_dbus_type_align(c);
}

struct depth {
	int arrays, structs;
};

static size_t type_len(const char *sig, size_t len, struct depth d, bool in_array);

/* "(" complete types ")" or, as an array's element, "{" basic complete "}". */
static size_t container_len(const char *sig, size_t len, struct depth d)
{
	char close = sig[0] == '(' ? ')' : '}';
	if (++d.structs > CT_DBUS_NESTING_MAX)
		return 0;
	size_t pos = 1, members = 0;
	while (pos < len && sig[pos] != close) {
		if (close == '}' && members == 0 && !ct_dbus_type_is_basic(sig[pos]))
			return 0;
		size_t n = type_len(sig + pos, len - pos, d, false);
		if (!n)
			return 0;
		pos += n;
		members++;
	}
	if (pos >= len || members == 0 || (close == '}' && members != 2))
		return 0;
	return pos + 1;
}

static size_t type_len(const char *sig, size_t len, struct depth d, bool in_array)
{
	if (!len)
		return 0;
	char c = sig[0];
	if (ct_dbus_type_is_basic(c) || c == 'v')
		return 1;
	if (c == 'a') {
		if (++d.arrays > CT_DBUS_NESTING_MAX)
			return 0;
		size_t n = type_len(sig + 1, len - 1, d, true);
		return n ? n + 1 : 0;
	}
	if (c == '(' || (c == '{' && in_array))
		return container_len(sig, len, d);
	return 0;
}

size_t ct_dbus_complete_type_len(const char *sig, size_t len)
{
	return type_len(sig, len, (struct depth){0, 0}, false);
}

bool ct_dbus_signature_valid_n(const char *sig, size_t len)
{
	if (len > CT_DBUS_SIGNATURE_MAX)
		return false;
	for (size_t pos = 0; pos < len;) {
		size_t n = ct_dbus_complete_type_len(sig + pos, len - pos);
		if (!n)
			return false;
		pos += n;
	}
	return true;
}

bool ct_dbus_signature_valid(const char *sig)
{
	return ct_dbus_signature_valid_n(sig, strlen(sig));
}

bool ct_dbus_signature_single(const char *sig)
{
	size_t len = strlen(sig);
	return len && len <= CT_DBUS_SIGNATURE_MAX && ct_dbus_complete_type_len(sig, len) == len;
}
