/* The differential suite: every document of ../shared/configs (what runc, crun,
 * Podman, containerd, Docker and Buildah really write) plus `ctrun spec [--rootless]` runs on
 * the same busybox bundle under ctrun and under runc 1.1.5, with the process replaced by
 * tests/helpers/diffprobe, which prints what the container gives it. The two outputs (and
 * the cgroup files read from the host, and what the hooks saw) are compared fact by fact.
 * Each difference must be a row of docs/differences-from-runc.md, and each row that applies
 * to a config must still be seen there (tests/lib/difftable.h). What a host has mounted below
 * a config's rbind is the host's: those mounts are compared only where the config names them,
 * and the *_spec_rootless_with_a_host_submount tests add one of their own.
 *
 * exec --process documents run in a container of the config their client would have made,
 * the update --resources document on a container with limits; both are read the same way.
 * Terminal configs talk to tests/helpers/console_receiver, as conmon and the shim would. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"
#include "tests/lib/host_null.h"
#include "tests/lib/container.h"
#include "tests/lib/difftable.h"
#include "tests/lib/testlib.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define POLL_MS	 10000
#define MAX_ARGS 96

enum kind {
	CONFIG,	  /* a config.json */
	EXEC,	  /* an exec --process document, run in a container of .base */
	UPDATE,	  /* an update --resources document, applied to a container of .base */
	GENERATED /* `ctrun spec` with .base as its option */
};

struct input {
	const char *name;
	enum kind kind;
	const char *base; /* EXEC, UPDATE: the config of the container; GENERATED: the
			   * option of `ctrun spec` (NULL: none) */
};

#define NO_SYSTEMD "this machine has no systemd (make check-systemd runs these in a VM)"

/* Every input: a test name, the document, its kind and for EXEC / UPDATE the config of the
 * container it runs in. */
#define INPUTS(X)                                                                                 \
	X(buildah_bud_run, "buildah-bud-run", CONFIG, NULL)                                       \
	X(containerd_cgroup_custom, "containerd-cgroup-custom", CONFIG, NULL)                     \
	X(containerd_default, "containerd-default", CONFIG, NULL)                                 \
	X(containerd_exec_process, "containerd-exec-process", EXEC, "containerd-default")         \
	X(containerd_exec_tty_process, "containerd-exec-tty-process", EXEC, "containerd-default") \
	X(containerd_exec_user_cwd_process, "containerd-exec-user-cwd-process", EXEC,             \
	  "containerd-default")                                                                   \
	X(containerd_options_seccomp, "containerd-options-seccomp", CONFIG, NULL)                 \
	X(containerd_privileged, "containerd-privileged", CONFIG, NULL)                           \
	X(containerd_rootfs_dir, "containerd-rootfs-dir", CONFIG, NULL)                           \
	X(containerd_systemd_cgroup, "containerd-systemd-cgroup", CONFIG, NULL)                   \
	X(containerd_tty, "containerd-tty", CONFIG, NULL)                                         \
	X(containerd_userns, "containerd-userns", CONFIG, NULL)                                   \
	X(cri_container_in_pod, "cri-container-in-pod", CONFIG, NULL)                             \
	X(cri_pod_sandbox_hostnetwork, "cri-pod-sandbox-hostnetwork", CONFIG, NULL)               \
	X(crun_spec_rootless, "crun-1.8.1-spec-rootless", CONFIG, NULL)                           \
	X(crun_spec, "crun-1.8.1-spec", CONFIG, NULL)                                             \
	X(docker_capdrop_all_capadd, "docker-capdrop-all-capadd", CONFIG, NULL)                   \
	X(docker_default, "docker-default", CONFIG, NULL)                                         \
	X(docker_init, "docker-init", CONFIG, NULL)                                               \
	X(docker_network_none_sysctl, "docker-network-none-sysctl", CONFIG, NULL)                 \
	X(docker_privileged, "docker-privileged", CONFIG, NULL)                                   \
	X(docker_readonly_tmpfs_volume, "docker-readonly-tmpfs-volume", CONFIG, NULL)             \
	X(docker_resources, "docker-resources", CONFIG, NULL)                                     \
	X(docker_tty, "docker-tty", CONFIG, NULL)                                                 \
	X(docker_user_nnp, "docker-user-nnp", CONFIG, NULL)                                       \
	X(podman_capdrop_all_capadd, "podman-capdrop-all-capadd", CONFIG, NULL)                   \
	X(podman_cgroup_parent, "podman-cgroup-parent", CONFIG, NULL)                             \
	X(podman_cgroupns_private, "podman-cgroupns-private", CONFIG, NULL)                       \
	X(podman_default, "podman-default", CONFIG, NULL)                                         \
	X(podman_device, "podman-device", CONFIG, NULL)                                           \
	X(podman_exec_privileged_process, "podman-exec-privileged-process", EXEC,                 \
	  "podman-privileged")                                                                    \
	X(podman_exec_process, "podman-exec-process", EXEC, "podman-default")                     \
	X(podman_exec_tty_process, "podman-exec-tty-process", EXEC, "podman-default")             \
	X(podman_exec_user_cwd_env_process, "podman-exec-user-cwd-env-process", EXEC,             \
	  "podman-default")                                                                       \
	X(podman_hooks, "podman-hooks", CONFIG, NULL)                                             \
	X(podman_init, "podman-init", CONFIG, NULL)                                               \
	X(podman_ipc_uts_host, "podman-ipc-uts-host", CONFIG, NULL)                               \
	X(podman_mask_unmask, "podman-mask-unmask", CONFIG, NULL)                                 \
	X(podman_mount_options_volume, "podman-mount-options-volume", CONFIG, NULL)               \
	X(podman_no_new_privileges, "podman-no-new-privileges", CONFIG, NULL)                     \
	X(podman_oom_score_adj, "podman-oom-score-adj", CONFIG, NULL)                             \
	X(podman_personality, "podman-personality", CONFIG, NULL)                                 \
	X(podman_pid_host, "podman-pid-host", CONFIG, NULL)                                       \
	X(podman_pod_infra, "podman-pod-infra", CONFIG, NULL)                                     \
	X(podman_pod_member, "podman-pod-member", CONFIG, NULL)                                   \
	X(podman_preserve_fds, "podman-preserve-fds", CONFIG, NULL)                               \
	X(podman_privileged, "podman-privileged", CONFIG, NULL)                                   \
	X(podman_readonly_tmpfs_bind, "podman-readonly-tmpfs-bind", CONFIG, NULL)                 \
	X(podman_resources, "podman-resources", CONFIG, NULL)                                     \
	X(podman_rootfs_dir, "podman-rootfs-dir", CONFIG, NULL)                                   \
	X(podman_seccomp_unconfined, "podman-seccomp-unconfined", CONFIG, NULL)                   \
	X(podman_shm_umask_annotation, "podman-shm-umask-annotation", CONFIG, NULL)               \
	X(podman_sysctl, "podman-sysctl", CONFIG, NULL)                                           \
	X(podman_systemd_cgroup_manager, "podman-systemd-cgroup-manager", CONFIG, NULL)           \
	X(podman_systemd_mode, "podman-systemd-mode", CONFIG, NULL)                               \
	X(podman_tty, "podman-tty", CONFIG, NULL)                                                 \
	X(podman_ulimit, "podman-ulimit", CONFIG, NULL)                                           \
	X(podman_update_resources, "podman-update-resources", UPDATE, "podman-resources")         \
	X(podman_user, "podman-user", CONFIG, NULL)                                               \
	X(podman_userns, "podman-userns", CONFIG, NULL)                                           \
	X(podman_v1_resources, "podman-v1-resources", CONFIG, NULL)                               \
	X(runc_spec_rootless, "runc-1.1.5-spec-rootless", CONFIG, NULL)                           \
	X(runc_spec, "runc-1.1.5-spec", CONFIG, NULL)                                             \
	X(ctrun_spec, "ctrun-spec", GENERATED, NULL)                                              \
	X(ctrun_spec_rootless, "ctrun-spec-rootless", GENERATED, "--rootless")

