/* libct/cgroup/device_rules.c and bpf_devices.c: linux.resources.devices -> rules -> BPF
 * instructions. The instructions are run by a small interpreter written here, which also
 * checks what the kernel's verifier would (known opcodes, forward jumps inside the program,
 * no register read before it is written, a 0/1 verdict), and every verdict is compared with
 * the rule semantics computed directly from the rules. */
#include <criterion/criterion.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "libct/cgroup/bpf_devices.h"
#include "libct/cgroup/device_rules.h"
#include "oci/config.h"

#define JSON(...) #__VA_ARGS__

#ifndef BPF_JMP32
#define BPF_JMP32 0x06
#endif

/* ---- the interpreter ---- */

struct request {
	char type; /* 'b' or 'c' */
	uint32_t major, minor;
	unsigned access; /* CT_DEV_ACC_* */
};

static uint32_t ctx_word(const struct request *q, int off)
{
	switch (off) {
	case offsetof(struct bpf_cgroup_dev_ctx, access_type):
		return q->access << 16 | (q->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR);
	case offsetof(struct bpf_cgroup_dev_ctx, major):
		return q->major;
	case offsetof(struct bpf_cgroup_dev_ctx, minor):
		return q->minor;
	}
	cr_assert_fail("load from context offset %d", off);
	return 0;
}

static uint64_t alu(uint8_t op, uint64_t a, uint64_t b, bool is64)
{
	uint64_t r = 0;
	switch (op) {
	case BPF_MOV:
		r = b;
		break;
	case BPF_AND:
		r = a & b;
		break;
	case BPF_RSH:
		r = is64 ? a >> (b & 63) : (uint32_t)a >> (b & 31);
		break;
	default:
		cr_assert_fail("ALU op 0x%x not expected", op);
	}
	return is64 ? r : (uint32_t)r;
}

static bool jump_taken(uint8_t op, uint32_t a, uint32_t b)
{
	if (op == BPF_JEQ)
		return a == b;
	if (op == BPF_JNE)
		return a != b;
	cr_assert_fail("jump op 0x%x not expected", op);
	return false;
}

/* Returns the program's verdict (0 or 1) for q. */
static int interpret(const struct ct_bpf_prog *p, const struct request *q)
{
	uint64_t reg[11] = {0};
	unsigned written = 1u << BPF_REG_1 | 1u << BPF_REG_10;
#define READ(r)                                                                          \
	({                                                                               \
		cr_assert(written & (1u << (r)), "insn %zu reads r%d before it is set", pc, \
			  (int)(r));                                                     \
		reg[r];                                                                  \
	})
	for (size_t pc = 0; pc < p->len; pc++) {
		const struct bpf_insn *i = &p->insns[pc];
		uint8_t cls = BPF_CLASS(i->code), op = BPF_OP(i->code);
		cr_assert(i->dst_reg <= 10 && i->src_reg <= 10);
		if (cls == BPF_ALU || cls == BPF_ALU64) {
			cr_assert_neq(i->dst_reg, BPF_REG_1, "insn %zu overwrites the context", pc);
			uint64_t b = BPF_SRC(i->code) == BPF_X ? READ(i->src_reg)
							       : (uint64_t)(int64_t)i->imm;
			uint64_t a = op == BPF_MOV ? 0 : READ(i->dst_reg);
			reg[i->dst_reg] = alu(op, a, b, cls == BPF_ALU64);
			written |= 1u << i->dst_reg;
		} else if (cls == BPF_LDX) {
			cr_assert_eq(i->code, BPF_LDX | BPF_MEM | BPF_W, "insn %zu: 0x%x", pc, i->code);
			cr_assert_eq(i->src_reg, BPF_REG_1, "insn %zu loads from r%d", pc, i->src_reg);
			cr_assert_neq(i->dst_reg, BPF_REG_1);
			reg[i->dst_reg] = ctx_word(q, i->off);
			written |= 1u << i->dst_reg;
		} else if (cls == BPF_JMP && op == BPF_EXIT) {
			uint64_t r0 = READ(BPF_REG_0);
			cr_assert(r0 == 0 || r0 == 1, "verdict %llu", (unsigned long long)r0);
			return (int)r0;
		} else if (cls == BPF_JMP32) {
			cr_assert_eq(BPF_SRC(i->code), BPF_K, "insn %zu", pc);
			cr_assert(i->off >= 0 && pc + 1 + (size_t)i->off < p->len,
				  "insn %zu jumps by %d out of a program of %zu", pc, i->off, p->len);
			if (jump_taken(op, (uint32_t)READ(i->dst_reg), (uint32_t)i->imm))
				pc += (size_t)i->off;
		} else {
			cr_assert_fail("insn %zu: opcode 0x%x not expected", pc, i->code);
		}
	}
#undef READ
	cr_assert_fail("the program runs past its end");
	return -1;
}

