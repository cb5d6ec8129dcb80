/* ctrun on a real Linux 6.1 (tests/vm/run-vm.sh: Debian's cloud kernel in qemu, software
 * emulation): there clone3 exists but fchmodat2 and statmount/listmount do not, so the
 * device modes and the mount check take their fallbacks without any seccomp filter.
 *
 * One boot runs every case below and the guest's own checks (uname, kernel_probe, features,
 * list). The first test of a run of the suite boots the guest and keeps its console in
 * BUILD/vm/console.<key>, the key naming the Criterion runner process; the other tests of
 * that run read it. Each test judges one part of what the guest printed. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/integration/lifecycle_util.h"

TestSuite(vm, .fini = lc_cleanup);

/* Downloading the kernel (once) and booting under emulation: generous, never a threshold. */
#define VM_RUN_TIMEOUT_MS (300 * 1000)
#define SKIP_STATUS	  77

/* ---- the cases the guest runs ---- */

/* What the container says of itself: its hostname, its pid and its devices' modes. */
#define IDENTITY                                                                 \
	"hostname; echo pid=$$; "                                                \
	"ls -l /dev/null /dev/zero /dev/full /dev/random /dev/urandom /dev/tty " \
	"/dev/vmdev; exit 7"

/* The default devices and one of mode 0640, which no umask makes of mknod's mode. */
static void identity(const struct lc *t)
{
	lc_config_append(t, ".linux.devices",
			 "{\"path\": \"/dev/vmdev\", \"type\": \"c\", \"major\": 1, "
			 "\"minor\": 3, \"fileMode\": 416, \"uid\": 0, \"gid\": 0}");
	lc_set_script(t, IDENTITY);
}

/* Binds and tmpfs with options (mount_setattr, fsconfig on 6.1): a read-only bind of the
 * bundle's rootfs/etc, a tmpfs with data and flags, an rbind with rro, nosymfollow, and a
 * slave bind of rootfs/shared, which the parent sees but a shared tmpfs covers. */
static void many_mounts(const struct lc *t)
{
	char *shared = lc_rootfs_path(t, "shared");
	ctt_mkdir_p(shared);
	free(shared);
	lc_add_mount(t, "/ro", "bind", "rootfs/etc", "bind,ro,nosuid");
	lc_add_mount(t, "/t", "tmpfs", "tmpfs", "size=1m,mode=0700,noatime,nodev,noexec");
	lc_add_mount(t, "/rro", "bind", "rootfs/etc", "rbind,rro,rnodev");
	lc_add_mount(t, "/strict", "tmpfs", "tmpfs", "strictatime,nosymfollow,nodiratime");
	lc_add_mount(t, "/shared", "tmpfs", "tmpfs", "shared");
	lc_add_mount(t, "/slave", "bind", "rootfs/shared", "bind,slave");
	lc_set_script(t, "grep -E ' /(ro|t|rro|strict|shared|slave) ' /proc/self/mountinfo; "
			 "if touch /ro/x 2>/dev/null; then echo ro-writable; fi; "
			 "touch /shared/f && ls /slave; "
			 "stat -c 'mode %a' /t; head -n1 /ro/passwd");
}

/* cgroup v2: limits written as the v2 files want them (cpu.max, cpu.weight from shares,
 * memory.max, swap as memory+swap, a unified key), read by the container from its own
 * cgroup2 mount in its cgroup namespace. */
static void cgroup_v2_limits(const struct lc *t)
{
	ctt_config_set(t->bundle, ".linux.resources",
		       "{\"memory\": {\"limit\": 67108864, \"swap\": 100663296},"
		       " \"cpu\": {\"shares\": 1024, \"quota\": 25000, \"period\": 50000},"
		       " \"pids\": {\"limit\": 32},"
		       " \"unified\": {\"memory.high\": \"50331648\"}}");
	lc_set_script(t, "cd /sys/fs/cgroup; cat memory.max memory.swap.max memory.high "
			 "pids.max cpu.max cpu.weight; grep '^0::' /proc/self/cgroup");
}

