#include "oci/jsonpath.h"

#include <stdbool.h>
#include <stdio.h>

#include "libct/base/pathbuf.h"

static bool is_identifier(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

size_t oci_path_append(char *buf, size_t size, size_t len, const struct oci_path_step *step)
{
	if (!step->name) {
		char index[32];
		snprintf(index, sizeof(index), "[%zu]", step->index);
		return ct_buf_put(buf, size, len, index);
	}
	bool plain = is_identifier(step->name);
	len = ct_buf_put(buf, size, len, plain ? "." : "[\"");
	len = ct_buf_put(buf, size, len, step->name);
	return ct_buf_put(buf, size, len, plain ? "" : "\"]");
}
