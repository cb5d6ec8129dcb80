/* config.json as C structs: every Linux-relevant field of runtime-spec 1.3 config.md and
 * config-linux.md. Filled by oci_config_load() through the descriptor tables of
 * oci/config_fields.c; names follow the JSON names in snake_case. Optional scalars whose
 * absence matters carry has_<name>. */
#ifndef OCI_CONFIG_H
#define OCI_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "oci/jsonwalk.h"

/* ---- shared pieces ---- */

/* (uid_t)-1, (gid_t)-1: "no change" to setresuid, setresgid, chown and the id maps; never
 * an id of a config (oci/config_fields.c), nor of `exec --user`. */
#define OCI_ID_UNCHANGED UINT32_MAX

struct oci_id_mapping {
	uint32_t container_id, host_id, size;
};
typedef OCI_ARRAY(struct oci_id_mapping) oci_id_mappings;

struct oci_hook {
	char *path;
	oci_strings args, env;
	int64_t timeout;
	bool has_timeout;
};
typedef OCI_ARRAY(struct oci_hook) oci_hook_list;

struct oci_hooks {
	oci_hook_list prestart, create_runtime, create_container, start_container, poststart,
		poststop;
};

/* The walker's type of .hooks, which state.json reuses for the hooks it keeps. */
extern const struct oci_type oci_t_hooks;

struct oci_mount {
	char *destination, *source, *type;
	oci_strings options;
	oci_id_mappings uid_mappings, gid_mappings;
};

/* ---- process ---- */

struct oci_console_size {
	uint64_t height, width;
};

struct oci_user {
	uint32_t uid, gid, umask;
	bool has_umask;
	oci_uint32s additional_gids;
	char *username;
};

struct oci_capabilities {
	oci_strings bounding, effective, inheritable, permitted, ambient;
};

struct oci_rlimit {
	char *type;
	uint64_t soft, hard;
};

enum oci_ioprio_class { OCI_IOPRIO_CLASS_RT, OCI_IOPRIO_CLASS_BE, OCI_IOPRIO_CLASS_IDLE };

struct oci_io_priority {
	int class; /* enum oci_ioprio_class */
	int32_t priority;
};

enum oci_sched_policy {
	OCI_SCHED_OTHER,
	OCI_SCHED_FIFO,
	OCI_SCHED_RR,
	OCI_SCHED_BATCH,
	OCI_SCHED_ISO,
	OCI_SCHED_IDLE,
	OCI_SCHED_DEADLINE,
};

struct oci_scheduler {
	int policy; /* enum oci_sched_policy */
	int32_t nice, priority;
	OCI_ARRAY(int) flags; /* indexes into oci_sched_flag_names */
	uint64_t runtime, deadline, period;
};

struct oci_cpu_affinity {
	char *initial, *final;
};

struct oci_process {
	bool terminal;
	struct oci_console_size console_size;
	bool has_console_size;
	struct oci_user user;
	bool has_user;
	oci_strings args;
	char *command_line; /* Windows only: parsed, ignored */
	oci_strings env;
	char *cwd;
	struct oci_capabilities capabilities;
	bool has_capabilities;
	OCI_ARRAY(struct oci_rlimit) rlimits;
	char *apparmor_profile, *selinux_label;
	struct oci_io_priority io_priority;
	bool has_io_priority;
	struct oci_scheduler scheduler;
	bool has_scheduler;
	struct oci_cpu_affinity exec_cpu_affinity;
	bool has_exec_cpu_affinity;
	bool no_new_privileges;
	int32_t oom_score_adj;
	bool has_oom_score_adj;
};

/* ---- linux ---- */

enum oci_ns_type {
	OCI_NS_MOUNT,
	OCI_NS_PID,
	OCI_NS_NETWORK,
	OCI_NS_UTS,
	OCI_NS_IPC,
	OCI_NS_USER,
	OCI_NS_CGROUP,
	OCI_NS_TIME,
	OCI_NS_COUNT
};

struct oci_namespace {
	int type; /* enum oci_ns_type */
	char *path;
};

struct oci_time_offset {
	int64_t secs;
	uint32_t nanosecs;
};

struct oci_time_offsets {
	struct oci_time_offset boottime, monotonic;
	bool has_boottime, has_monotonic;
};

struct oci_device {
	char *type; /* "c", "b", "u" or "p" */
	char *path;
	uint32_t file_mode;
	bool has_file_mode;
	int64_t major, minor;
	bool has_major, has_minor;
	uint32_t uid, gid;
	bool has_uid, has_gid;
};

struct oci_net_device {
	char *key; /* the host interface name */
	char *name;
};

struct oci_device_cgroup {
	bool allow;
	char *type, *access;
	int64_t major, minor;
	bool has_major, has_minor;
};

