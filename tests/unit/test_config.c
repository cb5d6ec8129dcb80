/* config.json -> struct oci_config: every section of config.md and config-linux.md lands in
 * the struct, and every refusal says file, JSON path and reason exactly. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "oci/config.h"
#include "tests/unit/reports.h"

/* JSON written as C tokens: `#` stringizes without expanding macros, so true/false/null
 * and the "linux" key survive as written. */
#define JSON(...) #__VA_ARGS__

/* A minimal valid document plus the members of `object` ("{...}"). The result lives until
 * the next call. */
static const char *doc(const char *object)
{
	static char text[8192];
	const char *rest = strchr(object, '{');
	cr_assert_not_null(rest, "not an object: %s", object);
	rest++;
	bool empty = rest[strspn(rest, " \t\n")] == '}';
	int n = snprintf(text, sizeof(text),
			 "{\"ociVersion\": \"1.3.0\", \"root\": {\"path\": "
			 "\"rootfs\"}%s%s",
			 empty ? "" : ", ", rest);
	cr_assert_lt((size_t)n, sizeof(text));
	return text;
}

static struct oci_config *parse_ok(const char *text, struct reports *r)
{
	struct oci_config_opts opts = {
		.on_error = collect_error, .on_unknown = collect_unknown, .data = r};
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	int ret = oci_config_parse(text, &opts, &c, &err);
	cr_assert_eq(ret, 0, "refused: %s\n%s", err.msg, text);
	cr_assert_not_null(c);
	cr_assert_eq(r->nerrors, 0);
	return c;
}

static struct oci_config *parse(const char *text)
{
	struct reports r = {0};
	return parse_ok(text, &r);
}

/* Refused, and every message reported, in order, is one of `msgs` (NULL-terminated). */
static void assert_errors(const char *text, const char *const *msgs)
{
	struct reports r = {0};
	struct oci_config_opts opts = {.on_error = collect_error, .data = &r};
	struct oci_config *c = (struct oci_config *)1;
	struct ct_error err = {0};
	int ret = oci_config_parse(text, &opts, &c, &err);
	cr_expect_eq(ret, -1, "accepted: %s", text);
	cr_expect_null(c, "*out set on failure");
	unsigned n = 0;
	while (msgs[n])
		n++;
	cr_assert_eq(r.nerrors, n, "%u errors instead of %u, first: %s\n%s", r.nerrors, n,
		     r.errors[0], text);
	for (unsigned i = 0; i < n; i++)
		cr_expect_str_eq(r.errors[i], msgs[i]);
	cr_expect_str_eq(err.msg, msgs[0], "err has the first problem");
	cr_expect_eq(err.errnum, 0);
	if (ret == 0)
		oci_config_free(c);
}

static void assert_error(const char *text, const char *msg)
{
	const char *const msgs[] = {msg, NULL};
	assert_errors(text, msgs);
}

/* ---- the whole document ---- */

static const char full_doc[] = JSON({
	"ociVersion" : "1.3.0",
	"process" : {
		"terminal" : true,
		"consoleSize" : {"height" : 24, "width" : 80},
		"user" : {
			"uid" : 1000,
			"gid" : 1001,
			"umask" : 18,
			"additionalGids" : [ 5, 4294967294 ],
			"username" : "alice"
		},
		"args" : [ "sh", "-c", "echo \"hi\"" ],
		"env" : [ "PATH=/usr/bin:/bin", "TERM=xterm" ],
		"cwd" : "/home/alice",
		"capabilities" : {
			"bounding" : [ "CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE" ],
			"effective" : ["CAP_KILL"],
			"inheritable" : [],
			"permitted" : [ "CAP_KILL", "CAP_NET_BIND_SERVICE" ],
			"ambient" : ["CAP_NET_BIND_SERVICE"]
		},
		"rlimits" : [
			{"type" : "RLIMIT_NOFILE", "soft" : 1024, "hard" : 4096},
			{"type" : "RLIMIT_CORE", "soft" : 0, "hard" : 18446744073709551615}
		],
		"apparmorProfile" : "acme_secure_profile",
		"selinuxLabel" : "system_u:system_r:svirt_lxc_net_t:s0:c124,c675",
		"ioPriority" : {"class" : "IOPRIO_CLASS_IDLE", "priority" : 4},
		"scheduler" : {
			"policy" : "SCHED_DEADLINE",
			"nice" : -5,
			"priority" : 10,
			"flags" : [ "SCHED_FLAG_RESET_ON_FORK", "SCHED_FLAG_UTIL_CLAMP_MAX" ],
			"runtime" : 10000000,
			"deadline" : 20000000,
			"period" : 30000000
		},
		"execCPUAffinity" : {"initial" : "7", "final" : "0-3,7"},
		"noNewPrivileges" : true,
		"oomScoreAdj" : -500
	},
	"root" : {"path" : "rootfs", "readonly" : true},
	"mounts" : [
		{"destination" : "/proc", "type" : "proc", "source" : "proc"}, {
			"destination" : "/data",
			"type" : "bind",
			"source" : "/srv/data",
			"options" : [ "rbind", "ro", "idmap" ],
			"uidMappings" : [ {"containerID" : 0, "hostID" : 100000, "size" : 65536} ],
			"gidMappings" : [ {"containerID" : 1, "hostID" : 200000, "size" : 1000} ]
		}
	],
	"hostname" : "web",
	"domainname" : "example.org",
	"hooks" : {
		"prestart" : [ {
			"path" : "/usr/bin/fix-mounts",
			"args" : [ "fix-mounts", "a1" ],
			"env" : ["key1=value1"]
		} ],
		"createRuntime" : [ {"path" : "/usr/bin/setup-network", "timeout" : 5} ],
		"createContainer" : [ {"path" : "/usr/bin/cc1"}, {"path" : "/usr/bin/cc2"} ],
		"startContainer" : [ {"path" : "/usr/bin/refresh-ldcache"} ],
		"poststart" :
			[ {"path" : "/usr/bin/notify-start", "timeout" : 9223372036854775807} ],
		"poststop" :
			[ {"path" : "/usr/sbin/cleanup.sh", "args" : [ "cleanup.sh", "-f" ]} ]
	},
	"annotations" : {"com.example.key1" : "value1", "key2" : ""},
	"linux" : {
		"namespaces" : [
			{"type" : "pid"}, {"type" : "network", "path" : "/var/run/netns/a"},
			{"type" : "mount"}, {"type" : "ipc"}, {"type" : "uts"}, {"type" : "user"},
			{"type" : "cgroup"}, {"type" : "time"}
		],
		"uidMappings" : [ {"containerID" : 0, "hostID" : 1000, "size" : 32000} ],
		"gidMappings" : [
			{"containerID" : 0, "hostID" : 2000, "size" : 16000},
			{"containerID" : 16000, "hostID" : 4294967294, "size" : 1}
		],
		"timeOffsets" : {
			"boottime" : {"secs" : -10, "nanosecs" : 500},
			"monotonic" : {"secs" : 1000000}
		},
		"devices" : [
			{
				"type" : "c",
				"path" : "/dev/fuse",
				"major" : 10,
				"minor" : 229,
				"fileMode" : 438,
				"uid" : 0,
				"gid" : 5
			},
			{"type" : "b", "path" : "/dev/sda", "major" : 8, "minor" : 0},
			{"type" : "p", "path" : "/dev/fifo"}
		],
		"netDevices" : {"eth0" : {"name" : "ctr0"}, "ens4" : {}},
		"cgroupsPath" : "/myRuntime/myContainer",
		"resources" : {
			"devices" : [
				{"allow" : false, "access" : "rwm"}, {
					"allow" : true,
					"type" : "c",
					"major" : 10,
					"minor" : 229,
					"access" : "rw"
				}
			],
			"memory" : {
				"limit" : 536870912,
				"reservation" : 268435456,
				"swap" : -1,
				"kernel" : 0,
				"kernelTCP" : 1024,
				"swappiness" : 0,
				"disableOOMKiller" : false,
				"useHierarchy" : true,
				"checkBeforeUpdate" : true
			},
			"cpu" : {
				"shares" : 1024,
				"quota" : 1000000,
				"burst" : 100,
				"period" : 500000,
				"realtimeRuntime" : 950000,
				"realtimePeriod" : 1000000,
				"cpus" : "2-3",
				"mems" : "0-7",
				"idle" : 1
			},
			"pids" : {"limit" : 32771},
			"blockIO" : {
				"weight" : 10,
				"leafWeight" : 20,
				"weightDevice" : [
					{
						"major" : 8,
						"minor" : 0,
						"weight" : 500,
						"leafWeight" : 300
					},
					{"major" : 8, "minor" : 16, "weight" : 65535}
				],
				"throttleReadBpsDevice" :
					[ {"major" : 8, "minor" : 0, "rate" : 600} ],
				"throttleWriteBpsDevice" :
					[ {"major" : 8, "minor" : 1, "rate" : 700} ],
				"throttleReadIOPSDevice" :
					[ {"major" : 8, "minor" : 2, "rate" : 800} ],
				"throttleWriteIOPSDevice" :
					[ {"major" : 8, "minor" : 3, "rate" : 900} ]
			},
			"hugepageLimits" : [
				{"pageSize" : "2MB", "limit" : 209715200},
				{"pageSize" : "1GB", "limit" : 0}
			],
			"network" : {
				"classID" : 1048577,
				"priorities" : [
					{"name" : "eth0", "priority" : 500},
					{"name" : "eth1", "priority" : 1000}
				]
			},
			"rdma" : {
				"mlx5_1" : {"hcaHandles" : 3, "hcaObjects" : 10000},
				"mlx4_0" : {"hcaObjects" : 1000}
			},
			"unified" : {"io.max" : "259:0 rbps=2097152", "memory.high" : "max"}
		},
		"intelRdt" : {
			"closID" : "guaranteed_group",
			"l3CacheSchema" : "L3:0=7f0;1=1f",
			"memBwSchema" : "MB:0=20;1=70",
			"schemata" : [ "L2:0=ff", "L3:0=f" ],
			"enableMonitoring" : true
		},
		"memoryPolicy" : {
			"mode" : "MPOL_INTERLEAVE",
			"nodes" : "2-3",
			"flags" : ["MPOL_F_STATIC_NODES"]
		},
		"rootfsPropagation" : "slave",
		"seccomp" : {
			"defaultAction" : "SCMP_ACT_ERRNO",
			"defaultErrnoRet" : 1,
			"architectures" : [ "SCMP_ARCH_X86_64", "SCMP_ARCH_AARCH64" ],
			"flags" : [ "SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW" ],
			"listenerPath" : "/run/seccomp-agent.sock",
			"listenerMetadata" : "meta",
			"syscalls" : [
				{"names" : [ "getcwd", "chmod" ], "action" : "SCMP_ACT_ALLOW"}, {
					"names" : ["personality"],
					"action" : "SCMP_ACT_ERRNO",
					"errnoRet" : 38,
					"args" : [
						{"index" : 0, "value" : 8, "op" : "SCMP_CMP_EQ"}, {
							"index" : 5,
							"value" : 18446744073709551615,
							"valueTwo" : 16,
							"op" : "SCMP_CMP_MASKED_EQ"
						}
					]
				},
				{"names" : ["mount"], "action" : "SCMP_ACT_NOTIFY"}
			]
		},
		"sysctl" : {"net.ipv4.ip_forward" : "1", "kernel.msgmax" : "8192"},
		"maskedPaths" : [ "/proc/kcore", "/proc/keys" ],
		"readonlyPaths" : [ "/proc/sys", "/proc/bus", "/proc/irq" ],
		"mountLabel" : "system_u:object_r:svirt_sandbox_file_t:s0:c715,c811",
		"personality" : {"domain" : "LINUX32", "flags" : []}
	}
});

