/* File access in cgroup directories, shared by the drivers (libct/cgroup/internal.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/pathbuf.h"
#include "libct/base/readall.h"
#include "libct/base/syscalls.h"
#include "libct/cgroup/internal.h"
#include "libct/state/procstat.h"

#define CG_FILE_MAX   (8u << 20)
#define RMDIR_WAIT_MS 5000 /* a killed process still counted while it exits */

int ct_cg_write_fd(int fd, const char *path, const char *value, struct ct_error *err)
{
	size_t len = strlen(value);
	ssize_t n;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len)
		return ct_error_sys(err, n < 0 ? errno : EIO, "write \"%s\" to \"%s\"", value,
				    path);
	return 0;
}

int ct_cg_open_at(int dirfd, const char *dir, const char *file, int flags, char *path, size_t size)
{
	ct_path_join(path, size, dir, file); /* not snprintf: ~20 files a run */
	return dirfd >= 0 ? openat(dirfd, file, flags) : openat(AT_FDCWD, path, flags);
}

int ct_cg_write_at(int dirfd, const char *dir, const char *file, const char *value,
		   struct ct_error *err)
{
	char path[4096];
	_cleanup_close_ int fd =
		ct_cg_open_at(dirfd, dir, file, O_WRONLY | O_CLOEXEC, path, sizeof(path));
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path);
	return ct_cg_write_fd(fd, path, value, err);
}

int ct_cg_write(const char *dir, const char *file, const char *value, struct ct_error *err)
{
	return ct_cg_write_at(-1, dir, file, value, err);
}

char *ct_cg_read_at(int dirfd, const char *dir, const char *file)
{
	char path[4096];
	_cleanup_close_ int fd =
		ct_cg_open_at(dirfd, dir, file, O_RDONLY | O_CLOEXEC, path, sizeof(path));
	return fd < 0 ? NULL : ct_read_file(fd, CG_FILE_MAX, NULL);
}

char *ct_cg_read(const char *dir, const char *file)
{
	return ct_cg_read_at(-1, dir, file);
}

bool ct_cg_has_at(int dirfd, const char *dir, const char *file)
{
	if (dirfd >= 0)
		return faccessat(dirfd, file, F_OK, 0) == 0;
	return ct_cg_has(dir, file);
}

bool ct_cg_has(const char *dir, const char *file)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return access(path, F_OK) == 0;
}

bool ct_cg_keyed_value(const char *text, const char *key, unsigned long long *out)
{
	size_t klen = strlen(key);
	for (const char *line = text; line && *line;) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ' ')
			return sscanf(line + klen + 1, "%llu", out) == 1;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

static int add_pid(pid_t **pids, size_t *n, pid_t pid)
{
	if ((*n & (*n - 1)) == 0 || *n == 0) {
		pid_t *grown = realloc(*pids, (*n ? *n * 2 : 16) * sizeof(pid_t));
		if (!grown)
			return -1;
		*pids = grown;
	}
	(*pids)[(*n)++] = pid;
	return 0;
}

static int read_procs(const char *dir, pid_t **pids, size_t *n, struct ct_error *err)
{
	_cleanup_free_ char *text = ct_cg_read(dir, "cgroup.procs");
	if (!text)
		return errno == ENOENT ? 0
				       : ct_error_sys(err, errno, "read \"%s/cgroup.procs\"", dir);
	for (char *p = text; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		if (v > 0 && add_pid(pids, n, (pid_t)v) < 0)
			return ct_error_sys(err, ENOMEM, "list pids of \"%s\"", dir);
		p = end;
		while (*p == '\n')
			p++;
	}
	return 0;
}

/* fn on every child cgroup of dir (a cgroup's subdirectories are its children); a dir that
 * is gone has none. */
static int each_child(const char *dir, int (*fn)(const char *sub, void *arg), void *arg,
		      struct ct_error *err)
{
	_cleanup_closedir_ DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : ct_error_sys(err, errno, "open cgroup \"%s\"", dir);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.')
			continue;
		char sub[4096];
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (fn(sub, arg) < 0)
			return -1;
	}
	return 0;
}

struct collect {
	pid_t **pids;
	size_t *n;
	struct ct_error *err;
};

static int collect_child(const char *sub, void *arg)
{
	struct collect *c = arg;
	return ct_cg_collect_pids(sub, c->pids, c->n, c->err);
}