struct oci_memory {
	int64_t limit, reservation, swap, kernel, kernel_tcp;
	bool has_limit, has_reservation, has_swap, has_kernel, has_kernel_tcp;
	uint64_t swappiness;
	bool has_swappiness;
	bool disable_oom_killer, use_hierarchy, check_before_update;
	bool has_disable_oom_killer, has_use_hierarchy, has_check_before_update;
};

struct oci_cpu {
	uint64_t shares, period, burst, realtime_period;
	bool has_shares, has_period, has_burst, has_realtime_period;
	int64_t quota, realtime_runtime, idle;
	bool has_quota, has_realtime_runtime, has_idle;
	char *cpus, *mems;
};

struct oci_pids {
	int64_t limit;
};

struct oci_blkio_weight_device {
	int64_t major, minor;
	uint16_t weight, leaf_weight;
	bool has_weight, has_leaf_weight;
};

struct oci_blkio_throttle {
	int64_t major, minor;
	uint64_t rate;
};
typedef OCI_ARRAY(struct oci_blkio_throttle) oci_blkio_throttles;

struct oci_blkio {
	uint16_t weight, leaf_weight;
	bool has_weight, has_leaf_weight;
	OCI_ARRAY(struct oci_blkio_weight_device) weight_device;
	oci_blkio_throttles throttle_read_bps_device, throttle_write_bps_device,
		throttle_read_iops_device, throttle_write_iops_device;
};

struct oci_hugepage_limit {
	char *page_size;
	uint64_t limit;
};

struct oci_net_priority {
	char *name;
	uint32_t priority;
};

struct oci_network {
	uint32_t class_id;
	bool has_class_id;
	OCI_ARRAY(struct oci_net_priority) priorities;
};

struct oci_rdma {
	char *key; /* device name */
	uint32_t hca_handles, hca_objects;
	bool has_hca_handles, has_hca_objects;
};

struct oci_resources {
	OCI_ARRAY(struct oci_device_cgroup) devices;
	struct oci_memory memory;
	struct oci_cpu cpu;
	struct oci_pids pids;
	struct oci_blkio block_io;
	bool has_memory, has_cpu, has_pids, has_block_io;
	OCI_ARRAY(struct oci_hugepage_limit) hugepage_limits;
	struct oci_network network;
	bool has_network;
	OCI_ARRAY(struct oci_rdma) rdma;
	oci_string_map unified;
};

struct oci_intel_rdt {
	char *clos_id, *l3_cache_schema, *mem_bw_schema;
	oci_strings schemata;
	bool enable_monitoring;
};

enum oci_seccomp_action {
	OCI_SCMP_ACT_KILL,
	OCI_SCMP_ACT_KILL_PROCESS,
	OCI_SCMP_ACT_KILL_THREAD,
	OCI_SCMP_ACT_TRAP,
	OCI_SCMP_ACT_ERRNO,
	OCI_SCMP_ACT_TRACE,
	OCI_SCMP_ACT_ALLOW,
	OCI_SCMP_ACT_LOG,
	OCI_SCMP_ACT_NOTIFY,
};

enum oci_seccomp_op {
	OCI_SCMP_CMP_NE,
	OCI_SCMP_CMP_LT,
	OCI_SCMP_CMP_LE,
	OCI_SCMP_CMP_EQ,
	OCI_SCMP_CMP_GE,
	OCI_SCMP_CMP_GT,
	OCI_SCMP_CMP_MASKED_EQ,
};

struct oci_syscall_arg {
	uint32_t index;
	uint64_t value, value_two;
	int op; /* enum oci_seccomp_op */
};

struct oci_syscall {
	oci_strings names;
	int action; /* enum oci_seccomp_action */
	uint32_t errno_ret;
	bool has_errno_ret;
	OCI_ARRAY(struct oci_syscall_arg) args;
};

struct oci_seccomp {
	int default_action; /* enum oci_seccomp_action */
	uint32_t default_errno_ret;
	bool has_default_errno_ret;
	OCI_ARRAY(int) architectures; /* indexes into oci_seccomp_arch_names */
	OCI_ARRAY(int) flags;	      /* indexes into oci_seccomp_flag_names */
	char *listener_path, *listener_metadata;
	OCI_ARRAY(struct oci_syscall) syscalls;
};

struct oci_memory_policy {
	int mode; /* index into oci_mpol_mode_names */
	char *nodes;
	OCI_ARRAY(int) flags; /* indexes into oci_mpol_flag_names */
};

enum oci_personality_domain { OCI_PER_LINUX, OCI_PER_LINUX32 };

struct oci_personality {
	int domain;
	oci_strings flags;
};