/* ---- the semantics, straight from the rules ---- */

static bool rule_matches(const struct ct_dev_rule *r, const struct request *q)
{
	return (r->type == 'a' || r->type == q->type) &&
	       (r->major == CT_DEV_ANY || r->major == q->major) &&
	       (r->minor == CT_DEV_ANY || r->minor == q->minor);
}

/* Each access bit: the last matching rule that names it decides; none denies. */
static bool reference_allows(const struct ct_dev_rule *rules, size_t n, const struct request *q)
{
	for (unsigned bit = 1; bit <= CT_DEV_ACC_WRITE; bit <<= 1) {
		if (!(q->access & bit))
			continue;
		bool allowed = false;
		for (size_t i = 0; i < n; i++)
			if (rule_matches(&rules[i], q) && (rules[i].access & bit))
				allowed = rules[i].allow;
		if (!allowed)
			return false;
	}
	return true;
}

static int verdict_of(const struct ct_dev_rule *rules, size_t n, const struct request *q)
{
	struct ct_bpf_prog prog;
	struct ct_error err = {0};
	cr_assert_eq(ct_bpf_devices_compile(rules, n, &prog, &err), 0, "%s", err.msg);
	int v = interpret(&prog, q);
	ct_bpf_prog_free(&prog);
	return v;
}

