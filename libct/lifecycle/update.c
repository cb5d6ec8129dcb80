/* `update` (libct/lifecycle/ops.h): what an update gives is applied through the cgroup
 * driver, each section it touches merged with what the container had (cpu.max needs the
 * quota and the period together), and the container's resources with the update merged in
 * are kept in its state directory (resources.json: the config's .linux.resources until the
 * first update). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <yajl/yajl_gen.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/zero_unset.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_cgroup.h"
#include "libct/lifecycle/ops.h"
#include "oci/jsonwrite.h"

#define RESOURCES_FILE "resources.json"

/* What the container has now: resources.json, or its config's .linux.resources. */
static int current_resources(const struct ct_container *c, struct oci_resources **out,
			     struct ct_error *err)
{
	_cleanup_free_ char *text =
		ct_state_read_file(&c->dir, RESOURCES_FILE, CT_RESOURCES_MAX, err);
	if (text)
		return oci_resources_parse(text, RESOURCES_FILE, out, err);
	if (err->errnum != ENOENT)
		return -1;
	_cleanup_free_ char *path = NULL;
	if (asprintf(&path, "%s/config.json", c->state.bundle) < 0)
		return ct_error_sys(err, ENOMEM, "config path");
	struct oci_config *config;
	if (oci_config_load(path, NULL, &config, err) < 0)
		return -1;
	*out = calloc(1, sizeof(**out));
	ct_cgroup_forget_unset(&config->linux_.resources);
	if (*out)
		oci_merge_object(oci_resources_fields, *out, &config->linux_.resources);
	oci_config_free(config);
	return *out ? 0 : ct_error_sys(err, ENOMEM, "resources");
}

/* The sections an update gives, noted before the merge moves them out of it. */
struct sections {
	bool devices, memory, cpu, pids, block_io, hugepages, network, rdma, unified;
};

static struct sections sections_of(const struct oci_resources *r)
{
	return (struct sections){r->devices.len, r->has_memory,	  r->has_cpu,
				 r->has_pids,	 r->has_block_io, r->hugepage_limits.len,
				 r->has_network, r->rdma.len,	  r->unified.len};
}

/* Those sections of merged (shallow: merged owns them). */
static struct oci_resources take_sections(const struct oci_resources *m, struct sections s)
{
	struct oci_resources r = {0};
	if (s.devices)
		r.devices = m->devices;
	if (s.memory)
		r.memory = m->memory, r.has_memory = true;
	if (s.cpu)
		r.cpu = m->cpu, r.has_cpu = true;
	if (s.pids)
		r.pids = m->pids, r.has_pids = true;
	if (s.block_io)
		r.block_io = m->block_io, r.has_block_io = true;
	if (s.hugepages)
		r.hugepage_limits = m->hugepage_limits;
	if (s.network)
		r.network = m->network, r.has_network = true;
	if (s.rdma)
		r.rdma = m->rdma;
	if (s.unified)
		r.unified = m->unified;
	return r;
}

static int gen_resources(yajl_gen g, const void *r)
{
	oci_write_object(g, oci_resources_fields, r);
	return 0;
}

static int keep_resources(const struct ct_container *c, const struct oci_resources *r,
			  struct ct_error *err)
{
	size_t len;
	_cleanup_free_ char *text = oci_json_generate(gen_resources, r, false, &len);
	if (!text)
		return ct_error_sys(err, errno, "resources.json");
	return ct_state_replace_file(&c->dir, RESOURCES_FILE, text, len, err);
}

/* runc's rule: a memory limit lifted (-1) without a word on swap lifts the swap limit too;
 * on v1, memory+swap below an unlimited memory would refuse the write. Only where the cgroup
 * has a swap limit (as runc looks): without swap accounting the write would fail. */
static void unlimited_memory_lifts_swap(struct oci_resources *upd, const struct ct_cgroup *cg)
{
	struct oci_memory *m = &upd->memory;
	if (upd->has_memory && m->has_limit && m->limit == -1 && !m->has_swap &&
	    ct_cgroup_limits_swap(cg)) {
		m->swap = -1;
		m->has_swap = true;
	}
}

static int update(struct ct_container *c, struct oci_resources *upd, struct ct_error *err)
{
	if (c->status == CT_STATUS_STOPPED)
		return ct_error_plain(err, EINVAL, "cannot update a container that is stopped");
	struct ct_cgroup *cg = NULL;
	struct oci_resources *merged = NULL;
	int rc = ct_container_cgroup_require(&c->state, "", &cg, err);
	if (rc == 0)
		rc = current_resources(c, &merged, err);
	if (rc == 0) {
		/* a 0 that means "not set" keeps what the container has, as with runc */
		ct_cgroup_forget_unset(upd);
		unlimited_memory_lifts_swap(upd, cg);
		struct sections given = sections_of(upd);
		oci_merge_object(oci_resources_fields, merged, upd); /* moves out of upd */
		struct oci_resources apply_now = take_sections(merged, given);
		rc = ct_cgroup_apply(cg, &apply_now, CT_CGROUP_APPLY_UPDATE, err);
	}
	if (rc == 0)
		rc = keep_resources(c, merged, err);
	oci_resources_free(merged);
	ct_cgroup_free(cg);
	return rc;
}

int ct_lifecycle_update(const struct ct_lifecycle_opts *lc, const char *id,
			struct oci_resources *upd)
{
	struct ct_container c;
	struct ct_error err = {0};
	int rc = 0;
	if (ct_container_open(lc, id, true, &c, &err) < 0 || update(&c, upd, &err) < 0)
		rc = ct_lifecycle_fail("update", id, &err);
	ct_container_close(&c);
	return rc;
}
