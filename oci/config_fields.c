/* The descriptor tables of config.json (config.md, config-linux.md, runtime-spec 1.3).
 * Each table mirrors one object of the schema; oci/jsonwalk.c walks them. */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "oci/config.h"
#include "oci/ifname.h"
#include "oci/string_rules.h"

#define ENUM_TYPE(var, names_) \
	static const struct oci_type var = {.kind = OCI_ENUM, .names = names_}
#define OBJECT_TYPE(var, fields_) \
	static const struct oci_type var = {.kind = OCI_OBJECT, .fields = fields_}
#define ARRAY_TYPE(var, elem_type, elem_ctype) \
	static const struct oci_type var = {   \
		.kind = OCI_ARRAY, .elem = &elem_type, .elem_size = sizeof(elem_ctype)}
/* A map whose values are objects: the element struct holds the key, then the fields. */
#define OBJECT_MAP_TYPE(var, elem_type, elem_ctype)                          \
	static const struct oci_type var = {.kind = OCI_MAP,                 \
					    .elem = &elem_type,              \
					    .elem_size = sizeof(elem_ctype), \
					    .value_offset = 0}

/* ---- enum names (index = C enum value) ---- */

const char *const oci_namespace_names[] = {"mount", "pid",    "network", "uts", "ipc",
					   "user",  "cgroup", "time",	 NULL};
const char *const oci_seccomp_action_names[] = {
	"SCMP_ACT_KILL",	"SCMP_ACT_KILL_PROCESS",
	"SCMP_ACT_KILL_THREAD", "SCMP_ACT_TRAP",
	"SCMP_ACT_ERRNO",	"SCMP_ACT_TRACE",
	"SCMP_ACT_ALLOW",	"SCMP_ACT_LOG",
	"SCMP_ACT_NOTIFY",	NULL,
};
const char *const oci_seccomp_arch_names[] = {
	"SCMP_ARCH_X86",	 "SCMP_ARCH_X86_64",	  "SCMP_ARCH_X32",     "SCMP_ARCH_ARM",
	"SCMP_ARCH_AARCH64",	 "SCMP_ARCH_LOONGARCH64", "SCMP_ARCH_M68K",    "SCMP_ARCH_MIPS",
	"SCMP_ARCH_MIPS64",	 "SCMP_ARCH_MIPS64N32",	  "SCMP_ARCH_MIPSEL",  "SCMP_ARCH_MIPSEL64",
	"SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC",	  "SCMP_ARCH_PPC64",   "SCMP_ARCH_PPC64LE",
	"SCMP_ARCH_S390",	 "SCMP_ARCH_S390X",	  "SCMP_ARCH_SH",      "SCMP_ARCH_SHEB",
	"SCMP_ARCH_PARISC",	 "SCMP_ARCH_PARISC64",	  "SCMP_ARCH_RISCV64", NULL,
};
const char *const oci_seccomp_flag_names[] = {
	"SECCOMP_FILTER_FLAG_TSYNC",
	"SECCOMP_FILTER_FLAG_LOG",
	"SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
	NULL,
};
const char *const oci_seccomp_op_names[] = {"SCMP_CMP_NE",	  "SCMP_CMP_LT", "SCMP_CMP_LE",
					    "SCMP_CMP_EQ",	  "SCMP_CMP_GE", "SCMP_CMP_GT",
					    "SCMP_CMP_MASKED_EQ", NULL};
const char *const oci_sched_policy_names[] = {"SCHED_OTHER",	"SCHED_FIFO", "SCHED_RR",
					      "SCHED_BATCH",	"SCHED_ISO",  "SCHED_IDLE",
					      "SCHED_DEADLINE", NULL};
const char *const oci_sched_flag_names[] = {
	"SCHED_FLAG_RESET_ON_FORK",  "SCHED_FLAG_RECLAIM",
	"SCHED_FLAG_DL_OVERRUN",     "SCHED_FLAG_KEEP_POLICY",
	"SCHED_FLAG_KEEP_PARAMS",    "SCHED_FLAG_UTIL_CLAMP_MIN",
	"SCHED_FLAG_UTIL_CLAMP_MAX", NULL,
};
const char *const oci_ioprio_class_names[] = {"IOPRIO_CLASS_RT", "IOPRIO_CLASS_BE",
					      "IOPRIO_CLASS_IDLE", NULL};
const char *const oci_mpol_mode_names[] = {
	"MPOL_DEFAULT",	  "MPOL_BIND",		 "MPOL_INTERLEAVE", "MPOL_WEIGHTED_INTERLEAVE",
	"MPOL_PREFERRED", "MPOL_PREFERRED_MANY", "MPOL_LOCAL",	    NULL};
const char *const oci_mpol_flag_names[] = {"MPOL_F_NUMA_BALANCING", "MPOL_F_RELATIVE_NODES",
					   "MPOL_F_STATIC_NODES", NULL};
/* the r forms are runc's (Podman writes "rslave" for a bind with rslave propagation) */
const char *const oci_propagation_names[] = {"private",	   "shared",	  "slave",
					     "unbindable", "rprivate",	  "rshared",
					     "rslave",	   "runbindable", NULL};
