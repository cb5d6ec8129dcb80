/* `ctrun update [--resources FILE|-] [runc's resource flags] ID`: changes the resources of a
 * running (or created, or paused) container. The document (a LinuxResources object, from a
 * file or, with "-", stdin as containerd sends it) is read by the walker of config.json's
 * .linux.resources, so an error names the file and the JSON path; the flags are laid over
 * it. What the update gives is applied through the cgroup driver, each section it touches
 * merged with what the container had (cpu.max needs the quota and the period together), and
 * the container's resources with the update merged in are kept in its state directory
 * (resources.json: the config's .linux.resources until the first update). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#include "libct/cgroup/zero_unset.h"
#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "oci/jsonwrite.h"
#include "runtime/container.h"
#include "runtime/container_cgroup.h"
#include "runtime/log.h"
#include "runtime/update_flags.h"

#define RESOURCES_FILE "resources.json"
#define RESOURCES_MAX  (16u << 20)

enum { OPT_RESOURCES = 'r', OPT_HELP = 'h', OPT_FLAG = 256 };

static int usage(void)
{
	printf("Usage: ctrun update [--resources FILE|-] [flags] ID\n\n"
	       "  -r, --resources FILE   a LinuxResources JSON object (\"-\": stdin)\n");
	for (size_t i = 0; ct_update_flag_at(i); i++)
		printf("  --%-20s %s\n", ct_update_flag_at(i)->name, ct_update_flag_at(i)->help);
	return 0;
}

/* --resources: the document, from the file or from stdin. */
static int read_document(const char *from, struct oci_resources **out, struct ct_error *err)
{
	bool in = strcmp(from, "-") == 0;
	size_t len = 0;
	_cleanup_free_ char *text = in ? ct_read_all(STDIN_FILENO, RESOURCES_MAX, &len)
				       : oci_read_file(from, RESOURCES_MAX, err);
	if (!text)
		return in ? ct_error_set(err, errno, "read the resources from stdin") : -1;
	/* the parser reads a C string: what follows a NUL would go unread (oci_read_file checks
	 * a file the same way) */
	if (in && strlen(text) != len)
		return ct_error_set(err, EINVAL, "stdin: contains a NUL byte");
	return oci_resources_parse(text, in ? "stdin" : from, out, err);
}

/* The command line -> the update's resources and the id. Returns 0, or the exit status + 1
 * (a usage error or --help). */
static int parse_args(int argc, char **argv, struct oci_resources **upd, const char **id)
{
	struct option opts[40];
	size_t n = 0;
	opts[n++] = (struct option){"resources", required_argument, NULL, OPT_RESOURCES};
	opts[n++] = (struct option){"help", no_argument, NULL, OPT_HELP};
	for (size_t i = 0; ct_update_flag_at(i) && n < 39; i++)
		opts[n++] = (struct option){ct_update_flag_at(i)->name, required_argument, NULL,
					    OPT_FLAG + (int)i};
	opts[n] = (struct option){NULL, 0, NULL, 0};
	const char *document = NULL;
	struct oci_resources flags = {0};
	int c, rc = 0;
	bool any_flag = false;
	struct ct_error err = {0};
	while (!rc && (c = ct_getopt(argc, argv, "+:r:h", opts)) != -1) {
		if (c == OPT_RESOURCES)
			document = optarg;
		else if (c == OPT_HELP)
			rc = usage() + 1;
		else if (c < OPT_FLAG)
			rc = 2;
		else if (ct_update_flag_set(&flags, ct_update_flag_at(c - OPT_FLAG)->name, optarg,
					    &err) < 0)
			rc = ct_usage_error(argv[0], "%s", err.msg) + 1;
		else
			any_flag = true;
	}
	if (!rc && optind + 1 != argc)
		rc = ct_usage_error(argv[0], optind >= argc ? "missing container id"
							     : "too many arguments") + 1;
	if (!rc && !document && !any_flag)
		rc = ct_usage_error(argv[0], "nothing to update: give --resources or a flag") + 1;
	*upd = NULL;
	if (!rc && document && read_document(document, upd, &err) < 0) {
		ct_log(CT_LOG_ERROR, "update: %s", err.msg);
		rc = 2;
	}
	if (!rc && !*upd && !(*upd = calloc(1, sizeof(**upd))))
		rc = 2;
	if (!rc) {
		oci_merge_object(oci_resources_fields, *upd, &flags);
		*id = argv[optind];
	}
	oci_walk_free(oci_resources_fields, &flags);
	return rc;
}

