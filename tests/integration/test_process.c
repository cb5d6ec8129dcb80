/* The container process as it sees itself: args, env, cwd, user, umask, rlimits,
 * noNewPrivileges, capabilities, oomScoreAdj, host names, sysctls, pid 1, namespaces (new, shared,
 * joined by path), passed fds, --no-pivot and the root filesystem of `ctrun spec`. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(process, .fini = lc_cleanup);

#define ID "box"

/* The value of "key:\t..." in /proc/<pid>/status text, malloc'd; fails when absent. */
static char *status_field(const char *status, const char *key)
{
	size_t len = strlen(key);
	for (const char *line = status; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (strncmp(line, key, len) == 0 && line[len] == ':') {
			const char *v = line + len + 1 + strspn(line + len + 1, "\t ");
			return strndup(v, strcspn(v, "\n"));
		}
	}
	cr_assert_fail("no %s in:\n%s", key, status);
	return NULL;
}

static void assert_field(const char *status, const char *key, const char *want)
{
	char *got = status_field(status, key);
	cr_expect_str_eq(got, want, "%s", key);
	free(got);
}

static char *container_status(const struct lc *t)
{
	return lc_sh_output(t, "cat /proc/self/status");
}

static void set_user(const struct lc *t, const char *json)
{
	ctt_config_set(t->bundle, ".process.user", json);
}

Test(process, args_are_passed_verbatim)
{
	struct lc t;
	lc_init(&t);
	lc_set_args(&t, (const char *const[]){"sh", "-c", "printf '[%s]\\n' \"$@\"", "sh", "a b",
					      "it's", "\"q\"", "$HOME", "", NULL});
	lc_assert_run_output(&t, "[a b]\n[it's]\n[\"q\"]\n[$HOME]\n[]\n");
}

/* The init's stdin that is the host's /dev/null (conmon gives a detached container's so) is
 * the container's own /dev/null after the set-up, read-only as it was: CRIU dumps an fd by
 * its mount, and the host's /dev is no mount of the container's. The mount is /dev/null's
 * own where that is a bind (a user namespace's), else /dev's. */
#define STDIN_ON_CONTAINER_NULL                                             \
	"dev=$(awk '$5 == \"/dev/null\" {n = $1} $5 == \"/dev\" {d = $1} "  \
	"END {print n ? n : d}' /proc/self/mountinfo); "                    \
	"fd0=$(sed -n 's/^mnt_id:[[:space:]]*//p' /proc/$$/fdinfo/0); "     \
	"[ -n \"$dev\" ] && [ \"$fd0\" = \"$dev\" ] && echo stdin-on-dev; " \
	"echo mode $(( $(sed -n 's/^flags:[[:space:]]*//p' /proc/$$/fdinfo/0) & 3 ))"

Test(process, host_null_stdin_becomes_the_containers)
{
	struct lc t;
	lc_init(&t);
	lc_assert_sh_output(&t, STDIN_ON_CONTAINER_NULL, "stdin-on-dev\nmode 0\n");
}

/* In a user namespace /dev/null is the host's node bound, the same inode as the stdin: the
 * stdin still moves to the bind, the mount CRIU can find. */
Test(process, host_null_stdin_becomes_the_containers_in_a_user_namespace)
{
	struct lc t;
	lc_init(&t);
	lc_map_root(&t, 0, 65536);
	lc_assert_sh_output(&t, STDIN_ON_CONTAINER_NULL, "stdin-on-dev\nmode 0\n");
}

/* process.env and nothing of ctrun's own environment (make sets CTRUN for the tests). */
Test(process, env_is_process_env)
{
	struct lc t;
	lc_init(&t);
	lc_config_append(&t, ".process.env", "\"GREETING=hello world\"");
	lc_config_append(&t, ".process.env", "\"EMPTY=\"");
	char *out = lc_sh_output(&t, "echo \"$GREETING,${EMPTY-unset},$PATH\"; env");
	cr_expect(ctt_matches(out, "\\`hello world,,/usr/local/sbin:/usr/local/bin:/usr/sbin:"
				   "/usr/bin:/sbin:/bin\n"),
		  "%s", out);
	ctt_assert_line(out, "^TERM=xterm$");
	cr_expect(!ctt_matches(out, "^CTRUN"), "ctrun's environment leaked: %s", out);
	free(out);
}

/* A variable given twice keeps its last value in its first place, as runc 1.1.5 and crun
 * 1.8.1 give it (ctrun passed both: getenv() found the first); the last PATH is searched. */
Test(process, env_given_twice_keeps_the_last_value_in_the_first_place)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.env",
		       "[\"A=1\",\"B=1\",\"A=2\",\"PATH=/nowhere\",\"PATH=/bin\"]");
	lc_set_args(&t, (const char *const[]){"env", NULL});
	lc_assert_run_output(&t, "A=2\nB=1\nPATH=/bin\nHOME=/root\n");
}

/* runc 1.1.5 refuses both ("invalid environment variable", "name can't be empty"); crun
 * 1.8.1 drops the first and passes the second; ctrun passed both to the process. */
Test(process, env_entry_that_is_not_name_value_is_refused)
{
	static const char *const bad[] = {"FOO", "=x"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lc t;
		lc_init(&t);
		char entry[32], want[64];
		snprintf(entry, sizeof(entry), "\"%s\"", bad[i]);
		snprintf(want, sizeof(want), "\"%s\" is not NAME=VALUE", bad[i]);
		lc_config_append(&t, ".process.env", entry);
		lc_set_script(&t, "touch /tmp/ran");
		lc_assert_fails(&t, LC_ARGV("run", "--bundle", t.bundle, "envbad"),
				".process.env[", want);
		lc_assert_nothing_left(&t);
		char *ran = lc_rootfs_path(&t, "tmp/ran");
		cr_expect(!ctt_exists(ran), "the process ran with %s", bad[i]);
		free(ran);
	}
}