#define AS_INPUT(ident, name, kind, base) {name, kind, base},
static const struct input inputs[] = {INPUTS(AS_INPUT)};

/* What ctrun must refuse because this machine lacks what it needs, and why. */
static const struct {
	const char *name, *needle, *why;
} refusals[] = {
	{"containerd-systemd-cgroup", ".linux.cgroupsPath", NO_SYSTEMD},
	{"podman-systemd-cgroup-manager", ".linux.cgroupsPath", NO_SYSTEMD},
	{"crun-1.8.1-spec-rootless", ".linux.uidMappings",
	 "crun fills the mappings in at run time; runc refuses it too"},
};

/* A line on stderr for whoever runs the suite: Criterion fails a run whose tests log a
 * warning, and shows info only with --verbose. */
__attribute__((format(printf, 1, 2))) static void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "[diff] ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
}

/* ---- where the inputs are ---- */

static const char *configs_dir(void)
{
	static char dir[4096];
	const char *src = getenv("CTRUN_SRC");
	cr_assert_not_null(src, "CTRUN_SRC is not set (run through make integration)");
	snprintf(dir, sizeof(dir), "%s/../shared/configs", src);
	if (access(dir, R_OK) != 0)
		ctt_skip("%s: %s", dir, strerror(errno));
	return dir;
}

static const struct input *find_input(const char *name)
{
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		if (strcmp(inputs[i].name, name) == 0)
			return &inputs[i];
	cr_assert_fail("no input named %s", name);
	return NULL;
}

/* ---- one run's workspace ---- */

/* The directories and files the placeholders stand for (configs/README.md), under work. */
static const char *const work_dirs[] = {
	"userdata/shm",	       "hostdir",   "volumes/wfvol/_data", "crisandboxroot",
	"crisandboxstate/shm", "podlogdir", "buildahdir/run",	   "dockerdata",
	"dockerexec",	       "hooks",
};
static const char *const work_files[] = {
	"userdata/hosts",
	"userdata/hostname",
	"userdata/resolv.conf",
	"userdata/.containerenv",
	"hostdir/file",
	"crisandboxroot/hosts",
	"crisandboxroot/hostname",
	"crisandboxroot/resolv.conf",
	"buildahdir/hosts",
	"buildahdir/hostname",
	"buildahdir/resolv.conf",
	"buildahdir/run/.containerenv",
	"dockerdata/hosts",
	"dockerdata/hostname",
	"dockerdata/resolv.conf",
	"docker-init",
	"catatonit",
	"preserved",
};

struct subst {
	char *from, *to;
};

struct run_env {
	struct lc lc;	  /* its bundle is the shared one, its root ctrun's */
	char *work;	  /* the placeholders' directories */
	char *other_root; /* runc's --root */
	char *crun_root;  /* crun's --root */
	char *id;
	char *cgroup_path;	  /* the absolute cgroupsPath given to a config that names one */
	pid_t sandbox_pid;	  /* the pause container of the pod configs, 0 until needed */
	struct host_null null;	  /* what the runtimes take for the host's /dev/null */
	char *stdin_file;	  /* empty: the stdin of each runtime command */
	char *discard_file;	  /* the output nobody reads */
	const char *own_submount; /* the mount a test made below an rbind's source, or NULL */
	struct subst subst[16];
	size_t nsubst;
};

static void add_subst(struct run_env *e, const char *from, const char *to)
{
	cr_assert_lt(e->nsubst, sizeof(e->subst) / sizeof(e->subst[0]));
	e->subst[e->nsubst].from = strdup(from);
	e->subst[e->nsubst].to = strdup(to);
	e->nsubst++;
}

/* A host file a config binds in ("path" as a JSON string) becomes work/name. */
static void add_host_file(struct run_env *e, const char *path, const char *name)
{
	char *from, *to, *file = ctt_path(e->work, name);
	cr_assert_geq(asprintf(&from, "\"%s\"", path), 0);
	cr_assert_geq(asprintf(&to, "\"%s\"", file), 0);
	add_subst(e, from, to);
	free(from);
	free(to);
	free(file);
}

static void make_work(struct run_env *e)
{
	e->work = ctt_tmpdir();
	ctt_make_searchable(e->work);
	for (size_t i = 0; i < sizeof(work_dirs) / sizeof(work_dirs[0]); i++) {
		char *p = ctt_path(e->work, work_dirs[i]);
		ctt_mkdir_p(p);
		free(p);
	}
	for (size_t i = 0; i < sizeof(work_files) / sizeof(work_files[0]); i++) {
		char *p = ctt_path(e->work, work_files[i]);
		ctt_write_file(p, "diff\n");
		free(p);
	}
	static const struct {
		const char *placeholder, *dir;
	} dirs[] = {
		{"@USERDATA@", "userdata"},
		{"@HOSTDIR@", "hostdir"},
		{"@VOLUMES@", "volumes"},
		{"@CRISANDBOXROOT@", "crisandboxroot"},
		{"@CRISANDBOXSTATE@", "crisandboxstate"},
		{"@PODLOGDIR@", "podlogdir"},
		{"@BUILDAHDIR@", "buildahdir"},
		{"@DOCKERDATA@", "dockerdata"},
		{"@DOCKEREXEC@", "dockerexec"},
		{"@BUNDLE@", NULL},
	};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = dirs[i].dir ? ctt_path(e->work, dirs[i].dir) : strdup(e->lc.bundle);
		add_subst(e, dirs[i].placeholder, p);
		free(p);
	}
	add_subst(e, "@HOOK@", ctt_helper("hook_recorder"));
	/* Host programs the clients bind in; the probe replaces what would run them. */
	add_host_file(e, "/usr/bin/docker-init", "docker-init");
	add_host_file(e, "/usr/libexec/podman/catatonit", "catatonit");
	e->stdin_file = ctt_path(e->work, "stdin");
	ctt_write_file(e->stdin_file, "");
	e->discard_file = ctt_path(e->work, "discard");
}

static void remove_cgroup_parent(void);

static void env_init(struct run_env *e)
{
	*e = (struct run_env){0};
	lc_init(&e->lc);
	e->other_root = ctt_tmpdir();
	e->crun_root = ctt_tmpdir();
	cr_assert_geq(asprintf(&e->id, "diff-%d", (int)getpid()), 0);
	cr_assert_geq(asprintf(&e->cgroup_path, "/ctrun-diff-%d/c", (int)getpid()), 0);
	make_work(e);
	hn_guard(&e->null, e->work, 0);
	char *probe = lc_rootfs_path(&e->lc, "bin/diffprobe");
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){"cp", ctt_helper("diffprobe"), probe, NULL});
	cr_assert_eq(r.status, 0, "cp diffprobe: %s", r.err);
	ctt_result_free(&r);
	free(probe);
}

/* ---- the runtimes ---- */

struct runtime {
	const char *name;
	const char *const *argv;    /* program and global options, NULL-terminated */
	const struct run_env *env;  /* its stdio files */
	const char *const *wrapper; /* what each command runs under, NULL-terminated; NULL: none */
};

/* crun 1.8.1 refuses a hybrid host (v1 hierarchies and cgroup2 at /sys/fs/cgroup/unified):
 * compared with crun, both runtimes see a v1 host, each command in a mount namespace of its
 * own with an empty tmpfs over unified. */
#define UNIFIED "/sys/fs/cgroup/unified"
static const char *const hide_unified[] = {"unshare",
					   "-m",
					   "--propagation",
					   "private",
					   "sh",
					   "-c",
					   "mount -t tmpfs tmpfs " UNIFIED " && exec \"$@\"",
					   "sh",
					   NULL};

static bool is_cgroup2(const char *path)
{
	struct statfs s;
	return statfs(path, &s) == 0 && s.f_type == CGROUP2_SUPER_MAGIC;
}

static bool hybrid_host(void)
{
	return !is_cgroup2("/sys/fs/cgroup") && is_cgroup2(UNIFIED);
}