/* A parsed config freed when it goes out of scope. */
static void config_free_ptr(struct oci_config **c)
{
	oci_config_free(*c);
}

#define config_ptr __attribute__((cleanup(config_free_ptr))) struct oci_config *

/* The full document, parsed before each test of the suite and freed after it. */
static struct oci_config *full;

static void parse_full(void)
{
	full = parse(full_doc);
}

static void free_full(void)
{
	oci_config_free(full);
	full = NULL;
}

TestSuite(config_full, .init = parse_full, .fini = free_full);

/* The map holds exactly the pairs of kv (key, value, key, value, ..., NULL), in order. */
static void expect_map(const oci_string_map *map, const char *const *kv)
{
	size_t n = 0;
	while (kv[2 * n])
		n++;
	cr_assert_eq(map->len, n, "%zu entries, expected %zu", map->len, n);
	for (size_t i = 0; i < n; i++) {
		cr_expect_str_eq(map->items[i].key, kv[2 * i]);
		cr_expect_str_eq(map->items[i].value, kv[2 * i + 1]);
	}
}

Test(config_full, top_level)
{
	cr_expect_str_eq(full->oci_version, "1.3.0");
	cr_expect_str_eq(full->root.path, "rootfs");
	cr_expect(full->root.readonly);
	cr_expect_str_eq(full->hostname, "web");
	cr_expect_str_eq(full->domainname, "example.org");
	cr_expect(full->has_process);
	cr_expect(full->has_hooks);
	cr_expect(full->has_linux_);
	expect_map(&full->annotations,
		   (const char *const[]){"com.example.key1", "value1", "key2", "", NULL});
}

Test(config_full, process_basics)
{
	const struct oci_process *p = &full->process;
	cr_expect(p->terminal);
	cr_expect(p->has_console_size);
	cr_expect_eq(p->console_size.height, 24);
	cr_expect_eq(p->console_size.width, 80);
	cr_assert_eq(p->args.len, 3);
	cr_expect_str_eq(p->args.items[0], "sh");
	cr_expect_str_eq(p->args.items[2], "echo \"hi\"");
	cr_assert_eq(p->env.len, 2);
	cr_expect_str_eq(p->env.items[0], "PATH=/usr/bin:/bin");
	cr_expect_str_eq(p->env.items[1], "TERM=xterm");
	cr_expect_str_eq(p->cwd, "/home/alice");
	cr_expect_null(p->command_line);
	cr_expect_str_eq(p->apparmor_profile, "acme_secure_profile");
	cr_expect_str_eq(p->selinux_label, "system_u:system_r:svirt_lxc_net_t:s0:c124,c675");
	cr_expect(p->no_new_privileges);
	cr_expect(p->has_oom_score_adj);
	cr_expect_eq(p->oom_score_adj, -500);
}

Test(config_full, process_user)
{
	const struct oci_user *u = &full->process.user;
	cr_expect(full->process.has_user);
	cr_expect_eq(u->uid, 1000);
	cr_expect_eq(u->gid, 1001);
	cr_expect(u->has_umask);
	cr_expect_eq(u->umask, 022);
	cr_assert_eq(u->additional_gids.len, 2);
	cr_expect_eq(u->additional_gids.items[0], 5);
	cr_expect_eq(u->additional_gids.items[1],
		     UINT32_MAX - 1); /* the largest id: (uid_t)-1 is none */
	cr_expect_str_eq(u->username, "alice");
}

Test(config_full, process_capabilities)
{
	const struct oci_capabilities *k = &full->process.capabilities;
	cr_expect(full->process.has_capabilities);
	cr_assert_eq(k->bounding.len, 3);
	cr_expect_str_eq(k->bounding.items[0], "CAP_AUDIT_WRITE");
	cr_expect_str_eq(k->bounding.items[2], "CAP_NET_BIND_SERVICE");
	cr_assert_eq(k->effective.len, 1);
	cr_expect_str_eq(k->effective.items[0], "CAP_KILL");
	cr_expect_eq(k->inheritable.len, 0);
	cr_assert_eq(k->permitted.len, 2);
	cr_expect_str_eq(k->permitted.items[1], "CAP_NET_BIND_SERVICE");
	cr_assert_eq(k->ambient.len, 1);
	cr_expect_str_eq(k->ambient.items[0], "CAP_NET_BIND_SERVICE");
}

Test(config_full, process_rlimits)
{
	cr_assert_eq(full->process.rlimits.len, 2);
	const struct oci_rlimit *r = full->process.rlimits.items;
	cr_expect_str_eq(r[0].type, "RLIMIT_NOFILE");
	cr_expect_eq(r[0].soft, 1024);
	cr_expect_eq(r[0].hard, 4096);
	cr_expect_str_eq(r[1].type, "RLIMIT_CORE");
	cr_expect_eq(r[1].soft, 0);
	cr_expect_eq(r[1].hard, UINT64_MAX);
}

Test(config_full, process_io_priority_scheduler_affinity)
{
	const struct oci_process *p = &full->process;
	cr_expect(p->has_io_priority);
	cr_expect_eq(p->io_priority.class, OCI_IOPRIO_CLASS_IDLE);
	cr_expect_eq(p->io_priority.priority, 4);
	cr_expect(p->has_scheduler);
	cr_expect_eq(p->scheduler.policy, OCI_SCHED_DEADLINE);
	cr_expect_eq(p->scheduler.nice, -5);
	cr_expect_eq(p->scheduler.priority, 10);
	cr_assert_eq(p->scheduler.flags.len, 2);
	cr_expect_str_eq(oci_sched_flag_names[p->scheduler.flags.items[0]],
			 "SCHED_FLAG_RESET_ON_FORK");
	cr_expect_str_eq(oci_sched_flag_names[p->scheduler.flags.items[1]],
			 "SCHED_FLAG_UTIL_CLAMP_MAX");
	cr_expect_eq(p->scheduler.runtime, 10000000);
	cr_expect_eq(p->scheduler.deadline, 20000000);
	cr_expect_eq(p->scheduler.period, 30000000);
	cr_expect(p->has_exec_cpu_affinity);
	cr_expect_str_eq(p->exec_cpu_affinity.initial, "7");
	cr_expect_str_eq(p->exec_cpu_affinity.final, "0-3,7");
}

Test(config_full, mounts)
{
	cr_assert_eq(full->mounts.len, 2);
	const struct oci_mount *m = full->mounts.items;
	cr_expect_str_eq(m[0].destination, "/proc");
	cr_expect_str_eq(m[0].type, "proc");
	cr_expect_str_eq(m[0].source, "proc");
	cr_expect_eq(m[0].options.len, 0);
	cr_expect_eq(m[0].uid_mappings.len, 0);
	cr_expect_str_eq(m[1].destination, "/data");
	cr_expect_str_eq(m[1].type, "bind");
	cr_expect_str_eq(m[1].source, "/srv/data");
	cr_assert_eq(m[1].options.len, 3);
	cr_expect_str_eq(m[1].options.items[2], "idmap");
	cr_assert_eq(m[1].uid_mappings.len, 1);
	cr_expect_eq(m[1].uid_mappings.items[0].container_id, 0);
	cr_expect_eq(m[1].uid_mappings.items[0].host_id, 100000);
	cr_expect_eq(m[1].uid_mappings.items[0].size, 65536);
	cr_assert_eq(m[1].gid_mappings.len, 1);
	cr_expect_eq(m[1].gid_mappings.items[0].container_id, 1);
	cr_expect_eq(m[1].gid_mappings.items[0].host_id, 200000);
	cr_expect_eq(m[1].gid_mappings.items[0].size, 1000);
}