/* A unified key the kernel has no file for: refused, nothing left (cgroups-left). */
static void cgroup_v2_unknown_key(const struct lc *t)
{
	ctt_config_set(t->bundle, ".linux.resources", "{\"unified\": {\"memory.bogus\": \"1\"}}");
	lc_set_script(t, "echo ran");
}

/* /bin/true under 224 KiB on cgroup v2, where the init is born in its cgroup
 * (CLONE_INTO_CGROUP) and so everything it touches while setting up is charged there: seen
 * from outside by a script (the limit in memory.max, the state, no OOM kill, the exit code
 * of run) and from inside by a container that reads its own memory.max under that limit. */
#define TINY_LIMIT "229376"

#define TINY_SCRIPT                                                                           \
	"b=$1 n=$2; R='ctrun --root /run/ctrun'\n"                                            \
	"$R create --bundle $b $n || exit 1\n"                                                \
	"cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/$($R state $n | sed -n "                 \
	"'s/.*\"pid\": \\([0-9]*\\).*/\\1/p')/cgroup)\n"                                      \
	"echo memory.max $(cat $cg/memory.max)\n"                                             \
	"$R start $n; echo start rc $?; i=0; while ! $R state $n | grep -q '\"stopped\"' && " \
	"[ $i -lt 500 ]; do sleep 0.02; i=$((i+1)); done; $R state $n | grep '\"status\"'\n"  \
	"grep '^oom_kill ' $cg/memory.events; $R delete $n; echo delete rc $?\n"              \
	"$R run --bundle $b $n; echo run rc $?\n"

static void tiny_limit(const struct lc *t)
{
	ctt_config_set(t->bundle, ".linux.resources", "{\"memory\": {\"limit\": " TINY_LIMIT "}}");
	lc_set_args(t, LC_ARGV("/bin/true"));
}

/* 64 KiB: less than the set-up itself needs, charged from the init's birth on cgroup v2. */
static void too_small_limit(const struct lc *t)
{
	ctt_config_set(t->bundle, ".linux.resources", "{\"memory\": {\"limit\": 65536}}");
	lc_set_args(t, LC_ARGV("/bin/true"));
}

static void tiny_limit_inside(const struct lc *t)
{
	tiny_limit(t);
	lc_set_args(t, LC_ARGV("cat", "/sys/fs/cgroup/memory.max"));
}

struct vm_case {
	const char *name;		   /* the container's id and hostname */
	void (*setup)(const struct lc *t); /* makes the bundle's config */
	const char *stage;		   /* "initramfs", or NULL: after the switch to tmpfs */
	const char *args;		   /* between --root and --bundle; NULL: --debug run */
	const char *script; /* instead of one ctrun: `sh script BUNDLE ID` in the guest */
};

/* pause, resume, update and the device filter on cgroup v2, in one script of commands: the
 * container counts in /count and reports in /node.st what opening /node (c 1:99, a minor of
 * mem with no driver behind it) gives: "denied" by the device filter (EPERM), or let through
 * to the driver, which answers ENXIO ("allowed"). The deny-all rules of `ctrun spec` refuse
 * it until an update of the device rules allows it. */
#define CGCMD_COUNTER                                                                   \
	"i=0; while :; do i=$((i+1)); echo $i > /count.tmp; mv /count.tmp /count; "     \
	"if head -c 0 /node 2>/node.err; then echo opened; "                            \
	"elif grep -q 'not permitted' /node.err; then echo denied; else echo allowed; " \
	"fi > /node.tmp; mv /node.tmp /node.st; sleep 0.02; done"

