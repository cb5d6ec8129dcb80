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

#include "tests/lib/container.h"
#include "tests/lib/rows.h"

TestSuite(vm, .fini = lc_cleanup);

/* Downloading the kernel (once) and booting under emulation: generous, never a threshold. */
#define VM_RUN_TIMEOUT_MS (900 * 1000)
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
	lc_add_option_mounts(t, "rootfs/etc");
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

/* The start of the scripts the guest runs on its host side: $1 the bundle ($b, its rootfs
 * $r), $2 the container's name ($n), $R ctrun on the guest's state root; wait_for polls
 * its command (eval'ed) a bounded number of times (the second argument, 500 by default). */
#define HOST_SCRIPT                                                                      \
	"b=$1 n=$2 r=\"$1/rootfs\"; R='ctrun --root /run/ctrun'\n"                       \
	"wait_for() { i=0; while ! eval \"$1\" && [ $i -lt ${2:-500} ]; do sleep 0.02; " \
	"i=$((i+1)); done; eval \"$1\"; }\n"
#define RUN_DETACHED "$R run -d --bundle $b $n || exit 1\n"
/* $cg: the cgroup2 directory of the container's init. */
#define INIT_CGROUP                                                           \
	"cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/$($R state $n | sed -n " \
	"'s/.*\"pid\": \\([0-9]*\\).*/\\1/p')/cgroup)\n"
#define DELETE_FORCED "$R delete --force $n; echo delete rc $?"

/* /bin/true under 224 KiB on cgroup v2, where the init is born in its cgroup
 * (CLONE_INTO_CGROUP) and so everything it touches while setting up is charged there: seen
 * from outside by a script (the limit in memory.max, the state, no OOM kill, the exit code
 * of run) and from inside by a container that reads its own memory.max under that limit. */
#define TINY_LIMIT "229376"

#define TINY_SCRIPT                                                                          \
	HOST_SCRIPT "$R create --bundle $b $n || exit 1\n" INIT_CGROUP                       \
		    "echo memory.max $(cat $cg/memory.max)\n"                                \
		    "$R start $n; echo start rc $?; wait_for \"$R state $n | grep -q "       \
		    "'\\\"stopped\\\"'\"; "                                                  \
		    "$R state $n | grep '\"status\"'\n"                                      \
		    "grep '^oom_kill ' $cg/memory.events; $R delete $n; echo delete rc $?\n" \
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
	const char *stage;  /* "initramfs", "cgroup-v1" (run-vm.sh), or NULL: after the switch */
	const char *args;   /* between --root and --bundle; NULL: --debug run */
	const char *script; /* instead of one ctrun: `sh script BUNDLE ID` in the guest */
	/* a checkpoint case's script: tests/vm/criu/NAME.sh after tests/vm/criu/lib.sh */
	const char *criu_script;
};

/* ---- checkpoint and restore with CRIU (tests/vm/criu/) ---- */

/* The process of every checkpoint case: a count in /log, one number a line, in memory
 * (the shell's i) and on disk; [and in /data/log with a bind there]. */
#define COUNTER(also) "i=0; while :; do i=$((i+1)); echo $i >> /log; " also "sleep 0.05; done"

/* Without a network namespace, as most cases need none (cr-netns has one). */
static void criu_counter(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	lc_namespace_set(t, "network", NULL);
	lc_set_script(t, COUNTER(""));
}

/* prestart and createRuntime hooks that keep the state they were given in
 * /tmp/cr-pidfile.KIND: at restore, criu's setup-namespaces runs them. */
#define KEEP_STATE \
	"[{\"path\": \"/bin/sh\", \"args\": [\"sh\", \"-c\", \"cat > /tmp/cr-pidfile.%s\"]}]"

static void criu_hooked(const struct lc *t)
{
	criu_counter(t);
	char hooks[512];
	snprintf(hooks, sizeof(hooks),
		 "{\"prestart\": " KEEP_STATE ", \"createRuntime\": " KEEP_STATE "}", "prestart",
		 "createRuntime");
	ctt_config_set(t->bundle, ".hooks", hooks);
}

