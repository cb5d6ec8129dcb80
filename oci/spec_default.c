/* `ctrun spec`: runc's default config.json (libcontainer/specconv) as tables, generated with
 * yajl_gen. The rootless variant follows runc's ToRootless(): a user namespace mapping
 * container root to the caller, no network or cgroup namespace, /sys bound from the host
 * (read-only all the way down where the kernel can make it so). */
#include "oci/spec_default.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "oci/jsonwrite.h"

/* Which variant a table row belongs to. */
enum spec_when { SPEC_ALWAYS, SPEC_ROOTFUL, SPEC_ROOTLESS };

struct spec_mount {
	const char *destination, *type, *source;
	const char *const *options;
	enum spec_when when;
	/* Added after options where the kernel applies recursive mount attributes. */
	const char *const *recursive_options;
};

struct spec_namespace {
	const char *type;
	enum spec_when when;
};

#define LIST(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A rootless container cannot mount a fresh sysfs (it does not own the network namespace)
 * nor cgroupfs; /sys is bound from the host instead, and its cgroup tree comes with it. The
 * host's mounts below /sys (securityfs, tracefs, debugfs, its cgroup hierarchies) come too,
 * and plain ro is the top mount's alone: run by root, the container's root is the host's and
 * could write them. rro and its siblings reach them all (config.md "mounts"); runc spec
 * --rootless writes plain ro only (docs/differences-from-runc.md). */
static const struct spec_mount spec_mounts[] = {
	{"/proc", "proc", "proc", NULL, SPEC_ALWAYS},
	{"/dev", "tmpfs", "tmpfs", LIST("nosuid", "strictatime", "mode=755", "size=65536k"),
	 SPEC_ALWAYS},
	{"/dev/pts", "devpts", "devpts",
	 LIST("nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"),
	 SPEC_ALWAYS},
	{"/dev/shm", "tmpfs", "shm", LIST("nosuid", "noexec", "nodev", "mode=1777", "size=65536k"),
	 SPEC_ALWAYS},
	{"/dev/mqueue", "mqueue", "mqueue", LIST("nosuid", "noexec", "nodev"), SPEC_ALWAYS},
	{"/sys", "sysfs", "sysfs", LIST("nosuid", "noexec", "nodev", "ro"), SPEC_ROOTFUL},
	{"/sys", "bind", "/sys", LIST("rbind", "nosuid", "noexec", "nodev", "ro"), SPEC_ROOTLESS,
	 LIST("rro", "rnosuid", "rnodev", "rnoexec")},
	{"/sys/fs/cgroup", "cgroup", "cgroup", LIST("nosuid", "noexec", "nodev", "relatime", "ro"),
	 SPEC_ROOTFUL},
};

static const struct spec_namespace spec_namespaces[] = {
	{"pid", SPEC_ALWAYS},	 {"network", SPEC_ROOTFUL}, {"ipc", SPEC_ALWAYS},
	{"uts", SPEC_ALWAYS},	 {"mount", SPEC_ALWAYS},    {"cgroup", SPEC_ROOTFUL},
	{"user", SPEC_ROOTLESS},
};

static const char *const spec_env[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"TERM=xterm",
	NULL,
};

/* runc's default set. Like runc, no inheritable or ambient set: an exec'd program gains no
 * capability it was not given (the lesson of CVE-2022-29162). */
static const char *const spec_caps[] = {"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE",
					NULL};

static const char *const spec_masked_paths[] = {
	"/proc/acpi",
	"/proc/asound",
	"/proc/kcore",
	"/proc/keys",
	"/proc/latency_stats",
	"/proc/timer_list",
	"/proc/timer_stats",
	"/proc/sched_debug",
	"/sys/firmware",
	"/proc/scsi",
	NULL,
};

static const char *const spec_readonly_paths[] = {
	"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger", NULL,
};

static bool row_applies(enum spec_when when, bool rootless)
{
	return when == SPEC_ALWAYS || (when == SPEC_ROOTLESS) == rootless;
}

/* ---- small generators: each emits one key and its value ---- */

