/* The cache of compiled seccomp programs (libct/seccomp/seccomp_cache.h) with Podman's own profile
 * (tests/fixtures/podman-config.json: 437 names, defaultErrnoRet 38, argument comparisons):
 * the first run compiles and keeps the program, the next loads it, and both containers meet
 * the same filter; an entry that is damaged, swapped, not ours or a symlink is ignored, the
 * profile compiled again and the entry replaced. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(seccomp_cache, .fini = lc_cleanup);

#define ID "scc"

/* getpid is listed; personality only with listed arguments; add_key is not listed at all
 * (defaultErrnoRet 38, ENOSYS; EFAULT without a filter); clone3 is listed (EINVAL: no args) */
#define PROBES	    "getpid", "personality:0xffffffff", "personality:0x400000", "add_key", "clone3"
#define PODMAN_SEES "getpid=ok\npersonality=ok\npersonality=ENOSYS\nadd_key=ENOSYS\nclone3=EINVAL\n"

/* The text of the object at "seccomp" in the fixture (no string in it holds a brace). */
static char *podman_seccomp(void)
{
	const char *src = getenv("CTRUN_SRC");
	cr_assert_not_null(src, "CTRUN_SRC is not set");
	char *dir = ctt_path(src, "tests/fixtures");
	char *file = ctt_path(dir, "podman-config.json");
	char *text = ctt_read_file(file);
	char *start = strstr(text, "\"seccomp\"");
	cr_assert_not_null(start, "%s has no seccomp profile", file);
	start = strchr(start, '{');
	int depth = 0;
	char *end = start;
	do
		depth += (*end == '{') - (*end == '}');
	while (*++end && depth);
	char *profile = strndup(start, (size_t)(end - start));
	free(text), free(file), free(dir);
	return profile;
}

/* ctrun's cache directory for root (libct/lifecycle/cache_dir.h) and its programs. */
#define CACHE_DIR "/run/ctrun-cache"
#define CACHE	  CACHE_DIR "/seccomp"

/* An empty cache of this test's own: a tmpfs on CACHE_DIR in a mount namespace of the test
 * process (the ctruns it starts inherit it), so that other runs' entries are not seen and
 * the host's cache is not touched. */
static void private_cache(void)
{
	cr_assert_eq(unshare(CLONE_NEWNS), 0, "unshare: %m");
	cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0, "make / private: %m");
	if (mkdir(CACHE_DIR, 0700) < 0)
		cr_assert_eq(errno, EEXIST, "mkdir " CACHE_DIR ": %m");
	cr_assert_eq(mount("tmpfs", CACHE_DIR, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700"), 0,
		     "mount a tmpfs on " CACHE_DIR ": %m");
}

static void podman_bundle(struct lc *t)
{
	private_cache();
	lc_init(t);
	lc_install_sysprobe(t);
	char *profile = podman_seccomp();
	ctt_config_set(t->bundle, ".linux.seccomp", profile);
	free(profile);
	lc_set_args(t, (const char *const[]){"/bin/sysprobe", PROBES, NULL});
}

/* `--debug run`: what the container saw is PODMAN_SEES; the debug log has note. */
static void assert_run_sees_podman_filter(const struct lc *t, const char *note)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "--debug", "run", "--bundle", t->bundle, ID);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, PODMAN_SEES, "stderr: %s", r.err);
	cr_expect(strstr(r.err, note), "no \"%s\" in: %s", note, r.err);
	ctt_result_free(&r);
}

/* The one entry of the cache (the test's cache holds one profile), malloc'd. */
static char *cache_entry(void)
{
	char *dir = strdup(CACHE);
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"ls", dir, NULL});
	cr_assert_eq(r.status, 0, "ls %s: %s", dir, r.err);
	cr_assert_eq(ctt_count_lines(r.out), 1, "entries: %s", r.out);
	cr_assert(ctt_matches(r.out, "^[0-9a-f]{64}\\.bpf\n$"), "entry: %s", r.out);
	r.out[strlen(r.out) - 1] = '\0';
	char *entry = ctt_path(dir, r.out);
	ctt_result_free(&r);
	free(dir);
	return entry;
}

static void sh(const char *script)
{
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"sh", "-c", script, NULL});
	cr_assert_eq(r.status, 0, "`%s`: %s", script, r.err);
	ctt_result_free(&r);
}

/* podman_bundle(), run once: its filter compiled and kept in the cache. */
static void podman_bundle_filtered(struct lc *t)
{
	podman_bundle(t);
	assert_run_sees_podman_filter(t, "seccomp: filter kept in the cache");
}

/* Without the profile add_key reaches the kernel: what proves the filter is in force. */
Test(seccomp_cache, without_the_profile_add_key_is_not_enosys)
{
	struct lc t;
	podman_bundle(&t);
	ctt_config_set(t.bundle, ".linux.seccomp", NULL);
	lc_assert_run_output(
		&t, "getpid=ok\npersonality=ok\npersonality=ok\nadd_key=EFAULT\nclone3=EINVAL\n");
}

