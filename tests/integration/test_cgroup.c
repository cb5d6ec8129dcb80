/* The container's cgroup on this host's layout (v1 controllers; on a hybrid host cgroup2 on
 * /sys/fs/cgroup/unified too): linux.resources read back from the cgroup files outside and
 * from /sys/fs/cgroup inside, limits enforced (OOM kill, pids.max, a 224 KiB container),
 * cgroupsPath forms, state.json, kill --all, delete, and nothing left behind (every test
 * nests its containers under the test process's own cgroup, in cgt_subtree()). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"

TestSuite(cgroup, .fini = cgt_cleanup);

#define ID "cg"

/* The suite is about v1 controllers; the cgroup2-only case is the vm suite's. */
static void need_v1_hierarchy(const char *controller)
{
	char *dir = cgt_dir(controller, "");
	if (!dir)
		ctt_skip("no cgroup v1 %s hierarchy on this host (the vm suite covers cgroup v2)",
			 controller);
	free(dir);
}

/* A container t in the tests' subtree at name, skipping unless the host has controller's v1
 * hierarchy (NULL: any host), with resources (JSON; NULL: those of `ctrun spec`). */
static void cgroup_box(struct lc *t, const char *controller, const char *name,
		       const char *resources)
{
	if (controller)
		need_v1_hierarchy(controller);
	lc_init(t);
	cgt_use_path(t, name);
	if (resources)
		ctt_config_set(t->bundle, ".linux.resources", resources);
}

static void assert_file(const char *controller, const char *rel, const char *file, const char *want)
{
	char *dir = cgt_dir(controller, rel);
	cr_assert_not_null(dir, "no %s hierarchy", controller);
	char *got = cgt_read(dir, file);
	cr_expect_str_eq(got, want, "%s/%s", dir, file);
	free(got);
	free(dir);
}

/* Each "file=value" of the space-separated list holds its value in the cgroup rel of the
 * controller the file's name starts with ("cpu.shares=512"). */
static void assert_files(const char *rel, const char *list)
{
	char *copy = strdup(list), *save = NULL;
	for (char *item = strtok_r(copy, " ", &save); item; item = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(item, '='), *dot = strchr(item, '.');
		cr_assert(eq && dot && dot < eq, "not file=value: %s", item);
		*eq = *dot = '\0';
		char file[128];
		snprintf(file, sizeof(file), "%s.%s", item, dot + 1);
		assert_file(item, rel, file, eq + 1);
	}
	free(copy);
}

/* The init of the created container ID is in its directory of each v1 hierarchy. */
static void assert_init_in_every_hierarchy(const struct lc *t, const char *rel)
{
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", lc_pid(t, ID));
	static const char *const all[] = {"memory", "cpu", "cpuset", "pids", "devices", "freezer"};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		assert_file(all[i], rel, "cgroup.procs", pid);
}

static const char resources[] =
	"{\"memory\": {\"limit\": 67108864, \"reservation\": 33554432, \"swap\": 134217728,"
	" \"swappiness\": 10, \"disableOOMKiller\": false},"
	" \"cpu\": {\"shares\": 512, \"period\": 50000, \"quota\": 25000, \"cpus\": \"0\","
	" \"mems\": \"0\"},"
	" \"pids\": {\"limit\": 64}}";

/* Each resource written where runc writes it, seen the same from outside... */
Test(cgroup, resources_read_back_from_outside)
{
	struct lc t;
	cgroup_box(&t, "memory", "outside", resources);
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("outside");
	assert_files(rel, "memory.limit_in_bytes=67108864 memory.soft_limit_in_bytes=33554432 "
			  "memory.memsw.limit_in_bytes=134217728 "
			  "memory.swappiness=10 cpu.shares=512 cpu.cfs_period_us=50000 "
			  "cpu.cfs_quota_us=25000 cpuset.cpus=0 pids.max=64");
	assert_init_in_every_hierarchy(&t, rel);
	lc_ok(&t, "delete", "--force", ID);
	free(rel);
	cgt_assert_subtree_gone();
}

/* A Docker 20.10 config's resources (../shared/configs), for the cgroup NAME. */
static void use_resources_of(const struct lc *t, const char *file, const char *name)
{
	char *res = lc_shared_config_value(file, ".linux.resources");
	ctt_config_set(t->bundle, ".linux.resources", res);
	free(res);
	cgt_use_path(t, name);
}

/* `docker run --runtime ctrun` without limits: Docker sends {"cpu": {"shares": 0},
 * "blockIO": {"weight": 0}}, which runc reads as "not set" (this kernel has no blkio weight
 * file to write a weight to): the cgroup keeps its defaults. */
Test(cgroup, docker_config_without_limits_writes_nothing)
{
	need_v1_hierarchy("cpu");
	struct lc t;
	lc_init(&t);
	use_resources_of(&t, "docker-default.json", "docker");
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("docker");
	assert_file("cpu", rel, "cpu.shares", "1024");
	lc_ok(&t, "delete", "--force", ID);
	free(rel);
}

/* What runc writes for Docker's limits (docker-resources.json). */
#define DOCKER_LIMITS                                                                          \
	"memory.limit_in_bytes=67108864 memory.memsw.limit_in_bytes=134217728 cpu.shares=512 " \
	"cpu.cfs_period_us=100000 cpu.cfs_quota_us=50000 pids.max=50"

/* runc-update(8)'s document of zeros changes nothing; Podman's update then applies. */
#define UPDATE_OF_ZEROS                                                                    \
	"{\"memory\": {\"limit\": 0, \"reservation\": 0, \"swap\": 0, \"kernel\": 0, "     \
	"\"kernelTCP\": 0}, \"cpu\": {\"shares\": 0, \"quota\": 0, \"period\": 0, "        \
	"\"realtimeRuntime\": 0, \"realtimePeriod\": 0, \"cpus\": \"\", \"mems\": \"\"}, " \
	"\"blockIO\": {\"weight\": 0}, \"pids\": {\"limit\": 0}}"

