/* runc's reading of 0 in linux.resources: for most fields 0 means "not set", so a value of 0
 * writes nothing, at create and at update alike (runc-update(8) documents a resources
 * document of zeros as the one that changes nothing). Docker sends {"cpu": {"shares": 0},
 * "blockIO": {"weight": 0}} for a container without those limits, containerd's CRI
 * {"memory": {"limit": 0, "swap": 0}}, and runc's own `update` fills every field it is not
 * given with 0. Pure: no syscalls.
 *
 * Not set when 0: memory limit, reservation, swap, kernel, kernelTCP; cpu shares, quota,
 * period, realtimeRuntime, realtimePeriod; blockIO weight, leafWeight and each weightDevice's
 * weight and leafWeight; network classID; pids limit. Also not set: cpu cpus and mems "",
 * memory swappiness 2^64-1 (runc's -1).
 * Meaningful when 0, written (as runc writes them): memory swappiness, cpu idle and burst,
 * each throttle rate (0 lifts the device's limit), hugepage limits, rdma counts, unified
 * values, and a pids limit below 0 ("max"). */
#ifndef CT_CGROUP_ZERO_UNSET_H
#define CT_CGROUP_ZERO_UNSET_H

#include <stddef.h>

#include "oci/config.h"

/* Marks every field of r that is set to its "not set" value as absent (frees "" strings). */
void ct_cgroup_forget_unset(struct oci_resources *r);

#endif