Test(seccomp_cache, compiled_once_then_loaded_from_the_cache)
{
	struct lc t;
	podman_bundle_filtered(&t);
	char *entry = cache_entry();
	struct stat dir_st, first, again;
	char *dir = strdup(CACHE);
	cr_assert_eq(lstat(dir, &dir_st), 0);
	cr_expect(S_ISDIR(dir_st.st_mode) && (dir_st.st_mode & 07777) == 0700, "mode %o",
		  dir_st.st_mode);
	cr_expect_eq(dir_st.st_uid, geteuid());
	cr_assert_eq(lstat(entry, &first), 0);
	cr_expect_eq((first.st_size - 32) % 8, 0, "size %lld", (long long)first.st_size);
	assert_run_sees_podman_filter(&t, "seccomp: filter loaded from the cache");
	cr_assert_eq(lstat(entry, &again), 0);
	cr_expect(first.st_ino == again.st_ino && first.st_mtim.tv_nsec == again.st_mtim.tv_nsec,
		  "a hit rewrote the entry");
	lc_assert_nothing_left(&t);
	free(dir), free(entry);
}

struct damage {
	const char *what, *script, *why; /* script: sh with $E the entry, $G a good copy */
};

static const struct damage damages[] = {
	{"truncated to whole instructions", "truncate -s 800 \"$E\"", "checksum mismatch"},
	{"cut mid-instruction", "truncate -s 803 \"$E\"", "bad length"},
	{"emptied", ": > \"$E\"", "bad length"},
	{"garbage of the same length", "head -c $(stat -c %s \"$G\") /dev/urandom > \"$E\"",
	 "checksum mismatch"},
	{"one instruction changed", "printf '\\377' | dd of=\"$E\" bs=1 seek=9 conv=notrunc",
	 "checksum mismatch"},
	{"another user's", "chown 65534 \"$E\"", "not a regular file of this user"},
	{"writable by others", "chmod 0666 \"$E\"", "not a regular file of this user"},
	{"a symlink to a good copy", "rm \"$E\" && ln -s \"$G\" \"$E\"", "cannot be opened"},
	{"a directory", "rm \"$E\" && mkdir \"$E\"", "not a regular file of this user"},
};

/* Damages the entry, runs again: the filter is the same, the entry is whole again. */
static void assert_damage_ignored(const struct lc *t, const char *entry, const char *good,
				  const struct damage *d)
{
	char script[1024], note[256];
	snprintf(script, sizeof(script), "E='%s' G='%s'; %s", entry, good, d->script);
	sh(script);
	snprintf(note, sizeof(note), "compiling the filter: cache entry %s", d->why);
	assert_run_sees_podman_filter(t, note);
	snprintf(script, sizeof(script), "test -f '%s' && ! test -L '%s' && cmp '%s' '%s'", entry,
		 entry, entry, good);
	sh(script);
	assert_run_sees_podman_filter(t, "seccomp: filter loaded from the cache");
}

Test(seccomp_cache, a_damaged_entry_is_ignored_and_replaced)
{
	struct lc t;
	podman_bundle_filtered(&t);
	char *entry = cache_entry();
	char *good = ctt_tmp_path("good.bpf");
	char script[1024];
	snprintf(script, sizeof(script), "cp '%s' '%s'", entry, good);
	sh(script);
	for (size_t i = 0; i < sizeof(damages) / sizeof(damages[0]); i++) {
		cr_log_info("damage: %s", damages[i].what);
		assert_damage_ignored(&t, entry, good, &damages[i]);
	}
	free(entry), free(good);
}

/* An entry copied to another profile's name fails the check (it binds the name). */
Test(seccomp_cache, an_entry_under_another_name_is_not_loaded)
{
	struct lc t;
	podman_bundle_filtered(&t);
	char *podman = cache_entry();
	ctt_config_set(t.bundle, ".linux.seccomp",
		       "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": "
		       "[\"getpid\"], \"action\": \"SCMP_ACT_ERRNO\"}]}");
	lc_set_args(&t, (const char *const[]){"/bin/sysprobe", "getpid", "add_key", NULL});
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, ID);
	cr_expect_str_eq(r.out, "getpid=EPERM\nadd_key=EFAULT\n", "stderr: %s", r.err);
	const char *name = strstr(r.err, CACHE "/");
	cr_assert_not_null(name, "%s", r.err);
	char other[128];
	snprintf(other, sizeof(other), "%.*s", 64 + 4, name + strlen(CACHE "/"));
	ctt_result_free(&r);
	char script[4096];
	snprintf(script, sizeof(script), "cp '%s' '" CACHE "/%s'", podman, other);
	sh(script);
	lc_ctrun(&r, &t, "--debug", "run", "--bundle", t.bundle, ID);
	cr_expect_str_eq(r.out, "getpid=EPERM\nadd_key=EFAULT\n", "stderr: %s", r.err);
	cr_expect(strstr(r.err, "compiling the filter: cache entry checksum mismatch"), "%s",
		  r.err);
	ctt_result_free(&r);
	free(podman);
}

