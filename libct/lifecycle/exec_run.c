/* `exec` (libct/lifecycle/ops.h): another process in a container, as runc runs it. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/syscalls.h"
#include "libct/child/terminal.h"
#include "libct/lifecycle/bundle.h"
#include "libct/lifecycle/cache_dir.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/container_cgroup.h"
#include "libct/lifecycle/forward.h"
#include "libct/lifecycle/log.h"
#include "libct/lifecycle/ops.h"
#include "libct/lifecycle/tty_relay.h"
#include "libct/parent/exec.h"
#include "libct/parent/spawn_plan.h"

#define EXEC_FAILED 255

/* runc's rules: stopped never; paused only when asked; created and running are fine. */
static int check_status(const struct ct_container *c, const struct ct_exec_args *a,
			struct ct_error *err)
{
	if (c->status == CT_STATUS_STOPPED)
		return ct_error_plain(err, EINVAL, "cannot exec in a stopped container");
	if (c->status == CT_STATUS_PAUSED && !a->ignore_paused)
		return ct_error_plain(err, EINVAL,
				      "cannot exec in a paused container "
				      "(use --ignore-paused to override)");
	return 0;
}

/* The process object: --process FILE alone, or config.json's changed by apply. */
static int build_process(const struct ct_exec_args *a, struct oci_config *config,
			 struct ct_error *err)
{
	if (!a->process_file)
		return a->apply(a->apply_arg, &config->process, err);
	struct oci_process p;
	if (oci_process_load(a->process_file, &p, err) < 0)
		return -1;
	/* a document without capabilities gets the container's, as under runc and crun (not
	 * the runtime's own, which are the host root's) */
	if (!p.has_capabilities && config->process.has_capabilities) {
		p.capabilities = config->process.capabilities;
		p.has_capabilities = true;
		memset(&config->process.capabilities, 0, sizeof(config->process.capabilities));
	}
	oci_process_free(&config->process);
	config->process = p;
	config->has_process = true;
	return 0;
}

static int check_terminal(const struct ct_exec_args *a, const struct oci_process *p,
			  struct ct_error *err)
{
	/* runc's rule; in the foreground ctrun relays the terminal itself */
	if (p->terminal && !a->console_socket && a->detach)
		return ct_error_plain(err, EINVAL,
				      "cannot allocate a tty when detached without "
				      "--console-socket");
	if (!p->terminal && a->console_socket)
		return ct_error_plain(err, EINVAL,
				      "--console-socket \"%s\" given, but the process has no "
				      "terminal (--tty)",
				      a->console_socket);
	return 0;
}

static int load_config(const struct ct_container *c, const struct ct_exec_args *a,
		       struct oci_config **config, struct ct_error *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/config.json", c->state.bundle);
	struct oci_config_opts opts = {.on_unknown = ct_bundle_log_unknown};
	if (oci_config_load(path, &opts, config, err) < 0 || build_process(a, *config, err) < 0 ||
	    check_terminal(a, &(*config)->process, err) < 0)
		return -1;
	return 0;
}

static void log_warning(const char *msg)
{
	ct_log(CT_LOG_WARNING, "%s", msg);
}

static void log_notice(const char *msg)
{
	ct_log(CT_LOG_DEBUG, "%s", msg);
}

static int signal_process(void *data, int sig)
{
	const struct ct_exec_proc *p = data;
	if (ct_pidfd_send_signal(p->pidfd, sig, NULL, 0) == 0)
		return 0;
	return kill(p->pid, sig); /* our child, not reaped yet: the pid is still its own */
}

/* One --cgroup: "SUB" (every hierarchy; then the only one given, as runc rules) or
 * "CONTROLLER[,CONTROLLER]:SUB". */
static int descend_one(struct ct_cgroup *cg, const char *spec, size_t n_specs, struct ct_error *err)
{
	const char *colon = strchr(spec, ':');
	if (!colon)
		return n_specs == 1 ? ct_cgroup_descend(cg, NULL, spec, err)
				    : ct_error_plain(err, EINVAL,
						     "\"%s\": CONTROLLER: prefix missing "
						     "(a SUB alone is the only --cgroup)",
						     spec);
	const char *sub = colon + 1;
	if (strchr(sub, ':'))
		return ct_error_plain(err, EINVAL, "\"%s\": not [CONTROLLER:]SUB", spec);
	for (const char *c = spec; c <= colon; c++)
		if ((*c == ',' || *c == ':') && (c == spec || c[-1] == ','))
			return ct_error_plain(err, EINVAL, "\"%s\": bad controller list", spec);
	_cleanup_free_ char *controllers = strndup(spec, (size_t)(colon - spec));
	if (!controllers)
		return ct_error_sys(err, ENOMEM, "--cgroup");
	return ct_cgroup_descend(cg, controllers, sub, err);
}

static int enter_sub_cgroups(struct ct_cgroup *cg, const struct ct_exec_args *a,
			     struct ct_error *err)
{
	if (a->n_sub_cgroups && !cg)
		return ct_error_plain(err, ENOENT, "--cgroup: the container has no cgroup");
	for (size_t i = 0; i < a->n_sub_cgroups; i++)
		if (descend_one(cg, a->sub_cgroups[i], a->n_sub_cgroups, err) < 0)
			return ct_error_prefix(err, "--cgroup");
	return 0;
}

