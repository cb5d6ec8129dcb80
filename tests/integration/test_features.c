/* `ctrun features`: a schema-valid features document that claims only what ctrun does. */
#include <criterion/criterion.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/config.h"
#include "tests/lib/testlib.h"

TestSuite(features, .fini = ctt_cleanup);

/* The document, parsed; also saved to *file when file is not NULL. */
static yajl_val features(char **file)
{
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "features", NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_assert_str_empty(r.err);
	yajl_val tree = ctt_json_parse(r.out, "ctrun features");
	if (file) {
		*file = ctt_tmp_path("features.json");
		ctt_write_file(*file, r.out);
	}
	ctt_result_free(&r);
	return tree;
}

Test(features, schema_valid)
{
	char *file;
	yajl_tree_free(features(&file));
	ctt_assert_schema_valid(file, "features-schema.json");
	free(file);
}

Test(features, versions)
{
	yajl_val f = features(NULL);
	cr_expect_str_eq(ctt_json_get_string(f, ".ociVersionMin"), "1.0.0");
	cr_expect_str_eq(ctt_json_get_string(f, ".ociVersionMax"), "1.3.0");
	/* features.md: the runtime MUST accept both as config.json's ociVersion. */
	cr_expect(oci_version_supported(ctt_json_get_string(f, ".ociVersionMin")));
	cr_expect(oci_version_supported(ctt_json_get_string(f, ".ociVersionMax")));
	yajl_tree_free(f);
}