/* rt's argv followed by args, in out (MAX_ARGS). */
static const char **rt_argv(const struct runtime *rt, const char *const *args, const char **out)
{
	size_t n = 0;
	for (size_t i = 0; rt->wrapper && rt->wrapper[i]; i++)
		out[n++] = rt->wrapper[i];
	for (size_t i = 0; rt->argv[i]; i++)
		out[n++] = rt->argv[i];
	for (size_t i = 0; args[i]; i++) {
		cr_assert_lt(n, MAX_ARGS - 1);
		out[n++] = args[i];
	}
	out[n] = NULL;
	return out;
}

/* Runs rt's command args with stdin the env's empty file, stdout and stderr to the files
 * (appended; NULL: the env's discard file), fd 3 to fd3 when >= 0; waits for it and returns
 * its exit status. What it leaves running keeps the files: a container's process writes its
 * output there. Never /dev/null: crun 1.8.1 fchowns its stdio to the container's root in a
 * user namespace (to -1:-1 otherwise), which on a host's /dev/null hands the host's node to
 * the container; and runc reopens a /dev/null stdin in the container, where a user
 * namespace's bind of the host's node cannot be opened, and refuses the container. */
static int rt_run(const struct runtime *rt, const char *const *args, const char *out,
		  const char *err, int fd3)
{
	const char *argv[MAX_ARGS];
	const char *discard = rt->env->discard_file;
	pid_t pid = ctt_fork_exec(rt_argv(rt, args, argv), NULL, rt->env->stdin_file,
				  out ? out : discard, err ? err : discard, fd3);
	return lc_wait(pid, 60000);
}

/* `state ID` parsed; NULL when the runtime does not know the container. */
static yajl_val rt_state(const struct runtime *rt, const char *id)
{
	const char *argv[MAX_ARGS];
	struct ctt_result r;
	ctt_run(&r, NULL, rt_argv(rt, LC_ARGV("state", id), argv));
	yajl_val v = r.status == 0 ? ctt_json_parse(r.out, "state") : NULL;
	ctt_result_free(&r);
	return v;
}

static void rt_wait_stopped(const struct runtime *rt, const char *id)
{
	for (unsigned waited = 0;; waited += 20) {
		yajl_val v = rt_state(rt, id);
		const char *status = v ? ctt_json_get_string(v, ".status") : NULL;
		bool stopped = !v || (status && strcmp(status, "stopped") == 0);
		yajl_tree_free(v);
		if (stopped)
			return;
		cr_assert_lt(waited, POLL_MS, "%s: container %s did not stop", rt->name, id);
		ctt_sleep_ms(20);
	}
}

static void rt_delete(const struct runtime *rt, const char *id)
{
	rt_run(rt, LC_ARGV("delete", "--force", id), NULL, NULL, -1);
}

/* ---- filling and editing the documents ---- */

static char *replace_all(char *text, const char *from, const char *to)
{
	size_t flen = strlen(from), tlen = strlen(to);
	for (char *hit = strstr(text, from); hit; hit = strstr(text, from)) {
		size_t at = (size_t)(hit - text);
		char *next = malloc(strlen(text) - flen + tlen + 1);
		cr_assert_not_null(next);
		memcpy(next, text, at);
		memcpy(next + at, to, tlen);
		strcpy(next + at + tlen, text + at + flen);
		free(text);
		text = next;
		/* the substitute never holds the placeholder */
	}
	return text;
}

static char *filled(const struct run_env *e, const char *name)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s.json", configs_dir(), name);
	char *text = ctt_read_file(path);
	for (size_t i = 0; i < e->nsubst; i++)
		text = replace_all(text, e->subst[i].from, e->subst[i].to);
	if (strstr(text, "@SANDBOXPID@") || strstr(text, "/proc/1211/ns/")) {
		char pid[32];
		snprintf(pid, sizeof(pid), "%d", (int)e->sandbox_pid);
		cr_assert_gt(e->sandbox_pid, 0, "%s joins a pod, but no sandbox runs", name);
		text = replace_all(text, "@SANDBOXPID@", pid);
		/* Podman's pod member names its infra container's pid as it was */
		char path1211[64];
		snprintf(path1211, sizeof(path1211), "/proc/%s/ns/", pid);
		text = replace_all(text, "/proc/1211/ns/", path1211);
	}
	return text;
}

/* The probe's command line for a config: its masked and read-only paths and sysctls. */
static char *probe_args_json(yajl_val config)
{
	static const struct {
		const char *path, *option;
	} lists[] = {{".linux.maskedPaths", "--masked"}, {".linux.readonlyPaths", "--ro"}};
	size_t size = 1 << 16, len = 0;
	char *json = malloc(size);
	cr_assert_not_null(json);
	len += (size_t)snprintf(json + len, size - len, "[\"/bin/diffprobe\"");
	for (size_t l = 0; l < 2; l++) {
		yajl_val a = ctt_json_get(config, lists[l].path);
		for (size_t i = 0; a && YAJL_IS_ARRAY(a) && i < a->u.array.len; i++) {
			char *q = ctt_json_quote(YAJL_GET_STRING(a->u.array.values[i]));
			len += (size_t)snprintf(json + len, size - len, ",\"%s\",%s",
						lists[l].option, q);
			free(q);
		}
	}
	yajl_val s = ctt_json_get(config, ".linux.sysctl");
	for (size_t i = 0; s && YAJL_IS_OBJECT(s) && i < s->u.object.len; i++) {
		char *q = ctt_json_quote(s->u.object.keys[i]);
		len += (size_t)snprintf(json + len, size - len, ",\"--sysctl\",%s", q);
		free(q);
	}
	snprintf(json + len, size - len, "]");
	cr_assert_lt(len + 2, size);
	return json;
}

/* Every recorder hook (@HOOK@) records its kind into work/hooks/log: its args become
 * ["hook", KIND, LOG]. Docker's hook of dockerd's own binary (/proc/<dockerd>/exe) becomes a
 * recorder too; other hooks (a shell of the host) stay as written. */
static void record_hooks(const struct run_env *e, const char *file)
{
	static const char *const kinds[] = {"prestart",	      "createRuntime", "createContainer",
					    "startContainer", "poststart",     "poststop"};
	yajl_val config = ctt_json_load(file);
	char *log = ctt_path(e->work, "hooks/log");
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		char path[128];
		snprintf(path, sizeof(path), ".hooks.%s", kinds[k]);
		long n = ctt_json_len(config, path);
		for (long i = 0; i < n; i++) {
			char hook[160], json[8192];
			snprintf(hook, sizeof(hook), "%s[%ld]", path, i);
			char member[192];
			snprintf(member, sizeof(member), "%s.path", hook);
			const char *hp = ctt_json_get_string(config, member);
			bool dockerd = hp && strstr(hp, "@DOCKERDPID@");
			if (!dockerd && (!hp || strcmp(hp, ctt_helper("hook_recorder")) != 0))
				continue;
			if (dockerd) {
				char *q = ctt_json_quote(ctt_helper("hook_recorder"));
				ctt_json_edit_file(file, member, q);
				free(q);
			}
			snprintf(member, sizeof(member), "%s.args", hook);
			char *ql = ctt_json_quote(log);
			snprintf(json, sizeof(json), "[\"hook\",\"%s\",%s]", kinds[k], ql);
			free(ql);
			ctt_json_edit_file(file, member, json);
		}
	}
	yajl_tree_free(config);
	free(log);
}

/* config.json of the bundle: the filled document with the probe as its process, the root
 * "rootfs", the test's own cgroup path for the one written (a systemd form, which the
 * machine cannot have, stays as written: its refusal is checked; none stays none: each
 * runtime's default path is compared). */
