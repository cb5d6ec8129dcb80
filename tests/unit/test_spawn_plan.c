/* ct_init_plan_build(): the parent turns a parsed config into everything the child applies
 * without parsing: clone flags, namespace fds, mount targets, rlimits, capability masks,
 * argv/envp. Configs are parsed from strings; the rootfs is an empty directory under /tmp. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/plan/plan.h"
#include "libct/parent/spawn_plan.h"
#include "libct/base/selfstatus.h"
#include "oci/capabilities.h"
#include "tests/unit/plan_fixture.h"

TestSuite(spawn_plan, .init = plan_bundle_make, .fini = plan_bundle_remove);

/* Refused with errnum and msg. Config messages may or may not carry ": <strerror>" (both
 * ct_error_sys and ct_error_plain are fine here); nothing else may follow. */
static void assert_build_fails(struct plan_fixture *f, const char *text, int errnum,
			       const char *msg)
{
	plan_build(f, text);
	cr_assert_eq(f->ret, -1, "accepted:\n%s", text);
	cr_expect_eq(f->err.errnum, errnum, "errnum %d, expected %d (%s)", f->err.errnum, errnum,
		     f->err.msg);
	cr_expect_str_eq(f->err.msg, msg);
}

/* ---- the plan's fixed parts ---- */

Test(spawn_plan, minimal_config)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(""));
	cr_expect_eq(f.plan.config, f.config);
	cr_expect_eq(f.plan.opts, &f.opts);
	cr_expect_eq(f.plan.sync.fd, -1);
	cr_expect_eq(f.plan.sync.exec_fifo_fd, -1);
	cr_expect_eq(f.plan.ns.unshare_flags, 0);
	cr_expect_not(f.plan.ns.new_mount_ns);
	for (int i = 0; i < OCI_NS_COUNT; i++)
		cr_expect_eq(f.plan.ns.join_fds[i], -1, "join_fds[%s]", oci_namespace_names[i]);
	cr_expect_eq(f.plan.rootfs.n_mounts, 0);
	cr_expect_eq(f.plan.process.n_rlimits, 0);
	/* no capabilities object: every set empty, as under runc and crun */
	cr_expect(f.plan.process.set_caps);
	cr_expect_eq(f.plan.process.cap_effective | f.plan.process.cap_permitted |
			     f.plan.process.cap_bounding | f.plan.process.cap_ambient |
			     f.plan.process.cap_inheritable,
		     0, "no capabilities object keeps none");
	cr_expect_str_eq(f.plan.process.keyring_name, "_ses.h8");
	plan_done(&f);
}

/* What a step reads of the options and the config comes with its part of the plan: a step
 * sees the part it is given, never the whole. */
Test(spawn_plan, parts_take_what_their_steps_read)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(""));
	cr_expect_eq(f.plan.sync.start, CT_START_SYNC);
	cr_expect_eq(f.plan.rootfs.path, f.opts.rootfs);
	cr_expect_not(f.plan.rootfs.no_pivot);
	cr_expect_eq(f.plan.rootfs.readonly, f.config->root.readonly);
	cr_expect_eq(f.plan.rootfs.lx, &f.config->linux_);
	cr_expect(f.plan.verify.run, "opts.verify_mounts");
	cr_expect_eq(f.plan.hooks.hooks, &f.config->hooks);
	cr_expect_eq(f.plan.process.p, &f.config->process);
	cr_expect(f.plan.process.new_keyring, "no --no-new-keyring");
	cr_expect_eq(f.plan.process.preserve_fds, 0);
	cr_expect_null(f.plan.cgroup.cg, "no cgroup in the options");
	plan_done(&f);
}

Test(spawn_plan, config_without_process_is_refused)
{
	struct plan_fixture f;
	assert_build_fails(&f, plan_doc_with(NULL, ""), EINVAL,
			   "config.json: .process: required to run");
	plan_done(&f);
}

/* A plan that failed before its fds were planned must not close fds it never opened: stdin
 * here stands for whatever fd 0..7 the caller holds. */
Test(spawn_plan, free_after_early_failure_closes_no_foreign_fd)
{
	int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(devnull, 0);
	cr_assert_eq(dup2(devnull, 0), 0);
	close(devnull);
	struct plan_fixture f;
	assert_build_fails(&f, plan_doc_with(NULL, ""), EINVAL,
			   "config.json: .process: required to run");
	plan_done(&f);
	cr_expect_neq(fcntl(0, F_GETFD), -1, "fd 0 was closed by ct_init_plan_free()");
}

/* ---- namespaces ---- */

Test(spawn_plan, new_namespaces_become_clone_flags)
{
	struct plan_fixture f;
	plan_build_ok(&f,
		      plan_doc(JSON("linux"
				    : {
					    "namespaces" : [
						    {"type" : "pid"}, {"type" : "network"},
						    {"type" : "ipc"}, {"type" : "uts"},
						    {"type" : "mount"}, {"type" : "cgroup"}
					    ]
				    })));
	/* the network namespace is made by the init itself (early_netns), not by clone3 */
	cr_expect_eq(f.plan.ns.unshare_flags,
		     CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNS | CLONE_NEWCGROUP,
		     "unshare_flags %#lx", f.plan.ns.unshare_flags);
	cr_expect(f.plan.place.early_netns);
	cr_expect(f.plan.ns.new_mount_ns);
	for (int i = 0; i < OCI_NS_COUNT; i++)
		cr_expect_eq(f.plan.ns.join_fds[i], -1, "join_fds[%s]", oci_namespace_names[i]);
	plan_done(&f);
}

