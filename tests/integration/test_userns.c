/* User namespaces with id mappings, as root (config-linux.md#user-namespace-mappings): the
 * parent writes the maps of the init's new user namespace; inside, the process is root of
 * its namespace, the host sees the mapped ids; mknod is refused there, so devices are bound
 * from the host; a bind of a host mount keeps the flags the kernel locks; the mount check
 * passes with all of it. The rootfs belongs to the mapped root (as with runc, whose tests
 * chown it too), the bundle is searchable by it. Id-mapped binds (config.md "idmap") show
 * host files through the container's mapping or their own. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/host_null.h"
#include "tests/lib/container.h"

#define ID	 "uns"
#define HOST_ID	 100000
#define MAP_SIZE 65536
#define VERIFIED "mounts verified with "

TestSuite(userns, .fini = lc_cleanup);

/* Sets the uid and gid maps (the same ranges for both) from a JSON array. */
static void set_mappings(const struct lc *t, const char *ranges)
{
	ctt_config_set(t->bundle, ".linux.uidMappings", ranges);
	ctt_config_set(t->bundle, ".linux.gidMappings", ranges);
}

/* A busybox bundle in a new user namespace mapping 0 -> HOST_ID for MAP_SIZE ids. */
static void userns_init(struct lc *t)
{
	lc_init(t);
	lc_map_root(t, HOST_ID, MAP_SIZE);
}

/* A host directory owned by uid (searchable), bound read-write at dest. */
static char *bind_host_dir(const struct lc *t, const char *dest, unsigned uid)
{
	char *dir = ctt_tmpdir();
	ctt_make_searchable(dir);
	cr_assert_eq(chown(dir, uid, uid), 0, "chown %s", dir);
	lc_add_mount(t, dest, "bind", dir, "bind,rw");
	return dir;
}

/* name (a JSON string) in the bounding, effective and permitted sets. */
static void add_capability(const struct lc *t, const char *name)
{
	static const char *const sets[] = {"bounding", "effective", "permitted"};
	char *quoted = ctt_json_quote(name);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		char path[64];
		snprintf(path, sizeof(path), ".process.capabilities.%s", sets[i]);
		lc_config_append(t, path, quoted);
	}
	free(quoted);
}

/* `--debug run` of script: exit 0, stdout returned, the mount check in the log. */
static char *debug_run_verified(const struct lc *t, const char *script)
{
	lc_set_script(t, script);
	struct ctt_result r;
	lc_ctrun(&r, t, "--debug", "run", "--bundle", t->bundle, ID);
	cr_assert_eq(r.status, 0, "run: exit %d\nstdout: %s\nstderr: %s", r.status, r.out, r.err);
	cr_expect_not_null(strstr(r.err, VERIFIED), "no mount check in the log:\n%s", r.err);
	char *out = r.out;
	r.out = NULL;
	ctt_result_free(&r);
	return out;
}

static void stat_owner(const char *path, unsigned uid, unsigned gid)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "stat %s", path);
	cr_expect_eq(st.st_uid, uid, "%s: owner %u, expected %u", path, st.st_uid, uid);
	cr_expect_eq(st.st_gid, gid, "%s: group %u, expected %u", path, st.st_gid, gid);
}