Test(process, path_finds_the_executable)
{
	struct lc t;
	lc_init(&t);
	char *prog =
		lc_rootfs_file(&t, "opt/tools/greet", "#!/bin/sh\necho \"greeted via $PATH\"\n");
	cr_assert_eq(chmod(prog, 0755), 0);
	ctt_config_set(t.bundle, ".process.env[0]", "\"PATH=/opt/tools:/bin\"");
	lc_set_args(&t, (const char *const[]){"greet", NULL});
	lc_assert_run_output(&t, "greeted via /opt/tools:/bin\n");
	free(prog);
}

/* Without PATH in process.env a bare args[0] is looked up in the usual directories (runc
 * and crun fail: not found in $PATH); the environment stays as the config gives it. */
Test(process, bare_executable_found_without_path_in_the_environment)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.env", "[\"A=1\"]");
	lc_set_args(&t, (const char *const[]){"env", NULL});
	lc_assert_run_output(&t, "A=1\nHOME=/root\n");
}

Test(process, cwd_is_entered)
{
	struct lc t;
	lc_init(&t);
	free(lc_rootfs_file(&t, "srv/app/marker", ""));
	ctt_config_set(t.bundle, ".process.cwd", "\"/srv/app\"");
	lc_assert_sh_output(&t, "pwd; ls", "/srv/app\nmarker\n");
}

/* "mode uid:gid" of path on the host. */
static char *owner_and_mode(const char *path)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	cr_assert(S_ISDIR(st.st_mode), "%s is not a directory", path);
	char *text;
	cr_assert_geq(asprintf(&text, "%o %u:%u", (unsigned)(st.st_mode & 07777),
			       (unsigned)st.st_uid, (unsigned)st.st_gid),
		      0);
	return text;
}

/* A Buildah RUN step's WORKDIR that the image lacks: made as runc and crun make it, by the
 * init as root (the process runs as 1000), 0755 less ctrun's umask, in the read-only root
 * before it is made read-only, and after the mounts: in the tmpfs on /tmp, not under it. */
Test(process, missing_cwd_is_made_as_runc_does)
{
	struct lc t;
	lc_init(&t);
	char *cwd = lc_shared_config_value("buildah-bud-run.json", ".process.cwd");
	ctt_config_set(t.bundle, ".process.cwd", cwd);
	set_user(&t, "{\"uid\": 1000, \"gid\": 1000}");
	mode_t mask = umask(022);
	umask(mask);
	char want[64];
	snprintf(want, sizeof(want), "%o 0:0", 0755 & ~(unsigned)mask);
	char *inside = lc_sh_output(&t, "pwd; stat -c '%a %u:%g' .");
	char want_inside[128];
	snprintf(want_inside, sizeof(want_inside), "/w\n%s\n", want);
	cr_expect_str_eq(inside, want_inside);
	char *dir = lc_rootfs_path(&t, "w");
	char *outside = owner_and_mode(dir);
	cr_expect_str_eq(outside, want);

	lc_add_mount(&t, "/tmp", "tmpfs", "tmpfs", NULL);
	ctt_config_set(t.bundle, ".process.cwd", "\"/tmp/a/b\"");
	lc_assert_sh_output(&t, "pwd; grep -c ' /tmp tmpfs ' /proc/mounts", "/tmp/a/b\n1\n");
	char *under = lc_rootfs_path(&t, "tmp/a");
	cr_expect(!ctt_exists(under), "%s was made under the mount, not in it", under);
	free(under);
	free(outside);
	free(dir);
	free(inside);
	free(cwd);
}

Test(process, user_uid_gid_and_additional_gids)
{
	struct lc t;
	lc_init(&t);
	set_user(&t, "{\"uid\": 1000, \"gid\": 1001, \"additionalGids\": [5, 2000]}");
	char *status = container_status(&t);
	assert_field(status, "Uid", "1000\t1000\t1000\t1000");
	assert_field(status, "Gid", "1001\t1001\t1001\t1001");
	assert_field(status, "Groups", "5 2000 ");
	free(status);
	lc_assert_sh_output(&t, "id", "uid=1000 gid=1001 groups=5(tty),2000\n");
}

Test(process, umask_applies_to_new_files)
{
	struct lc t;
	lc_init(&t);
	set_user(&t, "{\"uid\": 0, \"gid\": 0, \"umask\": 63}"); /* 0077 */
	lc_assert_sh_output(
		&t, "umask; touch /dev/shm/f; mkdir /dev/shm/d; stat -c %a /dev/shm/f /dev/shm/d",
		"0077\n600\n700\n");
}

Test(process, rlimits_soft_and_hard)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.rlimits",
		       "[{\"type\": \"RLIMIT_NOFILE\", \"soft\": 512, \"hard\": 2048},"
		       " {\"type\": \"RLIMIT_CORE\", \"soft\": 4096, \"hard\": 8192}]");
	char *out = lc_sh_output(&t, "ulimit -Sn; ulimit -Hn; grep 'core file' /proc/self/limits");
	cr_expect(ctt_matches(out, "\\`512\n2048\nMax core file size +4096 +8192 +bytes"), "%s",
		  out);
	free(out);
}

static void assert_no_new_privs(const char *value, const char *want)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.noNewPrivileges", value);
	char *status = container_status(&t);
	assert_field(status, "NoNewPrivs", want);
	free(status);
}

Test(process, no_new_privileges_true)
{
	assert_no_new_privs("true", "1");
}

Test(process, no_new_privileges_false)
{
	char *own = ctt_read_file("/proc/self/status");
	char *nnp = status_field(own, "NoNewPrivs");
	bool inherited = strcmp(nnp, "1") == 0;
	free(nnp);
	free(own);
	if (inherited)
		ctt_skip("the tests already run with no_new_privs set");
	assert_no_new_privs("false", "0");
}

/* CAP_CHOWN 0, CAP_KILL 5, CAP_NET_BIND_SERVICE 10, CAP_AUDIT_WRITE 29 */
#define CAP(n) (1ULL << (n))

