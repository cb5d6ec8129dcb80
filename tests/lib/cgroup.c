/* Helpers of the cgroup suites (cgroup.h). */
#include "tests/lib/cgroup.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

const char *cgt_subtree(void)
{
	static char name[64];
	if (!name[0])
		snprintf(name, sizeof(name), "ctrun-test-%d", (int)getpid());
	return name;
}

void cgt_use_path(const struct lc *t, const char *name)
{
	char json[256];
	snprintf(json, sizeof(json), "\"%s/%s\"", cgt_subtree(), name);
	ctt_config_set(t->bundle, ".linux.cgroupsPath", json);
}

void cgt_run_ready(const struct lc *t, const char *id, const char *script)
{
	cgt_use_path(t, id);
	lc_set_script(t, script);
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, id);
	char *ready = lc_rootfs_path(t, "ready");
	ctt_wait_file(ready);
	free(ready);
}

static bool is_cgroup2(const char *path)
{
	struct statfs s;
	return statfs(path, &s) == 0 && s.f_type == CGROUP2_SUPER_MAGIC;
}

/* The mount point of a /proc/self/cgroup line's hierarchy: its controller list as the
 * directory name ("cpu,cpuacct"), or the single controller, or a name= hierarchy's name. */
static bool hierarchy_mount(const char *controllers, char *out, size_t size)
{
	struct stat st;
	if (!*controllers) {
		snprintf(out, size, "%s",
			 is_cgroup2("/sys/fs/cgroup") ? "/sys/fs/cgroup"
						      : "/sys/fs/cgroup/unified");
		return is_cgroup2(out);
	}
	const char *name = strncmp(controllers, "name=", 5) == 0 ? controllers + 5 : controllers;
	snprintf(out, size, "/sys/fs/cgroup/%s", name);
	return stat(out, &st) == 0;
}

/* Whether want is one of the comma-separated controllers ("" matches the cgroup2 line). */
static bool line_has(const char *controllers, const char *want)
{
	if (!*want || !*controllers)
		return !*want && !*controllers;
	return ctt_in_list(controllers, want);
}

/* One hierarchy of /proc/self/cgroup: its controllers, mount point and our cgroup's dir. */
struct hierarchy {
	const char *controllers, *mount, *dir;
};

/* Calls fn for each hierarchy of /proc/self/cgroup. */
static void each_hierarchy(void (*fn)(const struct hierarchy *h, void *arg), void *arg)
{
	char *text = ctt_read_file("/proc/self/cgroup");
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		char mount[512], dir[1024];
		if (!hierarchy_mount(c1 + 1, mount, sizeof(mount)))
			continue;
		snprintf(dir, sizeof(dir), "%s%s", mount, strcmp(c2 + 1, "/") ? c2 + 1 : "");
		fn(&(struct hierarchy){c1 + 1, mount, dir}, arg);
	}
	free(text);
}

struct find {
	const char *controller, *rel;
	bool absolute; /* rel is below the hierarchy's root, not below our cgroup */
	char *found;
};

static void find_one(const struct hierarchy *h, void *arg)
{
	struct find *f = arg;
	const char *base = f->absolute ? h->mount : h->dir;
	if (!f->found && line_has(h->controllers, f->controller) &&
	    asprintf(&f->found, "%s%s%s", base, *f->rel ? "/" : "", f->rel) < 0)
		f->found = NULL;
}

char *cgt_dir(const char *controller, const char *rel)
{
	struct find f = {controller, rel, false, NULL};
	each_hierarchy(find_one, &f);
	return f.found;
}

char *cgt_root_dir(const char *controller, const char *path)
{
	struct find f = {controller, path + (*path == '/'), true, NULL};
	each_hierarchy(find_one, &f);
	return f.found;
}

char *cgt_read(const char *dir, const char *file)
{
	char *path = ctt_path(dir, file);
	char *text = ctt_read_file(path);
	free(path);
	text[strcspn(text, "\n")] = '\0';
	return text;
}

struct each_dir {
	const char *rel;
	void (*fn)(const char *controllers, const char *dir, void *arg);
	void *arg;
};