static void write_config(const struct run_env *e, const char *text, const char *const *args)
{
	char *file = ctt_path(e->lc.bundle, "config.json");
	ctt_write_file(file, text);
	yajl_val config = ctt_json_load(file);
	const char *cg = ctt_json_get_string(config, ".linux.cgroupsPath");
	if (cg && !strchr(cg, ':')) {
		char *q = ctt_json_quote(e->cgroup_path);
		ctt_json_edit_file(file, ".linux.cgroupsPath", q);
		free(q);
	}
	ctt_json_edit_file(file, ".root.path", "\"rootfs\"");
	if (args) {
		lc_set_args(&e->lc, args);
	} else {
		char *probe = probe_args_json(config);
		ctt_json_edit_file(file, ".process.args", probe);
		free(probe);
	}
	yajl_tree_free(config);
	record_hooks(e, file);
	free(file);
}

/* A user namespace's mapped root must own the rootfs and reach the bundle. */
static void prepare_userns(const struct run_env *e)
{
	char *file = ctt_path(e->lc.bundle, "config.json");
	yajl_val config = ctt_json_load(file);
	yajl_val host = ctt_json_get(config, ".linux.uidMappings[0].hostID");
	if (host && YAJL_IS_INTEGER(host) && YAJL_GET_INTEGER(host) != 0) {
		char *rootfs = ctt_path(e->lc.bundle, "rootfs");
		ctt_chown_tree(rootfs, (unsigned)YAJL_GET_INTEGER(host));
		ctt_make_searchable(e->lc.bundle);
		free(rootfs);
	}
	yajl_tree_free(config);
	free(file);
}

/* ---- what a run yields ---- */

/* The last line of a runtime's stderr (runc's is a logfmt record: its msg). */
static char *last_error_line(const char *file)
{
	char *text = ctt_read_file(file);
	size_t len = strlen(text);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	char *line = strrchr(text, '\n');
	char *out = strdup(line ? line + 1 : text);
	free(text);
	return out;
}

static int line_order(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* text's lines sorted and joined by ';' (the order of devices.list's rules is the order they
 * were written in, which means nothing), in place. */
static char *lines_sorted(char *text)
{
	char *lines[512], *save = NULL;
	size_t n = 0;
	for (char *l = strtok_r(text, "\n", &save); l && n < 512; l = strtok_r(NULL, "\n", &save))
		lines[n++] = strdup(l);
	qsort(lines, n, sizeof(*lines), line_order);
	text[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strcat(strcat(text, i ? ";" : ""), lines[i]);
		free(lines[i]);
	}
	return text;
}

/* The cgroup files a config's resources write, read from the host in each hierarchy the
 * process is in: "cg.FILE: value". */
static void add_cgroup_facts(struct dt_facts *f, pid_t pid)
{
	static const char *const files[] = {
		"memory.limit_in_bytes",
		"memory.soft_limit_in_bytes",
		"memory.memsw.limit_in_bytes",
		"memory.swappiness",
		"memory.oom_control",
		"memory.kmem.limit_in_bytes",
		"memory.kmem.tcp.limit_in_bytes",
		"cpu.shares",
		"cpu.cfs_quota_us",
		"cpu.cfs_period_us",
		"cpu.rt_runtime_us",
		"cpu.rt_period_us",
		"cpuset.cpus",
		"cpuset.mems",
		"pids.max",
		"blkio.weight",
		"blkio.throttle.read_bps_device",
		"blkio.throttle.write_bps_device",
		"devices.list",
		"freezer.state",
		"memory.max",
		"memory.high",
		"memory.low",
		"memory.swap.max",
		"cpu.max",
		"cpu.weight",
		"pids.max",
	};
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	char *text = ctt_read_file(path);
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		const char *ctrl = c1 + 1;
		char *dir = cgt_root_dir(*ctrl ? ctrl : "", c2 + 1);
		for (size_t i = 0; dir && i < sizeof(files) / sizeof(files[0]); i++) {
			char *p = ctt_path(dir, files[i]), key[128];
			if (!ctt_exists(p)) {
				free(p);
				continue;
			}
			char *v = lines_sorted(ctt_read_file(p));
			snprintf(key, sizeof(key), "cg.%s", files[i]);
			dt_facts_add(f, key, v);
			free(v);
			free(p);
		}
		free(dir);
	}
	free(text);
}

/* What the hooks recorded: kind, argv, env and fds of each, in order, and whether each ran
 * in the host's mount namespace. */
static void add_hook_facts(struct dt_facts *f, const struct run_env *e)
{
	char *log = ctt_path(e->work, "hooks/log");
	if (!ctt_exists(log)) {
		free(log);
		return;
	}
	char *text = ctt_read_file(log), *host_mnt = ctt_ns_link("self", "mnt");
	unsigned n = 0;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		char value[4096] = "";
		for (char *s2 = NULL, *field = strtok_r(line, "\t", &s2); field;
		     field = strtok_r(NULL, "\t", &s2)) {
			if (strncmp(field, "mnt=", 4) == 0)
				snprintf(value + strlen(value), sizeof(value) - strlen(value),
					 " mnt=%s", strcmp(field + 4, host_mnt) ? "other" : "host");
			else if (!strncmp(field, "kind=", 5) || !strncmp(field, "argv=", 5) ||
				 !strncmp(field, "env=", 4) || !strncmp(field, "fds=", 4))
				snprintf(value + strlen(value), sizeof(value) - strlen(value),
					 " %s", field);
		}
		char key[32];
		snprintf(key, sizeof(key), "hook.%u", n);
		dt_facts_add(f, key, value + 1);
	}
	free(text);
	free(host_mnt);
	unlink(log);
	free(log);
}

static void add_probe_facts(struct dt_facts *f, const char *name, const char *rt, char *out)
{
	ctt_strip_cr(out);
	size_t bad = 0;
	cr_assert_eq(dt_facts_parse(f, out, &bad), 0, "%s under %s: probe line %zu:\n%s", name, rt,
		     bad, out);
}

/* ---- the host's mounts below an rbind ---- */

/* An rbind of a host directory brings every mount below it: runc spec --rootless's /sys
 * brings the host's cgroup hierarchies, and tracefs, debugfs, securityfs, ... where the host
 * has them. Which of those there are is the host's (and crun 1.8.1 brings none:
 * crun-rbind-submounts), so the mounts below an rbind that no path of the config names are
 * left out of the comparison, but for the one a test made there itself (own_submount). */

/* The mount the *_spec_rootless_with_a_host_submount tests make there. */
#define OWN_SUBMOUNT	    "/sys/kernel/security"
#define OWN_SUBMOUNT_SOURCE "diff-submount"

struct named_path {
	const char *path;
	bool mount; /* a mount's destination (not a masked or read-only path) */
	bool rbind; /* the destination of an rbind */
};

#define MAX_NAMED 256

static bool at_or_below(const char *path, const char *top)
{
	size_t n = strlen(top);
	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/* The paths config names: mount destinations, masked and read-only paths, and own. */
static size_t named_paths(yajl_val config, const char *own, struct named_path *out)
{
	size_t n = 0;
	yajl_val mounts = ctt_json_get(config, ".mounts");
	for (size_t i = 0; mounts && YAJL_IS_ARRAY(mounts) && i < mounts->u.array.len; i++) {
		yajl_val m = mounts->u.array.values[i];
		const char *dest = ctt_json_get_string(m, ".destination");
		cr_assert_lt(n, MAX_NAMED);
		if (dest)
			out[n++] = (struct named_path){dest, true,
						       ctt_json_array_has(m, ".options", "rbind")};
	}
	static const char *const lists[] = {".linux.maskedPaths", ".linux.readonlyPaths"};
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		yajl_val a = ctt_json_get(config, lists[l]);
		for (size_t i = 0; a && YAJL_IS_ARRAY(a) && i < a->u.array.len; i++) {
			cr_assert_lt(n, MAX_NAMED);
			out[n++] = (struct named_path){YAJL_GET_STRING(a->u.array.values[i]), false,
						       false};
		}
	}
	if (own)
		out[n++] = (struct named_path){own, false, false};
	return n;
}

