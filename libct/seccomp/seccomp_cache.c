/* The on-disk cache of compiled seccomp programs (see seccomp_cache.h). */
#include "libct/seccomp/seccomp_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/build_id.h"
#include "libct/base/cleanup.h"
#include "libct/base/sha256.h"
#include "libct/fs/trusted_dir.h"
#include "libct/seccomp/seccomp_key.h"

#define ENTRY_NAME_MAX (CT_SHA256_HEX_LEN + 64)

struct entry {
	int dirfd;
	char key[CT_SHA256_HEX_LEN + 1];
	char name[ENTRY_NAME_MAX]; /* "<key>.bpf" */
	const char *why;	   /* why the entry was not used or not written */
};

/* The cache's seccomp directory, made (with ctrun's cache directory) when create and missing,
 * so a profile that fails to compile leaves nothing; -1 when it cannot be used: the program
 * is then compiled and not kept. */
static int open_cache_dir(const char *dir, bool create)
{
	_cleanup_close_ int base = ct_open_trusted_dir(AT_FDCWD, dir, create);
	return base < 0 ? -1 : ct_open_trusted_dir(base, CT_SECCOMP_CACHE_DIR, create);
}

/* SHA-256 over the key and the instructions: binds the contents to the file's name. */
static void entry_check(const struct entry *e, const void *insns, size_t len,
			unsigned char sum[CT_SHA256_LEN])
{
	struct ct_sha256 c;
	ct_sha256_init(&c);
	ct_sha256_update(&c, e->key, CT_SHA256_HEX_LEN);
	ct_sha256_update(&c, insns, len);
	ct_sha256_final(&c, sum);
}

/* The instruction count an entry of size bytes holds; 0 when no valid entry has that size. */
static size_t entry_insns(off_t size)
{
	if (size <= CT_SHA256_LEN)
		return 0;
	size_t body = (size_t)size - CT_SHA256_LEN;
	if (body % sizeof(struct sock_filter) || body / sizeof(struct sock_filter) > BPF_MAXINSNS)
		return 0;
	return body / sizeof(struct sock_filter);
}

static int miss(struct entry *e, const char *why)
{
	e->why = why;
	return 0;
}

/* 1 with out->insns and out->len from the entry; 0 (e->why says why) when it is not usable. */
static int read_entry(struct entry *e, struct ct_seccomp_prog *out)
{
	_cleanup_close_ int fd =
		openat(e->dirfd, e->name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return miss(e, errno == ENOENT ? "not cached" : "cannot be opened");
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !ct_trusted_stat(&st))
		return miss(e, "not a regular file of this user, writable by it alone");
	size_t n = entry_insns(st.st_size);
	if (!n)
		return miss(e, "bad length");
	size_t body = n * sizeof(struct sock_filter);
	_cleanup_free_ unsigned char *buf = malloc((size_t)st.st_size);
	if (!buf || pread(fd, buf, (size_t)st.st_size, 0) != st.st_size)
		return miss(e, "cannot be read");
	unsigned char sum[CT_SHA256_LEN];
	entry_check(e, buf, body, sum);
	if (memcmp(sum, buf + body, CT_SHA256_LEN) != 0)
		return miss(e, "checksum mismatch");
	out->insns = (struct sock_filter *)steal_ptr(&buf);
	out->len = (unsigned short)n;
	return 1;
}

struct aged {
	char name[ENTRY_NAME_MAX];
	struct timespec mtime;
};

static int by_age(const void *a, const void *b)
{
	const struct timespec *x = &((const struct aged *)a)->mtime;
	const struct timespec *y = &((const struct aged *)b)->mtime;
	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? -1 : 1;
	return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

static bool is_temp_name(const char *name)
{
	size_t len = strlen(name);
	return name[0] == '.' && len > 4 && strcmp(name + len - 4, ".tmp") == 0;
}

/* A writer holds its temporary file for one writev; one killed before its rename left it
 * for good. Older than CT_SECCOMP_CACHE_TMP_STALE_SEC, none is still being written (a writer
 * stopped longer finds its file gone, and only fails to keep its entry). Age, not the pid
 * in the name: a writer may live in another pid namespace, and pids are reused. */
static void remove_if_stale_temp(int dirfd, const char *name, time_t now)
{
	struct stat st;
	if (is_temp_name(name) && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode) && st.st_mtim.tv_sec < now - CT_SECCOMP_CACHE_TMP_STALE_SEC)
		unlinkat(dirfd, name, 0);
}

/* The entries with their mtimes, at most cap; names of others' making (too long, hidden:
 * the temporary files of writers at work) are left out, and so left alone, but stale
 * temporary files are removed. */
