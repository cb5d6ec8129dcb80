/* linux.seccomp (config-linux.md#seccomp) with libseccomp: the whole profile is compiled in
 * the parent before the clone, so every error of the profile surfaces before anything is
 * created, and exported to a BPF program the child only hands to seccomp(2) as late as it
 * can before execve. With SCMP_ACT_NOTIFY the child loads it with a new listener and the
 * listener fd travels child -> parent (sync socket) -> the agent at listenerPath, with the
 * container process state (config-linux.md#containerprocessstate).
 *
 * libseccomp's own attributes are set on the filter (TSYNC, LOG, SSB for the flags it has);
 * seccomp_export_bpf() does not carry them, so the load passes the matching
 * SECCOMP_FILTER_FLAG_* itself. */
#ifndef CT_SECCOMP_H
#define CT_SECCOMP_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "libct/base/error.h"
#include "oci/config.h"

struct ct_seccomp_prog {
	struct sock_filter *insns; /* NULL: no profile */
	unsigned short len;
	unsigned int flags; /* SECCOMP_FILTER_FLAG_* from .linux.seccomp.flags */
	bool notify;	    /* a rule uses SCMP_ACT_NOTIFY: load with a listener */
};

/* Compiles the profile into out. notice (may be NULL) gets a line for the debug log for
 * each syscall name libseccomp does not know, which is skipped as runc and crun do. A
 * profile error names config.json's JSON path. */
int ct_seccomp_compile(const struct oci_seccomp *s, void (*notice)(const char *msg),
		       struct ct_seccomp_prog *out, struct ct_error *err);
void ct_seccomp_prog_free(struct ct_seccomp_prog *p);

/* How the program of s is loaded, from s alone: p->flags and p->notify (not the program).
 * A program from the cache (libct/seccomp/seccomp_cache.h) gets them here, as a compiled one does.
 */
void ct_seccomp_load_mode(const struct oci_seccomp *s, struct ct_seccomp_prog *p);

/* In the child: seccomp(SECCOMP_SET_MODE_FILTER) of the program. *listener is the notify fd
 * (O_CLOEXEC) when p->notify, else -1. The caller has no_new_privs or CAP_SYS_ADMIN. */
int ct_seccomp_load(const struct ct_seccomp_prog *p, int *listener, struct ct_error *err);

/* ---- the translations, pure (tested one by one) ---- */

/* The libseccomp action of an OCI action; errno_ret is honoured by ERRNO and TRACE (EPERM
 * when has_errno is false). -1 (EINVAL) when an errno is given to an action taking none. */
int ct_seccomp_action(int oci_action, bool has_errno, uint32_t errno_ret, uint32_t *out);
/* The libseccomp arch token of an index into oci_seccomp_arch_names, 0 when the installed
 * libseccomp does not know it. */
uint32_t ct_seccomp_arch_token(int oci_arch);
/* enum scmp_compare of an enum oci_seccomp_op. */
int ct_seccomp_op(int oci_op);
/* SECCOMP_FILTER_FLAG_* of an index into oci_seccomp_flag_names, 0 when libseccomp has no
 * attribute for it (the flag is then refused). */
unsigned int ct_seccomp_flag(int oci_flag);

/* ---- the listener (SCMP_ACT_NOTIFY with listenerPath) ---- */

struct ct_seccomp_state {
	const char *id, *bundle, *metadata; /* metadata: listenerMetadata, may be NULL */
	pid_t pid;
	const oci_string_map *annotations; /* may be NULL */
	const char *status;		   /* NULL: "creating" (create); exec: "running" */
};

/* The container process state JSON: ociVersion, fds ["seccompFd"], pid, metadata and state
 * (ociVersion, id, status, pid, bundle, annotations). malloc'ed. */
char *ct_seccomp_state_json(const struct ct_seccomp_state *st, struct ct_error *err);
/* Connects to path (AF_UNIX, SOCK_STREAM, as deep as ct_unix_connect() reaches), sends the
 * state JSON with fd (SCM_RIGHTS) and closes the connection: one state per connection. */
int ct_seccomp_send_listener(const char *path, int fd, const struct ct_seccomp_state *st,
			     struct ct_error *err);

#endif