/* Whether dest is a mount the host had below an rbind's source: no named path is dest, and
 * the deepest mount destination above it is an rbind's. A masked or read-only path between
 * them changes nothing: the host's mounts below it (efivarfs below a masked /sys/firmware)
 * are still the host's. */
static bool host_submount(const char *dest, const struct named_path *named, size_t n)
{
	const struct named_path *deepest = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!named[i].path || !at_or_below(dest, named[i].path))
			continue;
		if (strcmp(named[i].path, dest) == 0)
			return false;
		if (named[i].mount && (!deepest || strlen(named[i].path) > strlen(deepest->path)))
			deepest = &named[i];
	}
	return deepest && deepest->rbind;
}

/* The probe's mount.DEST[#N] facts of the host's mounts below an rbind of the bundle's
 * config, dropped, in place. */
static void drop_host_submounts(const struct run_env *e, struct dt_facts *f)
{
	char *file = ctt_path(e->lc.bundle, "config.json");
	yajl_val config = ctt_json_load(file);
	struct named_path named[MAX_NAMED + 1];
	size_t nnamed = named_paths(config, e->own_submount, named), kept = 0;
	for (size_t i = 0; i < f->n; i++) {
		const char *key = f->v[i].key;
		bool drop = false;
		if (strncmp(key, "mount.", 6) == 0) {
			char dest[4096];
			snprintf(dest, sizeof(dest), "%.*s", (int)strcspn(key + 6, "#"), key + 6);
			drop = host_submount(dest, named, nnamed);
		}
		if (!drop) {
			f->v[kept++] = f->v[i];
			continue;
		}
		free(f->v[i].key);
		free(f->v[i].value);
	}
	f->n = kept;
	yajl_tree_free(config);
	free(file);
}

/* ---- one run under one runtime ---- */

struct terminal {
	char *sock, *out;
	pid_t receiver;
};

static void terminal_open(const struct run_env *e, struct terminal *t, const char *tag)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "console-%s.sock", tag);
	t->sock = ctt_path(e->work, rel);
	snprintf(rel, sizeof(rel), "console-%s.out", tag);
	t->out = ctt_path(e->work, rel);
	unlink(t->out); /* of an earlier run: the receiver appends, and is waited for by it */
	t->receiver = lc_console_receiver(&e->lc, t->sock, t->out, NULL);
}

/* What the container wrote to its terminal (the receiver's "ready" line dropped). */
static char *terminal_output(struct terminal *t)
{
	lc_wait(t->receiver, 30000);
	char *text = ctt_read_file(t->out);
	char *body = strdup(strncmp(text, "ready\n", 6) == 0 ? text + 6 : text);
	free(text);
	free(t->sock);
	free(t->out);
	return body;
}

static bool config_has_terminal(const char *bundle)
{
	char *file = ctt_path(bundle, "config.json");
	yajl_val v = ctt_json_load(file);
	yajl_val t = ctt_json_get(v, ".process.terminal");
	bool on = t && YAJL_IS_TRUE(t);
	yajl_tree_free(v);
	free(file);
	return on;
}

/* create (stdout to out), the cgroup read from the host, start, wait for the end, delete:
 * the facts of a config under rt. */
static void run_config(const struct run_env *e, const struct runtime *rt, const char *name,
		       struct dt_facts *f)
{
	char *out = ctt_path(e->work, "probe.out"), *err = ctt_path(e->work, "create.err");
	unlink(out);
	unlink(err);
	bool tty = config_has_terminal(e->lc.bundle);
	struct terminal term = {0};
	const char *args[12] = {"create", "--bundle", e->lc.bundle};
	size_t n = 3;
	if (tty) {
		terminal_open(e, &term, rt->name);
		args[n++] = "--console-socket";
		args[n++] = term.sock;
	}
	int fd3 = -1;
	if (strcmp(name, "podman-preserve-fds") == 0) {
		char *p = ctt_path(e->work, "preserved");
		fd3 = open(p, O_RDONLY | O_CLOEXEC);
		free(p);
		args[n++] = "--preserve-fds";
		args[n++] = "1";
	}
	args[n++] = e->id;
	args[n] = NULL;
	int status = rt_run(rt, args, out, err, fd3);
	if (fd3 >= 0)
		close(fd3);
	if (status != 0) {
		char *line = last_error_line(err);
		cr_log_info("%s: %s refuses it: %s", name, rt->name, line);
		dt_facts_add(f, "create", "refused");
		dt_facts_add(f, "create.error", line);
		free(line);
		if (tty)
			kill(term.receiver, SIGKILL);
		rt_delete(rt, e->id);
		free(out);
		free(err);
		return;
	}
	dt_facts_add(f, "create", "ok");
	yajl_val state = rt_state(rt, e->id);
	cr_assert_not_null(state, "%s: no state of a created container", rt->name);
	add_cgroup_facts(f, (pid_t)ctt_json_get_int(state, ".pid"));
	yajl_tree_free(state);
	cr_assert_eq(rt_run(rt, LC_ARGV("start", e->id), NULL, err, -1), 0, "%s start: %s",
		     rt->name, ctt_read_file(err));
	rt_wait_stopped(rt, e->id);
	char *text = tty ? terminal_output(&term) : ctt_read_file(out);
	rt_delete(rt, e->id);
	add_hook_facts(f, e);
	add_probe_facts(f, name, rt->name, text);
	free(text);
	free(out);
	free(err);
}

/* A container of config name whose process sleeps, created and started under rt. */
static void start_base(const struct run_env *e, const struct runtime *rt, const char *name)
{
	char *text = filled(e, name);
	write_config(e, text, LC_ARGV("/bin/sleep", "1000"));
	free(text);
	char *err = ctt_path(e->work, "base.err");
	unlink(err);
	cr_assert_eq(rt_run(rt, LC_ARGV("create", "--bundle", e->lc.bundle, e->id), NULL, err, -1),
		     0, "%s create of %s: %s", rt->name, name, ctt_read_file(err));
	cr_assert_eq(rt_run(rt, LC_ARGV("start", e->id), NULL, err, -1), 0, "%s start: %s",
		     rt->name, ctt_read_file(err));
	free(err);
}

static void wait_gone(pid_t pid)
{
	for (unsigned waited = 0; ctt_alive(pid); waited += 20) {
		cr_assert_lt(waited, POLL_MS, "process %d did not end", (int)pid);
		ctt_sleep_ms(20);
	}
}

/* exec -d --process of the document (probe as its args) in a container of input->base. */
static void run_exec(const struct run_env *e, const struct runtime *rt, const struct input *in,
		     struct dt_facts *f)
{
	start_base(e, rt, in->base);
	char *doc = ctt_path(e->work, "process.json");
	char *text = filled(e, in->name);
	ctt_write_file(doc, text);
	free(text);
	char *bundle_config = ctt_path(e->lc.bundle, "config.json");
	yajl_val config = ctt_json_load(bundle_config);
	char *probe = probe_args_json(config);
	yajl_tree_free(config);
	free(bundle_config);
	ctt_json_edit_file(doc, ".args", probe);
	free(probe);
	yajl_val process = ctt_json_load(doc);
	yajl_val t = ctt_json_get(process, ".terminal");
	bool tty = t && YAJL_IS_TRUE(t);
	yajl_tree_free(process);

	char *out = ctt_path(e->work, "exec.out"), *err = ctt_path(e->work, "exec.err");
	char *pidfile = ctt_path(e->work, "exec.pid");
	unlink(out);
	unlink(err);
	unlink(pidfile);
	struct terminal term = {0};
	const char *args[12] = {"exec", "-d", "--pid-file", pidfile, "--process", doc};
	size_t n = 6;
	if (tty) {
		terminal_open(e, &term, rt->name);
		args[n++] = "--console-socket";
		args[n++] = term.sock;
	}
	args[n++] = e->id;
	args[n] = NULL;
	if (rt_run(rt, args, out, err, -1) != 0) {
		char *line = last_error_line(err);
		cr_log_info("%s: %s refuses it: %s", in->name, rt->name, line);
		dt_facts_add(f, "exec", "refused");
		dt_facts_add(f, "exec.error", line);
		free(line);
		if (tty)
			kill(term.receiver, SIGKILL);
	} else {
		dt_facts_add(f, "exec", "ok");
		char *pidtext = ctt_read_file(pidfile);
		wait_gone((pid_t)atoi(pidtext));
		free(pidtext);
		char *output = tty ? terminal_output(&term) : ctt_read_file(out);
		add_probe_facts(f, in->name, rt->name, output);
		free(output);
	}
	rt_delete(rt, e->id);
	free(out);
	free(err);
	free(pidfile);
	free(doc);
}