/* The effective rules (config + standard) of a resources document. */
static void rules_of(const char *json, struct ct_dev_rules *out)
{
	struct oci_resources *res;
	struct ct_error err = {0};
	cr_assert_eq(oci_resources_parse(json, "resources.json", &res, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_dev_rules_build(res, out, &err), 0, "%s", err.msg);
	oci_resources_free(res);
}

/* ---- tests ---- */

TestSuite(bpf_devices);

Test(bpf_devices, program_shape)
{
	struct ct_bpf_prog prog;
	struct ct_error err = {0};
	cr_assert_eq(ct_bpf_devices_compile(NULL, 0, &prog, &err), 0);
	cr_assert_eq(prog.len, 8, "prologue (6) and the default deny (2)");
	cr_expect_eq(prog.insns[0].code, BPF_LDX | BPF_MEM | BPF_W);
	cr_expect_eq(prog.insns[0].off, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	cr_expect_eq(prog.insns[6].code, BPF_ALU64 | BPF_MOV | BPF_K);
	cr_expect_eq(prog.insns[6].imm, 0, "no rule: deny");
	cr_expect_eq(prog.insns[7].code, BPF_JMP | BPF_EXIT);
	ct_bpf_prog_free(&prog);

	/* c 1:3 rw allowed: three device tests, the access update and its test, return 1 */
	const struct ct_dev_rule one = {true, 'c', 1, 3, CT_DEV_ACC_READ | CT_DEV_ACC_WRITE};
	cr_assert_eq(ct_bpf_devices_compile(&one, 1, &prog, &err), 0);
	cr_assert_eq(prog.len, 6 + 7 + 2);
	for (size_t i = 6; i < 9; i++) {
		cr_expect_eq(prog.insns[i].code, BPF_JMP32 | BPF_JNE | BPF_K);
		cr_expect_eq(prog.insns[i].off, 13 - (int)i - 1, "insn %zu jumps past the rule", i);
	}
	cr_expect_eq(prog.insns[6].imm, BPF_DEVCG_DEV_CHAR);
	cr_expect_eq(prog.insns[7].imm, 1);
	cr_expect_eq(prog.insns[8].imm, 3);
	cr_expect_eq(prog.insns[11].imm, 1, "allowed");
	ct_bpf_prog_free(&prog);
}

Test(bpf_devices, rules_that_decide_nothing_are_left_out)
{
	const struct ct_dev_rule rules[] = {
		{true, 'c', 1, 3, CT_DEV_ACC_READ},	       /* before a catch-all: unreachable */
		{false, 'a', CT_DEV_ANY, CT_DEV_ANY, CT_DEV_ACC_ALL},
		{true, 'c', 1, 5, 0},			       /* no access: decides nothing */
		{true, 'b', CT_DEV_ANY, CT_DEV_ANY, CT_DEV_ACC_MKNOD},
	};
	struct ct_bpf_prog prog;
	struct ct_error err = {0};
	cr_assert_eq(ct_bpf_devices_compile(rules, 4, &prog, &err), 0);
	/* prologue, b *:* m (type test + 4), deny all (5), default deny */
	cr_expect_eq(prog.len, 6 + 5 + 5 + 2);
	ct_bpf_prog_free(&prog);
}

struct table_case {
	const char *resources;
	struct request q;
	bool allowed;
};

#define R  CT_DEV_ACC_READ
#define W  CT_DEV_ACC_WRITE
#define M  CT_DEV_ACC_MKNOD
#define DENY_ALL JSON({"allow": false, "access": "rwm"})

static const struct table_case cases[] = {
	/* what `ctrun spec` writes: only the standard devices */
	{"{\"devices\": [" DENY_ALL "]}", {'c', 1, 3, R | W}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 1, 3, M}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 136, 7, R | W}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 10, 200, R | W}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 5, 1, W}, false}, /* the host's console */
	{"{\"devices\": [" DENY_ALL "]}", {'c', 1, 11, R}, false},
	{"{\"devices\": [" DENY_ALL "]}", {'b', 1, 3, R}, false},
	/* runc's: any node may be made, and opened only as the rules allow */
	{"{\"devices\": [" DENY_ALL "]}", {'b', 7, 0, M}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'b', 7, 0, R}, false},
	{"{\"devices\": [" DENY_ALL "]}", {'b', 7, 0, M | R}, false},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 1, 11, M}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 1, 11, W}, false},
	/* the standard rules come last: a config's deny of mknod does not stand, as with runc */
	{JSON({"devices": [ {"allow": false, "type": "b", "major": 7, "access": "m"} ]}),
	 {'b', 7, 0, M}, true},
	{"{\"devices\": [" DENY_ALL "]}", {'c', 136, 7, R | W}, true},
	{"{}", {'c', 1, 11, R}, false},
	{"{}", {'c', 1, 9, R}, true},
	/* allow everything, then take one access away */
	{JSON({"devices": [ {"allow": true}, {"allow": false, "type": "c", "major": 1,
						"minor": 11, "access": "w"} ]}),
	 {'c', 1, 11, R}, true},
	{JSON({"devices": [ {"allow": true}, {"allow": false, "type": "c", "major": 1,
						"minor": 11, "access": "w"} ]}),
	 {'c', 1, 11, R | W}, false},
	{JSON({"devices": [ {"allow": true}, {"allow": false, "type": "c", "major": 1,
						"minor": 11, "access": "w"} ]}),
	 {'b', 8, 0, R | W | M}, true},
	/* two rules each allowing one access allow both at once */
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "c", "major": 1, "minor": 11,
					   "access": "r"},
				  {"allow": true, "type": "c", "major": 1, "minor": 11,
				   "access": "w"} ]}),
	 {'c', 1, 11, R | W}, true},
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "c", "major": 1, "minor": 11,
					   "access": "r"} ]}),
	 {'c', 1, 11, R | W}, false},
	/* wildcards, and a later rule punching a hole */
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "c", "major": 10, "access": "rwm"},
				  {"allow": false, "type": "c", "major": 10, "minor": 229}]}),
	 {'c', 10, 1, R}, true},
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "c", "major": 10, "access": "rwm"},
				  {"allow": false, "type": "c", "major": 10, "minor": 229}]}),
	 {'c', 10, 229, R}, false},
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "b", "major": -1, "minor": -1,
					   "access": "m"} ]}),
	 {'b', 8, 0, M}, true},
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "b", "access": "m"} ]}),
	 {'b', 8, 0, R}, false},
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "b", "access": "r"} ]}),
	 {'c', 8, 0, R}, false},
	/* numbers past INT32_MAX compare as the kernel's unsigned 32-bit */
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "major": 4294967295, "minor": 0,
					   "access": "r"} ]}),
	 {'c', 4294967295u, 0, R}, true},
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "major": 4294967295, "minor": 0,
					   "access": "r"} ]}),
	 {'c', 2147483647u, 0, R}, false},
	/* an empty access decides nothing */
	{"{\"devices\": [" DENY_ALL JSON(, {"allow": true, "type": "c", "access": ""} ]}),
	 {'c', 1, 11, R}, false},
	/* the standard devices come after the config's rules */
	{JSON({"devices": [ {"allow": false, "type": "c", "major": 1, "minor": 3} ]}),
	 {'c', 1, 3, R}, true},
};