int ct_cg_collect_pids(const char *dir, pid_t **pids, size_t *n, struct ct_error *err)
{
	struct collect c = {pids, n, err};
	if (read_procs(dir, pids, n, err) < 0)
		return -1;
	return each_child(dir, collect_child, &c, err);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

void ct_cg_pids_sort(pid_t *pids, size_t *n)
{
	if (!*n)
		return;
	qsort(pids, *n, sizeof(*pids), cmp_pid);
	size_t out = 1;
	for (size_t i = 1; i < *n; i++)
		if (pids[i] != pids[out - 1])
			pids[out++] = pids[i];
	*n = out;
}

/* By pidfd; where a profile refuses the pidfd calls, by kill() once the start time read
 * before says the pid is still the process the cgroup listed. */
void ct_cg_signal_pids(const pid_t *pids, size_t n, int sig)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t start_time;
		if (ct_proc_start_time(pids[i], &start_time, NULL) < 0)
			continue; /* gone already */
		_cleanup_close_ int fd = ct_pidfd_open(pids[i], 0);
		if (fd >= 0 && ct_pidfd_send_signal(fd, sig, NULL, 0) == 0)
			continue;
		ct_proc_kill_checked(pids[i], start_time, sig, NULL);
	}
}

int ct_cg_wait_modify(const char *dir, const char *file, int timeout_ms)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	_cleanup_close_ int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in < 0 || inotify_add_watch(in, path, IN_MODIFY) < 0)
		return 0;
	struct pollfd p = {.fd = in, .events = POLLIN};
	while (poll(&p, 1, timeout_ms) < 0 && errno == EINTR)
		;
	return 0;
}

/* One rmdir, waiting while the kernel still counts an exiting process (EBUSY): on cgroup2
 * for the change of cgroup.events, on v1 (which has no such file) a short pause. */
static int rmdir_waiting(const char *dir, struct ct_error *err)
{
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (rmdir(dir) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return ct_error_sys(err, errno, "remove cgroup \"%s\"", dir);
		clock_gettime(CLOCK_MONOTONIC, &now);
		long ms = (now.tv_sec - start.tv_sec) * 1000 +
			  (now.tv_nsec - start.tv_nsec) / 1000000;
		if (ms > RMDIR_WAIT_MS)
			return ct_error_sys(err, EBUSY, "remove cgroup \"%s\"", dir);
		if (ct_cg_has(dir, "cgroup.events"))
			ct_cg_wait_modify(dir, "cgroup.events", 100);
		else
			nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
	}
}

static int remove_child(const char *sub, void *err)
{
	return ct_cg_remove_tree(sub, err);
}

int ct_cg_remove_tree(const char *dir, struct ct_error *err)
{
	if (each_child(dir, remove_child, err, err) < 0)
		return -1;
	return rmdir_waiting(dir, err);
}

static int mkdir_p_once(const char *path, char **made_from, struct ct_error *err);

/* A parent that another container's delete removed while empty (ENOENT) is made again. */
int ct_cg_mkdir_p(const char *path, char **made_from, struct ct_error *err)
{
	int rc = -1;
	for (int attempt = 0; attempt < 3; attempt++) {
		rc = mkdir_p_once(path, made_from, err);
		if (rc == 0 || err->errnum != ENOENT)
			break;
	}
	return rc;
}

/* The first failure of a mkdir_p: what was made is removed again. */
static int mkdir_p_failed(const char *at, int errnum, char **made_from, struct ct_error *err)
{
	if (*made_from) {
		ct_cg_rmdir_up(at, *made_from);
		free(*made_from);
		*made_from = NULL;
	}
	return ct_error_sys(err, errnum, "create cgroup \"%s\"", at);
}

static int leaf_is_dir(const char *path, struct ct_error *err)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		return ct_error_plain(err, ENOTDIR, "create cgroup \"%s\": not a directory", path);
	return 0;
}

/* The leaf first, since its parents mostly exist: one mkdir in the usual case instead of
 * one per component. On ENOENT it climbs to the deepest existing ancestor, then makes the
 * missing components downwards. */
