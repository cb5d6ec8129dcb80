/* The cgroup v2 driver: one directory in the unified hierarchy; the controllers are enabled
 * through each parent's cgroup.subtree_control; freezing, killing and emptiness have their
 * own files (cgroup.freeze, cgroup.kill, cgroup.events). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/bpf_devices.h"
#include "libct/cgroup/internal.h"

#define FREEZE_WAIT_MS 10000

static const char *unified_dir(const struct ct_cgroup *cg)
{
	return ct_cgroup_dir_path(cg, CT_CGROUP_UNIFIED_KEY);
}

/* ---- create ---- */

/* Threaded subtrees hold threads, not processes: a container cannot live there. */
static int refuse_threaded(const char *dir, struct ct_error *err)
{
	_cleanup_free_ char *type = ct_cg_read(dir, "cgroup.type");
	if (!type || strncmp(type, "domain\n", 7) == 0)
		return 0;
	type[strcspn(type, "\n")] = '\0';
	return ct_error_plain(err, ENOTSUP,
			      "cgroup \"%s\" is of type \"%s\": threaded cgroups cannot hold a "
			      "container (not supported)",
			      dir, type);
}

/* Every controller a level offers is made available to the level below, from the mount's
 * root down to the container's parent, as runc and crun do. A level refusing one (its own
 * processes: the no-internal-process rule) is left as it is: the write of a limit then
 * says which file is missing. */
static void enable_at(const char *level)
{
	_cleanup_free_ char *avail = ct_cg_read(level, "cgroup.controllers");
	_cleanup_free_ char *on = ct_cg_read(level, "cgroup.subtree_control");
	if (!avail || !on)
		return;
	char have[1024];
	snprintf(have, sizeof(have), " %.*s ", (int)strcspn(on, "\n"), on);
	char *save = NULL;
	for (char *c = strtok_r(avail, " \n", &save); c; c = strtok_r(NULL, " \n", &save)) {
		char want[64];
		snprintf(want, sizeof(want), " %s ", c);
		if (strstr(have, want))
			continue;
		snprintf(want, sizeof(want), "+%s", c);
		ct_cg_write(level, "cgroup.subtree_control", want, NULL);
	}
}

static void enable_controllers(const char *leaf, const char *mount)
{
	char level[4096];
	for (const char *p = leaf + strlen(mount); p && *p; p = strchr(p + 1, '/')) {
		snprintf(level, sizeof(level), "%.*s", (int)(p - leaf), leaf);
		enable_at(level);
	}
}

void ct_cg_v2_enable_above(const char *leaf)
{
	const struct ct_cgroup_layout *l;
	struct ct_error ignored;
	if (ct_cgroup_layout_get(&l, &ignored) == 0 && l->unified_mount)
		enable_controllers(leaf, l->unified_mount);
}

static int v2_prepare(struct ct_cgroup *cg, struct ct_cgroup_dir *d, struct ct_error *err)
{
	(void)cg;
	char parent[4096];
	snprintf(parent, sizeof(parent), "%s", d->path);
	*strrchr(parent, '/') = '\0';
	if (refuse_threaded(parent, err) < 0)
		return -1;
	const struct ct_cgroup_layout *l;
	if (ct_cgroup_layout_get(&l, err) < 0)
		return -1;
	if (l->unified_mount)
		enable_controllers(d->path, l->unified_mount);
	return 0;
}

static int v2_create(struct ct_cgroup *cg, enum ct_cgroup_part part, struct ct_error *err)
{
	return ct_cg_make_dirs(cg, part, v2_prepare, err);
}

/* ---- apply ---- */

/* Device rules on cgroup v2 are an eBPF program (BPF_CGROUP_DEVICE) attached to the
 * cgroup directory: libct/cgroup/bpf_devices.c, the config's rules then the standard ones. */
