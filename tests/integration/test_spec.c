/* `ctrun spec`: the default config.json is valid by the schema, by ctrun's own parser and by
 * `ctrun validate`, never overwrites, and the rootless variant maps the caller. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oci/config.h"
#include "tests/lib/testlib.h"

TestSuite(spec, .fini = ctt_cleanup);

static void count_problem(void *data, const char *msg)
{
	(void)msg;
	(*(unsigned *)data)++;
}

/* Parses file with ctrun's parser and asserts it found nothing to complain about. */
static struct oci_config *parse_back(const char *file)
{
	unsigned problems = 0;
	struct oci_config_opts opts = {.on_error = count_problem, .data = &problems};
	struct oci_config *config = NULL;
	struct ct_error err = {0};
	int ret = oci_config_load(file, &opts, &config, &err);
	cr_assert_eq(ret, 0, "%s: %s", file, err.msg);
	cr_assert_eq(problems, 0);
	cr_assert_not_null(config);
	return config;
}

static char *spec_in_new_dir(bool rootless)
{
	char *dir = ctt_tmpdir();
	struct ctt_result r;
	if (rootless)
		ctt_ctrun(&r, NULL, "spec", "--rootless", "--bundle", dir, NULL);
	else
		ctt_ctrun(&r, NULL, "spec", "--bundle", dir, NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	cr_assert_str_empty(r.out);
	cr_assert_str_empty(r.err);
	ctt_result_free(&r);
	return dir;
}

/* `ctrun spec` (--rootless) in a new directory: its config.json is valid for the schema. */
static void assert_spec_schema_valid(bool rootless)
{
	char *config = ctt_path(spec_in_new_dir(rootless), "config.json");
	ctt_assert_schema_valid(config, "config-schema.json");
	free(config);
}

/* `ctrun spec` (--rootless) in a new directory (*dir), its config.json parsed back. */
static struct oci_config *spec_parsed_back(bool rootless, char **dir)
{
	*dir = spec_in_new_dir(rootless);
	char *file = ctt_path(*dir, "config.json");
	struct oci_config *c = parse_back(file);
	free(file);
	return c;
}

static void expect_validate_accepts(const char *dir)
{
	char *rootfs = ctt_path(dir, "rootfs");
	ctt_mkdir_p(rootfs);
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "validate", "--bundle", dir, NULL);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "valid"), "stdout: %s", r.out);
	ctt_result_free(&r);
	free(rootfs);
}

static bool has_namespace(const struct oci_config *c, enum oci_ns_type type)
{
	for (size_t i = 0; i < c->linux_.namespaces.len; i++)
		if (c->linux_.namespaces.items[i].type == (int)type)
			return true;
	return false;
}

static const struct oci_mount *find_mount(const struct oci_config *c, const char *dest)
{
	for (size_t i = 0; i < c->mounts.len; i++)
		if (!strcmp(c->mounts.items[i].destination, dest))
			return &c->mounts.items[i];
	return NULL;
}

static bool has_option(const struct oci_mount *m, const char *option)
{
	for (size_t i = 0; i < m->options.len; i++)
		if (!strcmp(m->options.items[i], option))
			return true;
	return false;
}

Test(spec, default_config_is_schema_valid)
{
	assert_spec_schema_valid(false);
}

Test(spec, default_config_parses_back_and_validates)
{
	char *dir;
	struct oci_config *c = spec_parsed_back(false, &dir);
	cr_expect_str_eq(c->oci_version, "1.3.0");
	cr_expect_str_eq(c->root.path, "rootfs");
	cr_expect(c->root.readonly);
	cr_expect_str_eq(c->hostname, "ctrun");
	cr_expect_not(c->process.terminal, "terminal false: runs without a console");
	cr_expect_eq(c->process.args.len, 1);
	cr_expect_str_eq(c->process.args.items[0], "sh");
	cr_expect_str_eq(c->process.cwd, "/");
	cr_expect(c->process.no_new_privileges);
	cr_expect_eq(c->process.user.uid, 0);
	cr_expect_eq(c->process.rlimits.len, 1);
	cr_expect_eq(c->process.capabilities.bounding.len, 3);
	static const enum oci_ns_type want[] = {OCI_NS_PID, OCI_NS_NETWORK, OCI_NS_IPC,
						OCI_NS_UTS, OCI_NS_MOUNT,   OCI_NS_CGROUP};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_expect(has_namespace(c, want[i]), "namespace %s", oci_namespace_names[want[i]]);
	cr_expect_not(has_namespace(c, OCI_NS_USER));
	cr_expect_eq(c->mounts.len, 7);
	cr_expect_not_null(find_mount(c, "/sys/fs/cgroup"));
	cr_expect_eq(c->linux_.masked_paths.len, 10);
	cr_expect_eq(c->linux_.readonly_paths.len, 5);
	oci_config_free(c);
	expect_validate_accepts(dir);
}

Test(spec, default_bundle_is_current_directory)
{
	char *dir = ctt_tmpdir();
	struct ctt_result r;
	ctt_ctrun(&r, &(struct ctt_run_opts){.cwd = dir}, "spec", NULL);
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	ctt_result_free(&r);
	char *file = ctt_path(dir, "config.json");
	cr_assert(ctt_exists(file));
	free(file);
}

Test(spec, refuses_to_overwrite)
{
	char *dir = ctt_tmpdir();
	char *file = ctt_path(dir, "config.json");
	ctt_write_file(file, "{\"mine\": true}\n");
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "spec", "--bundle", dir, NULL);
	char want[4200];
	snprintf(want, sizeof(want), "ctrun: spec: \"%s\" already exists\n", file);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, want);
	ctt_result_free(&r);
	char *text = ctt_read_file(file);
	cr_expect_str_eq(text, "{\"mine\": true}\n", "config.json was changed");
	free(text);
	free(file);
}

