/* The kernel's cpu/node list format (cpuset.cpus, cpuset.mems: "0-3,5"), read as runc reads it
 * for `events --stats`: every number of every range, in the file's order, each at most 65535
 * (runc keeps them as uint16). Pure. */
#ifndef CTRUN_CGROUP_CPUSET_LIST_H
#define CTRUN_CGROUP_CPUSET_LIST_H

#include <stddef.h>
#include <stdint.h>

/* text may end in a newline. 0 with *out malloc'ed (*n entries; NULL and 0 for an empty
 * list), or -1 with errno: EINVAL for a bad list ("3-1", "1-2-3", "x", "1,,2", a number over
 * 65535, more than 65536 numbers in all), ENOMEM. */
int ct_cpuset_list_parse(const char *text, uint16_t **out, size_t *n);

#endif
