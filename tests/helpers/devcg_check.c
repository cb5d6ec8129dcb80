/* devcg_check: libct's cgroup v2 device filter on a real cgroup. Makes a cgroup under its own
 * in the cgroup2 hierarchy, and for each phase installs the filter built from a resources
 * document (ct_bpf_devices_apply: the runtime's own code), then runs a child in that cgroup
 * that tries each access and prints what it got. Removes the cgroup at the end.
 *
 *   devcg_check RESOURCES_JSON CHECKS [RESOURCES_JSON CHECKS]...
 *   devcg_check --count CGROUP_DIR      (prints "programs N" of a container's cgroup)
 *
 * CHECKS is a space-separated list of r:PATH, w:PATH, rw:PATH (open the device) and
 * m:c:MAJOR:MINOR (mknod one in a temporary directory; mr:... then opens it for reading:
 * "made, open ok"). Output per phase:
 *
 *   programs 1
 *   r /dev/null ok
 *   w /dev/kmsg Operation not permitted
 *
 * Exits 77 when there is no cgroup2 hierarchy, 1 (with the reason) when a step fails. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/cgroup/bpf_devices.h"
#include "oci/config.h"

static char cgroup_dir[4096];
static char node_dir[] = "/tmp/devcg.XXXXXX";

static void cleanup(void)
{
	if (cgroup_dir[0] && rmdir(cgroup_dir) < 0)
		fprintf(stderr, "devcg_check: rmdir %s: %m\n", cgroup_dir);
	if (strchr(node_dir, 'X') == NULL)
		rmdir(node_dir);
}

static void die(const char *what)
{
	fprintf(stderr, "devcg_check: %s\n", what);
	cleanup();
	exit(1);
}

/* The cgroup2 mount point (first in mountinfo), or NULL. */
static char *cgroup2_mount(void)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096], *found = NULL;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char mnt[4096];
		const char *sep = strstr(line, " - ");
		if (sep && strncmp(sep, " - cgroup2 ", 11) == 0 &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1)
			found = strdup(mnt);
	}
	if (f)
		fclose(f);
	return found;
}

/* This process's cgroup2 path ("0::/path"). */
static char *own_cgroup(void)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096], *found = NULL;
	while (f && !found && fgets(line, sizeof(line), f))
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			found = strdup(line + 3);
		}
	if (f)
		fclose(f);
	return found;
}

static const char *try_open(const char *mode, const char *path)
{
	int flags = strcmp(mode, "rw") == 0 ? O_RDWR : strcmp(mode, "w") == 0 ? O_WRONLY
									     : O_RDONLY;
	int fd = open(path, flags | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return strerror(errno);
	close(fd);
	return "ok";
}

/* mknod of the node; with open_mode, then opening what was made ("made, " + its result). */
static const char *try_mknod(const char *spec, const char *open_mode)
{
	static char made[128];
	unsigned maj, min;
	char type, node[64];
	if (sscanf(spec, "%c:%u:%u", &type, &maj, &min) != 3)
		return "bad check";
	snprintf(node, sizeof(node), "%s/node", node_dir);
	mode_t kind = type == 'b' ? S_IFBLK : S_IFCHR;
	if (mknod(node, kind | 0600, makedev(maj, min)) < 0)
		return strerror(errno);
	if (open_mode)
		snprintf(made, sizeof(made), "made, open %s", try_open(open_mode, node));
	unlink(node);
	return open_mode ? made : "ok";
}

/* In the child, already in the cgroup. */
static void run_checks(char *checks)
{
	for (char *save, *c = strtok_r(checks, " ", &save); c; c = strtok_r(NULL, " ", &save)) {
		char *colon = strchr(c, ':');
		if (!colon)
			die("a check is MODE:WHAT");
		*colon = '\0';
		const char *got = strcmp(c, "m") == 0	 ? try_mknod(colon + 1, NULL)
				  : strcmp(c, "mr") == 0 ? try_mknod(colon + 1, "r")
							 : try_open(c, colon + 1);
		printf("%s %s %s\n", c, colon + 1, got);
	}
	fflush(stdout);
}

static void run_phase(int cgroup_fd, int procs_fd, const char *json, char *checks)
{
	struct oci_resources *res;
	struct ct_error err = {0};
	if (oci_resources_parse(json, "resources", &res, &err) < 0 ||
	    ct_bpf_devices_apply(cgroup_fd, res, &err) < 0)
		die(err.msg);
	oci_resources_free(res);
	int n = ct_bpf_devices_count(cgroup_fd, &err);
	if (n < 0)
		die(err.msg);
	printf("programs %d\n", n);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (write(procs_fd, "0\n", 2) != 2)
			_exit(3);
		run_checks(checks);
		_exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		die("the checking child failed");
}

static int count_programs(const char *dir)
{
	struct ct_error err = {0};
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int n = fd < 0 ? -1 : ct_bpf_devices_count(fd, &err);
	if (n < 0) {
		fprintf(stderr, "devcg_check: %s: %s\n", dir, fd < 0 ? strerror(errno) : err.msg);
		return 1;
	}
	printf("programs %d\n", n);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--count") == 0)
		return count_programs(argv[2]);
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: devcg_check RESOURCES_JSON CHECKS [...]\n");
		return 2;
	}
	char *mnt = cgroup2_mount(), *own = own_cgroup();
	if (!mnt || !own) {
		printf("skip: no cgroup2 hierarchy\n");
		return 77;
	}
	snprintf(cgroup_dir, sizeof(cgroup_dir), "%s%s/devcg-check-%d", mnt,
		 strcmp(own, "/") == 0 ? "" : own, (int)getpid());
	free(mnt);
	free(own);
	if (mkdir(cgroup_dir, 0755) < 0) {
		cgroup_dir[0] = '\0';
		die("mkdir of the test cgroup failed");
	}
	if (!mkdtemp(node_dir))
		die("mkdtemp");
	int cgroup_fd = open(cgroup_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char procs[4200];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cgroup_dir);
	int procs_fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (cgroup_fd < 0 || procs_fd < 0)
		die("open of the test cgroup failed");
	for (int i = 1; i + 1 < argc; i += 2)
		run_phase(cgroup_fd, procs_fd, argv[i], argv[i + 1]);
	close(procs_fd);
	close(cgroup_fd);
	cleanup();
	return 0;
}
