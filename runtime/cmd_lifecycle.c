/* `ctrun start`, `state`, `kill`, `delete`, `pause`, `resume`: commands on one existing container.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/state/pidns.h"
#include "libct/base/signals.h"
#include "runtime/container.h"
#include "runtime/container_cgroup.h"
#include "runtime/kill_all.h"
#include "runtime/log.h"

/* Flags without arguments (option values 256..271, a one-letter name doubles as the short
 * flag: {"f", ...} makes -f) given as a mask, then positional args. Returns the number of
 * positional arguments (at argv + optind), -1 after a usage error, -2 after --help. */
static int parse_simple(int argc, char **argv, const struct option *opts, unsigned *set,
			const char *usage)
{
	struct option all[8];
	char shorts[16] = "+:h";
	int n = 0;
	for (; opts && opts[n].name && n < 6; n++) {
		all[n] = opts[n];
		if (!opts[n].name[1])
			strncat(shorts, opts[n].name, 1);
	}
	all[n++] = (struct option){"help", no_argument, NULL, 'h'};
	all[n] = (struct option){NULL, 0, NULL, 0};
	int c;
	while ((c = ct_getopt(argc, argv, shorts, all)) != -1) {
		if (c == 'h') {
			printf("Usage: ctrun %s %s\n", argv[0], usage);
			return -2;
		}
		for (int i = 0; c < 256 && opts && opts[i].name; i++)
			if (opts[i].name[0] == c && !opts[i].name[1])
				c = opts[i].val;
		if (c < 256 || c >= 256 + 16)
			return -1;
		*set |= 1u << (c - 256);
	}
	return argc - optind;
}

static int fail(const char *what, const char *id, const struct ct_error *err)
{
	ct_log(CT_LOG_ERROR, "%s container \"%s\": %s", what, ct_shown_id(id).s, err->msg);
	return 1;
}

/* parse_simple() for a command on one container: the number of positional arguments
 * (1..max, the id first), or -1 with *rc set to the exit status (0 after --help). */
static int parse_id_command(int argc, char **argv, const struct option *opts, unsigned *set,
			    const char *usage, int max, int *rc)
{
	int n = parse_simple(argc, argv, opts, set, usage);
	*rc = n == -2 ? 0 : 1;
	if (n < 0)
		return -1;
	if (n < 1 || n > max) {
		*rc = ct_usage_error(argv[0],
				     n < 1 ? "missing container id" : "too many arguments");
		return -1;
	}
	return n;
}

int cmd_start(const struct ct_globals *g, int argc, char **argv)
{
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, NULL, &set, "ID", 1, &rc);
	if (n < 0)
		return rc;
	const char *id = argv[optind];
	struct ct_container c;
	struct ct_error err = {0};
	rc = 0;
	if (ct_container_open(g, id, true, &c, &err) < 0) {
		rc = fail("start", id, &err);
	} else if (c.status != CT_STATUS_CREATED) {
		ct_log(CT_LOG_ERROR, "start container \"%s\": cannot start a container that is %s",
		       ct_shown_id(id).s, ct_status_name(c.status));
		rc = 1;
	} else if (ct_container_start_fifo(&c, &err) < 0) {
		rc = fail("start", id, &err);
		if (c.start_refused)
			ct_container_abort_start(&c);
	} else if (ct_container_poststart(&c, &err) < 0) {
		/* runtime.md#lifecycle step 9: the error, then the container goes */
		rc = fail("start", id, &err);
		ct_container_abort_start(&c);
	}
	ct_container_close(&c);
	return rc;
}

int cmd_state(const struct ct_globals *g, int argc, char **argv)
{
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, NULL, &set, "ID", 1, &rc);
	if (n < 0)
		return rc;
	const char *id = argv[optind];
	struct ct_container c;
	struct ct_error err = {0};
	char *json = NULL;
	rc = 0;
	if (ct_container_open(g, id, false, &c, &err) < 0 ||
	    ct_state_format_json(&c.state, ct_status_name(c.status), &json, &err) < 0)
		rc = fail("state of", id, &err);
	else
		printf("%s\n", json);
	free(json);
	ct_container_close(&c);
	return rc;
}

enum { KILL_ALL = 256 };

static int send_signal(struct ct_container *c, int sig, bool all, struct ct_error *err)
{
	if (ct_container_attach(c, err) < 0)
		return -1;
	if (all)
		return ct_kill_all(c, sig, err);
	return ct_container_signal(c, sig, err);
}

int cmd_kill(const struct ct_globals *g, int argc, char **argv)
{
	static const struct option opts[] = {{"all", no_argument, NULL, KILL_ALL},
					     {"a", no_argument, NULL, KILL_ALL},
					     {NULL, 0, NULL, 0}};
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, opts, &set, "[--all] ID [SIGNAL]", 2, &rc);
	if (n < 0)
		return rc;
	const char *id = argv[optind];
	const char *signame = n == 2 ? argv[optind + 1] : "TERM";
	int sig = ct_signal_parse(signame);
	if (sig < 0)
		return ct_usage_error(argv[0], "unknown signal \"%s\"", signame);
	struct ct_container c;
	struct ct_error err = {0};
	rc = 0;
	bool all = set & (1u << (KILL_ALL - 256));
	if (ct_container_open(g, id, false, &c, &err) < 0) {
		rc = fail("kill", id, &err);
	} else if (c.status == CT_STATUS_STOPPED && all) {
		if (ct_kill_leftovers(&c, sig, &err) < 0)
			rc = fail("kill", id, &err);
	} else if (c.status == CT_STATUS_STOPPED) {
		ct_log(CT_LOG_ERROR, "kill container \"%s\": container not running",
		       ct_shown_id(id).s);
		rc = 1;
	} else if (send_signal(&c, sig, all, &err) < 0) {
		rc = fail("kill", id, &err);
	}
	ct_container_close(&c);
	return rc;
}

