/* The cgroup v1 driver: one directory per mounted hierarchy (cpu, cpuacct, cpuset, memory,
 * pids, blkio, devices, freezer, net_cls, net_prio, hugetlb, rdma, name=systemd, whatever
 * the host mounts), plus the cgroup2 directory on a hybrid host (placement, cgroup.kill). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/convert.h"
#include "libct/cgroup/device_rules.h"
#include "libct/cgroup/internal.h"

#define FREEZE_WAIT_MS 10000

/* ---- create ---- */

/* file of the level `up` levels above the leaf: the leaf and its parent through the
 * leaf's fd (no walk of the long path), the others by path. */
static char *read_level(const struct ct_cgroup_dir *d, const char *level, size_t up,
			const char *file)
{
	char rel[64];
	if (d->fd < 0 || up > 1)
		return ct_cg_read(level, file);
	snprintf(rel, sizeof(rel), "%s%s", up ? "../" : "", file);
	return ct_cg_read_at(d->fd, level, rel);
}

/* A new cpuset cgroup starts with empty cpus and mems, and a process cannot join it until
 * both are set: every empty level between the mount and the leaf gets the value of its
 * nearest ancestor that has one. Found from below (the leaf's parent usually has it: one
 * read, one write); directories create just made (fresh) are empty and not read. */