Test(config_full, hooks_all_six)
{
	const struct oci_hooks *h = &full->hooks;
	cr_assert_eq(h->prestart.len, 1);
	cr_expect_str_eq(h->prestart.items[0].path, "/usr/bin/fix-mounts");
	cr_assert_eq(h->prestart.items[0].args.len, 2);
	cr_expect_str_eq(h->prestart.items[0].args.items[1], "a1");
	cr_assert_eq(h->prestart.items[0].env.len, 1);
	cr_expect_str_eq(h->prestart.items[0].env.items[0], "key1=value1");
	cr_expect_not(h->prestart.items[0].has_timeout);
	cr_assert_eq(h->create_runtime.len, 1);
	cr_expect_str_eq(h->create_runtime.items[0].path, "/usr/bin/setup-network");
	cr_expect(h->create_runtime.items[0].has_timeout);
	cr_expect_eq(h->create_runtime.items[0].timeout, 5);
	cr_assert_eq(h->create_container.len, 2);
	cr_expect_str_eq(h->create_container.items[1].path, "/usr/bin/cc2");
	cr_assert_eq(h->start_container.len, 1);
	cr_expect_str_eq(h->start_container.items[0].path, "/usr/bin/refresh-ldcache");
	cr_assert_eq(h->poststart.len, 1);
	cr_expect_eq(h->poststart.items[0].timeout, INT64_MAX);
	cr_assert_eq(h->poststop.len, 1);
	cr_expect_str_eq(h->poststop.items[0].path, "/usr/sbin/cleanup.sh");
	cr_expect_str_eq(h->poststop.items[0].args.items[1], "-f");
}

Test(config_full, linux_namespaces_and_id_mappings)
{
	const struct oci_linux *lx = &full->linux_;
	cr_assert_eq(lx->namespaces.len, 8);
	static const int types[] = {OCI_NS_PID, OCI_NS_NETWORK, OCI_NS_MOUNT,  OCI_NS_IPC,
				    OCI_NS_UTS, OCI_NS_USER,	OCI_NS_CGROUP, OCI_NS_TIME};
	for (size_t i = 0; i < 8; i++)
		cr_expect_eq(lx->namespaces.items[i].type, types[i], "namespaces[%zu]", i);
	cr_expect_null(lx->namespaces.items[0].path);
	cr_expect_str_eq(lx->namespaces.items[1].path, "/var/run/netns/a");
	cr_assert_eq(lx->uid_mappings.len, 1);
	cr_expect_eq(lx->uid_mappings.items[0].host_id, 1000);
	cr_expect_eq(lx->uid_mappings.items[0].size, 32000);
	cr_assert_eq(lx->gid_mappings.len, 2);
	cr_expect_eq(lx->gid_mappings.items[0].host_id, 2000);
	cr_expect_eq(lx->gid_mappings.items[1].container_id, 16000);
	cr_expect_eq(lx->gid_mappings.items[1].host_id, UINT32_MAX - 1);
}

Test(config_full, linux_time_offsets)
{
	const struct oci_time_offsets *t = &full->linux_.time_offsets;
	cr_expect(full->linux_.has_time_offsets);
	cr_expect(t->has_boottime);
	cr_expect_eq(t->boottime.secs, -10);
	cr_expect_eq(t->boottime.nanosecs, 500);
	cr_expect(t->has_monotonic);
	cr_expect_eq(t->monotonic.secs, 1000000);
	cr_expect_eq(t->monotonic.nanosecs, 0);
}

Test(config_full, linux_devices_and_net_devices)
{
	const struct oci_linux *lx = &full->linux_;
	cr_assert_eq(lx->devices.len, 3);
	const struct oci_device *d = lx->devices.items;
	cr_expect_str_eq(d[0].type, "c");
	cr_expect_str_eq(d[0].path, "/dev/fuse");
	cr_expect(d[0].has_major && d[0].has_minor);
	cr_expect_eq(d[0].major, 10);
	cr_expect_eq(d[0].minor, 229);
	cr_expect(d[0].has_file_mode);
	cr_expect_eq(d[0].file_mode, 0666);
	cr_expect(d[0].has_uid && d[0].has_gid);
	cr_expect_eq(d[0].uid, 0);
	cr_expect_eq(d[0].gid, 5);
	cr_expect_str_eq(d[1].type, "b");
	cr_expect_eq(d[1].major, 8);
	cr_expect_not(d[1].has_file_mode);
	cr_expect_not(d[1].has_uid);
	cr_expect_str_eq(d[2].type, "p");
	cr_expect_not(d[2].has_major);
	cr_assert_eq(lx->net_devices.len, 2);
	cr_expect_str_eq(lx->net_devices.items[0].key, "eth0");
	cr_expect_str_eq(lx->net_devices.items[0].name, "ctr0");
	cr_expect_str_eq(lx->net_devices.items[1].key, "ens4");
	cr_expect_null(lx->net_devices.items[1].name);
	cr_expect_str_eq(lx->cgroups_path, "/myRuntime/myContainer");
}

/* Podman passes the host node's st_mode: S_IFCHR|0620 for a tty, S_IFBLK|0660, S_IFIFO. */
Test(config_full, device_file_mode_with_its_own_type_bits)
{
	struct oci_config *own = parse(doc(JSON({
		"linux" : {
			"devices" : [
				{
					"type" : "c",
					"path" : "/dev/tty9",
					"major" : 4,
					"minor" : 9,
					"fileMode" : 8592
				},
				{
					"type" : "b",
					"path" : "/dev/loop9",
					"major" : 7,
					"minor" : 9,
					"fileMode" : 25008
				},
				{
					"type" : "u",
					"path" : "/dev/u9",
					"major" : 4,
					"minor" : 9,
					"fileMode" : 8630
				},
				{"type" : "p", "path" : "/dev/fifo9", "fileMode" : 4516}
			]
		}
	})));
	const struct oci_device *d = own->linux_.devices.items;
	cr_expect_eq(d[0].file_mode, S_IFCHR | 0620);
	cr_expect_eq(d[1].file_mode, S_IFBLK | 0660);
	cr_expect_eq(d[2].file_mode, S_IFCHR | 0666);
	cr_expect_eq(d[3].file_mode, S_IFIFO | 0644);
	cr_expect_eq(oci_device_file_type(d[1].type), S_IFBLK);
	cr_expect_eq(oci_device_file_type(d[2].type), S_IFCHR);
	cr_expect_eq(oci_device_file_type(d[3].type), S_IFIFO);
	oci_config_free(own);
}

Test(config_full, resources_devices_memory_cpu_pids)
{
	const struct oci_resources *r = &full->linux_.resources;
	cr_expect(full->linux_.has_resources);
	cr_assert_eq(r->devices.len, 2);
	cr_expect_not(r->devices.items[0].allow);
	cr_expect_null(r->devices.items[0].type);
	cr_expect_str_eq(r->devices.items[0].access, "rwm");
	cr_expect_not(r->devices.items[0].has_major);
	cr_expect(r->devices.items[1].allow);
	cr_expect_str_eq(r->devices.items[1].type, "c");
	cr_expect(r->devices.items[1].has_major && r->devices.items[1].has_minor);
	cr_expect_eq(r->devices.items[1].major, 10);
	cr_expect_eq(r->devices.items[1].minor, 229);

	cr_expect(r->has_memory);
	const struct oci_memory *m = &r->memory;
	cr_expect(m->has_limit && m->has_reservation && m->has_swap && m->has_kernel &&
		  m->has_kernel_tcp && m->has_swappiness);
	cr_expect_eq(m->limit, 536870912);
	cr_expect_eq(m->reservation, 268435456);
	cr_expect_eq(m->swap, -1);
	cr_expect_eq(m->kernel, 0);
	cr_expect_eq(m->kernel_tcp, 1024);
	cr_expect_eq(m->swappiness, 0);
	cr_expect(m->has_disable_oom_killer);
	cr_expect_not(m->disable_oom_killer);
	cr_expect(m->has_use_hierarchy && m->use_hierarchy);
	cr_expect(m->has_check_before_update && m->check_before_update);

	cr_expect(r->has_cpu);
	const struct oci_cpu *cpu = &r->cpu;
	cr_expect(cpu->has_shares && cpu->has_quota && cpu->has_burst && cpu->has_period &&
		  cpu->has_realtime_runtime && cpu->has_realtime_period && cpu->has_idle);
	cr_expect_eq(cpu->shares, 1024);
	cr_expect_eq(cpu->quota, 1000000);
	cr_expect_eq(cpu->burst, 100);
	cr_expect_eq(cpu->period, 500000);
	cr_expect_eq(cpu->realtime_runtime, 950000);
	cr_expect_eq(cpu->realtime_period, 1000000);
	cr_expect_str_eq(cpu->cpus, "2-3");
	cr_expect_str_eq(cpu->mems, "0-7");
	cr_expect_eq(cpu->idle, 1);

	cr_expect(r->has_pids);
	cr_expect_eq(r->pids.limit, 32771);
}

Test(config_full, resources_block_io)
{
	const struct oci_blkio *b = &full->linux_.resources.block_io;
	cr_expect(full->linux_.resources.has_block_io);
	cr_expect(b->has_weight && b->has_leaf_weight);
	cr_expect_eq(b->weight, 10);
	cr_expect_eq(b->leaf_weight, 20);
	cr_assert_eq(b->weight_device.len, 2);
	cr_expect_eq(b->weight_device.items[0].major, 8);
	cr_expect_eq(b->weight_device.items[0].minor, 0);
	cr_expect_eq(b->weight_device.items[0].weight, 500);
	cr_expect(b->weight_device.items[0].has_leaf_weight);
	cr_expect_eq(b->weight_device.items[0].leaf_weight, 300);
	cr_expect_eq(b->weight_device.items[1].weight, 65535);
	cr_expect_not(b->weight_device.items[1].has_leaf_weight);
	const oci_blkio_throttles *t[] = {
		&b->throttle_read_bps_device, &b->throttle_write_bps_device,
		&b->throttle_read_iops_device, &b->throttle_write_iops_device};
	for (int i = 0; i < 4; i++) {
		cr_assert_eq(t[i]->len, 1, "throttle %d", i);
		cr_expect_eq(t[i]->items[0].major, 8);
		cr_expect_eq(t[i]->items[0].minor, i);
		cr_expect_eq(t[i]->items[0].rate, 600 + 100 * (uint64_t)i);
	}
}

