/* D-Bus server addresses (libct/dbus/address.h). */
#include "libct/dbus/address.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/hex.h"

/* value[0..len) with %XX decoded into out (size bytes, NUL-terminated); *n its length.
 * False on a bad escape, a NUL, or no room. */
static bool unescape(const char *value, size_t len, char *out, size_t size, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < len; i++) {
		int c = (unsigned char)value[i];
		if (c == '%') {
			if (i + 2 >= len)
				return false;
			int hi = ct_hex_digit(value[i + 1]), lo = ct_hex_digit(value[i + 2]);
			if (hi < 0 || lo < 0)
				return false;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0 || *n + 1 >= size)
			return false;
		out[(*n)++] = (char)c;
	}
	out[*n] = '\0';
	return true;
}

/* One "unix:key=value,..." address into sa; false when it is not such a socket. */
static bool parse_one(const char *addr, size_t len, struct sockaddr_un *sa, socklen_t *salen)
{
	if (len < 5 || strncmp(addr, "unix:", 5) != 0)
		return false;
	for (const char *p = addr + 5, *end = addr + len; p < end;) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t klen = comma ? (size_t)(comma - p) : (size_t)(end - p);
		const char *eq = memchr(p, '=', klen);
		bool abstract = eq && (size_t)(eq - p) == 8 && strncmp(p, "abstract", 8) == 0;
		bool path = eq && (size_t)(eq - p) == 4 && strncmp(p, "path", 4) == 0;
		size_t n;
		char *dst = sa->sun_path + abstract;
		if ((path || abstract) &&
		    unescape(eq + 1, klen - (size_t)(eq + 1 - p), dst,
			     sizeof(sa->sun_path) - abstract, &n) &&
		    n > 0) {
			sa->sun_family = AF_UNIX;
			if (abstract)
				sa->sun_path[0] = '\0';
			*salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + abstract + n +
					     !abstract);
			return true;
		}
		p += klen + 1;
	}
	return false;
}

int ct_dbus_address_parse(const char *list, struct sockaddr_un *sa, socklen_t *len,
			  struct ct_error *err)
{
	memset(sa, 0, sizeof(*sa));
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ";");
		if (parse_one(p, n, sa, len))
			return 0;
		p += n + (p[n] == ';');
	}
	return ct_error_plain(err, EAFNOSUPPORT,
			      "D-Bus address \"%s\": no unix socket (path= or abstract=) in it",
			      list);
}

int ct_dbus_bus_address(bool user_bus, char **out, struct ct_error *err)
{
	const char *env = getenv(user_bus ? "DBUS_SESSION_BUS_ADDRESS" : "DBUS_SYSTEM_BUS_ADDRESS");
	if (env && *env) {
		*out = strdup(env);
	} else if (!user_bus) {
		*out = strdup(CT_DBUS_SYSTEM_BUS_DEFAULT);
	} else {
		const char *runtime = getenv("XDG_RUNTIME_DIR");
		if (!runtime || !*runtime)
			return ct_error_plain(err, ENOENT,
					      "no user D-Bus: neither DBUS_SESSION_BUS_ADDRESS "
					      "nor XDG_RUNTIME_DIR is set");
		if (asprintf(out, "unix:path=%s/bus", runtime) < 0)
			*out = NULL;
	}
	return *out ? 0 : ct_error_sys(err, ENOMEM, "D-Bus address");
}