/* method: the clone call the debug log must name. */
static void assert_root_inside(const char *const *enosys_args, const char *method)
{
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	userns_init(&t);
	lc_wrap_enosys(&t, wrapper, enosys_args);
	struct ctt_result r;
	lc_debug_run_sh(&r, &t, ID, "id -u; id -g; cat /proc/self/uid_map /proc/self/gid_map");
	cr_assert_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	cr_expect(ctt_matches(r.out, "^0\n0\n *0 +100000 +65536\n *0 +100000 +65536\n$"),
		  "got:\n%s", r.out);
	char needle[64];
	snprintf(needle, sizeof(needle), "spawned with %s\n", method);
	cr_expect_not_null(strstr(r.err, needle), "not %s:\n%s", method, r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* oomScoreAdj in a user namespace, below the caller's (Docker with --userns-remap: the shim
 * runs at its daemon's + 1, the config says 0): the init, born undumpable, can no longer
 * open its own /proc file there, so the parent writes it, as runc writes it before its init
 * leaves the host's user namespace. Inside: 0; outside, the init's pid shows it too. */
Test(userns, oom_score_adj_below_the_callers_is_written)
{
	ctt_write_file("/proc/self/oom_score_adj", "1");
	struct lc t;
	userns_init(&t);
	ctt_config_set(t.bundle, ".process.oomScoreAdj", "0");
	lc_assert_sh_output(&t, "cat /proc/self/oom_score_adj", "0\n");
	lc_ok(&t, "create", "--bundle", t.bundle, "oom");
	char *path;
	cr_assert_geq(asprintf(&path, "/proc/%d/oom_score_adj", (int)lc_pid(&t, "oom")), 0);
	char *outside = ctt_read_file(path);
	cr_expect_str_eq(outside, "0\n", "the init's value seen from the host");
	free(outside);
	free(path);
	lc_ok(&t, "delete", "-f", "oom");
}

Test(userns, process_is_root_inside_with_the_mapping)
{
	assert_root_inside(NULL, "clone3");
}

/* clone() with CLONE_PIDFD where clone3 is refused: the same namespaces, the same maps. */
Test(userns, process_is_root_inside_with_clone_fallback)
{
	static const char *const no_clone3[] = {"clone3", NULL};
	assert_root_inside(no_clone3, "clone");
}

/* The init cannot become root where 0 is not mapped: its error comes back, nothing is
 * left. */
Test(userns, mapping_without_root_fails_in_the_init_and_leaves_nothing)
{
	struct lc t;
	userns_init(&t);
	set_mappings(&t, "[{\"containerID\": 1, \"hostID\": 100001, \"size\": 1000}]");
	lc_set_script(&t, "true");
	lc_assert_fails(&t, LC_ARGV("create", "--bundle", t.bundle, ID),
			"set gid 0 in the user namespace", "Invalid argument");
	lc_assert_nothing_left(&t);
}

Test(userns, file_created_in_a_bound_host_dir_is_owned_by_the_mapped_root)
{
	struct lc t;
	userns_init(&t);
	char *dir = bind_host_dir(&t, "/data", HOST_ID);
	lc_assert_sh_output(&t, "touch /data/made && stat -c '%u:%g' /data/made", "0:0\n");
	char *made = ctt_path(dir, "made");
	stat_owner(made, HOST_ID, HOST_ID);
	free(made);
	free(dir);
	lc_assert_nothing_left(&t);
}

Test(userns, several_ranges_map_each_its_ids)
{
	struct lc t;
	userns_init(&t);
	set_mappings(&t, "[{\"containerID\": 0, \"hostID\": 100000, \"size\": 1000},"
			 " {\"containerID\": 1000, \"hostID\": 300000, \"size\": 1000}]");
	add_capability(&t, "CAP_CHOWN");
	char *dir = bind_host_dir(&t, "/data", HOST_ID);
	char *out =
		lc_sh_output(&t, "cat /proc/self/uid_map; touch /data/low /data/high && "
				 "chown 7:7 /data/low && chown 1500:1500 /data/high && echo ok");
	cr_expect(ctt_matches(out, "^ *0 +100000 +1000\n *1000 +300000 +1000\nok\n$"), "got:\n%s",
		  out);
	char *low = ctt_path(dir, "low"), *high = ctt_path(dir, "high");
	stat_owner(low, 100007, 100007);
	stat_owner(high, 300500, 300500);
	free(low);
	free(high);
	free(out);
	free(dir);
	lc_assert_nothing_left(&t);
}

Test(userns, an_id_outside_the_mapping_shows_as_nobody)
{
	struct lc t;
	userns_init(&t);
	char *dir = bind_host_dir(&t, "/data", 0); /* host root: not mapped */
	char *file = ctt_path(dir, "by-host-root");
	ctt_write_file(file, "x");
	cr_assert_eq(chown(file, 4242, 0), 0);
	lc_assert_sh_output(&t, "stat -c '%u:%g' /data /data/by-host-root",
			    "65534:65534\n65534:65534\n");
	free(file);
	free(dir);
	lc_assert_nothing_left(&t);
}

Test(userns, devices_are_bound_from_the_host_and_work)
{
	struct lc t;
	userns_init(&t);
	/* bound, not made: the mountinfo root of /dev/null is the host node's */
	char *out = lc_sh_output(&t, "stat -c '%t:%T %F' /dev/null /dev/zero; echo x > /dev/null "
				     "&& head -c 5 /dev/zero | wc -c; "
				     "grep -c ' /null /dev/null ' /proc/self/mountinfo");
	cr_expect_str_eq(out, "1:3 character special file\n1:5 character special file\n5\n1\n");
	free(out);
	lc_assert_nothing_left(&t);
}

/* Podman's and containerd's privileged configs list the default nodes in linux.devices too:
 * in a user namespace each is bound again over the default's bind, as runc does. */
Test(userns, a_default_node_listed_in_the_devices_is_bound_again)
{
	struct lc t;
	userns_init(&t);
	lc_config_append(&t, ".linux.devices",
			 "{\"path\": \"/dev/null\", \"type\": \"c\", \"major\": 1, \"minor\": 3, "
			 "\"fileMode\": 438, \"uid\": 0, \"gid\": 0}");
	char *out = lc_sh_output(&t, "stat -c '%t:%T %F' /dev/null; echo x > /dev/null && "
				     "grep -c ' /null /dev/null ' /proc/self/mountinfo");
	cr_expect_str_eq(out, "1:3 character special file\n2\n");
	free(out);
	lc_assert_nothing_left(&t);
}

/* A config's mount over /dev/null, the first default node: in a user namespace the host's node
 * is bound over it, as runc 1.1.5 does (its mountinfo shows the mount, then /null over it). */
Test(userns, a_config_mount_on_a_default_node_is_bound_over)
{
	struct lc t;
	userns_init(&t);
	lc_add_mount(&t, "/dev/null", "bind", "/dev/zero", "bind");
	lc_assert_sh_output(&t,
			    "stat -c '%t:%T' /dev/null; head -c 2 /dev/null | wc -c; "
			    "grep ' /dev/null ' /proc/self/mountinfo | cut -d' ' -f4",
			    "1:3\n0\n/zero\n/null\n");
	lc_assert_nothing_left(&t);
}

#define NULL_AND_MASKED "stat -c '%a %u:%g %t:%T' /dev/null /etc/passwd"

/* The host's /dev/null owned by the container's root (as crun leaves it after a run that had
 * it as stdio): the container's root could change it, ctrun changes nothing of it (mode,
 * owner, ctime) while it binds it in, over a masked file, and in place of an image's
 * /dev/null that is a symlink to it, with it as the stdin of ctrun and of the process. */
Test(userns, host_null_owned_by_the_containers_root_is_left_as_it_was)
{
	struct host_null host_null;
	hn_guard(&host_null, ctt_tmpdir(), HOST_ID);
	struct lc t;
	userns_init(&t);
	lc_config_append(&t, ".linux.maskedPaths", "\"/etc/passwd\"");
	lc_assert_sh_output(&t, NULL_AND_MASKED, "666 0:0 1:3\n666 0:0 1:3\n");
	hn_assert_untouched(&host_null, "a run with a /dev tmpfs");
	static const char *const dev[] = {"/dev/pts", "/dev/shm", "/dev/mqueue", "/dev"};
	for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		lc_remove_mount(&t, dev[i]);
	char *null = lc_rootfs_path(&t, "dev/null");
	unlink(null);
	cr_assert_eq(symlink("/dev/null", null), 0, "symlink %s: %s", null, strerror(errno));
	free(null);
	lc_assert_sh_output(&t, NULL_AND_MASKED, "666 0:0 1:3\n666 0:0 1:3\n");
	hn_assert_untouched(&host_null, "a run with the image's /dev");
	lc_assert_nothing_left(&t);
}

/* --cgroup-manager disabled enforces no device rule, but in a user namespace mknod of a
 * device is refused even with CAP_MKNOD: the deny-all rule Podman sends is taken. */
Test(userns, cgroup_manager_disabled_takes_device_rules_with_cap_mknod)
{
	struct lc t;
	userns_init(&t);
	add_capability(&t, "CAP_MKNOD");
	ctt_config_set(t.bundle, ".linux.resources",
		       "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}");
	lc_set_script(&t, "grep -c '^CapBnd:.*[89a-f]......$' /proc/self/status; "
			  "mknod /dev/host-mem c 1 1 2>&1 | grep -o 'Operation not permitted'");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--cgroup-manager", "disabled", "run", "--bundle", t.bundle, ID);
	cr_expect_eq(r.status, 0, "run: exit %d\nstderr: %s", r.status, r.err);
	cr_expect_not_null(strstr(r.err, ".linux.resources.devices: not enforced without a cgroup"),
			   "no warning:\n%s", r.err);
	cr_expect_str_eq(r.out, "1\nOperation not permitted\n",
			 "CAP_MKNOD (bit 27) in the bounding set, mknod refused:\n%s", r.out);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

/* The fstype of each mount point, one per line, from the container's mountinfo. */
#define FSTYPES_OF(points)                                                                         \
	"for m in " points "; do awk -v m=$m '$5 == m { sub(/.* - /, \"\"); split($0, f, \" \"); " \
	"t = f[1] } END { print m, t }' /proc/self/mountinfo; done"

/* The per-mount flags of the mount at point, one per line. */
#define FLAGS_OF(point) "awk '$5 == \"" point "\" { print $6 }' /proc/self/mountinfo | tr , '\\n'"

Test(userns, default_mounts_come_out_and_pass_the_mount_check)
{
	struct lc t;
	userns_init(&t);
	char *out = debug_run_verified(
		&t, FSTYPES_OF("/proc /sys /dev /dev/pts /dev/mqueue /dev/shm /sys/fs/cgroup"));
	cr_expect(ctt_matches(out, "^/proc proc\n/sys sysfs\n/dev tmpfs\n/dev/pts devpts\n"
				   "/dev/mqueue mqueue\n/dev/shm tmpfs\n/sys/fs/cgroup "
				   "(cgroup2|tmpfs)\n$"),
		  "got:\n%s", out);
	free(out);
	lc_assert_nothing_left(&t);
}

/* sysfs needs a network namespace the user namespace owns: without one it is the host's
 * /sys, bound read-only, and the check accepts it as that bind. */
Test(userns, without_network_namespace_sys_is_the_hosts_bound)
{
	struct lc t;
	userns_init(&t);
	lc_namespace_set(&t, "network", NULL);
	char *out = debug_run_verified(
		&t, FSTYPES_OF("/sys") "; " FLAGS_OF("/sys") " | grep -x ro; "
							     "ls /sys/class/net | grep -c .");
	/* the host's interfaces are there: at least lo */
	cr_expect(ctt_matches(out, "^/sys sysfs\nro\n[1-9][0-9]*\n$"), "got:\n%s", out);
	free(out);
	lc_assert_nothing_left(&t);
}

/* A host tmpfs mounted nosuid,nodev,noexec: in the user namespace those flags are locked, a
 * bind of it asked "ro" keeps them (the kernel refuses clearing them), and the check
 * accepts the extra flags the source had. */
static void assert_bind_keeps_locked_flags(const char *const *enosys_args)
{
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	userns_init(&t);
	lc_wrap_enosys(&t, wrapper, enosys_args);
	char *host = ctt_tmpdir();
	ctt_make_searchable(host);
	ctt_mount_tmpfs(host, MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=1m,mode=755");
	lc_add_mount(&t, "/locked", "bind", host, "bind,ro");
	free(host);
	char *out = debug_run_verified(&t, FLAGS_OF("/locked") " | grep -v relatime | sort");
	cr_expect_str_eq(out, "nodev\nnoexec\nnosuid\nro\n");
	free(out);
	lc_assert_nothing_left(&t);
}

Test(userns, bind_of_a_locked_mount_keeps_its_flags)
{
	assert_bind_keeps_locked_flags(NULL);
}

Test(userns, bind_of_a_locked_mount_keeps_its_flags_with_mount2)
{
	static const char *const no_new_api[] = {"fsopen,fsmount,fsconfig,open_tree,move_mount",
						 NULL};
	assert_bind_keeps_locked_flags(no_new_api);
}

/* readlink of /proc/<pid>/ns/<name>, malloc'd. */
static char *ns_link(pid_t pid, const char *name)
{
	char path[64], buf[128];
	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, name);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	cr_assert_gt(n, 0, "readlink %s", path);
	buf[n] = '\0';
	return strdup(buf);
}

/* Container "a" (created, in a user namespace of its own) and a bundle b whose config joins
 * a's namespaces of each type in types (NULL-terminated); returns a's init pid. */
static pid_t join_a_created_container(struct lc *a, struct lc *b, const char *const *types)
{
	userns_init(a);
	userns_init(b);
	lc_set_script(a, "sleep 60");
	lc_ok(a, "create", "--bundle", a->bundle, "a");
	pid_t pid = lc_pid(a, "a");
	for (; *types; types++) {
		char json[128];
		snprintf(json, sizeof(json), "{\"type\": \"%s\", \"path\": \"/proc/%d/ns/%s\"}",
			 *types, (int)pid, *types);
		lc_namespace_set(b, *types, json);
	}
	return pid;
}

/* The namespaces the joining container makes are made inside the joined user namespace:
 * else it could not mount its proc (its pid namespace would be the host's user's). With
 * mappings kept in the config, they are the joined namespace's, not written. */
static void assert_joins_the_user_namespace_of_another(bool keep_mappings)
{
	struct lc a, b;
	pid_t pid = join_a_created_container(&a, &b, (const char *const[]){"user", NULL});
	if (!keep_mappings) {
		ctt_config_set(b.bundle, ".linux.uidMappings", NULL);
		ctt_config_set(b.bundle, ".linux.gidMappings", NULL);
	}
	char *out = debug_run_verified(&b, "readlink /proc/self/ns/user; id -u; "
					   "cat /proc/self/uid_map; readlink /proc/1/ns/pid");
	char *a_user = ns_link(pid, "user"), *a_pid = ns_link(pid, "pid");
	size_t n = strlen(a_user);
	cr_assert(strncmp(out, a_user, n) == 0 && out[n] == '\n',
		  "user namespace:\n%s\nexpected %s", out, a_user);
	cr_expect(ctt_matches(out + n + 1, "^0\n *0 +100000 +65536\npid:\\[[0-9]+\\]\n$"),
		  "got:\n%s", out);
	cr_expect_null(strstr(out, a_pid), "shares the pid namespace of a:\n%s", out);
	lc_ok(&a, "delete", "--force", "a");
	lc_assert_nothing_left(&a);
	lc_assert_nothing_left(&b);
	free(a_pid);
	free(a_user);
	free(out);
}

Test(userns, joins_the_user_namespace_of_another_container)
{
	assert_joins_the_user_namespace_of_another(false);
}

/* Docker with --userns-remap writes the remapped ids with the user namespace it joins
 * (`docker run --ipc container:X`, `--pid`, `--network container:X`), as runc 1.1.5 takes. */
Test(userns, joins_the_user_namespace_of_another_with_its_mappings_written_too)
{
	assert_joins_the_user_namespace_of_another(true);
}

/* The path of the "0::" line (cgroup2) and of the memory hierarchy's line of
 * /proc/PID/cgroup, malloc'd in *unified and *memory. */
static void cgroup_paths(pid_t pid, char **unified, char **memory)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	char *text = ctt_read_file(path);
	const char *u = strstr(text, "\n0::"), *m = strstr(text, ":memory:");
	cr_assert(u && m, "%s: %s", path, text);
	*unified = strndup(u + 4, strcspn(u + 4, "\n"));
	*memory = strndup(m + 8, strcspn(m + 8, "\n"));
	free(text);
}

/* Joining another container's user and pid namespaces (Docker --userns-remap with
 * `--pid container:X`): the joiner, in that pid namespace, sees the init as pid 3 or so,
 * which on the host is another process. The state and every cgroup get the host's pid of
 * the init, as its pidfd says. Outside: the recorded pid's NSpid ends in the joined
 * namespace and the process is in the container's cgroup in cgroup2 as in v1 (hybrid). */
Test(userns, joining_user_and_pid_namespaces_records_the_hosts_pid)
{
	struct lc a, b;
	pid_t pid = join_a_created_container(&a, &b, (const char *const[]){"user", "pid", NULL});
	lc_set_script(&b, "sleep 60");
	lc_ok(&b, "create", "--bundle", b.bundle, "b");
	pid_t init = lc_pid(&b, "b");
	char *a_pid = ns_link(pid, "pid"), *b_pid = ns_link(init, "pid");
	cr_expect_str_eq(b_pid, a_pid, "pid %d is not in a's pid namespace", (int)init);
	char path[64], want[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)init);
	snprintf(want, sizeof(want), "\nNSpid:\t%d\t", (int)init);
	char *status = ctt_read_file(path);
	cr_expect_not_null(strstr(status, want), "the recorded pid %d is not the host's:\n%s",
			   (int)init, status);
	char *unified, *memory;
	cgroup_paths(init, &unified, &memory);
	/* v1 may sit below the test's own place (a supervisor's memory cgroup): the same end */
	size_t lu = strlen(unified), lm = strlen(memory);
	if (access("/sys/fs/cgroup/unified/cgroup.procs", F_OK) == 0)
		cr_expect(lu > 1 && lm >= lu && strcmp(memory + lm - lu, unified) == 0,
			  "cgroup2 and v1 places differ: %s %s", unified, memory);
	lc_ok(&b, "delete", "--force", "b");
	lc_ok(&a, "delete", "--force", "a");
	lc_assert_nothing_left(&a);
	lc_assert_nothing_left(&b);
	free(unified), free(memory), free(status), free(a_pid), free(b_pid);
}

/* config.md "idmap": a host directory of host root's, id-mapped with the container's own
 * mapping, is root's inside; what the container's root makes there is host root's. */
Test(userns, idmapped_bind_takes_the_containers_mapping)
{
	struct lc t;
	userns_init(&t);
	char *dir = bind_host_dir(&t, "/unmapped", 0);
	lc_add_mount(&t, "/mapped", "bind", dir, "bind,idmap");
	char *file = ctt_path(dir, "by-host-root");
	ctt_write_file(file, "x");
	char *out = debug_run_verified(&t, "stat -c '%u:%g' /unmapped/by-host-root "
					   "/mapped/by-host-root; touch /mapped/made; " FLAGS_OF(
						   "/mapped") " | grep -x idmapped");
	cr_expect_str_eq(out, "65534:65534\n0:0\nidmapped\n");
	char *made = ctt_path(dir, "made");
	stat_owner(made, 0, 0);
	free(made);
	free(out);
	free(file);
	free(dir);
	lc_assert_nothing_left(&t);
}

/* Its own mappings, recursive ("ridmap") into a submount of the source. */
Test(userns, ridmapped_bind_takes_its_own_mappings_into_submounts)
{
	struct lc t;
	userns_init(&t);
	char *host = ctt_tmpdir();
	ctt_make_searchable(host);
	ctt_mount_tmpfs(host, 0, "size=1m,mode=755");
	char *sub = ctt_path(host, "sub");
	ctt_mkdir_p(sub);
	ctt_mount_tmpfs(sub, 0, "size=1m,mode=755");
	char *file = ctt_path(sub, "f");
	ctt_write_file(file, "x");
	cr_assert_eq(chown(file, 3, 4), 0);
	lc_add_mount(&t, "/own", "bind", host, "rbind,ridmap");
	ctt_config_set(t.bundle, ".mounts[7].uidMappings",
		       "[{\"containerID\": 0, \"hostID\": 100010, \"size\": 100}]");
	ctt_config_set(t.bundle, ".mounts[7].gidMappings",
		       "[{\"containerID\": 0, \"hostID\": 100020, \"size\": 100}]");
	/* on disk 3:4 -> host 100013:100024 -> inside 13:24 */
	char *out = debug_run_verified(&t, "stat -c '%u:%g' /own/sub/f");
	cr_expect_str_eq(out, "13:24\n");
	free(out);
	free(file);
	free(sub);
	free(host);
	lc_assert_nothing_left(&t);
}

/* A new filesystem id-mapped (made by the parent, where the kernel allows it): a tmpfs
 * with the container's mapping ("idmap") is its root's, and what root makes there is
 * HOST_ID's as the host sees it; one with its own mappings shows its root directory (host
 * root's, 0 on disk) as their containerID 0: 10:20 inside. */
Test(userns, idmapped_tmpfs_is_owned_by_the_containers_root)
{
	struct lc t;
	userns_init(&t);
	lc_add_mount(&t, "/scratch", "tmpfs", "tmpfs", "idmap,mode=755,size=1m");
	lc_add_mount(&t, "/own", "tmpfs", "tmpfs", "mode=755,size=1m");
	ctt_config_set(t.bundle, ".mounts[8].uidMappings",
		       "[{\"containerID\": 0, \"hostID\": 100010, \"size\": 100}]");
	ctt_config_set(t.bundle, ".mounts[8].gidMappings",
		       "[{\"containerID\": 0, \"hostID\": 100020, \"size\": 100}]");
	char *out = debug_run_verified(
		&t, "stat -c '%u:%g' /scratch; touch /scratch/f; "
		    "stat -c '%u:%g' /scratch/f /own; " FLAGS_OF("/scratch") " | grep -x idmapped");
	cr_expect_str_eq(out, "0:0\n0:0\n10:20\nidmapped\n");
	free(out);
	/* from outside, through the container's root: the file root made is HOST_ID's */
	lc_set_script(&t, "touch /scratch/f; sleep 1000");
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	char path[96];
	snprintf(path, sizeof(path), "/proc/%d/root/scratch/f", (int)lc_pid(&t, ID));
	ctt_wait_file(path);
	stat_owner(path, HOST_ID, HOST_ID);
	lc_ok(&t, "delete", "--force", ID);
	lc_assert_nothing_left(&t);
}

/* proc and mqueue take no id-mapped mount: create fails naming the mount and the
 * filesystem, and leaves nothing. */
Test(userns, idmapped_proc_or_mqueue_fails_naming_the_mount)
{
	static const char *const types[] = {"proc", "mqueue"};
	for (size_t i = 0; i < 2; i++) {
		struct lc t;
		userns_init(&t);
		lc_add_mount(&t, "/fs", types[i], types[i], "idmap");
		char why[64];
		snprintf(why, sizeof(why), "id-map the %s mount (%s takes no id-mapped mounts)",
			 types[i], types[i]);
		lc_assert_create_refused(&t, ID, LC_ARGV("mount #7 \"/fs\"", why));
	}
}

/* runc's order: the namespaces to join are joined before the user namespace is made, so a
 * new user namespace can share the host's network (which it could not join from inside);
 * sysfs is then the host's, bound. */
Test(userns, new_user_namespace_joins_the_hosts_network_namespace)
{
	struct lc t;
	userns_init(&t);
	char json[128];
	snprintf(json, sizeof(json), "{\"type\": \"network\", \"path\": \"/proc/%d/ns/net\"}",
		 (int)getpid());
	lc_namespace_set(&t, "network", json);
	char *out =
		debug_run_verified(&t, "readlink /proc/self/ns/net; id -u; " FSTYPES_OF("/sys"));
	char *host_net = ns_link(getpid(), "net"), *want;
	cr_assert_geq(asprintf(&want, "%s\n0\n/sys sysfs\n", host_net), 0);
	cr_expect_str_eq(out, want);
	free(want);
	free(host_net);
	free(out);
	lc_assert_nothing_left(&t);
}

static void assert_mappings_refused(const char *ranges, const char *path, const char *why)
{
	struct lc t;
	userns_init(&t);
	set_mappings(&t, ranges);
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "true");
	ctt_assert_error(&r, path, why);
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
}

