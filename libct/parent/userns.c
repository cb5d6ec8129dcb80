#include "libct/parent/userns.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/parent/idmap_writer.h"

/* [a, a+n) and [b, b+m) share an id; sizes are > 0 and ends fit in 64 bits */
static bool ranges_overlap(uint64_t a, uint64_t n, uint64_t b, uint64_t m)
{
	return a < b + m && b < a + n;
}

/* The kernel refuses overlaps on either side: "containerID", "hostID" or NULL. */
static const char *overlapping_side(const struct oci_id_mapping *a, const struct oci_id_mapping *b)
{
	if (ranges_overlap(a->container_id, a->size, b->container_id, b->size))
		return "containerID";
	if (ranges_overlap(a->host_id, a->size, b->host_id, b->size))
		return "hostID";
	return NULL;
}

static int check_range(const oci_id_mappings *m, size_t i, const char *field, struct ct_error *err)
{
	const struct oci_id_mapping *r = &m->items[i];
	if (r->size == 0)
		return ct_error_set_plain(
			err, EINVAL, "config.json: .%s[%zu].size: must be at least 1", field, i);
	if ((uint64_t)r->container_id + r->size > UINT32_MAX + 1ULL ||
	    (uint64_t)r->host_id + r->size > UINT32_MAX + 1ULL)
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .%s[%zu]: the range ends past id "
					  "4294967295",
					  field, i);
	for (size_t j = 0; j < i; j++) {
		const char *side = overlapping_side(r, &m->items[j]);
		if (side)
			return ct_error_set_plain(err, EINVAL,
						  "config.json: .%s[%zu]: its %s range "
						  "overlaps that of .%s[%zu]",
						  field, i, side, field, j);
	}
	return 0;
}

int ct_idmap_check(const oci_id_mappings *m, const char *field, struct ct_error *err)
{
	if (m->len > CT_IDMAP_MAX_LINES)
		return ct_error_set_plain(err, EINVAL,
					  "config.json: .%s: %zu ranges, the kernel takes "
					  "at most %d",
					  field, m->len, CT_IDMAP_MAX_LINES);
	for (size_t i = 0; i < m->len; i++)
		if (check_range(m, i, field, err) < 0)
			return -1;
	return 0;
}

char *ct_idmap_format(const oci_id_mappings *m)
{
	/* three 10-digit numbers, two spaces and a newline per line */
	size_t size = m->len * 33 + 1, n = 0;
	char *out = malloc(size);
	if (!out)
		return NULL;
	out[0] = '\0';
	for (size_t i = 0; i < m->len; i++) {
		const struct oci_id_mapping *r = &m->items[i];
		n += (size_t)snprintf(out + n, size - n, "%u %u %u\n", r->container_id, r->host_id,
				      r->size);
	}
	return out;
}

int ct_idmap_write(pid_t pid, const char *uid_map, const char *gid_map, struct ct_error *err)
{
	if (uid_map && ct_idmap_write_with(pid, false, CT_IDMAP_DIRECT, uid_map, err) < 0)
		return -1;
	if (gid_map && ct_idmap_write_with(pid, true, CT_IDMAP_DIRECT, gid_map, err) < 0)
		return -1;
	return 0;
}

/* The child makes its user namespace, says so, and waits for the parent to hang up. */
__attribute__((noreturn)) static void hold_userns(int ready, int hold)
{
	char c = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';
	if (write(ready, &c, 1) == 1)
		while (read(hold, &c, 1) < 0 && errno == EINTR)
			;
	_exit(0);
}

static int open_held_userns(pid_t pid, int ready, const char *uid_map, const char *gid_map,
			    struct ct_error *err)
{
	char c = 'n', path[64];
	ssize_t n;
	while ((n = read(ready, &c, 1)) < 0 && errno == EINTR)
		;
	if (n != 1 || c != 'y')
		return ct_error_set_plain(
			err, EPERM, "create a user namespace for an id-mapped mount: refused");
	if (ct_idmap_write(pid, uid_map, gid_map, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_set(err, errno, "open \"%s\"", path);
	return fd;
}

int ct_userns_open(const char *uid_map, const char *gid_map, struct ct_error *err)
{
	int ready[2], hold[2];
	if (pipe2(ready, O_CLOEXEC) < 0)
		return ct_error_set(err, errno, "create a pipe");
	if (pipe2(hold, O_CLOEXEC) < 0) {
		close(ready[0]);
		close(ready[1]);
		return ct_error_set(err, errno, "create a pipe");
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(hold[1]); /* so that the parent's hang-up reaches it */
		hold_userns(ready[1], hold[0]);
	}
	int fd = pid < 0 ? ct_error_set(err, errno, "fork") : 0;
	close(ready[1]);
	close(hold[0]);
	if (pid > 0)
		fd = open_held_userns(pid, ready[0], uid_map, gid_map, err);
	close(ready[0]);
	close(hold[1]); /* the child exits */
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return fd;
}
