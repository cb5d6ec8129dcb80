/* The walk over the components of an absolute path that the path checks share (a normal
 * filesystem path, a D-Bus object path). Pure. */
#ifndef CT_BASE_ABSPATH_H
#define CT_BASE_ABSPATH_H

#include <stdbool.h>
#include <stddef.h>

/* True when path is "/", or '/' then components joined by single '/' with no trailing '/',
 * none empty and each accepted by component_ok (given its first byte and its length). */
bool ct_abspath_components_ok(const char *path,
			      bool (*component_ok)(const char *component, size_t len));

#endif