/* Docker's config with limits (shares, quota, period, memory+swap, pids; a blkio weight of
 * 0) gets what runc writes; an update of zeros keeps every limit, as runc's does. */
Test(cgroup, docker_limits_and_an_update_of_zeros)
{
	need_v1_hierarchy("memory");
	struct lc t;
	lc_init(&t);
	use_resources_of(&t, "docker-resources.json", "docker-limits");
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("docker-limits");
	assert_files(rel, DOCKER_LIMITS);
	char *memory = cgt_dir("memory", rel);
	char *tcp = cgt_read(memory, "memory.kmem.tcp.limit_in_bytes");
	struct ctt_result r;
	lc_ctrun_input(&r, &t, UPDATE_OF_ZEROS, "update", "--resources", "-", ID);
	cr_expect_eq(r.status, 0, "update: %s", r.err);
	ctt_result_free(&r);
	assert_files(rel, DOCKER_LIMITS);
	assert_file("memory", rel, "memory.kmem.tcp.limit_in_bytes", tcp); /* not 0 */
	free(tcp);
	free(memory);
	char *podman = lc_shared_config_value("podman-update-resources.json", "");
	lc_ctrun_input(&r, &t, podman, "update", "--resources", "-", ID);
	cr_expect_eq(r.status, 0, "update: %s", r.err);
	ctt_result_free(&r);
	assert_file("memory", rel, "memory.limit_in_bytes", "268435456");
	assert_file("cpu", rel, "cpu.cfs_quota_us", "150000");
	assert_file("pids", rel, "pids.max", "50");
	/* a later update of the swap alone still finds the limit the zeros did not replace */
	lc_ctrun_input(&r, &t, "{\"memory\": {\"swap\": 0}, \"cpu\": {\"quota\": 0}}", "update",
		       "--resources", "-", ID);
	cr_expect_eq(r.status, 0, "update: %s", r.err);
	ctt_result_free(&r);
	assert_file("memory", rel, "memory.memsw.limit_in_bytes", "536870912");
	assert_file("cpu", rel, "cpu.cfs_quota_us", "150000");
	lc_ok(&t, "delete", "--force", ID);
	free(podman);
	free(rel);
}

/* cpuset levels that exist with empty cpus and mems (made, never filled) get the values of
 * the nearest ancestor that has them, as do the levels create makes below them: no process
 * could join the leaf otherwise. */
Test(cgroup, empty_cpuset_levels_get_the_nearest_values)
{
	need_v1_hierarchy("cpuset");
	struct lc t;
	lc_init(&t);
	char *own = cgt_dir("cpuset", ""), *top = cgt_dir("cpuset", cgt_subtree());
	char *bare = cgt_rel("bare"), *bare_dir = cgt_dir("cpuset", bare);
	cr_assert(mkdir(top, 0755) == 0 && mkdir(bare_dir, 0755) == 0, "mkdir: %s",
		  strerror(errno));
	char *empty = cgt_read(bare_dir, "cpuset.cpus");
	cr_assert_str_empty(empty, "a new cpuset is not empty here");
	free(empty);
	cgt_use_path(&t, "bare/leaf");
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *leaf = cgt_rel("bare/leaf");
	char *cpus = cgt_read(own, "cpuset.cpus"), *mems = cgt_read(own, "cpuset.mems");
	const char *levels[] = {cgt_subtree(), bare, leaf};
	for (size_t i = 0; i < 3; i++) {
		assert_file("cpuset", levels[i], "cpuset.cpus", cpus);
		assert_file("cpuset", levels[i], "cpuset.mems", mems);
	}
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", lc_pid(&t, ID));
	assert_file("cpuset", leaf, "cgroup.procs", pid);
	lc_ok(&t, "delete", "--force", ID);
	rmdir(bare_dir); /* delete takes the empty parents of a relative path too */
	rmdir(top);
	free(cpus);
	free(mems);
	free(leaf);
	free(bare);
	free(bare_dir);
	free(top);
	free(own);
	cgt_assert_subtree_gone();
}

/* The init joins its v1 hierarchies itself, memory at the end of its set-up; where a write
 * then could be refused (a seccomp filter loaded before the identity change: no
 * noNewPrivileges, CAP_SYS_ADMIN not kept; an LSM label) the parent writes memory's after
 * READY. Either way the init is in every hierarchy. */
Test(cgroup, init_is_in_every_hierarchy_under_an_early_seccomp_filter)
{
	struct lc t;
	cgroup_box(&t, "memory", "early", NULL);
	ctt_config_set(t.bundle, ".process.noNewPrivileges", "false");
	ctt_config_set(t.bundle, ".process.user", "{\"uid\": 1000, \"gid\": 1000}");
	ctt_config_set(t.bundle, ".linux.seccomp",
		       "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": "
		       "[\"mkdirat\"], \"action\": \"SCMP_ACT_ERRNO\"}]}");
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("early");
	assert_init_in_every_hierarchy(&t, rel);
	lc_ok(&t, "delete", "--force", ID);
	free(rel);
	cgt_assert_subtree_gone();
}