static void call_with_dir(const struct hierarchy *h, void *arg)
{
	const struct each_dir *e = arg;
	char path[1200];
	snprintf(path, sizeof(path), "%s/%s", h->dir, e->rel);
	e->fn(h->controllers, path, e->arg);
}

void cgt_each_dir(const char *rel, void (*fn)(const char *controllers, const char *dir, void *arg),
		  void *arg)
{
	struct each_dir e = {rel, fn, arg};
	each_hierarchy(call_with_dir, &e);
}

static void assert_gone(const char *controllers, const char *path, void *arg)
{
	(void)arg;
	struct stat st;
	cr_expect_neq(stat(path, &st), 0, "cgroup left behind in \"%s\": %s", controllers, path);
}

void cgt_assert_subtree_gone(void)
{
	cgt_each_dir(cgt_subtree(), assert_gone, NULL);
}

static void note_existing(const char *controllers, const char *path, void *arg)
{
	char **list = arg;
	struct stat st;
	char *longer;
	if (stat(path, &st) == 0 && asprintf(&longer, "%s%s\"%s\"", *list ? *list : "",
					     *list ? " " : "", controllers) >= 0) {
		free(*list);
		*list = longer;
	}
}

char *cgt_subtree_left(void)
{
	char *list = NULL;
	cgt_each_dir(cgt_subtree(), note_existing, &list);
	return list;
}

void cgt_cleanup(void)
{
	lc_cleanup();
	cgt_assert_subtree_gone();
}

/* ---- the test process's own cgroup ---- */

#define MAX_OWN 16
static char *own_parent[MAX_OWN], *own_dir[MAX_OWN];
static size_t n_own;
static pid_t own_pid;

static void write_value(const char *dir, const char *file, const char *value)
{
	char *path = ctt_path(dir, file);
	FILE *f = fopen(path, "we");
	if (f) {
		fputs(value, f);
		fclose(f);
	}
	free(path);
}

/* A cpuset cgroup takes no process before it has cpus and mems. */
static void copy_cpuset(const char *parent, const char *dir)
{
	static const char *const files[] = {"cpuset.cpus", "cpuset.mems"};
	for (size_t i = 0; i < 2; i++) {
		char *path = ctt_path(parent, files[i]);
		if (ctt_exists(path)) {
			char *v = ctt_read_file(path);
			write_value(dir, files[i], v);
			free(v);
		}
		free(path);
	}
}

static void enter_one(const struct hierarchy *h, void *arg)
{
	(void)arg;
	const char *dir = h->dir;
	char *own = ctt_path(dir, cgt_subtree());
	char pid[32];
	if (n_own == MAX_OWN || (mkdir(own, 0755) < 0 && errno != EEXIST)) {
		free(own);
		return;
	}
	copy_cpuset(dir, own);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	write_value(own, "cgroup.procs", pid);
	own_parent[n_own] = strdup(dir);
	own_dir[n_own++] = own;
}

void cgt_enter_own(void)
{
	if (own_pid == getpid())
		return;
	own_pid = getpid();
	n_own = 0;
	if (geteuid() == 0)
		each_hierarchy(enter_one, NULL);
}

/* rmdir, while a process killed a moment ago is still counted (EBUSY), a little longer. */
static bool remove_own(const char *dir)
{
	for (int i = 0; i < 200; i++) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return true;
		if (errno != EBUSY)
			return false;
		usleep(10000);
	}
	return false;
}

void cgt_leave_own(void)
{
	if (own_pid != getpid())
		return;
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	for (size_t i = 0; i < n_own; i++) {
		write_value(own_parent[i], "cgroup.procs", pid);
		cr_expect(remove_own(own_dir[i]),
			  "cgroup left behind in the test's own cgroup %s: %s", own_dir[i],
			  strerror(errno));
		free(own_parent[i]);
		free(own_dir[i]);
	}
	n_own = 0;
	own_pid = 0;
}

char *cgt_rel(const char *name)
{
	char *rel;
	cr_assert_geq(asprintf(&rel, "%s/%s", cgt_subtree(), name), 0);
	return rel;
}