Test(config_full, resources_hugepages_network_rdma_unified)
{
	const struct oci_resources *r = &full->linux_.resources;
	cr_assert_eq(r->hugepage_limits.len, 2);
	cr_expect_str_eq(r->hugepage_limits.items[0].page_size, "2MB");
	cr_expect_eq(r->hugepage_limits.items[0].limit, 209715200);
	cr_expect_str_eq(r->hugepage_limits.items[1].page_size, "1GB");
	cr_expect(r->has_network);
	cr_expect(r->network.has_class_id);
	cr_expect_eq(r->network.class_id, 1048577);
	cr_assert_eq(r->network.priorities.len, 2);
	cr_expect_str_eq(r->network.priorities.items[1].name, "eth1");
	cr_expect_eq(r->network.priorities.items[1].priority, 1000);
	cr_assert_eq(r->rdma.len, 2);
	cr_expect_str_eq(r->rdma.items[0].key, "mlx5_1");
	cr_expect(r->rdma.items[0].has_hca_handles);
	cr_expect_eq(r->rdma.items[0].hca_handles, 3);
	cr_expect_eq(r->rdma.items[0].hca_objects, 10000);
	cr_expect_str_eq(r->rdma.items[1].key, "mlx4_0");
	cr_expect_not(r->rdma.items[1].has_hca_handles);
	cr_expect(r->rdma.items[1].has_hca_objects);
	cr_expect_eq(r->rdma.items[1].hca_objects, 1000);
	expect_map(&r->unified, (const char *const[]){"io.max", "259:0 rbps=2097152", "memory.high",
						      "max", NULL});
}

Test(config_full, linux_intel_rdt_memory_policy_propagation)
{
	const struct oci_linux *lx = &full->linux_;
	cr_expect(lx->has_intel_rdt);
	cr_expect_str_eq(lx->intel_rdt.clos_id, "guaranteed_group");
	cr_expect_str_eq(lx->intel_rdt.l3_cache_schema, "L3:0=7f0;1=1f");
	cr_expect_str_eq(lx->intel_rdt.mem_bw_schema, "MB:0=20;1=70");
	cr_assert_eq(lx->intel_rdt.schemata.len, 2);
	cr_expect_str_eq(lx->intel_rdt.schemata.items[1], "L3:0=f");
	cr_expect(lx->intel_rdt.enable_monitoring);
	cr_expect(lx->has_memory_policy);
	cr_expect_str_eq(oci_mpol_mode_names[lx->memory_policy.mode], "MPOL_INTERLEAVE");
	cr_expect_str_eq(lx->memory_policy.nodes, "2-3");
	cr_assert_eq(lx->memory_policy.flags.len, 1);
	cr_expect_str_eq(oci_mpol_flag_names[lx->memory_policy.flags.items[0]],
			 "MPOL_F_STATIC_NODES");
	cr_expect(lx->has_rootfs_propagation);
	cr_expect_eq(lx->rootfs_propagation, OCI_PROP_SLAVE);
}

Test(config_full, linux_seccomp)
{
	const struct oci_seccomp *s = &full->linux_.seccomp;
	cr_expect(full->linux_.has_seccomp);
	cr_expect_eq(s->default_action, OCI_SCMP_ACT_ERRNO);
	cr_expect(s->has_default_errno_ret);
	cr_expect_eq(s->default_errno_ret, 1);
	cr_assert_eq(s->architectures.len, 2);
	cr_expect_str_eq(oci_seccomp_arch_names[s->architectures.items[0]], "SCMP_ARCH_X86_64");
	cr_expect_str_eq(oci_seccomp_arch_names[s->architectures.items[1]], "SCMP_ARCH_AARCH64");
	cr_assert_eq(s->flags.len, 2);
	cr_expect_str_eq(oci_seccomp_flag_names[s->flags.items[0]], "SECCOMP_FILTER_FLAG_LOG");
	cr_expect_str_eq(oci_seccomp_flag_names[s->flags.items[1]],
			 "SECCOMP_FILTER_FLAG_SPEC_ALLOW");
	cr_expect_str_eq(s->listener_path, "/run/seccomp-agent.sock");
	cr_expect_str_eq(s->listener_metadata, "meta");
	cr_assert_eq(s->syscalls.len, 3);
	const struct oci_syscall *sc = s->syscalls.items;
	cr_assert_eq(sc[0].names.len, 2);
	cr_expect_str_eq(sc[0].names.items[0], "getcwd");
	cr_expect_str_eq(sc[0].names.items[1], "chmod");
	cr_expect_eq(sc[0].action, OCI_SCMP_ACT_ALLOW);
	cr_expect_not(sc[0].has_errno_ret);
	cr_expect_eq(sc[0].args.len, 0);
	cr_expect_eq(sc[1].action, OCI_SCMP_ACT_ERRNO);
	cr_expect(sc[1].has_errno_ret);
	cr_expect_eq(sc[1].errno_ret, 38);
	cr_assert_eq(sc[1].args.len, 2);
	cr_expect_eq(sc[1].args.items[0].index, 0);
	cr_expect_eq(sc[1].args.items[0].value, 8);
	cr_expect_eq(sc[1].args.items[0].value_two, 0);
	cr_expect_eq(sc[1].args.items[0].op, OCI_SCMP_CMP_EQ);
	cr_expect_eq(sc[1].args.items[1].index, 5);
	cr_expect_eq(sc[1].args.items[1].value, UINT64_MAX);
	cr_expect_eq(sc[1].args.items[1].value_two, 16);
	cr_expect_eq(sc[1].args.items[1].op, OCI_SCMP_CMP_MASKED_EQ);
	cr_expect_eq(sc[2].action, OCI_SCMP_ACT_NOTIFY);
}

Test(config_full, linux_sysctl_paths_label_personality)
{
	const struct oci_linux *lx = &full->linux_;
	expect_map(&lx->sysctl, (const char *const[]){"net.ipv4.ip_forward", "1", "kernel.msgmax",
						      "8192", NULL});
	cr_assert_eq(lx->masked_paths.len, 2);
	cr_expect_str_eq(lx->masked_paths.items[1], "/proc/keys");
	cr_assert_eq(lx->readonly_paths.len, 3);
	cr_expect_str_eq(lx->readonly_paths.items[2], "/proc/irq");
	cr_expect_str_eq(lx->mount_label, "system_u:object_r:svirt_sandbox_file_t:s0:c715,c811");
	cr_expect(lx->has_personality);
	cr_expect_eq(lx->personality.domain, OCI_PER_LINUX32);
	cr_expect_eq(lx->personality.flags.len, 0);
}

/* ---- what absence looks like ---- */

Test(config_minimal, absent_sections)
{
	config_ptr c = parse(doc(JSON({"mounts" : []})));
	cr_expect_str_eq(c->oci_version, "1.3.0");
	cr_expect_str_eq(c->root.path, "rootfs");
	cr_expect_not(c->root.readonly);
	cr_expect_eq(c->mounts.len, 0);
	cr_expect_not(c->has_process);
	cr_expect_not(c->has_hooks);
	cr_expect_not(c->has_linux_);
	cr_expect_null(c->hostname);
	cr_expect_eq(c->annotations.len, 0);
}

