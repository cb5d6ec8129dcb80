/* The systemd manager's D-Bus calls the systemd driver makes (org.freedesktop.systemd1). */
#ifndef CT_CGROUP_SYSTEMD_BUS_H
#define CT_CGROUP_SYSTEMD_BUS_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/cgroup/systemd_unit.h"
#include "libct/dbus/conn.h"

#define CT_SYSTEMD_TIMEOUT_MS 30000 /* a call, and a job (runc's 30 s) */

/* The system bus (the caller's own when user_bus); with jobs, the manager's JobRemoved
 * signals matched, for the calls that queue a job (start, stop). */
int ct_systemd_connect(struct ct_dbus_conn *c, bool user_bus, bool jobs, struct ct_error *err);

/* The manager's major version (252 of "252.30-1~deb12u2"), 0 when it cannot be read. */
unsigned ct_systemd_version(struct ct_dbus_conn *c);

/* A start, and what the caller learns of it. */
struct ct_systemd_start {
	/* out: OURS when systemd took the start: the unit is then the caller's to stop, even
	 * when the call fails (its job failed, or did not end in time and may still bring the
	 * unit up); NOT_OURS when systemd refused it; IF_MARKED when its answer was lost */
	enum ct_systemd_claim claim;
	/* told as soon as systemd took the start, before its job is waited for; its failure
	 * fails the start (NULL: nothing) */
	int (*on_taken)(void *arg, struct ct_error *err);
	void *arg;
};

/* StartTransientUnit(name, "fail", props) and the wait for its job to end "done". props is
 * the body's a(sv) of properties; the empty aux list is added here. A unit of that name
 * that exists fails with systemd's message ("Unit x.scope already exists."), unless it is
 * failed or inactive: then it is reset and the start tried once more, as runc does. */
int ct_systemd_start_unit(struct ct_dbus_conn *c, const char *name,
			  const struct ct_dbus_writer *props, struct ct_systemd_start *s,
			  struct ct_error *err);
/* KillUnit(name, "all", sig): systemd signals every process of the unit (it knows its
 * cgroup when the caller cannot learn it). */
int ct_systemd_kill_unit(struct ct_dbus_conn *c, const char *name, int sig, struct ct_error *err);
/* StopUnit and the wait for its job, then ResetFailedUnit; a unit systemd does not know
 * (gone with its last process) is no error. */
int ct_systemd_stop_unit(struct ct_dbus_conn *c, const char *name, struct ct_error *err);
/* SetUnitProperties(name, runtime, props). */
int ct_systemd_set_properties(struct ct_dbus_conn *c, const char *name,
			      const struct ct_dbus_writer *props, struct ct_error *err);
/* The unit's Description, malloc'ed (systemd's answer for a unit given none is its name). */
int ct_systemd_unit_description(struct ct_dbus_conn *c, const char *name, char **out,
				struct ct_error *err);
/* The unit's ControlGroup property ("/system.slice/x.scope"), malloc'ed; an error when
 * the unit has none ("") or it is the root ("/"). */
int ct_systemd_unit_cgroup(struct ct_dbus_conn *c, const char *name, char **out,
			   struct ct_error *err);

#endif