/* delete --force: SIGKILL through the init's pidfd, then wait on that pidfd (no sleeps). An
 * init that leads its own pid namespace takes the rest of it along, so it alone is signalled
 * (as runc does); otherwise, or when paused (a frozen task dies only once thawed), every
 * process of the cgroup is, which on cgroup v1 means freezing it first. */
static int kill_and_wait(struct ct_container *c, struct ct_error *err)
{
	if (ct_container_attach(c, err) < 0)
		return err->errnum == ESRCH ? 0 : -1; /* exited since we looked: nothing to kill */
	if (c->status != CT_STATUS_PAUSED && ct_proc_leads_pid_ns(c->proc.pid)) {
		if (ct_container_signal(c, SIGKILL, err) < 0 && err->errnum != ESRCH)
			return -1;
	} else if (ct_kill_all(c, SIGKILL, err) < 0) {
		return -1;
	}
	return ct_container_wait_exit(c, err);
}

enum { DELETE_FORCE = 256 };

int cmd_delete(const struct ct_globals *g, int argc, char **argv)
{
	static const struct option opts[] = {{"force", no_argument, NULL, DELETE_FORCE},
					     {"f", no_argument, NULL, DELETE_FORCE},
					     {NULL, 0, NULL, 0}};
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, opts, &set, "[--force] ID", 1, &rc);
	if (n < 0)
		return rc;
	bool force = set & (1u << (DELETE_FORCE - 256));
	const char *id = argv[optind];
	struct ct_container c;
	struct ct_error err = {0};
	rc = 0;
	if (ct_container_open(g, id, true, &c, &err) < 0) {
		/* --force on a container that is already gone: idempotent clean-up */
		rc = force && err.errnum == ENOENT ? 0 : fail("delete", id, &err);
	} else if (c.status != CT_STATUS_STOPPED && !force) {
		/* runtime.md#delete: deleting a container that is not stopped is an error */
		ct_log(CT_LOG_ERROR,
		       "delete container \"%s\": container is %s, not stopped "
		       "(use --force)",
		       ct_shown_id(id).s, ct_status_name(c.status));
		rc = 1;
	} else if (c.status != CT_STATUS_STOPPED && kill_and_wait(&c, &err) < 0) {
		rc = fail("delete", id, &err);
	} else if (ct_container_destroy(&c, &err) < 0) {
		rc = fail("delete", id, &err);
	} else {
		ct_container_poststop(&c); /* after the container is deleted (config.md) */
	}
	ct_container_close(&c);
	return rc;
}

/* pause / resume: the cgroup freezer (runc's: a created or running container can be paused,
 * only a paused one resumed). */
static int set_frozen(struct ct_container *c, bool frozen, struct ct_error *err)
{
	struct ct_cgroup *cg = NULL;
	int rc = ct_container_cgroup_open(&c->state, &cg, err);
	if (rc == 0 && !cg)
		rc = ct_error_set_plain(err, ENOENT,
					"the container has no cgroup to freeze "
					"(created with --cgroup-manager disabled)");
	if (rc == 0)
		rc = ct_cgroup_freeze(cg, frozen, err);
	ct_cgroup_free(cg);
	return rc;
}

static int freeze_command(const struct ct_globals *g, int argc, char **argv, bool frozen)
{
	unsigned set = 0;
	int rc, n = parse_id_command(argc, argv, NULL, &set, "ID", 1, &rc);
	if (n < 0)
		return rc;
	const char *id = argv[optind], *verb = frozen ? "pause" : "resume";
	struct ct_container c;
	struct ct_error err = {0};
	rc = 0;
	bool can = false;
	if (ct_container_open(g, id, true, &c, &err) < 0) {
		rc = fail(verb, id, &err);
	} else {
		can = frozen ? c.status == CT_STATUS_RUNNING || c.status == CT_STATUS_CREATED
			     : c.status == CT_STATUS_PAUSED;
		if (!can) {
			ct_log(CT_LOG_ERROR,
			       "%s container \"%s\": cannot %s a container that is %s", verb,
			       ct_shown_id(id).s, verb, ct_status_name(c.status));
			rc = 1;
		} else if (set_frozen(&c, frozen, &err) < 0) {
			rc = fail(verb, id, &err);
		}
	}
	ct_container_close(&c);
	return rc;
}

int cmd_pause(const struct ct_globals *g, int argc, char **argv)
{
	return freeze_command(g, argc, argv, true);
}

int cmd_resume(const struct ct_globals *g, int argc, char **argv)
{
	return freeze_command(g, argc, argv, false);
}
