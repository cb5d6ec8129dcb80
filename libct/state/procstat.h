/* What /proc/PID/stat says about a process, and the container status derived from it.
 * A pid alone names a process only until it is reaped and reused: the start time (field 22,
 * clock ticks since boot) recorded next to it tells the original process from a newcomer. */
#ifndef CT_PROCSTAT_H
#define CT_PROCSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"

/* Parses one /proc/PID/stat line: the start time (field 22) and the state letter (field 3).
 * The comm field (2) may hold spaces and parentheses, so fields are counted from the LAST
 * ')'. Either output may be NULL. Returns 0, or -1 when the line is malformed. */
int ct_proc_parse_stat(const char *stat_line, uint64_t *start_time, char *state_char);

/* Reads and parses /proc/PID/stat. A process that is gone fails with errnum ENOENT (ESRCH
 * from the kernel is reported as ENOENT too). Either output may be NULL. */
int ct_proc_stat(pid_t pid, uint64_t *start_time, char *state_char, struct ct_error *err);

/* Field 22 of /proc/PID/stat. */
int ct_proc_start_time(pid_t pid, uint64_t *start_time, struct ct_error *err);

/* runtime.md#state, plus runc's "paused". */
enum ct_status {
	CT_STATUS_CREATING,
	CT_STATUS_CREATED,
	CT_STATUS_RUNNING,
	CT_STATUS_STOPPED,
	CT_STATUS_PAUSED,
};

/* "creating", "created", "running", "stopped", "paused". */
const char *ct_status_name(enum ct_status s);

/* Stopped when the pid is not positive, is gone, is a zombie ('Z' or 'X'), or now belongs to
 * a process with another start time (the pid was reused); otherwise running once started,
 * else created. Paused needs the cgroup freezer and is the caller's to add. */
enum ct_status ct_status_derive(pid_t pid, uint64_t recorded_start_time, bool started);
/* The same, but an error reading /proc/PID/stat other than the process's absence (EIO,
 * ENOMEM) fails instead of reading as stopped: a command that acts on a stopped container
 * (delete) must not take a running one for it. */
int ct_status_read(pid_t pid, uint64_t recorded_start_time, bool started, enum ct_status *status,
		   struct ct_error *err);

/* kill(2) for a process known only by pid and start time, where no pidfd can carry the
 * signal (pidfd_open or pidfd_send_signal missing): the start time is checked right before
 * the call, so a pid that was reaped and given to someone else is never signalled. Fails
 * with errnum ESRCH when the process is gone, a zombie or not the one recorded. */
int ct_proc_kill_checked(pid_t pid, uint64_t start_time, int sig, struct ct_error *err);

#endif