static size_t list_entries(int dirfd, struct aged *list, size_t cap)
{
	_cleanup_closedir_ DIR *dir = ct_opendir_at(dirfd);
	if (!dir)
		return 0;
	size_t n = 0;
	struct dirent *de;
	struct stat st;
	time_t now = time(NULL);
	while (n < cap && (de = readdir(dir))) {
		if (de->d_name[0] == '.') {
			remove_if_stale_temp(dirfd, de->d_name, now);
			continue;
		}
		if (strlen(de->d_name) >= ENTRY_NAME_MAX ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		strcpy(list[n].name, de->d_name);
		list[n++].mtime = st.st_mtim;
	}
	return n;
}

/* Keeps at most CT_SECCOMP_CACHE_MAX entries: the oldest (by mtime) go, as do stale
 * temporary files. Run after each write only: a hit never lists the directory. */
static void evict(int dirfd)
{
	enum { CAP = 4 * CT_SECCOMP_CACHE_MAX };
	_cleanup_free_ struct aged *list = calloc(CAP, sizeof(*list));
	size_t n = list ? list_entries(dirfd, list, CAP) : 0;
	if (n <= CT_SECCOMP_CACHE_MAX)
		return;
	qsort(list, n, sizeof(*list), by_age);
	for (size_t i = 0; i < n - CT_SECCOMP_CACHE_MAX; i++)
		unlinkat(dirfd, list[i].name, 0);
}

/* rename(2) does not replace a directory: an empty one squatting the name is removed. */
static int rename_into_place(int dirfd, const char *tmp, const char *name)
{
	if (renameat(dirfd, tmp, dirfd, name) == 0)
		return 0;
	if (errno != EISDIR || unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		return -1;
	return renameat(dirfd, tmp, dirfd, name);
}

/* Temporary name, then rename: readers never see half an entry, and a bad entry is replaced
 * in one step. Temporary names start with '.', which evict() leaves alone. */
static void write_entry(struct entry *e, const struct ct_seccomp_prog *p)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	char tmp[ENTRY_NAME_MAX + 64];
	snprintf(tmp, sizeof(tmp), ".%s.%d.%lx.tmp", e->key, (int)getpid(),
		 (unsigned long)now.tv_nsec);
	_cleanup_close_ int fd =
		openat(e->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		e->why = "cannot be written";
		return;
	}
	size_t body = p->len * sizeof(struct sock_filter);
	unsigned char sum[CT_SHA256_LEN];
	entry_check(e, p->insns, body, sum);
	struct iovec iov[2] = {{p->insns, body}, {sum, sizeof(sum)}};
	bool whole = writev(fd, iov, 2) == (ssize_t)(body + sizeof(sum));
	ct_close_now(&fd); /* written before it gets its name */
	if (!whole || rename_into_place(e->dirfd, tmp, e->name) < 0) {
		unlinkat(e->dirfd, tmp, 0);
		e->why = "cannot be written";
		return;
	}
	evict(e->dirfd);
}

/* One debug line: "seccomp: <what><detail> (<dir>/seccomp/<key>.bpf)". */
static void say(void (*notice)(const char *msg), const char *dir, const struct entry *e,
		const char *what, const char *detail)
{
	if (!notice)
		return;
	char line[4608];
	snprintf(line, sizeof(line), "seccomp: %s%s (%s/%s/%s)", what, detail, dir,
		 CT_SECCOMP_CACHE_DIR, e->name);
	notice(line);
}

static void say_uncached(void (*notice)(const char *msg), const char *why)
{
	if (!notice)
		return;
	char line[512];
	snprintf(line, sizeof(line), "seccomp: compiling the filter, cache not used: %s", why);
	notice(line);
}

int ct_seccomp_prepare(const struct ct_seccomp_cache *cache, const struct oci_seccomp *s,
		       void (*notice)(const char *msg), struct ct_seccomp_prog *out,
		       struct ct_error *err)
{
	if (!cache)
		return ct_seccomp_compile(s, notice, out, err);
	char build_id[128];
	const char *refusal = ct_seccomp_key_refusal(ct_build_id(build_id, sizeof(build_id)));
	if (refusal) {
		say_uncached(notice, refusal);
		return ct_seccomp_compile(s, notice, out, err);
	}
	_cleanup_close_ int dirfd = open_cache_dir(cache->dir, false);
	struct entry e = {.dirfd = dirfd, .why = "not cached"};
	ct_seccomp_key(s, cache->runtime, build_id, e.key);
	snprintf(e.name, sizeof(e.name), "%s.bpf", e.key);
	*out = (struct ct_seccomp_prog){0};
	if (dirfd >= 0 && read_entry(&e, out)) {
		ct_seccomp_load_mode(s, out);
		say(notice, cache->dir, &e, "filter loaded from the cache", "");
		return 0;
	}
	say(notice, cache->dir, &e, "compiling the filter: cache entry ", e.why);
	if (ct_seccomp_compile(s, notice, out, err) < 0)
		return -1;
	e.why = NULL;
	if (dirfd < 0)
		e.dirfd = dirfd = open_cache_dir(cache->dir, true);
	if (dirfd >= 0)
		write_entry(&e, out);
	else
		e.why = "directory unusable (not this user's own, or not a directory)";
	if (e.why)
		say(notice, cache->dir, &e, "filter not kept: cache entry ", e.why);
	else
		say(notice, cache->dir, &e, "filter kept in the cache", "");
	return 0;
}