static void assert_caps(const char *status, const char *key, uint64_t mask)
{
	char want[32];
	snprintf(want, sizeof(want), "%016llx", (unsigned long long)mask);
	assert_field(status, key, want);
}

struct cap_sets {
	uint64_t bounding, effective, permitted, inheritable, ambient;
};

static void assert_cap_sets(const char *status, struct cap_sets want)
{
	assert_caps(status, "CapBnd", want.bounding);
	assert_caps(status, "CapEff", want.effective);
	assert_caps(status, "CapPrm", want.permitted);
	assert_caps(status, "CapInh", want.inheritable);
	assert_caps(status, "CapAmb", want.ambient);
}

/* As root, exec gives the bounding set as permitted and effective: spec's sets are equal. */
Test(process, default_capabilities_are_the_configs)
{
	struct lc t;
	lc_init(&t);
	char *status = container_status(&t);
	uint64_t set = CAP(5) | CAP(10) | CAP(29);
	assert_cap_sets(status, (struct cap_sets){set, set, set, 0, 0});
	free(status);
}

Test(process, empty_capability_sets_are_zero)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.capabilities",
		       "{\"bounding\": [], \"effective\": [], \"permitted\": [], "
		       "\"inheritable\": [], \"ambient\": []}");
	char *status = container_status(&t);
	static const char *const keys[] = {"CapBnd", "CapEff", "CapPrm", "CapInh", "CapAmb"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_caps(status, keys[i], 0);
	free(status);
}

/* A name without "CAP_" or in lower case is the capability it names, as `exec --cap` takes
 * it (runc and crun drop such a name: differences-from-runc.md). */
Test(process, capability_names_without_the_prefix_are_taken)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.capabilities",
		       "{\"bounding\": [\"NET_RAW\", \"cap_kill\"], \"effective\": [\"NET_RAW\", "
		       "\"cap_kill\"], \"permitted\": [\"NET_RAW\", \"cap_kill\"]}");
	char *status = container_status(&t);
	uint64_t set = CAP(5) | CAP(13);
	assert_cap_sets(status, (struct cap_sets){set, set, set, 0, 0});
	free(status);
}

/* Without process.capabilities the process has none, as under runc and crun: it does not
 * keep the runtime's own (the host root's). */
Test(process, config_without_capabilities_keeps_none)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.capabilities", NULL);
	char *status = container_status(&t);
	assert_cap_sets(status, (struct cap_sets){0, 0, 0, 0, 0});
	free(status);
	lc_assert_nothing_left(&t);
}

/* A container of user 1000 with the capabilities caps (JSON). */
static void init_user_with_caps(struct lc *t, const char *caps)
{
	lc_init(t);
	set_user(t, "{\"uid\": 1000, \"gid\": 1000}");
	ctt_config_set(t->bundle, ".process.capabilities", caps);
}

/* A non-root process keeps across exec only what is ambient, within its bounding set. */
Test(process, non_root_keeps_its_ambient_set)
{
	struct lc t;
	init_user_with_caps(&t, "{\"bounding\": [\"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
				" \"effective\": [\"CAP_NET_BIND_SERVICE\"],"
				" \"permitted\": [\"CAP_NET_BIND_SERVICE\"],"
				" \"inheritable\": [\"CAP_NET_BIND_SERVICE\"],"
				" \"ambient\": [\"CAP_NET_BIND_SERVICE\"]}");
	char *status = container_status(&t);
	assert_cap_sets(status,
			(struct cap_sets){CAP(5) | CAP(10), CAP(10), CAP(10), CAP(10), CAP(10)});
	free(status);
}

/* The capabilities (and user) of a real-world config: ambient ones without inheritable ones. */
static void use_capabilities_of(const struct lc *t, const char *file)
{
	char *caps = lc_shared_config_value(file, ".process.capabilities");
	char *user = lc_shared_config_value(file, ".process.user");
	ctt_config_set(t->bundle, ".process.capabilities", caps);
	set_user(t, user);
	free(caps);
	free(user);
}

/* The sets runc 1.1.5 and crun 1.8.1 end with for these configs (run on the same bundle):
 * the kernel raises no ambient capability that is not also inheritable, and they go on. */
static void assert_ends_as_runc(const char *file, uint64_t set)
{
	struct lc t;
	lc_init(&t);
	use_capabilities_of(&t, file);
	char *status = container_status(&t);
	assert_cap_sets(status, (struct cap_sets){set, set, set, 0, 0});
	free(status);
}

Test(process, ambient_without_inheritable_of_runc_spec)
{
	assert_ends_as_runc("runc-1.1.5-spec.json", CAP(5) | CAP(10) | CAP(29));
}

Test(process, ambient_without_inheritable_of_crun_spec)
{
	assert_ends_as_runc("crun-1.8.1-spec.json", CAP(5) | CAP(10) | CAP(29));
}

/* CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, SETPCAP, NET_BIND_SERVICE,
 * SYS_CHROOT, SETFCAP */
Test(process, ambient_without_inheritable_of_a_buildah_run_step)
{
	assert_ends_as_runc("buildah-bud-run.json", 0x800405fbULL);
}

/* The ambient capabilities that are permitted and inheritable are raised (a non-root
 * process keeps them across exec), the others skipped, each named by --debug. */