const char *const oci_personality_domain_names[] = {"LINUX", "LINUX32", NULL};
static const char *const device_type_names[] = {"c", "b", "u", "p", NULL};
static const char *const freebsd_sharing_names[] = {"disable", "new", "inherit", NULL};
static const char *const freebsd_sharing_no_disable_names[] = {"new", "inherit", NULL};

/* ---- string rules the schema gives as patterns ---- */

/* matches(s) is the pattern's test (oci/string_rules.h). */
static int check_pattern(struct oci_walk *w, const void *value, bool (*matches)(const char *),
			 const char *what)
{
	const char *s = *(char *const *)value;
	if (!matches(s))
		return oci_walk_error(w, "expected %s, got \"%s\"", what, s);
	return 0;
}

static int check_ociversion(struct oci_walk *w, const void *value)
{
	const char *s = *(char *const *)value;
	if (!oci_version_supported(s))
		return oci_walk_error(w, "unsupported version \"%s\" (ctrun implements 1.x.y)", s);
	return 0;
}

static int check_rlimit_type(struct oci_walk *w, const void *value)
{
	return check_pattern(w, value, oci_is_rlimit_name, "RLIMIT_<NAME>");
}

static int check_cpu_list(struct oci_walk *w, const void *value)
{
	return check_pattern(w, value, oci_is_cpu_list, "a CPU list such as \"0-3,7\"");
}

static int check_page_size(struct oci_walk *w, const void *value)
{
	return check_pattern(w, value, oci_is_page_size, "a page size such as \"2MB\"");
}

static int check_mem_bw_schema(struct oci_walk *w, const void *value)
{
	return check_pattern(w, value, oci_is_mem_bw_schema, "\"MB:<schema>\"");
}

/* config-linux.md#configLinuxDeviceAllowedlist: type a, b or c; access a composition of r,
 * w and m (an empty access decides nothing: the rule matches no request). */
static int check_device_cgroup_type(struct oci_walk *w, const void *value)
{
	return check_pattern(w, value, oci_is_device_cgroup_type, "\"a\", \"b\" or \"c\"");
}

static int check_device_cgroup_access(struct oci_walk *w, const void *value)
{
	return check_pattern(w, value, oci_is_device_cgroup_access,
			     "a composition of \"r\", \"w\" and \"m\"");
}

static int check_not_empty_array(struct oci_walk *w, const void *value)
{
	const oci_strings *a = value;
	if (a->len == 0)
		return oci_walk_error(w, "expected at least one entry");
	return 0;
}

/* (uid_t)-1 and (gid_t)-1 tell setresuid, setresgid, chown and the id maps "leave it as it
 * is": as a uid it would run the process as whoever ctrun is, root. */
static int check_id(struct oci_walk *w, const void *value)
{
	if (*(const uint32_t *)value == OCI_ID_UNCHANGED)
		return oci_walk_error(w, "4294967295 is (uid_t)-1, which the kernel takes as "
					 "\"leave the id unchanged\": not an id");
	return 0;
}

/* A mapped range that reaches (uid_t)-1 would map it (user_namespaces(7) refuses it too, with
 * no word on which entry). */
static int check_id_mapping(struct oci_walk *w, const void *value)
{
	const struct oci_id_mapping *m = value;
	uint64_t container_end = (uint64_t)m->container_id + m->size;
	uint64_t host_end = (uint64_t)m->host_id + m->size;
	if (container_end > OCI_ID_UNCHANGED || host_end > OCI_ID_UNCHANGED)
		return oci_walk_error_at(
			w, "size",
			"%" PRIu32 " ids from %s %" PRIu32 " reach 4294967295, "
			"(uid_t)-1, which the kernel takes as \"leave the id "
			"unchanged\": not an id",
			m->size, container_end > OCI_ID_UNCHANGED ? "containerID" : "hostID",
			container_end > OCI_ID_UNCHANGED ? m->container_id : m->host_id);
	return 0;
}

static const struct oci_type t_ociversion = {.kind = OCI_STRING, .check = check_ociversion};
static const struct oci_type t_rlimit_type = {.kind = OCI_STRING, .check = check_rlimit_type};
static const struct oci_type t_cpu_list = {.kind = OCI_STRING, .check = check_cpu_list};
static const struct oci_type t_page_size = {.kind = OCI_STRING, .check = check_page_size};
static const struct oci_type t_mem_bw = {.kind = OCI_STRING, .check = check_mem_bw_schema};
static const struct oci_type t_device_cgroup_type = {.kind = OCI_STRING,
						     .check = check_device_cgroup_type};
static const struct oci_type t_device_cgroup_access = {.kind = OCI_STRING,
						       .check = check_device_cgroup_access};
/* -1 is runc's "any" (as absent); the kernel's device numbers are unsigned 32-bit */
static const struct oci_type t_device_cgroup_number = {
	.kind = OCI_INT, .width = 8, .min = -1, .max = UINT32_MAX};