Test(spawn_plan, time_namespace_flag)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(JSON("linux" : {"namespaces" : [ {"type" : "time"} ]})));
	cr_expect_eq(f.plan.ns.unshare_flags, 0x00000080 /* CLONE_NEWTIME */);
	cr_expect_not(f.plan.ns.new_mount_ns);
	plan_done(&f);
}

Test(spawn_plan, namespace_with_path_is_opened_to_join)
{
	struct plan_fixture f;
	plan_build_ok(&f,
		      plan_doc(JSON("linux"
				    : {
					    "namespaces" : [
						    {"type" : "pid"},
						    {"type" : "uts", "path" : "/proc/self/ns/uts"}
					    ]
				    })));
	int fd = f.plan.ns.join_fds[OCI_NS_UTS];
	cr_assert_geq(fd, 0, "uts namespace fd opened");
	cr_expect(fcntl(fd, F_GETFD) & FD_CLOEXEC, "join fd is close-on-exec");
	struct stat want, have;
	cr_assert_eq(stat("/proc/self/ns/uts", &want), 0);
	cr_assert_eq(fstat(fd, &have), 0);
	cr_expect_eq(have.st_ino, want.st_ino, "the fd is our uts namespace");
	cr_expect_eq(f.plan.ns.unshare_flags, CLONE_NEWPID, "a joined namespace is not unshared");
	cr_expect_eq(f.plan.ns.join_fds[OCI_NS_PID], -1);
	plan_done(&f);
}

Test(spawn_plan, missing_namespace_path_is_refused)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		plan_doc(JSON("linux"
			      : {"namespaces" : [ {"type" : "uts", "path" : "/nope"} ]})),
		ENOENT, "open uts namespace \"/nope\": No such file or directory");
	plan_done(&f);
}

/* A device moved into the runtime's own network namespace would stay where it is. */
Test(spawn_plan, net_devices_need_a_network_namespace_of_the_containers)
{
	struct plan_fixture f;
	static const char *const refusal = "config.json: .linux.netDevices: moving network devices "
					   "needs a network namespace of the container's, new or by "
					   "path";
	assert_build_fails(&f,
			   plan_doc(JSON("linux"
					 : {"namespaces" : [ {"type" : "pid"} ],
					    "netDevices" : {"eth0" : {}}})),
			   EINVAL, refusal);
	plan_done(&f);
	assert_build_fails(&f,
			   plan_doc(JSON("linux"
					 : {
						 "namespaces" : [
							 {"type" : "network",
							  "path" : "/proc/self/ns/net"}
						 ],
						 "netDevices" : {"eth0" : {}}
					 })),
			   EINVAL, refusal);
	plan_done(&f);
}

Test(spawn_plan, process_without_args_is_refused)
{
	struct plan_fixture f;
	assert_build_fails(&f, plan_doc_with(JSON({"commandLine" : "true", "cwd" : "/"}), ""),
			   EINVAL,
			   "config.json: .process.args: required to run on Linux "
			   "(.process.commandLine is for Windows)");
	plan_done(&f);
}

Test(spawn_plan, gid_mappings_alone_are_named)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		plan_doc(JSON("linux"
			      : {
				      "namespaces" : [ {"type" : "user"} ],
				      "gidMappings" :
					      [ {"containerID" : 0, "hostID" : 1000, "size" : 1} ]
			      })),
		EINVAL,
		"config.json: .linux.uidMappings: a new user namespace needs uid and gid mappings");
	plan_done(&f);
}

#define USERNS_MAPS                                                         \
	JSON("uidMappings"                                                  \
	     :                                                              \
	     [                                                              \
		     {"containerID" : 0, "hostID" : 100000, "size" : 1000}, \
		     {"containerID" : 1000, "hostID" : 300000, "size" : 5}  \
	     ],                                                             \
	     "gidMappings"                                                  \
	     : [ {"containerID" : 0, "hostID" : 200000, "size" : 65536} ])

/* The plan clones or unshares exactly the namespaces flags (CLONE_NEW*) names. */
static void expect_unshare_flags(const struct ct_init_plan *plan, unsigned long flags)
{
	cr_expect_eq(plan->ns.unshare_flags, flags, "unshare_flags %#lx, expected %#lx",
		     plan->ns.unshare_flags, flags);
}

/* A document with the namespaces (JSON array items), USERNS_MAPS and the extra members. */
static const char *userns_doc(const char *namespaces, const char *members)
{
	static char doc[2048];
	snprintf(doc, sizeof(doc), "\"linux\": {\"namespaces\": [%s], %s}%s", namespaces,
		 USERNS_MAPS, members);
	return plan_doc(doc);
}

/* A new user namespace must own the network namespace: both are made by the clone. */
Test(spawn_plan, network_namespace_of_a_new_user_namespace_is_cloned)
{
	struct plan_fixture f;
	plan_build_ok(&f, userns_doc(JSON({"type" : "user"}, {"type" : "network"}), ""));
	expect_unshare_flags(&f.plan, CLONE_NEWUSER | CLONE_NEWNET);
	cr_expect_not(f.plan.place.early_netns);
	plan_done(&f);
}

Test(spawn_plan, new_user_namespace_is_cloned_with_its_maps)
{
	struct plan_fixture f;
	plan_build_ok(&f, userns_doc(JSON({"type" : "user"}, {"type" : "pid"}), ""));
	expect_unshare_flags(&f.plan, CLONE_NEWUSER | CLONE_NEWPID);
	cr_expect(f.plan.ns.userns);
	cr_expect_eq(f.plan.ns.join_fds[OCI_NS_USER], -1);
	cr_assert_not_null(f.plan.ns.uid_map);
	cr_assert_not_null(f.plan.ns.gid_map);
	cr_expect_str_eq(f.plan.ns.uid_map, "0 100000 1000\n1000 300000 5\n");
	cr_expect_str_eq(f.plan.ns.gid_map, "0 200000 65536\n");
	cr_expect_not(f.plan.ns.use_joiner, "one clone3 makes them all");
	plan_done(&f);
}

