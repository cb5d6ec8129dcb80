/* The systemd manager's D-Bus calls (libct/cgroup/systemd_bus.h). */
#include "libct/cgroup/systemd_bus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char sd_name[] = "org.freedesktop.systemd1";
static const char sd_path[] = "/org/freedesktop/systemd1";
static const char sd_manager[] = "org.freedesktop.systemd1.Manager";
static const char props_iface[] = "org.freedesktop.DBus.Properties";
static const char unit_iface[] = "org.freedesktop.systemd1.Unit";

static struct ct_dbus_msg manager_call(const char *member, const char *signature)
{
	return (struct ct_dbus_msg){.destination = sd_name,
				    .path = sd_path,
				    .interface = sd_manager,
				    .member = member,
				    .signature = signature};
}

/* A manager method that takes one string and whose reply is dropped or kept. */
static int call_with_name(struct ct_dbus_conn *c, const char *member, const char *sig,
			  const char *name, const char *mode, struct ct_dbus_reply *reply,
			  struct ct_error *err)
{
	struct ct_dbus_msg call = manager_call(member, sig);
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, name);
	if (mode)
		ct_dbus_put_string(&body, mode);
	int rc = ct_dbus_call(c, &call, &body, CT_SYSTEMD_TIMEOUT_MS, reply, err);
	ct_dbus_writer_free(&body);
	return rc;
}

#define JOBS_SEEN_MAX 8

/* The job being waited for and how JobRemoved said it ended. Until the call's reply names
 * the job, the jobs removed meanwhile are kept (the last few): one may be ours. */
struct job_wait {
	char path[256];
	char result[64];
	bool removed;
	struct {
		char path[256], result[64];
	} seen[JOBS_SEEN_MAX];
	size_t n_seen;
};

static void remember(struct job_wait *w, const char *path, const char *result)
{
	size_t i = w->n_seen++ % JOBS_SEEN_MAX;
	snprintf(w->seen[i].path, sizeof(w->seen[i].path), "%s", path);
	snprintf(w->seen[i].result, sizeof(w->seen[i].result), "%s", result);
}

/* The reply named job: it may have ended already. */
static void expect_job(struct job_wait *w, const char *job)
{
	snprintf(w->path, sizeof(w->path), "%s", job);
	size_t n = w->n_seen < JOBS_SEEN_MAX ? w->n_seen : JOBS_SEEN_MAX;
	for (size_t i = 0; i < n; i++)
		if (strcmp(w->seen[i].path, job) == 0) {
			snprintf(w->result, sizeof(w->result), "%s", w->seen[i].result);
			w->removed = true;
		}
}

static void on_job_removed(const struct ct_dbus_msg *m, void *ctx)
{
	struct job_wait *w = ctx;
	struct ct_dbus_iter it;
	union ct_dbus_value id, path, unit, result;
	struct ct_error ignored;
	if (strcmp(m->member, "JobRemoved") != 0 || strcmp(m->signature, "uoss") != 0)
		return;
	ct_dbus_iter_body(&it, m);
	if (ct_dbus_iter_get(&it, 'u', &id, &ignored) < 0 ||
	    ct_dbus_iter_get(&it, 'o', &path, &ignored) < 0 ||
	    ct_dbus_iter_get(&it, 's', &unit, &ignored) < 0 ||
	    ct_dbus_iter_get(&it, 's', &result, &ignored) < 0)
		return;
	if (!w->path[0]) {
		remember(w, path.s, result.s);
	} else if (strcmp(path.s, w->path) == 0) {
		snprintf(w->result, sizeof(w->result), "%s", result.s);
		w->removed = true;
	}
}

static bool job_done(void *ctx)
{
	return ((struct job_wait *)ctx)->removed;
}

