/* The init taking the parent's copies of its cgroup v1 directories (libct/cgroup_copies.h):
 * matched, in order, to the hierarchies bound and not copied before the clone; another count
 * refused with every fd closed. And the count of `tasks` files that precede them. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "libct/cgroup_copies.h"

static int some_fd(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	return fd;
}

static bool is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static char bound[] = "/sys/fs/cgroup/x/leaf";

/* cpu (bound), memory (bound, copied before the clone: memory_copy), a named hierarchy the
 * container mounts fresh (no bind), pids (bound). */
static void plan_with(struct ct_init_plan *plan, struct ct_cgroup_hierarchy h[4], int memory_copy)
{
	h[0] = (struct ct_cgroup_hierarchy){.key = "cpu", .bind = bound, .copy = -1};
	h[1] = (struct ct_cgroup_hierarchy){.key = "memory", .bind = bound, .copy = memory_copy};
	h[2] = (struct ct_cgroup_hierarchy){.key = "name=x", .bind = NULL, .copy = -1};
	h[3] = (struct ct_cgroup_hierarchy){.key = "pids", .bind = bound, .copy = -1};
	*plan = (struct ct_init_plan){.cgroup_v1 = h, .n_cgroup_v1 = 4};
}

Test(cgroup_copies, matched_in_order_to_the_bound_hierarchies_still_without)
{
	struct ct_init_plan plan;
	struct ct_cgroup_hierarchy h[4];
	int memory = some_fd();
	plan_with(&plan, h, memory);
	int fds[2] = {some_fd(), some_fd()};
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_copies_adopt(&plan, fds, 2, &err), 0, "%s", err.msg);
	cr_expect_eq(h[0].copy, fds[0]);
	cr_expect_eq(h[1].copy, memory, "the inherited copy was replaced");
	cr_expect_eq(h[2].copy, -1, "a hierarchy mounted fresh got a copy");
	cr_expect_eq(h[3].copy, fds[1]);
	close(memory);
	close(fds[0]);
	close(fds[1]);
}

Test(cgroup_copies, none_passed_leaves_the_path_binds)
{
	struct ct_init_plan plan;
	struct ct_cgroup_hierarchy h[4];
	plan_with(&plan, h, -1);
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_copies_adopt(&plan, NULL, 0, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(h[i].copy, -1, "%s", h[i].key);
}

Test(cgroup_copies, another_count_is_refused_and_the_fds_closed)
{
	struct ct_init_plan plan;
	struct ct_cgroup_hierarchy h[4];
	plan_with(&plan, h, -1);
	int fds[2] = {some_fd(), some_fd()};
	struct ct_error err = {0};
	cr_assert_eq(ct_cgroup_copies_adopt(&plan, fds, 2, &err), -1);
	cr_expect_eq(err.errnum, EPROTO);
	cr_expect_str_eq(err.msg, "cgroup v1 hierarchy copies: 2 passed for 3");
	for (size_t i = 0; i < 2; i++)
		cr_expect_not(is_open(fds[i]), "fd %zu left open", i);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(h[i].copy, -1, "%s", h[i].key);
}