/* The init makes a new IPC namespace once root in its user namespace, new or joined: the
 * root of its mqueue belongs to the ids of whoever made it. Without a user namespace the
 * clone makes it. */
Test(spawn_plan, ipc_namespace_of_a_user_namespace_is_made_by_the_init)
{
	struct plan_fixture f;
	plan_build_ok(&f, userns_doc(JSON({"type" : "user"}, {"type" : "ipc"}), ""));
	expect_unshare_flags(&f.plan, CLONE_NEWUSER);
	cr_expect(f.plan.place.late_ipcns);
	plan_done(&f);

	plan_build_ok(
		&f, plan_doc(JSON("linux"
				  : {
					  "namespaces" : [
						  {"type" : "user", "path" : "/proc/self/ns/user"},
						  {"type" : "ipc"}
					  ]
				  })));
	expect_unshare_flags(&f.plan, 0);
	cr_expect(f.plan.place.late_ipcns);
	plan_done(&f);

	plan_build_ok(&f, plan_doc(JSON("linux" : {"namespaces" : [ {"type" : "ipc"} ]})));
	expect_unshare_flags(&f.plan, CLONE_NEWIPC);
	cr_expect_not(f.plan.place.late_ipcns);
	plan_done(&f);
}

Test(spawn_plan, joined_user_namespace_has_no_maps_to_write)
{
	struct plan_fixture f;
	plan_build_ok(
		&f,
		plan_doc(JSON(
			"linux"
			: {"namespaces" : [ {"type" : "user", "path" : "/proc/self/ns/user"} ]})));
	cr_expect_eq(f.plan.ns.unshare_flags, 0);
	cr_expect(f.plan.ns.userns);
	cr_expect_geq(f.plan.ns.join_fds[OCI_NS_USER], 0);
	cr_expect_null(f.plan.ns.uid_map);
	cr_expect_null(f.plan.ns.gid_map);
	cr_expect(f.plan.ns.use_joiner, "the init is cloned inside the joined namespace");
	plan_done(&f);
}

Test(spawn_plan, new_user_namespace_with_joined_ones_uses_a_joiner)
{
	struct plan_fixture f;
	plan_build_ok(&f, userns_doc(JSON({"type" : "user"},
					  {"type" : "uts", "path" : "/proc/self/ns/uts"}),
				     ""));
	cr_expect(f.plan.ns.use_joiner);
	cr_expect_geq(f.plan.ns.join_fds[OCI_NS_UTS], 0);
	plan_done(&f);
}

Test(spawn_plan, overlapping_maps_are_refused_with_their_path)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		plan_doc(JSON(
			"linux"
			: {
				"namespaces" : [ {"type" : "user"} ],
				"uidMappings" :
					[ {"containerID" : 0, "hostID" : 100000, "size" : 10} ],
				"gidMappings" : [
					{"containerID" : 0, "hostID" : 100000, "size" : 10},
					{"containerID" : 5, "hostID" : 200000, "size" : 10}
				]
			})),
		EINVAL,
		"config.json: .linux.gidMappings[1]: its containerID range overlaps that of "
		".linux.gidMappings[0]");
	plan_done(&f);
}

/* Without a network namespace of its own, a user namespace cannot mount sysfs (runc binds
 * the host's /sys then); with one, the config's sysfs stays. */
static void plan_sysfs(struct plan_fixture *f, const char *net)
{
	char namespaces[256];
	snprintf(namespaces, sizeof(namespaces), JSON({"type" : "user"}, {"type" : "mount"}) "%s",
		 net);
	plan_build_ok(f, userns_doc(namespaces, JSON(, "mounts"
						     : [ {
							     "destination" : "/sys",
							     "type" : "sysfs",
							     "source" : "sysfs",
							     "options" : [ "nosuid", "ro" ]
						     } ])));
	cr_assert_eq(f->plan.rootfs.n_mounts, 1);
}

Test(spawn_plan, sysfs_in_user_namespace_without_netns_binds_host_sys)
{
	struct plan_fixture f;
	plan_sysfs(&f, "");
	const struct ct_planned_mount *m = &f.plan.rootfs.mounts[0];
	cr_expect(m->flags.bind);
	cr_expect(m->flags.recursive_bind);
	cr_assert_not_null(m->bind_source);
	cr_expect_str_eq(m->bind_source, "/sys");
	cr_expect_eq(m->flags.flags, MS_NOSUID | MS_RDONLY);
	plan_done(&f);
}

Test(spawn_plan, sysfs_in_user_namespace_with_netns_is_mounted)
{
	struct plan_fixture f;
	plan_sysfs(&f, JSON(, {"type" : "network"}));
	cr_expect_not(f.plan.rootfs.mounts[0].flags.bind);
	cr_expect_null(f.plan.rootfs.mounts[0].bind_source);
	plan_done(&f);
}

/* A new filesystem with "idmap" is made and id-mapped in the parent, as a bind is. */
Test(spawn_plan, idmapped_tmpfs_is_made_by_the_parent)
{
	struct plan_fixture f;
	plan_build_ok(&f, userns_doc(JSON({"type" : "user"}, {"type" : "mount"}),
				     JSON(, "mounts"
					  : [ {
						  "destination" : "/t",
						  "type" : "tmpfs",
						  "source" : "tmpfs",
						  "options" : ["idmap"]
					  } ])));
	cr_expect(f.plan.rootfs.mounts[0].flags.idmap);
	cr_expect_geq(f.plan.rootfs.mounts[0].flags.idmap_tree, 0);
	plan_done(&f);
}

