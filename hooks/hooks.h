/* The OCI lifecycle hooks (config.md#posix-platform-hooks, runtime.md#lifecycle): one hook
 * is a program run with the container's state on stdin, its own args and env (nothing of
 * ctrun's), and an optional timeout. Who runs which list, where and when:
 *
 *   prestart, createRuntime  ctrun create (libct/parent/spawn.c), runtime namespace, asked by the
 *                            init after its mounts, before pivot_root (libct/plan/sync.h)
 *   createContainer          the container init itself (libct/child/init_hooks.c), in the
 *                            container's namespaces, before pivot_root: the path still
 *                            resolves on the host's root, as the spec wants
 *   startContainer           the init after `start`, in the container's root (the path
 *                            resolves in the container), before the execve
 *   poststart                ctrun start / run (lifecycle/container_hooks.c), after the execve
 *   poststop                 ctrun delete / run (and a failed create or start), after the
 *                            container is gone; a failure there is only a warning
 *
 * The hook runner never prints; a failure is one error naming the hook:
 *   createRuntime hook #0 "/usr/bin/x": exited with status 3 (stderr: why it failed)
 *   createRuntime hook #0 "/usr/bin/x": timed out after 2 s */
#ifndef CT_HOOKS_H
#define CT_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "libct/base/error.h"
#include "oci/config.h"

enum ct_hook_kind {
	CT_HOOK_PRESTART,
	CT_HOOK_CREATE_RUNTIME,
	CT_HOOK_CREATE_CONTAINER,
	CT_HOOK_START_CONTAINER,
	CT_HOOK_POSTSTART,
	CT_HOOK_POSTSTOP,
	CT_HOOK_KINDS,
};

/* The spec's names, "prestart" .. "poststop", indexed by enum ct_hook_kind. */
extern const char *const ct_hook_kind_names[CT_HOOK_KINDS];

/* The list of that kind in hooks. */
const oci_hook_list *ct_hook_list(const struct oci_hooks *hooks, enum ct_hook_kind kind);

/* Runs hook number `index` of its kind with `state` (a JSON document) on its stdin and
 * waits for it, killing it at its timeout. Succeeds when it exits with status 0. */
int ct_hook_run(enum ct_hook_kind kind, size_t index, const struct oci_hook *hook,
		const char *state, struct ct_error *err);

/* Runs the hooks of that kind in order; the first failure stops the list (runtime.md#
 * lifecycle: steps 3-9). No hooks: returns 0 at once. */
int ct_hooks_run(const struct oci_hooks *hooks, enum ct_hook_kind kind, const char *state,
		 struct ct_error *err);

/* Runs every hook of that kind; a failing one is handed to warn(arg, message) (warn may be
 * NULL) and the rest run as if it had succeeded (runtime.md#lifecycle step 13: poststop). */
void ct_hooks_run_all(const struct oci_hooks *hooks, enum ct_hook_kind kind, const char *state,
		      void (*warn)(void *arg, const char *msg), void *arg);

/* ---- pieces of the runner, pure (hooks/output.c) ---- */

/* The last bytes a hook wrote on one stream: a ring of CT_HOOK_TAIL_MAX bytes. */
#define CT_HOOK_TAIL_MAX 512
struct ct_hook_tail {
	char buf[CT_HOOK_TAIL_MAX];
	size_t len;	/* bytes held, at most CT_HOOK_TAIL_MAX */
	size_t start;	/* where the oldest byte is */
	bool truncated; /* older bytes were dropped */
};

void ct_hook_tail_append(struct ct_hook_tail *t, const char *data, size_t len);

/* The tail as one line of at most `lines` lines: its last lines joined with "; ", blank
 * ones skipped, control bytes as '?', "..." in front when something was cut. "" when the
 * hook wrote nothing. */
void ct_hook_tail_format(const struct ct_hook_tail *t, unsigned lines, char *out, size_t size);

/* How a hook ended, as the error says it: "exited with status 3", "killed by signal 9
 * (SIGKILL)". status is waitid's si_code/si_status pair. */
void ct_hook_describe_exit(int code, int status, char *out, size_t size);

#endif