Test(userns, overlapping_mappings_are_refused)
{
	assert_mappings_refused("[{\"containerID\": 0, \"hostID\": 100000, \"size\": 1000},"
				" {\"containerID\": 999, \"hostID\": 300000, \"size\": 10}]",
				"config.json: .linux.uidMappings[1]:",
				"containerID range overlaps that of .linux.uidMappings[0]");
}

Test(userns, overlapping_mount_mappings_are_refused)
{
	struct lc t;
	userns_init(&t);
	char *dir = bind_host_dir(&t, "/data", 0);
	ctt_config_set(t.bundle, ".mounts[7].uidMappings",
		       "[{\"containerID\": 0, \"hostID\": 0, \"size\": 10},"
		       " {\"containerID\": 20, \"hostID\": 5, \"size\": 10}]");
	ctt_config_set(t.bundle, ".mounts[7].gidMappings",
		       "[{\"containerID\": 0, \"hostID\": 0, \"size\": 10}]");
	struct ctt_result r;
	lc_run_sh(&r, &t, ID, "true");
	ctt_assert_error(&r, "config.json: .mounts[7].uidMappings[1]:",
			 "hostID range overlaps that of .mounts[7].uidMappings[0]");
	ctt_result_free(&r);
	free(dir);
	lc_assert_nothing_left(&t);
}

