/* `ctrun mounts ID` against the container's own /proc/PID/mountinfo, with both back ends of
 * the mount query layer, and the back end `ctrun features` reports. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/container.h"
#include "tests/lib/rows.h"

TestSuite(mounts_cmd, .fini = lc_cleanup);

#define ID "mnt"

/* A container that sleeps, running. */
static void start_sleeper(struct lc *t)
{
	lc_init(t);
	lc_set_script(t, "sleep 100");
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
}

static yajl_val mounts_json(const struct lc *t)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "mounts", "--format", "json", ID);
	cr_assert_eq(r.status, 0, "mounts failed: %s", r.err);
	yajl_val tree = ctt_json_parse(r.out, "ctrun mounts --format json");
	ctt_result_free(&r);
	return tree;
}

/* "ID TARGET TYPE" of each line of /proc/PID/mountinfo, joined by newlines. */
static char *mountinfo_summary(pid_t pid)
{
	char path[64], *text = NULL, line[4096];
	size_t size = 0;
	snprintf(path, sizeof(path), "/proc/%d/mountinfo", pid);
	FILE *in = fopen(path, "r"), *out = open_memstream(&text, &size);
	cr_assert(in && out, "open %s", path);
	while (fgets(line, sizeof(line), in)) {
		unsigned id, parent;
		char target[2048], type[256];
		char *sep = strstr(line, " - ");
		cr_assert(sep && sscanf(line, "%u %u %*s %*s %2047s", &id, &parent, target) == 3);
		cr_assert_eq(sscanf(sep + 3, "%255s", type), 1);
		fprintf(out, "%u %s %s\n", id, target, type);
	}
	fclose(in);
	fclose(out);
	return text;
}

static char *json_summary(yajl_val tree)
{
	char *text = NULL, key[64];
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	for (long i = 0; i < ctt_json_len(tree, ""); i++) {
		snprintf(key, sizeof(key), "[%ld].id", i);
		long long id = ctt_json_get_int(tree, key);
		snprintf(key, sizeof(key), "[%ld].target", i);
		const char *target = ctt_json_get_string(tree, key);
		snprintf(key, sizeof(key), "[%ld].fstype", i);
		fprintf(out, "%lld %s %s\n", id, target, ctt_json_get_string(tree, key));
	}
	fclose(out);
	return text;
}

static void assert_matches_mountinfo(const struct lc *t)
{
	yajl_val tree = mounts_json(t);
	char *got = json_summary(tree), *want = mountinfo_summary(lc_pid(t, ID));
	cr_assert_str_eq(got, want);
	free(got);
	free(want);
	yajl_tree_free(tree);
}

Test(mounts_cmd, json_is_the_containers_mountinfo)
{
	struct lc t;
	start_sleeper(&t);
	assert_matches_mountinfo(&t);
	yajl_val tree = mounts_json(&t);
	for (long i = 0; i < ctt_json_len(tree, ""); i++) {
		char key[64];
		snprintf(key, sizeof(key), "[%ld].planned", i);
		cr_expect(ctt_json_get_bool(tree, key), "mount %ld of the default spec is extra",
			  i);
	}
	yajl_tree_free(tree);
}

/* The same answer with a syscall of the fast path missing: without statmount and listmount
 * the back end is /proc/PID/mountinfo; without pidfd_open the mount namespace is entered
 * through /proc/PID/ns/mnt. */
static const char *const missing_syscalls[] = {"statmount,listmount", "pidfd_open"};

ParameterizedTestParameters(mounts_cmd, json_is_the_same_without)
{
	return ctt_rows(CTT_COUNT(missing_syscalls));
}

ParameterizedTest(size_t *i, mounts_cmd, json_is_the_same_without)
{
	cr_log_info("without %s", missing_syscalls[*i]);
	struct lc t;
	start_sleeper(&t);
	const char *enosys[] = {ctt_helper("enosys"), missing_syscalls[*i], "--", NULL};
	t.wrapper = enosys;
	assert_matches_mountinfo(&t);
}

Test(mounts_cmd, a_mount_made_from_outside_is_extra)
{
	struct lc t;
	start_sleeper(&t);
	char pid[16];
	snprintf(pid, sizeof(pid), "%d", lc_pid(&t, ID));
	struct ctt_result r;
	ctt_run(&r, NULL,
		(const char *const[]){"nsenter", "-m", "-t", pid, "mount", "-t", "tmpfs", "extra",
				      "/tmp", NULL});
	cr_assert_eq(r.status, 0, "nsenter mount: %s", r.err);
	ctt_result_free(&r);
	lc_ctrun(&r, &t, "mounts", ID);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(ctt_matches(r.out,
			      "^ID +PARENT +TARGET +TYPE +SOURCE +PROPAGATION +PLANNED +OPTIONS$"),
		  "%s", r.out);
	cr_expect(ctt_matches(r.out, "^[0-9]+ +[0-9]+ +/tmp +tmpfs +extra +[a-z:0-9,]+ +extra +rw"),
		  "%s", r.out);
	cr_expect(ctt_matches(r.out, "^[0-9]+ +[0-9]+ +/proc +proc +proc +[a-z:0-9,]+ +yes "), "%s",
		  r.out);
	ctt_result_free(&r);
}

Test(mounts_cmd, unknown_and_stopped_containers_are_errors)
{
	struct lc t;
	lc_init(&t);
	lc_assert_fails(&t, LC_ARGV("mounts", "nosuch"), "nosuch");
	lc_set_script(&t, "true");
	lc_ok(&t, "run", "--keep", "--bundle", t.bundle, ID);
	lc_assert_fails(&t, LC_ARGV("mounts", ID), ID, "not running");
}

static const char *features_backend(const char *const *wrapper)
{
	static char backend[32];
	const char *argv[8];
	size_t n = 0;
	for (; wrapper && *wrapper; wrapper++)
		argv[n++] = *wrapper;
	argv[n++] = ctt_ctrun_path();
	argv[n++] = "features";
	argv[n] = NULL;
	struct ctt_result r;
	ctt_run(&r, NULL, argv);
	cr_assert_eq(r.status, 0, "%s", r.err);
	yajl_val tree = ctt_json_parse(r.out, "ctrun features");
	yajl_val v = ctt_json_get(tree, ".annotations");
	const char *path[] = {"org.ctrun.mounts.backend", NULL};
	yajl_val s = v ? yajl_tree_get(v, path, yajl_t_string) : NULL;
	cr_assert_not_null(s, "no org.ctrun.mounts.backend annotation");
	snprintf(backend, sizeof(backend), "%s", YAJL_GET_STRING(s));
	yajl_tree_free(tree);
	ctt_result_free(&r);
	return backend;
}

Test(mounts_cmd, features_names_the_backend)
{
	cr_expect_str_eq(features_backend(NULL), "statmount");
	const char *enosys[] = {ctt_helper("enosys"), "statmount,listmount", "--", NULL};
	cr_expect_str_eq(features_backend(enosys), "mountinfo");
}