static int mkdir_p_once(const char *path, char **made_from, struct ct_error *err)
{
	char buf[4096];
	char *cut[128];
	size_t depth = 0;
	*made_from = NULL;
	ct_buf_put(buf, sizeof(buf), 0, path);
	bool made = true;
	while (mkdir(buf, 0755) < 0) {
		char *slash = strrchr(buf, '/');
		if (errno == EEXIST && depth == 0)
			return leaf_is_dir(buf, err);
		if (errno == EEXIST) { /* made by someone else meanwhile: go on below it */
			made = false;
			break;
		}
		if (errno != ENOENT || !slash || slash == buf ||
		    depth == sizeof(cut) / sizeof(cut[0]))
			return ct_error_sys(err, errno, "create cgroup \"%s\"", buf);
		*slash = '\0';
		cut[depth++] = slash;
	}
	if (made && !(*made_from = strdup(buf)))
		return ct_error_sys(err, ENOMEM, "create cgroup \"%s\"", path);
	while (depth-- > 0) {
		*cut[depth] = '/';
		if (mkdir(buf, 0755) == 0) {
			if (!*made_from && !(*made_from = strdup(buf)))
				return ct_error_sys(err, ENOMEM, "create cgroup \"%s\"", path);
		} else if (errno != EEXIST) {
			return mkdir_p_failed(buf, errno, made_from, err);
		}
	}
	return 0;
}

/* Undoes a failed ct_cg_mkdir_leaf: the leaf when it was made, the parents made. */
static int mkdir_leaf_failed(int dir, const char *name, bool made, const char *path,
			     char **made_from, int errnum, struct ct_error *err)
{
	if (made)
		unlinkat(dir, name, AT_REMOVEDIR);
	if (*made_from) {
		char parent[4096];
		snprintf(parent, sizeof(parent), "%.*s", (int)(name - 1 - path), path);
		ct_cg_rmdir_up(parent, *made_from);
		free(*made_from);
		*made_from = NULL;
	}
	return ct_error_sys(err, errnum, "create cgroup \"%s\"", path);
}

/* The parent opened (O_PATH) once, or taken from *parent_fd when open already, made first
 * when missing, and the leaf made and opened relative to it: the long path is walked once in
 * the usual case. */
static int mkdir_leaf_once(const char *path, int *parent_fd, int *fd, char **made_from,
			   struct ct_error *err)
{
	const char *name = strrchr(path, '/');
	if (!name || name == path || !name[1] || (size_t)(name - path) >= 4096)
		return ct_error_plain(err, EINVAL, "create cgroup \"%s\"", path);
	char parent[4096];
	memcpy(parent, path, (size_t)(name - path));
	parent[name - path] = '\0';
	name++;
	_cleanup_close_ int dir = *parent_fd;
	*parent_fd = -1;
	if (dir < 0)
		dir = openat(AT_FDCWD, parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0 && errno == ENOENT) {
		if (ct_cg_mkdir_p(parent, made_from, err) < 0)
			return -1;
		dir = openat(AT_FDCWD, parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (dir < 0)
		return mkdir_leaf_failed(-1, name, false, path, made_from, errno, err);
	bool made = mkdirat(dir, name, 0755) == 0;
	if (!made && errno != EEXIST)
		return mkdir_leaf_failed(dir, name, false, path, made_from, errno, err);
	if ((*fd = openat(dir, name, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return mkdir_leaf_failed(dir, name, made, path, made_from, errno, err);
	if (made && !*made_from && !(*made_from = strdup(path))) {
		ct_close_now(fd);
		return mkdir_leaf_failed(dir, name, made, path, made_from, ENOMEM, err);
	}
	return 0;
}

/* A parent that another container's delete removed meanwhile (ENOENT) is made again, opened
 * anew. */
int ct_cg_mkdir_leaf(const char *path, int *parent_fd, int *fd, char **made_from,
		     struct ct_error *err)
{
	int rc = -1;
	for (int attempt = 0; attempt < 3; attempt++) {
		*fd = -1;
		*made_from = NULL;
		rc = mkdir_leaf_once(path, parent_fd, fd, made_from, err);
		if (rc == 0 || err->errnum != ENOENT)
			break;
	}
	return rc;
}

void ct_cg_rmdir_parents(const char *path, const char *base)
{
	char buf[4096];
	size_t blen = strlen(base);
	ct_buf_put(buf, sizeof(buf), 0, path);
	if (strncmp(buf, base, blen) != 0 || buf[blen] != '/')
		return;
	for (char *slash = strrchr(buf, '/'); slash && (size_t)(slash - buf) > blen;
	     slash = strrchr(buf, '/')) {
		*slash = '\0';
		if (rmdir(buf) < 0)
			return;
	}
}

void ct_cg_rmdir_up(const char *path, const char *stop)
{
	char buf[4096];
	ct_buf_put(buf, sizeof(buf), 0, path);
	size_t stop_len = strlen(stop);
	while (strlen(buf) >= stop_len) {
		if (rmdir(buf) < 0 && errno != ENOENT)
			return;
		char *slash = strrchr(buf, '/');
		if (!slash || slash == buf)
			return;
		*slash = '\0';
	}
}