Test(process, ambient_raises_what_the_kernel_allows)
{
	struct lc t;
	init_user_with_caps(&t, "{\"bounding\": [\"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
				" \"effective\": [\"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
				" \"permitted\": [\"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"],"
				" \"inheritable\": [\"CAP_KILL\"],"
				" \"ambient\": [\"CAP_KILL\", \"CAP_NET_BIND_SERVICE\"]}");
	struct ctt_result r;
	lc_debug_run_sh(&r, &t, ID, "grep Cap /proc/self/status");
	cr_assert_eq(r.status, 0, "stderr: %s", r.err);
	assert_cap_sets(r.out, (struct cap_sets){CAP(5) | CAP(10), CAP(5), CAP(5), CAP(5), CAP(5)});
	cr_expect(ctt_matches(r.err,
			      "debug: config.json: .process.capabilities.ambient\\[1\\]: "
			      "\"CAP_NET_BIND_SERVICE\" not raised: it is not both permitted "
			      "and inheritable"),
		  "%s", r.err);
	cr_expect_not(ctt_matches(r.err, "ambient\\[0\\]|warning"), "%s", r.err);
	ctt_result_free(&r);
	/* without --debug nothing is said, as runc and crun say nothing */
	lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID "-quiet");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "");
	ctt_result_free(&r);
}

Test(process, oom_score_adj)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.oomScoreAdj", "423");
	lc_assert_sh_output(&t, "cat /proc/self/oom_score_adj", "423\n");
}

/* An oomScoreAdj of 0 is written, not taken as none, as under runc: a caller with another
 * value (containerd's shim runs at its daemon's + 1) does not pass it on; crun 1.8.1 does
 * (crun-oom-score-adj-zero). */
Test(process, oom_score_adj_zero_is_written_over_the_callers)
{
	ctt_write_file("/proc/self/oom_score_adj", "1");
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".process.oomScoreAdj", "0");
	lc_assert_sh_output(&t, "cat /proc/self/oom_score_adj", "0\n");
	char *caller = ctt_read_file("/proc/self/oom_score_adj");
	cr_expect_str_eq(caller, "1\n", "the caller's own value changed");
	free(caller);
}

Test(process, hostname_and_domainname)
{
	char before[HOST_NAME_MAX + 1], after[HOST_NAME_MAX + 1];
	cr_assert_eq(gethostname(before, sizeof(before)), 0);
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".hostname", "\"box-one\"");
	ctt_config_set(t.bundle, ".domainname", "\"example.test\"");
	lc_assert_sh_output(&t, "hostname; uname -n; cat /proc/sys/kernel/domainname",
			    "box-one\nbox-one\nexample.test\n");
	cr_assert_eq(gethostname(after, sizeof(after)), 0);
	cr_expect_str_eq(after, before, "the host's hostname changed");
}

/* An empty hostname or domainname is none, as under runc and crun: the namespace keeps the
 * names it has. Without a uts namespace of its own the container shares the caller's, which
 * ctrun once cleared; the test runs in a uts namespace of its own, so that a regression
 * clears that one and not the host's. */
Test(process, empty_hostname_and_domainname_keep_the_namespaces_names)
{
	cr_assert_eq(unshare(CLONE_NEWUTS), 0, "unshare uts: %s", strerror(errno));
	cr_assert_eq(sethostname("outer-name", 10), 0);
	cr_assert_eq(setdomainname("outer.test", 10), 0);
	static const char *const uts[] = {"new", "shared"};
	for (size_t i = 0; i < 2; i++) {
		struct lc t;
		lc_init(&t);
		ctt_config_set(t.bundle, ".hostname", "\"\"");
		ctt_config_set(t.bundle, ".domainname", "\"\"");
		if (i == 1)
			lc_namespace_set(&t, "uts", NULL);
		char *out = lc_sh_output(&t, "uname -n; cat /proc/sys/kernel/domainname");
		cr_expect_str_eq(out, "outer-name\nouter.test\n", "%s uts namespace", uts[i]);
		free(out);
		char name[HOST_NAME_MAX + 1], domain[HOST_NAME_MAX + 1];
		cr_assert_eq(gethostname(name, sizeof(name)), 0);
		cr_assert_eq(getdomainname(domain, sizeof(domain)), 0);
		cr_expect_str_eq(name, "outer-name", "the caller's hostname changed (%s)", uts[i]);
		cr_expect_str_eq(domain, "outer.test", "the caller's domainname changed (%s)", uts[i]);
	}
}

/* ---- linux.sysctl ---- */

static char *ns_path_json(pid_t pid, const char *type, const char *file)
{
	char *json;
	cr_assert_geq(asprintf(&json, "{\"type\": \"%s\", \"path\": \"/proc/%d/ns/%s\"}", type,
			       (int)pid, file),
		      0);
	return json;
}

/* Keys of the container's own ipc and network namespaces, read back inside; the host's
 * values stay. */
Test(process, namespaced_sysctls_are_applied)
{
	char *host_shmmax = ctt_read_file("/proc/sys/kernel/shmmax");
	char *host_forward = ctt_read_file("/proc/sys/net/ipv4/ip_forward");
	struct lc t;
	lc_init(&t);
	const char *forward = strcmp(host_forward, "1\n") == 0 ? "0" : "1";
	char *json;
	cr_assert_geq(asprintf(&json,
			       "{\"kernel.shmmax\": \"123456789\", "
			       "\"net/ipv4/ip_forward\": \"%s\"}",
			       forward),
		      0);
	ctt_config_set(t.bundle, ".linux.sysctl", json);
	char want[32];
	snprintf(want, sizeof(want), "123456789\n%s\n", forward);
	lc_assert_sh_output(&t, "cat /proc/sys/kernel/shmmax /proc/sys/net/ipv4/ip_forward", want);
	char *shmmax = ctt_read_file("/proc/sys/kernel/shmmax");
	char *ip_forward = ctt_read_file("/proc/sys/net/ipv4/ip_forward");
	cr_expect_str_eq(shmmax, host_shmmax, "the host's kernel.shmmax changed");
	cr_expect_str_eq(ip_forward, host_forward, "the host's ip_forward changed");
	free(ip_forward);
	free(shmmax);
	free(json);
	free(host_forward);
	free(host_shmmax);
}

