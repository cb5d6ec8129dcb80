/* The schema's string patterns matched by hand (oci/string_rules.h). */
#include "oci/string_rules.h"

#include <string.h>

/* Every character of s is in set (true for ""). */
static bool only_of(const char *s, const char *set)
{
	return s[strspn(s, set)] == '\0';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool oci_is_rlimit_name(const char *s)
{
	size_t prefix = strlen("RLIMIT_");
	/* the name is looked at only once the prefix matched: s may be shorter than it */
	return strncmp(s, "RLIMIT_", prefix) == 0 && s[prefix] &&
	       only_of(s + prefix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
}

bool oci_is_cpu_list(const char *s)
{
	return only_of(s, "0123456789, -");
}

bool oci_is_page_size(const char *s)
{
	if (*s < '1' || *s > '9')
		return false;
	while (is_digit(*s))
		s++;
	return (*s == 'K' || *s == 'M' || *s == 'G') && strcmp(s + 1, "B") == 0;
}

bool oci_is_mem_bw_schema(const char *s)
{
	return strncmp(s, "MB:", strlen("MB:")) == 0 && !strchr(s, '\n');
}

bool oci_is_device_cgroup_type(const char *s)
{
	return (*s == 'a' || *s == 'b' || *s == 'c') && s[1] == '\0';
}

bool oci_is_device_cgroup_access(const char *s)
{
	return only_of(s, "rwm");
}
