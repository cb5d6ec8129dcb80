/* What a failed or killed command may leave, looked for everywhere (leftovers.h). */
#include "tests/lib/leftovers.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"

/* How many fds of processes other than the test name a path that contains needle. */
static unsigned fds_naming(const char *needle)
{
	DIR *proc = opendir("/proc");
	cr_assert_not_null(proc);
	unsigned n = 0;
	struct dirent *p;
	while ((p = readdir(proc))) {
		char path[64], target[4096];
		if (atoi(p->d_name) <= 0 || atoi(p->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		DIR *fds = opendir(path);
		struct dirent *f;
		while (fds && (f = readdir(fds))) {
			ssize_t len = readlinkat(dirfd(fds), f->d_name, target, sizeof(target) - 1);
			if (len > 0 && (target[len] = '\0', strstr(target, needle)))
				n++;
		}
		if (fds)
			closedir(fds);
	}
	closedir(proc);
	return n;
}

static unsigned state_entries(const char *root)
{
	DIR *d = opendir(root);
	unsigned n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

/* The test's mount table when it began: ctrun mounts nothing outside its containers but the
 * kept view of its binary (libct/parent/exe_bind.h), made here first by a command that
 * fails once it has it, and nothing else mounts in the runner's private namespace meanwhile
 * (one test at a time, --jobs 1, as make integration runs them). */
static char *mounts_before;

void lc_note_mounts(const struct lc *t)
{
	struct ctt_result r;
	lc_ctrun(&r, t, "exec", "no-such-container", "true");
	cr_assert_neq(r.status, 0, "exec of a container that does not exist");
	ctt_result_free(&r);
	mounts_before = ctt_read_file("/proc/self/mountinfo");
}

/* The lines of a that b does not hold, one per line (malloc'd). */
static char *lines_missing_from(const char *a, const char *b)
{
	size_t cap = strlen(a) + 1, len = 0;
	char *out = calloc(cap, 1);
	cr_assert_not_null(out);
	for (const char *line = a; *line;) {
		size_t n = strcspn(line, "\n");
		char *needle = strndup(line, n);
		if (!strstr(b, needle)) {
			memcpy(out + len, line, n);
			len += n;
			out[len++] = '\n';
		}
		free(needle);
		line += n + (line[n] == '\n');
	}
	return out;
}

/* Every piece a create makes is gone: its cgroup (the test's subtree) in every hierarchy,
 * its entries in the state root (the reservation too), its processes, every fd on the state
 * root or the cgroup, every mount it made (the table is as it was). */
void lc_assert_all_gone(const struct lc *t, const char *after)
{
	char *cgroups = cgt_subtree_left();
	cr_assert_null(cgroups, "%s: cgroup left in %s", after, cgroups);
	cr_assert_eq(state_entries(t->root), 0, "%s: an entry is left in the state root %s", after,
		     t->root);
	cr_assert_eq(lc_count_left_processes(t), 0, "%s: a process is left", after);
	cr_assert_eq(fds_naming(t->root), 0, "%s: an fd on the state root is left", after);
	cr_assert_eq(fds_naming(cgt_subtree()), 0, "%s: an fd on the cgroup is left", after);
	char *mounts = ctt_read_file("/proc/self/mountinfo");
	if (strcmp(mounts, mounts_before) != 0) {
		char *gone = lines_missing_from(mounts_before, mounts);
		char *added = lines_missing_from(mounts, mounts_before);
		cr_assert_fail("%s: the mount table changed; gone:\n%s\nadded:\n%s", after, gone,
			       added);
	}
	free(mounts);
}

