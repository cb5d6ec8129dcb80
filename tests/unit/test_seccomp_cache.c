/* libct/seccomp/seccomp_key.c and libct/seccomp/seccomp_cache.c: the key changes with every field
 * of the profile and with the runtime, not with how it was parsed; a program from the cache is byte
 * for byte the one libseccomp exports for the profile (Podman's own), loaded the same way; the
 * cache keeps at most CT_SECCOMP_CACHE_MAX entries. libct/base/build_id.c: the build id is the one
 * readelf reads from the test binary. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/build_id.h"
#include "libct/seccomp/seccomp_cache.h"
#include "libct/seccomp/seccomp_key.h"
#include "tests/unit/seccomp_fixture.h"

#define JSON(...) #__VA_ARGS__
#define RUNTIME	  "0.1.0 test"
#define BUILD_ID  "0123456789abcdef0123456789abcdef01234567"

static struct oci_config *parse(const char *seccomp)
{
	return seccomp_fixture_parse(seccomp);
}

static void key_built(const char *seccomp, const char *runtime, const char *build_id,
		      char hex[CT_SHA256_HEX_LEN + 1])
{
	struct oci_config *c = parse(seccomp);
	ct_seccomp_key(&c->linux_.seccomp, runtime, build_id, hex);
	oci_config_free(c);
}

static void key_of(const char *seccomp, const char *runtime, char hex[CT_SHA256_HEX_LEN + 1])
{
	key_built(seccomp, runtime, BUILD_ID, hex);
}

/* A profile: its top-level members before "syscalls", then a rule for read and write and a
 * rule for personality with one argument; each part is JSON text. */
#define PROFILE(head, rw_names, rw_action, p_names, arg)                                     \
	"{" head ", \"syscalls\": [{\"names\": [" rw_names "], \"action\": " rw_action "}, " \
	"{\"names\": [" p_names "], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [{" arg "}]}]}"
#define HEAD		      "\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 38"
#define RW		      "\"read\", \"write\""
#define ALLOW		      "\"SCMP_ACT_ALLOW\""
#define PERS		      "\"personality\""
#define ARG(index, value, op) "\"index\": " #index ", \"value\": " #value ", \"op\": \"" op "\""
#define BASE		      PROFILE(HEAD, RW, ALLOW, PERS, ARG(0, 8, "SCMP_CMP_EQ"))

Test(seccomp_key, same_profile_same_key_however_written)
{
	char a[CT_SHA256_HEX_LEN + 1], b[CT_SHA256_HEX_LEN + 1];
	key_of(BASE, RUNTIME, a);
	key_of("{ \"syscalls\": [{\"action\": \"SCMP_ACT_ALLOW\", \"names\": [\"read\", "
	       "\"write\"]}, {\"args\": [{\"op\": \"SCMP_CMP_EQ\", \"value\": 8, \"index\": 0}], "
	       "\"names\": [\"personality\"], \"action\": \"SCMP_ACT_ALLOW\"}], "
	       "\"defaultErrnoRet\": 38, \"defaultAction\": \"SCMP_ACT_ERRNO\"}",
	       RUNTIME, b);
	cr_expect_str_eq(a, b);
	cr_expect_eq(strspn(a, "0123456789abcdef"), CT_SHA256_HEX_LEN);
}

