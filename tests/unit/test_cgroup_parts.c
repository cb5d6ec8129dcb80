/* A v1 cgroup made in two parts around the init's clone (libct/cgroup/cgroup.h): which
 * directory goes in which part, and the init taking the `tasks` files of the second part as
 * the parent passed them. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <unistd.h>

#include "libct/cgroup/cgroup.h"

static struct ct_cgroup_dir dirs[] = {
	{.key = "cpu,cpuacct", .fd = -1},
	{.key = "memory", .fd = -1},
	{.key = "pids", .fd = -1},
	{.key = CT_CGROUP_UNIFIED_KEY, .fd = -1},
};

static struct ct_cgroup v1_cgroup(void)
{
	return (struct ct_cgroup){.ops = &ct_cgroup_v1_ops, .dirs = dirs, .n_dirs = 4};
}

Test(cgroup_parts, early_is_cgroup2_and_memory)
{
	static const bool early[] = {false, true, false, true};
	for (size_t i = 0; i < 4; i++) {
		cr_expect_eq(ct_cgroup_dir_in_part(&dirs[i], CT_CGROUP_EARLY), early[i], "%s",
			     dirs[i].key);
		cr_expect_eq(ct_cgroup_dir_in_part(&dirs[i], CT_CGROUP_REST), !early[i], "%s",
			     dirs[i].key);
		cr_expect(ct_cgroup_dir_in_part(&dirs[i], CT_CGROUP_ALL), "%s", dirs[i].key);
	}
}

static int some_fd(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	return fd;
}

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* The v1 hierarchies but memory (joined apart), in cg->dirs' order, as the parent opened
 * them (ct_cgroup_self_join_open). */
Test(cgroup_parts, adopted_fds_are_matched_to_their_hierarchies)
{
	struct ct_cgroup cg = v1_cgroup();
	int fds[2] = {some_fd(), some_fd()};
	struct ct_cgroup_self_join j = {.n = 0};
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_self_join_adopt(&cg, "memory", fds, 2, &j, &err), 0, "%s", err.msg);
	cr_assert_eq(j.n, 2);
	cr_expect_str_eq(j.keys[0], "cpu,cpuacct");
	cr_expect_str_eq(j.keys[1], "pids");
	cr_expect_eq(j.fds[0], fds[0]);
	cr_expect_eq(j.fds[1], fds[1]);
	ct_cgroup_self_join_close(&j);
	cr_expect_not(is_open(fds[0]));
}

Test(cgroup_parts, another_count_is_refused_and_the_fds_closed)
{
	struct ct_cgroup cg = v1_cgroup();
	int fds[3] = {some_fd(), some_fd(), some_fd()};
	struct ct_cgroup_self_join j = {.n = 0};
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_self_join_adopt(&cg, "memory", fds, 3, &j, &err), -1);
	cr_expect_eq(j.n, 0);
	cr_expect_str_eq(err.msg, "cgroup v1 `tasks` files: 3 passed for 2 hierarchies");
	for (size_t i = 0; i < 3; i++)
		cr_expect_not(is_open(fds[i]), "fd %zu left open", i);
}
