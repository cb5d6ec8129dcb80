/* The cgroup v2 device filter: rules -> BPF instructions -> a loaded program attached to the
 * container's cgroup (see bpf_devices.h for the program's shape). */
#include "libct/cgroup/bpf_devices.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "libct/base/cleanup.h"

/* Debian 12's <linux/bpf.h> (6.1) has all of these; older headers may not. */
#ifndef BPF_JMP32
#define BPF_JMP32 0x06 /* 32-bit compares, Linux 5.1 */
#endif
#ifndef BPF_F_ALLOW_MULTI
#define BPF_F_ALLOW_MULTI (1U << 1)
#endif

/* ---- instructions ------------------------------------------------------------------------ */

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})
#define LDX_W(dst, src, off)	     INSN(BPF_LDX | BPF_MEM | BPF_W, dst, src, off, 0)
#define ALU32_IMM(op, dst, imm)	     INSN(BPF_ALU | BPF_##op | BPF_K, dst, 0, 0, imm)
#define MOV32_REG(dst, src)	     INSN(BPF_ALU | BPF_MOV | BPF_X, dst, src, 0, 0)
#define MOV64_IMM(dst, imm)	     INSN(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
#define JMP32_IMM(op, dst, imm, off) INSN(BPF_JMP32 | BPF_##op | BPF_K, dst, 0, off, imm)
#define EXIT_INSN()		     INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* What the registers hold after the prologue (r1 is the context). */
enum {
	R_RET = BPF_REG_0,
	R_CTX = BPF_REG_1,
	R_UNDECIDED = BPF_REG_2, /* access bits no rule has decided yet */
	R_TYPE = BPF_REG_3,	 /* BPF_DEVCG_DEV_BLOCK or _CHAR */
	R_MAJOR = BPF_REG_4,
	R_MINOR = BPF_REG_5,
};

#define PROLOGUE_LEN 6
#define EPILOGUE_LEN 2
#define RULE_MAX_LEN 8
#define TO_NEXT_RULE INT16_MIN /* jump offset placeholder, fixed when the block is done */

