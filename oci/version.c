/* ociVersion: ctrun implements 1.x; any 1.x.y, newer minors included, is accepted because
 * refusing a newer minor breaks real users (config.md#specification-version). */
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "oci/config.h"

/* A SemVer numeric identifier: digits, no leading zero unless it is "0". */
static const char *parse_number(const char *s, unsigned long *value)
{
	if (!isdigit((unsigned char)*s) || (s[0] == '0' && isdigit((unsigned char)s[1])))
		return NULL;
	unsigned long v = 0;
	for (; isdigit((unsigned char)*s); s++) {
		if (v > (ULONG_MAX - 9) / 10)
			return NULL; /* would wrap: 18446744073709551617 is not 1 */
		v = v * 10 + (unsigned long)(*s - '0');
	}
	*value = v;
	return s;
}

/* Dot-separated identifiers of [0-9A-Za-z-], none empty (SemVer pre-release/build). */
static bool valid_identifiers(const char *s, const char *end)
{
	if (s == end)
		return false;
	bool empty = true;
	for (; s < end; s++) {
		if (*s == '.') {
			if (empty)
				return false;
			empty = true;
		} else if (isalnum((unsigned char)*s) || *s == '-') {
			empty = false;
		} else {
			return false;
		}
	}
	return !empty;
}

bool oci_version_supported(const char *version)
{
	unsigned long major, minor, patch;
	const char *s = parse_number(version, &major);
	if (!s || *s++ != '.' || !(s = parse_number(s, &minor)) || *s++ != '.' ||
	    !(s = parse_number(s, &patch)))
		return false;
	if (major != 1)
		return false;
	const char *build = strchr(s, '+');
	const char *end = build ? build : s + strlen(s);
	if (*s == '-' && !valid_identifiers(s + 1, end))
		return false;
	if (*s != '-' && s != end)
		return false;
	return !build || valid_identifiers(build + 1, build + strlen(build));
}