/* ...and from inside: /sys/fs/cgroup is the container's own cgroup per hierarchy. */
Test(cgroup, resources_read_back_from_inside)
{
	struct lc t;
	cgroup_box(&t, "memory", "inside", NULL);
	ctt_config_set(t.bundle, ".linux.resources", resources);
	lc_assert_sh_output(&t,
			    "cd /sys/fs/cgroup; cat memory/memory.limit_in_bytes pids/pids.max "
			    "cpu/cpu.shares cpu/cpu.cfs_quota_us; cat pids/cgroup.procs",
			    "67108864\n64\n512\n25000\n1\n");
}

Test(cgroup, state_json_records_every_directory)
{
	struct lc t;
	cgroup_box(&t, "memory", "state", NULL);
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *file = lc_state_file(&t, ID);
	yajl_val st = ctt_json_load(file);
	char *memory = cgt_dir("memory", "");
	char *want;
	cr_assert_geq(asprintf(&want, "%s/%s/state", memory, cgt_subtree()), 0);
	cr_expect_str_eq(ctt_json_get_string(st, ".ctrun.cgroupPaths.memory"), want);
	cr_expect_str_eq(ctt_json_get_string(st, ".ctrun.cgroupBases.memory"), memory);
	yajl_tree_free(st);
	free(file);
	free(memory);
	free(want);
	lc_ok(&t, "delete", "--force", ID);
}

/* The default: ctrun/<id> below the caller's cgroup, gone with the container. */
Test(cgroup, default_path_is_below_the_callers_cgroup)
{
	need_v1_hierarchy("pids");
	struct lc t;
	lc_init(&t);
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *dir = cgt_dir("pids", "ctrun/" ID);
	struct stat st;
	cr_expect_eq(stat(dir, &st), 0, "%s", dir);
	lc_ok(&t, "delete", "--force", ID);
	cr_expect_neq(stat(dir, &st), 0, "%s still there after delete", dir);
	free(dir);
}

Test(cgroup, memory_hog_is_oom_killed)
{
	struct lc t;
	cgroup_box(&t, "memory", "oom", "{\"memory\": {\"limit\": 16777216, \"swap\": 16777216}}");
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "x=$(head -c 67108864 /dev/zero | tr '\\000' a); echo survived");
	cr_expect_eq(r.status, 137, "status %d, out %s, err %s", r.status, r.out, r.err);
	cr_expect_null(strstr(r.out, "survived"));
	ctt_result_free(&r);
}

Test(cgroup, fork_bomb_stops_at_pids_max)
{
	struct lc t;
	cgroup_box(&t, "pids", "forks", "{\"pids\": {\"limit\": 8}}");
	/* the subshell dies of its failed fork; read, test and echo are builtins, which need
	 * no fork once the limit is reached; pids.events counts the refusals */
	lc_assert_sh_output(
		&t,
		"(for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do sleep 100 & done) "
		"2>/dev/null; read n < /sys/fs/cgroup/pids/pids.current; "
		"[ $n -le 8 ] && [ $n -ge 6 ] && echo within; "
		"read m c < /sys/fs/cgroup/pids/pids.events; [ $c -gt 0 ] && echo $m",
		"within\nmax\n");
}

/* A quota of 10% of one cpu holds back a busy loop: the cfs bandwidth controller throttles
 * it (a count, not a time: no threshold on this shared machine). */
Test(cgroup, cpu_quota_throttles_a_busy_loop)
{
	struct lc t;
	cgroup_box(&t, "cpu", "busy", "{\"cpu\": {\"quota\": 10000, \"period\": 100000}}");
	lc_assert_sh_output(
		&t,
		"s=$(date +%s); while [ $(date +%s) -lt $((s + 2)) ]; do :; done; "
		"while read k v; do [ $k = nr_throttled ] && [ $v -gt 0 ] && echo throttled; "
		"done < /sys/fs/cgroup/cpu/cpu.stat; true",
		"throttled\n");
}

/* /bin/true runs under 224 KiB, the smallest limit crun manages: created, started,
 * stopped with the limit in place outside, then run to its exit code; the container reads
 * its own limit under the same 224 KiB. */
#define TINY_LIMIT "229376"

static void assert_no_oom_kill(const char *rel)
{
	char *dir = cgt_dir("memory", rel);
	cr_assert_not_null(dir, "no memory hierarchy");
	char *path = ctt_path(dir, "memory.oom_control"), *text = ctt_read_file(path);
	cr_expect(ctt_matches(text, "^oom_kill 0$"), "%s:\n%s", path, text);
	free(text);
	free(path);
	free(dir);
}

Test(cgroup, true_runs_under_224_kib_and_sees_its_limit)
{
	struct lc t;
	cgroup_box(&t, "memory", "tiny", "{\"memory\": {\"limit\": " TINY_LIMIT "}}");
	lc_set_args(&t, LC_ARGV("/bin/true"));
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("tiny");
	assert_file("memory", rel, "memory.limit_in_bytes", TINY_LIMIT);
	lc_ok(&t, "start", ID);
	lc_wait_status(&t, ID, "stopped");
	assert_no_oom_kill(rel);
	lc_ok(&t, "delete", ID);
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
	cr_assert_eq(r.status, 0, "/bin/true under 224 KiB: exit %d: %s", r.status, r.err);
	ctt_result_free(&r);
	/* cat alone: a shell beside it needs more than 224 KiB */
	lc_set_args(&t, LC_ARGV("cat", "/sys/fs/cgroup/memory/memory.limit_in_bytes"));
	lc_assert_run_output(&t, TINY_LIMIT "\n");
	free(rel);
}

/* The bundle's busybox out of the page cache (written back first: only clean pages go). */
static void evict_from_page_cache(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	cr_assert_eq(fdatasync(fd), 0, "fdatasync %s: %s", path, strerror(errno));
	cr_assert_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0, "fadvise %s", path);
	close(fd);
}