/* BASE with one thing changed each. */
static const char *const changed_profiles[] = {
	/* default errno; default errno absent (EPERM) */
	PROFILE("\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": 1", RW, ALLOW, PERS,
		ARG(0, 8, "SCMP_CMP_EQ")),
	PROFILE("\"defaultAction\": \"SCMP_ACT_ERRNO\"", RW, ALLOW, PERS, ARG(0, 8, "SCMP_CMP_EQ")),
	/* names in another order, names split between rules differently */
	PROFILE(HEAD, "\"write\", \"read\"", ALLOW, PERS, ARG(0, 8, "SCMP_CMP_EQ")),
	PROFILE(HEAD, "\"read\", \"writ\"", ALLOW, "\"epersonality\"", ARG(0, 8, "SCMP_CMP_EQ")),
	/* argument value, index, operator, valueTwo */
	PROFILE(HEAD, RW, ALLOW, PERS, ARG(0, 9, "SCMP_CMP_EQ")),
	PROFILE(HEAD, RW, ALLOW, PERS, ARG(1, 8, "SCMP_CMP_EQ")),
	PROFILE(HEAD, RW, ALLOW, PERS, ARG(0, 8, "SCMP_CMP_NE")),
	PROFILE(HEAD, RW, ALLOW, PERS, ARG(0, 8, "SCMP_CMP_EQ") ", \"valueTwo\": 1"),
	/* a rule's action and errno */
	PROFILE(HEAD, RW, "\"SCMP_ACT_LOG\"", PERS, ARG(0, 8, "SCMP_CMP_EQ")),
	PROFILE(HEAD, RW, "\"SCMP_ACT_ERRNO\", \"errnoRet\": 0", PERS, ARG(0, 8, "SCMP_CMP_EQ")),
	/* architectures, flags, listener */
	PROFILE(HEAD ", \"architectures\": [\"SCMP_ARCH_X86\"]", RW, ALLOW, PERS,
		ARG(0, 8, "SCMP_CMP_EQ")),
	PROFILE(HEAD ", \"flags\": [\"SECCOMP_FILTER_FLAG_LOG\"]", RW, ALLOW, PERS,
		ARG(0, 8, "SCMP_CMP_EQ")),
	PROFILE(HEAD ", \"listenerPath\": \"/run/agent\"", RW, ALLOW, PERS,
		ARG(0, 8, "SCMP_CMP_EQ")),
};

Test(seccomp_key, every_field_and_the_runtime_change_it)
{
	char base[CT_SHA256_HEX_LEN + 1], other[CT_SHA256_HEX_LEN + 1];
	key_of(BASE, RUNTIME, base);
	for (size_t i = 0; i < sizeof(changed_profiles) / sizeof(changed_profiles[0]); i++) {
		key_of(changed_profiles[i], RUNTIME, other);
		cr_expect_str_neq(base, other, "%s", changed_profiles[i]);
	}
	key_of(BASE, "0.1.0 another-commit", other);
	cr_expect_str_neq(base, other, "the runtime's version");
	key_built(BASE, RUNTIME, "fedcba9876543210fedcba9876543210fedcba98", other);
	cr_expect_str_neq(base, other, "the build id");
}

/* A binary without a build id gets no key: two builds of one commit would share programs. */
Test(seccomp_key, no_build_id_no_cache)
{
	cr_expect_not_null(ct_seccomp_key_refusal(""));
	cr_expect_not_null(ct_seccomp_key_refusal(NULL));
	cr_expect_null(ct_seccomp_key_refusal(BUILD_ID));
}

/* readelf -n of the test binary: "Build ID: <hex>". */
Test(build_id, is_the_one_readelf_reads)
{
	char mine[128], cmd[128], theirs[128] = "";
	ct_build_id(mine, sizeof(mine));
	cr_assert_gt(strlen(mine), 0, "the test binary has no build id");
	snprintf(cmd, sizeof(cmd), "readelf -n /proc/%d/exe", (int)getpid());
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	char line[512];
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, " Build ID: %127s", theirs) == 1)
			break;
	pclose(p);
	cr_expect_str_eq(mine, theirs);
}

/* ---- the cache on disk ---- */

static char *temp_root(void)
{
	char *dir = strdup("/tmp/ctrun-seccache.XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	return dir;
}

static void remove_root(char *dir)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	free(dir);
}

static char last_notice[512];
static void keep_notice(const char *msg)
{
	snprintf(last_notice, sizeof(last_notice), "%s", msg);
}

static void prepare_ok(const char *root, const struct oci_seccomp *s, struct ct_seccomp_prog *p)
{
	const struct ct_seccomp_cache cache = {root, RUNTIME};
	struct ct_error err = {0};
	cr_assert_eq(ct_seccomp_prepare(&cache, s, keep_notice, p, &err), 0, "%s", err.msg);
}

