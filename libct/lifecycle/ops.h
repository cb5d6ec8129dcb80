/* runc's commands on a container, each whole: create and run make one; the others open an
 * existing one (locked where it changes), check its status, do the work and close it. Each
 * returns 0, or -1 after logging one error line (libct/lifecycle/log.h) of the form
 * `<verb> container "<id>": <why>`; run returns an exit status. */
#ifndef CT_LIFECYCLE_OPS_H
#define CT_LIFECYCLE_OPS_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/lifecycle/container.h"
#include "libct/lifecycle/opts.h"

/* create: the container made from its bundle, its init waiting for start. */
int ct_lifecycle_create(const struct ct_lifecycle_opts *lc, const struct ct_create_args *args);

/* run: created and started; detached, it returns 0 then. In the foreground every signal a
 * shell may send is passed on to the init until it exits, the container is deleted unless
 * keep, and the init's exit status is returned (1 after an error of the run's own). */
int ct_lifecycle_run(const struct ct_lifecycle_opts *lc, const struct ct_create_args *args,
		     bool detach, bool keep);

/* start: a created container's user process runs, then the poststart hooks (a failing
 * startContainer or poststart hook deletes the container, runtime.md#lifecycle). */
int ct_lifecycle_start(const struct ct_lifecycle_opts *lc, const char *id);

/* state: the state document (runtime.md#state) into *json, the caller's to free. */
int ct_lifecycle_state(const struct ct_lifecycle_opts *lc, const char *id, char **json);

/* kill: sig to the init, or with all to every process of the container; all of a stopped
 * container signals what is left in its cgroup. */
int ct_lifecycle_kill(const struct ct_lifecycle_opts *lc, const char *id, int sig, bool all);

/* delete: a stopped container removed, then its poststop hooks; force kills a running one
 * first, and a container that is gone already is no error then. */
int ct_lifecycle_delete(const struct ct_lifecycle_opts *lc, const char *id, bool force);

/* pause (paused true: a created or running container) and resume (a paused one). */
int ct_lifecycle_set_paused(const struct ct_lifecycle_opts *lc, const char *id, bool paused);

/* exec: another process in a created or running container (a paused one with
 * ignore_paused), in the foreground until it exits (the terminal relayed when ctrun holds
 * it, signals passed on) or detached. Returns the exit status runc gives: the process's
 * (128+N when killed by signal N), 0 detached, 127 / 126 when the command is missing /
 * cannot be executed, 255 for any other failure before it runs. */
struct ct_exec_args {
	const char *id;
	/* --process: the whole process object from this file; NULL: config.json's, changed
	 * by apply(apply_arg, process, err) */
	const char *process_file;
	int (*apply)(void *arg, struct oci_process *p, struct ct_error *err);
	void *apply_arg;
	const char *console_socket, *pid_file; /* NULL: none */
	bool detach, ignore_paused;
	int preserve_fds;
	/* --cgroup [CONTROLLER[,CONTROLLER]:]SUB, runc's: the process goes to that existing
	 * sub-cgroup of the container's (every hierarchy's without a controller) */
	const char *const *sub_cgroups;
	size_t n_sub_cgroups;
};
int ct_lifecycle_exec(const struct ct_lifecycle_opts *lc, const struct ct_exec_args *a);

/* update: resources merged into what the container has and applied to its cgroup, the
 * result kept for the next update. upd is moved out of (the caller still frees it). */
#define CT_RESOURCES_MAX (16u << 20) /* the longest resources document read */
int ct_lifecycle_update(const struct ct_lifecycle_opts *lc, const char *id,
			struct oci_resources *upd);

/* checkpoint and restore with CRIU (libct/criu): runc's flags. The image directory is made
 * by checkpoint when missing; work_path (NULL: the image directory) keeps criu's log. */
struct ct_criu_args {
	const char *id;
	const char *image_path, *work_path, *parent_path; /* parent: relative to image_path */
	bool leave_running, tcp_established, ext_unix_sk, shell_job, file_locks;
	bool pre_dump, auto_dedup;
	const char *page_server; /* ADDR:PORT, NULL: none */
	const char *cg_mode;	 /* --manage-cgroups-mode, NULL: criu's default */
	unsigned empty_ns;	 /* CLONE_NEW* bits of --empty-ns */
	int status_fd;		 /* -1: none */
	/* restore */
	const char *bundle, *pid_file, *console_socket, *lsm_profile, *lsm_mount_context;
	bool detach;
	bool no_subreaper; /* the command's own (runtime/cmd_checkpoint.c), as run's */
};

/* checkpoint: the running container's processes dumped into image_path; unless
 * leave_running or pre_dump they are gone afterwards and the container is deleted. A failed
 * dump leaves the container running as it was. */
int ct_lifecycle_checkpoint(const struct ct_lifecycle_opts *lc, const struct ct_criu_args *a);

/* restore: a container `id` made from the bundle with its processes brought back from
 * image_path (its cgroup, state and pid file as create makes them, the prestart and
 * createRuntime hooks once its namespaces are there, poststart once it runs). Detached, it
 * returns 0 then; else as run in the foreground. A failed restore leaves nothing. */
int ct_lifecycle_restore(const struct ct_lifecycle_opts *lc, const struct ct_criu_args *a);

/* The error line of an operation: logs it, returns -1. */
int ct_lifecycle_fail(const char *verb, const char *id, const struct ct_error *err);

#endif
