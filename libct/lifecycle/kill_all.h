#ifndef CT_KILL_ALL_H
#define CT_KILL_ALL_H

#include "libct/lifecycle/container.h"

/* `kill --all`: signals every process of the container. Until the cgroups issue gives each
 * container a cgroup, "the container" is its pid namespace: every process whose
 * /proc/PID/ns/pid is the init's. Without a pid namespace of its own only the init is
 * signalled. Each process is signalled through a pidfd opened before its namespace is
 * checked, or where pidfd_open or pidfd_send_signal is missing, by kill() after its start
 * time, read before that check, is found unchanged: a recycled pid is never hit. */
int ct_kill_all(struct ct_container *c, int sig, struct ct_error *err);

/* `kill --all` of a stopped container, as runc does it: the init is gone, but in a
 * container without a pid namespace of its own its children can outlive it (containerd's
 * shim sends this to end them once the init has exited). Signals what is left in the
 * container's cgroup; the init's pid is never used. Without a cgroup nothing can be found:
 * "container not running". */
int ct_kill_leftovers(struct ct_container *c, int sig, struct ct_error *err);

#endif