/* update --resources of the document on a container of input->base: the cgroup after it. */
static void run_update(const struct run_env *e, const struct runtime *rt, const struct input *in,
		       struct dt_facts *f)
{
	start_base(e, rt, in->base);
	char *doc = ctt_path(e->work, "resources.json");
	char *text = filled(e, in->name);
	ctt_write_file(doc, text);
	free(text);
	char *err = ctt_path(e->work, "update.err");
	unlink(err);
	int status = rt_run(rt, LC_ARGV("update", "--resources", doc, e->id), NULL, err, -1);
	dt_facts_add(f, "update", status == 0 ? "ok" : "refused");
	if (status != 0) {
		char *line = last_error_line(err);
		cr_log_info("%s: %s refuses it: %s", in->name, rt->name, line);
		free(line);
	}
	yajl_val state = rt_state(rt, e->id);
	cr_assert_not_null(state);
	add_cgroup_facts(f, (pid_t)ctt_json_get_int(state, ".pid"));
	yajl_tree_free(state);
	rt_delete(rt, e->id);
	free(err);
	free(doc);
}

/* The document of a GENERATED input: `ctrun spec [flag]`, as a config of configs/ would be. */
static char *generated(const struct input *in)
{
	char *dir = ctt_tmpdir();
	struct ctt_result r;
	if (in->base)
		ctt_ctrun(&r, NULL, "spec", in->base, "--bundle", dir, NULL);
	else
		ctt_ctrun(&r, NULL, "spec", "--bundle", dir, NULL);
	cr_assert_eq(r.status, 0, "ctrun spec: %s", r.err);
	ctt_result_free(&r);
	char *file = ctt_path(dir, "config.json");
	char *text = ctt_read_file(file);
	free(file);
	free(dir);
	return text;
}

/* The facts of input under rt. */
static void facts_of(const struct run_env *e, const struct runtime *rt, const struct input *in,
		     struct dt_facts *f)
{
	if (in->kind == EXEC) {
		run_exec(e, rt, in, f);
		return;
	}
	if (in->kind == UPDATE) {
		run_update(e, rt, in, f);
		return;
	}
	char *text = in->kind == GENERATED ? generated(in) : filled(e, in->name);
	write_config(e, text, NULL);
	free(text);
	prepare_userns(e);
	run_config(e, rt, in->name, f);
}

/* ---- the sandbox of the pod configs ---- */

/* A pause container (`sleep`) with its own pid, ipc, uts and network namespaces, made by ctrun
 * in a bundle of its own: the pod the member configs join under either runtime. */
static void start_sandbox(struct run_env *e)
{
	static struct lc sandbox;
	lc_init(&sandbox);
	cgt_use_path(&sandbox, "sandbox");
	lc_set_args(&sandbox, LC_ARGV("/bin/sleep", "1000"));
	ctt_config_set(sandbox.bundle, ".hostname", "\"pod-sandbox\"");
	ctt_config_set(sandbox.bundle, ".process.terminal", "false");
	lc_namespace_set(&sandbox, "network", "{\"type\":\"network\"}");
	lc_ok(&sandbox, "run", "-d", "--bundle", sandbox.bundle, "sandbox");
	e->sandbox_pid = lc_pid(&sandbox, "sandbox");
}

/* ---- the verdict ---- */

static struct dt_table load_table(void)
{
	const char *src = getenv("CTRUN_SRC");
	cr_assert_not_null(src, "CTRUN_SRC is not set");
	char *file = ctt_path(src, "docs/differences-from-runc.md");
	char *text = ctt_read_file(file);
	struct dt_table t;
	char err[256];
	cr_assert_eq(dt_table_parse(&t, text, err, sizeof(err)), 0, "%s: %s", file, err);
	free(text);
	free(file);
	return t;
}

static const char *const outcomes[] = {"create", "exec", "update"};

static bool is_outcome(const char *key)
{
	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++)
		if (strcmp(key, outcomes[i]) == 0)
			return true;
	return false;
}

static bool refused(const struct dt_facts *f)
{
	for (size_t i = 0; i < sizeof(outcomes) / sizeof(outcomes[0]); i++) {
		const char *v = dt_facts_get(f, outcomes[i]);
		if (v && strcmp(v, "refused") == 0)
			return true;
	}
	return false;
}

/* The error texts differ by nature (each runtime words its own); once either runtime refused
 * the document, only the outcomes are compared. */
static void drop_uncompared(struct dt_facts *f, bool outcomes_only)
{
	size_t kept = 0;
	for (size_t i = 0; i < f->n; i++) {
		if (outcomes_only ? is_outcome(f->v[i].key) : !strstr(f->v[i].key, ".error")) {
			f->v[kept++] = f->v[i];
			continue;
		}
		free(f->v[i].key);
		free(f->v[i].value);
	}
	f->n = kept;
}

/* A rule that applies but explains nothing: what each side shows for its field. */
static void report_stale(const char *name, const char *vs, const struct dt_rule *rule,
			 const struct dt_facts *ours, const struct dt_facts *theirs)
{
	const struct dt_facts *shown = strcmp(rule->other, DT_NONE) ? theirs : ours;
	const char *pattern = strcmp(rule->other, DT_NONE) ? rule->other : rule->ctrun;
	const char *key = NULL;
	for (size_t i = 0; i < shown->n && !key; i++)
		if (fnmatch(rule->field, shown->v[i].key, 0) == 0 &&
		    fnmatch(pattern, shown->v[i].value, 0) == 0)
			key = shown->v[i].key;
	const char *a = key ? dt_facts_get(ours, key) : NULL,
		   *b = key ? dt_facts_get(theirs, key) : NULL;
	cr_log_error("config %s: row \"%s\" is no longer seen against %s: %s: ctrun \"%s\", %s "
		     "\"%s\"",
		     name, rule->key, vs, key ? key : rule->field, a ? a : DT_NONE, vs,
		     b ? b : DT_NONE);
}

static void judge(const char *name, const char *vs, const struct dt_facts *ours,
		  const struct dt_facts *theirs)
{
	struct dt_table table = load_table();
	size_t nrules = table.nrules, ndiffs;
	struct dt_rule *rules = table.rules;
	struct dt_diff *diffs = dt_compare(ours, theirs, &ndiffs);
	long *rule_of = calloc(ndiffs + 1, sizeof(*rule_of));
	bool *applies = calloc(nrules, sizeof(*applies)), *seen = calloc(nrules, sizeof(*seen));
	cr_assert(rule_of && applies && seen);
	dt_explain(rules, nrules, vs, name, ours, theirs, diffs, ndiffs, rule_of, applies, seen);
	unsigned unexplained = 0, stale = 0;
	for (size_t d = 0; d < ndiffs; d++) {
		if (rule_of[d] >= 0) {
			cr_log_info("%s: %s: ctrun \"%s\", %s \"%s\" (%s)", name, diffs[d].field,
				    diffs[d].ctrun ? diffs[d].ctrun : DT_NONE, vs,
				    diffs[d].other ? diffs[d].other : DT_NONE,
				    rules[rule_of[d]].key);
			continue;
		}
		unexplained++;
		cr_log_error("config %s: field %s: ctrun \"%s\", %s \"%s\"", name, diffs[d].field,
			     diffs[d].ctrun ? diffs[d].ctrun : DT_NONE, vs,
			     diffs[d].other ? diffs[d].other : DT_NONE);
	}
	for (size_t r = 0; r < table.nrules; r++)
		if (applies[r] && !seen[r]) {
			stale++;
			report_stale(name, vs, &rules[r], ours, theirs);
		}
	cr_expect_eq(unexplained, 0, "%s: %u difference(s) from %s not in the table", name,
		     unexplained, vs);
	cr_expect_eq(stale, 0, "%s: %u row(s) of the table no longer seen", name, stale);
	free(rule_of);
	free(applies);
	free(seen);
	free(diffs);
	dt_table_free(&table);
}

