/* The runtime-spec's own schema test corpus: every good document parses, every bad one is
 * refused. The corpus lives next to the repo (../shared/runtime-spec) or where
 * CTRUN_SPEC_DIR points. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oci/config.h"

#define MAX_ERRORS 16

struct errors {
	unsigned n;
	char msg[MAX_ERRORS][CT_ERROR_MSG_MAX];
};

static void collect_error(void *data, const char *msg)
{
	struct errors *e = data;
	if (e->n < MAX_ERRORS)
		snprintf(e->msg[e->n], sizeof(e->msg[0]), "%s", msg);
	e->n++;
}

static const char *spec_dir(void)
{
	const char *dir = getenv("CTRUN_SPEC_DIR");
	return dir && *dir ? dir : "../shared/runtime-spec";
}

/* Fills `path` with <spec>/schema/test/config/<sub>; skips the test when it is absent. */
static DIR *open_corpus(const char *sub, char *path, size_t size)
{
	snprintf(path, size, "%s/schema/test/config/%s", spec_dir(), sub);
	DIR *d = opendir(path);
	if (!d)
		cr_skip("runtime-spec corpus not found at %s (set CTRUN_SPEC_DIR)", path);
	return d;
}

static bool is_json_file(const char *name)
{
	size_t len = strlen(name);
	return len > 5 && strcmp(name + len - 5, ".json") == 0;
}

/* The two examples that still carry a 0.x ociVersion, which ctrun refuses on purpose. */
static bool is_old_version_example(const char *name)
{
	return strcmp(name, "spec-example.json") == 0 || strcmp(name, "zos-example.json") == 0;
}

static int load(const char *path, struct errors *e)
{
	struct oci_config_opts opts = {.on_error = collect_error, .data = e};
	struct oci_config *config = NULL;
	struct ct_error err = {0};
	int ret = oci_config_load(path, &opts, &config, &err);
	oci_config_free(config);
	return ret;
}

static char *read_text(const char *path)
{
	struct ct_error err = {0};
	char *text = oci_read_file(path, 1 << 20, &err);
	cr_assert_not_null(text, "%s", err.msg);
	return text;
}

/* Replaces the value of "ociVersion" in place-independent text by "1.3.0". */
static char *with_version_130(const char *text)
{
	const char *key = strstr(text, "\"ociVersion\"");
	cr_assert_not_null(key);
	const char *open = strchr(key + strlen("\"ociVersion\""), '"');
	cr_assert_not_null(open);
	const char *close = strchr(open + 1, '"');
	cr_assert_not_null(close);
	char *out = NULL;
	int n = asprintf(&out, "%.*s\"1.3.0\"%s", (int)(open - text), text, close + 1);
	cr_assert_geq(n, 0);
	return out;
}

/* Loads every .json of corpus/kind ("good": each must parse with no error reported, except
 * the old-version examples; "bad": each must be refused with a message); fails when there
 * is none. */
static void assert_corpus_verdicts(const char *kind)
{
	bool good = strcmp(kind, "good") == 0;
	char dir[PATH_MAX], path[PATH_MAX + 256];
	DIR *d = open_corpus(kind, dir, sizeof(dir));
	unsigned checked = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!is_json_file(de->d_name) || (good && is_old_version_example(de->d_name)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct errors e = {0};
		int ret = load(path, &e);
		if (good) {
			cr_expect_eq(ret, 0, "%s refused: %s", de->d_name,
				     e.n ? e.msg[0] : "(no message)");
			cr_expect_eq(e.n, 0, "%s: %u errors reported", de->d_name, e.n);
		} else {
			cr_expect_eq(ret, -1, "%s was accepted", de->d_name);
			cr_expect_geq(e.n, 1, "%s: refused without a message", de->d_name);
		}
		checked++;
	}
	closedir(d);
	cr_assert_gt(checked, 0, "no .json file in %s", dir);
}

Test(config_corpus, good_documents_parse)
{
	assert_corpus_verdicts("good");
}

Test(config_corpus, bad_documents_are_refused)
{
	assert_corpus_verdicts("bad");
}

/* The issue refuses 0.x: the version must be the only complaint, and the rest of the
 * document is good once the version is current. */
static void assert_only_version_refused(const char *name)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	DIR *d = open_corpus("good", dir, sizeof(dir));
	closedir(d);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct errors e = {0};
	cr_assert_eq(load(path, &e), -1, "%s: 0.5.0-dev was accepted", name);
	cr_assert_eq(e.n, 1, "%s: %u errors, first: %s", name, e.n, e.msg[0]);
	cr_assert_str_eq(e.msg[0], "config.json: .ociVersion: unsupported version \"0.5.0-dev\" "
				   "(ctrun implements 1.x.y)");

	char *text = read_text(path);
	char *fixed = with_version_130(text);
	struct errors e2 = {0};
	struct oci_config_opts opts = {.on_error = collect_error, .data = &e2};
	struct oci_config *config = NULL;
	struct ct_error err = {0};
	int ret = oci_config_parse(fixed, &opts, &config, &err);
	cr_expect_eq(ret, 0, "%s with 1.3.0 refused: %s", name, err.msg);
	if (config)
		cr_expect_str_eq(config->oci_version, "1.3.0");
	oci_config_free(config);
	free(fixed);
	free(text);
}

Test(config_corpus, spec_example_only_refuses_its_version)
{
	assert_only_version_refused("spec-example.json");
}

Test(config_corpus, zos_example_only_refuses_its_version)
{
	assert_only_version_refused("zos-example.json");
}