Test(config_minimal, process_defaults)
{
	config_ptr c = parse(doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"]}})));
	cr_expect(c->has_process);
	cr_expect_not(c->process.terminal);
	cr_expect_not(c->process.has_user);
	cr_expect_not(c->process.has_console_size);
	cr_expect_not(c->process.has_capabilities);
	cr_expect_not(c->process.has_oom_score_adj);
	cr_expect_not(c->process.has_scheduler);
	cr_expect_not(c->process.no_new_privileges);
	cr_expect_eq(c->process.env.len, 0);
}

Test(config_minimal, user_without_umask)
{
	config_ptr c = parse(doc(JSON(
		{"process" : {"cwd" : "/", "args" : ["sh"], "user" : {"uid" : 0, "gid" : 0}}})));
	cr_expect(c->process.has_user);
	cr_expect_not(c->process.user.has_umask);
	cr_expect_eq(c->process.user.additional_gids.len, 0);
}

Test(config_minimal, windows_command_line_replaces_args)
{
	config_ptr c = parse(doc(JSON({"process" : {"cwd" : "/", "commandLine" : "cmd /c dir"}})));
	cr_expect_str_eq(c->process.command_line, "cmd /c dir");
	cr_expect_eq(c->process.args.len, 0);
}

Test(config_minimal, empty_linux_section)
{
	config_ptr c = parse(doc(JSON({"linux" : {}})));
	cr_expect(c->has_linux_);
	cr_expect_not(c->linux_.has_resources);
	cr_expect_not(c->linux_.has_seccomp);
	cr_expect_not(c->linux_.has_rootfs_propagation);
	cr_expect_eq(c->linux_.namespaces.len, 0);
}

Test(config_minimal, hostname_without_linux_section)
{
	/* Another platform's document: the uts rule of config-linux.md does not apply. */
	config_ptr c = parse(doc(JSON({"hostname" : "h"})));
	cr_expect_str_eq(c->hostname, "h");
}

Test(config_minimal, empty_hostname_needs_no_uts)
{
	config_ptr c = parse(doc(JSON({"hostname" : "", "domainname" : "", "linux" : {}})));
	cr_expect_str_eq(c->hostname, "");
}

Test(config_minimal, joined_uts_namespace_allows_hostname)
{
	config_ptr c = parse(doc(JSON({
		"hostname" : "h",
		"linux" : {"namespaces" : [ {"type" : "uts", "path" : "/proc/1/ns/uts"} ]}
	})));
	cr_expect_str_eq(c->hostname, "h");
}

Test(config_minimal, comments_and_null_members_accepted)
{
	config_ptr c = parse("{\"ociVersion\": \"1.0.0\", /* a comment */\n"
			     "\"root\": {\"path\": \"r\"}, \"process\": null,\n"
			     "\"linux\": {\"seccomp\": null, \"sysctl\": null}}");
	cr_expect_str_eq(c->oci_version, "1.0.0");
	cr_expect_not(c->has_process);
	cr_expect(c->has_linux_);
	cr_expect_not(c->linux_.has_seccomp);
}

Test(config_minimal, freebsd_section)
{
	config_ptr c =
		parse(doc(JSON({"freebsd" : {"jail" : {"vnet" : "new", "ip4" : "disable"}}})));
	cr_expect_eq(c->freebsd.jail.vnet, 0);
	cr_expect_eq(c->freebsd.jail.ip4, 0);
}

Test(config_minimal, unknown_properties_reported_not_refused)
{
	struct reports r = {0};
	config_ptr c = parse_ok(
		doc(JSON({
			"zos" : {},
			"linux" : {"futureThing" : 1, "resources" : {"memory" : {"x" : 1}}},
			"process" : {"cwd" : "/", "args" : ["sh"], "new.field" : true}
		})),
		&r);
	cr_assert_eq(r.nunknown, 4);
	cr_expect_str_eq(r.unknown[0], "config.json .zos");
	cr_expect_str_eq(r.unknown[1], "config.json .linux.futureThing");
	cr_expect_str_eq(r.unknown[2], "config.json .linux.resources.memory.x");
	cr_expect_str_eq(r.unknown[3], "config.json .process[\"new.field\"]");
}

Test(config_minimal, file_label_names_the_file)
{
	struct reports r = {0};
	struct oci_config_opts opts = {
		.file_label = "/b/config.json", .on_error = collect_error, .data = &r};
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_parse("{\"root\": {\"path\": \"r\"}}", &opts, &c, &err), -1);
	cr_expect_str_eq(err.msg, "/b/config.json: .: missing required property \"ociVersion\"");
	cr_expect_eq(r.nerrors, 1);
}

Test(config_minimal, no_opts_is_fine)
{
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_parse(doc(JSON({"hostname" : ""})), NULL, &c, &err), 0, "%s",
		     err.msg);
	cr_expect_not_null(c);
	oci_config_free(c);
	cr_expect_eq(oci_config_parse("{", NULL, &c, &err), -1);
	cr_expect_null(c);
	oci_config_free(NULL);
}

/* ---- refusals: the top ---- */

Test(config_errors, missing_oci_version)
{
	assert_error(JSON({"root" : {"path" : "rootfs"}}),
		     "config.json: .: missing required property \"ociVersion\"");
}

Test(config_errors, unsupported_oci_versions)
{
	assert_error(JSON({"ociVersion" : "0.5.0", "root" : {"path" : "r"}}),
		     "config.json: .ociVersion: unsupported version \"0.5.0\" "
		     "(ctrun implements 1.x.y)");
	assert_error(JSON({"ociVersion" : "2.0.0", "root" : {"path" : "r"}}),
		     "config.json: .ociVersion: unsupported version \"2.0.0\" "
		     "(ctrun implements 1.x.y)");
	assert_error(JSON({"ociVersion" : 1, "root" : {"path" : "r"}}),
		     "config.json: .ociVersion: expected a string, got 1");
}

Test(config_errors, missing_root)
{
	assert_error(JSON({"ociVersion" : "1.3.0"}),
		     "config.json: .: missing required property \"root\"");
	assert_error(JSON({"ociVersion" : "1.3.0", "root" : {}}),
		     "config.json: .root: missing required property \"path\"");
	assert_error(JSON({"ociVersion" : "1.3.0", "root" : {"path" : "r", "readonly" : "yes"}}),
		     "config.json: .root.readonly: expected a boolean, got \"yes\"");
}

Test(config_errors, wrong_top_level_type)
{
	assert_error("[]", "config.json: .: expected an object, got an array");
	assert_error("\"config\"", "config.json: .: expected an object, got \"config\"");
	assert_error("42", "config.json: .: expected an object, got 42");
	assert_error(doc(JSON({"linux" : []})),
		     "config.json: .linux: expected an object, got an array");
	assert_error(doc(JSON({"process" : "sh"})),
		     "config.json: .process: expected an object, got \"sh\"");
	assert_error(doc(JSON({"mounts" : {}})),
		     "config.json: .mounts: expected an array, got an object");
	assert_error(doc(JSON({"hooks" : []})),
		     "config.json: .hooks: expected an object, got an array");
	assert_error(doc(JSON({"annotations" : ["a"]})),
		     "config.json: .annotations: expected an object, got an array");
}

Test(config_errors, malformed_json)
{
	assert_error("{\n  \"ociVersion\": \"1.3.0\",\n  \"root\": {\"path\": \"r\"},,\n}",
		     "config.json: malformed JSON at line 3, column 25: invalid object key (must "
		     "be a string)");
	assert_error("", "config.json: malformed JSON at line 1, column 1: premature EOF");
}

Test(config_errors, duplicate_property)
{
	assert_error(doc(JSON({"hostname" : "a", "hostname" : "b"})),
		     "config.json: .hostname: duplicate property");
	assert_error(doc(JSON({"annotations" : {"k" : "1", "k" : "2"}})),
		     "config.json: .annotations.k: duplicate property");
}

Test(config_errors, every_problem_reported)
{
	static const char *const msgs[] = {
		"config.json: .root.path: expected a string, got 1",
		"config.json: .process.cwd: expected an absolute path, got \"tmp\"",
		"config.json: .process.user.uid: 4294967296 is out of range [0, 4294967295]",
		"config.json: .annotations.a: expected a string, got true",
		"config.json: .linux.resources.memory.limit: expected an integer, got \"512M\"",
		NULL,
	};
	assert_errors(JSON({
			      "ociVersion" : "1.3.0",
			      "root" : {"path" : 1},
			      "process" : {
				      "cwd" : "tmp",
				      "args" : ["sh"],
				      "user" : {"uid" : 4294967296, "gid" : 0}
			      },
			      "annotations" : {"a" : true},
			      "linux" : {"resources" : {"memory" : {"limit" : "512M"}}}
		      }),
		      msgs);
}

Test(config_errors, load_missing_file)
{
	struct reports r = {0};
	struct oci_config_opts opts = {.on_error = collect_error, .data = &r};
	struct oci_config *c = (struct oci_config *)1;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_load("/nonexistent/config.json", &opts, &c, &err), -1);
	cr_expect_null(c);
	cr_expect_str_eq(err.msg, "open \"/nonexistent/config.json\": No such file or directory");
	cr_assert_eq(r.nerrors, 1);
	cr_expect_str_eq(r.errors[0], err.msg);
}

/* ---- refusals: process ---- */

Test(config_errors, process_cwd)
{
	assert_error(doc(JSON({"process" : {"cwd" : "tmp", "args" : ["sh"]}})),
		     "config.json: .process.cwd: expected an absolute path, got \"tmp\"");
	assert_error(doc(JSON({"process" : {"args" : ["sh"]}})),
		     "config.json: .process: missing required property \"cwd\"");
}

Test(config_errors, process_args)
{
	assert_error(doc(JSON({"process" : {"cwd" : "/"}})),
		     "config.json: .process: missing required property \"args\"");
	assert_error(doc(JSON({"process" : {"cwd" : "/", "args" : []}})),
		     "config.json: .process.args: expected at least one entry");
	assert_error(doc(JSON({"process" : {"cwd" : "/", "args" : [ "sh", 1 ]}})),
		     "config.json: .process.args[1]: expected a string, got 1");
}

Test(config_errors, process_user)
{
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "user" : {"uid" : 4294967296, "gid" : 0}
			     }
		     })),
		     "config.json: .process.user.uid: 4294967296 is out of range [0, 4294967295]");
	assert_error(
		doc(JSON({
			"process" : {"cwd" : "/", "args" : ["sh"], "user" : {"uid" : -1, "gid" : 0}}
		})),
		"config.json: .process.user.uid: -1 is out of range [0, 4294967295]");
	assert_error(doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "user" : {"uid" : 0}}})),
		     "config.json: .process.user: missing required property \"gid\"");
	assert_error(
		doc(JSON({
			"process" : {
				"cwd" : "/",
				"args" : ["sh"],
				"user" : {"uid" : 0, "gid" : 0, "additionalGids" : [ 1, "2" ]}
			}
		})),
		"config.json: .process.user.additionalGids[1]: expected an integer, got \"2\"");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "user" : {"uid" : 0, "gid" : 0, "umask" : 1.5}
			     }
		     })),
		     "config.json: .process.user.umask: expected an integer, got 1.5");
}

Test(config_errors, process_console_size)
{
	assert_error(
		doc(JSON({
			"process" : {"cwd" : "/", "args" : ["sh"], "consoleSize" : {"height" : 24}}
		})),
		"config.json: .process.consoleSize: missing required property \"width\"");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "consoleSize" : {"height" : -1, "width" : 80}
			     }
		     })),
		     "config.json: .process.consoleSize.height: -1 is out of range "
		     "[0, 18446744073709551615]");
}

Test(config_errors, process_capabilities_and_env)
{
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "capabilities" : {"ambient" : "CAP_KILL"}
			     }
		     })),
		     "config.json: .process.capabilities.ambient: expected an array, got "
		     "\"CAP_KILL\"");
	assert_error(
		doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "env" : [ "A=1", null ]}})),
		"config.json: .process.env[1]: expected a string, got null");
	assert_error(doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "terminal" : 1}})),
		     "config.json: .process.terminal: expected a boolean, got 1");
}