/* A bind of a directory of the guest, which the case makes before the run. */
static void criu_bind(const struct lc *t)
{
	criu_counter(t);
	char *dir = lc_rootfs_path(t, "data");
	ctt_mkdir_p(dir);
	free(dir);
	lc_add_mount(t, "/data", "bind", "/tmp/cr-bind.data", "rbind,rw");
	lc_set_script(t, COUNTER("echo $i >> /data/log; "));
}

/* A POSIX lock held on /lockfile by a process of the container (tests/helpers/lock_holder). */
static void criu_lock(const struct lc *t)
{
	criu_counter(t);
	lc_install_helper(t, "lock_holder");
	lc_set_script(t, "lock_holder /lockfile & " COUNTER(""));
}

static void criu_cgroup(const struct lc *t)
{
	criu_counter(t);
	ctt_config_set(t->bundle, ".linux.resources",
		       "{\"memory\": {\"limit\": 67108864}, \"pids\": {\"limit\": 32}}");
}

/* A terminal, the count also written to it. */
static void criu_terminal(const struct lc *t)
{
	criu_counter(t);
	ctt_config_set(t->bundle, ".process.terminal", "true");
	lc_set_script(t, COUNTER("echo $i; "));
}

/* The count stops at /stop, the process exits 3. */
static void criu_stoppable(const struct lc *t)
{
	criu_counter(t);
	lc_set_script(t, "i=0; while [ ! -e /stop ]; do i=$((i+1)); echo $i >> /log; sleep 0.05; "
			 "done; exit 3");
}

/* criu's configuration file named by the annotation (tests/vm/criu/config.sh writes it). */
static void criu_configured(const struct lc *t)
{
	criu_counter(t);
	ctt_config_set(t->bundle, ".annotations", "{\"org.criu.config\": \"/tmp/cr-config.conf\"}");
}

/* With its own network namespace (loopback only), as `ctrun spec` and Podman make it. */
static void criu_netns(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	lc_set_script(t, COUNTER(""));
}

/* The count goes over an established TCP connection on the container's loopback: its
 * client sends it to its server, which writes it to /log. The server listens on :: (busybox
 * nc), port 4242 (0x1092 in /proc/net/tcp6); its stdin never ends, since at its end it
 * would shut its side of the connection and the client would stop. */
static void criu_tcp(const struct lc *t)
{
	criu_netns(t);
	lc_set_script(t, "sleep 1000000 | nc -l -p 4242 > /log & "
			 "until grep -q ':1092 0*:0000 0A' /proc/net/tcp6; do sleep 0.05; done; "
			 "i=0; while :; do i=$((i+1)); echo $i; sleep 0.05; done | "
			 "nc 127.0.0.1 4242");
}

/* lib.sh and the case's script, as one script for the guest. */
static char *criu_script(const char *name)
{
	char *dir = ctt_path(getenv("CTRUN_SRC"), "tests/vm/criu");
	char *lib_path = ctt_path(dir, "lib.sh");
	char *file = malloc(strlen(name) + 4);
	cr_assert_not_null(file);
	sprintf(file, "%s.sh", name);
	char *case_path = ctt_path(dir, file);
	char *lib = ctt_read_file(lib_path), *body = ctt_read_file(case_path);
	char *text = malloc(strlen(lib) + strlen(body) + 1);
	cr_assert_not_null(text);
	strcpy(text, lib);
	strcat(text, body);
	free(lib);
	free(body);
	free(case_path);
	free(file);
	free(lib_path);
	free(dir);
	return text;
}

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