/* proc has no FS_ALLOW_IDMAP: the kernel's EINVAL names the mount and the filesystem. */
Test(spawn_plan, idmapped_proc_is_refused_naming_the_mount)
{
	struct plan_fixture f;
	assert_build_fails(&f,
			   userns_doc(JSON({"type" : "user"}, {"type" : "mount"}),
				      JSON(, "mounts"
					   : [ {
						   "destination" : "/t",
						   "type" : "proc",
						   "source" : "proc",
						   "options" : ["idmap"]
					   } ])),
			   EINVAL,
			   "mount #0 \"/t\": id-map the proc mount (proc takes no id-mapped "
			   "mounts): Invalid argument");
	plan_done(&f);
}

Test(spawn_plan, mount_uid_mappings_need_gid_mappings)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		userns_doc(JSON({"type" : "user"}, {"type" : "mount"}),
			   JSON(, "mounts"
				: [ {
					"destination" : "/b",
					"type" : "bind",
					"source" : "/tmp",
					"options" : [ "bind", "idmap" ],
					"uidMappings" :
						[ {"containerID" : 0, "hostID" : 1, "size" : 1} ]
				} ])),
		EINVAL, "config.json: .mounts[0].gidMappings: needed along with uidMappings");
	plan_done(&f);
}

/* ---- mounts ---- */

/* A document with a mount namespace and mounts (a JSON array). */
static const char *mounts_doc(const char *mounts)
{
	static char members[4096];
	int n = snprintf(members, sizeof(members),
			 "\"linux\": {\"namespaces\": [{\"type\": \"mount\"}]}, \"mounts\": %s",
			 mounts);
	cr_assert_lt((size_t)n, sizeof(members));
	return plan_doc(members);
}

Test(spawn_plan, mounts_keep_their_destinations_and_options)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(JSON([
		{
			"destination" : "/proc",
			"type" : "proc",
			"source" : "proc",
			"options" : [ "nosuid", "noexec", "nodev" ]
		},
		{
			"destination" : "/dev",
			"type" : "tmpfs",
			"source" : "tmpfs",
			"options" : [ "nosuid", "strictatime", "mode=755", "size=65536k" ]
		},
		{"destination" : "/sys/fs/cgroup", "type" : "cgroup", "source" : "cgroup"}
	])));
	cr_assert_eq(f.plan.rootfs.n_mounts, 3);
	const struct ct_planned_mount *m = f.plan.rootfs.mounts;
	cr_expect_str_eq(m[0].destination, "/proc");
	cr_expect_str_eq(m[0].source, "proc");
	cr_expect_str_eq(m[0].type, "proc");
	cr_expect_eq(m[0].flags.flags, MS_NOSUID | MS_NOEXEC | MS_NODEV);
	cr_expect_null(m[0].bind_source);
	cr_expect_not(m[0].is_cgroup);

	cr_expect_str_eq(m[1].destination, "/dev");
	cr_expect_eq(m[1].flags.flags, MS_NOSUID | MS_STRICTATIME);
	cr_assert_not_null(m[1].flags.data);
	cr_expect_str_eq(m[1].flags.data, "mode=755,size=65536k");
	cr_expect(f.plan.rootfs.default_devices);

	cr_expect_str_eq(m[2].destination, "/sys/fs/cgroup");
	cr_expect(m[2].is_cgroup);
	plan_done(&f);
}

Test(spawn_plan, bind_sources_relative_to_the_bundle)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(JSON([
		{"destination" : "/data", "source" : "data/dir", "options" : [ "rbind", "ro" ]},
		{"destination" : "/etc/hosts", "type" : "bind", "source" : "/etc/hosts"},
		{"destination" : "/x", "type" : "none", "source" : "./x", "options" : ["bind"]}
	])));
	cr_assert_eq(f.plan.rootfs.n_mounts, 3);
	const struct ct_planned_mount *m = f.plan.rootfs.mounts;
	char want[256];
	snprintf(want, sizeof(want), "%s/data/dir", plan_bundle);
	cr_expect_str_eq(m[0].destination, "/data");
	cr_assert_not_null(m[0].bind_source);
	cr_expect_str_eq(m[0].bind_source, want);
	cr_expect(m[0].flags.bind);
	cr_expect(m[0].flags.recursive_bind);
	cr_expect_eq(m[0].flags.flags, MS_RDONLY);

	cr_assert_not_null(m[1].bind_source);
	cr_expect_str_eq(m[1].bind_source, "/etc/hosts", "an absolute source is kept");
	cr_expect(m[1].flags.bind, "type \"bind\" alone makes a bind mount");
	cr_expect_not(m[1].flags.recursive_bind);

	snprintf(want, sizeof(want), "%s/./x", plan_bundle);
	cr_assert_not_null(m[2].bind_source);
	cr_expect_str_eq(m[2].bind_source, want);
	cr_expect(f.plan.rootfs.default_devices, "no /dev mount: made in the image's /dev");
	plan_done(&f);
}

/* In a user namespace of its own nodes are bound from the host, as runc binds them there;
 * elsewhere they are made (the child binds them only once mknod is refused). */