static size_t emit_prologue(struct bpf_insn *p)
{
	size_t n = 0;
	p[n++] = LDX_W(R_UNDECIDED, R_CTX, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	p[n++] = MOV32_REG(R_TYPE, R_UNDECIDED);
	p[n++] = ALU32_IMM(AND, R_TYPE, 0xffff);
	p[n++] = ALU32_IMM(RSH, R_UNDECIDED, 16);
	p[n++] = LDX_W(R_MAJOR, R_CTX, offsetof(struct bpf_cgroup_dev_ctx, major));
	p[n++] = LDX_W(R_MINOR, R_CTX, offsetof(struct bpf_cgroup_dev_ctx, minor));
	return n;
}

static size_t emit_return(struct bpf_insn *p, int verdict)
{
	p[0] = MOV64_IMM(R_RET, verdict);
	p[1] = EXIT_INSN();
	return 2;
}

/* One rule: the device tests jump to the next rule on a mismatch, then the verdict. */
static size_t emit_rule(const struct ct_dev_rule *r, struct bpf_insn *p)
{
	size_t n = 0;
	if (r->type != 'a')
		p[n++] = JMP32_IMM(JNE, R_TYPE,
				   r->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR,
				   TO_NEXT_RULE);
	if (r->major != CT_DEV_ANY)
		p[n++] = JMP32_IMM(JNE, R_MAJOR, (int32_t)(uint32_t)r->major, TO_NEXT_RULE);
	if (r->minor != CT_DEV_ANY)
		p[n++] = JMP32_IMM(JNE, R_MINOR, (int32_t)(uint32_t)r->minor, TO_NEXT_RULE);
	if (r->allow) {
		p[n++] = ALU32_IMM(AND, R_UNDECIDED, (int32_t)~r->access);
		p[n++] = JMP32_IMM(JNE, R_UNDECIDED, 0, TO_NEXT_RULE);
		n += emit_return(p + n, 1);
	} else {
		p[n++] = MOV32_REG(R_RET, R_UNDECIDED);
		p[n++] = ALU32_IMM(AND, R_RET, (int32_t)r->access);
		p[n++] = JMP32_IMM(JEQ, R_RET, 0, TO_NEXT_RULE);
		n += emit_return(p + n, 0);
	}
	for (size_t i = 0; i < n; i++)
		if (p[i].off == TO_NEXT_RULE)
			p[i].off = (int16_t)(n - i - 1);
	return n;
}

static bool matches_everything(const struct ct_dev_rule *r)
{
	return r->type == 'a' && r->major == CT_DEV_ANY && r->minor == CT_DEV_ANY &&
	       r->access == CT_DEV_ACC_ALL;
}

int ct_bpf_devices_compile(const struct ct_dev_rule *rules, size_t n, struct ct_bpf_prog *out,
			   struct ct_error *err)
{
	size_t cap = PROLOGUE_LEN + n * RULE_MAX_LEN + EPILOGUE_LEN;
	struct bpf_insn *p = calloc(cap, sizeof(*p));
	if (!p)
		return ct_error_set(err, ENOMEM, "compile the device filter");
	size_t len = emit_prologue(p);
	for (size_t i = n; i-- > 0;) {
		if (!rules[i].access)
			continue; /* decides nothing */
		len += emit_rule(&rules[i], p + len);
		if (matches_everything(&rules[i]))
			break; /* nothing before it is ever reached */
	}
	len += emit_return(p + len, 0);
	out->insns = p;
	out->len = len;
	return 0;
}

void ct_bpf_prog_free(struct ct_bpf_prog *prog)
{
	free(prog->insns);
	prog->insns = NULL;
	prog->len = 0;
}

/* ---- the bpf() calls --------------------------------------------------------------------- */

static int bpf_call(int cmd, union bpf_attr *attr)
{
	return (int)syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int load(const struct ct_bpf_prog *prog, char *log, size_t log_size)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	a.expected_attach_type = BPF_CGROUP_DEVICE;
	a.insns = (uintptr_t)prog->insns;
	a.insn_cnt = (uint32_t)prog->len;
	a.license = (uintptr_t) "GPL";
	strcpy(a.prog_name, "ctrun_devices");
	if (log) {
		a.log_buf = (uintptr_t)log;
		a.log_size = (uint32_t)log_size;
		a.log_level = 1;
	}
	return bpf_call(BPF_PROG_LOAD, &a);
}

/* The verifier's last non-empty line: why it refused the program. */
static const char *last_line(char *log)
{
	size_t len = strlen(log);
	while (len && log[len - 1] == '\n')
		log[--len] = '\0';
	char *nl = strrchr(log, '\n');
	return nl ? nl + 1 : log;
}

static int load_refused(const struct ct_bpf_prog *prog, int errnum, struct ct_error *err)
{
	const char *what = "bpf(BPF_PROG_LOAD) of the cgroup device filter";
	if (errnum == ENOSYS)
		return ct_error_set_plain(err, errnum,
					  "%s: this kernel has no bpf() (needs "
					  "CONFIG_BPF_SYSCALL)",
					  what);
	if (errnum == EPERM)
		return ct_error_set_plain(err, errnum,
					  "%s: %s: bpf() is refused to this process (it "
					  "needs CAP_SYS_ADMIN or CAP_BPF, and no seccomp rule "
					  "against bpf)",
					  what, strerror(errnum));
	if (errnum != EINVAL && errnum != EACCES)
		return ct_error_set(err, errnum, "%s", what);
	size_t size = 1 << 16;
	_cleanup_free_ char *log = calloc(1, size);
	if (log && load(prog, log, size) < 0 && *log)
		return ct_error_set_plain(err, errnum, "%s: %s: the verifier says: %s", what,
					  strerror(errnum), last_line(log));
	return ct_error_set(err, errnum, "%s", what);
}

int ct_bpf_devices_load(const struct ct_bpf_prog *prog, struct ct_error *err)
{
	int fd = load(prog, NULL, 0);
	if (fd < 0)
		return load_refused(prog, errno, err);
	return fd;
}

/* The ids of the device programs attached to cgroup_fd itself; *ids is malloc'd. */
static int query(int cgroup_fd, uint32_t **ids, uint32_t *count, struct ct_error *err)
{
	uint32_t cap = 8;
	for (;;) {
		_cleanup_free_ uint32_t *buf = calloc(cap, sizeof(*buf));
		if (!buf)
			return ct_error_set(err, ENOMEM, "query the cgroup's device filters");
		union bpf_attr a;
		memset(&a, 0, sizeof(a));
		a.query.target_fd = (uint32_t)cgroup_fd;
		a.query.attach_type = BPF_CGROUP_DEVICE;
		a.query.prog_ids = (uintptr_t)buf;
		a.query.prog_cnt = cap;
		if (bpf_call(BPF_PROG_QUERY, &a) == 0) {
			*ids = steal_ptr(&buf);
			*count = a.query.prog_cnt;
			return 0;
		}
		if (errno != ENOSPC || a.query.prog_cnt <= cap)
			return ct_error_set(err, errno,
					    "bpf(BPF_PROG_QUERY) of the cgroup's device filters");
		cap = a.query.prog_cnt;
	}
}

int ct_bpf_devices_count(int cgroup_fd, struct ct_error *err)
{
	_cleanup_free_ uint32_t *ids = NULL;
	uint32_t count;
	if (query(cgroup_fd, &ids, &count, err) < 0)
		return -1;
	return (int)count;
}

static int attach(int cgroup_fd, int prog_fd, struct ct_error *err)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgroup_fd;
	a.attach_bpf_fd = (uint32_t)prog_fd;
	a.attach_type = BPF_CGROUP_DEVICE;
	a.attach_flags = BPF_F_ALLOW_MULTI;
	if (bpf_call(BPF_PROG_ATTACH, &a) < 0)
		return ct_error_set(err, errno,
				    "bpf(BPF_PROG_ATTACH) of the device filter to the cgroup");
	return 0;
}