/* the permissions, possibly with the file type bits (0170000): see check_device_file_mode */
static const struct oci_type t_file_mode = {.kind = OCI_UINT, .width = 4, .umax = 0170777};
/* the kernel's OOM_SCORE_ADJ_MIN..MAX; ioprio(7): levels 0 (highest) to 7 */
static const struct oci_type t_oom_score_adj = {
	.kind = OCI_INT, .width = 4, .min = -1000, .max = 1000};
static const struct oci_type t_ioprio_level = {.kind = OCI_INT, .width = 4, .min = 0, .max = 7};
static const struct oci_type t_hook_timeout = {
	.kind = OCI_INT, .width = 8, .min = 1, .max = INT64_MAX};
static const struct oci_type t_id = {
	.kind = OCI_UINT, .width = 4, .umax = UINT32_MAX, .check = check_id};
static const struct oci_type t_ids = {
	.kind = OCI_ARRAY, .elem = &t_id, .elem_size = sizeof(uint32_t)};
static const struct oci_type t_names = {.kind = OCI_ARRAY,
					.elem = &oci_t_string,
					.elem_size = sizeof(char *),
					.check = check_not_empty_array};

ENUM_TYPE(t_namespace_type, oci_namespace_names);
ENUM_TYPE(t_seccomp_action, oci_seccomp_action_names);
ENUM_TYPE(t_seccomp_arch, oci_seccomp_arch_names);
ENUM_TYPE(t_seccomp_flag, oci_seccomp_flag_names);
ENUM_TYPE(t_seccomp_op, oci_seccomp_op_names);
ENUM_TYPE(t_sched_policy, oci_sched_policy_names);
ENUM_TYPE(t_sched_flag, oci_sched_flag_names);
ENUM_TYPE(t_ioprio_class, oci_ioprio_class_names);
ENUM_TYPE(t_mpol_mode, oci_mpol_mode_names);
ENUM_TYPE(t_mpol_flag, oci_mpol_flag_names);
ENUM_TYPE(t_propagation, oci_propagation_names);
ENUM_TYPE(t_personality_domain, oci_personality_domain_names);
ENUM_TYPE(t_freebsd_sharing, freebsd_sharing_names);
ENUM_TYPE(t_freebsd_sharing_no_disable, freebsd_sharing_no_disable_names);

static int check_device_type(struct oci_walk *w, const void *value);

/* ---- shared objects ---- */

static const struct oci_field id_mapping_fields[] = {
	OCI_FIELD_REQ(struct oci_id_mapping, "containerID", container_id, t_id),
	OCI_FIELD_REQ(struct oci_id_mapping, "hostID", host_id, t_id),
	OCI_FIELD_REQ(struct oci_id_mapping, "size", size, oci_t_uint32),
	{NULL},
};
static const struct oci_type t_id_mapping = {
	.kind = OCI_OBJECT, .fields = id_mapping_fields, .check = check_id_mapping};
ARRAY_TYPE(t_id_mappings, t_id_mapping, struct oci_id_mapping);

static const struct oci_field hook_fields[] = {
	OCI_FIELD_REQ(struct oci_hook, "path", path, oci_t_abs_path),
	OCI_FIELD(struct oci_hook, "args", args, oci_t_string_array),
	OCI_FIELD(struct oci_hook, "env", env, oci_t_string_array),
	OCI_FIELD_OPT(struct oci_hook, "timeout", timeout, t_hook_timeout),
	{NULL},
};
OBJECT_TYPE(t_hook, hook_fields);
ARRAY_TYPE(t_hook_list, t_hook, struct oci_hook);

static const struct oci_field hooks_fields[] = {
	OCI_FIELD(struct oci_hooks, "prestart", prestart, t_hook_list),
	OCI_FIELD(struct oci_hooks, "createRuntime", create_runtime, t_hook_list),
	OCI_FIELD(struct oci_hooks, "createContainer", create_container, t_hook_list),
	OCI_FIELD(struct oci_hooks, "startContainer", start_container, t_hook_list),
	OCI_FIELD(struct oci_hooks, "poststart", poststart, t_hook_list),
	OCI_FIELD(struct oci_hooks, "poststop", poststop, t_hook_list),
	{NULL},
};
const struct oci_type oci_t_hooks = {.kind = OCI_OBJECT, .fields = hooks_fields};

static const struct oci_field mount_fields[] = {
	OCI_FIELD_REQ(struct oci_mount, "destination", destination, oci_t_string),
	OCI_FIELD(struct oci_mount, "source", source, oci_t_string),
	OCI_FIELD(struct oci_mount, "type", type, oci_t_string),
	OCI_FIELD(struct oci_mount, "options", options, oci_t_string_array),
	OCI_FIELD(struct oci_mount, "uidMappings", uid_mappings, t_id_mappings),
	OCI_FIELD(struct oci_mount, "gidMappings", gid_mappings, t_id_mappings),
	{NULL},
};
OBJECT_TYPE(t_mount, mount_fields);
ARRAY_TYPE(t_mounts, t_mount, struct oci_mount);

/* ---- process ---- */