Test(spawn_plan, nodes_bound_in_a_user_namespace)
{
	struct plan_fixture f;
	plan_build_ok(&f, userns_doc(JSON({"type" : "user"}, {"type" : "mount"}), ""));
	cr_expect(f.plan.rootfs.bind_nodes);
	plan_done(&f);
	plan_build_ok(&f, mounts_doc(JSON([])));
	cr_expect_not(f.plan.rootfs.bind_nodes);
	plan_done(&f);
}

/* runc's rule: a /dev bound from elsewhere brings its own nodes; any other /dev (a tmpfs, a
 * devtmpfs, or none: the image's directory) gets the default ones. */
Test(spawn_plan, default_devices_unless_dev_is_bound)
{
	struct plan_fixture f;
	plan_build_ok(&f, mounts_doc(JSON([
		{"destination" : "/dev", "type" : "bind", "source" : "/dev", "options" : ["rbind"]}
	])));
	cr_expect_not(f.plan.rootfs.default_devices);
	plan_done(&f);
	plan_build_ok(&f, mounts_doc(JSON([ {"destination" : "/dev", "type" : "devtmpfs"} ])));
	cr_expect(f.plan.rootfs.default_devices);
	plan_done(&f);
}

Test(spawn_plan, bind_without_source_is_refused)
{
	struct plan_fixture f;
	assert_build_fails(&f,
			   mounts_doc(JSON([ {"destination" : "/data", "options" : ["bind"]} ])),
			   EINVAL, "mount \"/data\": bind mount without a source");
	plan_done(&f);
}

/* config-linux.md: an absent mount namespace is inherited, and the mounts are made there
 * (libct/child/rootfs.h: in a private bind of the rootfs), as runc and crun make them. */
Test(spawn_plan, mounts_without_a_mount_namespace_are_planned)
{
	struct plan_fixture f;
	plan_build_ok(
		&f, plan_doc(JSON(
			    "mounts"
			    : [ {"destination" : "/proc", "type" : "proc", "source" : "proc"} ])));
	cr_expect_not(f.plan.ns.new_mount_ns);
	cr_expect_eq(f.plan.rootfs.n_mounts, 1);
	plan_done(&f);
}

/* ---- rlimits ---- */

Test(spawn_plan, rlimits_are_mapped)
{
	struct plan_fixture f;
	plan_build_ok(
		&f,
		plan_doc_with(
			JSON({
				"args" : ["/bin/true"],
				"cwd" : "/",
				"rlimits" : [
					{"type" : "RLIMIT_NOFILE", "soft" : 1024, "hard" : 4096}, {
						"type" : "RLIMIT_CORE",
						"soft" : 0,
						"hard" : 18446744073709551615
					}
				]
			}),
			""));
	cr_assert_eq(f.plan.process.n_rlimits, 2);
	cr_expect_eq(f.plan.process.rlimits[0].resource, RLIMIT_NOFILE);
	cr_expect_eq(f.plan.process.rlimits[0].limit.rlim_cur, 1024);
	cr_expect_eq(f.plan.process.rlimits[0].limit.rlim_max, 4096);
	cr_expect_eq(f.plan.process.rlimits[1].resource, RLIMIT_CORE);
	cr_expect_eq(f.plan.process.rlimits[1].limit.rlim_cur, 0);
	cr_expect_eq(f.plan.process.rlimits[1].limit.rlim_max, RLIM_INFINITY);
	plan_done(&f);
}

Test(spawn_plan, unknown_rlimit_is_refused)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		plan_doc_with(
			JSON({
				"args" : ["/bin/true"],
				"cwd" : "/",
				"rlimits" : [ {"type" : "RLIMIT_FOO", "soft" : 1, "hard" : 1} ]
			}),
			""),
		EINVAL, "config.json: .process.rlimits[0].type: unknown rlimit \"RLIMIT_FOO\"");
	plan_done(&f);
}

/* ---- capabilities ---- */

Test(spawn_plan, capability_names)
{
	cr_expect_eq(ct_capability_from_name("CAP_KILL"), CAP_KILL);
	cr_expect_eq(ct_capability_from_name("CAP_KILL"), 5);
	cr_expect_eq(ct_capability_from_name("CAP_CHOWN"), 0);
	cr_expect_eq(ct_capability_from_name("CAP_NET_BIND_SERVICE"), 10);
	cr_expect_eq(ct_capability_from_name("CAP_SYS_ADMIN"), CAP_SYS_ADMIN);
	cr_expect_eq(ct_capability_from_name("cap_kill"), CAP_KILL, "any case");
}

/* ctrun's own table (oci/capabilities.h) names every capability of the kernel headers it
 * is built with, at its number: each "#define CAP_NAME N" of linux/capability.h, read as
 * text here, is row N of the table, and the table has no row past CAP_LAST_CAP. */
Test(spawn_plan, capability_table_matches_the_kernel_headers)
{
	int n = 0;
	while (oci_capability_names[n])
		n++;
	cr_expect_eq(n, CAP_LAST_CAP + 1);
	FILE *h = fopen("/usr/include/linux/capability.h", "re");
	if (!h)
		cr_skip("no /usr/include/linux/capability.h to compare with");
	char line[256], name[64];
	int number, defined = 0;
	while (fgets(line, sizeof(line), h)) {
		if (sscanf(line, "#define %63[A-Z_] %d", name, &number) != 2 ||
		    strncmp(name, "CAP_", 4) != 0 || number > CAP_LAST_CAP ||
		    strcmp(name, "CAP_LAST_CAP") == 0)
			continue;
		cr_expect_str_eq(oci_capability_names[number], name, "capability %d", number);
		cr_expect_eq(ct_capability_from_name(name), number, "%s", name);
		defined++;
	}
	fclose(h);
	cr_expect_eq(defined, n, "linux/capability.h defines %d capabilities, the table has %d",
		     defined, n);
}

