/* The kernel's flag for each namespace type of config.json (config-linux.md#namespaces), as
 * the plan's unshare flags and every setns() of the parent, the joiner and the init use it. */
#ifndef CT_NAMESPACES_H
#define CT_NAMESPACES_H

#include "oci/config.h"

/* CLONE_NEW* of each namespace type, also setns()'s nstype. */
extern const unsigned long ct_ns_clone_flags[OCI_NS_COUNT];

#endif