Test(userns, mapping_of_size_zero_is_refused)
{
	assert_mappings_refused("[{\"containerID\": 0, \"hostID\": 100000, \"size\": 0}]",
				"config.json: .linux.uidMappings[0].size:", "must be at least 1");
}

/* exec joins the container's user namespace with the others (through a joiner: in one
 * setns on the init's pidfd, or by its namespace files without pidfd_open) and is root of
 * it, the host seeing the mapped ids. */
static void assert_exec_joins_the_user_namespace(const char *const *enosys_args)
{
	struct lc t;
	const char *wrapper[LC_WRAPPER_MAX];
	userns_init(&t);
	lc_wrap_enosys(&t, wrapper, enosys_args);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	struct ctt_result r;
	lc_ctrun(&r, &t, "exec", ID, "sh", "-c",
		 "id -u; cat /proc/self/uid_map; readlink /proc/self/ns/user; touch /made-by-exec");
	cr_assert_eq(r.status, 0, "exec: exit %d\nstderr: %s", r.status, r.err);
	char path[64], userns[128] = "";
	snprintf(path, sizeof(path), "/proc/%d/ns/user", lc_pid(&t, ID));
	cr_assert_gt(readlink(path, userns, sizeof(userns) - 1), 0);
	cr_expect(ctt_matches(r.out, "^0\n *0 +100000 +65536\n"), "got:\n%s", r.out);
	cr_expect(strstr(r.out, userns), "not the init's user namespace %s:\n%s", userns, r.out);
	ctt_result_free(&r);
	char *made = ctt_path(t.bundle, "rootfs/made-by-exec");
	stat_owner(made, HOST_ID, HOST_ID);
	free(made);
}