#define CGCMD_SCRIPT                                                                            \
	HOST_SCRIPT RUN_DETACHED                                                                \
		"wait_for '[ -e $r/node.st ]'; echo node $(cat $r/node.st)\n" INIT_CGROUP       \
		"$R pause $n; echo pause rc $?; $R state $n | grep '\"status\"'\n"              \
		"c1=$(cat $r/count); sleep 0.3; [ \"$(cat $r/count)\" = \"$c1\" ] && echo "     \
		"frozen\n"                                                                      \
		"$R pause $n 2>&1\n"                                                            \
		"$R resume $n; echo resume rc $?; $R state $n | grep '\"status\"'\n"            \
		"wait_for '[ $(cat $r/count) -gt $c1 ]' && echo thawed\n"                       \
		"devcg_check --count $cg\n"                                                     \
		"$R update --pids-limit 7 --memory 64m $n; echo update rc $?\n"                 \
		"echo pids.max $(cat $cg/pids.max) memory.max $(cat $cg/memory.max)\n"          \
		"e=$($R events --stats $n); echo \"$e\" | grep -o "                             \
		"'^{\"type\":\"stats\",\"id\":\"cgcmd\"'\n"                                     \
		"echo \"$e\" | grep -o '\"usage\":{\"limit\":67108864'; echo \"$e\" | grep -o " \
		"'\"limit\":7}'\n"                                                              \
		"echo \"$e\" | grep -o '\"cpuset\":{\"cpu_exclusive\":0,\"mem_hardwall\":0'\n"  \
		"echo '{\"devices\": [{\"allow\": false}, {\"allow\": true, \"type\": \"c\", "  \
		"\"major\": 1, \"minor\": 99, \"access\": \"r\"}]}' | $R update -r - $n\n"      \
		"echo devices rc $?; wait_for 'grep -q allowed $r/node.st'; echo node $(cat "   \
		"$r/node.st)\n"                                                                 \
		"devcg_check --count $cg; " DELETE_FORCED "\n"

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
#define OOM_SCRIPT                                                                            \
	HOST_SCRIPT RUN_DETACHED                                                              \
		"$R events --interval 60s $n > /tmp/events.$n & ev=$!\n"                      \
		"touch $r/go; wait_for '[ -e $r/killed ]' 1500; echo hog $(cat $r/killed)\n"  \
		"wait_for 'grep -q oom /tmp/events.$n'; "                                     \
		"grep -o '^{\"type\":\"oom\",\"id\":\"'$n'\"' /tmp/events.$n\n" DELETE_FORCED \
		"; wait $ev; echo events rc $?\n"

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
	{"cr-counter", criu_counter, .criu_script = "counter"},
	{"cr-leave", criu_counter, .criu_script = "leave"},
	{"cr-pidfile", criu_hooked, .criu_script = "pidfile"},
	{"cr-nocriu", criu_counter, .criu_script = "nocriu"},
	{"cr-damaged", criu_counter, .criu_script = "damaged"},
	{"cr-predump", criu_counter, .criu_script = "predump"},
	{"cr-bind", criu_bind, .criu_script = "bind"},
	{"cr-cgroup", criu_cgroup, .criu_script = "cgroup"},
	{"cr-ns", criu_counter, .criu_script = "namespaces"},
	{"cr-podman", criu_counter, .criu_script = "podman"},
	{"cr-lock", criu_lock, .criu_script = "locks"},
	{"cr-paused", criu_counter, .criu_script = "paused"},
	{"cr-v1", criu_counter, "cgroup-v1", .criu_script = "v1"},
	{"cr-console", criu_terminal, .criu_script = "console"},
	{"cr-foreground", criu_stoppable, .criu_script = "foreground"},
	{"cr-config", criu_configured, .criu_script = "config"},
	{"cr-netns", criu_netns, .criu_script = "netns"},
	{"cr-tcp", criu_tcp, .criu_script = "tcp"},
	{"cr-containerd", criu_counter, .criu_script = "containerd"},
	{"cr-timing", criu_counter, .criu_script = "timing"},
	{"cr-exec", criu_counter, .criu_script = "exec"},
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
	char *host = ctt_json_quote(c->name);
	ctt_config_set(t.bundle, ".hostname", host);
	free(host);
	c->setup(&t);
	write_case_file(t.bundle, "stage", c->stage);
	write_case_file(t.bundle, "ctrun-args", c->args);
	write_case_file(t.bundle, "script", c->script);
	if (c->criu_script) {
		char *text = criu_script(c->criu_script);
		write_case_file(t.bundle, "script", text);
		free(text);
	}
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

/* What a case must have printed: its exit code, lines of its stdout and stderr. */
struct vm_expect {
	const char *name;	   /* the case */
	int status;		   /* -1: not checked */
	const char *first_line;	   /* stdout's first line; NULL: not checked */
	const char *out;	   /* the whole stdout; NULL: not compared */
	const char *out_lines[10]; /* regexes each matching a line of stdout */
	const char *err_lines[3];  /* the same for stderr */
	const char *not_in_out;	   /* NULL: nothing */
	bool quiet;		   /* nothing on stderr */
};

