/* `ctrun events [--stats] [--interval D] ID`, runc's: with --stats one statistics record and
 * exit; without, a statistics record every interval (default 5s) and an "oom" record each
 * time the kernel's OOM killer acts in the container, until the container stops. Records
 * are runtime/events_json.h's, one per line; the watch is the lifecycle's
 * (libct/lifecycle/events.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/lifecycle/events.h"
#include "runtime/flags.h"
#include "runtime/events_json.h"
#include "runtime/log.h"

#define DEFAULT_INTERVAL_NS 5000000000ULL

/* One record a line, flushed at once: a client reads them as they come. */
static int print_line(FILE *out, const char *line)
{
	fprintf(out, "%s\n", line);
	fflush(out);
	return 0;
}

static int print_stats(void *arg, const char *id, const struct ct_cgroup_stats *st,
		       struct ct_error *err)
{
	_cleanup_free_ char *line = NULL;
	return ct_events_stats_json(id, st, &line, err) < 0 ? -1 : print_line(arg, line);
}

static int print_oom(void *arg, const char *id, struct ct_error *err)
{
	_cleanup_free_ char *line = NULL;
	return ct_events_oom_json(id, &line, err) < 0 ? -1 : print_line(arg, line);
}

int cmd_events(const struct ct_globals *g, int argc, char **argv)
{
	bool stats_once = false;
	uint64_t interval = DEFAULT_INTERVAL_NS;
	const struct ct_flag flags[] = {
		{"stats", 0, CT_FLAG_TRUE, &stats_once},
		{"interval", 0, CT_FLAG_INTERVAL, &interval},
		{NULL},
	};
	const struct ct_command_line line = {"[--stats] [--interval DURATION] ID", flags, 1, 1};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;
	const char *id = argv[optind];
	struct ct_watch w = {.pidfd = -1};
	struct ct_error err = {0};
	const struct ct_events_sink sink = {print_stats, print_oom, stdout};
	int rc = ct_watch_open(&g->lc, id, &w, &err);
	if (rc == 0)
		rc = stats_once ? ct_watch_stats(&w, &sink, &err)
				: ct_watch_loop(&w, interval, &sink, &err);
	if (rc < 0)
		ct_log(CT_LOG_ERROR, "events of container \"%s\": %s", ct_shown_id(id).s, err.msg);
	ct_watch_close(&w);
	return rc < 0 ? 1 : 0;
}