Test(userns, exec_joins_the_user_namespace)
{
	assert_exec_joins_the_user_namespace(NULL);
}

Test(userns, exec_joins_the_user_namespace_without_pidfd_open)
{
	assert_exec_joins_the_user_namespace(LC_ARGV("pidfd_open"));
}

/* tmpcopyup as rootless Podman has it: the image's owners are ids of the container's user
 * namespace, and the copy in the tmpfs (made inside that namespace) keeps them. Outside,
 * the image still has only what it had. */
Test(userns, tmpcopyup_keeps_the_mapped_owners)
{
	struct lc t;
	userns_init(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	char *data = lc_rootfs_path(&t, "data"), *file = lc_rootfs_path(&t, "data/f");
	ctt_mkdir_p(data);
	ctt_write_file(file, "image\n");
	cr_assert_eq(chown(data, HOST_ID, HOST_ID), 0);
	cr_assert_eq(chown(file, HOST_ID + 5, HOST_ID + 6), 0);
	cr_assert_eq(chmod(file, 0604), 0);
	lc_add_mount(&t, "/data", "tmpfs", "tmpfs", "tmpcopyup");
	char *out = lc_sh_output(&t, "stat -c '%u:%g %a' /data/f; cat /data/f; touch /data/new; "
				     "grep -c ' /data .* tmpfs ' /proc/self/mountinfo");
	cr_expect_str_eq(out, "5:6 604\nimage\n1\n");
	char *planted = lc_rootfs_path(&t, "data/new");
	cr_expect_not(ctt_exists(planted), "written into the image, not the tmpfs");
	lc_assert_nothing_left(&t);
	free(planted), free(out), free(file), free(data);
}

/* The inode of the user namespace that owns pid's namespace name (NS_GET_USERNS). */
static ino_t owner_of_namespace(pid_t pid, const char *name)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open %s: %s", path, strerror(errno));
	int owner = ioctl(fd, NS_GET_USERNS);
	cr_assert_geq(owner, 0, "NS_GET_USERNS of %s: %s", path, strerror(errno));
	struct stat st;
	cr_assert_eq(fstat(owner, &st), 0);
	close(owner);
	close(fd);
	return st.st_ino;
}