static void assert_same_program(const struct ct_seccomp_prog *a, const struct ct_seccomp_prog *b)
{
	cr_assert_eq(a->len, b->len);
	cr_expect_eq(memcmp(a->insns, b->insns, a->len * sizeof(struct sock_filter)), 0);
	cr_expect_eq(a->flags, b->flags);
	cr_expect_eq(a->notify, b->notify);
}

/* The entry's bytes are the export of a fresh compile, and what a hit returns is too. */
static void assert_cache_is_the_compile(const struct oci_seccomp *s)
{
	char *root = temp_root();
	struct ct_seccomp_prog fresh, miss, hit;
	struct ct_error err = {0};
	cr_assert_eq(ct_seccomp_compile(s, NULL, &fresh, &err), 0, "%s", err.msg);
	prepare_ok(root, s, &miss);
	cr_expect(strstr(last_notice, "seccomp: filter kept in the cache"), "%s", last_notice);
	prepare_ok(root, s, &hit);
	cr_expect(strstr(last_notice, "seccomp: filter loaded from the cache"), "%s", last_notice);
	assert_same_program(&fresh, &miss);
	assert_same_program(&fresh, &hit);

	char key[CT_SHA256_HEX_LEN + 1], name[256], build_id[128];
	ct_seccomp_key(s, RUNTIME, ct_build_id(build_id, sizeof(build_id)), key);
	snprintf(name, sizeof(name), "%s/seccomp/%s.bpf", root, key);
	FILE *f = fopen(name, "re");
	cr_assert_not_null(f, "%s", name);
	size_t body = fresh.len * sizeof(struct sock_filter);
	unsigned char *bytes = malloc(body + 64);
	cr_expect_eq(fread(bytes, 1, body + 64, f), body + CT_SHA256_LEN);
	cr_expect_eq(memcmp(bytes, fresh.insns, body), 0, "the entry is not the export");
	fclose(f);
	free(bytes);
	ct_seccomp_prog_free(&fresh), ct_seccomp_prog_free(&miss), ct_seccomp_prog_free(&hit);
	remove_root(root);
}

Test(seccomp_cache, podman_profile_from_the_cache_is_the_fresh_export)
{
	const char *src = getenv("CTRUN_SRC") ? getenv("CTRUN_SRC") : ".";
	char path[4096];
	snprintf(path, sizeof(path), "%s/tests/fixtures/podman-config.json", src);
	struct oci_config *c;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_load(path, NULL, &c, &err), 0, "%s", err.msg);
	cr_assert_gt(c->linux_.seccomp.syscalls.len, 10);
	assert_cache_is_the_compile(&c->linux_.seccomp);
	oci_config_free(c);
}

/* Notify and flags: the load mode comes from the profile on a hit as on a compile. */
Test(seccomp_cache, notify_profile_keeps_its_load_mode)
{
	struct oci_config *c = parse(JSON({
		"defaultAction" : "SCMP_ACT_ALLOW",
		"listenerPath" : "/run/agent.sock",
		"flags" : [ "SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG" ],
		"syscalls" : [ {"names" : ["mkdir"], "action" : "SCMP_ACT_NOTIFY"} ]
	}));
	struct ct_seccomp_prog p = {0};
	ct_seccomp_load_mode(&c->linux_.seccomp, &p);
	cr_expect(p.notify);
	cr_expect_eq(p.flags, SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_LOG);
	assert_cache_is_the_compile(&c->linux_.seccomp);
	oci_config_free(c);
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "%s", dir);
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void prepare_profile(const char *root, int errno_ret)
{
	char json[256];
	snprintf(json, sizeof(json),
		 "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"defaultErrnoRet\": %d}", errno_ret);
	struct oci_config *c = parse(json);
	struct ct_seccomp_prog p;
	prepare_ok(root, &c->linux_.seccomp, &p);
	ct_seccomp_prog_free(&p);
	oci_config_free(c);
}

