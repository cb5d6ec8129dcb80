/* `ctrun mounts [--format table|json] ID`: the live mount table of a container's mount
 * namespace (entered through the init's pidfd), like findmnt, with each mount marked as
 * planned by config.json or extra. */
#include <errno.h>
#include <inttypes.h>
#include <sys/mount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#include "libct/base/cleanup.h"
#include "libct/fs/fsinfo.h"
#include "libct/lifecycle/bundle.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/mounts.h"
#include "oci/jsonwalk.h"
#include "runtime/flags.h"
#include "runtime/json_out.h"
#include "runtime/log.h"
#include "runtime/mounts_view.h"

static void propagation_string(const struct ct_mount *m, char *buf, size_t size)
{
	int n = 0;
	buf[0] = '\0';
	if (m->peer_group)
		n += snprintf(buf + n, size - (size_t)n, "shared:%" PRIu64, m->peer_group);
	if (m->master)
		n += snprintf(buf + n, size - (size_t)n, "%smaster:%" PRIu64, n ? "," : "",
			      m->master);
	if (m->propagation & MS_UNBINDABLE)
		n += snprintf(buf + n, size - (size_t)n, "%sunbindable", n ? "," : "");
	if (!n)
		snprintf(buf, size, "private");
}

static void print_table(const struct ct_mount_table *t, const struct ct_planned_paths *p)
{
	char opts[1024], prop[64];
	printf("%-5s %-6s %-28s %-10s %-12s %-10s %-7s %s\n", "ID", "PARENT", "TARGET", "TYPE",
	       "SOURCE", "PROPAGATION", "PLANNED", "OPTIONS");
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_mount *m = &t->v[i];
		propagation_string(m, prop, sizeof(prop));
		printf("%-5" PRIu32 " %-6" PRIu32 " %-28s %-10s %-12s %-10s %-7s %s\n", m->mnt_id,
		       m->parent_mnt_id, m->target, m->fstype, m->source, prop,
		       ct_planned_paths_match(p, m->target) ? "yes" : "extra",
		       ct_mount_options_string(m, opts, sizeof(opts)));
	}
}

static void print_json(const struct ct_mount_table *t, const struct ct_planned_paths *p)
{
	char opts[1024], prop[64];
	yajl_gen g = yajl_gen_alloc(NULL);
	yajl_gen_array_open(g);
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_mount *m = &t->v[i];
		propagation_string(m, prop, sizeof(prop));
		yajl_gen_map_open(g);
		ct_json_int(g, "id", m->mnt_id);
		ct_json_int(g, "parent", m->parent_mnt_id);
		ct_json_str(g, "target", m->target);
		ct_json_str(g, "fstype", m->fstype);
		ct_json_str(g, "source", m->source);
		ct_json_str(g, "options", ct_mount_options_string(m, opts, sizeof(opts)));
		ct_json_str(g, "propagation", prop);
		ct_json_bool(g, "planned", ct_planned_paths_match(p, m->target));
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
	ct_json_print(g);
}

static int show_mounts(struct ct_container *c, bool json, struct ct_error *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/config.json", c->state.bundle);
	struct oci_config *config = NULL;
	struct oci_config_opts opts = {.on_unknown = ct_bundle_log_unknown};
	if (oci_config_load(path, &opts, &config, err) < 0)
		return -1;
	struct ct_planned_paths planned;
	struct ct_mount_table t = {0};
	int rc = -1;
	if (ct_planned_paths_from_config(config, &planned) < 0)
		ct_error_sys(err, ENOMEM, "list the planned mounts");
	else if (ct_container_mounts(c, &t, err) == 0)
		rc = 0;
	if (rc == 0 && json)
		print_json(&t, &planned);
	else if (rc == 0)
		print_table(&t, &planned);
	ct_mount_table_free(&t);
	ct_planned_paths_free(&planned);
	oci_config_free(config);
	return rc;
}

int cmd_mounts(const struct ct_globals *g, int argc, char **argv)
{
	bool json = false;
	const struct ct_flag flags[] = {{"format", 'f', CT_FLAG_FORMAT, &json}, {NULL}};
	const struct ct_command_line line = {"[--format table|json] ID", flags, 1, 1};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;
	const char *id = argv[optind];
	struct ct_container ct;
	struct ct_error err = {0};
	int rc = 0;
	if (ct_container_open(&g->lc, id, false, &ct, &err) < 0 ||
	    show_mounts(&ct, json, &err) < 0) {
		ct_log(CT_LOG_ERROR, "mounts of container \"%s\": %s", id, err.msg);
		rc = 1;
	}
	ct_container_close(&ct);
	return rc;
}
