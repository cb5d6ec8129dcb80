/* Scheduling attributes of the container process (sched.h): names become numbers in the
 * parent, the child makes one syscall per attribute. */
#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libct/plan/sched.h"

#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif
#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* sched_setattr(2)'s argument; <linux/sched/types.h> clashes with glibc's <sched.h> */
struct ct_sched_attr {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PROCESS 1
#define LONG_BITS	   (8 * sizeof(unsigned long))

static int list_error(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int list_error(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *skip_spaces(const char *p)
{
	return p + strspn(p, " ");
}

/* A decimal id at *p; strtoul alone would take a sign or leading spaces. */
static int parse_id(const char **p, unsigned long *out)
{
	if (**p < '0' || **p > '9')
		return -1;
	char *end;
	errno = 0;
	*out = strtoul(*p, &end, 10);
	*p = end;
	return errno ? -1 : 0;
}

/* One "N" or "N-M" item at *p, set in mask. */
static int parse_item(const char **p, unsigned long *mask, size_t nbits, char *why, size_t size)
{
	const char *item = *p;
	int len = (int)strcspn(item, ",");
	unsigned long lo, hi;
	if (parse_id(p, &lo) < 0)
		return list_error(why, size, "expected a number or a range at \"%.*s\"", len, item);
	hi = lo;
	if (**p == '-') {
		(*p)++;
		if (parse_id(p, &hi) < 0)
			return list_error(why, size, "range \"%.*s\" has no end", len, item);
	}
	if (hi < lo)
		return list_error(why, size, "range \"%.*s\" is reversed", len, item);
	if (hi >= nbits)
		return list_error(why, size, "%lu is beyond the last one possible, %zu", hi,
				  nbits - 1);
	for (unsigned long v = lo; v <= hi; v++)
		mask[v / LONG_BITS] |= 1UL << (v % LONG_BITS);
	return 0;
}

int ct_parse_id_list(const char *list, unsigned long *mask, size_t nbits, char *why,
		     size_t why_size)
{
	memset(mask, 0, (nbits + LONG_BITS - 1) / LONG_BITS * sizeof(unsigned long));
	const char *p = skip_spaces(list);
	if (!*p)
		return 0;
	for (;;) {
		if (parse_item(&p, mask, nbits, why, why_size) < 0)
			return -1;
		p = skip_spaces(p);
		if (!*p)
			return 0;
		if (*p != ',')
			return list_error(why, why_size, "unexpected \"%c\" in \"%s\"", *p, list);
		p = skip_spaces(p + 1);
	}
}

int ct_sched_policy_value(int policy)
{
	static const int values[] = {
		[OCI_SCHED_OTHER] = SCHED_OTHER,
		[OCI_SCHED_FIFO] = SCHED_FIFO,
		[OCI_SCHED_RR] = SCHED_RR,
		[OCI_SCHED_BATCH] = SCHED_BATCH,
		[OCI_SCHED_ISO] = -1,
		[OCI_SCHED_IDLE] = SCHED_IDLE,
		[OCI_SCHED_DEADLINE] = SCHED_DEADLINE,
	};
	return values[policy];
}

/* oci_sched_flag_names lists them in the order of their bits. */
uint64_t ct_sched_flag_value(int flag)
{
	return 1ULL << flag;
}

int ct_mpol_mode_value(int mode)
{
	static const int values[] = {
		MPOL_DEFAULT,	MPOL_BIND,	     MPOL_INTERLEAVE, MPOL_WEIGHTED_INTERLEAVE,
		MPOL_PREFERRED, MPOL_PREFERRED_MANY, MPOL_LOCAL,
	};
	return values[mode];
}

int ct_mpol_flag_value(int flag)
{
	static const int values[] = {MPOL_F_NUMA_BALANCING, MPOL_F_RELATIVE_NODES,
				     MPOL_F_STATIC_NODES};
	return values[flag];
}

int ct_ioprio_value(int class, int priority)
{
	static const int classes[] = {
		[OCI_IOPRIO_CLASS_RT] = 1, [OCI_IOPRIO_CLASS_BE] = 2, [OCI_IOPRIO_CLASS_IDLE] = 3};
	return classes[class] << IOPRIO_CLASS_SHIFT | priority;
}

/* The kernel clamps a nice value out of range and refuses a priority the policy does not
 * take without saying which field: both are checked here. */
static int plan_scheduler(const struct oci_scheduler *sc, struct ct_sched_plan *s,
			  struct ct_error *err)
{
	const char *name = oci_sched_policy_names[sc->policy];
	int policy = ct_sched_policy_value(sc->policy);
	if (policy < 0)
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .process.scheduler.policy: %s is not "
					  "implemented by Linux",
					  name);
	if (sc->nice < -20 || sc->nice > 19)
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .process.scheduler.nice: %d is out of "
					  "range [-20, 19]",
					  sc->nice);
	int lo = sched_get_priority_min(policy), hi = sched_get_priority_max(policy);
	if (lo >= 0 && hi >= 0 && (sc->priority < lo || sc->priority > hi))
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .process.scheduler.priority: %s takes a "
					  "priority in [%d, %d], got %d",
					  name, lo, hi, sc->priority);
	s->set_scheduler = true;
	s->sched_policy = (uint32_t)policy;
	s->sched_nice = sc->nice;
	s->sched_priority = (uint32_t)sc->priority;
	s->sched_runtime = sc->runtime;
	s->sched_deadline = sc->deadline;
	s->sched_period = sc->period;
	for (size_t i = 0; i < sc->flags.len; i++)
		s->sched_flags |= ct_sched_flag_value(sc->flags.items[i]);
	return 0;
}