#define CGCMD_SCRIPT                                                                               \
	"b=$1 n=$2 r=\"$1/rootfs\"; R='ctrun --root /run/ctrun'\n"                                 \
	"wait_for() { i=0; while ! eval \"$1\" && [ $i -lt 500 ]; do sleep 0.02; "                 \
	"i=$((i+1)); done; eval \"$1\"; }\n"                                                       \
	"$R run -d --bundle $b $n || exit 1\n"                                                     \
	"wait_for '[ -e $r/node.st ]'; echo node $(cat $r/node.st)\n"                              \
	"cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/$($R state $n | sed -n "                      \
	"'s/.*\"pid\": \\([0-9]*\\).*/\\1/p')/cgroup)\n"                                           \
	"$R pause $n; echo pause rc $?; $R state $n | grep '\"status\"'\n"                         \
	"c1=$(cat $r/count); sleep 0.3; [ \"$(cat $r/count)\" = \"$c1\" ] && echo frozen\n"        \
	"$R pause $n 2>&1\n"                                                                       \
	"$R resume $n; echo resume rc $?; $R state $n | grep '\"status\"'\n"                       \
	"wait_for '[ $(cat $r/count) -gt $c1 ]' && echo thawed\n"                                  \
	"devcg_check --count $cg\n"                                                                \
	"$R update --pids-limit 7 --memory 64m $n; echo update rc $?\n"                            \
	"echo pids.max $(cat $cg/pids.max) memory.max $(cat $cg/memory.max)\n"                     \
	"e=$($R events --stats $n); echo \"$e\" | grep -o "                                        \
	"'^{\"type\":\"stats\",\"id\":\"cgcmd\"'\n"                                                \
	"echo \"$e\" | grep -o '\"usage\":{\"limit\":67108864'; echo \"$e\" | grep -o "            \
	"'\"limit\":7}'\n"                                                                         \
	"echo '{\"devices\": [{\"allow\": false}, {\"allow\": true, \"type\": \"c\", "             \
	"\"major\": 1, \"minor\": 99, \"access\": \"r\"}]}' | $R update -r - $n\n"                 \
	"echo devices rc $?; wait_for 'grep -q allowed $r/node.st'; echo node $(cat $r/node.st)\n" \
	"devcg_check --count $cg; $R delete --force $n; echo delete rc $?\n"

static void cgroup_commands(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	char *node = lc_rootfs_path(t, "node");
	cr_assert_eq(mknod(node, S_IFCHR | 0644, makedev(1, 99)), 0, "mknod %s", node);
	free(node);
	lc_set_script(t, CGCMD_COUNTER);
}

/* events on cgroup v2: a hog the kernel OOM-kills in the container (a child of the init,
 * which lives on) is an "oom" record of `events`, which ends when the container is deleted. */
#define OOM_SCRIPT                                                                         \
	"b=$1 n=$2; R='ctrun --root /run/ctrun'\n"                                         \
	"$R run -d --bundle $b $n || exit 1\n"                                             \
	"$R events --interval 60s $n > /tmp/events.$n & ev=$!\n"                           \
	"touch $b/rootfs/go; i=0; while [ ! -e $b/rootfs/killed ] && [ $i -lt 1500 ]; do " \
	"sleep 0.02; i=$((i+1)); done; echo hog $(cat $b/rootfs/killed)\n"                 \
	"i=0; while ! grep -q oom /tmp/events.$n && [ $i -lt 500 ]; do sleep 0.02; "       \
	"i=$((i+1)); done; grep -o '^{\"type\":\"oom\",\"id\":\"'$n'\"' /tmp/events.$n\n"  \
	"$R delete --force $n; echo delete rc $?; wait $ev; echo events rc $?\n"

static void oom_hog(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	ctt_config_set(t->bundle, ".linux.resources", "{\"memory\": {\"limit\": 8388608}}");
	lc_set_script(t, "while [ ! -e /go ]; do sleep 0.02; done; tail /dev/zero; "
			 "echo $? > /killed; sleep 1000");
}

/* Podman's capabilities (CAP_MKNOD) and its deny-all device list: the eBPF filter lets the
 * container make any node, as runc's rules do, and open only the standard ones. */
static void mknod_any(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	char *caps = lc_shared_config_value("podman-default.json", ".process.capabilities");
	ctt_config_set(t->bundle, ".process.capabilities", caps);
	free(caps);
	ctt_config_set(t->bundle, ".linux.resources",
		       "{\"devices\": [{\"allow\": false, \"access\": \"rwm\"}]}");
	lc_set_script(t, "mknod /blk b 7 0 && echo blk-made; "
			 "head -c 0 /blk 2>/dev/null || echo blk-denied; "
			 "echo x > /dev/null && echo null-ok");
}