static const struct oci_field console_size_fields[] = {
	OCI_FIELD_REQ(struct oci_console_size, "height", height, oci_t_uint64),
	OCI_FIELD_REQ(struct oci_console_size, "width", width, oci_t_uint64),
	{NULL},
};
OBJECT_TYPE(t_console_size, console_size_fields);

static const struct oci_field user_fields[] = {
	OCI_FIELD_REQ(struct oci_user, "uid", uid, t_id),
	OCI_FIELD_REQ(struct oci_user, "gid", gid, t_id),
	OCI_FIELD_OPT(struct oci_user, "umask", umask, oci_t_uint32),
	OCI_FIELD(struct oci_user, "additionalGids", additional_gids, t_ids),
	OCI_FIELD(struct oci_user, "username", username, oci_t_string),
	{NULL},
};
OBJECT_TYPE(t_user, user_fields);

static const struct oci_field capabilities_fields[] = {
	OCI_FIELD(struct oci_capabilities, "bounding", bounding, oci_t_string_array),
	OCI_FIELD(struct oci_capabilities, "effective", effective, oci_t_string_array),
	OCI_FIELD(struct oci_capabilities, "inheritable", inheritable, oci_t_string_array),
	OCI_FIELD(struct oci_capabilities, "permitted", permitted, oci_t_string_array),
	OCI_FIELD(struct oci_capabilities, "ambient", ambient, oci_t_string_array),
	{NULL},
};
OBJECT_TYPE(t_capabilities, capabilities_fields);

static const struct oci_field rlimit_fields[] = {
	OCI_FIELD_REQ(struct oci_rlimit, "type", type, t_rlimit_type),
	OCI_FIELD_REQ(struct oci_rlimit, "soft", soft, oci_t_uint64),
	OCI_FIELD_REQ(struct oci_rlimit, "hard", hard, oci_t_uint64),
	{NULL},
};
OBJECT_TYPE(t_rlimit, rlimit_fields);
ARRAY_TYPE(t_rlimits, t_rlimit, struct oci_rlimit);

static const struct oci_field io_priority_fields[] = {
	OCI_FIELD_REQ(struct oci_io_priority, "class", class, t_ioprio_class),
	OCI_FIELD(struct oci_io_priority, "priority", priority, t_ioprio_level),
	{NULL},
};
OBJECT_TYPE(t_io_priority, io_priority_fields);

ARRAY_TYPE(t_sched_flags, t_sched_flag, int);
static const struct oci_field scheduler_fields[] = {
	OCI_FIELD_REQ(struct oci_scheduler, "policy", policy, t_sched_policy),
	OCI_FIELD(struct oci_scheduler, "nice", nice, oci_t_int32),
	OCI_FIELD(struct oci_scheduler, "priority", priority, oci_t_int32),
	OCI_FIELD(struct oci_scheduler, "flags", flags, t_sched_flags),
	OCI_FIELD(struct oci_scheduler, "runtime", runtime, oci_t_uint64),
	OCI_FIELD(struct oci_scheduler, "deadline", deadline, oci_t_uint64),
	OCI_FIELD(struct oci_scheduler, "period", period, oci_t_uint64),
	{NULL},
};
OBJECT_TYPE(t_scheduler, scheduler_fields);

static const struct oci_field cpu_affinity_fields[] = {
	OCI_FIELD(struct oci_cpu_affinity, "initial", initial, t_cpu_list),
	OCI_FIELD(struct oci_cpu_affinity, "final", final, t_cpu_list),
	{NULL},
};
OBJECT_TYPE(t_cpu_affinity, cpu_affinity_fields);

/* Exported: `exec --process FILE` reads the same object. */
const struct oci_field oci_process_fields[] = {
	OCI_FIELD(struct oci_process, "terminal", terminal, oci_t_bool),
	OCI_FIELD_OPT(struct oci_process, "consoleSize", console_size, t_console_size),
	OCI_FIELD_OPT(struct oci_process, "user", user, t_user),
	OCI_FIELD(struct oci_process, "args", args, t_names),
	OCI_FIELD(struct oci_process, "commandLine", command_line, oci_t_string),
	OCI_FIELD(struct oci_process, "env", env, oci_t_string_array),
	OCI_FIELD_REQ(struct oci_process, "cwd", cwd, oci_t_abs_path),
	OCI_FIELD_OPT(struct oci_process, "capabilities", capabilities, t_capabilities),
	OCI_FIELD(struct oci_process, "rlimits", rlimits, t_rlimits),
	OCI_FIELD(struct oci_process, "apparmorProfile", apparmor_profile, oci_t_string),
	OCI_FIELD(struct oci_process, "selinuxLabel", selinux_label, oci_t_string),
	OCI_FIELD_OPT(struct oci_process, "ioPriority", io_priority, t_io_priority),
	OCI_FIELD_OPT(struct oci_process, "scheduler", scheduler, t_scheduler),
	OCI_FIELD_OPT(struct oci_process, "execCPUAffinity", exec_cpu_affinity, t_cpu_affinity),
	OCI_FIELD(struct oci_process, "noNewPrivileges", no_new_privileges, oci_t_bool),
	OCI_FIELD_OPT(struct oci_process, "oomScoreAdj", oom_score_adj, t_oom_score_adj),
	{NULL},
};
OBJECT_TYPE(t_process, oci_process_fields);