/* The IDENTITY script's: run as itself, pid 1 and its hostname, spawned with clone3 and its
 * mounts verified with mountinfo (no statmount on 6.1). */
#define IDENTITY_OUT "^pid=1$"
#define IDENTITY_ERR \
	" spawned with clone3$", "mounts verified with mountinfo: [0-9]+ checked, 0 extra$"
#define DEVICE_MODE(dev) "^crw-rw-rw- .* /dev/" dev "$"

static const struct vm_expect expects[] = {
	/* the guest kernel is Linux 6.1, without fchmodat2 and statmount */
	{"uname", -1, .out_lines = {"^6\\.1\\.[0-9]+-"}},
	{"probe", 0,
	 .out_lines = {"^clone3=yes$", "^openat2=yes$", "^new_mount_api=yes$", "^fchmodat2=no$",
		       "^statmount=no$", "^listmount=no$"}},
	/* a container runs; its devices get their modes without fchmodat2, one of mode 0640,
	 * which no umask makes of mknod's mode */
	{"basic", 7, "basic",
	 .out_lines = {IDENTITY_OUT, DEVICE_MODE("null"), DEVICE_MODE("zero"), DEVICE_MODE("full"),
		       DEVICE_MODE("random"), DEVICE_MODE("urandom"), DEVICE_MODE("tty"),
		       "^crw-r----- .* /dev/vmdev$"},
	 .err_lines = {IDENTITY_ERR}},
	/* pivot_root cannot leave the initramfs root; --no-pivot runs there */
	{"nopivot", 7, "nopivot", .out_lines = {IDENTITY_OUT}, .err_lines = {IDENTITY_ERR}},
	/* ro binds and tmpfs options, recursive ro, nosymfollow and propagation come out as
	 * asked; /slave is a bind of the /shared tmpfs */
	{"mounts", 0,
	 .out_lines =
		 {" /ro ro,nosuid[ ,]",
		  " /t rw,nodev,noexec,noatime( [^ ]+)* - tmpfs tmpfs rw,size=1024k,mode=700[ ,]",
		  "^mode 700$", "^root:x:0:0:", " /rro ro,nodev[ ,]",
		  " /strict rw,nodiratime,nosymfollow ", " /shared rw,[^ ]* shared:[0-9]+ - tmpfs ",
		  " /slave rw,[^ ]* master:[0-9]+ - tmpfs ", "^f$"},
	 .not_in_out = "ro-writable"},
	/* cgroup v2 limits read back inside, the init born in the cgroup */
	{"cgv2", 0, .out = "67108864\n33554432\n50331648\n32\n25000 50000\n39\n0::/\n",
	 .err_lines = {"cgroup /sys/fs/cgroup/ctrun/cgv2 made \\(v2 driver\\)$",
		       "init born in its cgroup \\(CLONE_INTO_CGROUP\\)$"}},
	/* libct/cgroup/bpf_devices.c on 6.1's cgroup2: the helper's child in a cgroup of its
	 * own gets what the rules say, and the replacing program is the only one attached */
	{"devcg", 0,
	 .out = "programs 1\n"
		"r /dev/null ok\n"
		"w /dev/zero ok\n"
		"r /dev/kmsg Operation not permitted\n"
		"m b:7:0 ok\n"
		"mr c:1:11 made, open Operation not permitted\n"
		"programs 1\n"
		"r /dev/kmsg ok\n"
		"w /dev/kmsg Operation not permitted\n",
	 .quiet = true},
	/* mknod of any node, but open only the standard ones, on cgroup2 */
	{"mknod", 0, .out = "blk-made\nblk-denied\nnull-ok\n"},
	/* pause, resume, update and devices on cgroup2 */
	{"cgcmd", 0,
	 .out = "node denied\n"
		"pause rc 0\n"
		"  \"status\": \"paused\",\n"
		"frozen\n"
		"ctrun: pause container \"cgcmd\": cannot pause a container that is paused\n"
		"resume rc 0\n"
		"  \"status\": \"running\",\n"
		"thawed\n"
		"programs 1\n"
		"update rc 0\n"
		"pids.max 7 memory.max 67108864\n"
		"{\"type\":\"stats\",\"id\":\"cgcmd\"\n"
		"\"usage\":{\"limit\":67108864\n"
		"\"limit\":7}\n"
		"\"cpuset\":{\"cpu_exclusive\":0,\"mem_hardwall\":0\n"
		"devices rc 0\n"
		"node allowed\n"
		"programs 1\n"
		"delete rc 0\n"},
	/* an OOM kill on cgroup2 is an events record */
	{"oom", 0,
	 .out = "hog 137\n"
		"{\"type\":\"oom\",\"id\":\"oom\"\n"
		"delete rc 0\n"
		"events rc 0\n"},
	/* Docker's limits on cgroup2 with zeros unset: swap.max is memory+swap less memory;
	 * cpu.weight 20 is shares 512 */
	{"docker", 0, .out = "67108864\n67108864\n20\n50000 100000\n50\n"},
	/* /bin/true runs under 224 KiB on cgroup2, seen from outside and from inside */
	{"tiny", 0,
	 .out = "memory.max " TINY_LIMIT "\n"
		"start rc 0\n"
		"  \"status\": \"stopped\",\n"
		"oom_kill 0\n"
		"delete rc 0\n"
		"run rc 0\n"},
	{"tiny-inside", 0, .out = TINY_LIMIT "\n"},
	/* no container is left in the guest after either stage (a failed create removes what
	 * it made), and every container's cgroup went with it: delete, run's end and the failed
	 * create */
	{"left-initramfs", 0, .out = ""},
	{"left-tmpfs", 0, .out = ""},
	{"cgroups-left", 0, .out = ""},
};