/* Docker 20.10's resources with limits and a blkio weight of 0 ("not set", as runc reads
 * it, where io.weight would refuse a 0), read back inside. */
static void docker_limits(const struct lc *t)
{
	char *res = lc_shared_config_value("docker-resources.json", ".linux.resources");
	ctt_config_set(t->bundle, ".linux.resources", res);
	free(res);
	lc_set_script(t, "cd /sys/fs/cgroup; cat memory.max memory.swap.max cpu.weight cpu.max "
			 "pids.max");
}

static const struct vm_case cases[] = {
	{"basic", identity, NULL, NULL},
	{"nopivot", identity, "initramfs", "--debug run --no-pivot"},
	{"pivot-initramfs", identity, "initramfs", "run"},
	{"covered", lc_covered_mounts, NULL, "run"},
	{"mounts", many_mounts, NULL, NULL},
	{"cgv2", cgroup_v2_limits, NULL, NULL},
	{"cgv2-bad", cgroup_v2_unknown_key, NULL, "run"},
	{"mknod", mknod_any, NULL, "run"},
	{"docker", docker_limits, NULL, "run"},
	{"cgcmd", cgroup_commands, NULL, NULL, CGCMD_SCRIPT},
	{"oom", oom_hog, NULL, NULL, OOM_SCRIPT},
	{"tiny", tiny_limit, NULL, NULL, TINY_SCRIPT},
	{"tiny-inside", tiny_limit_inside, NULL, "run"},
	{"too-small", too_small_limit, NULL, "run"},
};

/* The file name in dir of the case's setting, when it has one. */
static void write_case_file(const char *bundle, const char *name, const char *text)
{
	if (!text)
		return;
	char *path = ctt_path(bundle, name);
	ctt_write_file(path, text);
	free(path);
}

/* cases/NAME -> a bundle made as c says. */
static void make_case(const char *dir, const struct vm_case *c)
{
	struct lc t;
	lc_init(&t);
	char *host = lc_json_quote(c->name);
	ctt_config_set(t.bundle, ".hostname", host);
	free(host);
	c->setup(&t);
	write_case_file(t.bundle, "stage", c->stage);
	write_case_file(t.bundle, "ctrun-args", c->args);
	write_case_file(t.bundle, "script", c->script);
	char *link = ctt_path(dir, c->name);
	cr_assert_eq(symlink(t.bundle, link), 0, "symlink %s", link);
	free(link);
}

/* ---- one boot per run of the suite ---- */

/* "<runner pid>-<its start time>": a later run, even with the same pid, has another key. */
static void runner_key(char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", getppid());
	char *stat = ctt_read_file(path), *end = strrchr(stat, ')');
	unsigned long long start = 0;
	cr_assert_not_null(end, "%s: %s", path, stat);
	/* starttime is field 22; the text after ")" starts with field 3 */
	cr_assert_eq(sscanf(end + 1,
			    " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s "
			    "%*s %*s %*s %*s %*s %llu",
			    &start),
		     1, "%s: %s", path, stat);
	snprintf(buf, size, "%d-%llu", getppid(), start);
	free(stat);
}

/* BUILD/vm, next to $CTRUN: the kernel and its package are kept there between runs. */
static char *vm_cache_dir(void)
{
	char *ctrun = strdup(ctt_ctrun_path());
	char *dir = ctt_path(dirname(ctrun), "vm");
	free(ctrun);
	ctt_mkdir_p(dir);
	return dir;
}

/* Consoles of earlier runs go when a new one is made. */
static void remove_old_consoles(const char *cache)
{
	DIR *d = opendir(cache);
	cr_assert_not_null(d, "opendir %s", cache);
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, "console.", 8) == 0 && strcmp(e->d_name, "console.log")) {
			char *p = ctt_path(cache, e->d_name);
			unlink(p);
			free(p);
		}
	}
	closedir(d);
}

