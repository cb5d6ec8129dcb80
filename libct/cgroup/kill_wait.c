/* SIGKILL to every process of a cgroup and the wait for their exit, both through pidfds:
 * cgroup v1's way to empty a cgroup without its freezer (whose FROZEN state can only be
 * polled) and without sleeping until rmdir stops saying EBUSY. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/kernel.h"
#include "libct/base/syscalls.h"
#include "libct/cgroup/internal.h"
#include "libct/state/procstat.h"

#define KILL_WAIT_MS 5000 /* a process stuck in the kernel (D state) does not exit at once */

/* Opens a pidfd for each listed process that is still there and sends it SIGKILL; fds[i]
 * is -1 for one that was gone or refused. Returns how many were signalled. */
static size_t kill_by_pidfds(const pid_t *pids, size_t n, struct pollfd *fds)
{
	size_t killed = 0;
	for (size_t i = 0; i < n; i++) {
		fds[i] = (struct pollfd){.fd = ct_pidfd_open(pids[i], 0), .events = POLLIN};
		if (fds[i].fd >= 0 && ct_pidfd_send_signal(fds[i].fd, SIGKILL, NULL, 0) < 0)
			ct_close_now(&fds[i].fd);
		killed += fds[i].fd >= 0;
	}
	return killed;
}

static long ms_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000 + (now.tv_nsec - start->tv_nsec) / 1000000;
}

/* Until every pidfd is readable (its process has exited: it left the cgroup) or the
 * deadline passes. poll ignores the -1 entries and clears revents of the others. */
static int wait_pidfds(struct pollfd *fds, size_t n, const struct timespec *start)
{
	for (;;) {
		size_t open = 0;
		for (size_t i = 0; i < n; i++) {
			if (fds[i].fd >= 0 && fds[i].revents)
				ct_close_now(&fds[i].fd);
			open += fds[i].fd >= 0;
		}
		long left = KILL_WAIT_MS - ms_since(start);
		if (!open)
			return 0;
		if (left <= 0 || (poll(fds, n, (int)left) < 0 && errno != EINTR))
			return -1;
	}
}

static void close_pidfds(struct pollfd *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ct_close_now(&fds[i].fd);
}

/* empty (or given up at the deadline), another round needed, pidfds refused */
enum round { ROUND_EMPTY, ROUND_DONE, ROUND_REFUSED };

/* One round: list, kill, wait for those killed. */
static int kill_round(struct ct_cgroup *cg, const struct timespec *start, enum round *out,
		      struct ct_error *err)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n;
	if (ct_cg_list_all_pids(cg, &pids, &n, err) < 0)
		return -1;
	*out = ROUND_EMPTY;
	if (!n)
		return 0;
	_cleanup_free_ struct pollfd *fds = calloc(n, sizeof(*fds));
	if (!fds)
		return ct_error_sys(err, ENOMEM, "kill the processes of the cgroup");
	/* none could be signalled by pidfd (a profile refuses the calls): the caller's way */
	*out = kill_by_pidfds(pids, n, fds) ? ROUND_DONE : ROUND_REFUSED;
	/* past the deadline the signals stay sent; a removal of the cgroup says if it is busy */
	if (wait_pidfds(fds, n, start) < 0)
		*out = ROUND_EMPTY;
	close_pidfds(fds, n);
	return 0;
}

/* How many processes the cgroup holds; (size_t)-1 with err when it cannot be read. */
static size_t count_pids(struct ct_cgroup *cg, struct ct_error *err)
{
	_cleanup_free_ pid_t *pids = NULL;
	size_t n;
	return ct_cg_list_all_pids(cg, &pids, &n, err) < 0 ? (size_t)-1 : n;
}

/* The rounds ran out of time: empty now, or an error naming what is left. */
static int check_emptied(struct ct_cgroup *cg, struct ct_error *err)
{
	size_t n = count_pids(cg, err);
	if (n == (size_t)-1)
		return -1;
	if (!n)
		return 1;
	return ct_error_plain(err, EBUSY,
			      "cgroup %s: %zu processes still there after %d s of SIGKILL "
			      "(they keep forking)",
			      cg->dirs[cg->n_dirs - 1].path, n, KILL_WAIT_MS / 1000);
}

int ct_cg_kill_and_wait(struct ct_cgroup *cg, struct ct_error *err)
{
	if (!ct_kernel_has(CT_KF_PIDFD_OPEN) || !ct_kernel_has(CT_KF_PIDFD_SEND_SIGNAL))
		return 0;
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* a process killed while forking may leave a child behind: the next round takes it;
	 * the deadline bounds rounds whose processes all exit at once (wait_pidfds only
	 * looks at it while one is still there) */
	enum round r = ROUND_DONE;
	while (r == ROUND_DONE && ms_since(&start) < KILL_WAIT_MS)
		if (kill_round(cg, &start, &r, err) < 0)
			return -1;
	if (r == ROUND_DONE)
		return check_emptied(cg, err);
	return r == ROUND_EMPTY ? 1 : 0;
}
