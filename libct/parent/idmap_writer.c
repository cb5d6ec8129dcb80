#include "libct/parent/idmap_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/fs/procfs.h"

enum ct_idmap_writer ct_idmap_writer_for(const oci_id_mappings *m, bool privileged, uint32_t own_id)
{
	if (privileged)
		return CT_IDMAP_DIRECT;
	if (m->len == 1 && m->items[0].size == 1 && m->items[0].host_id == own_id)
		return CT_IDMAP_OWN_ID;
	return CT_IDMAP_HELPER;
}

const char *ct_idmap_helper_name(bool gid)
{
	return gid ? "newgidmap" : "newuidmap";
}

/* argv of `helper PID c h s ...`: the map's numbers are the helper's arguments. */
static char **helper_argv(const char *helper, pid_t pid, char *map_copy, char *pid_buf,
			  size_t pid_size)
{
	size_t n = 2;
	for (const char *p = map_copy; *p; p++)
		n += *p == ' ' || *p == '\n';
	char **argv = calloc(n + 2, sizeof(*argv));
	if (!argv)
		return NULL;
	snprintf(pid_buf, pid_size, "%d", (int)pid);
	size_t i = 0;
	argv[i++] = (char *)helper;
	argv[i++] = pid_buf;
	char *save = NULL;
	for (char *tok = strtok_r(map_copy, " \n", &save); tok && i <= n;
	     tok = strtok_r(NULL, " \n", &save))
		argv[i++] = tok;
	argv[i] = NULL;
	return argv;
}

/* The helper's first line of output (its error), without the newline. */
static void read_first_line(int fd, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	while (len + 1 < size && (n = read(fd, buf + len, size - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int spawn_helper(char **argv, int out, pid_t *child)
{
	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return ENOMEM;
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out, 1);
	posix_spawn_file_actions_adddup2(&fa, out, 2);
	extern char **environ;
	int rc = posix_spawnp(child, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

static int wait_helper(pid_t child)
{
	int status;
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

static int run_helper(pid_t pid, bool gid, const char *map, struct ct_error *err)
{
	const char *helper = ct_idmap_helper_name(gid);
	_cleanup_free_ char *copy = strdup(map);
	char pid_buf[16];
	_cleanup_free_ char **argv =
		copy ? helper_argv(helper, pid, copy, pid_buf, sizeof(pid_buf)) : NULL;
	if (!argv)
		return ct_error_sys(err, ENOMEM, "run %s", helper);
	_cleanup_close_pair_ int pipefd[2] = CT_FD_PAIR_INIT;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return ct_error_sys(err, errno, "run %s", helper);
	pid_t child;
	int rc = spawn_helper(argv, pipefd[1], &child);
	ct_close_now(&pipefd[1]);
	if (rc != 0) {
		if (rc == ENOENT)
			return ct_error_plain(err, ENOENT,
					      "%s not found in $PATH: a user other than root "
					      "needs it to map more than its own id (Debian "
					      "package \"uidmap\")",
					      helper);
		return ct_error_sys(err, rc, "run %s", helper);
	}
	char said[512];
	read_first_line(pipefd[0], said, sizeof(said));
	ct_close_now(&pipefd[0]); /* a helper still writing gets EPIPE, not a full pipe */
	int status = wait_helper(child);
	if (status == 0)
		return 0;
	if (status > 0 && WIFEXITED(status))
		return ct_error_plain(err, EPERM, "%s failed (exit %d): %s", helper,
				      WEXITSTATUS(status), said[0] ? said : "no message");
	return ct_error_plain(err, EPERM, "%s did not finish: %s", helper,
			      said[0] ? said : "no message");
}

int ct_idmap_write_with(pid_t pid, bool gid, enum ct_idmap_writer w, const char *map,
			struct ct_error *err)
{
	const char *file = gid ? "gid_map" : "uid_map";
	int rc;
	if (w == CT_IDMAP_HELPER)
		rc = run_helper(pid, gid, map, err);
	else if (w == CT_IDMAP_OWN_ID && gid && ct_procfs_write_pid(pid, "setgroups", "deny", err) < 0)
		rc = -1;
	else
		rc = ct_procfs_write_pid(pid, file, map, err);
	if (rc < 0)
		return ct_error_prefix(err, "write the user namespace's %s", file);
	return 0;
}