static int v2_apply_devices(struct ct_cgroup *cg, const struct oci_resources *res,
			    struct ct_error *err)
{
	int fd = ct_cgroup_clone_fd(cg, err);
	if (fd < 0)
		return -1;
	if (ct_bpf_devices_apply(fd, res, err) == 0)
		return 0;
	/* Rootless (a user's delegated cgroup, its systemd's unit): the kernel loads a device
	 * filter for no unprivileged user. Without it the container still reaches no device its
	 * user could not open: its own device nodes are nodev in its user namespace and it has no
	 * mknod outside. runc and crun go on the same way. */
	if (err->errnum != EPERM || geteuid() == 0)
		return -1;
	if (cg->warn)
		cg->warn("rootless: the device rules are not enforced (no device filter for an "
			 "unprivileged user)");
	*err = (struct ct_error){0};
	return 0;
}

static int v2_apply(struct ct_cgroup *cg, const struct oci_resources *res,
		    enum ct_cgroup_apply_mode mode, struct ct_error *err)
{
	if ((mode == CT_CGROUP_APPLY_CREATE || res->devices.len) &&
	    v2_apply_devices(cg, res, err) < 0)
		return -1;
	return ct_cg_apply_resources(cg, CT_CG_V2, res, mode, err);
}

/* ---- freezer ---- */

static int read_events(const char *dir, const char *key, unsigned long long *v,
		       struct ct_error *err)
{
	_cleanup_free_ char *text = ct_cg_read(dir, "cgroup.events");
	if (!text)
		return ct_error_sys(err, errno, "read \"%s/cgroup.events\"", dir);
	if (!ct_cg_keyed_value(text, key, v))
		return ct_error_plain(err, ENOTSUP,
				      "\"%s/cgroup.events\" has no \"%s\" (the "
				      "kernel is older than 5.2)",
				      dir, key);
	return 0;
}

/* cgroup.events says "frozen 1" once every process stopped; its change wakes inotify. */
static int v2_freeze(struct ct_cgroup *cg, bool frozen, struct ct_error *err)
{
	const char *dir = unified_dir(cg);
	if (!dir)
		return ct_error_plain(err, ENOTSUP, "the cgroup has no cgroup2 directory");
	if (!ct_cg_has(dir, "cgroup.freeze"))
		return ct_error_plain(err, ENOTSUP,
				      "\"%s/cgroup.freeze\" does not exist (the "
				      "kernel is older than 5.2)",
				      dir);
	if (ct_cg_write(dir, "cgroup.freeze", frozen ? "1" : "0", err) < 0)
		return -1;
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		unsigned long long v;
		if (read_events(dir, "frozen", &v, err) < 0)
			return -1;
		if ((v != 0) == frozen)
			return 0;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 > FREEZE_WAIT_MS)
			return ct_error_plain(err, ETIMEDOUT, "cgroup \"%s\" did not %s", dir,
					      frozen ? "freeze" : "thaw");
		ct_cg_wait_modify(dir, "cgroup.events", 100);
	}
}

/* ---- stats ---- */

static void v2_cpu_stats(const char *dir, struct ct_cgroup_stats *st)
{
	_cleanup_free_ char *text = ct_cg_read(dir, "cpu.stat");
	unsigned long long v;
	if (!text)
		return;
	st->has_cpu = true;
	static const struct {
		const char *key;
		size_t offset;
		uint64_t scale;
	} fields[] = {
		{"usage_usec", offsetof(struct ct_cgroup_stats, cpu.total_ns), 1000},
		{"user_usec", offsetof(struct ct_cgroup_stats, cpu.user_ns), 1000},
		{"system_usec", offsetof(struct ct_cgroup_stats, cpu.kernel_ns), 1000},
		{"nr_periods", offsetof(struct ct_cgroup_stats, cpu.periods), 1},
		{"nr_throttled", offsetof(struct ct_cgroup_stats, cpu.throttled_periods), 1},
		{"throttled_usec", offsetof(struct ct_cgroup_stats, cpu.throttled_ns), 1000},
	};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (ct_cg_keyed_value(text, fields[i].key, &v))
			*(uint64_t *)((char *)st + fields[i].offset) = v * fields[i].scale;
}