static void gen_string(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

static void gen_key_string(yajl_gen g, const char *key, const char *value)
{
	gen_string(g, key);
	gen_string(g, value);
}

static void gen_key_bool(yajl_gen g, const char *key, bool value)
{
	gen_string(g, key);
	yajl_gen_bool(g, value);
}

static void gen_key_uint(yajl_gen g, const char *key, unsigned long long value)
{
	gen_string(g, key);
	yajl_gen_integer(g, (long long)value);
}

static void gen_key_strings(yajl_gen g, const char *key, const char *const *list)
{
	gen_string(g, key);
	yajl_gen_array_open(g);
	for (; *list; list++)
		gen_string(g, *list);
	yajl_gen_array_close(g);
}

/* ---- the sections ---- */

static void gen_capabilities(yajl_gen g)
{
	gen_string(g, "capabilities");
	yajl_gen_map_open(g);
	gen_key_strings(g, "bounding", spec_caps);
	gen_key_strings(g, "effective", spec_caps);
	gen_key_strings(g, "permitted", spec_caps);
	yajl_gen_map_close(g);
}

static void gen_rlimits(yajl_gen g)
{
	gen_string(g, "rlimits");
	yajl_gen_array_open(g);
	yajl_gen_map_open(g);
	gen_key_string(g, "type", "RLIMIT_NOFILE");
	gen_key_uint(g, "hard", 1024);
	gen_key_uint(g, "soft", 1024);
	yajl_gen_map_close(g);
	yajl_gen_array_close(g);
}

static void gen_process(yajl_gen g)
{
	gen_string(g, "process");
	yajl_gen_map_open(g);
	/* runc writes true; false lets the default run without a console socket or a tty. */
	gen_key_bool(g, "terminal", false);
	gen_string(g, "user");
	yajl_gen_map_open(g);
	gen_key_uint(g, "uid", 0);
	gen_key_uint(g, "gid", 0);
	yajl_gen_map_close(g);
	gen_key_strings(g, "args", LIST("sh"));
	gen_key_strings(g, "env", spec_env);
	gen_key_string(g, "cwd", "/");
	gen_capabilities(g);
	gen_rlimits(g);
	gen_key_bool(g, "noNewPrivileges", true);
	yajl_gen_map_close(g);
}

static void gen_root(yajl_gen g)
{
	gen_string(g, "root");
	yajl_gen_map_open(g);
	gen_key_string(g, "path", "rootfs");
	gen_key_bool(g, "readonly", true);
	yajl_gen_map_close(g);
}

/* Rootless: uid=/gid= options name ids that are not mapped into the user namespace. */
static bool option_applies(const char *option, bool rootless)
{
	return !rootless || (strncmp(option, "uid=", 4) != 0 && strncmp(option, "gid=", 4) != 0);
}

static void gen_options(yajl_gen g, const char *const *list, bool rootless)
{
	for (; list && *list; list++)
		if (option_applies(*list, rootless))
			gen_string(g, *list);
}

static void gen_mount(yajl_gen g, const struct spec_mount *m, const struct oci_spec_opts *opts)
{
	yajl_gen_map_open(g);
	gen_key_string(g, "destination", m->destination);
	gen_key_string(g, "type", m->type);
	gen_key_string(g, "source", m->source);
	if (m->options) {
		gen_string(g, "options");
		yajl_gen_array_open(g);
		gen_options(g, m->options, opts->rootless);
		if (opts->recursive_mount_attrs)
			gen_options(g, m->recursive_options, opts->rootless);
		yajl_gen_array_close(g);
	}
	yajl_gen_map_close(g);
}

static void gen_mounts(yajl_gen g, const struct oci_spec_opts *opts)
{
	gen_string(g, "mounts");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < sizeof(spec_mounts) / sizeof(spec_mounts[0]); i++)
		if (row_applies(spec_mounts[i].when, opts->rootless))
			gen_mount(g, &spec_mounts[i], opts);
	yajl_gen_array_close(g);
}

static void gen_id_mapping(yajl_gen g, const char *key, uint32_t host_id)
{
	gen_string(g, key);
	yajl_gen_array_open(g);
	yajl_gen_map_open(g);
	gen_key_uint(g, "containerID", 0);
	gen_key_uint(g, "hostID", host_id);
	gen_key_uint(g, "size", 1);
	yajl_gen_map_close(g);
	yajl_gen_array_close(g);
}

static void gen_namespaces(yajl_gen g, bool rootless)
{
	gen_string(g, "namespaces");
	yajl_gen_array_open(g);
	for (size_t i = 0; i < sizeof(spec_namespaces) / sizeof(spec_namespaces[0]); i++) {
		if (!row_applies(spec_namespaces[i].when, rootless))
			continue;
		yajl_gen_map_open(g);
		gen_key_string(g, "type", spec_namespaces[i].type);
		yajl_gen_map_close(g);
	}
	yajl_gen_array_close(g);
}

static void gen_linux(yajl_gen g, const struct oci_spec_opts *opts)
{
	gen_string(g, "linux");
	yajl_gen_map_open(g);
	if (opts->rootless) {
		gen_id_mapping(g, "uidMappings", opts->uid);
		gen_id_mapping(g, "gidMappings", opts->gid);
	}
	gen_namespaces(g, opts->rootless);
	gen_key_strings(g, "maskedPaths", spec_masked_paths);
	gen_key_strings(g, "readonlyPaths", spec_readonly_paths);
	yajl_gen_map_close(g);
}

static int gen_document(yajl_gen g, const void *arg)
{
	const struct oci_spec_opts *opts = arg;
	yajl_gen_map_open(g);
	gen_key_string(g, "ociVersion", "1.3.0");
	gen_process(g);
	gen_root(g);
	gen_key_string(g, "hostname", "ctrun");
	gen_mounts(g, opts);
	gen_linux(g, opts);
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

char *oci_spec_default_json(const struct oci_spec_opts *opts, struct ct_error *err)
{
	return oci_json_document(gen_document, opts, true, "generate config.json", err);
}