/* ---- the tests ---- */

/* A copy: the suite's .fini runs after the test's frame, where its run_env was, is gone. */
static struct run_env cleanup_env;
static bool cleanup_pending;

static void clean_up_later(const struct run_env *e)
{
	cleanup_env = *e;
	cleanup_pending = true;
}

static void delete_other_containers(void)
{
	if (cleanup_pending) {
		const struct run_env *e = &cleanup_env;
		struct runtime runc = {"runc", LC_ARGV("runc", "--root", e->other_root), e};
		struct runtime crun = {"crun", LC_ARGV("crun", "--root", e->crun_root), e,
				       hybrid_host() ? hide_unified : NULL};
		rt_delete(&runc, e->id);
		rt_delete(&crun, e->id);
		cleanup_pending = false;
	}
	lc_cleanup();
	remove_cgroup_parent();
}

static void remove_cgroup_parent(void)
{
	static const char *const controllers[] = {"memory",	  "cpu",   "cpuacct", "cpuset",
						  "pids",	  "blkio", "devices", "freezer",
						  "name=systemd", ""};
	char path[64];
	snprintf(path, sizeof(path), "/ctrun-diff-%d", (int)getpid());
	for (size_t i = 0; i < sizeof(controllers) / sizeof(controllers[0]); i++) {
		char *dir = cgt_root_dir(controllers[i], path);
		/* the parent of ctrun's default path, ctrun/<id> below the caller's cgroup */
		char *parent = cgt_dir(controllers[i], "ctrun");
		if (dir)
			rmdir(dir);
		if (parent)
			rmdir(parent);
		free(dir);
		free(parent);
	}
}

/* What configs write on the host: podman-hooks' createContainer hook runs a shell there
 * before pivot_root. */
static const char *const host_files[] = {"/tmp/container-hook.txt"};

static void cleanup(void)
{
	for (size_t i = 0; i < sizeof(host_files) / sizeof(host_files[0]); i++)
		unlink(host_files[i]);
	delete_other_containers();
	cgt_cleanup();
}

TestSuite(differential, .fini = cleanup, .timeout = 120);

/* A config this machine cannot run: ctrun's one error line names config.json and the path. */
static void expect_refusal(const char *name, const struct dt_facts *ours)
{
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		if (strcmp(refusals[i].name, name) != 0)
			continue;
		note("%s: %s: ctrun must refuse it, naming %s", name, refusals[i].why,
		     refusals[i].needle);
		cr_expect_str_eq(dt_facts_get(ours, "create"), "refused");
		const char *line = dt_facts_get(ours, "create.error");
		cr_expect(line && strstr(line, refusals[i].needle) && strstr(line, "config.json"),
			  "ctrun's error: %s", line ? line : "(none)");
	}
}

/* The mount the test made below an rbind's source (own_submount) is in ctrun's container:
 * how the other runtime shows it is the table's to judge. */
static void expect_own_submount(const struct run_env *e, const struct dt_facts *ours)
{
	if (!e->own_submount)
		return;
	char key[512], src[64];
	snprintf(key, sizeof(key), "mount.%s", e->own_submount);
	snprintf(src, sizeof(src), " src=%s ", OWN_SUBMOUNT_SOURCE);
	const char *v = dt_facts_get(ours, key);
	cr_expect(v && strstr(v, src), "ctrun does not bring the host's %s below the rbind: %s",
		  e->own_submount, v ? v : "(none)");
}

/* The facts of in under ctrun and under other, judged against the table as config name. */
static void compare(const struct run_env *e, const struct input *in, const char *name,
		    const struct runtime *ctrun, const struct runtime *other, bool check_refusal)
{
	struct dt_facts ours = {0}, theirs = {0};
	facts_of(e, ctrun, in, &ours);
	if (check_refusal)
		expect_refusal(in->name, &ours);
	facts_of(e, other, in, &theirs);
	expect_own_submount(e, &ours);
	drop_host_submounts(e, &ours);
	drop_host_submounts(e, &theirs);
	bool outcomes_only = refused(&ours) || refused(&theirs);
	drop_uncompared(&ours, outcomes_only);
	drop_uncompared(&theirs, outcomes_only);
	judge(name, other->name, &ours, &theirs);
	dt_facts_free(&ours);
	dt_facts_free(&theirs);
}

/* Whether PATH has an executable name. */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	for (const char *dir = path; dir && *dir;) {
		size_t len = strcspn(dir, ":");
		char file[4096];
		snprintf(file, sizeof(file), "%.*s/%s", (int)len, dir, name);
		if (access(file, X_OK) == 0)
			return true;
		dir += len + (dir[len] == ':');
	}
	return false;
}

/* name under ctrun, runc and crun; prepare (or NULL) makes what the test adds to the
 * host, in the test's own mount namespace, before any runtime runs. */
static void assert_runtimes_agree_with(const char *name, void (*prepare)(struct run_env *))
{
	if (!in_path("runc"))
		ctt_skip("%s: no runc in PATH (make deps installs Debian's runc)", name);
	const struct input *in = find_input(name);
	struct run_env e;
	env_init(&e);
	clean_up_later(&e);
	if (prepare)
		prepare(&e);
	if (strstr(name, "in-pod") || strstr(name, "pod-member"))
		start_sandbox(&e);
	const char *const *wrap = hybrid_host() ? hide_unified : NULL;
	struct runtime ctrun = {"ctrun", LC_ARGV(ctt_ctrun_path(), "--root", e.lc.root), &e};
	struct runtime runc = {"runc", LC_ARGV("runc", "--root", e.other_root), &e};
	struct runtime ctrun_v1 = {"ctrun", LC_ARGV(ctt_ctrun_path(), "--root", e.lc.root), &e,
				   wrap};
	struct runtime crun = {"crun", LC_ARGV("crun", "--root", e.crun_root), &e, wrap};
	compare(&e, in, name, &ctrun, &runc, true);
	if (in_path("crun"))
		compare(&e, in, name, &ctrun_v1, &crun, false);
	else
		note("%s: not compared with crun: no crun in PATH", name);
	hn_assert_untouched(&e.null, name);
}

static void assert_runtimes_agree(const char *name)
{
	assert_runtimes_agree_with(name, NULL);
}

#define AS_TEST(ident, name, kind, base)     \
	Test(differential, ident)            \
	{                                    \
		assert_runtimes_agree(name); \
	}
INPUTS(AS_TEST)

/* A mount of the host's below /sys, made in the test's own mount namespace (env_init's) over
 * whatever the host has there, so that the container's view of it is the test's alone. */
static void make_own_submount(struct run_env *e)
{
	if (access(OWN_SUBMOUNT, F_OK) != 0)
		ctt_skip("%s: %s (a kernel without securityfs)", OWN_SUBMOUNT, strerror(errno));
	while (umount2(OWN_SUBMOUNT, MNT_DETACH) == 0)
		continue;
	cr_assert_eq(errno, EINVAL, "umount %s: %s", OWN_SUBMOUNT, strerror(errno));
	cr_assert_eq(mount(OWN_SUBMOUNT_SOURCE, OWN_SUBMOUNT, "tmpfs", 0, "size=64k,mode=0755"), 0,
		     "mount tmpfs on %s: %s", OWN_SUBMOUNT, strerror(errno));
	e->own_submount = OWN_SUBMOUNT;
}