Test(bpf_devices, table_of_rules_and_requests)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct table_case *c = &cases[i];
		struct ct_dev_rules rules;
		rules_of(c->resources, &rules);
		bool got = verdict_of(rules.items, rules.len, &c->q) == 1;
		cr_expect_eq(got, c->allowed, "case %zu: %c %u:%u access %u: program says %s", i,
			     c->q.type, c->q.major, c->q.minor, c->q.access,
			     got ? "allow" : "deny");
		cr_expect_eq(reference_allows(rules.items, rules.len, &c->q), c->allowed,
			     "case %zu: the reference disagrees with the table", i);
		ct_dev_rules_free(&rules);
	}
}

/* Random rule lists against every request over a small universe of devices. */
Test(bpf_devices, agrees_with_the_rule_semantics)
{
	static const int64_t majors[] = {CT_DEV_ANY, 1, 2}, minors[] = {CT_DEV_ANY, 3, 4};
	static const char types[] = {'a', 'b', 'c'};
	unsigned seed = 12345;
	for (int round = 0; round < 3000; round++) {
		struct ct_dev_rule rules[8];
		size_t n = (size_t)(rand_r(&seed) % 9);
		for (size_t i = 0; i < n; i++)
			rules[i] = (struct ct_dev_rule){
				.allow = rand_r(&seed) & 1,
				.type = types[rand_r(&seed) % 3],
				.major = majors[rand_r(&seed) % 3],
				.minor = minors[rand_r(&seed) % 3],
				.access = (unsigned)(rand_r(&seed) % 8),
			};
		struct ct_bpf_prog prog;
		struct ct_error err = {0};
		cr_assert_eq(ct_bpf_devices_compile(rules, n, &prog, &err), 0);
		for (int t = 0; t < 2; t++)
			for (uint32_t maj = 1; maj <= 3; maj++)
				for (uint32_t min = 3; min <= 5; min++)
					for (unsigned acc = 1; acc <= CT_DEV_ACC_ALL; acc++) {
						struct request q = {"bc"[t], maj, min, acc};
						bool want = reference_allows(rules, n, &q);
						cr_assert_eq(interpret(&prog, &q) == 1, want,
							     "round %d, %zu rules, %c %u:%u acc %u", round,
							     n, q.type, maj, min, acc);
					}
		ct_bpf_prog_free(&prog);
	}
}

Test(bpf_devices, access_letters)
{
	cr_expect_eq(ct_dev_access_bits(NULL), CT_DEV_ACC_ALL, "absent: every access");
	cr_expect_eq(ct_dev_access_bits(""), 0);
	cr_expect_eq(ct_dev_access_bits("r"), CT_DEV_ACC_READ);
	cr_expect_eq(ct_dev_access_bits("wm"), CT_DEV_ACC_WRITE | CT_DEV_ACC_MKNOD);
	cr_expect_eq(ct_dev_access_bits("mwr"), CT_DEV_ACC_ALL);
}

static void assert_resources_refused(const char *json, const char *want)
{
	struct oci_resources *res = (void *)1;
	struct ct_error err = {0};
	cr_assert_eq(oci_resources_parse(json, "resources.json", &res, &err), -1, "%s", json);
	cr_expect_null(res);
	cr_expect_str_eq(err.msg, want);
}

Test(bpf_devices, bad_rules_name_their_path)
{
	assert_resources_refused(JSON({"devices": [{"allow": true, "type": "u"}]}),
				 "resources.json: .devices[0].type: expected \"a\", \"b\" or "
				 "\"c\", got \"u\"");
	assert_resources_refused(JSON({"devices": [{"allow": true}, {"allow": false,
								     "access": "rwx"}]}),
				 "resources.json: .devices[1].access: expected a composition of "
				 "\"r\", \"w\" and \"m\", got \"rwx\"");
	assert_resources_refused(JSON({"devices": [{"allow": true, "major": -2}]}),
				 "resources.json: .devices[0].major: -2 is out of range [-1, "
				 "4294967295]");
	assert_resources_refused(JSON({"devices": [{"type": "c"}]}),
				 "resources.json: .devices[0]: missing required property \"allow\"");
}
