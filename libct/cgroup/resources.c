/* linux.resources -> cgroup files: one table of (JSON path, controller, v1 file, v2 file,
 * formatter) and one walker, used by both drivers (config-linux.md#control-groups). The
 * resources come as ct_cgroup_forget_unset() leaves them: a field set is a value to write. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/cleanup.h"
#include "libct/base/vaformat.h"
#include "libct/cgroup/convert.h"
#include "libct/cgroup/internal.h"

#define RES ".linux.resources"

struct cg_value {
	char file[256];	 /* the file to write, when the formatter chooses it */
	char value[512]; /* what to write */
	char path[128];	 /* the JSON path of an array element */
	size_t index;	 /* the element it is (a formatter may skip some) */
};

struct cg_ctx {
	struct ct_cgroup *cg;
	enum ct_cg_version v;
	const struct oci_resources *r;
};

/* Produces the value of element i (0 for a scalar): 1 when there is one, 0 when the field
 * is absent or i is past the end, -1 on error. */
typedef int (*cg_fmt)(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err);

/* What a version without a file for the field does with it. */
enum cg_absent {
	CG_REFUSE, /* error: the field cannot be applied there */
	CG_WARN,   /* a warning: the kernel dropped it or the version has no such knob */
};

struct cg_row {
	const char *path; /* below .linux.resources */
	const char *controller;
	const char *file[2]; /* [CT_CG_V1], [CT_CG_V2]; NULL: none there */
	enum cg_absent absent[2];
	bool deprecated; /* a v1 file recent kernels dropped: missing is a warning */
	cg_fmt fmt;
};