/* The container's IPC namespace, and with it the root of its mqueue, is made by its root:
 * /dev/mqueue is 0:0 inside (crun's; runc's nsexec gives 0:65534, differences-from-runc.md
 * mqueue-group-userns), the mapped root's outside. An IPC sysctl lands in that namespace. */
Test(userns, mqueue_of_its_ipc_namespace_belongs_to_its_root)
{
	struct lc t;
	userns_init(&t);
	ctt_config_set(t.bundle, ".linux.sysctl", "{\"kernel.msgmax\": \"4321\"}");
	char *out = debug_run_verified(&t, "stat -c '%u:%g %a' /dev/mqueue; "
					   "cat /proc/sys/kernel/msgmax");
	cr_expect_str_eq(out, "0:0 1777\n4321\n");
	free(out);

	lc_set_args(&t, LC_ARGV("sleep", "1000"));
	lc_ok(&t, "run", "--detach", "--bundle", t.bundle, ID);
	pid_t pid = lc_pid(&t, ID);
	char mqueue[64];
	snprintf(mqueue, sizeof(mqueue), "/proc/%d/root/dev/mqueue", (int)pid);
	struct stat st;
	cr_assert_eq(stat(mqueue, &st), 0, "stat %s: %s", mqueue, strerror(errno));
	cr_expect_eq(st.st_uid, HOST_ID, "%s: uid %u", mqueue, (unsigned)st.st_uid);
	cr_expect_eq(st.st_gid, HOST_ID, "%s: gid %u", mqueue, (unsigned)st.st_gid);
	char *ipc = ns_link(pid, "ipc"), *host_ipc = ns_link(getpid(), "ipc");
	cr_expect_str_neq(ipc, host_ipc, "the container shares the host's IPC namespace");
	struct stat user;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	cr_assert_eq(stat(path, &user), 0);
	cr_expect_eq(owner_of_namespace(pid, "ipc"), user.st_ino,
		     "the IPC namespace is not owned by the container's user namespace");
	lc_ok(&t, "delete", "--force", ID);
	free(host_ipc);
	free(ipc);
}

