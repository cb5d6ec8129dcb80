/* Go durations (see duration.h). */
#include "runtime/duration.h"

#include <ctype.h>
#include <string.h>

static const struct {
	const char *name;
	uint64_t ns;
} units[] = {
	/* longer names first: "ms" before "m" */
	{"ns", 1},	   {"us", 1000},	  {"\xc2\xb5s", 1000}, {"ms", 1000000},
	{"s", 1000000000}, {"m", 60000000000ULL}, {"h", 3600000000000ULL},
};

static int unit_ns(const char **p, uint64_t *ns)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t len = strlen(units[i].name);
		if (strncmp(*p, units[i].name, len) == 0) {
			*p += len;
			*ns = units[i].ns;
			return 0;
		}
	}
	return -1;
}

int ct_parse_duration(const char *text, uint64_t *ns)
{
	if (strcmp(text, "0") == 0) {
		*ns = 0;
		return 0;
	}
	const char *p = text;
	uint64_t total = 0;
	if (!*p)
		return -1;
	while (*p) {
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
		double value = 0, scale = 1;
		int digits = 0;
		for (; isdigit((unsigned char)*p); p++, digits++)
			value = value * 10 + (*p - '0');
		if (*p == '.')
			for (p++; isdigit((unsigned char)*p); p++, digits++)
				value += (*p - '0') * (scale /= 10);
		uint64_t unit;
		if (!digits || unit_ns(&p, &unit) < 0)
			return -1;
		double part = value * (double)unit;
		if (part >= 18446744073709551615.0 || total + (uint64_t)part < total)
			return -1;
		total += (uint64_t)part;
	}
	*ns = total;
	return 0;
}
