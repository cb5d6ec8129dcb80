/* `ctrun validate`: exit 0 only for a good bundle, and every problem of a bad one in one run,
 * each as "config.json: <path>: <message>". */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/testlib.h"

TestSuite(validate, .fini = ctt_cleanup);

/* A bundle with a rootfs/ directory and the given config.json (NULL: `ctrun spec`'s). */
static char *bundle_with(const char *config_text)
{
	char *dir = ctt_tmpdir();
	char *rootfs = ctt_path(dir, "rootfs");
	ctt_mkdir_p(rootfs);
	free(rootfs);
	if (config_text) {
		char *config = ctt_path(dir, "config.json");
		ctt_write_file(config, config_text);
		free(config);
	} else {
		struct ctt_result r;
		ctt_ctrun(&r, NULL, "spec", "--bundle", dir, NULL);
		cr_assert_eq(r.status, 0, "stderr: %s", r.err);
		ctt_result_free(&r);
	}
	return dir;
}

static void run_validate(struct ctt_result *r, const char *dir)
{
	ctt_ctrun(r, NULL, "validate", "--bundle", dir, NULL);
}

Test(validate, good_bundle)
{
	char *dir = bundle_with(NULL);
	struct ctt_result r;
	run_validate(&r, dir);
	char *want = NULL;
	cr_assert_geq(asprintf(&want, "%s/config.json: valid\n", dir), 0);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, want);
	cr_expect_str_empty(r.err);
	ctt_result_free(&r);
	free(want);
}

Test(validate, default_bundle_is_current_directory)
{
	char *dir = bundle_with(NULL);
	struct ctt_result r;
	ctt_ctrun(&r, &(struct ctt_run_opts){.cwd = dir}, "validate", NULL);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "valid"), "stdout: %s", r.out);
	ctt_result_free(&r);
}

/* A busybox bundle with its config edited through the test library still validates. */
Test(validate, edited_busybox_bundle)
{
	char *dir = ctt_bundle_new();
	ctt_config_set(dir, ".process.args", "[\"sh\", \"-c\", \"echo hi\"]");
	ctt_config_set(dir, ".annotations", "{\"org.example.a.b\": \"1\"}");
	ctt_config_set(dir, ".linux.namespaces[6]", "{\"type\": \"time\"}");
	char *config = ctt_path(dir, "config.json");
	yajl_val c = ctt_json_load(config);
	cr_expect_str_eq(ctt_json_get_string(c, ".process.args[2]"), "echo hi");
	cr_expect_str_eq(ctt_json_get_string(c, ".annotations[\"org.example.a.b\"]"), "1");
	cr_expect_str_eq(ctt_json_get_string(c, ".linux.namespaces[6].type"), "time");
	yajl_tree_free(c);
	struct ctt_result r;
	run_validate(&r, dir);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	ctt_result_free(&r);
	free(config);
}

Test(validate, every_problem_listed)
{
	char *dir = bundle_with("{\n"
				"  \"ociVersion\": \"2.0.0\",\n"
				"  \"root\": {\"path\": 5},\n"
				"  \"process\": {\"cwd\": \"relative\", \"args\": \"sh\",\n"
				"              \"user\": {\"uid\": -1, \"gid\": 0}},\n"
				"  \"hostname\": 7,\n"
				"  \"mounts\": [{\"destination\": \"/x\", \"options\": [1]}],\n"
				"  \"linux\": {\"namespaces\": [{\"type\": \"bogus\"}]}\n"
				"}\n");
	static const char *const problems[] = {
		"config.json: .ociVersion: ",		"config.json: .root.path: ",
		"config.json: .process.cwd: ",		"config.json: .process.args: ",
		"config.json: .process.user.uid: ",	"config.json: .hostname: ",
		"config.json: .mounts[0].options[0]: ", "config.json: .linux.namespaces[0].type: ",
	};
	const size_t n = sizeof(problems) / sizeof(problems[0]);
	struct ctt_result r;
	run_validate(&r, dir);
	cr_expect_eq(r.status, 1);
	cr_expect_str_empty(r.out);
	for (size_t i = 0; i < n; i++)
		cr_expect(strstr(r.err, problems[i]), "missing \"%s\" in:\n%s", problems[i], r.err);
	/* One line per problem, then the count. */
	cr_expect_eq(ctt_count_lines(r.err), n + 1, "stderr:\n%s", r.err);
	char count[64];
	snprintf(count, sizeof(count), ": %zu problems found\n", n);
	cr_expect(strstr(r.err, count), "stderr:\n%s", r.err);
	ctt_result_free(&r);
}

Test(validate, missing_root_directory_named)
{
	char *dir = bundle_with(NULL);
	char *rootfs = ctt_path(dir, "rootfs");
	cr_assert_eq(ctt_rm_rf(rootfs), 0);
	struct ctt_result r;
	run_validate(&r, dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "config.json: .root.path: "), "stderr: %s", r.err);
	cr_expect(strstr(r.err, rootfs), "names %s: %s", rootfs, r.err);
	cr_expect(strstr(r.err, "No such file or directory"), "stderr: %s", r.err);
	ctt_result_free(&r);
	free(rootfs);
}

Test(validate, root_that_is_not_a_directory)
{
	char *dir = bundle_with(NULL);
	char *rootfs = ctt_path(dir, "rootfs");
	cr_assert_eq(ctt_rm_rf(rootfs), 0);
	ctt_write_file(rootfs, "not a directory\n");
	struct ctt_result r;
	run_validate(&r, dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "config.json: .root.path: "), "stderr: %s", r.err);
	cr_expect(strstr(r.err, "is not a directory"), "stderr: %s", r.err);
	ctt_result_free(&r);
	free(rootfs);
}

Test(validate, malformed_json_line_and_column)
{
	char *dir = bundle_with("{\"ociVersion\": \"1.0.0\",\n"
				"  \"root\": {\"path\": \"rootfs\",,}\n"
				"}\n");
	struct ctt_result r;
	run_validate(&r, dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "config.json: "), "stderr: %s", r.err);
	cr_expect(strstr(r.err, "line 2"), "the line: %s", r.err);
	cr_expect(strstr(r.err, "column "), "the column: %s", r.err);
	ctt_result_free(&r);
}

Test(validate, missing_config_json)
{
	char *dir = ctt_tmpdir();
	char *config = ctt_path(dir, "config.json");
	struct ctt_result r;
	run_validate(&r, dir);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, config), "names %s: %s", config, r.err);
	cr_expect(strstr(r.err, "No such file or directory"), "stderr: %s", r.err);
	cr_expect_str_empty(r.out);
	ctt_result_free(&r);
	free(config);
}