Test(spec, missing_bundle_directory)
{
	char *dir = ctt_tmpdir();
	char *missing = ctt_path(dir, "nope");
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "spec", "--bundle", missing, NULL);
	cr_expect_eq(r.status, 1);
	cr_expect_eq(ctt_count_lines(r.err), 1, "stderr: %s", r.err);
	cr_expect(strstr(r.err, missing), "names the file: %s", r.err);
	cr_expect(strstr(r.err, "No such file or directory"), "says why: %s", r.err);
	ctt_result_free(&r);
	free(missing);
}

Test(spec, unexpected_argument)
{
	char *dir = ctt_tmpdir();
	struct ctt_result r;
	ctt_ctrun(&r, &(struct ctt_run_opts){.cwd = dir}, "spec", "extra", NULL);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "\"extra\""), "stderr: %s", r.err);
	ctt_result_free(&r);
	char *file = ctt_path(dir, "config.json");
	cr_expect_not(ctt_exists(file), "nothing written after a usage error");
	free(file);
}

Test(spec, rootless_config_is_schema_valid)
{
	assert_spec_schema_valid(true);
}

Test(spec, rootless_maps_the_caller)
{
	char *dir;
	struct oci_config *c = spec_parsed_back(true, &dir);
	cr_expect(has_namespace(c, OCI_NS_USER));
	cr_expect_not(has_namespace(c, OCI_NS_NETWORK),
		      "a rootless caller cannot set up a network");
	cr_expect_not(has_namespace(c, OCI_NS_CGROUP));
	cr_expect(has_namespace(c, OCI_NS_MOUNT));
	cr_assert_eq(c->linux_.uid_mappings.len, 1);
	cr_assert_eq(c->linux_.gid_mappings.len, 1);
	const struct oci_id_mapping *u = &c->linux_.uid_mappings.items[0];
	const struct oci_id_mapping *g = &c->linux_.gid_mappings.items[0];
	cr_expect_eq(u->container_id, 0);
	cr_expect_eq(u->host_id, geteuid());
	cr_expect_eq(u->size, 1);
	cr_expect_eq(g->container_id, 0);
	cr_expect_eq(g->host_id, getegid());
	cr_expect_eq(g->size, 1);

	cr_expect_null(find_mount(c, "/sys/fs/cgroup"), "no cgroup mount");
	const struct oci_mount *sys = find_mount(c, "/sys");
	cr_assert_not_null(sys);
	cr_expect_str_eq(sys->source, "/sys");
	cr_expect(has_option(sys, "rbind") && has_option(sys, "ro"));
	cr_expect(has_option(sys, "nosuid") && has_option(sys, "nodev") &&
		  has_option(sys, "noexec"));
	const struct oci_mount *pts = find_mount(c, "/dev/pts");
	cr_assert_not_null(pts);
	cr_expect_not(has_option(pts, "gid=5"), "gid 5 is not mapped");
	cr_expect(has_option(pts, "newinstance"));
	oci_config_free(c);
	expect_validate_accepts(dir);
}

/* The options of the /sys mount of `ctrun spec --rootless` run under wrapper (NULL: none),
 * comma-joined. */
static char *rootless_sys_options(const char *const *wrapper)
{
	char *dir = ctt_tmpdir();
	const char *argv[16];
	size_t n = 0;
	for (; wrapper && *wrapper; wrapper++)
		argv[n++] = *wrapper;
	const char *const args[] = {ctt_ctrun_path(), "spec", "--rootless", "--bundle", dir, NULL};
	for (const char *const *a = args; *a; a++)
		argv[n++] = *a;
	argv[n] = NULL;
	struct ctt_result r;
	ctt_run(&r, NULL, argv);
	cr_assert_eq(r.status, 0, "ctrun spec --rootless: %s", r.err);
	ctt_result_free(&r);
	char *file = ctt_path(dir, "config.json");
	struct oci_config *c = parse_back(file);
	const struct oci_mount *sys = find_mount(c, "/sys");
	cr_assert_not_null(sys, "no /sys mount");
	char *joined = calloc(1, 512);
	cr_assert_not_null(joined);
	for (size_t i = 0; i < sys->options.len; i++)
		snprintf(joined + strlen(joined), 512 - strlen(joined), "%s%s", i ? "," : "",
			 sys->options.items[i]);
	oci_config_free(c);
	free(file);
	free(dir);
	return joined;
}

/* The host's mounts below /sys come with the rbind: where the kernel applies recursive
 * mount attributes they are asked for, so those mounts are read-only too (runc spec
 * --rootless writes the plain options alone: docs/differences-from-runc.md). */
Test(spec, rootless_sys_is_read_only_all_the_way_down)
{
	ctt_require_mount_setattr();
	char *options = rootless_sys_options(NULL);
	cr_expect_str_eq(options, "rbind,nosuid,noexec,nodev,ro,rro,rnosuid,rnodev,rnoexec");
	free(options);
}

/* Without mount_setattr (a kernel before 5.12, or a seccomp profile that refuses it) no
 * runtime can apply rro: the spec writes runc's plain options, which any runtime runs. */
Test(spec, rootless_sys_plain_ro_without_mount_setattr)
{
	const char *enosys = ctt_helper("enosys");
	const char *const *const wrappers[] = {
		(const char *const[]){enosys, "mount_setattr", "--", NULL},
		(const char *const[]){enosys, "--errno", "EPERM", "mount_setattr", "--", NULL},
	};
	for (size_t i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++) {
		char *options = rootless_sys_options(wrappers[i]);
		cr_expect_str_eq(options, "rbind,nosuid,noexec,nodev,ro", "under enosys %s",
				 wrappers[i][1]);
		free(options);
	}
}