ParameterizedTestParameters(vm, case_prints_what_it_should)
{
	return ctt_rows(CTT_COUNT(expects));
}

static void expect_lines(const char *name, const char *what, const char *text,
			 const char *const *regexes, size_t n)
{
	for (size_t i = 0; i < n && regexes[i]; i++)
		cr_expect(ctt_matches(text, regexes[i]), "%s: no line of %s matches %s:\n%s", name,
			  what, regexes[i], text);
}

/* The case's result against what it must have printed. */
static void expect_case(const char *console, const struct vm_expect *c)
{
	struct ctt_result r;
	vm_result(&r, console, c->name);
	if (c->status >= 0)
		cr_expect_eq(r.status, c->status, "%s: exit %d\nstdout:\n%s\nstderr:\n%s", c->name,
			     r.status, r.out, r.err);
	if (c->first_line)
		cr_expect(strcspn(r.out, "\n") == strlen(c->first_line) &&
				  strncmp(r.out, c->first_line, strlen(c->first_line)) == 0,
			  "%s: first line (its hostname) is not %s:\n%s", c->name, c->first_line,
			  r.out);
	if (c->out)
		cr_expect_str_eq(r.out, c->out, "%s: stdout:\n%s", c->name, r.out);
	expect_lines(c->name, "stdout", r.out, c->out_lines, 10);
	expect_lines(c->name, "stderr", r.err, c->err_lines, 3);
	if (c->not_in_out)
		cr_expect_null(strstr(r.out, c->not_in_out), "%s: %s in stdout", c->name,
			       c->not_in_out);
	if (c->quiet)
		cr_expect_str_empty(r.err, "%s: stderr:\n%s", c->name, r.err);
	ctt_result_free(&r);
}

