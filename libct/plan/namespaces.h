/* The kernel's flag for each namespace type of config.json (config-linux.md#namespaces), as
 * the plan's unshare flags and every setns() of the parent, the joiner and the init use it,
 * and the one order every joiner of namespaces goes in. */
#ifndef CT_NAMESPACES_H
#define CT_NAMESPACES_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/base/error.h"
#include "oci/config.h"

/* CLONE_NEW* of each namespace type, also setns()'s nstype. */
extern const unsigned long ct_ns_clone_flags[OCI_NS_COUNT];

/* A row of the join order: the user namespace first (it owns the others), the mount
 * namespace after the others (their /proc paths stay reachable until then); pid and time
 * act on children only, so their joiner is the parent of the process that lives in them. */
struct ct_ns_join_row {
	enum oci_ns_type type;
	const char *proc_name; /* /proc/PID/ns/<proc_name> */
	const char *self_name; /* the caller's own to compare with: "pid_for_children" */
	bool for_children;
};

extern const struct ct_ns_join_row ct_ns_join_order[];
extern const size_t ct_ns_join_count;

/* setns() into fds[type] for each type of flags (CLONE_NEW*) whose fd is open, in the join
 * order; with close_after, each joined fd is closed and set to -1. */
int ct_ns_join_each(int fds[OCI_NS_COUNT], unsigned long flags, bool close_after,
		    struct ct_error *err);

#endif
