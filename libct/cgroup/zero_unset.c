/* linux.resources values that mean "not set" (libct/cgroup/zero_unset.h). */
#include "libct/cgroup/zero_unset.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* A field of struct oci_resources unset by 0: its presence flag and its value (the path is
 * for the reader). */
struct zero_field {
	const char *path;
	size_t has, value, size;
};

#define ZERO_FIELD(path, has_member, value_member)                           \
	{                                                                    \
		path, offsetof(struct oci_resources, has_member),            \
			offsetof(struct oci_resources, value_member),        \
			sizeof(((struct oci_resources *)NULL)->value_member) \
	}

static const struct zero_field zero_fields[] = {
	ZERO_FIELD(".memory.limit", memory.has_limit, memory.limit),
	ZERO_FIELD(".memory.reservation", memory.has_reservation, memory.reservation),
	ZERO_FIELD(".memory.swap", memory.has_swap, memory.swap),
	ZERO_FIELD(".memory.kernel", memory.has_kernel, memory.kernel),
	ZERO_FIELD(".memory.kernelTCP", memory.has_kernel_tcp, memory.kernel_tcp),
	ZERO_FIELD(".cpu.shares", cpu.has_shares, cpu.shares),
	ZERO_FIELD(".cpu.quota", cpu.has_quota, cpu.quota),
	ZERO_FIELD(".cpu.period", cpu.has_period, cpu.period),
	ZERO_FIELD(".cpu.realtimeRuntime", cpu.has_realtime_runtime, cpu.realtime_runtime),
	ZERO_FIELD(".cpu.realtimePeriod", cpu.has_realtime_period, cpu.realtime_period),
	ZERO_FIELD(".blockIO.weight", block_io.has_weight, block_io.weight),
	ZERO_FIELD(".blockIO.leafWeight", block_io.has_leaf_weight, block_io.leaf_weight),
	ZERO_FIELD(".network.classID", network.has_class_id, network.class_id),
	ZERO_FIELD(".pids.limit", has_pids, pids.limit),
};

#define N_ZERO_FIELDS (sizeof(zero_fields) / sizeof(zero_fields[0]))

static bool all_zero(const unsigned char *p, size_t size)
{
	for (size_t i = 0; i < size; i++)
		if (p[i])
			return false;
	return true;
}

static void forget_weight_devices(struct oci_blkio *b)
{
	for (size_t i = 0; i < b->weight_device.len; i++) {
		struct oci_blkio_weight_device *d = &b->weight_device.items[i];
		d->has_weight = d->has_weight && d->weight;
		d->has_leaf_weight = d->has_leaf_weight && d->leaf_weight;
	}
}

static void forget_empty(char **s)
{
	if (*s && !**s) {
		free(*s);
		*s = NULL;
	}
}

void ct_cgroup_forget_unset(struct oci_resources *r)
{
	unsigned char *base = (unsigned char *)r;
	for (size_t i = 0; i < N_ZERO_FIELDS; i++) {
		const struct zero_field *f = &zero_fields[i];
		if (all_zero(base + f->value, f->size))
			*(bool *)(base + f->has) = false;
	}
	forget_weight_devices(&r->block_io);
	forget_empty(&r->cpu.cpus);
	forget_empty(&r->cpu.mems);
	/* runc's swappiness is a uint64 read as -1 for "the kernel's default" */
	if (r->memory.swappiness == UINT64_MAX)
		r->memory.has_swappiness = false;
}
