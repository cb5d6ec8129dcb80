/* `ctrun events [--stats] [--interval D] ID`, runc's: with --stats one statistics record and
 * exit; without, a statistics record every interval (default 5s) and an "oom" record each
 * time the kernel's OOM killer acts in the container, until the container stops. Records
 * are runtime/events_json.h's, one per line.
 *
 * The container's lock is let go once its cgroup and init are in hand: events runs for as
 * long as the container does, and must not hold up kill, pause or delete meanwhile. */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "runtime/container.h"
#include "runtime/container_cgroup.h"
#include "runtime/duration.h"
#include "runtime/events_json.h"
#include "runtime/log.h"

#define DEFAULT_INTERVAL_NS 5000000000ULL

/* What the loop needs once the container directory is closed. */
struct watch {
	char *id;
	struct ct_cgroup *cg;
	int pidfd;		 /* readable when the init exits; -1 without pidfd_open */
	pid_t pid;
	uint64_t start_time;
	uint64_t oom_kills;	 /* the count last seen (v2 memory.events) */
};

static int print_stats(struct watch *w, struct ct_error *err)
{
	struct ct_cgroup_stats st;
	if (ct_cgroup_stats(w->cg, &st, err) < 0)
		return -1;
	_cleanup_free_ char *line = NULL;
	int rc = ct_events_stats_json(w->id, &st, &line, err);
	if (rc == 0) {
		printf("%s\n", line);
		fflush(stdout);
	}
	w->oom_kills = st.oom_kills;
	ct_cgroup_stats_free(&st);
	return rc;
}

static int print_oom(const struct watch *w, struct ct_error *err)
{
	_cleanup_free_ char *line = NULL;
	if (ct_events_oom_json(w->id, &line, err) < 0)
		return -1;
	printf("%s\n", line);
	fflush(stdout);
	return 0;
}

/* The OOM fd turned readable. v1's eventfd counts OOM events: each is one. v2's inotify
 * says memory.events changed: an OOM kill is when its oom_kill count grew. */
static int on_oom_fd(struct watch *w, int fd, struct ct_error *err)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return ct_error_set(err, errno, "read the OOM notification");
	if (w->cg->ops == &ct_cgroup_v1_ops)
		return print_oom(w, err);
	struct ct_cgroup_stats st;
	if (ct_cgroup_stats(w->cg, &st, err) < 0)
		return -1;
	bool killed = st.oom_kills > w->oom_kills;
	w->oom_kills = st.oom_kills;
	ct_cgroup_stats_free(&st);
	return killed ? print_oom(w, err) : 0;
}

static bool init_exited(const struct watch *w)
{
	return ct_status_derive(w->pid, w->start_time, true) == CT_STATUS_STOPPED;
}

static int event_loop(struct watch *w, uint64_t interval_ns, struct ct_error *err)
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
			rc = ct_error_set(err, errno, "poll");
		} else if (fds[1].revents) {
			rc = on_oom_fd(w, oomfd, err);
		} else if (fds[0].revents || (w->pidfd < 0 && init_exited(w))) {
			break; /* the container stopped */
		} else if (n == 0) {
			rc = print_stats(w, err);
		}
	}
	if (oomfd >= 0)
		close(oomfd);
	return rc;
}

/* Opens the container, takes its cgroup and init, lets its directory go. */
static int watch_container(const struct ct_globals *g, const char *id, struct watch *w,
			   struct ct_error *err)
{
	struct ct_container c;
	int rc = ct_container_open(g, id, false, &c, err);
	if (rc == 0 && c.status == CT_STATUS_STOPPED)
		rc = ct_error_set_plain(err, ESRCH, "container not running");
	if (rc == 0)
		rc = ct_container_cgroup_open(&c.state, &w->cg, err);
	if (rc == 0 && !w->cg)
		rc = ct_error_set_plain(err, ENOENT, "the container has no cgroup (created with "
					"--cgroup-manager disabled)");
	if (rc == 0)
		rc = ct_container_attach(&c, err);
	if (rc == 0) {
		w->id = strdup(id);
		w->pidfd = steal_fd(&c.proc.pidfd);
		w->pid = c.state.pid;
		w->start_time = c.state.pid_start_time;
		if (!w->id)
			rc = ct_error_set(err, ENOMEM, "events");
	}
	ct_container_close(&c);
	return rc;
}

int cmd_events(const struct ct_globals *g, int argc, char **argv)
{
	static const struct option options[] = {
		{"stats", no_argument, NULL, 's'},
		{"interval", required_argument, NULL, 'i'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool stats_once = false;
	uint64_t interval = DEFAULT_INTERVAL_NS;
	int c;
	while ((c = ct_getopt(argc, argv, "+:h", options)) != -1) {
		if (c == 's') {
			stats_once = true;
		} else if (c == 'i') {
			if (ct_parse_duration(optarg, &interval) < 0 || interval == 0)
				return ct_usage_error(argv[0], "--interval: invalid duration \"%s\"",
						      optarg);
		} else if (c == 'h') {
			printf("Usage: ctrun events [--stats] [--interval DURATION] ID\n");
			return 0;
		} else {
			return 1;
		}
	}
	if (optind + 1 != argc)
		return ct_usage_error(argv[0], optind >= argc ? "missing container id"
							       : "too many arguments");
	const char *id = argv[optind];
	struct watch w = {.pidfd = -1};
	struct ct_error err = {0};
	int rc = watch_container(g, id, &w, &err);
	if (rc == 0)
		rc = stats_once ? print_stats(&w, &err) : event_loop(&w, interval, &err);
	if (rc < 0)
		ct_log(CT_LOG_ERROR, "events of container \"%s\": %s", ct_shown_id(id).s, err.msg);
	if (w.pidfd >= 0)
		close(w.pidfd);
	ct_cgroup_free(w.cg);
	free(w.id);
	return rc < 0 ? 1 : 0;
}
