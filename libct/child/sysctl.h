/* linux.sysctl (config-linux.md#sysctl): only keys that belong to a namespace the container
 * has of its own may be set, since anything else would change the host. Pure helpers, checked
 * in the parent before the clone; the child only writes. */
#ifndef CT_SYSCTL_H
#define CT_SYSCTL_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/base/error.h"

/* The namespaces a key may need, as given by linux.namespaces (new or joined by path). */
struct ct_sysctl_namespaces {
	bool ipc, net, uts;
};

/* 0 when key may be set in a container with those namespaces; -1 with err naming the key
 * (as .linux.sysctl["key"]) otherwise. Keys use '.' or '/' between components. */
int ct_sysctl_check(const char *key, const struct ct_sysctl_namespaces *ns, struct ct_error *err);

/* "/proc/sys/<key with '.' turned into '/'>" in buf; -1 when it does not fit. */
int ct_sysctl_path(const char *key, char *buf, size_t size);

#endif