/* What the container has now: resources.json, or its config's .linux.resources. */
static int current_resources(const struct ct_container *c, struct oci_resources **out,
			     struct ct_error *err)
{
	_cleanup_free_ char *text = ct_state_read_file(&c->dir, RESOURCES_FILE, RESOURCES_MAX, err);
	if (text)
		return oci_resources_parse(text, RESOURCES_FILE, out, err);
	if (err->errnum != ENOENT)
		return -1;
	_cleanup_free_ char *path = NULL;
	if (asprintf(&path, "%s/config.json", c->state.bundle) < 0)
		return ct_error_set(err, ENOMEM, "config path");
	struct oci_config *config;
	if (oci_config_load(path, NULL, &config, err) < 0)
		return -1;
	*out = calloc(1, sizeof(**out));
	ct_cgroup_forget_unset(&config->linux_.resources);
	if (*out)
		oci_merge_object(oci_resources_fields, *out, &config->linux_.resources);
	oci_config_free(config);
	return *out ? 0 : ct_error_set(err, ENOMEM, "resources");
}

/* The sections an update gives, noted before the merge moves them out of it. */
struct sections {
	bool devices, memory, cpu, pids, block_io, hugepages, network, rdma, unified;
};

static struct sections sections_of(const struct oci_resources *r)
{
	return (struct sections){r->devices.len, r->has_memory, r->has_cpu, r->has_pids,
				 r->has_block_io, r->hugepage_limits.len, r->has_network,
				 r->rdma.len, r->unified.len};
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

static int keep_resources(const struct ct_container *c, const struct oci_resources *r,
			  struct ct_error *err)
{
	yajl_gen g = yajl_gen_alloc(NULL);
	if (!g)
		return ct_error_set(err, ENOMEM, "resources.json");
	oci_write_object(g, oci_resources_fields, r);
	const unsigned char *buf;
	size_t len;
	yajl_gen_get_buf(g, &buf, &len);
	int rc = ct_state_replace_file(&c->dir, RESOURCES_FILE, buf, len, err);
	yajl_gen_free(g);
	return rc;
}

static int update(struct ct_container *c, struct oci_resources *upd, struct ct_error *err)
{
	if (c->status == CT_STATUS_STOPPED)
		return ct_error_set_plain(err, EINVAL, "cannot update a container that is stopped");
	struct ct_cgroup *cg = NULL;
	struct oci_resources *merged = NULL;
	int rc = ct_container_cgroup_open(&c->state, &cg, err);
	if (rc == 0 && !cg)
		rc = ct_error_set_plain(err, ENOENT, "the container has no cgroup (created with "
					"--cgroup-manager disabled)");
	if (rc == 0)
		rc = current_resources(c, &merged, err);
	if (rc == 0) {
		/* a 0 that means "not set" keeps what the container has, as with runc */
		ct_cgroup_forget_unset(upd);
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

int cmd_update(const struct ct_globals *g, int argc, char **argv)
{
	struct oci_resources *upd = NULL;
	const char *id = NULL;
	int rc = parse_args(argc, argv, &upd, &id);
	if (rc)
		return rc - 1;
	struct ct_container c;
	struct ct_error err = {0};
	if (ct_container_open(g, id, true, &c, &err) < 0 || update(&c, upd, &err) < 0) {
		ct_log(CT_LOG_ERROR, "update container \"%s\": %s", ct_shown_id(id).s, err.msg);
		rc = 1;
	}
	ct_container_close(&c);
	oci_resources_free(upd);
	return rc;
}
