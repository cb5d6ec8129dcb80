/* The process's scheduling attributes: process.scheduler, process.ioPriority,
 * process.execCPUAffinity, linux.memoryPolicy and linux.personality. The parent translates
 * the names of config.json into the numbers of the syscalls (ct_sched_plan_build), the
 * child only makes the calls (ct_sched_apply, ct_personality_apply). */
#ifndef CT_SCHED_H
#define CT_SCHED_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "oci/config.h"

/* Nodes a memory policy can name: the kernel's largest MAX_NUMNODES. */
#define CT_MAX_NODES 1024

struct ct_sched_plan {
	bool set_scheduler; /* process.scheduler: sched_setattr(2) */
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;

	bool set_ioprio; /* process.ioPriority: ioprio_set(2) of the init, inherited */
	int ioprio;

	bool set_mempolicy; /* linux.memoryPolicy: set_mempolicy(2) */
	int mpol_mode;	    /* mode | MPOL_F_* flags */
	unsigned long mpol_nodes[CT_MAX_NODES / (8 * sizeof(unsigned long))];
	unsigned long mpol_maxnode; /* 0 without nodes */

	bool set_personality; /* linux.personality: personality(2) right before exec */
	unsigned long persona;

	/* process.execCPUAffinity: config.md says it is not for the container's init, so it
	 * is checked here and kept for exec; an empty final list means "leave it". */
	bool has_initial_cpus, has_final_cpus;
	cpu_set_t initial_cpus, final_cpus;
};

/* Parses a list such as "0-3,7" (config.md#process: CPUs, config-linux.md: nodes) into the
 * bit mask (nbits bits, cleared first). Spaces around items are allowed; "" is the empty
 * set. On error returns -1 with the reason in why ("range \"3-1\" is reversed"). Pure. */
int ct_parse_id_list(const char *list, unsigned long *mask, size_t nbits, char *why,
		     size_t why_size);

/* Linux's numbers for the enums of config.json (oci/config.h); -1 when Linux has none
 * (SCHED_ISO). Pure. */
int ct_sched_policy_value(int policy);
uint64_t ct_sched_flag_value(int flag);
int ct_mpol_mode_value(int mode);
int ct_mpol_flag_value(int flag);
int ct_ioprio_value(int class, int priority);

/* Translates and checks everything above; an error names the JSON path. */
int ct_sched_plan_build(const struct oci_config *c, struct ct_sched_plan *s, struct ct_error *err);
/* In the child, while it still has CAP_SYS_NICE / CAP_SYS_ADMIN: scheduler, I/O priority
 * and memory policy, all inherited by the process it execs. */
int ct_sched_apply(const struct ct_sched_plan *s, struct ct_error *err);
/* In the child, as the last step before exec. */
int ct_personality_apply(const struct ct_sched_plan *s, struct ct_error *err);

#endif