static int copy_cpuset_down(const struct ct_cgroup_dir *d, const char *mountpoint, const char *file,
			    struct ct_error *err)
{
	char level[4096];
	size_t ends[128], n = 0, root = strlen(mountpoint);
	snprintf(level, sizeof(level), "%s", d->path);
	if (strlen(level) <= root)
		return 0; /* the hierarchy's root: it has its cpus and mems */
	for (size_t i = root + 1; level[i] && n + 1 < sizeof(ends) / sizeof(ends[0]); i++)
		if (level[i] == '/')
			ends[n++] = i;
	ends[n++] = strlen(level); /* ends[k]: where level k ends; the mount itself is root */
	size_t made = d->made_from ? strlen(d->made_from) : SIZE_MAX;
	size_t k = n; /* the levels below k are empty: k is where the value comes from */
	_cleanup_free_ char *value = NULL;
	while (!value) {
		size_t end = k == 0 ? root : ends[k - 1];
		if (k > 0 && end >= made) { /* fresh */
			k--;
			continue;
		}
		char saved = level[end];
		level[end] = '\0';
		value = read_level(d, level, n - k, file);
		level[end] = saved;
		if (!value && k == 0)
			return ct_error_sys(err, errno, "read \"%s/%s\"", mountpoint, file);
		if (value && (!*value || *value == '\n') && k > 0) {
			free(value);
			value = NULL;
		}
		if (!value)
			k--;
	}
	value[strcspn(value, "\n")] = '\0';
	for (; k < n && *value; k++) {
		char saved = level[ends[k]];
		level[ends[k]] = '\0';
		int rc = ct_cg_write_at(k + 1 == n ? d->fd : -1, level, file, value, err);
		level[ends[k]] = saved;
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int v1_prepare(struct ct_cgroup *cg, struct ct_cgroup_dir *d, struct ct_error *err)
{
	(void)cg;
	const struct ct_cgroup_layout *l;
	const struct ct_cgroup_hierarchy_info *h;
	if (ct_cgroup_layout_get(&l, err) < 0)
		return -1;
	if (!(h = ct_cgroup_layout_find(l, "cpuset")) || strcmp(h->key, d->key) != 0)
		return 0;
	if (copy_cpuset_down(d, h->mountpoint, "cpuset.cpus", err) < 0 ||
	    copy_cpuset_down(d, h->mountpoint, "cpuset.mems", err) < 0)
		return -1;
	return 0;
}

static int v1_create(struct ct_cgroup *cg, enum ct_cgroup_part part, struct ct_error *err)
{
	return ct_cg_make_dirs(cg, part, v1_prepare, err);
}

/* ---- devices ---- */

/* devices.allow and devices.deny, each opened once for all the rules written to it. */
struct rule_files {
	const struct ct_cgroup_dir *dir;
	int fd[2]; /* [0] deny, [1] allow; -1 until needed */
};

static int write_rule(struct rule_files *f, bool allow, const char *rule, struct ct_error *err)
{
	const char *name = allow ? "devices.allow" : "devices.deny";
	char path[4096];
	int *fd = &f->fd[allow];
	if (*fd < 0 && (*fd = ct_cg_open_at(f->dir->fd, f->dir->path, name, O_WRONLY | O_CLOEXEC,
					    path, sizeof(path))) < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	return ct_cg_write_fd(*fd, path, rule, err);
}

/* Starts from nothing allowed, then the rules in order (the config's, then the standard
 * devices, libct/cgroup/device_rules.h): the kernel's exception list does the rest. */
static int v1_apply_devices(struct ct_cgroup *cg, const struct oci_resources *res,
			    struct ct_error *err)
{
	const struct ct_cgroup_dir *dir = ct_cg_controller(cg, "devices");
	if (!dir)
		return 0; /* no devices hierarchy mounted: nothing to restrict with */
	struct ct_dev_rules rules;
	if (ct_dev_rules_build(res, &rules, err) < 0)
		return -1;
	struct rule_files f = {dir, {-1, -1}};
	int rc = write_rule(&f, false, "a", err);
	for (size_t i = 0; rc == 0 && i < rules.len; i++) {
		char rule[CT_DEV_RULE_MAX];
		if (!rules.items[i].access)
			continue;
		/* devices.allow and devices.deny take one rule a write */
		ct_cgroup_format_dev_rule(&rules.items[i], rule);
		rc = write_rule(&f, rules.items[i].allow, rule, err);
		if (rc < 0 && i < res->devices.len)
			ct_error_prefix(err, "config.json: .linux.resources.devices[%zu]", i);
	}
	for (int i = 0; i < 2; i++)
		ct_close_now(&f.fd[i]);
	ct_dev_rules_free(&rules);
	return rc;
}

static int v1_apply(struct ct_cgroup *cg, const struct oci_resources *res,
		    enum ct_cgroup_apply_mode mode, struct ct_error *err)
{
	if (mode == CT_CGROUP_APPLY_CREATE && v1_apply_devices(cg, res, err) < 0)
		return -1;
	if (mode == CT_CGROUP_APPLY_UPDATE && res->devices.len &&
	    v1_apply_devices(cg, res, err) < 0)
		return -1;
	return ct_cg_apply_resources(cg, CT_CG_V1, res, mode, err);
}

/* ---- freezer ---- */

/* freezer.state: FREEZING while some task has not stopped yet. */
enum ct_cgroup_freezer { CT_FREEZER_THAWED, CT_FREEZER_FREEZING, CT_FREEZER_FROZEN };

static int v1_freezer_state(struct ct_cgroup *cg, enum ct_cgroup_freezer *out, struct ct_error *err)
{
	const char *dir = ct_cg_controller_dir(cg, "freezer");
	if (!dir)
		return ct_error_plain(err, ENOTSUP, "the freezer controller is not mounted");
	_cleanup_free_ char *text = ct_cg_read(dir, "freezer.state");
	if (!text)
		return ct_error_sys(err, errno, "read \"%s/freezer.state\"", dir);
	*out = strncmp(text, "FROZEN", 6) == 0	   ? CT_FREEZER_FROZEN
	       : strncmp(text, "FREEZING", 8) == 0 ? CT_FREEZER_FREEZING
						   : CT_FREEZER_THAWED;
	return 0;
}

/* freezer.state reads FREEZING until every task stopped; v1 has no event for it, so it is
 * read again after a short pause (and FROZEN written again, which retries a stuck one). */
static int v1_freeze(struct ct_cgroup *cg, bool frozen, struct ct_error *err)
{
	const char *dir = ct_cg_controller_dir(cg, "freezer");
	if (!dir)
		return ct_error_plain(err, ENOTSUP, "the freezer controller is not mounted");
	const char *want = frozen ? "FROZEN" : "THAWED";
	for (int waited = 0; waited < FREEZE_WAIT_MS; waited++) {
		if (ct_cg_write(dir, "freezer.state", want, err) < 0)
			return -1;
		enum ct_cgroup_freezer st;
		if (v1_freezer_state(cg, &st, err) < 0)
			return -1;
		if (st == (frozen ? CT_FREEZER_FROZEN : CT_FREEZER_THAWED))
			return 0;
		nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
	}
	return ct_error_plain(err, ETIMEDOUT, "cgroup \"%s\" did not become %s", dir, want);
}

/* ---- stats ---- */

static int v1_cpu_stats(const char *acct, const char *cpu, struct ct_cgroup_stats *st)
{
	if (acct) {
		st->has_cpu = ct_cg_read_u64(acct, "cpuacct.usage", &st->cpu.total_ns);
		ct_cg_read_u64(acct, "cpuacct.usage_user", &st->cpu.user_ns);
		ct_cg_read_u64(acct, "cpuacct.usage_sys", &st->cpu.kernel_ns);
		if (ct_cg_read_u64_list(acct, "cpuacct.usage_percpu", &st->cpu.percpu_ns,
					&st->cpu.n_percpu) < 0 ||
		    ct_cg_read_u64_list(acct, "cpuacct.usage_percpu_sys", &st->cpu.percpu_kernel_ns,
					&st->cpu.n_percpu_kernel) < 0 ||
		    ct_cg_read_u64_list(acct, "cpuacct.usage_percpu_user", &st->cpu.percpu_user_ns,
					&st->cpu.n_percpu_user) < 0)
			return -1;
	}
	_cleanup_free_ char *text = cpu ? ct_cg_read(cpu, "cpu.stat") : NULL;
	unsigned long long v;
	if (text && ct_cg_keyed_value(text, "nr_periods", &v))
		st->cpu.periods = v;
	if (text && ct_cg_keyed_value(text, "nr_throttled", &v))
		st->cpu.throttled_periods = v;
	if (text && ct_cg_keyed_value(text, "throttled_time", &v))
		st->cpu.throttled_ns = v;
	return 0;
}

static void v1_memory_entry(const char *dir, const char *prefix, struct ct_cgroup_memory_entry *e)
{
	static const char *const names[] = {"usage_in_bytes", "max_usage_in_bytes", "failcnt",
					    "limit_in_bytes"};
	uint64_t *fields[] = {&e->usage, &e->max_usage, &e->failcnt, &e->limit};
	for (size_t i = 0; i < 4; i++) {
		char file[96];
		snprintf(file, sizeof(file), "%s%s", prefix, names[i]);
		ct_cg_read_u64(dir, file, fields[i]);
	}
}

static int v1_memory_stats(const char *dir, struct ct_cgroup_stats *st)
{
	st->has_memory = true;
	v1_memory_entry(dir, "memory.", &st->memory.usage);
	v1_memory_entry(dir, "memory.memsw.", &st->memory.swap);
	v1_memory_entry(dir, "memory.kmem.", &st->memory.kernel);
	v1_memory_entry(dir, "memory.kmem.tcp.", &st->memory.kernel_tcp);
	uint64_t h = 0;
	st->memory.use_hierarchy = ct_cg_read_u64(dir, "memory.use_hierarchy", &h) && h;
	_cleanup_free_ char *oom = ct_cg_read(dir, "memory.oom_control");
	unsigned long long kills;
	if (oom && ct_cg_keyed_value(oom, "oom_kill", &kills))
		st->oom_kills = kills;
	if (ct_cg_read_raw_stats(dir, "memory.stat", st) < 0)
		return -1;
	for (size_t i = 0; i < st->memory.n_raw; i++)
		if (strcmp(st->memory.raw_keys[i], "cache") == 0)
			st->memory.cache = st->memory.raw_values[i];
	return 0;
}

/* Every controller's statistics; -1 when out of memory. */
static int v1_read_all(struct ct_cgroup *cg, struct ct_cgroup_stats *st)
{
	const char *mem = ct_cg_controller_dir(cg, "memory");
	const char *pids = ct_cg_controller_dir(cg, "pids");
	const char *blkio = ct_cg_controller_dir(cg, "blkio");
	const char *huge = ct_cg_controller_dir(cg, "hugetlb");
	if (v1_cpu_stats(ct_cg_controller_dir(cg, "cpuacct"), ct_cg_controller_dir(cg, "cpu"), st) <
	    0)
		return -1;
	if (mem && v1_memory_stats(mem, st) < 0)
		return -1;
	if (pids) {
		st->has_pids = ct_cg_read_u64(pids, "pids.current", &st->pids.current);
		ct_cg_read_u64(pids, "pids.max", &st->pids.limit);
	}
	if (blkio && ct_cg_blkio_v1_stats(blkio, st) < 0)
		return -1;
	return huge ? ct_cg_hugetlb_stats(huge, false, st) : 0;
}

static int v1_stats(struct ct_cgroup *cg, struct ct_cgroup_stats *st, struct ct_error *err)
{
	const char *cpuset = ct_cg_controller_dir(cg, "cpuset");
	if (v1_read_all(cg, st) < 0) {
		ct_cgroup_stats_free(st);
		return ct_error_sys(err, ENOMEM, "read cgroup statistics");
	}
	if (cpuset && ct_cg_cpuset_stats(cpuset, st, err) < 0) {
		ct_cgroup_stats_free(st);
		return -1;
	}
	return 0;
}

/* ---- the rest ---- */

/* cgroup-v1/memory.rst "Memory thresholds"/OOM notification: an eventfd registered with
 * cgroup.event_control against memory.oom_control. */
static int v1_oom_watch(struct ct_cgroup *cg, struct ct_error *err)
{
	const char *dir = ct_cg_controller_dir(cg, "memory");
	if (!dir)
		return ct_error_plain(err, ENOTSUP, "the memory controller is not mounted");
	char path[4096], line[64];
	snprintf(path, sizeof(path), "%s/memory.oom_control", dir);
	_cleanup_close_ int oom = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (oom < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	_cleanup_close_ int efd = eventfd(0, EFD_CLOEXEC);
	if (efd < 0)
		return ct_error_sys(err, errno, "eventfd");
	snprintf(line, sizeof(line), "%d %d", efd, oom);
	if (ct_cg_write(dir, "cgroup.event_control", line, err) < 0)
		return -1;
	return steal_fd(&efd);
}

static int v1_freeze_if_mounted(struct ct_cgroup *cg, bool frozen, struct ct_error *err)
{
	return ct_cg_controller_dir(cg, "freezer") ? v1_freeze(cg, frozen, err) : 0;
}

/* A task the v1 freezer holds does not die of SIGKILL until it is thawed. */
static int thaw_if_frozen(struct ct_cgroup *cg, struct ct_error *err)
{
	enum ct_cgroup_freezer st;
	if (!ct_cg_controller_dir(cg, "freezer") || v1_freezer_state(cg, &st, err) < 0 ||
	    st == CT_FREEZER_THAWED)
		return 0;
	return v1_freeze(cg, false, err);
}

/* SIGKILL of a cgroup that is not frozen needs no freezer: a process with SIGKILL pending
 * forks no more, and one more round takes what a dying one forked meanwhile. */
static int kill_thawed(struct ct_cgroup *cg, struct ct_error *err)
{
	enum ct_cgroup_freezer st = CT_FREEZER_THAWED;
	if (ct_cg_controller_dir(cg, "freezer") && v1_freezer_state(cg, &st, err) < 0)
		return -1;
	return st == CT_FREEZER_THAWED ? ct_cg_kill_and_wait(cg, err) : 0;
}

static int v1_kill_all(struct ct_cgroup *cg, int sig, struct ct_error *err)
{
	if (sig == SIGKILL) {
		int done = ct_cg_kill_v2(cg, err);
		if (done != 0)
			return done < 0 || thaw_if_frozen(cg, err) < 0 ? -1 : 0;
		done = kill_thawed(cg, err);
		if (done != 0)
			return done < 0 ? -1 : 0;
	}
	bool freezer = ct_cg_controller_dir(cg, "freezer") != NULL;
	return ct_cg_signal_frozen(cg, sig, freezer ? v1_freeze_if_mounted : NULL, err);
}

static int v1_destroy(struct ct_cgroup *cg, struct ct_error *err)
{
	if (ct_cg_remove_empty_dirs(cg))
		return 0;
	_cleanup_free_ pid_t *pids = NULL;
	size_t n = 0;
	if (ct_cg_list_all_pids(cg, &pids, &n, err) < 0)
		return -1;
	if (n && v1_kill_all(cg, SIGKILL, err) < 0)
		return -1;
	return ct_cg_remove_dirs(cg, err);
}

const struct ct_cgroup_ops ct_cgroup_v1_ops = {
	.name = "v1",
	.create = v1_create,
	.apply = v1_apply,
	.freeze = v1_freeze,
	.list_pids = ct_cg_list_all_pids,
	.stats = v1_stats,
	.oom_watch = v1_oom_watch,
	.kill_all = v1_kill_all,
	.destroy = v1_destroy,
};
