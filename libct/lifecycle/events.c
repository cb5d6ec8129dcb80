/* Watching a running container for `events` (libct/lifecycle/events.h). */
#include "libct/lifecycle/events.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_cgroup.h"
#include "libct/lifecycle/log.h"

int ct_watch_stats(struct ct_watch *w, const struct ct_events_sink *s, struct ct_error *err)
{
	struct ct_cgroup_stats st;
	if (ct_cgroup_stats(w->cg, &st, err) < 0)
		return -1;
	int rc = s->stats(s->arg, w->id, &st, err);
	w->oom_kills = st.oom_kills;
	ct_cgroup_stats_free(&st);
	return rc;
}

/* The OOM fd turned readable. v1's eventfd counts OOM events: each is one. v2's inotify
 * says memory.events changed: an OOM kill is when its oom_kill count grew. */
static int on_oom_fd(struct ct_watch *w, int fd, const struct ct_events_sink *s,
		     struct ct_error *err)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return ct_error_sys(err, errno, "read the OOM notification");
	if (w->cg->ops == &ct_cgroup_v1_ops)
		return s->oom(s->arg, w->id, err);
	struct ct_cgroup_stats st;
	if (ct_cgroup_stats(w->cg, &st, err) < 0)
		return -1;
	bool killed = st.oom_kills > w->oom_kills;
	w->oom_kills = st.oom_kills;
	ct_cgroup_stats_free(&st);
	return killed ? s->oom(s->arg, w->id, err) : 0;
}

static bool init_exited(const struct ct_watch *w)
{
	return ct_status_derive(w->pid, w->start_time, true) == CT_STATUS_STOPPED;
}

int ct_watch_loop(struct ct_watch *w, uint64_t interval_ns, const struct ct_events_sink *s,
		  struct ct_error *err)
{
	int oomfd = ct_cgroup_oom_watch(w->cg, err);
	if (oomfd < 0) {
		ct_log(CT_LOG_WARNING, "events: no OOM notifications: %s", err->msg);
		ct_error_clear(err);
	}
	struct ct_cgroup_stats st;
	if (ct_cgroup_stats(w->cg, &st, err) < 0)
		return -1;
	w->oom_kills = st.oom_kills;
	ct_cgroup_stats_free(&st);
	uint64_t ms = interval_ns / 1000000;
	int timeout = ms > 3600000 ? 3600000 : ms ? (int)ms : 1;
	int rc = 0;
	while (rc == 0) {
		struct pollfd fds[2] = {{.fd = w->pidfd, .events = POLLIN},
					{.fd = oomfd, .events = POLLIN | POLLPRI}};
		int n = poll(fds, 2, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = ct_error_sys(err, errno, "poll");
		} else if (fds[1].revents) {
			rc = on_oom_fd(w, oomfd, s, err);
		} else if (fds[0].revents || (w->pidfd < 0 && init_exited(w))) {
			break; /* the container stopped */
		} else if (n == 0) {
			rc = ct_watch_stats(w, s, err);
		}
	}
	ct_close_now(&oomfd);
	return rc;
}

/* Opens the container, takes its cgroup and init, lets its directory go. */
int ct_watch_open(const struct ct_lifecycle_opts *lc, const char *id, struct ct_watch *w,
		  struct ct_error *err)
{
	struct ct_container c;
	int rc = ct_container_open(lc, id, false, &c, err);
	if (rc == 0 && c.status == CT_STATUS_STOPPED)
		rc = ct_error_plain(err, ESRCH, "container not running");
	if (rc == 0)
		rc = ct_container_cgroup_require(&c.state, "", &w->cg, err);
	if (rc == 0)
		rc = ct_container_attach(&c, err);
	if (rc == 0) {
		w->id = strdup(id);
		w->pidfd = steal_fd(&c.proc.pidfd);
		w->pid = c.state.pid;
		w->start_time = c.state.pid_start_time;
		if (!w->id)
			rc = ct_error_sys(err, ENOMEM, "events");
	}
	ct_container_close(&c);
	return rc;
}

void ct_watch_close(struct ct_watch *w)
{
	ct_close_now(&w->pidfd);
	ct_cgroup_free(w->cg);
	w->cg = NULL;
	free(w->id);
	w->id = NULL;
}