/* libct/parent/spawn_plan.h: 'Capability name ("CAP_KILL" or "kill")'. */
Test(spawn_plan, capability_name_without_prefix)
{
	cr_expect_eq(ct_capability_from_name("kill"), CAP_KILL, "the CAP_ prefix may be left out");
	cr_expect_eq(ct_capability_from_name("net_bind_service"), CAP_NET_BIND_SERVICE);
}

Test(spawn_plan, unknown_capability_names)
{
	cr_expect_eq(ct_capability_from_name("CAP_FOO"), -1);
	cr_expect_eq(ct_capability_from_name(""), -1);
	cr_expect_eq(ct_capability_from_name("CAP_"), -1);
}

/* config.md#process: capabilities are named; a number, a list or a padded name is none. */
Test(spawn_plan, capability_must_be_exactly_one_name)
{
	cr_expect_eq(ct_capability_from_name("5"), -1, "a number is not a capability name");
	cr_expect_eq(ct_capability_from_name("CAP_KILL,CAP_SYS_ADMIN"), -1,
		     "a list must not be taken as its first name");
	cr_expect_eq(ct_capability_from_name("CAP_KILL "), -1);
}

/* The process /bin/true with the capabilities object caps (JSON); static storage. */
static const char *caps_process(const char *caps)
{
	static char process[512];
	snprintf(process, sizeof(process),
		 "{\"args\": [\"/bin/true\"], \"cwd\": \"/\", \"capabilities\": %s}", caps);
	return process;
}

Test(spawn_plan, capabilities_become_bit_masks)
{
	struct plan_fixture f;
	plan_build_ok(
		&f,
		plan_doc_with(
			caps_process(JSON({
				"bounding" : [ "CAP_KILL", "CAP_NET_BIND_SERVICE", "CAP_CHOWN" ],
				"effective" : ["CAP_KILL"],
				"permitted" : [ "CAP_KILL", "CAP_NET_BIND_SERVICE" ],
				"inheritable" : ["CAP_NET_BIND_SERVICE"],
				"ambient" : ["CAP_NET_BIND_SERVICE"]
			})),
			""));
	cr_expect(f.plan.process.set_caps);
	cr_expect_geq(f.plan.process.cap_last, CAP_AUDIT_READ, "cap_last %d",
		      f.plan.process.cap_last);
	cr_expect_eq(f.plan.process.cap_bounding, (1ULL << 5) | (1ULL << 10) | 1ULL,
		     "bounding %#llx", (unsigned long long)f.plan.process.cap_bounding);
	cr_expect_eq(f.plan.process.cap_effective, 1ULL << 5, "CAP_KILL is bit 5");
	cr_expect_eq(f.plan.process.cap_permitted, (1ULL << 5) | (1ULL << 10));
	cr_expect_eq(f.plan.process.cap_inheritable, 1ULL << 10);
	cr_expect_eq(f.plan.process.cap_ambient, 1ULL << 10);
	plan_done(&f);
}

/* prctl(2) refuses to raise an ambient capability that is not both permitted and
 * inheritable; runc's and crun's `spec` list ambient ones without inheritable ones. */
Test(spawn_plan, ambient_capabilities_need_permitted_and_inheritable)
{
	struct plan_fixture f;
	plan_build_ok(
		&f, plan_doc_with(
			    caps_process(JSON({
				    "permitted" : [ "CAP_KILL", "CAP_NET_BIND_SERVICE" ],
				    "inheritable" : [ "CAP_KILL", "CAP_CHOWN" ],
				    "ambient" : [ "CAP_NET_BIND_SERVICE", "CAP_KILL", "CAP_CHOWN" ]
			    })),
			    ""));
	cr_expect_eq(f.plan.process.cap_ambient, 1ULL << CAP_KILL, "ambient %#llx",
		     (unsigned long long)f.plan.process.cap_ambient);
	cr_expect_str_eq(plan_notices,
			 "config.json: .process.capabilities.ambient[0]: \"CAP_NET_BIND_SERVICE\" "
			 "not raised: it is not both permitted and inheritable\n"
			 "config.json: .process.capabilities.ambient[2]: \"CAP_CHOWN\" not "
			 "raised: it is not both permitted and inheritable\n");
	plan_done(&f);
}

Test(spawn_plan, empty_capabilities_drop_everything)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(caps_process(JSON({})), ""));
	cr_expect(f.plan.process.set_caps, "an empty object still means: set these (none)");
	cr_expect_eq(f.plan.process.cap_bounding | f.plan.process.cap_effective |
			     f.plan.process.cap_permitted | f.plan.process.cap_inheritable |
			     f.plan.process.cap_ambient,
		     0);
	plan_done(&f);
}

#define KILL_ONLY_PROCESS caps_process(JSON({"bounding" : ["CAP_KILL"]}))

static uint64_t known_caps(const struct ct_init_plan *plan)
{
	return plan->process.cap_last >= 63 ? ~0ULL : (1ULL << (plan->process.cap_last + 1)) - 1;
}

/* The init starts with ctrun's own bounding set: only what is in it and unwanted is
 * dropped, one prctl each (libct/base/selfstatus.h). */
Test(spawn_plan, bounding_drops_are_what_ctrun_has_and_the_config_lacks)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(KILL_ONLY_PROCESS, ""));
	struct ct_self_status own;
	ct_self_status_read(&own);
	cr_expect_eq(f.plan.process.cap_drop,
		     own.cap_bounding & known_caps(&f.plan) & ~(1ULL << CAP_KILL), "drop %#llx",
		     (unsigned long long)f.plan.process.cap_drop);
	cr_expect_eq(f.plan.process.sig_reset, own.sig_ignored);
	plan_done(&f);
}