/* A symlink where the cache directory goes is not followed: nothing is kept, the filter is
 * still right. */
Test(seccomp_cache, a_symlinked_cache_directory_is_not_used)
{
	struct lc t;
	podman_bundle(&t);
	char *elsewhere = ctt_tmpdir();
	char script[4096];
	snprintf(script, sizeof(script), "ln -s '%s' '" CACHE "'", elsewhere);
	sh(script);
	assert_run_sees_podman_filter(&t, "seccomp: filter not kept: cache entry directory "
					  "unusable");
	assert_run_sees_podman_filter(&t, "compiling the filter: cache entry not cached");
	cr_expect_eq(rmdir(elsewhere), 0, "something was written through the symlink");
	free(elsewhere);
}

/* Runs that all miss at once each write their entry and rename it into place: every one
 * gets the filter, one whole entry is left and no temporary file. */
/* run #i: the bundle as container scc<i>. */
static void numbered_run(const struct lc *t, size_t i, const char **args, char *buf, size_t size)
{
	snprintf(buf, size, "scc%zu", i);
	const char *cmd[] = {"run", "--bundle", t->bundle, buf, NULL};
	memcpy(args, cmd, sizeof(cmd));
}

Test(seccomp_cache, concurrent_misses_leave_one_whole_entry)
{
	enum { RUNS = 6 };
	struct lc t;
	podman_bundle(&t);
	char **outs = lc_run_concurrently(&t, RUNS, numbered_run, 60000);
	for (int i = 0; i < RUNS; i++) {
		cr_expect_str_eq(outs[i], PODMAN_SEES, "run %d", i);
		free(outs[i]);
	}
	free(outs);
	free(cache_entry()); /* exactly one entry, and nothing else */
	char *cache = strdup(CACHE);
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"ls", "-A", cache, NULL});
	cr_expect_eq(ctt_count_lines(r.out), 1, "left in the cache: %s", r.out);
	ctt_result_free(&r);
	assert_run_sees_podman_filter(&t, "seccomp: filter loaded from the cache");
	free(cache);
}

/* A run killed between writing its entry and renaming it left a temporary file: the next
 * run that writes an entry removes it once stale, and leaves a fresh one (a writer at work)
 * alone; its container still meets the filter. */
Test(seccomp_cache, a_killed_writers_temporary_file_goes_when_stale)
{
	struct lc t;
	podman_bundle_filtered(&t);
	char *entry = cache_entry();
	char *cache = strdup(CACHE);
	char *script = NULL;
	cr_assert(
		asprintf(&script,
			 "cd '%s' && rm '%s' && echo half > .%0*d.4242.1f.tmp && "
			 "touch -d '1 hour ago' .%0*d.4242.1f.tmp && echo half > .%0*d.4243.2f.tmp",
			 cache, entry, 64, 1, 64, 1, 64, 2) > 0);
	sh(script);
	assert_run_sees_podman_filter(&t, "seccomp: filter kept in the cache");
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"ls", "-A", cache, NULL});
	cr_expect(ctt_matches(r.out, "^\\.0{63}2\\.4243\\.2f\\.tmp\n[0-9a-f]{64}\\.bpf\n$"),
		  "left in the cache: %s", r.out);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
	free(script), free(cache), free(entry);
}

/* containerd (/run/containerd/runc/<ns>) and Podman read every entry of the state root as a
 * container: after runs, execs and deletes with a profile it holds the container's
 * directory and nothing else, then nothing; the program is in ctrun's own cache. */
Test(seccomp_cache, the_state_root_holds_only_container_directories)
{
	struct lc t;
	podman_bundle_filtered(&t);
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	lc_ok(&t, "exec", ID, "true");
	struct ctt_result r;
	ctt_run(&r, NULL, LC_ARGV("ls", "-A", "-p", t.root));
	cr_expect_str_eq(r.out, ID "/\n", "the state root holds more than the container");
	ctt_result_free(&r);
	lc_ok(&t, "delete", "--force", ID);
	ctt_run(&r, NULL, LC_ARGV("ls", "-A", t.root));
	cr_expect_str_empty(r.out, "left in the state root: %s", r.out);
	ctt_result_free(&r);
	free(cache_entry());
	lc_assert_nothing_left(&t);
}

/* The cache is only used by a binary with a build id (libct/seccomp/seccomp_key.h): the ctrun under
 * test must carry one, or every test above would pass on compiling alone. */
Test(seccomp_cache, ctrun_has_a_build_id)
{
	char cmd[4200], line[512], id[128] = "";
	snprintf(cmd, sizeof(cmd), "readelf -n '%s'", ctt_ctrun_path());
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	while (fgets(line, sizeof(line), p)) /* to the end: readelf never meets a closed pipe */
		sscanf(line, " Build ID: %127s", id);
	cr_expect_eq(pclose(p), 0, "%s failed", cmd);
	cr_expect_eq(strlen(id), 40, "%s: no SHA-1 build id (\"%s\")", ctt_ctrun_path(), id);
}
