/* config.json -> struct oci_config: the walk of oci/config_fields.c, then the rules that
 * tie fields together. Nothing here needs the kernel. */
#include "oci/config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "libct/base/cleanup.h"
#include "oci/ifname.h"
#include "oci/jsonpath.h"

#define CONFIG_MAX_BYTES (16u << 20)

static bool has_namespace(const struct oci_linux *lx, enum oci_ns_type type, bool new_only)
{
	for (size_t i = 0; i < lx->namespaces.len; i++)
		if (lx->namespaces.items[i].type == (int)type &&
		    !(new_only && lx->namespaces.items[i].path))
			return true;
	return false;
}

static void check_namespaces(struct oci_walk *w, const struct oci_linux *lx)
{
	bool seen[OCI_NS_COUNT] = {false};
	for (size_t i = 0; i < lx->namespaces.len; i++) {
		int type = lx->namespaces.items[i].type;
		if (seen[type]) {
			char at[64];
			snprintf(at, sizeof(at), "linux.namespaces[%zu].type", i);
			oci_walk_error_at(w, at, "duplicate namespace \"%s\"",
					  oci_namespace_names[type]);
		}
		seen[type] = true;
	}
}

uint32_t oci_device_file_type(const char *type)
{
	return type[0] == 'b' ? S_IFBLK : type[0] == 'p' ? S_IFIFO : S_IFCHR;
}

/* fileMode holds the permissions; Podman sends the host node's whole st_mode, so the file
 * type bits are accepted too (as runc and crun do) when they are the device's own. */
static void check_device_file_mode(struct oci_walk *w, const struct oci_device *d, size_t i)
{
	char at[64];
	snprintf(at, sizeof(at), "linux.devices[%zu].fileMode", i);
	uint32_t type_bits = d->file_mode & S_IFMT;
	if (d->file_mode & ~(uint32_t)(S_IFMT | 0777))
		oci_walk_error_at(w, at,
				  "0%o has bits beyond the permissions (0777) and the file type",
				  d->file_mode);
	else if (type_bits && type_bits != oci_device_file_type(d->type))
		oci_walk_error_at(w, at, "the file type bits 0%o are not those of type \"%s\"",
				  type_bits, d->type);
}

/* config-linux.md#devices: major and minor are required unless the type is "p". */
static void check_devices(struct oci_walk *w, const struct oci_linux *lx)
{
	for (size_t i = 0; i < lx->devices.len; i++) {
		const struct oci_device *d = &lx->devices.items[i];
		if (strcmp(d->type, "p") != 0 && (!d->has_major || !d->has_minor)) {
			char at[64];
			snprintf(at, sizeof(at), "linux.devices[%zu]", i);
			oci_walk_error_at(w, at, "major and minor are required for type \"%s\"",
					  d->type);
		}
		if (d->has_file_mode)
			check_device_file_mode(w, d, i);
	}
}

const char *oci_net_device_name(const struct oci_net_device *d)
{
	return d->name ? d->name : d->key;
}

/* The earlier device of lx's first i that has name in the container, or NULL. */
static const struct oci_net_device *net_device_named(const struct oci_linux *lx, size_t i,
						       const char *name)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(name, oci_net_device_name(&lx->net_devices.items[j])) == 0)
			return &lx->net_devices.items[j];
	return NULL;
}

/* Two devices given one name in the container: the second move would fail half-way. */
static void check_net_device_names(struct oci_walk *w, const struct oci_linux *lx)
{
	for (size_t i = 0; i < lx->net_devices.len; i++) {
		const struct oci_net_device *d = &lx->net_devices.items[i];
		const char *name = oci_net_device_name(d);
		const struct oci_net_device *first;
		if (oci_ifname_is_template(name) || !(first = net_device_named(lx, i, name)))
			continue;
		char at[96] = "linux.netDevices";
		oci_path_append(at, sizeof(at), strlen(at), &(struct oci_path_step){.name = d->key});
		oci_walk_error_at(w, at, "\"%s\" is also the container's name of \"%s\"", name,
				  first->key);
	}
}