/* A program not in the page cache: read in before the init joins the memory cgroup, not
 * charged to the container (where its readahead alone got /bin/true OOM-killed, each run). */
Test(cgroup, true_runs_under_224_kib_from_a_cold_page_cache)
{
	struct lc t;
	cgroup_box(&t, "memory", "cold", "{\"memory\": {\"limit\": " TINY_LIMIT "}}");
	lc_set_args(&t, LC_ARGV("/bin/true"));
	char *busybox = lc_rootfs_path(&t, "bin/busybox");
	for (int i = 0; i < 2; i++) {
		evict_from_page_cache(busybox);
		struct ctt_result r;
		lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
		cr_assert_eq(r.status, 0, "cold /bin/true under 224 KiB (run %d): exit %d: %s", i,
			     r.status, r.err);
		ctt_result_free(&r);
	}
	free(busybox);
}

/* A value the kernel refuses fails create naming the file and the value; nothing stays. */
Test(cgroup, rejected_limit_fails_create_and_leaves_nothing)
{
	struct lc t;
	cgroup_box(&t, "cpuset", "bad", "{\"cpu\": {\"cpus\": \"4095\"}}");
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID),
			".linux.resources.cpu.cpus", "write \"4095\" to", "cpuset.cpus");
	lc_assert_nothing_left(&t);
	cgt_assert_subtree_gone();
}

Test(cgroup, unified_is_refused_on_v1)
{
	struct lc t;
	cgroup_box(&t, "memory", "unified", "{\"unified\": {\"memory.high\": \"1000000\"}}");
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), ".linux.resources.unified",
			"only for cgroup v2");
	lc_assert_nothing_left(&t);
}

Test(cgroup, the_systemd_form_is_the_systemd_drivers)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.cgroupsPath", "\"system.slice:ctrun:web\"");
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID), ".linux.cgroupsPath",
			"slice:prefix:name is the systemd cgroup driver's (--systemd-cgroup)");
	lc_assert_nothing_left(&t);
}

/* The path is checked before the layout or the bus: each rule broken is named. */
Test(cgroup, systemd_paths_not_in_runcs_form_are_refused)
{
	static const struct {
		const char *path, *rule;
	} bad[] = {
		{"\"/ctrun/web\"", "takes the form slice:prefix:name"},
		{"\"a:b\"", "takes the form slice:prefix:name"},
		{"\"a.slice:b:c:d\"", "takes the form slice:prefix:name"},
		{"\"system.slice:ctrun:\"", "the name (after the second ':') is empty"},
		{"\"system:ctrun:web\"", "the slice (before the first ':') must be a slice unit"},
		{"\"a--b.slice:ctrun:web\"", "no leading, trailing or doubled '-'"},
		{"\"a/b.slice:ctrun:web\"", "must be a slice unit name"},
		{"\"system.slice:ctrun:we b\"", "not one systemd takes"},
		{"\"system.slice:ctrun:-x.slice\"", "not a valid slice name"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct lc t;
		lc_init(&t);
		ctt_config_set(t.bundle, ".linux.cgroupsPath", bad[i].path);
		lc_assert_fails(&t, LC_ARGV("--systemd-cgroup", "create", "--bundle", t.bundle, ID),
				".linux.cgroupsPath", bad[i].rule);
		lc_assert_nothing_left(&t);
	}
}

Test(cgroup, systemd_driver_refused_on_a_layout_other_than_unified)
{
	if (!ctt_exists("/sys/fs/cgroup/unified/cgroup.controllers"))
		ctt_skip("/sys/fs/cgroup is not hybrid here: the systemd driver is not refused");
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.cgroupsPath", "\"system.slice:ctrun:web\"");
	lc_assert_fails(&t, LC_ARGV("--systemd-cgroup", "create", "--bundle", t.bundle, ID),
			"the systemd cgroup driver needs cgroup v2", "hybrid",
			"use --cgroup-manager cgroupfs");
	lc_assert_nothing_left(&t);
}

/* --cgroup-manager disabled: no cgroup at all, the container stays in the caller's. */
Test(cgroup, manager_disabled_makes_no_cgroup)
{
	need_v1_hierarchy("pids");
	struct lc t;
	lc_init(&t);
	lc_ok(&t, "--cgroup-manager", "disabled", "create", "--bundle", t.bundle, ID);
	char *file = lc_state_file(&t, ID);
	yajl_val st = ctt_json_load(file);
	cr_expect_null(ctt_json_get(st, ".ctrun.cgroupPaths"));
	yajl_tree_free(st);
	free(file);
	char *dir = cgt_dir("pids", "ctrun/" ID);
	struct stat sb;
	cr_expect_neq(stat(dir, &sb), 0, "%s made", dir);
	free(dir);
	lc_ok(&t, "delete", "--force", ID);
	ctt_config_set(t.bundle, ".linux.resources", "{\"pids\": {\"limit\": 5}}");
	lc_assert_fails(&t,
			LC_ARGV("--cgroup-manager", "disabled", "create", "--bundle", t.bundle, ID),
			".linux.resources", "needs a cgroup");
}

/* The caller's path in the hierarchy holding controller ("" for cgroup2), from
 * /proc/self/cgroup, malloc'ed. */
static char *caller_path(const char *controller)
{
	char *text = ctt_read_file("/proc/self/cgroup"), *found = NULL;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && !found;
	     l = strtok_r(NULL, "\n", &save)) {
		char *ctrls = strchr(l, ':'), *path = ctrls ? strchr(ctrls + 1, ':') : NULL;
		if (!path)
			continue;
		*ctrls = *path = '\0';
		if (*controller ? strcmp(ctrls + 1, controller) == 0 : strcmp(l, "0") == 0)
			found = strdup(path + 1);
	}
	free(text);
	cr_assert_not_null(found, "no %s line in /proc/self/cgroup", controller);
	return found;
}