static bool mask_empty(const unsigned long *mask, size_t nbits)
{
	for (size_t i = 0; i < nbits / LONG_BITS; i++)
		if (mask[i])
			return false;
	return true;
}

/* set_mempolicy(2): MPOL_DEFAULT and MPOL_LOCAL take no nodes, MPOL_PREFERRED zero or
 * more (none is local allocation), the others at least one. */
static int plan_mpol_nodes(const struct oci_memory_policy *mp, struct ct_sched_plan *s,
			   struct ct_error *err)
{
	const char *name = oci_mpol_mode_names[mp->mode];
	char why[160];
	if (ct_parse_id_list(mp->nodes ? mp->nodes : "", s->mpol_nodes, CT_MAX_NODES, why,
			     sizeof(why)) < 0)
		return ct_error_set_plain(err, EINVAL, "config.json: .linux.memoryPolicy.nodes: %s",
					  why);
	bool none = mask_empty(s->mpol_nodes, CT_MAX_NODES);
	int mode = ct_mpol_mode_value(mp->mode);
	if (!none && (mode == MPOL_DEFAULT || mode == MPOL_LOCAL))
		return ct_error_set_plain(
			err, EINVAL, "config.json: .linux.memoryPolicy.nodes: %s takes no nodes",
			name);
	if (none && mode != MPOL_DEFAULT && mode != MPOL_LOCAL && mode != MPOL_PREFERRED)
		return ct_error_set_plain(
			err, EINVAL,
			"config.json: .linux.memoryPolicy.nodes: %s needs at least one node", name);
	/* the kernel reads maxnode - 1 bits */
	s->mpol_maxnode = none ? 0 : CT_MAX_NODES + 1;
	return 0;
}

static int plan_memory_policy(const struct oci_memory_policy *mp, struct ct_sched_plan *s,
			      struct ct_error *err)
{
	if (plan_mpol_nodes(mp, s, err) < 0)
		return -1;
	int flags = 0;
	for (size_t i = 0; i < mp->flags.len; i++)
		flags |= ct_mpol_flag_value(mp->flags.items[i]);
	if ((flags & MPOL_F_STATIC_NODES) && (flags & MPOL_F_RELATIVE_NODES))
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .linux.memoryPolicy.flags: "
					  "MPOL_F_STATIC_NODES and MPOL_F_RELATIVE_NODES exclude "
					  "each other");
	s->set_mempolicy = true;
	s->mpol_mode = ct_mpol_mode_value(mp->mode) | flags;
	return 0;
}

