/* The properties of the systemd driver's transient unit (libct/cgroup/systemd.c), marshalled
 * as StartTransientUnit and SetUnitProperties take them (a(sv)): what runc sets, the limits
 * systemd has properties for, and every org.systemd.property.* annotation. What systemd has
 * no property for is written to the unit's cgroup files by the driver (the cgroupfs way).
 * Pure: /proc/devices and the manager's version are read by the caller. */
#ifndef CT_CGROUP_SYSTEMD_PROPS_H
#define CT_CGROUP_SYSTEMD_PROPS_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/cgroup/systemd_unit.h"
#include "libct/dbus/writer.h"
#include "oci/config.h"

#define CT_SYSTEMD_ANNOTATION_PREFIX "org.systemd.property."

struct ct_systemd_props_in {
	const char *id;
	const char *token;		   /* the create's, ends the Description; may be NULL */
	const char *slice;		   /* Slice= (a scope) or Wants= (a slice) */
	bool is_slice;			   /* the unit is a slice: no Delegate, no PIDs */
	pid_t pid;			   /* PIDs=[pid] when > 0 */
	const struct oci_resources *res;   /* may be NULL */
	const oci_string_map *annotations; /* may be NULL */
	const char *proc_devices;	   /* /proc/devices' text, for a device rule by major */
	unsigned systemd_version;	   /* 0: unknown (taken as recent) */
};

/* Appends the unit's properties for creation (Description, Slice or Wants, Delegate, PIDs,
 * DefaultDependencies, the accounting ones, the resources, the annotations) as the
 * elements of an open a(sv) array; every Description of text (ctrun's, or an annotation's)
 * ends with the token. Fails naming the annotation or field. */
int ct_systemd_props_create(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w,
			    struct ct_error *err);
/* Whether a unit's Description ends with the create's token as ct_systemd_props_create puts
 * it there: false for an empty token. */
bool ct_systemd_description_marked(const char *description, const char *token);
/* The resources' properties alone (update). */
int ct_systemd_props_resources(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w,
			       struct ct_error *err);

/* What the properties of res need read from outside, so that the caller reads only that: the
 * manager's version (OOMPolicy, for memory.oom.group) and /proc/devices (the name of a
 * major that a device rule allows whole, in a strict device policy). */
struct ct_systemd_props_needs {
	bool version, proc_devices;
};
struct ct_systemd_props_needs ct_systemd_props_needs(const struct oci_resources *res);

/* cpu quota and period -> CPUQuotaPerSecUSec as runc computes it (rounded up to whole
 * 10 ms, as systemd keeps a percentage); UINT64_MAX (no limit) for a quota <= 0. */
uint64_t ct_systemd_cpu_quota_per_sec(int64_t quota, uint64_t period);

/* A cpuset list ("0-3,7") -> the bit mask AllowedCPUs takes (ay, little-endian bits): the
 * bytes into mask, *n their count. False when the list is malformed or above max bytes. */
bool ct_systemd_cpuset_mask(const char *list, uint8_t *mask, size_t max, size_t *n);

#endif