enum oci_propagation {
	OCI_PROP_PRIVATE,
	OCI_PROP_SHARED,
	OCI_PROP_SLAVE,
	OCI_PROP_UNBINDABLE,
	/* the recursive forms, in the same order */
	OCI_PROP_RPRIVATE,
	OCI_PROP_RSHARED,
	OCI_PROP_RSLAVE,
	OCI_PROP_RUNBINDABLE,
};

struct oci_linux {
	OCI_ARRAY(struct oci_namespace) namespaces;
	oci_id_mappings uid_mappings, gid_mappings;
	struct oci_time_offsets time_offsets;
	bool has_time_offsets;
	OCI_ARRAY(struct oci_device) devices;
	OCI_ARRAY(struct oci_net_device) net_devices;
	char *cgroups_path;
	struct oci_resources resources;
	bool has_resources;
	struct oci_intel_rdt intel_rdt;
	bool has_intel_rdt;
	struct oci_memory_policy memory_policy;
	bool has_memory_policy;
	int rootfs_propagation; /* enum oci_propagation */
	bool has_rootfs_propagation;
	struct oci_seccomp seccomp;
	bool has_seccomp;
	oci_string_map sysctl;
	oci_strings masked_paths, readonly_paths;
	char *mount_label;
	struct oci_personality personality;
	bool has_personality;
};

/* ---- the document ---- */

struct oci_root {
	char *path;
	bool readonly;
};

struct oci_config {
	char *oci_version;
	struct oci_root root; /* REQUIRED on Linux (config.md#root) */
	OCI_ARRAY(struct oci_mount) mounts;
	struct oci_process process;
	bool has_process;
	char *hostname, *domainname;
	struct oci_hooks hooks;
	bool has_hooks;
	oci_string_map annotations;
	struct oci_linux linux_; /* `linux` is a predefined macro in GNU C */
	bool has_linux_;
	/* Other platforms' sections are checked for shape only (see config_fields.c). */
	struct oci_freebsd {
		struct oci_freebsd_jail {
			int host, vnet, ip4, ip6, sysvmsg, sysvsem, sysvshm;
		} jail;
	} freebsd;
};

/* Names behind the enum fields, index = stored value. */
extern const char *const oci_namespace_names[];
extern const char *const oci_seccomp_action_names[];
extern const char *const oci_seccomp_arch_names[];
extern const char *const oci_seccomp_flag_names[];
extern const char *const oci_seccomp_op_names[];
extern const char *const oci_sched_policy_names[];
extern const char *const oci_sched_flag_names[];
extern const char *const oci_ioprio_class_names[];
extern const char *const oci_mpol_mode_names[];
extern const char *const oci_mpol_flag_names[];
extern const char *const oci_propagation_names[];
extern const char *const oci_personality_domain_names[];

/* The descriptor table of the whole document (for walkers: free, features, conformance). */
extern const struct oci_field oci_config_fields[];
extern const struct oci_field oci_process_fields[];
extern const struct oci_field oci_resources_fields[];

struct oci_config_opts {
	const char *file_label; /* name used in messages, default "config.json" */
	void (*on_error)(void *data, const char *msg);
	void (*on_unknown)(void *data, const char *file, const char *path);
	void *data;
};

/* Parses and checks (everything that needs no kernel). Returns 0, or -1 with err set to the
 * first problem; opts->on_error sees every problem. *out is NULL on failure. */
int oci_config_parse(const char *text, const struct oci_config_opts *opts, struct oci_config **out,
		     struct ct_error *err);
int oci_config_load(const char *path, const struct oci_config_opts *opts, struct oci_config **out,
		    struct ct_error *err);
void oci_config_free(struct oci_config *config);

/* A process object alone (`exec --process FILE`, as containerd and conmon write it), by the
 * same descriptors as .process of config.json; errors name label and the JSON path
 * ("proc.json: .user.uid: ..."). args is required. On failure *out holds nothing. */
int oci_process_parse(const char *text, const char *label, struct oci_process *out,
		      struct ct_error *err);
int oci_process_load(const char *path, struct oci_process *out, struct ct_error *err);
void oci_process_free(struct oci_process *p);

/* A LinuxResources object alone (`update --resources FILE`, or `-` for stdin as containerd
 * sends it), walked by the table of config.json's .linux.resources: errors name `label` and
 * the path inside the object (`resources.json: .memory.limit: expected an integer`). */
int oci_resources_parse(const char *text, const char *label, struct oci_resources **out,
			struct ct_error *err);
void oci_resources_free(struct oci_resources *r);

/* ociVersion rule: any SemVer 1.x.y (pre-release and build suffixes allowed). */
bool oci_version_supported(const char *version);

/* The S_IFMT bits of a device of config-linux.md#devices type "c", "u", "b" or "p". */
uint32_t oci_device_file_type(const char *type);

/* A .linux.netDevices entry's name in the container: "name", else the host's (its key). */
const char *oci_net_device_name(const struct oci_net_device *d);

#endif
