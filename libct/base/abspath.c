#include "libct/base/abspath.h"

#include <string.h>

bool ct_abspath_components_ok(const char *path,
			      bool (*component_ok)(const char *component, size_t len))
{
	if (path[0] != '/')
		return false;
	if (path[1] == '\0')
		return true;
	for (const char *p = path + 1;; p++) {
		size_t n = strcspn(p, "/");
		if (n == 0 || !component_ok(p, n))
			return false;
		p += n;
		if (*p == '\0')
			return true;
	}
}