/* linux.sysctl is {key: value}; create refuses it with one line naming the key. */
static void assert_sysctl_refused(const struct lc *t, const char *key, const char *why)
{
	char *q = ctt_json_quote(key), *json, *named;
	cr_assert_geq(asprintf(&json, "{%s: \"1\"}", q), 0);
	cr_assert_geq(asprintf(&named, ".linux.sysctl[%s]", q), 0);
	ctt_config_set(t->bundle, ".linux.sysctl", json);
	struct ctt_result r;
	lc_ctrun(&r, t, "create", "--bundle", t->bundle, ID);
	ctt_assert_error(&r, named, why);
	ctt_result_free(&r);
	lc_assert_nothing_left(t);
	free(named);
	free(json);
	free(q);
}

Test(process, host_sysctl_is_refused)
{
	struct lc t;
	lc_init(&t);
	assert_sysctl_refused(&t, "vm.swappiness", "not a namespaced sysctl");
}

/* runc 1.1.5 and crun 1.8.1 refuse it, with or without a hostname field (ctrun set it);
 * the host's hostname stays whatever it was. */
Test(process, hostname_sysctl_is_refused_for_the_hostname_field)
{
	char before[256] = "", after[256] = "";
	gethostname(before, sizeof(before) - 1);
	struct lc t;
	lc_init(&t);
	assert_sysctl_refused(&t, "kernel.hostname", "conflicts with .hostname");
	lc_init(&t);
	ctt_config_set(t.bundle, ".hostname", "\"\"");
	assert_sysctl_refused(&t, "kernel/hostname", "conflicts with .hostname");
	gethostname(after, sizeof(after) - 1);
	cr_expect_str_eq(after, before);
}

Test(process, ipc_sysctl_without_an_ipc_namespace_is_refused)
{
	struct lc t;
	lc_init(&t);
	lc_namespace_set(&t, "ipc", NULL);
	assert_sysctl_refused(&t, "kernel.shmmax", "needs the container's own ipc namespace");
}

Test(process, sysctl_climbing_out_of_its_namespace_is_refused)
{
	struct lc t;
	lc_init(&t);
	assert_sysctl_refused(&t, "net/../../vm/swappiness", "not a sysctl name");
}

/* Joined by path, but the namespace is the one ctrun (and this test) runs in: the host's. */
Test(process, net_sysctl_in_the_hosts_network_namespace_is_refused)
{
	struct lc t;
	lc_init(&t);
	char *net = ns_path_json(getpid(), "network", "net");
	lc_namespace_set(&t, "network", net);
	assert_sysctl_refused(&t, "net.ipv4.ip_forward",
			      "needs the container's own network namespace");
	free(net);
}

/* The shell is pid 1 and /proc shows the container's pids only (the shell and maybe ls). */
Test(process, process_is_pid_1)
{
	struct lc t;
	lc_init(&t);
	char *out = lc_sh_output(&t, "echo $$; ls /proc");
	cr_expect(strncmp(out, "1\n", 2) == 0, "%s", out);
	unsigned pids = 0;
	bool has_1 = false;
	for (char *line = strtok(out + 2, "\n"); line; line = strtok(NULL, "\n"))
		if (strspn(line, "0123456789") == strlen(line)) {
			pids++;
			has_1 |= strcmp(line, "1") == 0;
		}
	cr_expect(has_1, "no pid 1 in /proc");
	cr_expect_leq(pids, 2, "%u pids in /proc", pids);
	free(out);
}

/* ---- namespaces ---- */

static const char *const ns_files[] = {"pid", "net", "ipc", "uts", "mnt", "cgroup", "time"};
#define N_NS (sizeof(ns_files) / sizeof(ns_files[0]))

/* The container's view of every ns_files entry, one line each. */
static char *container_ns_links(const struct lc *t)
{
	char script[512] = "";
	for (size_t i = 0; i < N_NS; i++)
		snprintf(script + strlen(script), sizeof(script) - strlen(script),
			 "readlink /proc/self/ns/%s; ", ns_files[i]);
	return lc_sh_output(t, script);
}

/* Whether the container's namespace of each type is the test's: shared[i]. */
static void assert_ns_shared(const struct lc *t, const bool *shared)
{
	char *out = container_ns_links(t);
	char *save = NULL, *line = strtok_r(out, "\n", &save);
	for (size_t i = 0; i < N_NS; i++, line = strtok_r(NULL, "\n", &save)) {
		cr_assert_not_null(line, "no line for %s", ns_files[i]);
		char *host = ctt_ns_link("self", ns_files[i]);
		if (shared[i])
			cr_expect_str_eq(line, host, "%s is not shared", ns_files[i]);
		else
			cr_expect_str_neq(line, host, "%s is not new", ns_files[i]);
		free(host);
	}
	free(out);
}

Test(process, configured_namespaces_are_new)
{
	struct lc t;
	lc_init(&t);
	lc_config_append(&t, ".linux.namespaces", "{\"type\": \"time\"}");
	assert_ns_shared(&t, (const bool[N_NS]){false, false, false, false, false, false, false});
}

Test(process, removed_namespaces_are_shared)
{
	struct lc t;
	lc_init(&t);
	lc_namespace_set(&t, "network", NULL);
	lc_namespace_set(&t, "ipc", NULL);
	lc_namespace_set(&t, "cgroup", NULL);
	/* pid net ipc uts mnt cgroup time */
	assert_ns_shared(&t, (const bool[N_NS]){false, true, true, false, false, true, true});
}

/* Its own network namespace has its loopback up, as runc and crun leave it: flags
 * IFF_UP|IFF_LOOPBACK, and a server on 127.0.0.1 answers a client of the container. */
Test(process, own_network_namespace_has_its_loopback_up)
{
	struct lc t;
	lc_init(&t);
	lc_assert_sh_output(&t,
			    "cat /sys/class/net/lo/flags; echo hi | nc -l -p 4242 & "
			    "i=0; until nc 127.0.0.1 4242 </dev/null 2>/dev/null || "
			    "[ $i -gt 100 ]; do sleep 0.05; i=$((i+1)); done",
			    "0x9\nhi\n");
	lc_assert_nothing_left(&t);
}