static void check_cross_fields(struct oci_walk *w, const struct oci_config *c)
{
	const struct oci_linux *lx = &c->linux_;
	if (c->has_process && !c->process.args.len && !c->process.command_line)
		oci_walk_error_at(w, "process", "missing required property \"args\"");
	if (!c->has_linux_)
		return; /* another platform's document: the Linux rules below do not apply */
	check_namespaces(w, lx);
	check_devices(w, lx);
	if (c->hostname && *c->hostname && !has_namespace(lx, OCI_NS_UTS, false))
		oci_walk_error_at(w, "hostname", "setting a hostname needs a uts namespace");
	if (c->domainname && *c->domainname && !has_namespace(lx, OCI_NS_UTS, false))
		oci_walk_error_at(w, "domainname", "setting a domainname needs a uts namespace");
	/* With a joined user namespace they describe it (Docker's --userns-remap with
	 * --ipc container:X) and are not written: the process is in that namespace all the same. */
	if ((lx->uid_mappings.len || lx->gid_mappings.len) && !has_namespace(lx, OCI_NS_USER, false))
		oci_walk_error_at(w,
				  lx->uid_mappings.len ? "linux.uidMappings" : "linux.gidMappings",
				  "id mappings need a user namespace");
	check_net_device_names(w, lx);
	if (lx->has_time_offsets && !has_namespace(lx, OCI_NS_TIME, true))
		oci_walk_error_at(w, "linux.timeOffsets", "time offsets need a new time namespace");
}

int oci_config_parse(const char *text, const struct oci_config_opts *opts, struct oci_config **out,
		     struct ct_error *err)
{
	static const struct oci_config_opts no_opts;
	if (!opts)
		opts = &no_opts;
	const char *label = opts->file_label ? opts->file_label : "config.json";
	*out = NULL;
	yajl_val tree = oci_json_parse(label, text, err);
	if (!tree) {
		if (opts->on_error)
			opts->on_error(opts->data, err->msg);
		return -1;
	}
	struct oci_config *config = calloc(1, sizeof(*config));
	if (!config) {
		oci_json_free(tree);
		return ct_error_sys(err, ENOMEM, "%s", label);
	}
	struct oci_walk w = {.file = label,
			     .err = err,
			     .on_error = opts->on_error,
			     .on_unknown = opts->on_unknown,
			     .data = opts->data};
	int ret = oci_walk_object(&w, oci_config_fields, tree, config);
	oci_json_free(tree);
	if (ret == 0)
		check_cross_fields(&w, config);
	if (w.nerrors) {
		oci_config_free(config);
		return -1;
	}
	*out = config;
	return 0;
}

int oci_config_load(const char *path, const struct oci_config_opts *opts, struct oci_config **out,
		    struct ct_error *err)
{
	*out = NULL;
	_cleanup_free_ char *text = oci_read_file(path, CONFIG_MAX_BYTES, err);
	if (!text) {
		if (opts && opts->on_error)
			opts->on_error(opts->data, err->msg);
		return -1;
	}
	return oci_config_parse(text, opts, out, err);
}

void oci_config_free(struct oci_config *config)
{
	if (!config)
		return;
	oci_walk_free(oci_config_fields, config);
	free(config);
}

/* One object of the spec alone, walked by its table into obj (zeroed); -1 after any error,
 * obj then still to be freed by the caller's walker free. */
static int walk_document(const char *text, const char *label, const struct oci_field *fields,
			 void *obj, struct ct_error *err)
{
	yajl_val tree = oci_json_parse(label, text, err);
	if (!tree)
		return -1;
	struct oci_walk w = {.file = label, .err = err};
	int ret = oci_walk_object(&w, fields, tree, obj);
	oci_json_free(tree);
	return ret < 0 || w.nerrors ? -1 : 0;
}

int oci_process_parse(const char *text, const char *label, struct oci_process *out,
		      struct ct_error *err)
{
	memset(out, 0, sizeof(*out));
	int ret = walk_document(text, label, oci_process_fields, out, err);
	if (ret == 0 && !out->args.len) {
		struct oci_walk w = {.file = label, .err = err};
		ret = oci_walk_error_at(&w, "args", "required to run on Linux");
	}
	if (ret < 0)
		oci_process_free(out);
	return ret;
}

int oci_process_load(const char *path, struct oci_process *out, struct ct_error *err)
{
	memset(out, 0, sizeof(*out));
	_cleanup_free_ char *text = oci_read_file(path, CONFIG_MAX_BYTES, err);
	if (!text)
		return -1;
	return oci_process_parse(text, path, out, err);
}

void oci_process_free(struct oci_process *p)
{
	oci_walk_free(oci_process_fields, p);
	memset(p, 0, sizeof(*p));
}

int oci_resources_parse(const char *text, const char *label, struct oci_resources **out,
			struct ct_error *err)
{
	*out = NULL;
	struct oci_resources *r = calloc(1, sizeof(*r));
	if (!r)
		return ct_error_sys(err, ENOMEM, "%s", label);
	if (walk_document(text, label, oci_resources_fields, r, err) < 0) {
		oci_resources_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

void oci_resources_free(struct oci_resources *r)
{
	if (!r)
		return;
	oci_walk_free(oci_resources_fields, r);
	free(r);
}
