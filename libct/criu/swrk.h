/* A CRIU service worker: `criu swrk 3`, one end of a SOCK_SEQPACKET socketpair as its fd 3,
 * one RPC message per datagram (criu's Documentation: "RPC"). ctrun sends one request and
 * answers the notifications CRIU sends while it works (its notify scripts: "pre-dump",
 * "setup-namespaces", "post-restore", "orphan-pts-master", ...) until the response of the
 * request's type arrives. */
#ifndef CT_CRIU_SWRK_H
#define CT_CRIU_SWRK_H

#include <stdbool.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "libct/criu/criu_config.h"
#include "libct/criu/criu_rpc.h"

/* The program run: the one ct_criu_use() named (runc's global --criu), else $CTRUN_CRIU
 * when set, else "criu" searched in $PATH. */
#define CT_CRIU_ENV "CTRUN_CRIU"

/* The criu binary to run instead of the search (path borrowed; NULL: search). */
void ct_criu_use(const char *path);

struct ct_criu_swrk {
	pid_t pid;
	int sock;
};

/* How criu is started. keep_fds (n_keep of them) stay open in criu under their numbers (the
 * image and work directories, inherited fds); everything else ctrun holds is close-on-exec,
 * and criu's stdio not among them is /dev/null (it reports in its log and its response).
 * Before criu runs, prepare(arg, pid) is called in ctrun (NULL: none): the place to move
 * criu into a cgroup, as a restored process lands in criu's cgroup. With bind_source, criu
 * runs in a mount namespace of its own (private) where bind_source is bound (recursively)
 * on bind_target: the root it restores into, gone with criu however it ends. */
struct ct_criu_swrk_opts {
	const int *keep_fds;
	size_t n_keep;
	int (*prepare)(void *arg, pid_t pid, struct ct_error *err);
	void *arg;
	const char *bind_source, *bind_target;
};

/* Finds criu (errnum ENOENT and "criu not found in $PATH" when it is missing) and starts
 * it; returns once criu is executed, or fails with what the child could not do ("criu:
 * bind the restored root: ...", "criu: exec ..."). */
int ct_criu_swrk_start(const struct ct_criu_swrk_opts *o, struct ct_criu_swrk *out,
		       struct ct_error *err);

/* A notification: script is its name, pid the one criu names (the restored init for
 * "setup-namespaces" and "post-restore"), fd one it sent along ("orphan-pts-master": the
 * console's master; the handler takes it) or -1. Returns 0 to let criu go on, -1 to stop
 * it (err then says why). */
typedef int (*ct_criu_notify_fn)(void *arg, const char *script, pid_t pid, int fd,
				 struct ct_error *err);

/* Sends req and answers notifications with on_notify until the response of req's type,
 * left in *resp. A response that says no success fails with criu's errno and message (and
 * where its log is, when log is given: ct_criu_log_hint). A handler's failure is answered
 * as such to criu and returned. */
int ct_criu_swrk_call(struct ct_criu_swrk *s, const struct ct_criu_req *req,
		      ct_criu_notify_fn on_notify, void *arg, const struct ct_criu_log *log,
		      struct ct_criu_resp *resp, struct ct_error *err);

/* Closes the socket and reaps criu. */
void ct_criu_swrk_end(struct ct_criu_swrk *s);

#endif