/* `@vm run rc N` and the script's stderr as `@vm run err LINE`, then the guest's lines. */
static char *run_record(const struct ctt_result *r)
{
	size_t size = r->out_len + r->err_len * 2 + 64;
	char *text = malloc(size), *p = text;
	cr_assert_not_null(text);
	p += sprintf(p, "@vm run rc %d\n", r->status);
	for (const char *line = r->err; *line;) {
		size_t n = strcspn(line, "\n");
		p += sprintf(p, "@vm run err %.*s\n", (int)n, line);
		line += n + (line[n] == '\n');
	}
	strcpy(p, r->out);
	return text;
}

/* Makes the cases, boots the guest and returns what it printed, run_record() form. */
static char *boot_guest(const char *cache)
{
	char *cases_dir = ctt_tmpdir();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		make_case(cases_dir, &cases[i]);
	char *script = ctt_path(getenv("CTRUN_SRC"), "tests/vm/run-vm.sh");
	char *helpers = strdup(ctt_helper("kernel_probe"));
	struct ctt_run_opts opts = {.timeout_ms = VM_RUN_TIMEOUT_MS};
	struct ctt_result r;
	ctt_run(&r, &opts,
		(const char *const[]){script, ctt_ctrun_path(), dirname(helpers), cases_dir, cache,
				      NULL});
	char *text = run_record(&r);
	ctt_result_free(&r);
	free(helpers);
	free(script);
	free(cases_dir);
	return text;
}

/* The lines `@vm name kind TEXT`, each TEXT with a newline, malloc'd ("" when none). */
static char *vm_text(const char *console, const char *name, const char *kind)
{
	char prefix[128];
	int plen = snprintf(prefix, sizeof(prefix), "@vm %s %s ", name, kind);
	char *text = calloc(1, strlen(console) + 1), *p = text;
	cr_assert_not_null(text);
	for (const char *line = console; *line;) {
		size_t n = strcspn(line, "\n");
		if (n >= (size_t)plen && strncmp(line, prefix, plen) == 0)
			p += sprintf(p, "%.*s\n", (int)(n - plen), line + plen);
		line += n + (line[n] == '\n');
	}
	return text;
}

/* The exit code the guest reported for name; fails when there is none. */
static int vm_rc(const char *console, const char *name)
{
	char *text = vm_text(console, name, "rc");
	int rc = -1;
	cr_assert_eq(sscanf(text, "%d", &rc), 1, "no exit code of \"%s\" in the console:\n%s", name,
		     console);
	free(text);
	return rc;
}

/* The guest's console for this run of the suite; skips when the harness cannot run here. */
static char *vm_console(void)
{
	char key[64];
	runner_key(key, sizeof(key));
	char *cache = vm_cache_dir(), *name = malloc(strlen(key) + 16);
	cr_assert_not_null(name);
	sprintf(name, "console.%s", key);
	char *file = ctt_path(cache, name);
	if (!ctt_exists(file)) {
		remove_old_consoles(cache);
		char *text = boot_guest(cache);
		ctt_write_file(file, text);
		free(text);
	}
	char *console = ctt_read_file(file);
	int rc = vm_rc(console, "run");
	char *why = vm_text(console, "run", "err");
	const char *reason = strstr(why, "run-vm: skip: ");
	if (rc == SKIP_STATUS)
		ctt_skip("%s", reason ? reason : why);
	cr_assert_eq(rc, 0, "run-vm.sh failed (exit %d):\n%s\nconsole:\n%s", rc, why, console);
	free(why);
	free(file);
	free(name);
	free(cache);
	return console;
}

/* A case as the result of running it: exit code, stdout and stderr. */
static void vm_result(struct ctt_result *r, const char *console, const char *name)
{
	*r = (struct ctt_result){.status = vm_rc(console, name)};
	r->out = vm_text(console, name, "out");
	r->err = vm_text(console, name, "err");
	r->out_len = strlen(r->out);
	r->err_len = strlen(r->err);
}

/* ---- what the guest printed ---- */