/* --cgroup-manager disabled with a "cgroup" mount: the container sees the cgroup it stays in,
 * the caller's, bound read-only as the mount asks, never the host's whole hierarchy (as
 * crun binds it). Checked by the mounts' roots and by a directory made outside. Without a
 * cgroup namespace of its own, where a fresh mount would show the hierarchy's root. */
Test(cgroup, manager_disabled_mount_shows_the_callers_cgroup)
{
	need_v1_hierarchy("pids");
	struct lc t;
	lc_init(&t);
	lc_namespace_set(&t, "cgroup", NULL); /* Podman's default on v1: the host's */
	char *marker = cgt_dir("pids", "marker");
	cr_assert_eq(mkdir(marker, 0755), 0, "mkdir %s", marker);
	lc_set_script(&t, "grep -E ' /sys/fs/cgroup/(pids|unified) ' /proc/self/mountinfo | "
			  "cut -d' ' -f4,5,6 | cut -d, -f1; "
			  "test -d /sys/fs/cgroup/pids/marker && echo marker; "
			  "mkdir /sys/fs/cgroup/pids/x 2>&1 | grep -o 'Read-only file system'");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--cgroup-manager", "disabled", "run", "--bundle", t.bundle, ID);
	rmdir(marker);
	free(marker);
	cr_assert_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	char *pids = caller_path("pids"), *unified_dir = cgt_dir("", ""), *unified = NULL, *want;
	cr_assert_str_neq(pids, "/", "lc_init() put the test in a cgroup of its own");
	if (unified_dir)
		unified = caller_path("");
	cr_assert_geq(asprintf(&want,
			       "%s /sys/fs/cgroup/pids ro\n%s%s%smarker\n"
			       "Read-only file system\n",
			       pids, unified ? unified : "",
			       unified ? " /sys/fs/cgroup/unified ro" : "", unified ? "\n" : ""),
		      0);
	free(unified_dir);
	free(unified);
	cr_expect_str_eq(r.out, want, "the caller's cgroups, read-only, inside:\n%s\nwant:\n%s",
			 r.out, want);
	free(want);
	free(pids);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

static const char deny_all_devices[] = "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}";

/* Podman's --cgroups=disabled still sends a deny-all device rule: without CAP_MKNOD (as
 * Podman 4's default set and spec's) the container runs, in the caller's cgroup, with a
 * warning that the rules are not enforced; inside, mknod is refused. */
Test(cgroup, manager_disabled_takes_device_rules_with_a_warning)
{
	need_v1_hierarchy("pids");
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.resources", deny_all_devices);
	lc_set_script(&t, "head -c 2 /dev/zero | wc -c | tr -d ' '; "
			  "mknod /dev/host-mem c 1 1 2>&1 | grep -o 'Operation not permitted'");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--cgroup-manager", "disabled", "create", "--bundle", t.bundle, ID);
	cr_assert_eq(r.status, 0, "create: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, ".linux.resources.devices: not enforced without a "
					 "cgroup (--cgroup-manager disabled); the process cannot "
					 "make device nodes"),
			   "no warning:\n%s", r.err);
	ctt_result_free(&r);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)lc_pid(&t, ID));
	char *theirs = ctt_read_file(path), *mine = ctt_read_file("/proc/self/cgroup");
	cr_expect_str_eq(theirs, mine, "the container is not in the caller's cgroups");
	free(theirs);
	free(mine);
	lc_ok(&t, "delete", "--force", ID);
	lc_ctrun(&r, &t, "--cgroup-manager", "disabled", "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_str_eq(r.out, "2\nOperation not permitted\n",
			 "the standard /dev/zero inside, and mknod refused (EPERM):\n%s", r.out);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* Both create and run with --cgroup-manager disabled fail with one line, leaving nothing. */
static void assert_refused_without_cgroup(const struct lc *t)
{
	static const char *const commands[] = {"create", "run"};
	for (size_t i = 0; i < 2; i++) {
		lc_assert_fails(t,
				LC_ARGV("--cgroup-manager", "disabled", commands[i], "--bundle",
					t->bundle, ID),
				"config.json: .linux.resources.devices: --cgroup-manager disabled "
				"cannot enforce device rules while the process keeps CAP_MKNOD "
				"without a user namespace",
				"drop CAP_MKNOD");
		lc_assert_nothing_left(t);
	}
}

/* With CAP_MKNOD in its bounding set and no user namespace, a process without a device
 * filter could make and open any host device (a disk, /dev/mem): refused. A config without
 * capabilities runs: its process has none, CAP_MKNOD neither. */
Test(cgroup, manager_disabled_refuses_device_rules_with_cap_mknod)
{
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.resources", deny_all_devices);
	ctt_config_set(t.bundle, ".process.capabilities",
		       "{\"bounding\": [\"CAP_KILL\", \"CAP_MKNOD\"],"
		       " \"effective\": [\"CAP_KILL\"], \"permitted\": [\"CAP_KILL\"]}");
	assert_refused_without_cgroup(&t);
	ctt_config_set(t.bundle, ".process.capabilities", NULL);
	lc_set_script(&t, "grep CapBnd /proc/self/status");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--cgroup-manager", "disabled", "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "exit %d, stderr: %s", r.status, r.err);
	cr_expect(ctt_matches(r.out, "^CapBnd:[[:space:]]+0+$"), "%s", r.out);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* Without a pid namespace only the cgroup knows the container's processes. */