Test(seccomp_cache, keeps_at_most_the_newest_entries)
{
	char *root = temp_root();
	char *dir = NULL;
	cr_assert(asprintf(&dir, "%s/seccomp", root) > 0);
	for (int i = 1; i <= CT_SECCOMP_CACHE_MAX + 6; i++)
		prepare_profile(root, i);
	prepare_profile(root, CT_SECCOMP_CACHE_MAX + 6);
	cr_expect(strstr(last_notice, "loaded from the cache"), "the newest is kept");
	cr_expect_eq(count_entries(dir), CT_SECCOMP_CACHE_MAX);
	free(dir);
	remove_root(root);
}

/* A temporary file in dir named as a writer names its own, with that mtime; its path. */
static char *plant_temp(const char *dir, const char *name, time_t mtime)
{
	char *path = NULL;
	cr_assert(asprintf(&path, "%s/%s", dir, name) > 0);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	cr_assert_eq(write(fd, "half", 4), 4);
	struct timespec times[2] = {{mtime, 0}, {mtime, 0}};
	cr_assert_eq(futimens(fd, times), 0);
	close(fd);
	return path;
}

/* A writer killed between its write and its rename leaves its temporary file: the next
 * entry written removes those older than CT_SECCOMP_CACHE_TMP_STALE_SEC, and leaves a fresh
 * one (a writer at work) and other hidden names alone. A hit removes nothing. */
Test(seccomp_cache, stale_temporary_files_go_when_an_entry_is_written)
{
	char *root = temp_root();
	prepare_profile(root, 1);
	char *dir = NULL;
	cr_assert(asprintf(&dir, "%s/seccomp", root) > 0);
	time_t stale = time(NULL) - CT_SECCOMP_CACHE_TMP_STALE_SEC - 60;
	char *old = plant_temp(dir, ".0123abcd.4242.1f.tmp", stale);
	char *fresh = plant_temp(dir, ".0123abcd.4243.2f.tmp", time(NULL));
	char *other = plant_temp(dir, ".not-a-temp", stale);
	prepare_profile(root, 1);
	cr_expect(strstr(last_notice, "loaded from the cache"), "%s", last_notice);
	cr_expect_eq(access(old, F_OK), 0, "a hit removed a temporary file");
	prepare_profile(root, 2);
	cr_expect(strstr(last_notice, "filter kept in the cache"), "%s", last_notice);
	cr_expect_neq(access(old, F_OK), 0, "the stale temporary file is left");
	cr_expect_eq(access(fresh, F_OK), 0, "a writer's fresh temporary file was removed");
	cr_expect_eq(access(other, F_OK), 0, "a hidden name not a temporary file was removed");
	cr_expect_eq(count_entries(dir), 2);
	free(old), free(fresh), free(other), free(dir);
	remove_root(root);
}

/* ctrun's cache directory is made 0700 when missing; one that others may write, or a
 * symlink, is not used: the filter is compiled and nothing is written there. */
Test(seccomp_cache, cache_directory_made_private_and_checked)
{
	char *root = temp_root();
	char *made, *open_dir, *link;
	cr_assert(asprintf(&made, "%s/made", root) > 0);
	cr_assert(asprintf(&open_dir, "%s/open", root) > 0);
	cr_assert(asprintf(&link, "%s/link", root) > 0);
	prepare_profile(made, 1);
	cr_expect(strstr(last_notice, "filter kept in the cache"), "%s", last_notice);
	struct stat st;
	cr_assert_eq(stat(made, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0700);
	cr_assert_eq(mkdir(open_dir, 0777), 0);
	cr_assert_eq(chmod(open_dir, 0777), 0);
	prepare_profile(open_dir, 1);
	cr_expect(strstr(last_notice, "filter not kept"), "%s", last_notice);
	cr_assert_eq(symlink(made, link), 0);
	prepare_profile(link, 2);
	cr_expect(strstr(last_notice, "filter not kept"), "%s", last_notice);
	char *entries;
	cr_assert(asprintf(&entries, "%s/seccomp", open_dir) > 0);
	cr_expect_neq(access(entries, F_OK), 0, "%s was made", entries);
	free(entries), free(made), free(open_dir), free(link);
	remove_root(root);
}