Test(vm, guest_kernel_is_linux_6_1_without_fchmodat2_and_statmount)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "uname");
	cr_expect(lc_matches(r.out, "^6\\.1\\.[0-9]+-"), "uname -r: %s", r.out);
	ctt_result_free(&r);
	vm_result(&r, console, "probe");
	cr_expect_eq(r.status, 0, "kernel_probe: %s", r.err);
	for (const char *const *want =
		     (const char *const[]){"clone3=yes", "openat2=yes", "new_mount_api=yes",
					   "fchmodat2=no", "statmount=no", "listmount=no", NULL};
	     *want; want++) {
		char re[64];
		snprintf(re, sizeof(re), "^%s$", *want);
		cr_expect(lc_matches(r.out, re), "kernel_probe lacks %s:\n%s", *want, r.out);
	}
	ctt_result_free(&r);
	free(console);
}

/* The container of case name ran its IDENTITY script as itself: pid 1, its hostname. */
static void assert_identity(const char *console, const char *name)
{
	struct ctt_result r;
	vm_result(&r, console, name);
	cr_expect_eq(r.status, 7, "%s: exit %d, stderr:\n%s", name, r.status, r.err);
	char *first = strndup(r.out, strcspn(r.out, "\n"));
	cr_expect_str_eq(first, name, "%s: hostname", name);
	cr_expect(lc_matches(r.out, "^pid=1$"), "%s: not pid 1:\n%s", name, r.out);
	cr_expect(lc_matches(r.err, " spawned with clone3$"), "%s: not clone3:\n%s", name, r.err);
	cr_expect(lc_matches(r.err, "mounts verified with mountinfo: [0-9]+ checked, 0 extra$"),
		  "%s: not verified with mountinfo:\n%s", name, r.err);
	free(first);
	ctt_result_free(&r);
}

Test(vm, container_runs_spawned_with_clone3_and_verified_with_mountinfo)
{
	char *console = vm_console();
	assert_identity(console, "basic");
	free(console);
}

Test(vm, devices_get_their_modes_without_fchmodat2)
{
	char *console = vm_console();
	char *out = vm_text(console, "basic", "out");
	for (const char *const *dev = (const char *const[]){"null", "zero", "full", "random",
							    "urandom", "tty", NULL};
	     *dev; dev++) {
		char re[64];
		snprintf(re, sizeof(re), "^crw-rw-rw- .* /dev/%s$", *dev);
		cr_expect(lc_matches(out, re), "/dev/%s is not crw-rw-rw-:\n%s", *dev, out);
	}
	cr_expect(lc_matches(out, "^crw-r----- .* /dev/vmdev$"), "/dev/vmdev not 0640:\n%s", out);
	free(out);
	free(console);
}

/* pivot_root cannot leave the initramfs root; --no-pivot runs there. */
Test(vm, no_pivot_runs_on_the_initramfs_root)
{
	char *console = vm_console();
	assert_identity(console, "nopivot");
	free(console);
}

Test(vm, pivot_root_on_the_initramfs_root_is_refused_naming_it)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "pivot-initramfs");
	lc_assert_error(&r, "create container \"pivot-initramfs\"", "pivot_root");
	cr_expect_str_empty(r.out, "the container ran:\n%s", r.out);
	ctt_result_free(&r);
	free(console);
}

Test(vm, mount_covered_by_a_later_one_is_refused_with_mountinfo)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "covered");
	lc_assert_error(&r, LC_COVERED_REFUSAL);
	cr_expect_str_empty(r.out, "the container ran:\n%s", r.out);
	ctt_result_free(&r);
	free(console);
}

Test(vm, ro_bind_and_tmpfs_options_come_out_as_asked)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "mounts");
	cr_assert_eq(r.status, 0, "exit %d, stderr:\n%s", r.status, r.err);
	cr_expect(lc_matches(r.out, " /ro ro,nosuid[ ,]"), "/ro not ro,nosuid:\n%s", r.out);
	cr_expect(lc_matches(r.out, " /t rw,nodev,noexec,noatime( [^ ]+)* - tmpfs tmpfs "
				    "rw,size=1024k,mode=700[ ,]"),
		  "/t not as asked:\n%s", r.out);
	cr_expect(lc_matches(r.out, "^mode 700$"), "/t mode:\n%s", r.out);
	cr_expect(lc_matches(r.out, "^root:x:0:0:"), "/ro is not rootfs/etc:\n%s", r.out);
	cr_expect_null(strstr(r.out, "ro-writable"), "/ro is writable:\n%s", r.out);
	ctt_result_free(&r);
	free(console);
}