Test(cgroup, kill_all_reaches_every_process_of_the_cgroup)
{
	struct lc t;
	cgroup_box(&t, "pids", "killall", NULL);
	lc_namespace_set(&t, "pid", NULL);
	lc_set_script(&t, "sleep 1000 & sleep 1000 & wait");
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	lc_ok(&t, "start", ID);
	char *rel = cgt_rel("killall");
	char *dir = cgt_dir("pids", rel);
	/* the init and its two sleeps */
	for (int i = 0; i < 1000; i++) {
		char *n = cgt_read(dir, "pids.current");
		bool three = strcmp(n, "3") == 0;
		free(n);
		if (three)
			break;
		usleep(10000);
	}
	assert_file("pids", rel, "pids.current", "3");
	lc_ok(&t, "kill", "--all", ID, "KILL");
	lc_wait_status(&t, ID, "stopped");
	lc_ok(&t, "delete", ID);
	struct stat st;
	cr_expect_neq(stat(dir, &st), 0, "%s left", dir);
	free(dir);
	free(rel);
}

/* Creates ID in the cgroup named NAME (cgt_use_path) and returns its devices.list. */
static char *created_devices_list(const struct lc *t, const char *name)
{
	lc_ok(t, "create", "--bundle", t->bundle, ID);
	char *rel = cgt_rel(name);
	char *dir = cgt_dir("devices", rel);
	char *list = ctt_read_file(ctt_path(dir, "devices.list"));
	free(dir);
	free(rel);
	return list;
}

/* runc 1.1.5's devices.list for a deny-all config, in its order: mknod of any node, then the
 * standard devices (null, zero, full, random, urandom, tty, ptmx, tun, the pty slaves). */
#define RUNC_DEVICES_LIST                                                                      \
	"b *:* m\nc *:* m\nc 1:3 rwm\nc 1:5 rwm\nc 1:7 rwm\nc 1:8 rwm\nc 1:9 rwm\nc 5:0 rwm\n" \
	"c 5:2 rwm\nc 10:200 rwm\nc 136:* rwm\n"

#define DENY_ALL_DEVICES "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}"

/* Devices: deny all, then runc's list. Inside, with Podman's capabilities (CAP_MKNOD), any
 * node can be made, as package scripts do, and only the standard ones opened. */
Test(cgroup, devices_allow_list)
{
	struct lc t;
	cgroup_box(&t, "devices", "devices", NULL);
	ctt_config_set(t.bundle, ".linux.resources", DENY_ALL_DEVICES);
	char *list = created_devices_list(&t, "devices");
	cr_expect_str_eq(list, RUNC_DEVICES_LIST);
	free(list);
	lc_ok(&t, "delete", "--force", ID);
	char *caps = lc_shared_config_value("podman-default.json", ".process.capabilities");
	ctt_config_set(t.bundle, ".process.capabilities", caps);
	free(caps);
	ctt_config_set(t.bundle, ".linux.resources", "{\"devices\": []}");
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_assert_sh_output(&t,
			    "echo x > /dev/null && echo null-ok; "
			    "mknod /tmp/blk b 7 0 && echo blk-made; "
			    "cat /tmp/blk 2>/dev/null || echo blk-denied; "
			    "mknod /tmp/mem c 1 1 && echo mem-made; "
			    "cat /tmp/mem >/dev/null 2>&1 || echo mem-denied",
			    "null-ok\nblk-made\nblk-denied\nmem-made\nmem-denied\n");
}

/* The same bundle under runc (Debian's 1.1.5) when it is installed: its devices.list and
 * ctrun's are the same text. */
Test(cgroup, devices_list_is_runcs_for_the_same_bundle)
{
	need_v1_hierarchy("devices");
	char *runc = ctt_which("runc");
	if (!runc)
		ctt_skip("runc is not installed (Debian's runc package): nothing to compare with");
	struct lc t;
	lc_init(&t);
	ctt_config_set(t.bundle, ".linux.resources", DENY_ALL_DEVICES);
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	cgt_use_path(&t, "by-runc");
	char *runc_root = ctt_tmpdir();
	struct ctt_result r;
	ctt_run(&r, NULL, LC_ARGV(runc, "--root", runc_root, "create", "--bundle", t.bundle, ID));
	cr_assert_eq(r.status, 0, "runc create: %s", r.err);
	ctt_result_free(&r);
	char *rel = cgt_rel("by-runc");
	char *dir = cgt_dir("devices", rel);
	char *by_runc = ctt_read_file(ctt_path(dir, "devices.list"));
	ctt_run(&r, NULL, LC_ARGV(runc, "--root", runc_root, "delete", "--force", ID));
	cr_expect_eq(r.status, 0, "runc delete: %s", r.err);
	ctt_result_free(&r);
	cgt_use_path(&t, "devices");
	char *by_ctrun = created_devices_list(&t, "devices");
	cr_expect_str_eq(by_ctrun, by_runc);
	free(by_ctrun);
	free(by_runc);
	free(dir);
	free(rel);
	free(runc_root);
	free(runc);
}

/* linux.devices nodes are made, but the device filter is the config's alone, as under runc
 * and crun: a node with a rule of its own (Podman's --device /dev/kmsg:/dev/kmsg:r) gets
 * that access (no "m" added: the standard rules allow mknod of any node), one without a
 * rule (here /dev/loop-control) none. */