/* A memory limit: "max" is UINT64_MAX here, as runc reports it (not pids' 0). */
static void read_memory_limit(const char *dir, const char *file, uint64_t *out)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	unsigned long long v;
	if (text && strncmp(text, "max", 3) == 0)
		*out = UINT64_MAX;
	else if (text && sscanf(text, "%llu", &v) == 1)
		*out = v;
}

/* runc 1.1.5's: usage and limit (no peak, no kernel entry); swap as v1's memsw, memory and
 * swap together. */
static void v2_memory_usage(const char *dir, struct ct_cgroup_stats *st)
{
	struct ct_cgroup_memory_entry *mem = &st->memory.usage, *swap = &st->memory.swap;
	read_memory_limit(dir, "memory.max", &mem->limit);
	ct_cg_read_u64(dir, "memory.swap.current", &swap->usage);
	read_memory_limit(dir, "memory.swap.max", &swap->limit);
	swap->usage += mem->usage;
	if (swap->limit != UINT64_MAX)
		swap->limit += mem->limit;
}

static int v2_memory_stats(const char *dir, struct ct_cgroup_stats *st)
{
	if (!ct_cg_read_u64(dir, "memory.current", &st->memory.usage.usage))
		return 0;
	st->has_memory = true;
	st->memory.use_hierarchy = true;
	v2_memory_usage(dir, st);
	_cleanup_free_ char *events = ct_cg_read(dir, "memory.events");
	unsigned long long v;
	if (events && ct_cg_keyed_value(events, "oom_kill", &v))
		st->oom_kills = v;
	if (ct_cg_read_raw_stats(dir, "memory.stat", st) < 0)
		return -1;
	for (size_t i = 0; i < st->memory.n_raw; i++)
		if (strcmp(st->memory.raw_keys[i], "file") == 0)
			st->memory.cache = st->memory.raw_values[i];
	return 0;
}