Test(vm, recursive_ro_nosymfollow_and_propagation_come_out_as_asked)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "mounts");
	cr_assert_eq(r.status, 0, "exit %d, stderr:\n%s", r.status, r.err);
	cr_expect(lc_matches(r.out, " /rro ro,nodev[ ,]"), "/rro not ro,nodev:\n%s", r.out);
	cr_expect(lc_matches(r.out, " /strict rw,nodiratime,nosymfollow "), "/strict:\n%s", r.out);
	cr_expect(lc_matches(r.out, " /shared rw,[^ ]* shared:[0-9]+ - tmpfs "), "/shared:\n%s",
		  r.out);
	cr_expect(lc_matches(r.out, " /slave rw,[^ ]* master:[0-9]+ - tmpfs "), "/slave:\n%s",
		  r.out);
	cr_expect(lc_matches(r.out, "^f$"), "/slave is not a bind of the /shared tmpfs:\n%s",
		  r.out);
	ctt_result_free(&r);
	free(console);
}

/* libct/cgroup/bpf_devices.c on 6.1's cgroup2: the helper's child in a cgroup of its own
 * gets what the rules say, and the replacing program is the only one attached. */
Test(vm, device_filter_on_cgroup2)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "devcg");
	cr_assert_eq(r.status, 0, "devcg_check: %s", r.err);
	cr_expect_str_eq(r.out, "programs 1\n"
				"r /dev/null ok\n"
				"w /dev/zero ok\n"
				"r /dev/kmsg Operation not permitted\n"
				"m b:7:0 ok\n"
				"mr c:1:11 made, open Operation not permitted\n"
				"programs 1\n"
				"r /dev/kmsg ok\n"
				"w /dev/kmsg Operation not permitted\n");
	cr_expect_str_empty(r.err);
	ctt_result_free(&r);
	free(console);
}

Test(vm, mknod_of_any_node_but_open_only_the_standard_on_cgroup2)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "mknod");
	cr_expect_eq(r.status, 0, "exit %d, stderr:\n%s", r.status, r.err);
	cr_expect_str_eq(r.out, "blk-made\nblk-denied\nnull-ok\n");
	ctt_result_free(&r);
	free(console);
}

Test(vm, pause_resume_update_and_devices_on_cgroup2)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "cgcmd");
	cr_expect_eq(r.status, 0, "stdout:\n%s\nstderr:\n%s", r.out, r.err);
	cr_expect_str_eq(r.out,
			 "node denied\n"
			 "pause rc 0\n"
			 "  \"status\": \"paused\",\n"
			 "frozen\n"
			 "ctrun: pause container \"cgcmd\": cannot pause a container that is "
			 "paused\n"
			 "resume rc 0\n"
			 "  \"status\": \"running\",\n"
			 "thawed\n"
			 "programs 1\n"
			 "update rc 0\n"
			 "pids.max 7 memory.max 67108864\n"
			 "{\"type\":\"stats\",\"id\":\"cgcmd\"\n"
			 "\"usage\":{\"limit\":67108864\n"
			 "\"limit\":7}\n"
			 "devices rc 0\n"
			 "node allowed\n"
			 "programs 1\n"
			 "delete rc 0\n");
	ctt_result_free(&r);
	free(console);
}

Test(vm, oom_kill_on_cgroup2_is_an_events_record)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "oom");
	cr_expect_eq(r.status, 0, "stdout:\n%s\nstderr:\n%s", r.out, r.err);
	cr_expect_str_eq(r.out, "hog 137\n"
				"{\"type\":\"oom\",\"id\":\"oom\"\n"
				"delete rc 0\n"
				"events rc 0\n");
	ctt_result_free(&r);
	free(console);
}

Test(vm, features_names_the_mountinfo_backend)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "features");
	cr_assert_eq(r.status, 0, "features: %s", r.err);
	yajl_val doc = ctt_json_parse(r.out, "ctrun features in the guest");
	const char *backend =
		ctt_json_get_string(doc, ".annotations[\"org.ctrun.mounts.backend\"]");
	cr_expect(backend && strcmp(backend, "mountinfo") == 0, "backend: %s",
		  backend ? backend : "(none)");
	yajl_tree_free(doc);
	ctt_result_free(&r);
	free(console);
}