Test(cgroup, device_filter_is_the_configs_whatever_linux_devices_lists)
{
	struct lc t;
	cgroup_box(&t, "devices", "devrule", NULL);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/kmsg\",\"type\":\"c\",\"major\":1,\"minor\":11}");
	lc_config_append(&t, ".linux.devices",
			 "{\"path\":\"/dev/loop-control\",\"type\":\"c\",\"major\":10,"
			 "\"minor\":237}");
	ctt_config_set(t.bundle, ".linux.resources",
		       "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"},"
		       "{\"allow\": true, \"type\": \"c\", \"major\": 1, \"minor\": 11, "
		       "\"access\": \"r\"}]}");
	char *list = created_devices_list(&t, "devrule");
	cr_expect(strstr(list, "c 1:11 r\n"), "the rule's access alone:\n%s", list);
	cr_expect_null(strstr(list, "c 10:237"), "a node without a rule allowed:\n%s", list);
	free(list);
	lc_ok(&t, "delete", "--force", ID);
	/* inside: both nodes are there (root in the container owns them); the one without a
	 * rule does not open, the read-only one does not open for writing */
	lc_assert_sh_output(&t,
			    "ls /dev/loop-control /dev/kmsg; "
			    "(true > /dev/loop-control) 2>&1 | grep -o 'Operation not permitted'; "
			    "(echo x > /dev/kmsg) 2>&1 | grep -o 'Operation not permitted'",
			    "/dev/kmsg\n/dev/loop-control\nOperation not permitted\n"
			    "Operation not permitted\n");
}

/* On a hybrid host the container is also born in its cgroup2 directory. */
Test(cgroup, hybrid_unified_placement)
{
	char *unified = cgt_dir("", "");
	if (!unified || !cgt_dir("memory", ""))
		ctt_skip("not a hybrid host");
	free(unified);
	struct lc t;
	cgroup_box(&t, NULL, "hybrid", NULL);
	struct ctt_result r;
	lc_ctrun(&r, &t, "--debug", "create", "--bundle", t.bundle, ID);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "born in its cgroup (CLONE_INTO_CGROUP)"), "%s", r.err);
	ctt_result_free(&r);
	char *rel = cgt_rel("hybrid");
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", lc_pid(&t, ID));
	assert_file("", rel, "cgroup.procs", pid);
	lc_ok(&t, "delete", "--force", ID);
	char *dir = cgt_dir("", rel);
	struct stat st;
	cr_expect_neq(stat(dir, &st), 0, "%s left", dir);
	free(dir);
	free(rel);
	lc_assert_sh_output(&t, "cat /proc/self/cgroup | grep '^0::'", "0::/\n");
}

/* An empty tmpfs over .../unified (how crun 1.8 is run on this host, and how make bench runs
 * every runtime) hides the cgroup2 tree: plain v1, nothing made on the tmpfs. */
Test(cgroup, tmpfs_over_unified_leaves_plain_v1)
{
	need_v1_hierarchy("memory");
	if (!cgt_dir("", ""))
		ctt_skip("no cgroup2 on /sys/fs/cgroup/unified");
	struct lc t;
	cgroup_box(&t, NULL, "hidden", NULL);
	/* a limit keeps the memory join after the cgroup namespace is made, so the line inside
	 * names the cgroup (without one it is joined first and reads "/") */
	ctt_config_set(t.bundle, ".linux.resources", "{\"memory\": {\"limit\": 268435456}}");
	const char *wrap[] = {"unshare",
			      "-m",
			      "--propagation",
			      "private",
			      "sh",
			      "-c",
			      "mount -t tmpfs none /sys/fs/cgroup/unified && \"$@\"; rc=$?; "
			      "ls -A /sys/fs/cgroup/unified; exit $rc",
			      "sh",
			      NULL};
	t.wrapper = wrap;
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "grep -E '^[0-9]+:(memory|):' /proc/self/cgroup");
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* the two lines of the container, then nothing that ls found on the tmpfs */
	size_t lines = 0;
	for (const char *p = r.out; (p = strchr(p, '\n')); p++)
		lines++;
	cr_expect(ctt_matches(r.out, "^[0-9]+:memory:/.*/hidden$"), "not in its memory cgroup:\n%s",
		  r.out);
	cr_expect(ctt_matches(r.out, "^0::/$"), "in the hidden cgroup2 tree:\n%s", r.out);
	cr_expect_eq(lines, 2, "made on the tmpfs:\n%s", r.out);
	ctt_result_free(&r);
	t.wrapper = NULL;
	lc_assert_nothing_left(&t);
}

/* Without a cgroup namespace the view is still the container's own cgroup, bound (a fresh
 * mount would show the hierarchies from their roots, the tests' subtree among them). */
Test(cgroup, own_view_without_a_cgroup_namespace)
{
	struct lc t;
	cgroup_box(&t, "pids", "nocgns", NULL);
	lc_namespace_set(&t, "cgroup", NULL);
	ctt_config_set(t.bundle, ".linux.resources", "{\"pids\": {\"limit\": 20}}");
	char script[256];
	snprintf(script, sizeof(script),
		 "cat /sys/fs/cgroup/pids/pids.max; read p < /sys/fs/cgroup/pids/cgroup.procs; "
		 "echo $p; ls /sys/fs/cgroup/pids /sys/fs/cgroup/unified | grep -c %s; true",
		 cgt_subtree());
	lc_assert_sh_output(&t, script, "20\n1\n0\n");
}

/* Another container's cgroup (same path, another --root) is never joined nor removed. */
Test(cgroup, populated_cgroup_of_another_is_refused)
{
	need_v1_hierarchy("pids");
	struct lc a, b;
	lc_init(&a);
	lc_init(&b);
	cgt_use_path(&a, "shared");
	cgt_use_path(&b, "shared");
	lc_ok(&a, "create", "--bundle", a.bundle, ID);
	lc_assert_fails(&b, LC_ARGV("create", "--bundle", b.bundle, ID),
			"exists and has processes");
	lc_assert_nothing_left(&b);
	cr_expect(ctt_alive(lc_pid(&a, ID)), "the first container's init was killed");
	lc_ok(&a, "delete", "--force", ID);
}