/* In a user namespace of its own the init starts with every capability in the bounding
 * set (user_namespaces(7)), whatever ctrun's is; so does exec's process joining one. */
Test(spawn_plan, bounding_drops_in_a_user_namespace_are_every_unwanted_one)
{
	struct plan_fixture f;
	char members[1024];
	snprintf(members, sizeof(members),
		 "\"linux\": {\"namespaces\": [{\"type\": \"user\"}], %s}", USERNS_MAPS);
	plan_build_ok(&f, plan_doc_with(KILL_ONLY_PROCESS, members));
	cr_expect_eq(f.plan.process.cap_drop, known_caps(&f.plan) & ~(1ULL << CAP_KILL));
	plan_done(&f);
	plan_build_ok(&f, plan_doc_with(KILL_ONLY_PROCESS, ""));
	ct_plan_enters_user_ns(&f.plan);
	cr_expect_eq(f.plan.process.cap_drop, known_caps(&f.plan) & ~(1ULL << CAP_KILL));
	plan_done(&f);
}

Test(spawn_plan, unknown_capability_is_refused)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		plan_doc_with(caps_process(JSON(
				      {"bounding" : [], "permitted" : [ "CAP_KILL", "CAP_FOO" ]})),
			      ""),
		EINVAL,
		"config.json: .process.capabilities.permitted[1]: unknown capability "
		"\"CAP_FOO\"");
	plan_done(&f);
}

/* ---- argv and environment ---- */

Test(spawn_plan, argv_is_null_terminated)
{
	unsetenv("LISTEN_FDS");
	struct plan_fixture f;
	plan_build_ok(&f,
		      plan_doc_with(JSON({"args" : [ "sh", "-c", "echo hi" ], "cwd" : "/"}), ""));
	cr_assert_not_null(f.plan.process.argv);
	cr_expect_str_eq(f.plan.process.argv[0], "sh");
	cr_expect_str_eq(f.plan.process.argv[1], "-c");
	cr_expect_str_eq(f.plan.process.argv[2], "echo hi");
	cr_expect_null(f.plan.process.argv[3]);
	cr_assert_not_null(f.plan.process.envp);
	cr_expect_null(f.plan.process.envp[0], "no env, no LISTEN_FDS: an empty environment");
	cr_expect_str_eq(f.plan.process.path_env,
			 "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			 "the default PATH to find args[0] in");
	plan_done(&f);
}

Test(spawn_plan, env_is_passed_and_path_found)
{
	unsetenv("LISTEN_FDS");
	struct plan_fixture f;
	plan_build_ok(
		&f,
		plan_doc_with(JSON({
				      "args" : ["ls"],
				      "cwd" : "/",
				      "env" : [ "TERM=xterm", "PATH=/opt/bin:/bin", "HOME=/root" ]
			      }),
			      ""));
	cr_assert_not_null(f.plan.process.envp);
	cr_expect_str_eq(f.plan.process.envp[0], "TERM=xterm");
	cr_expect_str_eq(f.plan.process.envp[1], "PATH=/opt/bin:/bin");
	cr_expect_str_eq(f.plan.process.envp[2], "HOME=/root");
	cr_expect_null(f.plan.process.envp[3]);
	cr_expect_str_eq(f.plan.process.path_env, "/opt/bin:/bin");
	plan_done(&f);
}

Test(spawn_plan, listen_fds_are_announced)
{
	cr_assert_eq(setenv("LISTEN_FDS", "2", 1), 0);
	unsetenv("LISTEN_PID"); /* unset: the fds are ours */
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(JSON({"args" : ["sd"], "cwd" : "/", "env" : ["A=1"]}), ""));
	cr_assert_not_null(f.plan.process.envp);
	cr_expect_str_eq(f.plan.process.envp[0], "A=1");
	cr_assert_not_null(f.plan.process.envp[1]);
	cr_expect_str_eq(f.plan.process.envp[1], "LISTEN_FDS=2");
	cr_assert_not_null(f.plan.process.envp[2]);
	cr_expect_str_eq(f.plan.process.envp[2], "LISTEN_PID=1",
			 "the process is pid 1 of its namespace");
	cr_expect_null(f.plan.process.envp[3]);
	plan_done(&f);
}

Test(spawn_plan, listen_fds_zero_or_junk_adds_nothing)
{
	const char *values[] = {"0", "junk", ""};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		cr_assert_eq(setenv("LISTEN_FDS", values[i], 1), 0);
		struct plan_fixture f;
		plan_build_ok(
			&f,
			plan_doc_with(JSON({"args" : ["sd"], "cwd" : "/", "env" : ["A=1"]}), ""));
		cr_expect_str_eq(f.plan.process.envp[0], "A=1");
		cr_expect_null(f.plan.process.envp[1], "LISTEN_FDS=\"%s\" added %s", values[i],
			       f.plan.process.envp[1]);
		plan_done(&f);
	}
}