Test(features, lists_the_namespaces)
{
	yajl_val f = features(NULL);
	static const char *const want[] = {"cgroup", "ipc", "mount", "network",
					   "pid",    "uts", "time",  "user"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect(ctt_json_array_has(f, ".linux.namespaces", want[i]), "%s", want[i]);
	cr_expect_eq(ctt_json_len(f, ".linux.namespaces"), 8);
	yajl_tree_free(f);
}

/* Every name it claims must at least be one the config parser knows. */
Test(features, namespaces_are_known_to_the_parser)
{
	yajl_val f = features(NULL);
	yajl_val ns = ctt_json_get(f, ".linux.namespaces");
	cr_assert(YAJL_IS_ARRAY(ns));
	for (size_t i = 0; i < ns->u.array.len; i++) {
		const char *name = ns->u.array.values[i]->u.string;
		bool known = false;
		for (size_t j = 0; j < OCI_NS_COUNT; j++)
			known = known || !strcmp(oci_namespace_names[j], name);
		cr_expect(known, "%s is not a config namespace type", name);
	}
	yajl_tree_free(f);
}

Test(features, claims_the_six_hooks_and_plain_mount_options)
{
	yajl_val f = features(NULL);
	static const char *const hooks[] = {"prestart",	      "createRuntime", "createContainer",
					    "startContainer", "poststart",     "poststop"};
	cr_expect_eq(ctt_json_len(f, ".hooks"), 6, "hooks: the six of config.md");
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		cr_expect(ctt_json_array_has(f, ".hooks", hooks[i]), "%s", hooks[i]);
	static const char *const want[] = {"ro",       "rw",	  "nosuid",   "nodev",
					   "noexec",   "bind",	  "rbind",    "rprivate",
					   "relatime", "remount", "tmpcopyup"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect(ctt_json_array_has(f, ".mountOptions", want[i]), "%s", want[i]);
	static const char *const not_yet[] = {"rro", "nosymfollow"};
	for (size_t i = 0; i < sizeof(not_yet) / sizeof(not_yet[0]); i++)
		cr_expect_not(ctt_json_array_has(f, ".mountOptions", not_yet[i]), "%s", not_yet[i]);
	yajl_tree_free(f);
}

Test(features, unimplemented_security_is_disabled)
{
	yajl_val f = features(NULL);
	static const char *const off[] = {".linux.apparmor.enabled", ".linux.selinux.enabled",
					  ".linux.intelRdt.enabled"};
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		if (ctt_json_get(f, off[i])) /* absent is fine too */
			cr_expect_not(ctt_json_get_bool(f, off[i]), "%s", off[i]);
	yajl_tree_free(f);
}

/* Id-mapped mounts are applied (the userns suite checks them). */
Test(features, claims_id_mapped_mounts)
{
	yajl_val f = features(NULL);
	cr_expect(ctt_json_get_bool(f, ".linux.mountExtensions.idmap.enabled"));
	cr_expect(ctt_json_array_has(f, ".mountOptions", "idmap"));
	cr_expect(ctt_json_array_has(f, ".mountOptions", "ridmap"));
	yajl_tree_free(f);
}

/* Every name claimed is one create takes (the seccomp suite applies them). */
Test(features, seccomp_lists)
{
	yajl_val f = features(NULL);
	cr_expect(ctt_json_get_bool(f, ".linux.seccomp.enabled"));
	cr_expect_eq(ctt_json_len(f, ".linux.seccomp.actions"), 9);
	cr_expect(ctt_json_array_has(f, ".linux.seccomp.actions", "SCMP_ACT_NOTIFY"));
	cr_expect_eq(ctt_json_len(f, ".linux.seccomp.operators"), 7);
	cr_expect(ctt_json_array_has(f, ".linux.seccomp.operators", "SCMP_CMP_MASKED_EQ"));
	cr_expect(ctt_json_array_has(f, ".linux.seccomp.archs", "SCMP_ARCH_X86_64"));
	cr_expect_not(ctt_json_array_has(f, ".linux.seccomp.archs", "SCMP_ARCH_LOONGARCH64"));
	cr_expect_eq(ctt_json_len(f, ".linux.seccomp.knownFlags"), 4);
	cr_expect(
		ctt_json_array_has(f, ".linux.seccomp.supportedFlags", "SECCOMP_FILTER_FLAG_LOG"));
	cr_expect_not(ctt_json_array_has(f, ".linux.seccomp.supportedFlags",
					 "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"));
	yajl_tree_free(f);
}

/* Every mode and flag of config-linux.md#memory-policy: create takes them all (sched suite). */
Test(features, memory_policy_lists)
{
	yajl_val f = features(NULL);
	static const char *const modes[] = {"MPOL_DEFAULT",    "MPOL_BIND",
					    "MPOL_INTERLEAVE", "MPOL_WEIGHTED_INTERLEAVE",
					    "MPOL_PREFERRED",  "MPOL_PREFERRED_MANY",
					    "MPOL_LOCAL"};
	static const char *const flags[] = {"MPOL_F_NUMA_BALANCING", "MPOL_F_RELATIVE_NODES",
					    "MPOL_F_STATIC_NODES"};
	cr_expect_eq(ctt_json_len(f, ".linux.memoryPolicy.modes"), 7);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		cr_expect(ctt_json_array_has(f, ".linux.memoryPolicy.modes", modes[i]), "%s",
			  modes[i]);
	cr_expect_eq(ctt_json_len(f, ".linux.memoryPolicy.flags"), 3);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		cr_expect(ctt_json_array_has(f, ".linux.memoryPolicy.flags", flags[i]), "%s",
			  flags[i]);
	yajl_tree_free(f);
}

Test(features, libseccomp_version_annotation)
{
	yajl_val f = features(NULL);
	const struct scmp_version *v = seccomp_version();
	char want[64];
	snprintf(want, sizeof(want), "%u.%u.%u", v->major, v->minor, v->micro);
	cr_expect_str_eq(
		ctt_json_get_string(f, ".annotations[\"io.github.seccomp.libseccomp.version\"]"),
		want);
	yajl_tree_free(f);
}

#define CHECKPOINT_ENABLED ".annotations[\"org.opencontainers.runc.checkpoint.enabled\"]"

/* As runc 1.1.5 says it: checkpoint and restore are there (they need criu to work), which
 * Podman and containerd read; the same as runc's own where it is installed. */
Test(features, checkpoint_enabled_annotation_as_runc)
{
	yajl_val f = features(NULL);
	cr_expect_str_eq(ctt_json_get_string(f, CHECKPOINT_ENABLED), "true");
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"runc", "features", NULL});
	if (r.status == 0) {
		yajl_val runc = ctt_json_parse(r.out, "runc features");
		cr_expect_str_eq(ctt_json_get_string(f, CHECKPOINT_ENABLED),
				 ctt_json_get_string(runc, CHECKPOINT_ENABLED));
		yajl_tree_free(runc);
	}
	ctt_result_free(&r);
	yajl_tree_free(f);
}

Test(features, unexpected_argument)
{
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "features", "extra", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect_str_empty(r.out);
	cr_expect(strstr(r.err, "\"extra\""), "stderr: %s", r.err);
	ctt_result_free(&r);
}

/* The cgroupfs drivers of libct/cgroup, both layouts, and the systemd one. */
Test(features, cgroup_drivers)
{
	yajl_val f = features(NULL);
	cr_expect(ctt_json_get_bool(f, ".linux.cgroup.v1"));
	cr_expect(ctt_json_get_bool(f, ".linux.cgroup.v2"));
	cr_expect(ctt_json_get_bool(f, ".linux.cgroup.rdma"));
	cr_expect(ctt_json_get_bool(f, ".linux.cgroup.systemd"));
	cr_expect(ctt_json_get_bool(f, ".linux.cgroup.systemdUser"));
	yajl_tree_free(f);
}

/* .linux.netDevices moves devices (the net_devices suite moves them). */
Test(features, claims_net_devices)
{
	yajl_val f = features(NULL);
	cr_expect(ctt_json_get_bool(f, ".linux.netDevices.enabled"));
	yajl_tree_free(f);
}
