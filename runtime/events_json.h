/* `ctrun events` records, as runc prints them (one compact JSON object per line, the names of
 * runc's types.Event and types.Stats, Go's omitempty rules): {"type":"stats","id":ID,
 * "data":{"cpu":...,"cpuset":...,"memory":...,"pids":...,"blkio":...,"hugetlb":...}} and
 * {"type":"oom","id":ID}. Pure. */
#ifndef CTRUN_EVENTS_JSON_H
#define CTRUN_EVENTS_JSON_H

#include "libct/base/error.h"
#include "libct/cgroup/cgroup.h"

/* *out malloc'ed, no newline. */
int ct_events_stats_json(const char *id, const struct ct_cgroup_stats *st, char **out,
			 struct ct_error *err);
int ct_events_oom_json(const char *id, char **out, struct ct_error *err);

#endif
