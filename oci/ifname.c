/* Interface names (oci/ifname.h). */
#include "oci/ifname.h"

#include <net/if.h>
#include <string.h>

/* The kernel's isspace: the C locale's six, nothing beyond ASCII. */
static bool has_space(const char *s)
{
	return strpbrk(s, " \t\n\v\f\r") != NULL;
}

/* What dev_valid_name refuses, '%' aside. */
static const char *base_problem(const char *name)
{
	if (!*name)
		return "an empty name";
	if (strlen(name) >= IFNAMSIZ)
		return "longer than 15 bytes (IFNAMSIZ)";
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return "\".\" and \"..\" are not names";
	if (strchr(name, '/') || strchr(name, ':'))
		return "holds '/' or ':'";
	if (has_space(name))
		return "holds whitespace";
	return NULL;
}

const char *oci_ifname_problem(const char *name)
{
	const char *why = base_problem(name);
	if (!why && strchr(name, '%'))
		return "holds '%', which no existing device's name has";
	return why;
}

bool oci_ifname_is_template(const char *name)
{
	return strstr(name, "%d") != NULL;
}

/* dev_alloc_name: one '%', followed by 'd'. */
const char *oci_ifname_new_problem(const char *name)
{
	const char *why = base_problem(name);
	const char *pct = strchr(name, '%');
	if (!why && pct && (pct[1] != 'd' || strchr(pct + 2, '%')))
		return "a '%' other than one \"%d\"";
	return why;
}