/* A joined network namespace is left as its owner set it: A's loopback, brought down by a
 * process in it, stays down when B joins. */
Test(process, joined_network_namespace_keeps_its_loopback_as_it_is)
{
	struct lc a, b;
	lc_init(&a);
	lc_init(&b);
	lc_ok(&a, "create", "--bundle", a.bundle, "a");
	pid_t pid = lc_pid(&a, "a");
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "nsenter -t %d -n ip link set lo down", (int)pid);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	char *net = ns_path_json(pid, "network", "net");
	lc_namespace_set(&b, "network", net);
	lc_assert_sh_output(&b, "cat /sys/class/net/lo/flags", "0x8\n");
	lc_ok(&a, "delete", "--force", "a");
	lc_assert_nothing_left(&a);
	lc_assert_nothing_left(&b);
	free(net);
}

/* B joins the network and uts namespaces of A, which waits in `created`. */
Test(process, joins_namespaces_by_path)
{
	struct lc a, b;
	lc_init(&a);
	lc_init(&b);
	ctt_config_set(a.bundle, ".hostname", "\"host-a\"");
	lc_ok(&a, "create", "--bundle", a.bundle, "a");
	pid_t pid = lc_pid(&a, "a");
	char *net = ns_path_json(pid, "network", "net"), *uts = ns_path_json(pid, "uts", "uts");
	lc_namespace_set(&b, "network", net);
	lc_namespace_set(&b, "uts", uts);
	ctt_config_set(b.bundle, ".hostname", NULL);
	char who[16];
	snprintf(who, sizeof(who), "%d", (int)pid);
	char *a_net = ctt_ns_link(who, "net"), *a_uts = ctt_ns_link(who, "uts"), *want;
	cr_assert_geq(asprintf(&want, "%s\n%s\nhost-a\n", a_net, a_uts), 0);
	lc_assert_sh_output(&b, "readlink /proc/self/ns/net; readlink /proc/self/ns/uts; hostname",
			    want);
	lc_ok(&a, "delete", "--force", "a");
	lc_assert_nothing_left(&a);
	lc_assert_nothing_left(&b);
	free(want);
	free(a_uts);
	free(a_net);
	free(uts);
	free(net);
}

/* A network namespace path that is no network namespace: one error naming it. */
static void assert_bad_network_path(const char *path, const char *why)
{
	struct lc t;
	lc_init(&t);
	char *quoted = ctt_json_quote(path), *json;
	cr_assert_geq(asprintf(&json, "{\"type\": \"network\", \"path\": %s}", quoted), 0);
	lc_namespace_set(&t, "network", json);
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
	char *named;
	cr_assert_geq(asprintf(&named, "\"%s\"", path), 0);
	ctt_assert_error(&r, "network namespace", named, why);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
	free(named);
	free(json);
	free(quoted);
}

Test(process, missing_namespace_path_is_an_error)
{
	assert_bad_network_path("/nonexistent/ns/net", "No such file or directory");
}

Test(process, namespace_path_to_a_plain_file_is_an_error)
{
	char *file = ctt_tmp_path("not-a-namespace");
	ctt_write_file(file, "");
	assert_bad_network_path(file, "not a namespace");
	free(file);
}

/* setns(fd, 0) would join this ipc namespace in place of a network one. */
Test(process, namespace_path_of_another_type_is_an_error)
{
	assert_bad_network_path("/proc/self/ns/ipc", "not a network namespace");
}

/* ---- passed file descriptors ---- */

/* A file holding "from-test\n", opened read-write for the container's fd 3. */
static int fd3_file(char **path)
{
	*path = ctt_tmp_path("fd3");
	ctt_write_file(*path, "from-test\n");
	int fd = open(*path, O_RDWR | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	return fd;
}

/* Runs argv in the background with fd3 as its fd 3; expects exit 0, returns the output. */
static char *spawn_with_fd3(const struct lc *t, const char *const *argv, int fd3)
{
	int status;
	char *text = lc_spawn_output(t, argv, fd3, &status);
	cr_expect_eq(status, 0, "exit %d: %s", status, text);
	return text;
}

/* `run` of script with fd3_file() (its path in *path) as ctrun's fd 3, passed on with
 * --preserve-fds 1 when preserve; expects exit 0 and returns the output. */
static char *run_script_with_fd3(struct lc *t, const char *script, bool preserve, char **path)
{
	lc_init(t);
	lc_set_script(t, script);
	int fd = fd3_file(path);
	const char *const *args =
		preserve ? LC_ARGV("run", "--preserve-fds", "1", "--bundle", t->bundle, ID)
			 : LC_ARGV("run", "--bundle", t->bundle, ID);
	char *out = spawn_with_fd3(t, lc_ctrun_argv(t, args), fd);
	close(fd);
	return out;
}

Test(process, preserve_fds_passes_fd_3)
{
	struct lc t;
	char *path, *out = run_script_with_fd3(
			    &t, "read line <&3; echo \"got:$line\"; echo from-container >&3", true,
			    &path);
	cr_expect_str_eq(out, "got:from-test\n");
	char *content = ctt_read_file(path);
	cr_expect_str_eq(content, "from-test\nfrom-container\n");
	free(content);
	free(out);
	free(path);
}

Test(process, fd_3_is_closed_without_preserve_fds)
{
	struct lc t;
	char *path, *out = run_script_with_fd3(
			    &t, "[ -e /proc/self/fd/3 ] && echo open || echo closed", false, &path);
	cr_expect_str_eq(out, "closed\n");
	free(out);
	free(path);
}

/* `ctrun run` of t's bundle behind prefix (a program that execs the rest of its argv),
 * with fd3_file() as fd 3; expects exit 0 and returns the output. */
static char *run_behind_with_fd3(const struct lc *t, const char *const *prefix)
{
	const char *const *ctrun =
		lc_ctrun_argv(t, (const char *const[]){"run", "--bundle", t->bundle, ID, NULL});
	const char *argv[64];
	size_t n = 0;
	for (; prefix[n]; n++)
		argv[n] = prefix[n];
	for (size_t i = 0; ctrun[i]; i++) {
		cr_assert_lt(n + 1, sizeof(argv) / sizeof(argv[0]));
		argv[n++] = ctrun[i];
	}
	argv[n] = NULL;
	char *path;
	int fd = fd3_file(&path);
	char *out = spawn_with_fd3(t, argv, fd);
	close(fd);
	free(path);
	return out;
}

/* What the container sees of socket activation: the variables, and fd 3 if it got it. */
#define LISTEN_SCRIPT                                      \
	"echo \"[$LISTEN_FDS] [$LISTEN_PID]\"; "           \
	"if read line <&3; then echo \"got:$line\"; else " \
	"echo no-fd3; fi 2>/dev/null"

/* As with runc: LISTEN_FDS=N given to ctrun passes fds 3.. and tells the container, whose
 * pid 1 is the listener. */
Test(process, listen_fds_passes_fd_3)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, "echo \"$LISTEN_FDS $LISTEN_PID\"; read line <&3; echo \"got:$line\"");
	char *out = run_behind_with_fd3(
		&t, (const char *const[]){"/usr/bin/env", "LISTEN_FDS=1", NULL});
	cr_expect_str_eq(out, "1 1\ngot:from-test\n");
	free(out);
}

