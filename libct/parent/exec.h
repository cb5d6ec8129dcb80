/* A new process in a running container (`ctrun exec`): it joins every namespace of the
 * container's init, its root, and gets the attributes of its own process object through the
 * same plan and steps as the init (libct/child/process.h).
 *
 *   ctrun exec (parent)                              exec'd process (child)
 *   plan: caps, rlimits, seccomp BPF, env, ...
 *   open /proc/<init>/root (and /proc/<init>/ns/X
 *   without pidfd setns), then check the init is
 *   still the one recorded (pidfd, start time)
 *   affinity := execCPUAffinity.initial
 *   setns(init pidfd, PID [| TIME]): our children
 *   are born in the container's pid namespace
 *   clone3(CLONE_PIDFD | CLONE_INTO_CGROUP) -------> (waits until it is in the cgroup)
 *   cgroup.procs of the other hierarchies
 *   CGROUP_READY ----------------------------------> setns(init pidfd, USER|MNT|NET|...) in one
 *                                                    call, chroot to the init's root,
 *                                                    affinity := execCPUAffinity.final,
 *                                                    keyring, rlimits, terminal, LSM, seccomp,
 *                                                    user, caps, cwd inside the root, fds
 *        <------------------- PTY_MASTER (+fd)       (only with process.terminal)
 *        <------------------- SECCOMP_FD (+fd)       (only with SCMP_ACT_NOTIFY)
 *        <------------------- READY {steps}          (only under --debug: logged)
 *        <------------------- EOF                    execve: the close-on-exec socket closes
 *   any step failing: <------ ERROR / EXEC_ERROR {errno, text}; _exit
 *
 * A container with a user namespace of its own: a joiner (a fork) joins them all in one
 * setns, user first, and clones the process as ctrun's own child (CLONE_PARENT); ctrun
 * gets its pidfd (INIT_PIDFD) and lets it go on (USERNS_READY), as spawn.c does.
 *
 * The child is the caller's child and never the init's: a foreground exec waits for it on
 * its pidfd, and when the caller exits (exec --detach) it goes to the caller's subreaper. */
#ifndef CT_EXEC_H
#define CT_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/plan/plan.h"

struct ct_exec_target {
	pid_t pid;	     /* the container's init */
	int pidfd;	     /* its pidfd, -1 where pidfd_open is missing */
	uint64_t start_time; /* recorded in state.json: proves a pid still names the init */
	bool created;	     /* not started: the init is not dumpable yet */
};

struct ct_exec_proc {
	pid_t pid;
	int pidfd;
	int pty_master;	     /* -1 without process.terminal */
	const char *method;  /* "clone3", "clone" or "clone+pidfd_open" */
	bool born_in_cgroup; /* cloned with CLONE_INTO_CGROUP (not through a joiner) */
	const char *ns_join; /* "pidfd", "nsfd" or "a joiner": how the namespaces were joined */
	/* On failure: the exit status `exec` gives, 127 (command not found), 126 (cannot be
	 * executed) or 255 (anything else before the process ran). */
	int fail_status;
};

/* Spawns opts->config->process in the target's container (opts: config with the exec'd
 * process, id, bundle, preserve_fds, child_sigmask, process_path) and returns once it has
 * exec'd. On failure nothing is left: the child is reaped, every fd closed. */
int ct_exec_spawn(const struct ct_spawn_opts *opts, const struct ct_exec_target *target,
		  struct ct_exec_proc *out, struct ct_error *err);

/* SIGKILL, reap (the process is our child), close. */
void ct_exec_proc_kill(struct ct_exec_proc *p);
void ct_exec_proc_close(struct ct_exec_proc *p);

#endif