static int add_io_entry(struct ct_cgroup_blkio_entry **list, size_t *n, unsigned long long major,
			unsigned long long minor, const char *op, unsigned long long v)
{
	struct ct_cgroup_blkio_entry *grown = realloc(*list, (*n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	*list = grown;
	grown[*n] = (struct ct_cgroup_blkio_entry){.major = major, .minor = minor, .value = v};
	snprintf(grown[*n].op, sizeof(grown[*n].op), "%s", op);
	(*n)++;
	return 0;
}

/* The io.stat fields runc maps to v1's tables; it leaves the others (discards, iocost) out. */
static const struct io_field {
	const char *key, *op;
	bool bytes; /* ioServiceBytesRecursive, else ioServicedRecursive */
} io_fields[] = {
	{"rbytes", "Read", true},
	{"wbytes", "Write", true},
	{"rios", "Read", false},
	{"wios", "Write", false},
};

static const struct io_field *find_io_field(const char *key)
{
	for (size_t i = 0; i < sizeof(io_fields) / sizeof(io_fields[0]); i++)
		if (!strcmp(io_fields[i].key, key))
			return &io_fields[i];
	return NULL;
}

/* One device's line after its "MAJ:MIN": "rbytes=N wbytes=N rios=N wios=N dbytes=N ...". */
static int v2_io_line(char *fields, unsigned long long major, unsigned long long minor,
		      struct ct_cgroup_stats *st)
{
	char *save = NULL;
	for (char *f = strtok_r(fields, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
		char key[32];
		unsigned long long v;
		const struct io_field *field;
		if (sscanf(f, "%31[^=]=%llu", key, &v) != 2 || !(field = find_io_field(key)))
			continue;
		enum ct_cgroup_blkio_list list =
			field->bytes ? CT_BLKIO_SERVICE_BYTES : CT_BLKIO_SERVICED;
		if (add_io_entry(&st->blkio[list].entries, &st->blkio[list].n, major, minor,
				 field->op, v) < 0)
			return -1;
	}
	return 0;
}

static int v2_io_stats(const char *dir, struct ct_cgroup_stats *st)
{
	_cleanup_free_ char *text = ct_cg_read(dir, "io.stat");
	if (!text)
		return 0;
	st->has_blkio = true;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long major, minor;
		int off;
		if (sscanf(line, "%llu:%llu%n", &major, &minor, &off) == 2 &&
		    v2_io_line(line + off, major, minor, st) < 0)
			return -1;
	}
	return 0;
}

/* pids.current; without the pids controller, runc counts the processes instead. */
static int v2_pids_stats(struct ct_cgroup *cg, const char *dir, struct ct_cgroup_stats *st,
			 struct ct_error *err)
{
	st->has_pids = true;
	if (ct_cg_read_u64(dir, "pids.current", &st->pids.current)) {
		ct_cg_read_u64(dir, "pids.max", &st->pids.limit);
		return 0;
	}
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	if (ct_cg_list_all_pids(cg, &pids, &n, err) < 0)
		return -1;
	st->pids.current = n;
	return 0;
}

static int v2_stats(struct ct_cgroup *cg, struct ct_cgroup_stats *st, struct ct_error *err)
{
	const char *dir = unified_dir(cg);
	if (!dir)
		return ct_error_plain(err, ENOTSUP, "the cgroup has no cgroup2 directory");
	v2_cpu_stats(dir, st);
	if (v2_pids_stats(cg, dir, st, err) < 0) {
		ct_cgroup_stats_free(st);
		return -1;
	}
	if (v2_memory_stats(dir, st) < 0 || v2_io_stats(dir, st) < 0 ||
	    ct_cg_hugetlb_stats(dir, true, st) < 0) {
		ct_cgroup_stats_free(st);
		return ct_error_sys(err, ENOMEM, "read cgroup statistics");
	}
	return 0;
}

/* ---- the rest ---- */

static int v2_oom_watch(struct ct_cgroup *cg, struct ct_error *err)
{
	const char *dir = unified_dir(cg);
	char path[4096];
	if (!dir)
		return ct_error_plain(err, ENOTSUP, "the cgroup has no cgroup2 directory");
	snprintf(path, sizeof(path), "%s/memory.events", dir);
	_cleanup_close_ int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (fd < 0)
		return ct_error_sys(err, errno, "inotify_init1");
	if (inotify_add_watch(fd, path, IN_MODIFY) < 0)
		return ct_error_sys(err, errno, "watch \"%s\"", path);
	return steal_fd(&fd);
}

static int v2_kill_all(struct ct_cgroup *cg, int sig, struct ct_error *err)
{
	if (sig == SIGKILL) {
		int done = ct_cg_kill_v2(cg, err);
		if (done != 0)
			return done < 0 ? -1 : 0;
	}
	const char *dir = unified_dir(cg);
	bool freezer = dir && ct_cg_has(dir, "cgroup.freeze");
	return ct_cg_signal_frozen(cg, sig, freezer ? v2_freeze : NULL, err);
}

static int v2_destroy(struct ct_cgroup *cg, struct ct_error *err)
{
	if (ct_cg_remove_empty_dirs(cg))
		return 0;
	const char *dir = unified_dir(cg);
	unsigned long long populated = 0;
	_cleanup_free_ char *events = dir ? ct_cg_read(dir, "cgroup.events") : NULL;
	if (events && ct_cg_keyed_value(events, "populated", &populated) && populated &&
	    v2_kill_all(cg, SIGKILL, err) < 0)
		return -1;
	return ct_cg_remove_dirs(cg, err);
}

const struct ct_cgroup_ops ct_cgroup_v2_ops = {
	.name = "v2",
	.unified = true,
	.create = v2_create,
	.apply = v2_apply,
	.freeze = v2_freeze,
	.list_pids = ct_cg_list_all_pids,
	.stats = v2_stats,
	.oom_watch = v2_oom_watch,
	.kill_all = v2_kill_all,
	.destroy = v2_destroy,
};