/* What follows a successful spawn: the terminal to its receiver, the pid file. */
static int hand_over(const struct ct_exec_args *a, struct ct_exec_proc *p, struct ct_error *err)
{
	if (p->pty_master >= 0 && a->console_socket &&
	    ct_console_send_master(a->console_socket, p->pty_master, err) < 0)
		return -1;
	if (a->pid_file && ct_write_pid_file(a->pid_file, p->pid, err) < 0)
		return -1;
	return 0;
}

struct exec_run {
	const struct ct_exec_args *a;
	struct ct_container c;
	struct oci_config *config;
	struct ct_exec_proc proc;
	struct ct_cgroup *cgroup; /* the container's, from state.json; NULL: none */
	sigset_t signals, old_mask;
};

/* Everything up to a running process (r->proc.fail_status says how a spawn failed). */
static int start_process(const struct ct_lifecycle_opts *lc, struct exec_run *r,
			 struct ct_error *err)
{
	if (ct_container_open(lc, r->a->id, false, &r->c, err) < 0 ||
	    check_status(&r->c, r->a, err) < 0 || ct_container_attach(&r->c, err) < 0 ||
	    load_config(&r->c, r->a, &r->config, err) < 0 ||
	    ct_container_check_exec_caps(&r->c.state, r->config, err) < 0 ||
	    ct_container_cgroup_open(&r->c.state, &r->cgroup, err) < 0 ||
	    enter_sub_cgroups(r->cgroup, r->a, err) < 0)
		return -1;
	/* no lock or state fd is held while the process runs: execs run side by side */
	ct_container_dir_close(&r->c.dir);
	char where[PATH_MAX + 8];
	snprintf(where, sizeof(where), "%s: ", r->a->process_file ? r->a->process_file : "");
	const struct ct_seccomp_cache cache = {ct_cache_dir(), lc->version};
	struct ct_spawn_opts so = {
		.config = r->config,
		.bundle = r->c.state.bundle,
		.rootfs = r->c.state.rootfs,
		.id = r->c.state.id,
		.state_dirfd = -1,
		.warn = log_warning,
		.notice = log_notice,
		.log_steps = ct_log_debug_enabled(),
		.preserve_fds = r->a->preserve_fds + ct_listen_fds(),
		.child_sigmask = r->old_mask,
		.process_path = r->a->process_file ? where : NULL,
		.agent_status = ct_status_name(r->c.status),
		.cgroup = r->cgroup,
		.seccomp_cache = cache.dir ? &cache : NULL,
	};
	struct ct_exec_target t = {.pid = r->c.proc.pid,
				   .pidfd = r->c.proc.pidfd,
				   .start_time = r->c.state.pid_start_time,
				   .created = r->c.status == CT_STATUS_CREATED};
	if (ct_exec_spawn(&so, &t, &r->proc, err) < 0)
		return -1;
	ct_log(CT_LOG_DEBUG, "container \"%s\": exec'd process %d spawned with %s, joined by %s%s",
	       ct_shown_id(r->a->id).s, r->proc.pid, r->proc.method, r->proc.ns_join,
	       r->proc.born_in_cgroup ? ", born in its cgroup" : "");
	if (hand_over(r->a, &r->proc, err) < 0) {
		ct_exec_proc_kill(&r->proc);
		return -1;
	}
	return 0;
}

/* Runs it: in the foreground until it exits, relaying the terminal when ctrun holds it. */
static int wait_in_foreground(struct exec_run *r, struct ct_error *err)
{
	if (r->proc.pty_master >= 0 && !r->a->console_socket)
		return ct_tty_relay_and_wait(r->proc.pidfd, r->proc.pty_master, &r->signals,
					     signal_process, &r->proc, err);
	return ct_forward_and_wait(r->proc.pidfd, &r->signals, signal_process, &r->proc, err);
}

int ct_lifecycle_exec(const struct ct_lifecycle_opts *lc, const struct ct_exec_args *a)
{
	struct exec_run r = {.a = a, .config = NULL};
	struct ct_error err = {0};
	int status = 0;
	ct_forwarded_signals(&r.signals);
	if (sigprocmask(SIG_BLOCK, &r.signals, &r.old_mask) < 0) { /* none would be forwarded */
		ct_error_sys(&err, errno, "block the signals to forward");
		ct_lifecycle_fail("exec in", a->id, &err);
		return EXEC_FAILED;
	}
	r.proc = (struct ct_exec_proc){.pid = -1, .pidfd = -1, .pty_master = -1};
	if (start_process(lc, &r, &err) < 0) {
		ct_lifecycle_fail("exec in", a->id, &err);
		status = r.proc.fail_status ? r.proc.fail_status : EXEC_FAILED;
	} else if (!a->detach) {
		status = wait_in_foreground(&r, &err);
		if (status < 0) {
			ct_lifecycle_fail("exec in", a->id, &err);
			status = EXEC_FAILED;
		}
	}
	ct_exec_proc_close(&r.proc);
	oci_config_free(r.config);
	ct_cgroup_free(r.cgroup);
	ct_container_close(&r.c);
	return status;
}
