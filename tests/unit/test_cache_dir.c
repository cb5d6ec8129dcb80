/* libct/lifecycle/cache_dir.c: the host's root keeps its cache in /run/ctrun-cache; root of a user
 * namespace (as rootless Podman runs ctrun) and any other user in $XDG_RUNTIME_DIR, or
 * nowhere without it. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/lifecycle/cache_dir.h"
#include "tests/unit/child.h"

static bool host_root(void)
{
	char map[128] = "";
	FILE *f = fopen("/proc/self/uid_map", "re");
	bool full = f && fgets(map, sizeof(map), f) &&
		    strcmp(map, "         0          0 4294967295\n") == 0;
	if (f)
		fclose(f);
	return geteuid() == 0 && full;
}

Test(cache_dir, host_root_uses_run)
{
	if (!host_root())
		cr_skip("not root of the initial user namespace");
	cr_expect_str_eq(ct_cache_dir(), "/run/ctrun-cache");
}

/* In a child: a user namespace of its own where it is root (uid 0 mapped to ours). */
static void become_userns_root(void)
{
	uid_t uid = geteuid();
	if (unshare(CLONE_NEWUSER) < 0)
		_exit(77);
	char map[64];
	int n = snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	int fd = open("/proc/self/uid_map", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, map, (size_t)n) != n)
		_exit(77);
	close(fd);
}

/* The directory a child that is root of a user namespace picks, with xdg (NULL: unset);
 * with later_xdg, what it answers once more after XDG_RUNTIME_DIR changed to that. */
static char *userns_root_choice_then(const char *xdg, const char *later_xdg)
{
	int end;
	pid_t pid = fork_piped(true, &end);
	if (pid == 0) {
		become_userns_root();
		if (xdg)
			setenv("XDG_RUNTIME_DIR", xdg, 1);
		else
			unsetenv("XDG_RUNTIME_DIR");
		const char *dir = ct_cache_dir();
		if (later_xdg) {
			setenv("XDG_RUNTIME_DIR", later_xdg, 1);
			dir = ct_cache_dir();
		}
		dprintf(end, "%s", dir ? dir : "(none)");
		_exit(geteuid() == 0 ? 0 : 1);
	}
	char buf[512] = "";
	ssize_t len = read(end, buf, sizeof(buf) - 1);
	close(end);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		cr_skip("no user namespace here");
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child is not root there");
	buf[len > 0 ? len : 0] = '\0';
	return strdup(buf);
}

static char *userns_root_choice(const char *xdg)
{
	return userns_root_choice_then(xdg, NULL);
}

Test(cache_dir, root_of_a_user_namespace_uses_xdg_runtime_dir)
{
	char *got = userns_root_choice("/run/user/1000");
	cr_expect_str_eq(got, "/run/user/1000/ctrun-cache");
	free(got);
	got = userns_root_choice(NULL);
	cr_expect_str_eq(got, "(none)");
	free(got);
	got = userns_root_choice("relative/dir");
	cr_expect_str_eq(got, "(none)", "a relative XDG_RUNTIME_DIR is not used");
	free(got);
}

/* Found once per process: the command's start and its seccomp cache get the same answer. */
Test(cache_dir, the_answer_is_kept)
{
	char *got = userns_root_choice_then("/run/user/1000", "/run/user/2000");
	cr_expect_str_eq(got, "/run/user/1000/ctrun-cache");
	free(got);
}