/* CVE-2023-25809: in a user namespace without a cgroup namespace, runc fell back to binding
 * the host's /sys/fs/cgroup writable. ctrun mounts the container's own cgroup, read-only as
 * the config asks, even with every capability in the container's user namespace. */
Test(userns, cgroup_without_cgroup_namespace_is_read_only)
{
	struct lc t;
	userns_init(&t);
	lc_namespace_set(&t, "cgroup", NULL);
	add_capability(&t, "CAP_SYS_ADMIN");
	char *out = lc_sh_output(
		&t, "for d in /sys/fs/cgroup /sys/fs/cgroup/*; do mkdir $d/ctrun-escape 2>&1 | "
		    "grep -q 'Read-only file system' || echo \"writable $d\"; done; echo end");
	cr_expect_str_eq(out, "end\n", "writable from inside:\n%s", out);
	free(out);
	lc_assert_nothing_left(&t);
}

/* The pid of a child reaped in strace output (wait4(P, ...) = P), 0 when none was. */
static long reaped_pid(const char *trace)
{
	for (const char *w = strstr(trace, "wait4("); w; w = strstr(w + 1, "wait4(")) {
		long pid = strtol(w + 6, NULL, 10);
		const char *eq = strstr(w, "= ");
		if (pid > 0 && eq && strtol(eq + 2, NULL, 10) == pid)
			return pid;
	}
	return 0;
}