/* ---- linux ---- */

static const struct oci_field namespace_fields[] = {
	OCI_FIELD_REQ(struct oci_namespace, "type", type, t_namespace_type),
	OCI_FIELD(struct oci_namespace, "path", path, oci_t_abs_path),
	{NULL},
};
OBJECT_TYPE(t_namespace, namespace_fields);
ARRAY_TYPE(t_namespaces, t_namespace, struct oci_namespace);

static const struct oci_field time_offset_fields[] = {
	OCI_FIELD(struct oci_time_offset, "secs", secs, oci_t_int64),
	OCI_FIELD(struct oci_time_offset, "nanosecs", nanosecs, oci_t_uint32),
	{NULL},
};
OBJECT_TYPE(t_time_offset, time_offset_fields);

static const struct oci_field time_offsets_fields[] = {
	OCI_FIELD_OPT(struct oci_time_offsets, "boottime", boottime, t_time_offset),
	OCI_FIELD_OPT(struct oci_time_offsets, "monotonic", monotonic, t_time_offset),
	{NULL},
};
OBJECT_TYPE(t_time_offsets, time_offsets_fields);

static const struct oci_type t_device_file_type = {.kind = OCI_STRING, .check = check_device_type};
static const struct oci_field device_fields[] = {
	OCI_FIELD_REQ(struct oci_device, "type", type, t_device_file_type),
	OCI_FIELD_REQ(struct oci_device, "path", path, oci_t_abs_path),
	OCI_FIELD_OPT(struct oci_device, "fileMode", file_mode, t_file_mode),
	OCI_FIELD_OPT(struct oci_device, "major", major, oci_t_int64),
	OCI_FIELD_OPT(struct oci_device, "minor", minor, oci_t_int64),
	OCI_FIELD_OPT(struct oci_device, "uid", uid, t_id),
	OCI_FIELD_OPT(struct oci_device, "gid", gid, t_id),
	{NULL},
};
OBJECT_TYPE(t_device, device_fields);
ARRAY_TYPE(t_devices, t_device, struct oci_device);

static const struct oci_field net_device_fields[] = {
	OCI_FIELD(struct oci_net_device, "name", name, oci_t_string),
	{NULL},
};

/* config-linux.md#configLinuxNetworkDevices: the key names a device of the host, name the
 * one it gets in the container, where "%d" lets the kernel number it. */
static int check_net_device(struct oci_walk *w, const void *value)
{
	const struct oci_net_device *d = value;
	const char *why = oci_ifname_problem(d->key);
	if (why)
		return oci_walk_error(w, "not a network device name: %s", why);
	if (d->name && (why = oci_ifname_new_problem(d->name)))
		return oci_walk_error_at(w, "name", "not a network device name: %s", why);
	return 0;
}
static const struct oci_type t_net_device = {
	.kind = OCI_OBJECT, .fields = net_device_fields, .check = check_net_device};
OBJECT_MAP_TYPE(t_net_devices, t_net_device, struct oci_net_device);

static const struct oci_field device_cgroup_fields[] = {
	OCI_FIELD_REQ(struct oci_device_cgroup, "allow", allow, oci_t_bool),
	OCI_FIELD(struct oci_device_cgroup, "type", type, t_device_cgroup_type),
	OCI_FIELD_OPT(struct oci_device_cgroup, "major", major, t_device_cgroup_number),
	OCI_FIELD_OPT(struct oci_device_cgroup, "minor", minor, t_device_cgroup_number),
	OCI_FIELD(struct oci_device_cgroup, "access", access, t_device_cgroup_access),
	{NULL},
};
OBJECT_TYPE(t_device_cgroup, device_cgroup_fields);
ARRAY_TYPE(t_device_cgroups, t_device_cgroup, struct oci_device_cgroup);

static const struct oci_field memory_fields[] = {
	OCI_FIELD_OPT(struct oci_memory, "limit", limit, oci_t_int64),
	OCI_FIELD_OPT(struct oci_memory, "reservation", reservation, oci_t_int64),
	OCI_FIELD_OPT(struct oci_memory, "swap", swap, oci_t_int64),
	OCI_FIELD_OPT(struct oci_memory, "kernel", kernel, oci_t_int64),
	OCI_FIELD_OPT(struct oci_memory, "kernelTCP", kernel_tcp, oci_t_int64),
	OCI_FIELD_OPT(struct oci_memory, "swappiness", swappiness, oci_t_uint64),
	OCI_FIELD_OPT(struct oci_memory, "disableOOMKiller", disable_oom_killer, oci_t_bool),
	OCI_FIELD_OPT(struct oci_memory, "useHierarchy", use_hierarchy, oci_t_bool),
	OCI_FIELD_OPT(struct oci_memory, "checkBeforeUpdate", check_before_update, oci_t_bool),
	{NULL},
};
OBJECT_TYPE(t_memory, memory_fields);