int ct_systemd_connect(struct ct_dbus_conn *c, bool user_bus, bool jobs, struct ct_error *err)
{
	if (ct_dbus_open_bus(c, user_bus, CT_SYSTEMD_TIMEOUT_MS, err) < 0)
		return ct_error_prefix(err, "systemd cgroup driver");
	/* the manager sends a job's JobRemoved to the client that queued it without Subscribe
	 * (which asks for every unit's and job's signals): the bus routes it here by this match */
	if (jobs && ct_dbus_add_match(c,
				      "type='signal',sender='org.freedesktop.systemd1',"
				      "interface='org.freedesktop.systemd1.Manager',"
				      "member='JobRemoved'",
				      CT_SYSTEMD_TIMEOUT_MS, err) < 0) {
		ct_dbus_close(c);
		return ct_error_prefix(err, "systemd cgroup driver");
	}
	return 0;
}

/* The job path of a reply ("o"), then the wait for its JobRemoved (which may have come
 * before the reply: the callback was set before the call, and kept what it saw). */
static int wait_job(struct ct_dbus_conn *c, struct job_wait *w, const struct ct_dbus_reply *r,
		    const char *what, struct ct_error *err)
{
	struct ct_dbus_iter it;
	union ct_dbus_value job;
	ct_dbus_iter_body(&it, &r->msg);
	if (ct_dbus_iter_get(&it, 'o', &job, err) < 0)
		return -1;
	expect_job(w, job.s);
	if (ct_dbus_wait(c, job_done, w, CT_SYSTEMD_TIMEOUT_MS, err) < 0)
		return ct_error_prefix(err, "systemd: %s: waiting for job %s", what, w->path);
	if (strcmp(w->result, "done") != 0)
		return ct_error_plain(err, EIO, "systemd: %s: job %s ended \"%s\"", what, w->path,
				      w->result);
	return 0;
}

/* Told once the manager took a job's call, before the job is waited for (NULL: nothing). */
struct job_taken {
	int (*fn)(void *arg, struct ct_error *err);
	void *arg;
};

/* A manager call that queues a job, and the wait for the job; *queued says whether the
 * call was taken (a failure after it is the job's, or taken's). */
static int run_job(struct ct_dbus_conn *c, const struct ct_dbus_msg *call,
		   const struct ct_dbus_writer *body, const char *what,
		   const struct job_taken *taken, bool *queued, struct ct_error *err)
{
	struct job_wait w = {.path = ""};
	struct ct_dbus_reply r;
	c->on_signal = on_job_removed;
	c->signal_ctx = &w;
	int rc = ct_dbus_call(c, call, body, CT_SYSTEMD_TIMEOUT_MS, &r, err);
	*queued = rc == 0;
	if (rc == 0 && taken && taken->fn)
		rc = taken->fn(taken->arg, err);
	if (*queued) {
		if (rc == 0)
			rc = wait_job(c, &w, &r, what, err);
		ct_dbus_reply_free(&r);
	}
	c->on_signal = NULL;
	c->signal_ctx = NULL;
	return rc;
}

int ct_systemd_stop_unit(struct ct_dbus_conn *c, const char *name, struct ct_error *err)
{
	struct ct_dbus_msg call = manager_call("StopUnit", "ss");
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, name);
	ct_dbus_put_string(&body, "replace");
	char what[300];
	bool queued;
	snprintf(what, sizeof(what), "stop %s", name);
	int rc = run_job(c, &call, &body, what, NULL, &queued, err);
	ct_dbus_writer_free(&body);
	if (rc < 0 && !ct_dbus_failed_with(c, "org.freedesktop.systemd1.NoSuchUnit"))
		return queued ? -1 : ct_error_prefix(err, "systemd: %s", what);
	struct ct_error ignored;
	call_with_name(c, "ResetFailedUnit", "s", name, NULL, NULL, &ignored);
	return 0;
}

/* A call that got no answer of systemd's: none came (a timeout, the connection lost), or the
 * bus said none would (the manager left the bus or let the bus's own time-out pass). */
static bool answer_lost(const struct ct_dbus_conn *c)
{
	return !c->error_name[0] || ct_dbus_failed_with(c, "org.freedesktop.DBus.Error.NoReply");
}