/* config-linux.md#personality: "Currently no flag values are supported." */
static int plan_personality(const struct oci_personality *pe, struct ct_sched_plan *s,
			    struct ct_error *err)
{
	if (pe->flags.len)
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .linux.personality.flags[0]: \"%s\": no "
					  "flag is supported",
					  pe->flags.items[0]);
	s->set_personality = true;
	s->persona = pe->domain == OCI_PER_LINUX32 ? PER_LINUX32 : PER_LINUX;
	return 0;
}

static int plan_cpu_list(const char *list, const char *field, cpu_set_t *set, bool *has,
			 struct ct_error *err)
{
	char why[160];
	if (!list)
		return 0;
	if (ct_parse_id_list(list, (unsigned long *)set, CPU_SETSIZE, why, sizeof(why)) < 0)
		return ct_error_set_plain(
			err, EINVAL, "config.json: .process.execCPUAffinity.%s: %s", field, why);
	*has = CPU_COUNT(set) > 0;
	return 0;
}

int ct_sched_plan_build(const struct oci_config *c, struct ct_sched_plan *s, struct ct_error *err)
{
	const struct oci_process *p = &c->process;
	memset(s, 0, sizeof(*s));
	if (p->has_scheduler && plan_scheduler(&p->scheduler, s, err) < 0)
		return -1;
	if (p->has_io_priority) {
		s->set_ioprio = true;
		s->ioprio = ct_ioprio_value(p->io_priority.class, p->io_priority.priority);
	}
	if (c->linux_.has_memory_policy && plan_memory_policy(&c->linux_.memory_policy, s, err) < 0)
		return -1;
	if (c->linux_.has_personality && plan_personality(&c->linux_.personality, s, err) < 0)
		return -1;
	if (p->has_exec_cpu_affinity &&
	    (plan_cpu_list(p->exec_cpu_affinity.initial, "initial", &s->initial_cpus,
			   &s->has_initial_cpus, err) < 0 ||
	     plan_cpu_list(p->exec_cpu_affinity.final, "final", &s->final_cpus, &s->has_final_cpus,
			   err) < 0))
		return -1;
	return 0;
}

static int set_scheduler(const struct ct_sched_plan *s, struct ct_error *err)
{
	struct ct_sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = s->sched_policy,
		.sched_flags = s->sched_flags,
		.sched_nice = s->sched_nice,
		.sched_priority = s->sched_priority,
		.sched_runtime = s->sched_runtime,
		.sched_deadline = s->sched_deadline,
		.sched_period = s->sched_period,
	};
	if (syscall(SYS_sched_setattr, 0, &attr, 0) < 0)
		return ct_error_set(err, errno, "set .process.scheduler (policy %u)",
				    s->sched_policy);
	return 0;
}

int ct_sched_apply(const struct ct_sched_plan *s, struct ct_error *err)
{
	if (s->set_scheduler && set_scheduler(s, err) < 0)
		return -1;
	if (s->set_ioprio && syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, s->ioprio) < 0)
		return ct_error_set(err, errno, "set .process.ioPriority");
	if (s->set_mempolicy &&
	    syscall(SYS_set_mempolicy, s->mpol_mode, s->mpol_maxnode ? s->mpol_nodes : NULL,
		    s->mpol_maxnode) < 0)
		return ct_error_set(err, errno, "set .linux.memoryPolicy");
	return 0;
}

int ct_personality_apply(const struct ct_sched_plan *s, struct ct_error *err)
{
	if (s->set_personality && personality(s->persona) < 0)
		return ct_error_set(err, errno, "set .linux.personality");
	return 0;
}