/* A namespace joiner that fails (it cannot join the test's network namespace from the joined
 * user namespace) is reaped while its word is read: ctrun then killed that pid, by then free
 * for any process of the host to take. */
Test(userns, failed_joiner_is_not_killed_after_it_is_reaped)
{
	if (access("/usr/bin/strace", X_OK) != 0)
		cr_skip_test("no /usr/bin/strace to see the kill");
	struct lc a, b;
	join_a_created_container(&a, &b, (const char *const[]){"user", NULL});
	char json[128], *dir = ctt_tmpdir(), *trace = ctt_path(dir, "trace");
	snprintf(json, sizeof(json), "{\"type\": \"network\", \"path\": \"/proc/%d/ns/net\"}",
		 (int)getpid());
	lc_namespace_set(&b, "network", json);
	b.wrapper = (const char *const[]){"/usr/bin/strace", "-f", "-qq", "-o", trace, "-e",
					  "trace=kill,wait4", NULL};
	struct ctt_result r;
	lc_ctrun(&r, &b, "run", "--bundle", b.bundle, "b");
	cr_expect_neq(r.status, 0, "the join of the test's network namespace worked");
	ctt_assert_error(&r, "join network namespace");
	char *text = ctt_read_file(trace), killed[64];
	long joiner = reaped_pid(text);
	snprintf(killed, sizeof(killed), "kill(%ld, ", joiner);
	cr_expect(joiner > 0, "no joiner reaped:\n%s", text);
	cr_expect_null(strstr(text, killed), "the reaped joiner's pid was killed:\n%s", text);
	ctt_result_free(&r);
	lc_ok(&a, "delete", "--force", "a");
	lc_assert_nothing_left(&a);
	lc_assert_nothing_left(&b);
	free(text), free(trace), free(dir);
}