/* runc spec --rootless rbinds the host's /sys: the host's mounts below it come along under
 * ctrun, as under runc, with their own flags (`ro` is the top mount's; config.md's `rro` is
 * the recursive one); crun 1.8.1 brings none (crun-rbind-submounts). */
Test(differential, runc_spec_rootless_with_a_host_submount)
{
	assert_runtimes_agree_with("runc-1.1.5-spec-rootless", make_own_submount);
}

/* ctrun spec --rootless asks for rro, rnosuid, rnodev and rnoexec on that rbind where the
 * kernel has mount_setattr: runc 1.1.5 applies them as ctrun does, the host's mount below
 * read-only under both (crun 1.8.1 refuses ociVersion 1.3.0: crun-oci-version). */
Test(differential, ctrun_spec_rootless_with_a_host_submount)
{
	assert_runtimes_agree_with("ctrun-spec-rootless", make_own_submount);
}

/* A mount of the host's below a masked path under the rbind (efivarfs at
 * /sys/firmware/efi/efivars on an EFI host), made over the first directory of /sys/firmware
 * in the test's own mount namespace: the host's, left out like any other below the rbind. */
#define FIRMWARE "/sys/firmware"

static void make_masked_submount(struct run_env *e)
{
	(void)e;
	DIR *d = opendir(FIRMWARE);
	if (!d)
		ctt_skip("%s: %s", FIRMWARE, strerror(errno));
	char *sub = NULL;
	for (struct dirent *de; !sub && (de = readdir(d));)
		if (de->d_type == DT_DIR && de->d_name[0] != '.')
			sub = ctt_path(FIRMWARE, de->d_name);
	closedir(d);
	if (!sub)
		ctt_skip("%s has no directory to mount on", FIRMWARE);
	cr_assert_eq(mount("diff-masked-sub", sub, "tmpfs", 0, "size=64k,mode=0755"), 0,
		     "mount tmpfs on %s: %s", sub, strerror(errno));
	free(sub);
}

Test(differential, runc_spec_rootless_with_a_host_mount_below_a_masked_path)
{
	assert_runtimes_agree_with("runc-1.1.5-spec-rootless", make_masked_submount);
}

/* The facts of `delete` without --force of a created container under rt. */
static void delete_created(const struct run_env *e, const struct runtime *rt, struct dt_facts *f)
{
	char *err = ctt_path(e->work, "delete.err");
	cr_assert_eq(rt_run(rt, LC_ARGV("create", "--bundle", e->lc.bundle, e->id), NULL, err, -1),
		     0, "%s create: %s", rt->name, ctt_read_file(err));
	int status = rt_run(rt, LC_ARGV("delete", e->id), NULL, err, -1);
	dt_facts_add(f, "delete", status == 0 ? "ok" : "refused");
	yajl_val state = rt_state(rt, e->id);
	const char *after = state ? ctt_json_get_string(state, ".status") : NULL;
	if (after)
		dt_facts_add(f, "status-after-delete", after);
	yajl_tree_free(state);
	rt_delete(rt, e->id);
	free(err);
}

/* runtime.md#delete: a container that is not stopped stays, and delete is an error. */
Test(differential, delete_of_a_created_container)
{
	if (!in_path("runc"))
		ctt_skip("no runc in PATH (make deps installs Debian's runc)");
	struct run_env e;
	env_init(&e);
	clean_up_later(&e);
	lc_set_args(&e.lc, LC_ARGV("/bin/sleep", "1000"));
	ctt_config_set(e.lc.bundle, ".process.terminal", "false");
	char *q = ctt_json_quote(e.cgroup_path);
	ctt_config_set(e.lc.bundle, ".linux.cgroupsPath", q);
	free(q);
	struct runtime ctrun = {"ctrun", LC_ARGV(ctt_ctrun_path(), "--root", e.lc.root), &e};
	struct runtime runc = {"runc", LC_ARGV("runc", "--root", e.other_root), &e};
	struct dt_facts ours = {0}, theirs = {0};
	delete_created(&e, &ctrun, &ours);
	delete_created(&e, &runc, &theirs);
	judge("cli-delete-created", "runc", &ours, &theirs);
	dt_facts_free(&ours);
	dt_facts_free(&theirs);
	hn_assert_untouched(&e.null, "cli-delete-created");
}

/* Podman's default config as `podman run --cgroups=disabled` sends it (no limit but the
 * deny-all device rule), with CAP_MKNOD in its sets or dropped, under rt. */
static void cgroupless_facts(const struct run_env *e, const struct runtime *rt, bool mknod,
			     struct dt_facts *f)
{
	char *text = filled(e, "podman-default");
	write_config(e, text, NULL);
	free(text);
	ctt_config_set(e->lc.bundle, ".linux.resources.pids", NULL);
	if (!mknod)
		for (const char *const *set = LC_ARGV(".bounding", ".effective", ".permitted");
		     *set; set++) {
			char path[64];
			snprintf(path, sizeof(path), ".process.capabilities%s", *set);
			long i = lc_config_index(&e->lc, path, "", "CAP_MKNOD");
			cr_assert_geq(i, 0, "no CAP_MKNOD in %s", path);
			snprintf(path + strlen(path), sizeof(path) - strlen(path), "[%ld]", i);
			ctt_config_set(e->lc.bundle, path, NULL);
		}
	run_config(e, rt, "podman-default", f);
}

/* --cgroup-manager disabled (crun's flag; runc has none): the deny-all device rule then stands
 * nowhere, which ctrun takes only from a process that cannot make device nodes. */
Test(differential, cgroup_manager_disabled)
{
	if (!in_path("crun"))
		ctt_skip("no crun in PATH (make deps installs Debian's crun)");
	struct run_env e;
	env_init(&e);
	clean_up_later(&e);
	const char *const *wrap = hybrid_host() ? hide_unified : NULL;
	struct runtime ctrun = {
		"ctrun",
		LC_ARGV(ctt_ctrun_path(), "--cgroup-manager", "disabled", "--root", e.lc.root), &e,
		wrap};
	struct runtime crun = {"crun",
			       LC_ARGV("crun", "--cgroup-manager=disabled", "--root", e.crun_root),
			       &e, wrap};
	static const struct {
		bool mknod;
		const char *name;
	} cases[] = {{true, "cli-cgroup-manager-disabled"},
		     {false, "cli-cgroup-manager-disabled-no-mknod"}};
	for (size_t c = 0; c < 2; c++) {
		struct dt_facts ours = {0}, theirs = {0};
		cgroupless_facts(&e, &ctrun, cases[c].mknod, &ours);
		const char *why = dt_facts_get(&ours, "create.error");
		cr_expect(!cases[c].mknod || (why && strstr(why, "CAP_MKNOD")),
			  "ctrun's error names CAP_MKNOD: %s", why ? why : "(none)");
		cgroupless_facts(&e, &crun, cases[c].mknod, &theirs);
		bool outcomes_only = refused(&ours) || refused(&theirs);
		drop_uncompared(&ours, outcomes_only);
		drop_uncompared(&theirs, outcomes_only);
		judge(cases[c].name, "crun", &ours, &theirs);
		dt_facts_free(&ours);
		dt_facts_free(&theirs);
	}
	hn_assert_untouched(&e.null, "cli-cgroup-manager-disabled");
}

/* Every document of configs/ is an input above, and each input has its test. */
Test(differential, every_config_is_an_input)
{
	char *listing;
	struct ctt_result r;
	ctt_run(&r, NULL, LC_ARGV("ls", configs_dir()));
	listing = r.out;
	unsigned documents = 0;
	for (char *save = NULL, *f = strtok_r(listing, "\n", &save); f;
	     f = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(f);
		if (len < 6 || strcmp(f + len - 5, ".json") != 0)
			continue;
		f[len - 5] = '\0';
		find_input(f);
		documents++;
	}
	cr_expect_eq(documents + 2, sizeof(inputs) / sizeof(inputs[0]),
		     "inputs that are no document of configs/ besides ctrun-spec*");
	ctt_result_free(&r);
}