static const struct oci_field cpu_fields[] = {
	OCI_FIELD_OPT(struct oci_cpu, "shares", shares, oci_t_uint64),
	OCI_FIELD_OPT(struct oci_cpu, "quota", quota, oci_t_int64),
	OCI_FIELD_OPT(struct oci_cpu, "burst", burst, oci_t_uint64),
	OCI_FIELD_OPT(struct oci_cpu, "period", period, oci_t_uint64),
	OCI_FIELD_OPT(struct oci_cpu, "realtimeRuntime", realtime_runtime, oci_t_int64),
	OCI_FIELD_OPT(struct oci_cpu, "realtimePeriod", realtime_period, oci_t_uint64),
	OCI_FIELD(struct oci_cpu, "cpus", cpus, t_cpu_list),
	OCI_FIELD(struct oci_cpu, "mems", mems, t_cpu_list),
	OCI_FIELD_OPT(struct oci_cpu, "idle", idle, oci_t_int64),
	{NULL},
};
OBJECT_TYPE(t_cpu, cpu_fields);

static const struct oci_field pids_fields[] = {
	OCI_FIELD_REQ(struct oci_pids, "limit", limit, oci_t_int64),
	{NULL},
};
OBJECT_TYPE(t_pids, pids_fields);

static const struct oci_field blkio_weight_device_fields[] = {
	OCI_FIELD_REQ(struct oci_blkio_weight_device, "major", major, oci_t_int64),
	OCI_FIELD_REQ(struct oci_blkio_weight_device, "minor", minor, oci_t_int64),
	OCI_FIELD_OPT(struct oci_blkio_weight_device, "weight", weight, oci_t_uint16),
	OCI_FIELD_OPT(struct oci_blkio_weight_device, "leafWeight", leaf_weight, oci_t_uint16),
	{NULL},
};
OBJECT_TYPE(t_blkio_weight_device, blkio_weight_device_fields);
ARRAY_TYPE(t_blkio_weight_devices, t_blkio_weight_device, struct oci_blkio_weight_device);

static const struct oci_field blkio_throttle_fields[] = {
	OCI_FIELD_REQ(struct oci_blkio_throttle, "major", major, oci_t_int64),
	OCI_FIELD_REQ(struct oci_blkio_throttle, "minor", minor, oci_t_int64),
	OCI_FIELD_REQ(struct oci_blkio_throttle, "rate", rate, oci_t_uint64),
	{NULL},
};
OBJECT_TYPE(t_blkio_throttle, blkio_throttle_fields);
ARRAY_TYPE(t_blkio_throttles, t_blkio_throttle, struct oci_blkio_throttle);

static const struct oci_field blkio_fields[] = {
	OCI_FIELD_OPT(struct oci_blkio, "weight", weight, oci_t_uint16),
	OCI_FIELD_OPT(struct oci_blkio, "leafWeight", leaf_weight, oci_t_uint16),
	OCI_FIELD(struct oci_blkio, "weightDevice", weight_device, t_blkio_weight_devices),
	OCI_FIELD(struct oci_blkio, "throttleReadBpsDevice", throttle_read_bps_device,
		  t_blkio_throttles),
	OCI_FIELD(struct oci_blkio, "throttleWriteBpsDevice", throttle_write_bps_device,
		  t_blkio_throttles),
	OCI_FIELD(struct oci_blkio, "throttleReadIOPSDevice", throttle_read_iops_device,
		  t_blkio_throttles),
	OCI_FIELD(struct oci_blkio, "throttleWriteIOPSDevice", throttle_write_iops_device,
		  t_blkio_throttles),
	{NULL},
};
OBJECT_TYPE(t_blkio, blkio_fields);

static const struct oci_field hugepage_fields[] = {
	OCI_FIELD_REQ(struct oci_hugepage_limit, "pageSize", page_size, t_page_size),
	OCI_FIELD_REQ(struct oci_hugepage_limit, "limit", limit, oci_t_uint64),
	{NULL},
};
OBJECT_TYPE(t_hugepage, hugepage_fields);
ARRAY_TYPE(t_hugepages, t_hugepage, struct oci_hugepage_limit);

static const struct oci_field net_priority_fields[] = {
	OCI_FIELD_REQ(struct oci_net_priority, "name", name, oci_t_string),
	OCI_FIELD_REQ(struct oci_net_priority, "priority", priority, oci_t_uint32),
	{NULL},
};
OBJECT_TYPE(t_net_priority, net_priority_fields);
ARRAY_TYPE(t_net_priorities, t_net_priority, struct oci_net_priority);

static const struct oci_field network_fields[] = {
	OCI_FIELD_OPT(struct oci_network, "classID", class_id, oci_t_uint32),
	OCI_FIELD(struct oci_network, "priorities", priorities, t_net_priorities),
	{NULL},
};
OBJECT_TYPE(t_network, network_fields);