/* StartTransientUnit(name, "fail", props) and the wait for its job; s->claim says whether
 * systemd took it (the unit then exists, even when its job failed or did not end in time),
 * refused it, or its answer was lost. */
static int start_once(struct ct_dbus_conn *c, const char *name, const struct ct_dbus_writer *props,
		      struct ct_systemd_start *s, struct ct_error *err)
{
	struct ct_dbus_msg call = manager_call("StartTransientUnit", "ssa(sv)a(sa(sv))");
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, name);
	ct_dbus_put_string(&body, "fail");
	struct ct_dbus_array_mark m = ct_dbus_array_open(&body, '(');
	/* props' elements were marshalled from offset 0, 8-aligned like these */
	ct_dbus_put_raw(&body, props->buf, props->len);
	ct_dbus_array_close(&body, m);
	struct ct_dbus_array_mark aux = ct_dbus_array_open(&body, '(');
	ct_dbus_array_close(&body, aux);
	char what[300];
	snprintf(what, sizeof(what), "start %s", name);
	struct job_taken taken = {s->on_taken, s->arg};
	bool queued;
	int rc = run_job(c, &call, &body, what, &taken, &queued, err);
	ct_dbus_writer_free(&body);
	s->claim = queued	    ? CT_SYSTEMD_OURS
		   : answer_lost(c) ? CT_SYSTEMD_IF_MARKED
				    : CT_SYSTEMD_NOT_OURS;
	return rc;
}

/* The unit's ActiveState ("active", "failed", "inactive"...) into out. */
static int active_state(struct ct_dbus_conn *c, const char *name, char *out, size_t size,
			struct ct_error *err);

int ct_systemd_start_unit(struct ct_dbus_conn *c, const char *name,
			  const struct ct_dbus_writer *props, struct ct_systemd_start *s,
			  struct ct_error *err)
{
	int rc = start_once(c, name, props, s, err);
	if (rc == 0 || s->claim != CT_SYSTEMD_NOT_OURS ||
	    !ct_dbus_failed_with(c, "org.freedesktop.systemd1.UnitExists"))
		return rc;
	struct ct_error exists = *err;
	char state[64];
	if (active_state(c, name, state, sizeof(state), err) < 0 ||
	    (strcmp(state, "failed") != 0 && strcmp(state, "inactive") != 0)) {
		*err = exists;
		return -1;
	}
	struct ct_error ignored;
	call_with_name(c, "ResetFailedUnit", "s", name, NULL, NULL, &ignored);
	return start_once(c, name, props, s, err);
}

int ct_systemd_set_properties(struct ct_dbus_conn *c, const char *name,
			      const struct ct_dbus_writer *props, struct ct_error *err)
{
	struct ct_dbus_msg call = manager_call("SetUnitProperties", "sba(sv)");
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, name);
	ct_dbus_put_bool(&body, true);
	struct ct_dbus_array_mark m = ct_dbus_array_open(&body, '(');
	ct_dbus_put_raw(&body, props->buf, props->len);
	ct_dbus_array_close(&body, m);
	int rc = ct_dbus_call(c, &call, &body, CT_SYSTEMD_TIMEOUT_MS, NULL, err);
	ct_dbus_writer_free(&body);
	return rc;
}

int ct_systemd_kill_unit(struct ct_dbus_conn *c, const char *name, int sig, struct ct_error *err)
{
	struct ct_dbus_msg call = manager_call("KillUnit", "ssi");
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, name);
	ct_dbus_put_string(&body, "all");
	ct_dbus_put_fixed(&body, 'i', (uint64_t)(uint32_t)sig);
	int rc = ct_dbus_call(c, &call, &body, CT_SYSTEMD_TIMEOUT_MS, NULL, err);
	ct_dbus_writer_free(&body);
	return rc;
}