Test(spawn_plan, listen_fds_count_needs_our_pid_or_none)
{
	const struct {
		const char *fds, *pid;
		int want;
	} cases[] = {
		{NULL, NULL, 0},    {"2", NULL, 2},   {"2", "100", 2},	{"2", "101", 0},
		{"2", "", 0},	    {"2", "100x", 0}, {"2", "-100", 0}, {"0", NULL, 0},
		{"junk", NULL, 0},  {"-1", NULL, 0},  {"1x", NULL, 0},	{"65536", "100", 65536},
		{"65537", NULL, 0}, {"1", "0100", 1},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect_eq(ct_listen_fds_count(cases[i].fds, cases[i].pid, 100), cases[i].want,
			     "LISTEN_FDS=%s LISTEN_PID=%s", cases[i].fds ? cases[i].fds : "(unset)",
			     cases[i].pid ? cases[i].pid : "(unset)");
}

/* The plan's environment with LISTEN_FDS=2 and LISTEN_PID=pid: announced or not. */
static void assert_listen_fds_for_pid(pid_t pid, bool announced)
{
	char pidtext[16];
	snprintf(pidtext, sizeof(pidtext), "%d", (int)pid);
	cr_assert_eq(setenv("LISTEN_FDS", "2", 1), 0);
	cr_assert_eq(setenv("LISTEN_PID", pidtext, 1), 0);
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(JSON({"args" : ["sd"], "cwd" : "/", "env" : ["A=1"]}), ""));
	cr_expect_str_eq(f.plan.process.envp[0], "A=1");
	if (announced) {
		cr_expect_str_eq(f.plan.process.envp[1], "LISTEN_FDS=2");
		cr_expect_str_eq(f.plan.process.envp[2], "LISTEN_PID=1");
	} else {
		cr_expect_null(f.plan.process.envp[1], "LISTEN_PID=%d (not ours) added %s",
			       (int)pid, f.plan.process.envp[1]);
	}
	plan_done(&f);
	unsetenv("LISTEN_PID");
}

Test(spawn_plan, listen_fds_for_our_pid_are_announced)
{
	assert_listen_fds_for_pid(getpid(), true);
}

Test(spawn_plan, listen_fds_for_another_pid_add_nothing)
{
	assert_listen_fds_for_pid(getppid(), false);
}

/* ---- fields whose issue has not landed ---- */

/* The profile is compiled into the plan, before any clone, with its load point. */
Test(spawn_plan, seccomp_compiled_into_the_plan)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(caps_process(JSON({"effective" : ["CAP_SYS_ADMIN"]})),
					JSON("linux"
					     : {"seccomp" : {"defaultAction" : "SCMP_ACT_ALLOW"}})));
	cr_expect_not_null(f.plan.process.seccomp.insns);
	cr_expect_gt(f.plan.process.seccomp.len, 0);
	cr_expect_eq(f.plan.process.seccomp_point, CT_SECCOMP_BEFORE_EXEC,
		     "uid 0 keeps CAP_SYS_ADMIN");
	plan_done(&f);
}

/* No no_new_privs and no CAP_SYS_ADMIN left: loaded before the identity switch drops it. */
Test(spawn_plan, seccomp_before_identity_without_nnp_or_sys_admin)
{
	struct plan_fixture f;
	plan_build_ok(&f,
		      plan_doc_with(caps_process(JSON({"effective" : ["CAP_KILL"]})),
				    JSON("linux"
					 : {"seccomp" : {"defaultAction" : "SCMP_ACT_ALLOW"}})));
	cr_expect_eq(f.plan.process.seccomp_point, CT_SECCOMP_BEFORE_IDENTITY);
	plan_done(&f);
	plan_build_ok(&f,
		      plan_doc_with(JSON({
					    "args" : ["/bin/true"],
					    "cwd" : "/",
					    "noNewPrivileges" : true,
					    "capabilities" : {"effective" : ["CAP_KILL"]}
				    }),
				    JSON("linux"
					 : {"seccomp" : {"defaultAction" : "SCMP_ACT_ALLOW"}})));
	cr_expect_eq(f.plan.process.seccomp_point, CT_SECCOMP_BEFORE_EXEC);
	plan_done(&f);
}

Test(spawn_plan, seccomp_notify_before_ready)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(caps_process(JSON({"effective" : ["CAP_SYS_ADMIN"]})),
					JSON("linux"
					: {
						"seccomp" : {
							"defaultAction" : "SCMP_ACT_ALLOW",
							"listenerPath" : "/run/agent.sock",
							"syscalls" : [ {
								"names" : ["mkdir"],
								"action" : "SCMP_ACT_NOTIFY"
							} ]
						}
					})));
	cr_expect(f.plan.process.seccomp.notify);
	cr_expect_eq(f.plan.process.seccomp_point, CT_SECCOMP_BEFORE_READY);
	plan_done(&f);
}

Test(spawn_plan, seccomp_profile_error_fails_the_build)
{
	struct plan_fixture f;
	assert_build_fails(
		&f,
		plan_doc(JSON(
			"linux"
			: {
				"seccomp" :
					{"defaultAction" : "SCMP_ACT_ALLOW", "defaultErrnoRet" : 1}
			})),
		EINVAL,
		"config.json: .linux.seccomp.defaultErrnoRet: SCMP_ACT_ALLOW takes no "
		"errno");
	plan_done(&f);
}

/* The cgroup is made and limited by the caller (libct/cgroup): the plan only keeps the
 * cgroup namespace at clone time when there is no cgroup to enter first. */
Test(spawn_plan, resources_and_cgroups_path_are_left_to_the_cgroup)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(JSON("linux"
					: {
						"resources" : {"pids" : {"limit" : 10}},
						"cgroupsPath" : "pod/c1",
						"namespaces" : [ {"type" : "cgroup"} ]
					})));
	cr_expect(f.plan.ns.unshare_flags & CLONE_NEWCGROUP);
	cr_expect_not(f.plan.place.late_cgroupns);
	cr_expect_eq(f.plan.cgroup.fd, -1);
	plan_done(&f);
}
