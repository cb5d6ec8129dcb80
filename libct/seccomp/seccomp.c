/* linux.seccomp -> libseccomp filter -> BPF program (see seccomp.h). */
#include "libct/seccomp/seccomp.h"

#include <ctype.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#include "libct/base/cleanup.h"
#include "libct/base/fdpass.h"
#include "libct/base/vaformat.h"
#include "libct/state/state.h"
#include "oci/jsonwrite.h"

#define PATH_PREFIX "config.json: .linux.seccomp"

/* ---- translations ---- */

int ct_seccomp_action(int oci_action, bool has_errno, uint32_t errno_ret, uint32_t *out)
{
	uint32_t e = has_errno ? errno_ret : EPERM;
	switch (oci_action) {
	case OCI_SCMP_ACT_ERRNO:
		*out = SCMP_ACT_ERRNO(e);
		return 0;
	case OCI_SCMP_ACT_TRACE:
		*out = SCMP_ACT_TRACE(e);
		return 0;
	}
	if (has_errno) /* config-linux.md#seccomp: "MUST print an error and fail" */
		return -1;
	static const uint32_t plain[] = {
		[OCI_SCMP_ACT_KILL] = SCMP_ACT_KILL,
		[OCI_SCMP_ACT_KILL_PROCESS] = SCMP_ACT_KILL_PROCESS,
		[OCI_SCMP_ACT_KILL_THREAD] = SCMP_ACT_KILL_THREAD,
		[OCI_SCMP_ACT_TRAP] = SCMP_ACT_TRAP,
		[OCI_SCMP_ACT_ALLOW] = SCMP_ACT_ALLOW,
		[OCI_SCMP_ACT_LOG] = SCMP_ACT_LOG,
		[OCI_SCMP_ACT_NOTIFY] = SCMP_ACT_NOTIFY,
	};
	*out = plain[oci_action];
	return 0;
}