/* LISTEN_PID naming ctrun itself (the shell's pid, which exec hands to ctrun): ours. */
Test(process, listen_fds_for_ctrun_own_pid_passes_fd_3)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, LISTEN_SCRIPT);
	char *out = run_behind_with_fd3(
		&t, (const char *const[]){"/bin/sh", "-c", "LISTEN_FDS=1 LISTEN_PID=$$ exec \"$@\"",
					  "sh", NULL});
	cr_expect_str_eq(out, "[1] [1]\ngot:from-test\n");
	free(out);
}

/* LISTEN_PID naming another process (this test): the fds were meant for it, so the
 * container gets neither fd 3 nor the variables. */
Test(process, listen_fds_for_another_pid_are_not_passed)
{
	struct lc t;
	lc_init(&t);
	lc_set_script(&t, LISTEN_SCRIPT);
	char pid_var[32];
	snprintf(pid_var, sizeof(pid_var), "LISTEN_PID=%d", (int)getpid());
	char *out = run_behind_with_fd3(
		&t, (const char *const[]){"/usr/bin/env", "LISTEN_FDS=1", pid_var, NULL});
	cr_expect_str_eq(out, "[] []\nno-fd3\n");
	free(out);
}

/* ---- the root filesystem ---- */

Test(process, no_pivot_runs_in_the_rootfs)
{
	struct lc t;
	lc_init(&t);
	char *marker = lc_rootfs_file(&t, "marker", "");
	lc_set_script(&t, "[ -e /marker ] && echo marker; "
			  "[ -e /config.json ] || [ -e /../config.json ] || echo confined");
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--no-pivot", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect_str_eq(r.out, "marker\nconfined\n");
	ctt_result_free(&r);
	free(marker);
}

struct mount_entry {
	char point[256], options[256], fstype[64];
};

/* The last (topmost) mount at point in mountinfo text. */
static bool find_mount(const char *mountinfo, const char *point, struct mount_entry *m)
{
	bool found = false;
	for (const char *line = mountinfo; *line;) {
		struct mount_entry e;
		const char *sep = strstr(line, " - ");
		size_t len = strcspn(line, "\n");
		if (sep && sep < line + len &&
		    sscanf(line, "%*s %*s %*s %*s %255s %255s", e.point, e.options) == 2 &&
		    sscanf(sep + 3, "%63s", e.fstype) == 1 && strcmp(e.point, point) == 0) {
			*m = e;
			found = true;
		}
		line += len + (line[len] == '\n');
	}
	return found;
}

static void assert_mount(const char *mountinfo, const char *point, const char *fstype)
{
	struct mount_entry m;
	cr_expect(find_mount(mountinfo, point, &m), "no mount at %s:\n%s", point, mountinfo);
	cr_expect_str_eq(m.fstype, fstype, "%s", point);
}

static void assert_read_only(const char *mountinfo, const char *point)
{
	struct mount_entry m;
	cr_expect(find_mount(mountinfo, point, &m) && ctt_in_list(m.options, "ro"),
		  "%s is not a read-only mount:\n%s", point, mountinfo);
}

Test(process, default_mounts)
{
	struct lc t;
	lc_init(&t);
	char *info = lc_sh_output(&t, "cat /proc/self/mountinfo");
	static const char *const mounts[][2] = {
		{"/proc", "proc"},     {"/dev", "tmpfs"},	  {"/dev/pts", "devpts"},
		{"/dev/shm", "tmpfs"}, {"/dev/mqueue", "mqueue"}, {"/sys", "sysfs"},
	};
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++)
		assert_mount(info, mounts[i][0], mounts[i][1]);
	assert_read_only(info, "/sys");
	assert_read_only(info, "/");
	free(info);
}

Test(process, default_devices)
{
	struct lc t;
	lc_init(&t);
	lc_assert_sh_output(
		&t,
		"for d in null zero full random urandom tty; do "
		"stat -c '%n %F %t:%T' /dev/$d; done; "
		"readlink /dev/ptmx; readlink /dev/fd; [ -c /dev/pts/ptmx ] && echo pts; "
		"echo x > /dev/null && head -c 5 /dev/urandom | wc -c; "
		"echo x 2>/dev/null > /dev/full || echo full",
		"/dev/null character special file 1:3\n"
		"/dev/zero character special file 1:5\n"
		"/dev/full character special file 1:7\n"
		"/dev/random character special file 1:8\n"
		"/dev/urandom character special file 1:9\n"
		"/dev/tty character special file 5:0\n"
		"pts/ptmx\n/proc/self/fd\npts\n5\nfull\n");
}