Test(config_errors, process_rlimits)
{
	assert_error(
		doc(JSON({
			"process" : {
				"cwd" : "/",
				"args" : ["sh"],
				"rlimits" : [ {"type" : "NOFILE", "soft" : 1, "hard" : 1} ]
			}
		})),
		"config.json: .process.rlimits[0].type: expected RLIMIT_<NAME>, got \"NOFILE\"");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "rlimits" : [ {"type" : "RLIMIT_NOFILE", "soft" : 1} ]
			     }
		     })),
		     "config.json: .process.rlimits[0]: missing required property \"hard\"");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "rlimits" : [ {
					     "type" : "RLIMIT_NOFILE",
					     "soft" : 18446744073709551616,
					     "hard" : 1
				     } ]
			     }
		     })),
		     "config.json: .process.rlimits[0].soft: 18446744073709551616 is out of range "
		     "[0, 18446744073709551615]");
}

Test(config_errors, process_io_priority_and_scheduler)
{
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "ioPriority" : {"class" : "IOPRIO_CLASS_NONE"}
			     }
		     })),
		     "config.json: .process.ioPriority.class: expected one of \"IOPRIO_CLASS_RT\", "
		     "\"IOPRIO_CLASS_BE\", \"IOPRIO_CLASS_IDLE\", got \"IOPRIO_CLASS_NONE\"");
	assert_error(
		doc(JSON({
			"process" : {"cwd" : "/", "args" : ["sh"], "ioPriority" : {"priority" : 1}}
		})),
		"config.json: .process.ioPriority: missing required property \"class\"");
	assert_error(
		doc(JSON({
			"process" : {
				"cwd" : "/",
				"args" : ["sh"],
				"scheduler" : {"policy" : "SCHED_FAIR"}
			}
		})),
		"config.json: .process.scheduler.policy: expected one of \"SCHED_OTHER\", "
		"\"SCHED_FIFO\", \"SCHED_RR\", \"SCHED_BATCH\", \"SCHED_ISO\", \"SCHED_IDLE\", "
		"\"SCHED_DEADLINE\", got \"SCHED_FAIR\"");
	assert_error(
		doc(JSON({
			"process" : {
				"cwd" : "/",
				"args" : ["sh"],
				"scheduler" : {"policy" : "SCHED_OTHER", "flags" : ["SCHED_FLAG_X"]}
			}
		})),
		"config.json: .process.scheduler.flags[0]: expected one of "
		"\"SCHED_FLAG_RESET_ON_FORK\", \"SCHED_FLAG_RECLAIM\", \"SCHED_FLAG_DL_OVERRUN\", "
		"\"SCHED_FLAG_KEEP_POLICY\", \"SCHED_FLAG_KEEP_PARAMS\", "
		"\"SCHED_FLAG_UTIL_CLAMP_MIN\", \"SCHED_FLAG_UTIL_CLAMP_MAX\", got "
		"\"SCHED_FLAG_X\"");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "scheduler" : {"policy" : "SCHED_OTHER", "nice" : 2147483648}
			     }
		     })),
		     "config.json: .process.scheduler.nice: 2147483648 is out of range "
		     "[-2147483648, 2147483647]");
}

Test(config_errors, process_cpu_affinity_oom_score)
{
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "execCPUAffinity" : {"initial" : "a-b"}
			     }
		     })),
		     "config.json: .process.execCPUAffinity.initial: expected a CPU list such as "
		     "\"0-3,7\", got \"a-b\"");
	assert_error(
		doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "oomScoreAdj" : "-1000"}})),
		"config.json: .process.oomScoreAdj: expected an integer, got \"-1000\"");
	assert_error(
		doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "noNewPrivileges" : "true"}})),
		"config.json: .process.noNewPrivileges: expected a boolean, got \"true\"");
}

/* The kernel's bounds, so a value it would refuse (or clamp) fails at parse time. */
Test(config_errors, oom_score_adj_and_io_priority_ranges)
{
	assert_error(doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "oomScoreAdj" : 1001}})),
		     "config.json: .process.oomScoreAdj: 1001 is out of range [-1000, 1000]");
	assert_error(doc(JSON({"process" : {"cwd" : "/", "args" : ["sh"], "oomScoreAdj" : -1001}})),
		     "config.json: .process.oomScoreAdj: -1001 is out of range [-1000, 1000]");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "ioPriority" : {"class" : "IOPRIO_CLASS_BE", "priority" : 8}
			     }
		     })),
		     "config.json: .process.ioPriority.priority: 8 is out of range [0, 7]");
	assert_error(doc(JSON({
			     "process" : {
				     "cwd" : "/",
				     "args" : ["sh"],
				     "ioPriority" : {"class" : "IOPRIO_CLASS_BE", "priority" : -1}
			     }
		     })),
		     "config.json: .process.ioPriority.priority: -1 is out of range [0, 7]");
}

Test(config_minimal, oom_score_adj_and_io_priority_bounds_accepted)
{
	config_ptr c = parse(doc(JSON({
		"process" : {
			"cwd" : "/",
			"args" : ["sh"],
			"oomScoreAdj" : -1000,
			"ioPriority" : {"class" : "IOPRIO_CLASS_IDLE", "priority" : 7}
		}
	})));
	cr_expect_eq(c->process.oom_score_adj, -1000);
	cr_expect_eq(c->process.io_priority.priority, 7);
}

/* ---- refusals: mounts and hooks ---- */

Test(config_errors, mounts)
{
	assert_error(doc(JSON({"mounts" : [ {"type" : "proc"} ]})),
		     "config.json: .mounts[0]: missing required property \"destination\"");
	assert_error(doc(JSON({"mounts" : [ {"destination" : "/a", "options" : "ro"} ]})),
		     "config.json: .mounts[0].options: expected an array, got \"ro\"");
	assert_error(doc(JSON({
			     "mounts" : [ {
				     "destination" : "/a",
				     "uidMappings" : [ {"containerID" : 0, "hostID" : 0} ]
			     } ]
		     })),
		     "config.json: .mounts[0].uidMappings[0]: missing required property \"size\"");
	assert_error(
		doc(JSON({
			"mounts" : [ {
				"destination" : "/a",
				"gidMappings" :
					[ {"containerID" : 0, "hostID" : 4294967296, "size" : 1} ]
			} ]
		})),
		"config.json: .mounts[0].gidMappings[0].hostID: 4294967296 is out of range "
		"[0, 4294967295]");
}

Test(config_errors, hook_timeout)
{
	assert_error(
		doc(JSON({"hooks" : {"prestart" : [ {"path" : "/bin/true", "timeout" : 0} ]}})),
		"config.json: .hooks.prestart[0].timeout: 0 is out of range "
		"[1, 9223372036854775807]");
	assert_error(doc(JSON({
			     "hooks" : {
				     "poststop" : [
					     {"path" : "/bin/true"},
					     {"path" : "/bin/true", "timeout" : -5}
				     ]
			     }
		     })),
		     "config.json: .hooks.poststop[1].timeout: -5 is out of range "
		     "[1, 9223372036854775807]");
	assert_error(
		doc(JSON({"hooks" : {"poststart" : [ {"path" : "/bin/true", "timeout" : 2.5} ]}})),
		"config.json: .hooks.poststart[0].timeout: expected an integer, got 2.5");
}

Test(config_errors, hook_path)
{
	assert_error(doc(JSON({"hooks" : {"createRuntime" : [ {"args" : ["x"]} ]}})),
		     "config.json: .hooks.createRuntime[0]: missing required property \"path\"");
	assert_error(doc(JSON({"hooks" : {"createContainer" : [ {"path" : "bin/hook"} ]}})),
		     "config.json: .hooks.createContainer[0].path: expected an absolute path, got "
		     "\"bin/hook\"");
	assert_error(doc(JSON({"hooks" : {"startContainer" : {"path" : "/x"}}})),
		     "config.json: .hooks.startContainer: expected an array, got an object");
}

/* ---- refusals: linux ---- */

Test(config_errors, unknown_namespace_type)
{
	assert_error(doc(JSON({"linux" : {"namespaces" : [ {"type" : "net"} ]}})),
		     "config.json: .linux.namespaces[0].type: expected one of \"mount\", \"pid\", "
		     "\"network\", \"uts\", \"ipc\", \"user\", \"cgroup\", \"time\", got \"net\"");
	assert_error(doc(JSON({"linux" : {"namespaces" : [ {"path" : "/proc/1/ns/pid"} ]}})),
		     "config.json: .linux.namespaces[0]: missing required property \"type\"");
	assert_error(
		doc(JSON({
			"linux" : {"namespaces" : [ {"type" : "pid", "path" : "proc/1/ns/pid"} ]}
		})),
		"config.json: .linux.namespaces[0].path: expected an absolute path, got "
		"\"proc/1/ns/pid\"");
}

Test(config_errors, duplicated_namespace_type)
{
	assert_error(doc(JSON({
			     "linux" : {
				     "namespaces" : [
					     {"type" : "pid"}, {"type" : "mount"},
					     {"type" : "pid", "path" : "/proc/1/ns/pid"}
				     ]
			     }
		     })),
		     "config.json: .linux.namespaces[2].type: duplicate namespace \"pid\"");
}

Test(config_errors, hostname_without_uts_namespace)
{
	assert_error(
		doc(JSON({"hostname" : "web", "linux" : {"namespaces" : [ {"type" : "pid"} ]}})),
		"config.json: .hostname: setting a hostname needs a uts namespace");
	assert_error(doc(JSON({"domainname" : "example.org", "linux" : {}})),
		     "config.json: .domainname: setting a domainname needs a uts namespace");
}