/* Detaches the program `id` from cgroup_fd; one already gone is fine. */
static int detach(int cgroup_fd, uint32_t id, struct ct_error *err)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	_cleanup_close_ int fd = bpf_call(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return errno == ENOENT ? 0
				       : ct_error_set(err, errno,
						      "bpf(BPF_PROG_GET_FD_BY_ID) of "
						      "the old device filter %u",
						      id);
	memset(&a, 0, sizeof(a));
	a.target_fd = (uint32_t)cgroup_fd;
	a.attach_bpf_fd = (uint32_t)fd;
	a.attach_type = BPF_CGROUP_DEVICE;
	if (bpf_call(BPF_PROG_DETACH, &a) < 0 && errno != ENOENT)
		return ct_error_set(err, errno, "bpf(BPF_PROG_DETACH) of the old device filter %u",
				    id);
	return 0;
}

int ct_bpf_devices_install(int cgroup_fd, int prog_fd, struct ct_error *err)
{
	_cleanup_free_ uint32_t *old = NULL;
	uint32_t n_old;
	if (query(cgroup_fd, &old, &n_old, err) < 0 || attach(cgroup_fd, prog_fd, err) < 0)
		return -1;
	for (uint32_t i = 0; i < n_old; i++)
		if (detach(cgroup_fd, old[i], err) < 0)
			return -1;
	return 0;
}

int ct_bpf_devices_apply(int cgroup_fd, const struct oci_resources *res, struct ct_error *err)
{
	struct ct_dev_rules rules;
	if (ct_dev_rules_build(res, &rules, err) < 0)
		return -1;
	struct ct_bpf_prog prog;
	int ret = ct_bpf_devices_compile(rules.items, rules.len, &prog, err);
	ct_dev_rules_free(&rules);
	if (ret < 0)
		return -1;
	_cleanup_close_ int fd = ct_bpf_devices_load(&prog, err);
	ct_bpf_prog_free(&prog);
	if (fd < 0 || ct_bpf_devices_install(cgroup_fd, fd, err) < 0)
		return -1;
	return 0;
}