/* Neither stage left a container behind (a failed create removes what it made). */
Test(vm, no_container_is_left_in_the_guest)
{
	char *console = vm_console();
	for (const char *const *stage = (const char *const[]){"left-initramfs", "left-tmpfs", NULL};
	     *stage; stage++) {
		struct ctt_result r;
		vm_result(&r, console, *stage);
		cr_expect_eq(r.status, 0, "%s: list: %s", *stage, r.err);
		cr_expect_str_empty(r.out, "%s: left:\n%s", *stage, r.out);
		ctt_result_free(&r);
	}
	free(console);
}

Test(vm, cgroup_v2_limits_read_back_inside_and_born_in_the_cgroup)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "cgv2");
	cr_assert_eq(r.status, 0, "exit %d, stderr:\n%s", r.status, r.err);
	cr_expect_str_eq(r.out, "67108864\n33554432\n50331648\n32\n25000 50000\n39\n0::/\n");
	cr_expect(lc_matches(r.err, "cgroup /sys/fs/cgroup/ctrun/cgv2 made \\(v2 driver\\)$"),
		  "not the v2 driver:\n%s", r.err);
	cr_expect(lc_matches(r.err, "init born in its cgroup \\(CLONE_INTO_CGROUP\\)$"),
		  "not born in its cgroup:\n%s", r.err);
	ctt_result_free(&r);
	free(console);
}

Test(vm, docker_limits_on_cgroup2_with_zeros_unset)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "docker");
	cr_expect_eq(r.status, 0, "exit %d, stderr:\n%s", r.status, r.err);
	/* swap.max is memory+swap less memory; cpu.weight 20 is shares 512 */
	cr_expect_str_eq(r.out, "67108864\n67108864\n20\n50000 100000\n50\n");
	ctt_result_free(&r);
	free(console);
}

Test(vm, cgroup_v2_unknown_unified_key_is_refused)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "cgv2-bad");
	lc_assert_error(&r, ".linux.resources.unified[\"memory.bogus\"]", "does not exist");
	cr_expect_str_empty(r.out, "the container ran:\n%s", r.out);
	ctt_result_free(&r);
	free(console);
}

Test(vm, true_runs_under_224_kib_on_cgroup2)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "tiny");
	cr_expect_eq(r.status, 0, "stdout:\n%s\nstderr:\n%s", r.out, r.err);
	cr_expect_str_eq(r.out, "memory.max " TINY_LIMIT "\n"
				"start rc 0\n"
				"  \"status\": \"stopped\",\n"
				"oom_kill 0\n"
				"delete rc 0\n"
				"run rc 0\n");
	ctt_result_free(&r);
	vm_result(&r, console, "tiny-inside");
	cr_expect_eq(r.status, 0, "cat memory.max under 224 KiB: exit %d, stderr:\n%s", r.status,
		     r.err);
	cr_expect_str_eq(r.out, TINY_LIMIT "\n");
	ctt_result_free(&r);
	free(console);
}

/* An init the OOM killer ends during set-up: the error says so (the signal, not a bare "exited"),
 * and nothing is left (no_container_is_left, no_cgroup_is_left). */
Test(vm, init_killed_during_set_up_names_the_signal)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "too-small");
	lc_assert_error(&r, "create container \"too-small\"",
			"container init killed by signal 9 (SIGKILL) during set-up",
			"is the memory limit too small?");
	cr_expect_str_empty(r.out, "the container ran:\n%s", r.out);
	ctt_result_free(&r);
	free(console);
}

/* Every container's cgroup went with it: delete, run's end and the failed create. */
Test(vm, no_cgroup_is_left_in_the_guest)
{
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, "cgroups-left");
	cr_expect_eq(r.status, 0, "find: %s", r.err);
	cr_expect_str_empty(r.out, "left:\n%s", r.out);
	ctt_result_free(&r);
	free(console);
}