Test(config_errors, id_mappings_without_user_namespace)
{
	assert_error(
		doc(JSON({
			"linux" :
				{"uidMappings" : [ {"containerID" : 0, "hostID" : 1, "size" : 1} ]}
		})),
		"config.json: .linux.uidMappings: id mappings need a user namespace");
	assert_error(doc(JSON({
			     "linux" : {
				     "namespaces" : [ {"type" : "pid"} ],
				     "gidMappings" : [ {"containerID" : 0, "hostID" : 1, "size" : 1} ]
			     }
		     })),
		     "config.json: .linux.gidMappings: id mappings need a user namespace");
}

Test(config_errors, time_offsets)
{
	assert_error(doc(JSON({"linux" : {"timeOffsets" : {"monotonic" : {"secs" : 1}}}})),
		     "config.json: .linux.timeOffsets: time offsets need a new time namespace");
	assert_error(doc(JSON({
			     "linux" : {
				     "namespaces" : [ {"type" : "time"} ],
				     "timeOffsets" : {"boottime" : {"nanosecs" : -1}}
			     }
		     })),
		     "config.json: .linux.timeOffsets.boottime.nanosecs: -1 is out of range "
		     "[0, 4294967295]");
}

Test(config_errors, device_without_major_minor)
{
	assert_error(
		doc(JSON({
			"linux" :
				{"devices" : [ {"type" : "c", "path" : "/dev/null", "major" : 1} ]}
		})),
		"config.json: .linux.devices[0]: major and minor are required for type \"c\"");
	assert_error(doc(JSON({
			     "linux" : {
				     "devices" : [
					     {"type" : "p", "path" : "/dev/p"},
					     {"type" : "b", "path" : "/dev/sda"}
				     ]
			     }
		     })),
		     "config.json: .linux.devices[1]: major and minor are required for type \"b\"");
}

/* doc() of the object printf makes of fmt. */
static const char *docf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *docf(const char *fmt, ...)
{
	static char object[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(object, sizeof(object), fmt, ap);
	va_end(ap);
	return doc(object);
}

/* A document with /dev/null (type "c") of the given fileMode. */
static const char *null_device_with_mode(unsigned mode)
{
	return docf("{\"linux\": {\"devices\": [{\"type\": \"c\", \"path\": \"/dev/null\", "
		    "\"major\": 1, \"minor\": 3, \"fileMode\": %u}]}}",
		    mode);
}

Test(config_errors, device_fields)
{
	assert_error(
		doc(JSON({
			"linux" : {
				"devices" : [
					{"type" : "x", "path" : "/dev/x", "major" : 1, "minor" : 1}
				]
			}
		})),
		"config.json: .linux.devices[0].type: expected one of \"c\", \"b\", \"u\", "
		"\"p\", got \"x\"");
	assert_error(doc(JSON({
			     "linux" : {
				     "devices" : [ {
					     "type" : "c",
					     "path" : "dev/null",
					     "major" : 1,
					     "minor" : 3
				     } ]
			     }
		     })),
		     "config.json: .linux.devices[0].path: expected an absolute path, got "
		     "\"dev/null\"");
	assert_error(
		null_device_with_mode(512),
		"config.json: .linux.devices[0].fileMode: 01000 has bits beyond the permissions "
		"(0777) and the file type");
	/* a char device's mode with a block device's type bits */
	assert_error(null_device_with_mode(S_IFBLK | 0666),
		     "config.json: .linux.devices[0].fileMode: the file type bits 060000 are not "
		     "those of type \"c\"");
	assert_error(doc(JSON({"linux" : {"devices" : [ {"path" : "/dev/null"} ]}})),
		     "config.json: .linux.devices[0]: missing required property \"type\"");
}

Test(config_errors, net_devices)
{
	assert_error(doc(JSON({"linux" : {"netDevices" : {"eth0" : {"name" : 23}}}})),
		     "config.json: .linux.netDevices.eth0.name: expected a string, got 23");
	assert_error(doc(JSON({"linux" : {"netDevices" : ["eth0"]}})),
		     "config.json: .linux.netDevices: expected an object, got an array");
}

/* The names as the kernel takes them, refused when config.json is read, each at its path. */
Test(config_errors, net_device_names)
{
	assert_error(doc(JSON({"linux" : {"netDevices" : {"eth0" : {"name" : "a b"}}}})),
		     "config.json: .linux.netDevices.eth0.name: not a network device name: "
		     "holds whitespace");
	assert_error(doc(JSON({"linux" : {"netDevices" : {"eth0" : {"name" : "0123456789abcdef"}}}})),
		     "config.json: .linux.netDevices.eth0.name: not a network device name: "
		     "longer than 15 bytes (IFNAMSIZ)");
	assert_error(doc(JSON({"linux" : {"netDevices" : {"eth0" : {"name" : ".."}}}})),
		     "config.json: .linux.netDevices.eth0.name: not a network device name: "
		     "\".\" and \"..\" are not names");
	assert_error(doc(JSON({"linux" : {"netDevices" : {"a/b" : {}}}})),
		     "config.json: .linux.netDevices[\"a/b\"]: not a network device name: "
		     "holds '/' or ':'");
	assert_error(doc(JSON({"linux" : {"netDevices" : {"" : {}}}})),
		     "config.json: .linux.netDevices[\"\"]: not a network device name: "
		     "an empty name");
	assert_error(doc(JSON({"linux" : {"netDevices" : {"eth%d" : {}}}})),
		     "config.json: .linux.netDevices[\"eth%d\"]: not a network device name: "
		     "holds '%', which no existing device's name has");
	assert_error(doc(JSON({"linux" : {"netDevices" : {"eth0" : {"name" : "e%d%d"}}}})),
		     "config.json: .linux.netDevices.eth0.name: not a network device name: "
		     "a '%' other than one \"%d\"");
}

Test(config_errors, net_devices_given_one_name)
{
	assert_error(doc(JSON({
			     "linux" : {
				     "namespaces" : [ {"type" : "network"} ],
				     "netDevices" : {"eth0" : {"name" : "c0"}, "eth1" : {"name" : "c0"}}
			     }
		     })),
		     "config.json: .linux.netDevices.eth1: \"c0\" is also the container's name "
		     "of \"eth0\"");
}

Test(config, net_device_templates_and_joined_namespace)
{
	struct oci_config *c = parse(doc(JSON({
		"linux" : {
			"namespaces" : [ {"type" : "network", "path" : "/run/netns/x"} ],
			"netDevices" : {"eth0" : {"name" : "c%d"}, "eth1" : {"name" : "c%d"}, "eth2" : {}}
		}
	})));
	cr_assert_eq(c->linux_.net_devices.len, 3);
	cr_expect_str_eq(c->linux_.net_devices.items[0].key, "eth0");
	cr_expect_str_eq(c->linux_.net_devices.items[1].name, "c%d");
	cr_expect_null(c->linux_.net_devices.items[2].name);
	oci_config_free(c);
}

Test(config_errors, resources_memory_limit)
{
	assert_error(
		doc(JSON({"linux" : {"resources" : {"memory" : {"limit" : "512M"}}}})),
		"config.json: .linux.resources.memory.limit: expected an integer, got \"512M\"");
	assert_error(doc(JSON({"linux" : {"resources" : {"memory" : {"swappiness" : -1}}}})),
		     "config.json: .linux.resources.memory.swappiness: -1 is out of range "
		     "[0, 18446744073709551615]");
}

Test(config_errors, resources_cpu_pids_blkio)
{
	assert_error(
		doc(JSON({"linux" : {"resources" : {"cpu" : {"cpus" : "0-3;5"}}}})),
		"config.json: .linux.resources.cpu.cpus: expected a CPU list such as \"0-3,7\", "
		"got \"0-3;5\"");
	assert_error(doc(JSON({"linux" : {"resources" : {"cpu" : {"shares" : 1e3}}}})),
		     "config.json: .linux.resources.cpu.shares: expected an integer, got 1e3");
	assert_error(doc(JSON({"linux" : {"resources" : {"pids" : {}}}})),
		     "config.json: .linux.resources.pids: missing required property \"limit\"");
	assert_error(
		doc(JSON({"linux" : {"resources" : {"blockIO" : {"weight" : 65536}}}})),
		"config.json: .linux.resources.blockIO.weight: 65536 is out of range [0, 65535]");
	assert_error(doc(JSON({
			     "linux" : {
				     "resources" : {
					     "blockIO" : {
						     "throttleWriteIOPSDevice" :
							     [ {"major" : 8, "minor" : 0} ]
					     }
				     }
			     }
		     })),
		     "config.json: .linux.resources.blockIO.throttleWriteIOPSDevice[0]: missing "
		     "required property \"rate\"");
}

Test(config_errors, resources_devices_hugepages_network_rdma_unified)
{
	assert_error(
		doc(JSON({"linux" : {"resources" : {"devices" : [ {"access" : "rwm"} ]}}})),
		"config.json: .linux.resources.devices[0]: missing required property \"allow\"");
	assert_error(
		doc(JSON({
			"linux" : {
				"resources" :
					{"hugepageLimits" : [ {"pageSize" : "64kB", "limit" : 1} ]}
			}
		})),
		"config.json: .linux.resources.hugepageLimits[0].pageSize: expected a page size "
		"such as \"2MB\", got \"64kB\"");
	assert_error(
		doc(JSON({
			"linux" : {"resources" : {"network" : {"priorities" : [ {"name" : "e"} ]}}}
		})),
		"config.json: .linux.resources.network.priorities[0]: missing required property "
		"\"priority\"");
	assert_error(
		doc(JSON({
			"linux" :
				{"resources" : {"rdma" : {"mlx5_1" : {"hcaHandles" : "many"}}}}
		})),
		"config.json: .linux.resources.rdma.mlx5_1.hcaHandles: expected an integer, got "
		"\"many\"");
	assert_error(
		doc(JSON({"linux" : {"resources" : {"unified" : {"memory.max" : 1024}}}})),
		"config.json: .linux.resources.unified[\"memory.max\"]: expected a string, got "
		"1024");
}

Test(config_errors, intel_rdt_and_memory_policy)
{
	assert_error(doc(JSON({"linux" : {"intelRdt" : {"memBwSchema" : "L3:0=f"}}})),
		     "config.json: .linux.intelRdt.memBwSchema: expected \"MB:<schema>\", got "
		     "\"L3:0=f\"");
	assert_error(doc(JSON({"linux" : {"memoryPolicy" : {"nodes" : "0"}}})),
		     "config.json: .linux.memoryPolicy: missing required property \"mode\"");
	assert_error(
		doc(JSON({"linux" : {"memoryPolicy" : {"mode" : "MPOL_LOCAL", "flags" : ["X"]}}})),
		"config.json: .linux.memoryPolicy.flags[0]: expected one of "
		"\"MPOL_F_NUMA_BALANCING\", \"MPOL_F_RELATIVE_NODES\", \"MPOL_F_STATIC_NODES\", "
		"got \"X\"");
}

/* runc's recursive forms, as Podman writes them */
Test(config_full, rootfs_propagation_recursive_forms)
{
	static const char *const names[] = {"rprivate", "rshared", "rslave", "runbindable"};
	static const int want[] = {OCI_PROP_RPRIVATE, OCI_PROP_RSHARED, OCI_PROP_RSLAVE,
				   OCI_PROP_RUNBINDABLE};
	for (size_t i = 0; i < 4; i++) {
		char object[128];
		snprintf(object, sizeof(object), "{\"linux\": {\"rootfsPropagation\": \"%s\"}}",
			 names[i]);
		struct oci_config *own = parse(doc(object));
		cr_expect(own->linux_.has_rootfs_propagation);
		cr_expect_eq(own->linux_.rootfs_propagation, want[i], "%s", names[i]);
		oci_config_free(own);
	}
}

Test(config_errors, rootfs_propagation_and_personality)
{
	assert_error(doc(JSON({"linux" : {"rootfsPropagation" : "rmaster"}})),
		     "config.json: .linux.rootfsPropagation: expected one of \"private\", "
		     "\"shared\", \"slave\", \"unbindable\", \"rprivate\", \"rshared\", "
		     "\"rslave\", \"runbindable\", got \"rmaster\"");
	assert_error(doc(JSON({"linux" : {"personality" : {"domain" : "LINUX64"}}})),
		     "config.json: .linux.personality.domain: expected one of \"LINUX\", "
		     "\"LINUX32\", got \"LINUX64\"");
}

Test(config_errors, unknown_seccomp_action)
{
	assert_error(
		doc(JSON({"linux" : {"seccomp" : {"defaultAction" : "SCMP_ACT_DENY"}}})),
		"config.json: .linux.seccomp.defaultAction: expected one of \"SCMP_ACT_KILL\", "
		"\"SCMP_ACT_KILL_PROCESS\", \"SCMP_ACT_KILL_THREAD\", \"SCMP_ACT_TRAP\", "
		"\"SCMP_ACT_ERRNO\", \"SCMP_ACT_TRACE\", \"SCMP_ACT_ALLOW\", \"SCMP_ACT_LOG\", "
		"\"SCMP_ACT_NOTIFY\", got \"SCMP_ACT_DENY\"");
	assert_error(
		doc(JSON({
			"linux" : {
				"seccomp" : {
					"defaultAction" : "SCMP_ACT_ALLOW",
					"syscalls" : [ {"names" : ["read"], "action" : "allow"} ]
				}
			}
		})),
		"config.json: .linux.seccomp.syscalls[0].action: expected one of "
		"\"SCMP_ACT_KILL\", \"SCMP_ACT_KILL_PROCESS\", \"SCMP_ACT_KILL_THREAD\", "
		"\"SCMP_ACT_TRAP\", \"SCMP_ACT_ERRNO\", \"SCMP_ACT_TRACE\", \"SCMP_ACT_ALLOW\", "
		"\"SCMP_ACT_LOG\", \"SCMP_ACT_NOTIFY\", got \"allow\"");
	assert_error(doc(JSON({"linux" : {"seccomp" : {}}})),
		     "config.json: .linux.seccomp: missing required property \"defaultAction\"");
}

Test(config_errors, seccomp_other_fields)
{
	assert_error(
		doc(JSON({
			"linux" : {
				"seccomp" : {
					"defaultAction" : "SCMP_ACT_ALLOW",
					"flags" : ["SECCOMP_FILTER_FLAG_NEW"]
				}
			}
		})),
		"config.json: .linux.seccomp.flags[0]: expected one of "
		"\"SECCOMP_FILTER_FLAG_TSYNC\", \"SECCOMP_FILTER_FLAG_LOG\", "
		"\"SECCOMP_FILTER_FLAG_SPEC_ALLOW\", \"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV\", "
		"got \"SECCOMP_FILTER_FLAG_NEW\"");
	assert_error(doc(JSON({
			     "linux" : {
				     "seccomp" : {
					     "defaultAction" : "SCMP_ACT_ALLOW",
					     "listenerPath" : "agent.sock"
				     }
			     }
		     })),
		     "config.json: .linux.seccomp.listenerPath: expected an absolute path, got "
		     "\"agent.sock\"");
	assert_error(
		doc(JSON({
			"linux" : {
				"seccomp" : {
					"defaultAction" : "SCMP_ACT_ALLOW",
					"syscalls" : [ {"names" : [], "action" : "SCMP_ACT_LOG"} ]
				}
			}
		})),
		"config.json: .linux.seccomp.syscalls[0].names: expected at least one entry");
	assert_error(
		doc(JSON({
			"linux" : {
				"seccomp" : {
					"defaultAction" : "SCMP_ACT_ALLOW",
					"syscalls" : [ {"action" : "SCMP_ACT_LOG"} ]
				}
			}
		})),
		"config.json: .linux.seccomp.syscalls[0]: missing required property \"names\"");
}

Test(config_errors, seccomp_architecture_lists_every_choice)
{
	struct reports r = {0};
	struct oci_config_opts opts = {.on_error = collect_error, .data = &r};
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_parse(doc(JSON({
					      "linux" : {
						      "seccomp" : {
							      "defaultAction" : "SCMP_ACT_ALLOW",
							      "architectures" : ["x86_64"]
						      }
					      }
				      })),
				      &opts, &c, &err),
		     -1);
	cr_assert_eq(r.nerrors, 1);
	cr_expect_not_null(strstr(err.msg, "config.json: .linux.seccomp.architectures[0]: expected "
					   "one of \"SCMP_ARCH_X86\", "));
	/* the last choice and the value are not cut off by the message buffer */
	cr_expect_not_null(strstr(err.msg, "\"SCMP_ARCH_RISCV64\", got \"x86_64\""), "%s", err.msg);
}