/* Privileged Podman and containerd configs list the host's /dev/ptmx (5:2) among
 * linux.devices; /dev/ptmx is the symlink pts/ptmx all the same (as under runc), and a pty
 * opened there, from inside or from outside through the init's root, is one of the
 * container's devpts. */
Test(process, ptmx_listed_as_a_device_is_still_pts_ptmx)
{
	struct lc t;
	lc_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\": \"/dev/ptmx\", \"type\": \"c\", \"major\": 5, \"minor\": 2, "
			 "\"fileMode\": 8630, \"uid\": 0, \"gid\": 5}");
	lc_assert_sh_output(
		&t,
		"readlink /dev/ptmx; exec 3<>/dev/ptmx; ls /dev/pts; "
		"[ $(stat -L -c %d /proc/self/fd/3) = $(stat -c %d /dev/pts) ] && echo same",
		"pts/ptmx\n0\nptmx\nsame\n");

	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char dev[64], link[16] = "";
	snprintf(dev, sizeof(dev), "/proc/%d/root/dev", lc_pid(&t, ID));
	char *ptmx = ctt_path(dev, "ptmx");
	cr_expect_eq(readlink(ptmx, link, sizeof(link) - 1), 8, "readlink %s", ptmx);
	cr_expect_str_eq(link, "pts/ptmx");
	int fd = open(ptmx, O_RDWR | O_NOCTTY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open %s: %s", ptmx, strerror(errno));
	unsigned n;
	cr_assert_eq(ioctl(fd, TIOCGPTN, &n), 0, "TIOCGPTN: %s", strerror(errno));
	char pty[96], pts[80];
	snprintf(pts, sizeof(pts), "%s/pts", dev);
	snprintf(pty, sizeof(pty), "%s/pts/%u", dev, n);
	struct stat pty_st, pts_st;
	cr_expect_eq(stat(pty, &pty_st), 0, "the pty is not the container's %s", pty);
	cr_assert_eq(stat(pts, &pts_st), 0, "stat %s", pts);
	cr_expect_eq(pty_st.st_dev, pts_st.st_dev, "%s is not on the container's devpts", pty);
	close(fd);
	lc_ok(&t, "delete", "--force", ID);
	free(ptmx);
}

/* Two masked files and two masked directories of the default spec, which exist on the host
 * with content. */
Test(process, masked_paths_are_empty)
{
	static const char *const files[] = {"/proc/keys", "/proc/timer_list"};
	static const char *const dirs[] = {"/proc/acpi", "/sys/firmware"};
	for (size_t i = 0; i < 2; i++)
		if (!ctt_exists(files[i]) || !ctt_exists(dirs[i]))
			ctt_skip("this host has no %s or %s to mask", files[i], dirs[i]);
	struct lc t;
	lc_init(&t);
	lc_assert_sh_output(&t,
			    "wc -c < /proc/keys; wc -c < /proc/timer_list; "
			    "ls -A /proc/acpi | wc -l; ls -A /sys/firmware | wc -l",
			    "0\n0\n0\n0\n");
}

Test(process, readonly_paths_are_read_only)
{
	struct lc t;
	lc_init(&t);
	char *info = lc_sh_output(&t, "cat /proc/self/mountinfo");
	static const char *const paths[] = {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys"};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (ctt_exists(paths[i]))
			assert_read_only(info, paths[i]);
	free(info);
	lc_assert_sh_output(&t, "echo x 2>/dev/null > /proc/sys/kernel/domainname || echo refused",
			    "refused\n");
}

/* Whether the container's /probe reached the image. */
static bool probe_in_image(const struct lc *t)
{
	char *probe = lc_rootfs_path(t, "probe");
	bool there = ctt_exists(probe);
	free(probe);
	return there;
}

Test(process, readonly_root_refuses_writes)
{
	struct lc t;
	lc_init(&t);
	lc_assert_sh_output(&t, "touch /probe 2>&1 || echo refused",
			    "touch: /probe: Read-only file system\nrefused\n");
	cr_expect(!probe_in_image(&t));
}

Test(process, writable_root_takes_writes)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_assert_sh_output(&t, "touch /probe && echo done", "done\n");
	cr_expect(probe_in_image(&t));
}

/* What ctrun's caller ignores (SIG_IGN survives fork and execve) is the default again in the
 * container: the init resets exactly what it inherited ignored, nothing is left blocked. */
Test(process, signals_ignored_by_the_caller_are_default_inside)
{
	struct lc t;
	lc_init(&t);
	/* not through sh: busybox ash as pid 1 ignores SIGINT itself */
	lc_set_args(&t, LC_ARGV("cat", "/proc/self/status"));
	const char *const *run = lc_ctrun_argv(&t, LC_ARGV("run", "--bundle", t.bundle, "sig"));
	const char *argv[80] = {"/bin/sh", "-c",
				"trap '' HUP INT PIPE USR1 TERM 34; grep -E '^Sig(Ign|Blk)' "
				"/proc/self/status >&2; exec \"$0\" \"$@\""};
	size_t n = 3;
	for (size_t i = 0; run[i]; i++) {
		cr_assert_lt(n + 1, sizeof(argv) / sizeof(argv[0]));
		argv[n++] = run[i];
	}
	struct ctt_result r;
	ctt_run(&r, NULL, argv);
	cr_assert_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
	/* the caller did ignore them: HUP 1, INT 2, USR1 10, PIPE 13, TERM 15, and 34, which
	 * musl's sigaction() refuses to touch (it reserves 32-34) */
	uint64_t want = 0x5203ULL | 1ULL << 33;
	char *caller = status_field(r.err, "SigIgn");
	cr_assert_eq(strtoull(caller, NULL, 16) & want, want, "the caller's: %s", r.err);
	free(caller);
	assert_field(r.out, "SigIgn", "0000000000000000");
	assert_field(r.out, "SigBlk", "0000000000000000");
	ctt_result_free(&r);
}