static const struct oci_field rdma_fields[] = {
	OCI_FIELD_OPT(struct oci_rdma, "hcaHandles", hca_handles, oci_t_uint32),
	OCI_FIELD_OPT(struct oci_rdma, "hcaObjects", hca_objects, oci_t_uint32),
	{NULL},
};
OBJECT_TYPE(t_rdma, rdma_fields);
OBJECT_MAP_TYPE(t_rdmas, t_rdma, struct oci_rdma);

/* Exported: `update --resources FILE` reads the same object. */
const struct oci_field oci_resources_fields[] = {
	OCI_FIELD(struct oci_resources, "devices", devices, t_device_cgroups),
	OCI_FIELD_OPT(struct oci_resources, "memory", memory, t_memory),
	OCI_FIELD_OPT(struct oci_resources, "cpu", cpu, t_cpu),
	OCI_FIELD_OPT(struct oci_resources, "pids", pids, t_pids),
	OCI_FIELD_OPT(struct oci_resources, "blockIO", block_io, t_blkio),
	OCI_FIELD(struct oci_resources, "hugepageLimits", hugepage_limits, t_hugepages),
	OCI_FIELD_OPT(struct oci_resources, "network", network, t_network),
	OCI_FIELD(struct oci_resources, "rdma", rdma, t_rdmas),
	OCI_FIELD(struct oci_resources, "unified", unified, oci_t_string_map),
	{NULL},
};
OBJECT_TYPE(t_resources, oci_resources_fields);

static const struct oci_field intel_rdt_fields[] = {
	OCI_FIELD(struct oci_intel_rdt, "closID", clos_id, oci_t_string),
	OCI_FIELD(struct oci_intel_rdt, "schemata", schemata, oci_t_string_array),
	OCI_FIELD(struct oci_intel_rdt, "l3CacheSchema", l3_cache_schema, oci_t_string),
	OCI_FIELD(struct oci_intel_rdt, "memBwSchema", mem_bw_schema, t_mem_bw),
	OCI_FIELD(struct oci_intel_rdt, "enableMonitoring", enable_monitoring, oci_t_bool),
	{NULL},
};
OBJECT_TYPE(t_intel_rdt, intel_rdt_fields);

ARRAY_TYPE(t_mpol_flags, t_mpol_flag, int);
static const struct oci_field memory_policy_fields[] = {
	OCI_FIELD_REQ(struct oci_memory_policy, "mode", mode, t_mpol_mode),
	OCI_FIELD(struct oci_memory_policy, "nodes", nodes, oci_t_string),
	OCI_FIELD(struct oci_memory_policy, "flags", flags, t_mpol_flags),
	{NULL},
};
OBJECT_TYPE(t_memory_policy, memory_policy_fields);

static const struct oci_field syscall_arg_fields[] = {
	OCI_FIELD_REQ(struct oci_syscall_arg, "index", index, oci_t_uint32),
	OCI_FIELD_REQ(struct oci_syscall_arg, "value", value, oci_t_uint64),
	OCI_FIELD(struct oci_syscall_arg, "valueTwo", value_two, oci_t_uint64),
	OCI_FIELD_REQ(struct oci_syscall_arg, "op", op, t_seccomp_op),
	{NULL},
};
OBJECT_TYPE(t_syscall_arg, syscall_arg_fields);
ARRAY_TYPE(t_syscall_args, t_syscall_arg, struct oci_syscall_arg);

static const struct oci_field syscall_fields[] = {
	OCI_FIELD_REQ(struct oci_syscall, "names", names, t_names),
	OCI_FIELD_REQ(struct oci_syscall, "action", action, t_seccomp_action),
	OCI_FIELD_OPT(struct oci_syscall, "errnoRet", errno_ret, oci_t_uint32),
	OCI_FIELD(struct oci_syscall, "args", args, t_syscall_args),
	{NULL},
};
OBJECT_TYPE(t_syscall, syscall_fields);
ARRAY_TYPE(t_syscalls, t_syscall, struct oci_syscall);
ARRAY_TYPE(t_seccomp_archs, t_seccomp_arch, int);
ARRAY_TYPE(t_seccomp_flags, t_seccomp_flag, int);

static const struct oci_field seccomp_fields[] = {
	OCI_FIELD_REQ(struct oci_seccomp, "defaultAction", default_action, t_seccomp_action),
	OCI_FIELD_OPT(struct oci_seccomp, "defaultErrnoRet", default_errno_ret, oci_t_uint32),
	OCI_FIELD(struct oci_seccomp, "architectures", architectures, t_seccomp_archs),
	OCI_FIELD(struct oci_seccomp, "flags", flags, t_seccomp_flags),
	OCI_FIELD(struct oci_seccomp, "listenerPath", listener_path, oci_t_abs_path),
	OCI_FIELD(struct oci_seccomp, "listenerMetadata", listener_metadata, oci_t_string),
	OCI_FIELD(struct oci_seccomp, "syscalls", syscalls, t_syscalls),
	{NULL},
};
OBJECT_TYPE(t_seccomp, seccomp_fields);