/* A document whose seccomp allows by default and has the one syscall rule rule (JSON). */
static const char *seccomp_rule(const char *rule)
{
	return docf("{\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", "
		    "\"syscalls\": [%s]}}}",
		    rule);
}

Test(config_errors, seccomp_syscall_args)
{
	assert_error(seccomp_rule(JSON({
			     "names" : ["x"],
			     "action" : "SCMP_ACT_ERRNO",
			     "args" : [ {"index" : 0, "value" : 1, "op" : "SCMP_CMP_EQUAL"} ]
		     })),
		     "config.json: .linux.seccomp.syscalls[0].args[0].op: expected one of "
		     "\"SCMP_CMP_NE\", \"SCMP_CMP_LT\", \"SCMP_CMP_LE\", \"SCMP_CMP_EQ\", "
		     "\"SCMP_CMP_GE\", \"SCMP_CMP_GT\", \"SCMP_CMP_MASKED_EQ\", got "
		     "\"SCMP_CMP_EQUAL\"");
	assert_error(seccomp_rule(JSON({
			     "names" : ["x"],
			     "action" : "SCMP_ACT_ERRNO",
			     "args" : [ {"index" : 0, "op" : "SCMP_CMP_EQ"} ]
		     })),
		     "config.json: .linux.seccomp.syscalls[0].args[0]: missing required property "
		     "\"value\"");
	assert_error(
		seccomp_rule(JSON({"names" : ["x"], "action" : "SCMP_ACT_ERRNO", "errnoRet" : -1})),
		"config.json: .linux.seccomp.syscalls[0].errnoRet: -1 is out of range "
		"[0, 4294967295]");
}

Test(config_errors, sysctl_and_paths)
{
	assert_error(
		doc(JSON({"linux" : {"sysctl" : {"net.ipv4.ip_forward" : 1}}})),
		"config.json: .linux.sysctl[\"net.ipv4.ip_forward\"]: expected a string, got 1");
	assert_error(doc(JSON({"linux" : {"maskedPaths" : "/proc/kcore"}})),
		     "config.json: .linux.maskedPaths: expected an array, got \"/proc/kcore\"");
	assert_error(doc(JSON({"linux" : {"readonlyPaths" : [1]}})),
		     "config.json: .linux.readonlyPaths[0]: expected a string, got 1");
	assert_error(doc(JSON({"linux" : {"mountLabel" : false}})),
		     "config.json: .linux.mountLabel: expected a string, got false");
	assert_error(doc(JSON({"linux" : {"cgroupsPath" : 5}})),
		     "config.json: .linux.cgroupsPath: expected a string, got 5");
}

Test(config_errors, freebsd_vnet_disable)
{
	assert_error(doc(JSON({"freebsd" : {"jail" : {"vnet" : "disable"}}})),
		     "config.json: .freebsd.jail.vnet: expected one of \"new\", \"inherit\", got "
		     "\"disable\"");
}