/* "SCMP_ARCH_X86_64" is libseccomp's "x86_64": the names are the lower-cased suffix. */
uint32_t ct_seccomp_arch_token(int oci_arch)
{
	const char *name = oci_seccomp_arch_names[oci_arch] + strlen("SCMP_ARCH_");
	char lower[32];
	size_t i = 0;
	for (; name[i] && i < sizeof(lower) - 1; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	return seccomp_arch_resolve_name(lower);
}

int ct_seccomp_op(int oci_op)
{
	static const enum scmp_compare ops[] = {
		[OCI_SCMP_CMP_NE] = SCMP_CMP_NE,
		[OCI_SCMP_CMP_LT] = SCMP_CMP_LT,
		[OCI_SCMP_CMP_LE] = SCMP_CMP_LE,
		[OCI_SCMP_CMP_EQ] = SCMP_CMP_EQ,
		[OCI_SCMP_CMP_GE] = SCMP_CMP_GE,
		[OCI_SCMP_CMP_GT] = SCMP_CMP_GT,
		[OCI_SCMP_CMP_MASKED_EQ] = SCMP_CMP_MASKED_EQ,
	};
	return (int)ops[oci_op];
}

/* The flags libseccomp 2.5.4 has an attribute for; WAIT_KILLABLE_RECV came with 2.6. */
static const struct {
	unsigned int kernel_flag;
	enum scmp_filter_attr attr;
} flag_table[] = {
	{SECCOMP_FILTER_FLAG_TSYNC, SCMP_FLTATR_CTL_TSYNC},
	{SECCOMP_FILTER_FLAG_LOG, SCMP_FLTATR_CTL_LOG},
	{SECCOMP_FILTER_FLAG_SPEC_ALLOW, SCMP_FLTATR_CTL_SSB},
	{0, 0},
};

unsigned int ct_seccomp_flag(int oci_flag)
{
	return flag_table[oci_flag].kernel_flag;
}

/* ---- compiling ---- */

/* "2.5.4": named in messages, since what libseccomp knows depends on its version */
static const char *libseccomp_version(void)
{
	static char buf[32];
	const struct scmp_version *v = seccomp_version();
	snprintf(buf, sizeof(buf), "%u.%u.%u", v->major, v->minor, v->micro);
	return buf;
}

struct compile {
	scmp_filter_ctx ctx;
	const struct oci_seccomp *s;
	void (*notice)(const char *msg);
	uint32_t default_action;
	struct ct_error *err;
};

static int libseccomp_error(struct compile *c, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int libseccomp_error(struct compile *c, int rc, const char *fmt, ...)
{
	char where[256];
	CT_VA_FORMAT(where, fmt);
	return ct_error_sys(c->err, -rc, PATH_PREFIX "%s: libseccomp", where);
}

static int add_architectures(struct compile *c)
{
	for (size_t i = 0; i < c->s->architectures.len; i++) {
		int arch = c->s->architectures.items[i];
		uint32_t token = ct_seccomp_arch_token(arch);
		if (!token)
			return ct_error_plain(
				c->err, ENOTSUP,
				PATH_PREFIX ".architectures[%zu]: %s: not known to libseccomp %s",
				i, oci_seccomp_arch_names[arch], libseccomp_version());
		int rc = seccomp_arch_add(c->ctx, token);
		if (rc < 0 && rc != -EEXIST) /* the native one is there already */
			return libseccomp_error(c, rc, ".architectures[%zu]", i);
	}
	return 0;
}

static int set_flags(struct compile *c)
{
	for (size_t i = 0; i < c->s->flags.len; i++) {
		int f = c->s->flags.items[i];
		if (!flag_table[f].kernel_flag)
			return ct_error_plain(c->err, ENOTSUP,
					      PATH_PREFIX ".flags[%zu]: %s: libseccomp %s "
							  "cannot apply it",
					      i, oci_seccomp_flag_names[f], libseccomp_version());
		int rc = seccomp_attr_set(c->ctx, flag_table[f].attr, 1);
		if (rc < 0)
			return libseccomp_error(c, rc, ".flags[%zu]: %s", i,
						oci_seccomp_flag_names[f]);
	}
	return 0;
}

void ct_seccomp_load_mode(const struct oci_seccomp *s, struct ct_seccomp_prog *p)
{
	p->flags = 0;
	p->notify = false;
	for (size_t i = 0; i < s->flags.len; i++)
		p->flags |= flag_table[s->flags.items[i]].kernel_flag;
	for (size_t i = 0; i < s->syscalls.len; i++)
		p->notify |= s->syscalls.items[i].action == OCI_SCMP_ACT_NOTIFY;
}

static int rule_args(struct compile *c, size_t i, struct scmp_arg_cmp *cmp)
{
	const struct oci_syscall *sc = &c->s->syscalls.items[i];
	if (sc->args.len > 6)
		return ct_error_plain(c->err, EINVAL,
				      PATH_PREFIX ".syscalls[%zu].args: %zu comparisons, a "
						  "syscall has 6 arguments",
				      i, sc->args.len);
	for (size_t j = 0; j < sc->args.len; j++) {
		const struct oci_syscall_arg *a = &sc->args.items[j];
		if (a->index > 5)
			return ct_error_plain(c->err, EINVAL,
					      PATH_PREFIX ".syscalls[%zu].args[%zu].index: %u: "
							  "arguments are numbered 0 to 5",
					      i, j, a->index);
		/* libseccomp takes one comparison per argument in a rule (runc splits such a rule
		 * into one per comparison, which turns the spec's AND into an OR) */
		for (size_t k = 0; k < j; k++)
			if (cmp[k].arg == a->index)
				return ct_error_plain(c->err, EINVAL,
						      PATH_PREFIX ".syscalls[%zu].args[%zu].index: "
								  "argument %u is compared by "
								  "args[%zu] already: one comparison "
								  "per argument in a rule",
						      i, j, a->index, k);
		/* MASKED_EQ: value is the mask, valueTwo the datum, as libseccomp orders them */
		cmp[j] = (struct scmp_arg_cmp){.arg = a->index,
					       .op = (enum scmp_compare)ct_seccomp_op(a->op),
					       .datum_a = a->value,
					       .datum_b = a->value_two};
	}
	return 0;
}

static void notice_unknown(struct compile *c, size_t i, size_t j)
{
	if (!c->notice)
		return;
	char line[512];
	snprintf(line, sizeof(line),
		 "seccomp: .linux.seccomp.syscalls[%zu].names[%zu]: \"%s\" unknown to libseccomp "
		 "%s: skipped",
		 i, j, c->s->syscalls.items[i].names.items[j], libseccomp_version());
	c->notice(line);
}

static int rule_action(struct compile *c, size_t i, uint32_t *action)
{
	const struct oci_syscall *sc = &c->s->syscalls.items[i];
	if (ct_seccomp_action(sc->action, sc->has_errno_ret, sc->errno_ret, action) < 0)
		return ct_error_plain(c->err, EINVAL,
				      PATH_PREFIX ".syscalls[%zu].errnoRet: %s takes no errno", i,
				      oci_seccomp_action_names[sc->action]);
	if (sc->action == OCI_SCMP_ACT_NOTIFY && !c->s->listener_path)
		return ct_error_plain(c->err, EINVAL,
				      PATH_PREFIX ".syscalls[%zu].action: SCMP_ACT_NOTIFY needs "
						  ".linux.seccomp.listenerPath",
				      i);
	return 0;
}

static int add_rule(struct compile *c, size_t i)
{
	const struct oci_syscall *sc = &c->s->syscalls.items[i];
	struct scmp_arg_cmp cmp[6];
	uint32_t action;
	if (rule_action(c, i, &action) < 0 || rule_args(c, i, cmp) < 0)
		return -1;
	if (action == c->default_action) /* libseccomp refuses a rule that changes nothing */
		return 0;
	for (size_t j = 0; j < sc->names.len; j++) {
		int nr = seccomp_syscall_resolve_name(sc->names.items[j]);
		if (nr == __NR_SCMP_ERROR) {
			notice_unknown(c, i, j);
			continue;
		}
		/* several args in one rule: all must match (AND), as the spec's rule reads */
		int rc = seccomp_rule_add_array(c->ctx, action, nr, (unsigned)sc->args.len, cmp);
		if (rc < 0)
			return libseccomp_error(c, rc, ".syscalls[%zu].names[%zu]: \"%s\"", i, j,
						sc->names.items[j]);
	}
	return 0;
}

static bool profile_names(const struct oci_seccomp *s, const char *name)
{
	for (size_t i = 0; i < s->syscalls.len; i++)
		for (size_t j = 0; j < s->syscalls.items[i].names.len; j++)
			if (strcmp(s->syscalls.items[i].names.items[j], name) == 0)
				return true;
	return false;
}

/* A profile that answers every syscall it does not list with an errno (EPERM) also answers
 * clone3, which it predates: glibc 2.34+ falls back to clone only on ENOSYS, so an EPERM
 * breaks every thread and fork in the container. ENOSYS is what a kernel without clone3
 * says, and what the profile's author would have written had clone3 existed then. */
static int add_clone3_enosys(struct compile *c)
{
	/* under an ENOSYS default the rule would change nothing, which libseccomp refuses */
	if (c->s->default_action != OCI_SCMP_ACT_ERRNO || profile_names(c->s, "clone3") ||
	    c->default_action == SCMP_ACT_ERRNO(ENOSYS))
		return 0;
	int rc = seccomp_rule_add(c->ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	return rc < 0 ? libseccomp_error(c, rc, ": clone3 ENOSYS rule") : 0;
}

static int check_profile(const struct oci_seccomp *s, uint32_t *default_action,
			 struct ct_error *err)
{
	if (s->listener_metadata && !s->listener_path)
		return ct_error_plain(err, EINVAL,
				      PATH_PREFIX ".listenerMetadata: needs "
						  ".linux.seccomp.listenerPath");
	if (s->default_action == OCI_SCMP_ACT_NOTIFY)
		return ct_error_plain(err, EINVAL,
				      PATH_PREFIX ".defaultAction: SCMP_ACT_NOTIFY would "
						  "notify the runtime's own syscalls");
	if (ct_seccomp_action(s->default_action, s->has_default_errno_ret, s->default_errno_ret,
			      default_action) < 0)
		return ct_error_plain(err, EINVAL,
				      PATH_PREFIX ".defaultErrnoRet: %s takes no "
						  "errno",
				      oci_seccomp_action_names[s->default_action]);
	return 0;
}

/* seccomp_export_bpf() writes to an fd (2.5.4 has no memory variant): a memfd, read back. */
static int export_program(scmp_filter_ctx ctx, struct ct_seccomp_prog *out, struct ct_error *err)
{
	_cleanup_close_ int fd = memfd_create("ctrun-seccomp", MFD_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "seccomp: memfd_create");
	int rc = seccomp_export_bpf(ctx, fd);
	if (rc < 0)
		return ct_error_sys(err, -rc, "seccomp: export the filter");
	struct stat st;
	if (fstat(fd, &st) < 0)
		return ct_error_sys(err, errno, "seccomp: stat the exported filter");
	size_t n = (size_t)st.st_size / sizeof(struct sock_filter);
	if (n == 0 || n > BPF_MAXINSNS)
		return ct_error_plain(err, E2BIG,
				      "seccomp: the filter has %zu instructions, "
				      "the kernel takes 1 to %d",
				      n, BPF_MAXINSNS);
	out->insns = calloc(n, sizeof(struct sock_filter));
	if (!out->insns)
		return ct_error_sys(err, ENOMEM, "seccomp: filter");
	out->len = (unsigned short)n;
	if (pread(fd, out->insns, n * sizeof(struct sock_filter), 0) !=
	    (ssize_t)(n * sizeof(struct sock_filter)))
		return ct_error_sys(err, errno ? errno : EIO, "seccomp: read the exported filter");
	return 0;
}

static int build_filter(struct compile *c, struct ct_seccomp_prog *out)
{
	/* no_new_privs is the init's own business (process.noNewPrivileges), not libseccomp's */
	int rc = seccomp_attr_set(c->ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc < 0)
		return libseccomp_error(c, rc, ": no_new_privs attribute");
	if (add_architectures(c) < 0 || set_flags(c) < 0)
		return -1;
	for (size_t i = 0; i < c->s->syscalls.len; i++)
		if (add_rule(c, i) < 0)
			return -1;
	if (add_clone3_enosys(c) < 0)
		return -1;
	ct_seccomp_load_mode(c->s, out);
	return export_program(c->ctx, out, c->err);
}

int ct_seccomp_compile(const struct oci_seccomp *s, void (*notice)(const char *msg),
		       struct ct_seccomp_prog *out, struct ct_error *err)
{
	*out = (struct ct_seccomp_prog){0};
	struct compile c = {.s = s, .notice = notice, .err = err};
	if (check_profile(s, &c.default_action, err) < 0)
		return -1;
	c.ctx = seccomp_init(c.default_action);
	if (!c.ctx)
		return ct_error_plain(err, EINVAL,
				      "seccomp: create the filter: libseccomp refused it");
	int rc = build_filter(&c, out);
	seccomp_release(c.ctx);
	if (rc < 0)
		ct_seccomp_prog_free(out);
	return rc;
}

void ct_seccomp_prog_free(struct ct_seccomp_prog *p)
{
	free(p->insns);
	*p = (struct ct_seccomp_prog){0};
}

/* ---- loading (child) ---- */

int ct_seccomp_load(const struct ct_seccomp_prog *p, int *listener, struct ct_error *err)
{
	struct sock_fprog prog = {.len = p->len, .filter = p->insns};
	unsigned int flags = p->flags;
	*listener = -1;
	if (p->notify) {
		flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
		/* TSYNC returns a thread id on failure, which clashes with the listener fd */
		if (flags & SECCOMP_FILTER_FLAG_TSYNC)
			flags |= SECCOMP_FILTER_FLAG_TSYNC_ESRCH;
	}
	long rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (rc < 0)
		return ct_error_sys(err, errno, "load the seccomp filter");
	if (p->notify)
		*listener = (int)rc;
	return 0;
}

/* ---- the container process state (config-linux.md#containerprocessstate) ---- */

static void gen_str(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

static void gen_kv(yajl_gen g, const char *key, const char *value)
{
	gen_str(g, key);
	gen_str(g, value);
}

static void gen_state(yajl_gen g, const struct ct_seccomp_state *st)
{
	yajl_gen_map_open(g);
	gen_kv(g, "ociVersion", CT_STATE_OCI_VERSION);
	gen_kv(g, "id", st->id);
	gen_kv(g, "status", st->status ? st->status : "creating");
	gen_str(g, "pid");
	yajl_gen_integer(g, st->pid);
	gen_kv(g, "bundle", st->bundle);
	if (st->annotations && st->annotations->len) {
		gen_str(g, "annotations");
		yajl_gen_map_open(g);
		for (size_t i = 0; i < st->annotations->len; i++)
			gen_kv(g, st->annotations->items[i].key, st->annotations->items[i].value);
		yajl_gen_map_close(g);
	}
	yajl_gen_map_close(g);
}

static int gen_process_state(yajl_gen g, const void *arg)
{
	const struct ct_seccomp_state *st = arg;
	yajl_gen_map_open(g);
	gen_kv(g, "ociVersion", CT_STATE_OCI_VERSION);
	gen_str(g, "fds");
	yajl_gen_array_open(g);
	gen_str(g, "seccompFd");
	yajl_gen_array_close(g);
	gen_str(g, "pid");
	yajl_gen_integer(g, st->pid);
	if (st->metadata)
		gen_kv(g, "metadata", st->metadata);
	gen_str(g, "state");
	gen_state(g, st);
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

char *ct_seccomp_state_json(const struct ct_seccomp_state *st, struct ct_error *err)
{
	return oci_json_document(gen_process_state, st, false, "seccomp listener state", err);
}

int ct_seccomp_send_listener(const char *path, int fd, const struct ct_seccomp_state *st,
			     struct ct_error *err)
{
	_cleanup_free_ char *json = ct_seccomp_state_json(st, err);
	if (!json)
		return -1;
	return ct_send_fd_to(path, "the seccomp listener", fd, json, strlen(json), err);
}