ParameterizedTest(size_t *i, vm, case_prints_what_it_should)
{
	char *console = vm_console();
	expect_case(console, &expects[*i]);
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

/* ---- checkpoint and restore (tests/vm/criu/NAME.sh) ---- */

/* The guest's `criu check`: skips when the host has no criu to give it (run-vm.sh). */
static void need_criu(const char *console)
{
	char *rc = vm_text(console, "criu", "rc");
	bool missing = !*rc;
	free(rc);
	if (missing)
		ctt_skip("no criu on the host for the guest (apt-get install criu)");
	cr_assert_eq(vm_rc(console, "criu"), 0, "criu check failed in the guest:\n%s", console);
}

#define CR_RESTORED	"restore rc 0\n"
#define CR_DELETED	"delete rc 0\n"
#define CR_LIMITS(mode) mode " memory.max 67108864 pids.max 32\n"
/* /proc/PID/cgroup's v1 lines of a process of cr-v1, sorted */
#define CR_V1_PLACES "devices:/ctrun/cr-v1\nfreezer:/ctrun/cr-v1\n"

/* the expected outputs, as the lines they are */
/* clang-format off */
static const struct vm_expect criu_expects[] = {
	/* the counter stops with its container, and counts on, unbroken, once restored;
	 * state, exec, kill and delete work on the restored container */
	{"cr-counter", 0,
	 .out = "run rc 0\ncheckpoint rc 0\nno cr-counter\nstopped\n" CR_RESTORED
		"status running\nmoves\nunbroken\nexec in cr-counter\nkilled\n" CR_DELETED
		"no cr-counter\n",
	 .quiet = true},
	/* --leave-running; a restore under a new id from a copy of the bundle */
	{"cr-leave", 0,
	 .out = "run rc 0\ncheckpoint rc 0\nstatus running\nmoves\n" CR_DELETED CR_RESTORED
		"status running\nmoves\n" CR_DELETED "no cr-leave-new\n",
	 .quiet = true},
	/* the prestart and createRuntime hooks saw the restored init, creating */
	{"cr-pidfile", 0,
	 .out = "run rc 0\ncheckpoint rc 0\n" CR_RESTORED "pid file matches\ninit lives\n"
		"prestart hook saw it creating\ncreateRuntime hook saw it creating\nmoves\n"
		CR_DELETED,
	 .quiet = true},
	/* no criu: one line, the container runs on */
	{"cr-nocriu", 0,
	 .out = "run rc 0\ncheckpoint rc 1\nstatus running\nmoves\n" CR_DELETED,
	 .err_lines = {"^ctrun: checkpoint container \"cr-nocriu\": criu \"/nonexistent/criu\" "
		       "\\(from \\$CTRUN_CRIU\\): No such file or directory$"}},
	/* a damaged image: one line naming criu's log (where a criu config moves it), nothing
	 * left */
	{"cr-damaged", 0,
	 .out_lines = {"^checkpoint rc 0\n1\n"
		       "ctrun: restore container \"cr-damaged\": criu failed: .* \\(see "
		       "/tmp/cr-damaged.img/restore.log\\)\n"
		       "no cr-damaged\n1\n"
		       "ctrun: restore container \"cr-damaged\": criu failed: .* \\(see "
		       "/tmp/cr-damaged.img/moved.log\\)\n"
		       "moved.log written\nno cr-damaged$"},
	 .not_in_out = " left",
	 .quiet = true},
	{"cr-predump", 0,
	 .out = "run rc 0\npre-dump rc 0\nstatus running\nmoves\ncheckpoint rc 0\nno cr-predump\n"
		CR_RESTORED "moves\nunbroken\n" CR_DELETED,
	 .quiet = true},
	{"cr-bind", 0,
	 .out = "run rc 0\nwritten through the bind\ncheckpoint rc 0\n" CR_RESTORED
		"written after restore\n1\n" CR_DELETED,
	 .quiet = true},
	{"cr-cgroup", 0,
	 .out = "run rc 0\n"
		"checkpoint soft rc 0\nrestore soft rc 0\n" CR_LIMITS("soft") "67108864\n"
		"checkpoint full rc 0\nrestore full rc 0\n" CR_LIMITS("full") "67108864\n"
		"checkpoint strict rc 0\nrestore strict rc 1 "
		"ctrun: restore container \"cr-cgroup\": --manage-cgroups-mode strict: not "
		"supported by restore (the container's cgroup exists before criu runs)\n"
		"no cr-cgroup\nrestore full rc 0\n" CR_LIMITS("strict") "67108864\n"
		"checkpoint ignore rc 0\nrestore ignore rc 0\n" CR_LIMITS("ignore")
		"moves\nunbroken\n" CR_DELETED,
	 .quiet = true},
	/* its own pid, mount, uts and ipc namespaces, not the guest's */
	{"cr-ns", 0,
	 .out_lines = {"^restore rc 0$", "^hostname cr-ns$", "^init sh -c i=0; while ",
		       "^own pid$", "^own mnt$", "^own uts$", "^own ipc$", "^delete rc 0$"},
	 .quiet = true},
	/* a held file lock: refused without --file-locks, held again after restore with it */
	{"cr-lock", 0,
	 .out = "run rc 0\nlocked\ncheckpoint rc 1\n1\nstatus running\ncheckpoint rc 0\n"
		"no cr-lock\n" CR_RESTORED "locked by the restored holder\nmoves\n" CR_DELETED,
	 .quiet = true},
	/* Podman's own command lines (tests/vm/criu/podman.sh) */
	{"cr-podman", 0,
	 .out = "create rc 0\nstart rc 0\ncheckpoint rc 0\nlog in the work path\n" CR_DELETED
		CR_RESTORED "pid file matches\nmoves\nunbroken\n" CR_DELETED "no cr-podman\n",
	 .quiet = true},
	/* containerd's shim's own command lines (tests/vm/criu/containerd.sh) */
	{"cr-containerd", 0,
	 .out = "create rc 0\nstart rc 0\ncheckpoint rc 0\nlog in the work path\nmoves\nkilled\n"
		CR_DELETED CR_RESTORED "pid file matches\nmoves\nunbroken\nkilled\n" CR_DELETED
		"no cr-containerd-2\n",
	 .quiet = true},
	/* ctrun's and runc's checkpoint and restore of the counter, timed in the same guest
	 * (the figures are in the console, not judged) */
	{"cr-timing", 0,
	 .out = "ctrun run rc 0\nctrun checkpoint rc 0\nctrun restore rc 0\nctrun moves\n"
		"ctrun delete rc 0\nrunc run rc 0\nrunc checkpoint rc 0\nrunc restore rc 0\n"
		"runc moves\nrunc delete rc 0\n",
	 .err_lines = {"^ctrun checkpoint [0-9]+ ms, restore [0-9]+ ms$",
		       "^runc checkpoint [0-9]+ ms, restore [0-9]+ ms$",
		       "^ctrun/runc: checkpoint [0-9.]+, restore [0-9.]+$"}},
	/* the daemon of a detached exec'd process whose stdio was the guest's /dev/null:
	 * dumped with its stdio on the container's, restored with it */
	{"cr-exec", 0,
	 .out = "run rc 0\nexec rc 0\ncheckpoint rc 0\nno cr-exec\n" CR_RESTORED
		"back sleep 1000\nparent 1\nstdio /dev/null /dev/null /dev/null\nmoves\n"
		"unbroken\n" CR_DELETED "no cr-exec\n",
	 .quiet = true},
	/* a paused container, as containerd's shim checkpoints one */
	{"cr-paused", 0,
	 .out = "run rc 0\npause rc 0\ncheckpoint rc 0\nstatus paused\nstopped\nmoves\n"
		"pause rc 0\ncheckpoint rc 0\nno cr-paused\n" CR_RESTORED "status running\nmoves\n"
		"unbroken\n" CR_DELETED,
	 .quiet = true},
	/* cgroup v1: the cgroup made whole before criu runs; the device rules and the init's
	 * place in each hierarchy are back */
	{"cr-v1", 0,
	 .out = "run rc 0\n"
		"device rules made\n" CR_V1_PLACES
		"checkpoint rc 0\n" CR_RESTORED
		"device rules back\n" CR_V1_PLACES
		"moves\nunbroken\n"
		"devices:/\nfreezer:/\n" /* exec'd: the cgroup namespace's root */
		CR_DELETED "no cr-v1\n",
	 .quiet = true},
	/* restore --console-socket: the receiver gets the restored terminal's master */
	{"cr-console", 0,
	 .out = "run rc 0\ncounting on the terminal\ncheckpoint rc 0\nreceiver of run ended\n"
		CR_RESTORED "counting on the restored terminal\nunbroken\n" CR_DELETED
		"receiver of restore ended\n",
	 .quiet = true},
	/* restore in the foreground: it waits, exits as the container did, leaves nothing */
	{"cr-foreground", 0,
	 .out = "run rc 0\ncheckpoint rc 0\nstatus running\nmoves\nrestore waits\n"
		"restore rc 3\nunbroken\nno cr-foreground\n",
	 .not_in_out = " left",
	 .quiet = true},
	/* criu's configuration file: the annotation's, else /etc/criu/runc.conf, none when
	 * the annotation is empty */
	{"cr-config", 0,
	 .out = "run rc 0\ncheckpoint rc 0\nannotation annotated.log\ncheckpoint rc 0\n"
		"runc.conf default.log\ncheckpoint rc 0\nempty dump.log\nmoves\n" CR_DELETED,
	 .quiet = true},
	/* its own network namespace, restored into a new one with lo up, serving */
	{"cr-netns", 0,
	 .out = "run rc 0\ncheckpoint rc 0\nno cr-netns\n" CR_RESTORED "own net\nlo flags 0x9\n"
		"served\nmoves\nunbroken\n" CR_DELETED "no cr-netns\n",
	 .quiet = true},
	/* an established TCP connection: refused without --tcp-established with criu's reason
	 * in one line, the container running on; carried on after a restore with it */
	{"cr-tcp", 0,
	 .out_lines = {"^run rc 0\ncheckpoint rc 1\n"
		       "ctrun: checkpoint container \"cr-tcp\": criu failed: Error \\(criu/[a-z-]+\\.c:"
		       "[0-9]+\\): inet: Connected TCP socket, consider using --tcp-established "
		       "option\\.\nstatus running\nmoves\ncheckpoint rc 0\nno cr-tcp\n"
		       "restore rc 0\nstatus running\nmoves\nunbroken\ndelete rc 0\nno cr-tcp$"},
	 .quiet = true},
};
/* clang-format on */

ParameterizedTestParameters(vm, criu_case_prints_what_it_should)
{
	return ctt_rows(CTT_COUNT(criu_expects));
}

/* A case whose script found the guest without what it needs says `skip: REASON`. */
static void skip_when_the_case_says(const char *console, const char *name)
{
	char *out = vm_text(console, name, "out"), why[256] = "";
	if (strncmp(out, "skip: ", 6) == 0)
		snprintf(why, sizeof(why), "%.*s", (int)strcspn(out + 6, "\n"), out + 6);
	free(out);
	if (*why)
		ctt_skip("%s: %s", name, why);
}

ParameterizedTest(size_t *i, vm, criu_case_prints_what_it_should)
{
	char *console = vm_console();
	need_criu(console);
	skip_when_the_case_says(console, criu_expects[*i].name);
	expect_case(console, &criu_expects[*i]);
	free(console);
}

/* A case that must be refused: create's one error line with each needle, and the container
 * never ran. */
struct vm_refusal {
	const char *name;
	const char *needles[4];
};

static const struct vm_refusal refusals[] = {
	/* pivot_root cannot leave the initramfs root: refused, naming it */
	{"pivot-initramfs", {"create container \"pivot-initramfs\"", "pivot_root"}},
	/* a mount covered by a later one, found with mountinfo (no statmount on 6.1) */
	{"covered", {LC_COVERED_REFUSAL}},
	/* a unified key the kernel has no file for */
	{"cgv2-bad", {".linux.resources.unified[\"memory.bogus\"]", "does not exist"}},
	/* an init the OOM killer ends during set-up: the error names the signal, not a bare
	 * "exited", and nothing is left (the left-* and cgroups-left cases) */
	{"too-small",
	 {"create container \"too-small\"",
	  "container init killed by signal 9 (SIGKILL) during set-up",
	  "is the memory limit too small?"}},
};

ParameterizedTestParameters(vm, case_is_refused_with_one_error_line)
{
	return ctt_rows(CTT_COUNT(refusals));
}

ParameterizedTest(size_t *i, vm, case_is_refused_with_one_error_line)
{
	const struct vm_refusal *c = &refusals[*i];
	char *console = vm_console();
	struct ctt_result r;
	vm_result(&r, console, c->name);
	ctt_assert_error_line(&r, c->needles);
	cr_expect_str_empty(r.out, "%s: the container ran:\n%s", c->name, r.out);
	ctt_result_free(&r);
	free(console);
}
