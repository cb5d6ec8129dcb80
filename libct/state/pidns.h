/* Whether a process is the init (pid 1) of its pid namespace, from /proc/PID/status. Such a
 * process takes every other process of its namespace with it when it dies: the kernel kills
 * them and waits for them before the init's own exit completes (and so before its pidfd
 * turns readable). */
#ifndef CT_PIDNS_H
#define CT_PIDNS_H

#include <stdbool.h>
#include <sys/types.h>

/* The innermost pid of the "NSpid:" line (its last number) in the text of a /proc/PID/status
 * file. Returns 0, or -1 when there is no such line or it holds no valid pid. */
int ct_parse_nspid(const char *status_text, pid_t *innermost);

/* True when pid's innermost NSpid is 1 and it is not pid 1 of the caller's namespace; false
 * when it is not, is gone, or the kernel shows no NSpid (before 4.1). */
bool ct_proc_leads_pid_ns(pid_t pid);

#endif