static const struct oci_field personality_fields[] = {
	OCI_FIELD_REQ(struct oci_personality, "domain", domain, t_personality_domain),
	OCI_FIELD(struct oci_personality, "flags", flags, oci_t_string_array),
	{NULL},
};
OBJECT_TYPE(t_personality, personality_fields);

static const struct oci_field linux_fields[] = {
	OCI_FIELD(struct oci_linux, "namespaces", namespaces, t_namespaces),
	OCI_FIELD(struct oci_linux, "uidMappings", uid_mappings, t_id_mappings),
	OCI_FIELD(struct oci_linux, "gidMappings", gid_mappings, t_id_mappings),
	OCI_FIELD_OPT(struct oci_linux, "timeOffsets", time_offsets, t_time_offsets),
	OCI_FIELD(struct oci_linux, "devices", devices, t_devices),
	OCI_FIELD(struct oci_linux, "netDevices", net_devices, t_net_devices),
	OCI_FIELD(struct oci_linux, "cgroupsPath", cgroups_path, oci_t_string),
	OCI_FIELD_OPT(struct oci_linux, "resources", resources, t_resources),
	OCI_FIELD_OPT(struct oci_linux, "intelRdt", intel_rdt, t_intel_rdt),
	OCI_FIELD_OPT(struct oci_linux, "memoryPolicy", memory_policy, t_memory_policy),
	OCI_FIELD_OPT(struct oci_linux, "rootfsPropagation", rootfs_propagation, t_propagation),
	OCI_FIELD_OPT(struct oci_linux, "seccomp", seccomp, t_seccomp),
	OCI_FIELD(struct oci_linux, "sysctl", sysctl, oci_t_string_map),
	OCI_FIELD(struct oci_linux, "maskedPaths", masked_paths, oci_t_string_array),
	OCI_FIELD(struct oci_linux, "readonlyPaths", readonly_paths, oci_t_string_array),
	OCI_FIELD(struct oci_linux, "mountLabel", mount_label, oci_t_string),
	OCI_FIELD_OPT(struct oci_linux, "personality", personality, t_personality),
	{NULL},
};
OBJECT_TYPE(t_linux, linux_fields);

/* ---- other platforms: ignored on Linux, but a document the schema refuses is refused ---- */

static const struct oci_field freebsd_jail_fields[] = {
	OCI_FIELD(struct oci_freebsd_jail, "host", host, t_freebsd_sharing_no_disable),
	OCI_FIELD(struct oci_freebsd_jail, "vnet", vnet, t_freebsd_sharing_no_disable),
	OCI_FIELD(struct oci_freebsd_jail, "ip4", ip4, t_freebsd_sharing),
	OCI_FIELD(struct oci_freebsd_jail, "ip6", ip6, t_freebsd_sharing),
	OCI_FIELD(struct oci_freebsd_jail, "sysvmsg", sysvmsg, t_freebsd_sharing),
	OCI_FIELD(struct oci_freebsd_jail, "sysvsem", sysvsem, t_freebsd_sharing),
	OCI_FIELD(struct oci_freebsd_jail, "sysvshm", sysvshm, t_freebsd_sharing),
	{NULL},
};
OBJECT_TYPE(t_freebsd_jail, freebsd_jail_fields);
static const struct oci_field freebsd_fields[] = {
	OCI_FIELD(struct oci_freebsd, "jail", jail, t_freebsd_jail),
	{NULL},
};
OBJECT_TYPE(t_freebsd, freebsd_fields);

/* ---- the document ---- */

static const struct oci_field root_fields[] = {
	OCI_FIELD_REQ(struct oci_root, "path", path, oci_t_string),
	OCI_FIELD(struct oci_root, "readonly", readonly, oci_t_bool),
	{NULL},
};
OBJECT_TYPE(t_root, root_fields);

const struct oci_field oci_config_fields[] = {
	OCI_FIELD_REQ(struct oci_config, "ociVersion", oci_version, t_ociversion),
	OCI_FIELD_REQ(struct oci_config, "root", root, t_root),
	OCI_FIELD(struct oci_config, "mounts", mounts, t_mounts),
	OCI_FIELD_OPT(struct oci_config, "process", process, t_process),
	OCI_FIELD(struct oci_config, "hostname", hostname, oci_t_string),
	OCI_FIELD(struct oci_config, "domainname", domainname, oci_t_string),
	OCI_FIELD_OPT(struct oci_config, "hooks", hooks, oci_t_hooks),
	OCI_FIELD(struct oci_config, "annotations", annotations, oci_t_string_map),
	OCI_FIELD_OPT(struct oci_config, "linux", linux_, t_linux),
	OCI_FIELD(struct oci_config, "freebsd", freebsd, t_freebsd),
	{NULL},
};

static int check_device_type(struct oci_walk *w, const void *value)
{
	const char *s = *(char *const *)value;
	for (int i = 0; device_type_names[i]; i++)
		if (strcmp(s, device_type_names[i]) == 0)
			return 0;
	return oci_walk_error(w, "expected one of \"c\", \"b\", \"u\", \"p\", got \"%s\"", s);
}