static int put(struct cg_value *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(struct cg_value *out, const char *fmt, ...)
{
	CT_VA_FORMAT(out->value, fmt);
	return 1;
}

static void warn(const struct cg_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The formatter of a scalar field: nothing unless `present`, else printf's `format` of
 * `value` (expressions of c, the context). */
#define SCALAR_FMT(fn, present, format, value)                                \
	static int fn(const struct cg_ctx *c, size_t i, struct cg_value *out, \
		      struct ct_error *err)                                   \
	{                                                                     \
		(void)err;                                                    \
		return i || !(present) ? 0 : put(out, format, value);         \
	}

/* A memory limit: -1 is none, "max" on v2 where the file takes it (v2_form). */
#define LIMIT_FMT(fn, member, v2_form)                                                     \
	static int fn(const struct cg_ctx *c, size_t i, struct cg_value *out,              \
		      struct ct_error *err)                                                \
	{                                                                                  \
		(void)err;                                                                 \
		if (i || !c->r->memory.has_##member)                                       \
			return 0;                                                          \
		ct_cgroup_format_limit(c->r->memory.member, (v2_form) && c->v == CT_CG_V2, \
				       out->value, sizeof(out->value));                    \
		return 1;                                                                  \
	}

/* ---- memory ---- */

LIMIT_FMT(fmt_mem_limit, limit, true)
LIMIT_FMT(fmt_mem_reservation, reservation, true)
LIMIT_FMT(fmt_mem_kernel, kernel, false)
LIMIT_FMT(fmt_mem_kernel_tcp, kernel_tcp, false)
static int fmt_mem_swap(const struct cg_ctx *c, size_t i, struct cg_value *out,
			struct ct_error *err)
{
	const struct oci_memory *m = &c->r->memory;
	if (i || !m->has_swap)
		return 0;
	int64_t v = m->swap;
	if (c->v == CT_CG_V2 && ct_cgroup_swap_to_v2(m->swap, m->has_limit, m->limit, &v, err) < 0)
		return -1;
	ct_cgroup_format_limit(v, c->v == CT_CG_V2, out->value, sizeof(out->value));
	return 1;
}

static int fmt_swappiness(const struct cg_ctx *c, size_t i, struct cg_value *out,
			  struct ct_error *err)
{
	const struct oci_memory *m = &c->r->memory;
	if (i || !m->has_swappiness)
		return 0;
	if (m->swappiness > 100)
		return ct_error_plain(err, EINVAL,
				      "config.json: " RES ".memory.swappiness: %" PRIu64
				      " is not in [0, 100]",
				      m->swappiness);
	return put(out, "%" PRIu64, m->swappiness);
}

static int fmt_oom_killer(const struct cg_ctx *c, size_t i, struct cg_value *out,
			  struct ct_error *err)
{
	(void)err;
	if (i || !c->r->memory.has_disable_oom_killer)
		return 0;
	/* v1 only: 1 disables it; v2 has no switch (the warning says so when true) */
	if (c->v == CT_CG_V2 && !c->r->memory.disable_oom_killer)
		return 0;
	return put(out, "%d", c->r->memory.disable_oom_killer ? 1 : 0);
}

/* Never written, as runc 1.1.5 never writes it: memory cgroups are hierarchical (v2 always,
 * v1 since Linux 5.16, which refuses a 0), so true is what the kernel does anyway and false
 * cannot be had (the spec's own example asks for it): a warning, not a failed create. */
static int fmt_use_hierarchy(const struct cg_ctx *c, size_t i, struct cg_value *out,
			     struct ct_error *err)
{
	(void)out;
	(void)err;
	if (i || !c->r->memory.has_use_hierarchy || c->r->memory.use_hierarchy)
		return 0;
	warn(c, "config.json: " RES ".memory.useHierarchy: false: ignored (memory cgroups are "
		"hierarchical; runc ignores it too)");
	return 0;
}

/* ---- cpu ---- */

static int fmt_shares(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err)
{
	(void)err;
	if (i || !c->r->cpu.has_shares)
		return 0;
	uint64_t v =
		c->v == CT_CG_V2 ? ct_cgroup_shares_to_weight(c->r->cpu.shares) : c->r->cpu.shares;
	return put(out, "%" PRIu64, v);
}

static int fmt_period(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err)
{
	(void)err;
	/* v2: part of cpu.max, written by the quota row */
	if (i || c->v == CT_CG_V2 || !c->r->cpu.has_period)
		return 0;
	return put(out, "%" PRIu64, c->r->cpu.period);
}

/* v1: cpu.cfs_quota_us alone (the period row comes first); v2: cpu.max of both. */
static int fmt_quota(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err)
{
	(void)err;
	const struct oci_cpu *p = &c->r->cpu;
	if (i || (!p->has_quota && (c->v == CT_CG_V1 || !p->has_period)))
		return 0;
	if (c->v == CT_CG_V1)
		return put(out, "%" PRId64, p->quota > 0 ? p->quota : -1);
	ct_cgroup_format_cpu_max(p->has_quota, p->quota, p->has_period, p->period, out->value,
				 sizeof(out->value));
	return 1;
}

SCALAR_FMT(fmt_burst, c->r->cpu.has_burst, "%" PRIu64, c->r->cpu.burst)
SCALAR_FMT(fmt_rt_period, c->r->cpu.has_realtime_period, "%" PRIu64, c->r->cpu.realtime_period)
SCALAR_FMT(fmt_rt_runtime, c->r->cpu.has_realtime_runtime, "%" PRId64, c->r->cpu.realtime_runtime)
SCALAR_FMT(fmt_idle, c->r->cpu.has_idle, "%" PRId64, c->r->cpu.idle)
SCALAR_FMT(fmt_cpus, c->r->cpu.cpus, "%s", c->r->cpu.cpus)
SCALAR_FMT(fmt_mems, c->r->cpu.mems, "%s", c->r->cpu.mems)

/* ---- pids ---- */

static int fmt_pids(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err)
{
	(void)err;
	/* as runc: a negative limit lifts it */
	if (i || !c->r->has_pids)
		return 0;
	if (c->r->pids.limit < 0)
		return put(out, "max");
	return put(out, "%" PRId64, c->r->pids.limit);
}

/* ---- blockIO ---- */

/* The first of the files the directory has: BFQ's own weight, else the generic one. */
static void pick_file(const struct cg_ctx *c, const char *controller, const char *a, const char *b,
		      struct cg_value *out)
{
	const struct ct_cgroup_dir *d = ct_cg_controller(c->cg, controller);
	snprintf(out->file, sizeof(out->file), "%s", d && ct_cg_has_at(d->fd, d->path, a) ? a : b);
}

static int fmt_blkio_weight(const struct cg_ctx *c, size_t i, struct cg_value *out,
			    struct ct_error *err)
{
	(void)err;
	const struct oci_blkio *b = &c->r->block_io;
	if (i || !c->r->has_block_io || !b->has_weight)
		return 0;
	if (c->v == CT_CG_V1) {
		pick_file(c, "blkio", "blkio.weight", "blkio.bfq.weight", out);
		return put(out, "%u", b->weight);
	}
	pick_file(c, "io", "io.bfq.weight", "io.weight", out);
	if (strcmp(out->file, "io.bfq.weight") == 0)
		return put(out, "%u", b->weight);
	return put(out, "%" PRIu64, ct_cgroup_blkio_to_io_weight(b->weight));
}

SCALAR_FMT(fmt_blkio_leaf, c->r->has_block_io && c->r->block_io.has_leaf_weight, "%u",
	   c->r->block_io.leaf_weight)

/* The weightDevice entry at or after i that sets a weight (leaf: a leafWeight), its JSON path
 * and index in out; NULL past the last. */
static const struct oci_blkio_weight_device *next_weight_device(const struct cg_ctx *c, size_t i,
								bool leaf, struct cg_value *out)
{
	for (; i < c->r->block_io.weight_device.len; i++) {
		const struct oci_blkio_weight_device *d = &c->r->block_io.weight_device.items[i];
		if (leaf ? d->has_leaf_weight : d->has_weight) {
			snprintf(out->path, sizeof(out->path), ".blockIO.weightDevice[%zu].%s", i,
				 leaf ? "leafWeight" : "weight");
			out->index = i;
			return d;
		}
	}
	return NULL;
}

static int fmt_weight_device(const struct cg_ctx *c, size_t i, struct cg_value *out,
			     struct ct_error *err)
{
	(void)err;
	const struct oci_blkio_weight_device *d = next_weight_device(c, i, false, out);
	if (!d)
		return 0;
	uint64_t w = d->weight;
	if (c->v == CT_CG_V1) {
		pick_file(c, "blkio", "blkio.weight_device", "blkio.bfq.weight_device", out);
	} else {
		pick_file(c, "io", "io.bfq.weight", "io.weight", out);
		if (strcmp(out->file, "io.weight") == 0)
			w = ct_cgroup_blkio_to_io_weight(w);
	}
	return put(out, "%" PRId64 ":%" PRId64 " %" PRIu64, d->major, d->minor, w);
}

static int fmt_leaf_weight_device(const struct cg_ctx *c, size_t i, struct cg_value *out,
				  struct ct_error *err)
{
	(void)err;
	const struct oci_blkio_weight_device *d = next_weight_device(c, i, true, out);
	return d ? put(out, "%" PRId64 ":%" PRId64 " %u", d->major, d->minor, d->leaf_weight) : 0;
}

static int fmt_throttle(const struct cg_ctx *c, size_t i, const oci_blkio_throttles *list,
			const char *name, const char *v2_key, struct cg_value *out)
{
	if (i >= list->len)
		return 0;
	const struct oci_blkio_throttle *t = &list->items[i];
	snprintf(out->path, sizeof(out->path), ".blockIO.%s[%zu]", name, i);
	if (c->v == CT_CG_V1)
		return put(out, "%" PRId64 ":%" PRId64 " %" PRIu64, t->major, t->minor, t->rate);
	/* io.max takes "max" to lift a limit; 0 means none in the spec */
	if (!t->rate)
		return put(out, "%" PRId64 ":%" PRId64 " %s=max", t->major, t->minor, v2_key);
	return put(out, "%" PRId64 ":%" PRId64 " %s=%" PRIu64, t->major, t->minor, v2_key, t->rate);
}

#define THROTTLE_FMT(fn, member, name, key)                                        \
	static int fn(const struct cg_ctx *c, size_t i, struct cg_value *out,      \
		      struct ct_error *err)                                        \
	{                                                                          \
		(void)err;                                                         \
		return fmt_throttle(c, i, &c->r->block_io.member, name, key, out); \
	}
THROTTLE_FMT(fmt_read_bps, throttle_read_bps_device, "throttleReadBpsDevice", "rbps")
THROTTLE_FMT(fmt_write_bps, throttle_write_bps_device, "throttleWriteBpsDevice", "wbps")
THROTTLE_FMT(fmt_read_iops, throttle_read_iops_device, "throttleReadIOPSDevice", "riops")
THROTTLE_FMT(fmt_write_iops, throttle_write_iops_device, "throttleWriteIOPSDevice", "wiops")

/* ---- hugetlb, network, rdma ---- */

static int fmt_hugepage(const struct cg_ctx *c, size_t i, struct cg_value *out,
			struct ct_error *err)
{
	if (i >= c->r->hugepage_limits.len)
		return 0;
	const struct oci_hugepage_limit *h = &c->r->hugepage_limits.items[i];
	snprintf(out->path, sizeof(out->path), ".hugepageLimits[%zu]", i);
	if (!h->page_size || !*h->page_size || strpbrk(h->page_size, "/. "))
		return ct_error_plain(err, EINVAL,
				      "config.json: " RES "%s.pageSize: \"%s\" is not a page "
				      "size (\"2MB\")",
				      out->path, h->page_size ? h->page_size : "");
	snprintf(out->file, sizeof(out->file),
		 c->v == CT_CG_V1 ? "hugetlb.%s.limit_in_bytes" : "hugetlb.%s.max", h->page_size);
	return put(out, "%" PRIu64, h->limit);
}

SCALAR_FMT(fmt_class_id, c->r->has_network && c->r->network.has_class_id, "%" PRIu32,
	   c->r->network.class_id)

static int fmt_priorities(const struct cg_ctx *c, size_t i, struct cg_value *out,
			  struct ct_error *err)
{
	(void)err;
	if (!c->r->has_network || i >= c->r->network.priorities.len)
		return 0;
	const struct oci_net_priority *p = &c->r->network.priorities.items[i];
	snprintf(out->path, sizeof(out->path), ".network.priorities[%zu]", i);
	return put(out, "%s %" PRIu32, p->name, p->priority);
}

static int fmt_rdma(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err)
{
	(void)err;
	if (i >= c->r->rdma.len)
		return 0;
	const struct oci_rdma *d = &c->r->rdma.items[i];
	char handles[32] = "max", objects[32] = "max";
	if (d->has_hca_handles)
		snprintf(handles, sizeof(handles), "%" PRIu32, d->hca_handles);
	if (d->has_hca_objects)
		snprintf(objects, sizeof(objects), "%" PRIu32, d->hca_objects);
	snprintf(out->path, sizeof(out->path), ".rdma.%s", d->key);
	return put(out, "%s hca_handle=%s hca_object=%s", d->key, handles, objects);
}

/* Written as given on v2, where the key must name a file of the cgroup (never a path). */
static int fmt_unified(const struct cg_ctx *c, size_t i, struct cg_value *out, struct ct_error *err)
{
	if (i >= c->r->unified.len)
		return 0;
	const struct oci_kv *kv = &c->r->unified.items[i];
	snprintf(out->path, sizeof(out->path), ".unified[\"%s\"]", kv->key);
	if (!*kv->key || strchr(kv->key, '/') || kv->key[0] == '.')
		return ct_error_plain(err, EINVAL, "config.json: " RES "%s: not a cgroup file name",
				      out->path);
	snprintf(out->file, sizeof(out->file), "%s", kv->key);
	return put(out, "%s", kv->value);
}

/* A field with a file in both versions. */
#define IN_BOTH(path, controller, v1, v2, fmt)             \
	{                                                  \
		path, controller, {v1, v2}, {}, false, fmt \
	}
/* A field with a file in one version (or none): absent says what a version without one does
 * with it. */
#define ONE_VERSION(path, controller, v1, v2, absent, fmt)               \
	{                                                                \
		path, controller, {v1, v2}, {absent, absent}, false, fmt \
	}
/* A v1 file recent kernels dropped, and v2 never had: a warning where it is missing. */
#define DROPPED(path, controller, v1, fmt)                                  \
	{                                                                   \
		path, controller, {v1, NULL}, {CG_WARN, CG_WARN}, true, fmt \
	}

/* The order is the order of the writes: period before quota, memory before memory+swap
 * (the kernel checks each value against the ones already there). */
static const struct cg_row rows[] = {
	IN_BOTH(".memory.limit", "memory", "memory.limit_in_bytes", "memory.max", fmt_mem_limit),
	IN_BOTH(".memory.swap", "memory", "memory.memsw.limit_in_bytes", "memory.swap.max",
		fmt_mem_swap),
	IN_BOTH(".memory.reservation", "memory", "memory.soft_limit_in_bytes", "memory.low",
		fmt_mem_reservation),
	DROPPED(".memory.kernel", "memory", "memory.kmem.limit_in_bytes", fmt_mem_kernel),
	DROPPED(".memory.kernelTCP", "memory", "memory.kmem.tcp.limit_in_bytes",
		fmt_mem_kernel_tcp),
	ONE_VERSION(".memory.swappiness", "memory", "memory.swappiness", NULL, CG_WARN,
		    fmt_swappiness),
	ONE_VERSION(".memory.disableOOMKiller", "memory", "memory.oom_control", NULL, CG_WARN,
		    fmt_oom_killer),
	ONE_VERSION(".memory.useHierarchy", "memory", NULL, NULL, CG_WARN, fmt_use_hierarchy),
	IN_BOTH(".cpu.shares", "cpu", "cpu.shares", "cpu.weight", fmt_shares),
	ONE_VERSION(".cpu.period", "cpu", "cpu.cfs_period_us", NULL, CG_WARN, fmt_period),
	IN_BOTH(".cpu.quota", "cpu", "cpu.cfs_quota_us", "cpu.max", fmt_quota),
	IN_BOTH(".cpu.burst", "cpu", "cpu.cfs_burst_us", "cpu.max.burst", fmt_burst),
	ONE_VERSION(".cpu.realtimePeriod", "cpu", "cpu.rt_period_us", NULL, CG_REFUSE,
		    fmt_rt_period),
	ONE_VERSION(".cpu.realtimeRuntime", "cpu", "cpu.rt_runtime_us", NULL, CG_REFUSE,
		    fmt_rt_runtime),
	IN_BOTH(".cpu.idle", "cpu", "cpu.idle", "cpu.idle", fmt_idle),
	IN_BOTH(".cpu.cpus", "cpuset", "cpuset.cpus", "cpuset.cpus", fmt_cpus),
	IN_BOTH(".cpu.mems", "cpuset", "cpuset.mems", "cpuset.mems", fmt_mems),
	IN_BOTH(".pids.limit", "pids", "pids.max", "pids.max", fmt_pids),
	IN_BOTH(".blockIO.weight", "blkio", "blkio.weight", "io.weight", fmt_blkio_weight),
	DROPPED(".blockIO.leafWeight", "blkio", "blkio.leaf_weight", fmt_blkio_leaf),
	IN_BOTH(".blockIO.weightDevice", "blkio", "blkio.weight_device", "io.weight",
		fmt_weight_device),
	DROPPED(".blockIO.weightDevice", "blkio", "blkio.leaf_weight_device",
		fmt_leaf_weight_device),
	IN_BOTH(".blockIO.throttleReadBpsDevice", "blkio", "blkio.throttle.read_bps_device",
		"io.max", fmt_read_bps),
	IN_BOTH(".blockIO.throttleWriteBpsDevice", "blkio", "blkio.throttle.write_bps_device",
		"io.max", fmt_write_bps),
	IN_BOTH(".blockIO.throttleReadIOPSDevice", "blkio", "blkio.throttle.read_iops_device",
		"io.max", fmt_read_iops),
	IN_BOTH(".blockIO.throttleWriteIOPSDevice", "blkio", "blkio.throttle.write_iops_device",
		"io.max", fmt_write_iops),
	IN_BOTH(".hugepageLimits", "hugetlb", "hugetlb", "hugetlb", fmt_hugepage),
	ONE_VERSION(".network.classID", "net_cls", "net_cls.classid", NULL, CG_REFUSE,
		    fmt_class_id),
	ONE_VERSION(".network.priorities", "net_prio", "net_prio.ifpriomap", NULL, CG_REFUSE,
		    fmt_priorities),
	IN_BOTH(".rdma", "rdma", "rdma.max", "rdma.max", fmt_rdma),
	ONE_VERSION(".unified", "unified", NULL, "unified", CG_REFUSE, fmt_unified),
};

/* v2 names controllers after what they control: io, not blkio. */
static const char *v2_controller(const char *c)
{
	return strcmp(c, "blkio") == 0 ? "io" : c;
}

static void warn(const struct cg_ctx *c, const char *fmt, ...)
{
	if (!c->cg->warn)
		return;
	char msg[768];
	CT_VA_FORMAT(msg, fmt);
	c->cg->warn(msg);
}

/* A field the version has no file for: refused, or a warning and nothing written. */
static int no_file(const struct cg_ctx *c, const struct cg_row *row, const char *path,
		   struct ct_error *err)
{
	const char *version = c->v == CT_CG_V1 ? "cgroup v1" : "cgroup v2";
	if (row->absent[c->v] == CG_WARN) {
		warn(c, "config.json: " RES "%s: not supported on %s: ignored", path, version);
		return 0;
	}
	if (strcmp(row->controller, "unified") == 0)
		return ct_error_plain(err, ENOTSUP,
				      "config.json: " RES "%s: only for cgroup v2 (this host "
				      "has %s)",
				      path, version);
	return ct_error_plain(err, ENOTSUP, "config.json: " RES "%s: not supported on %s", path,
			      version);
}

static int write_value(const struct cg_ctx *c, const struct cg_row *row, const char *path,
		       const char *file, const char *value, struct ct_error *err)
{
	const char *controller =
		c->v == CT_CG_V2 ? v2_controller(row->controller) : row->controller;
	const struct ct_cgroup_dir *d = ct_cg_controller(c->cg, controller);
	if (!d)
		return ct_error_plain(err, ENOTSUP,
				      "config.json: " RES "%s: the %s controller is not mounted",
				      path, controller);
	const char *dir = d->path;
	if (!ct_cg_has_at(d->fd, dir, file)) {
		if (row->deprecated) {
			warn(c,
			     "config.json: " RES "%s: %s is gone from this kernel (deprecated): "
			     "ignored",
			     path, file);
			return 0;
		}
		if (c->v == CT_CG_V2)
			return ct_error_plain(err, ENOTSUP,
					      "config.json: " RES "%s: \"%s/%s\" does not exist "
					      "(is the %s controller enabled in the parent's "
					      "cgroup.subtree_control?)",
					      path, dir, file, controller);
		return ct_error_plain(err, ENOTSUP,
				      "config.json: " RES "%s: \"%s/%s\" does not exist on "
				      "this kernel",
				      path, dir, file);
	}
	if (ct_cg_write_at(d->fd, dir, file, value, err) < 0)
		return ct_error_prefix(err, "config.json: " RES "%s", path);
	if (row->deprecated)
		warn(c, "config.json: " RES "%s: deprecated by the kernel", path);
	return 0;
}

static int apply_row(const struct cg_ctx *c, const struct cg_row *row, struct ct_error *err)
{
	for (size_t i = 0;; i++) {
		struct cg_value val = {.file = "", .value = "", .index = i};
		int got = row->fmt(c, i, &val, err);
		if (got <= 0)
			return got;
		const char *path = val.path[0] ? val.path : row->path;
		const char *file = row->file[c->v];
		if (!file)
			return no_file(c, row, path, err);
		if (val.file[0])
			file = val.file;
		if (write_value(c, row, path, file, val.value, err) < 0)
			return -1;
		i = val.index; /* the next element is looked for after this one */
	}
}

/* memory.checkBeforeUpdate: a new limit below what the cgroup uses now is refused. */
static int check_memory_usage(const struct cg_ctx *c, struct ct_error *err)
{
	const struct oci_memory *m = &c->r->memory;
	if (!m->check_before_update || !m->has_limit || m->limit < 0)
		return 0;
	const char *dir = ct_cg_controller_dir(c->cg, "memory");
	_cleanup_free_ char *text =
		dir ? ct_cg_read(dir, c->v == CT_CG_V1 ? "memory.usage_in_bytes" : "memory.current")
		    : NULL;
	unsigned long long usage;
	if (!text || sscanf(text, "%llu", &usage) != 1)
		return ct_error_sys(err, errno ? errno : EIO,
				    "config.json: " RES ".memory.checkBeforeUpdate: read the "
				    "memory usage");
	if (usage > (unsigned long long)m->limit)
		return ct_error_plain(err, EBUSY,
				      "config.json: " RES ".memory.limit: %" PRId64
				      " is below the current usage %llu (checkBeforeUpdate)",
				      m->limit, usage);
	return 0;
}

/* v1 checks memory.limit_in_bytes <= memory.memsw.limit_in_bytes on every write: raising
 * both above the old memsw needs memsw first, lowering both needs the limit first. */
static int apply_v1_memory_pair(const struct cg_ctx *c, struct ct_error *err)
{
	const struct oci_memory *m = &c->r->memory;
	if (apply_row(c, &rows[0], err) == 0)
		return apply_row(c, &rows[1], err);
	if (err->errnum != EINVAL || !m->has_swap)
		return -1;
	if (apply_row(c, &rows[1], err) < 0)
		return -1;
	return apply_row(c, &rows[0], err);
}

bool ct_cgroup_limits_swap(const struct ct_cgroup *cg)
{
	const struct ct_cgroup_dir *d = ct_cg_controller(cg, "memory");
	const char *file = cg->ops->unified ? "memory.swap.max" : "memory.memsw.limit_in_bytes";
	return d && ct_cg_has_at(d->fd, d->path, file);
}

int ct_cg_apply_resources(struct ct_cgroup *cg, enum ct_cg_version v,
			  const struct oci_resources *res, enum ct_cgroup_apply_mode mode,
			  struct ct_error *err)
{
	const struct cg_ctx c = {.cg = cg, .v = v, .r = res};
	if (mode == CT_CGROUP_APPLY_UPDATE && res->has_memory && check_memory_usage(&c, err) < 0)
		return -1;
	size_t first = 0;
	if (v == CT_CG_V1) {
		if (apply_v1_memory_pair(&c, err) < 0)
			return -1;
		first = 2;
	}
	for (size_t i = first; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (apply_row(&c, &rows[i], err) < 0)
			return -1;
	return 0;
}