/* Properties.Get(path, iface, prop) of a string property into a malloc'ed copy. */
static int get_string_property(struct ct_dbus_conn *c, const char *path, const char *iface,
			       const char *prop, char **out, struct ct_error *err)
{
	struct ct_dbus_msg call = {.destination = sd_name,
				   .path = path,
				   .interface = props_iface,
				   .member = "Get",
				   .signature = "ss"};
	struct ct_dbus_writer body;
	struct ct_dbus_reply r;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, iface);
	ct_dbus_put_string(&body, prop);
	int rc = ct_dbus_call(c, &call, &body, CT_SYSTEMD_TIMEOUT_MS, &r, err);
	ct_dbus_writer_free(&body);
	if (rc < 0)
		return -1;
	struct ct_dbus_iter it, v;
	union ct_dbus_value s;
	ct_dbus_iter_body(&it, &r.msg);
	rc = ct_dbus_iter_enter(&it, &v, err) < 0 || ct_dbus_iter_get(&v, 's', &s, err) < 0 ? -1
											    : 0;
	if (rc == 0 && !(*out = strdup(s.s)))
		rc = ct_error_sys(err, ENOMEM, "systemd property");
	ct_dbus_reply_free(&r);
	return rc;
}

/* GetUnit(name): the unit's object path, malloc'ed. */
static int unit_path(struct ct_dbus_conn *c, const char *name, char **out, struct ct_error *err)
{
	struct ct_dbus_reply r;
	struct ct_dbus_iter it;
	union ct_dbus_value path;
	if (call_with_name(c, "GetUnit", "s", name, NULL, &r, err) < 0)
		return -1;
	ct_dbus_iter_body(&it, &r.msg);
	int rc = ct_dbus_iter_get(&it, 'o', &path, err);
	if (rc == 0 && !(*out = strdup(path.s)))
		rc = ct_error_sys(err, ENOMEM, "systemd unit");
	ct_dbus_reply_free(&r);
	return rc;
}

/* A string property of unit name (GetUnit, then Properties.Get on its object), malloc'ed. */
static int unit_property(struct ct_dbus_conn *c, const char *name, const char *iface,
			 const char *prop, char **out, struct ct_error *err)
{
	char *path = NULL;
	int rc = unit_path(c, name, &path, err);
	if (rc == 0)
		rc = get_string_property(c, path, iface, prop, out, err);
	free(path);
	return rc;
}

static int active_state(struct ct_dbus_conn *c, const char *name, char *out, size_t size,
			struct ct_error *err)
{
	char *state = NULL;
	int rc = unit_property(c, name, unit_iface, "ActiveState", &state, err);
	if (rc == 0)
		snprintf(out, size, "%s", state);
	free(state);
	return rc;
}

int ct_systemd_unit_description(struct ct_dbus_conn *c, const char *name, char **out,
				struct ct_error *err)
{
	return unit_property(c, name, unit_iface, "Description", out, err);
}

int ct_systemd_unit_cgroup(struct ct_dbus_conn *c, const char *name, char **out,
			   struct ct_error *err)
{
	size_t n = strlen(name);
	bool slice = n > 6 && strcmp(name + n - 6, ".slice") == 0;
	int rc = unit_property(c, name,
			       slice ? "org.freedesktop.systemd1.Slice"
				     : "org.freedesktop.systemd1.Scope",
			       "ControlGroup", out, err);
	/* systemd says "" for a unit that has no cgroup (a failed start, or one gone), "/" for
	 * the root: read as a directory, either is the whole hierarchy, every process of the
	 * machine, which a kill or removal of the unit's cgroup must never reach */
	if (rc == 0 && ((*out)[0] != '/' || !(*out)[1])) {
		rc = ct_error_plain(err, ENOENT, "ControlGroup \"%s\" is no cgroup of the unit's",
				    *out);
		free(*out);
		*out = NULL;
	}
	return rc;
}

unsigned ct_systemd_version(struct ct_dbus_conn *c)
{
	char *v = NULL;
	struct ct_error ignored;
	if (get_string_property(c, sd_path, sd_manager, "Version", &v, &ignored) < 0)
		return 0;
	unsigned version = (unsigned)strtoul(v, NULL, 10);
	free(v);
	return version;
}