/* The major:minor of a whole disk of this machine (/sys/block/vda/dev), or false. */
static bool some_disk(char *buf, size_t size)
{
	static const char *const disks[] = {"vda", "sda", "nvme0n1", "xvda"};
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		char path[64];
		snprintf(path, sizeof(path), "/sys/block/%s/dev", disks[i]);
		if (!ctt_exists(path))
			continue;
		char *text = ctt_read_file(path);
		snprintf(buf, size, "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
		return true;
	}
	return false;
}

Test(cgroup, block_io_throttles_per_device)
{
	need_v1_hierarchy("blkio");
	char dev[32];
	if (!some_disk(dev, sizeof(dev)))
		ctt_skip("no whole disk (vda, sda, nvme0n1, xvda) to throttle");
	unsigned major, minor;
	cr_assert_eq(sscanf(dev, "%u:%u", &major, &minor), 2, "%s", dev);
	struct lc t;
	cgroup_box(&t, NULL, "blkio", NULL);
	char json[512];
	snprintf(
		json, sizeof(json),
		"{\"blockIO\": {\"throttleReadBpsDevice\": [{\"major\": %u, \"minor\": %u, "
		"\"rate\": 1048576}], \"throttleWriteIOPSDevice\": [{\"major\": %u, \"minor\": %u, "
		"\"rate\": 100}]}}",
		major, minor, major, minor);
	ctt_config_set(t.bundle, ".linux.resources", json);
	lc_ok(&t, "create", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("blkio"), want[64];
	snprintf(want, sizeof(want), "%s 1048576", dev);
	assert_file("blkio", rel, "blkio.throttle.read_bps_device", want);
	snprintf(want, sizeof(want), "%s 100", dev);
	assert_file("blkio", rel, "blkio.throttle.write_iops_device", want);
	free(rel);
	lc_ok(&t, "delete", "--force", ID);
}

/* A controller the host does not mount cannot take its field: refused, naming both. */
Test(cgroup, field_of_an_unmounted_controller_is_refused)
{
	need_v1_hierarchy("memory");
	char *net_cls = cgt_dir("net_cls", "");
	if (net_cls) {
		free(net_cls);
		ctt_skip("net_cls is mounted here: nothing to refuse");
	}
	struct lc t;
	cgroup_box(&t, NULL, "netcls", "{\"network\": {\"classID\": 1048577}}");
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID),
			".linux.resources.network.classID", "net_cls controller is not mounted");
	lc_assert_nothing_left(&t);
}

/* memory.kernel: the kernel dropped kmem limits; a warning, the container runs. */
Test(cgroup, kernel_memory_is_a_deprecation_warning)
{
	struct lc t;
	cgroup_box(&t, "memory", "kmem", "{\"memory\": {\"kernel\": 67108864}}");
	lc_set_args(&t, LC_ARGV("/bin/true"));
	struct ctt_result r;
	lc_ctrun(&r, &t, "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, ".linux.resources.memory.kernel") && strstr(r.err, "deprecated"),
		  "no deprecation warning: %s", r.err);
	ctt_result_free(&r);
}

/* memory.useHierarchy as runc 1.1.5 takes it: never written (this kernel refuses a 0, the
 * runtime-spec's example asks for one); false is a warning, true says nothing. Either way
 * the container runs in a hierarchical memory cgroup, seen from outside and inside. */
Test(cgroup, use_hierarchy_is_ignored_as_runc_does)
{
	need_v1_hierarchy("memory");
	for (int value = 0; value <= 1; value++) {
		struct lc t;
		lc_init(&t);
		const char *name = value ? "uh-true" : "uh-false";
		cgt_use_path(&t, name);
		ctt_config_set(t.bundle, ".linux.resources",
			       value ? "{\"memory\": {\"useHierarchy\": true}}"
				     : "{\"memory\": {\"useHierarchy\": false}}");
		lc_set_args(&t, LC_ARGV("sleep", "1000"));
		struct ctt_result r;
		lc_ctrun(&r, &t, "run", "--detach", "--bundle", t.bundle, ID);
		cr_assert_eq(r.status, 0, "useHierarchy %d: %s", value, r.err);
		bool warned = strstr(r.err, ".linux.resources.memory.useHierarchy: false: ignored");
		cr_expect_eq(warned, !value, "useHierarchy %d: stderr: %s", value, r.err);
		ctt_result_free(&r);
		char *rel = cgt_rel(name);
		assert_file("memory", rel, "memory.use_hierarchy", "1");
		lc_ctrun(&r, &t, "exec", ID, "cat", "/sys/fs/cgroup/memory/memory.use_hierarchy");
		cr_expect_eq(r.status, 0, "exec: %s", r.err);
		cr_expect_str_eq(r.out, "1\n");
		ctt_result_free(&r);
		lc_ok(&t, "delete", "--force", ID);
		free(rel);
	}
}

/* A frozen task dies of SIGKILL only once thawed: delete --force of a container frozen
 * through its freezer still leaves nothing. */
Test(cgroup, delete_force_of_a_frozen_container)
{
	struct lc t;
	cgroup_box(&t, "freezer", "frozen", NULL);
	lc_set_script(&t, "sleep 1000 & wait");
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char *rel = cgt_rel("frozen");
	char *dir = cgt_dir("freezer", rel);
	char *state = ctt_path(dir, "freezer.state");
	ctt_write_file(state, "FROZEN");
	lc_ok(&t, "delete", "--force", ID);
	struct stat st;
	cr_expect_neq(stat(dir, &st), 0, "%s left", dir);
	free(state);
	free(dir);
	free(rel);
}
