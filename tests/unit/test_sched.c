/* libct/plan/sched.c: the id lists of execCPUAffinity and memoryPolicy.nodes, the names of
 * config.json as Linux's numbers, and the plan the parent builds from them (each bad value
 * refused naming its JSON path). */
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>

#include "libct/plan/sched.h"
#include "tests/lib/rows.h"
#include "tests/unit/plan_fixture.h"

#define MASK_LONGS 4 /* 256 bits */
#define MASK_BITS  (MASK_LONGS * 64)

/* The set bits of list as "a,b,c" (or "error: <why>"), static storage. */
static const char *parsed(const char *list, size_t nbits)
{
	static char out[1024];
	unsigned long mask[MASK_LONGS];
	char why[160];
	memset(mask, 0xa5, sizeof(mask)); /* must be cleared by the parser */
	if (ct_parse_id_list(list, mask, nbits, why, sizeof(why)) < 0) {
		snprintf(out, sizeof(out), "error: %s", why);
		return out;
	}
	size_t n = 0;
	out[0] = 0;
	for (size_t bit = 0; bit < MASK_BITS; bit++)
		if (mask[bit / 64] & (1UL << (bit % 64)))
			n += snprintf(out + n, sizeof(out) - n, "%s%zu", n ? "," : "", bit);
	return out;
}

Test(id_list, singles_and_ranges)
{
	cr_expect_str_eq(parsed("0-3,7", MASK_BITS), "0,1,2,3,7");
	cr_expect_str_eq(parsed("5", MASK_BITS), "5");
	cr_expect_str_eq(parsed("2-2", MASK_BITS), "2");
	cr_expect_str_eq(parsed("7,0-1,1", MASK_BITS), "0,1,7", "order and repeats do not matter");
	cr_expect_str_eq(parsed("63-65", MASK_BITS), "63,64,65", "ranges cross words");
	cr_expect_str_eq(parsed("255", MASK_BITS), "255");
}

Test(id_list, spaces_and_empty)
{
	cr_expect_str_eq(parsed(" 1 , 3-4 ", MASK_BITS), "1,3,4");
	cr_expect_str_eq(parsed("", MASK_BITS), "", "the empty list is the empty set");
	cr_expect_str_eq(parsed("   ", MASK_BITS), "");
}

Test(id_list, bad_lists_say_why)
{
	cr_expect_str_eq(parsed("3-1", MASK_BITS), "error: range \"3-1\" is reversed");
	cr_expect_str_eq(parsed("1-", MASK_BITS), "error: range \"1-\" has no end");
	cr_expect_str_eq(parsed("0,", MASK_BITS), "error: expected a number or a range at \"\"");
	cr_expect_str_eq(parsed("0,,1", MASK_BITS), "error: expected a number or a range at \"\"");
	cr_expect_str_eq(parsed("-1", MASK_BITS), "error: expected a number or a range at \"-1\"");
	cr_expect_str_eq(parsed("1 2", MASK_BITS), "error: unexpected \"2\" in \"1 2\"");
	cr_expect_str_eq(parsed("0-x", MASK_BITS), "error: range \"0-x\" has no end");
	cr_expect_str_eq(parsed("256", MASK_BITS),
			 "error: 256 is beyond the last one possible, 255");
	cr_expect_str_eq(parsed("0-4", 4), "error: 4 is beyond the last one possible, 3");
	cr_expect_str_eq(parsed("99999999999999999999999", MASK_BITS),
			 "error: expected a number or a range at \"99999999999999999999999\"");
}

Test(sched_names, policies_flags_modes_and_classes)
{
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_OTHER), SCHED_OTHER);
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_FIFO), SCHED_FIFO);
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_RR), SCHED_RR);
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_BATCH), SCHED_BATCH);
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_IDLE), SCHED_IDLE);
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_DEADLINE), 6);
	cr_expect_eq(ct_sched_policy_value(OCI_SCHED_ISO), -1, "Linux never implemented it");
	/* linux/sched.h: RESET_ON_FORK 0x01 ... UTIL_CLAMP_MAX 0x40 */
	cr_expect_eq(ct_sched_flag_value(0), 0x01);
	cr_expect_eq(ct_sched_flag_value(3), 0x08);
	cr_expect_eq(ct_sched_flag_value(6), 0x40);
	cr_expect_eq(ct_mpol_mode_value(0), MPOL_DEFAULT);
	cr_expect_eq(ct_mpol_mode_value(1), MPOL_BIND);
	cr_expect_eq(ct_mpol_mode_value(2), MPOL_INTERLEAVE);
	cr_expect_eq(ct_mpol_mode_value(3), 6 /* MPOL_WEIGHTED_INTERLEAVE */);
	cr_expect_eq(ct_mpol_mode_value(4), MPOL_PREFERRED);
	cr_expect_eq(ct_mpol_mode_value(5), MPOL_PREFERRED_MANY);
	cr_expect_eq(ct_mpol_mode_value(6), MPOL_LOCAL);
	cr_expect_eq(ct_mpol_flag_value(0), MPOL_F_NUMA_BALANCING);
	cr_expect_eq(ct_mpol_flag_value(1), MPOL_F_RELATIVE_NODES);
	cr_expect_eq(ct_mpol_flag_value(2), MPOL_F_STATIC_NODES);
	/* ioprio(7): class << 13 | level; RT 1, BE 2, IDLE 3 */
	cr_expect_eq(ct_ioprio_value(OCI_IOPRIO_CLASS_RT, 0), 1 << 13);
	cr_expect_eq(ct_ioprio_value(OCI_IOPRIO_CLASS_BE, 5), 2 << 13 | 5);
	cr_expect_eq(ct_ioprio_value(OCI_IOPRIO_CLASS_IDLE, 7), 3 << 13 | 7);
}

/* ---- the plan ---- */

TestSuite(sched_plan, .init = plan_bundle_make, .fini = plan_bundle_remove);

static void assert_refused(const char *members, const char *process, const char *msg)
{
	struct plan_fixture f;
	plan_build(&f, plan_doc_with(process ? process : MINIMAL_PROCESS, members));
	cr_expect_eq(f.ret, -1, "accepted: %s %s", members, process ? process : "");
	cr_expect_eq(f.err.errnum, EINVAL, "%s", f.err.msg);
	cr_expect_str_eq(f.err.msg, msg);
	plan_done(&f);
}

#define PROCESS_WITH(member) "{\"args\": [\"/bin/true\"], \"cwd\": \"/\", " member "}"

Test(sched_plan, nothing_asked_nothing_set)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(""));
	cr_expect_not(f.plan.process.sched.set_scheduler);
	cr_expect_not(f.plan.process.sched.set_ioprio);
	cr_expect_not(f.plan.process.sched.set_mempolicy);
	cr_expect_not(f.plan.process.sched.set_personality);
	cr_expect_not(f.plan.process.sched.has_initial_cpus);
	cr_expect_not(f.plan.process.sched.has_final_cpus);
	plan_done(&f);
}

Test(sched_plan, scheduler_is_translated)
{
	struct plan_fixture f;
	plan_build_ok(&f,
		      plan_doc_with(PROCESS_WITH(JSON("scheduler"
						      : {
							      "policy" : "SCHED_RR",
							      "priority" : 42,
							      "nice" : -3,
							      "flags" : [
								      "SCHED_FLAG_RESET_ON_FORK",
								      "SCHED_FLAG_KEEP_PARAMS"
							      ],
							      "runtime" : 1,
							      "deadline" : 2,
							      "period" : 3
						      })),
				    ""));
	const struct ct_sched_plan *s = &f.plan.process.sched;
	cr_expect(s->set_scheduler);
	cr_expect_eq(s->sched_policy, SCHED_RR);
	cr_expect_eq(s->sched_priority, 42);
	cr_expect_eq(s->sched_nice, -3);
	cr_expect_eq(s->sched_flags, 0x01 | 0x10);
	cr_expect_eq(s->sched_runtime, 1);
	cr_expect_eq(s->sched_deadline, 2);
	cr_expect_eq(s->sched_period, 3);
	plan_done(&f);
}

/* A process.scheduler refused, and the error that names its field. */
static const struct {
	const char *scheduler, *msg;
} bad_schedulers[] = {
	{JSON({"policy" : "SCHED_ISO"}),
	 ".process.scheduler.policy: SCHED_ISO is not implemented by Linux"},
	{JSON({"policy" : "SCHED_OTHER", "nice" : 20}),
	 ".process.scheduler.nice: 20 is out of range [-20, 19]"},
	{JSON({"policy" : "SCHED_BATCH", "nice" : -21}),
	 ".process.scheduler.nice: -21 is out of range [-20, 19]"},
	{JSON({"policy" : "SCHED_FIFO"}),
	 ".process.scheduler.priority: SCHED_FIFO takes a priority in [1, 99], got 0"},
	{JSON({"policy" : "SCHED_IDLE", "priority" : 1}),
	 ".process.scheduler.priority: SCHED_IDLE takes a priority in [0, 0], got 1"},
};

ParameterizedTestParameters(sched_plan, bad_scheduler_values_name_the_field)
{
	return ctt_rows(CTT_COUNT(bad_schedulers));
}

ParameterizedTest(size_t *i, sched_plan, bad_scheduler_values_name_the_field)
{
	char process[512], msg[256];
	snprintf(process, sizeof(process), PROCESS_WITH("\"scheduler\": %s"),
		 bad_schedulers[*i].scheduler);
	snprintf(msg, sizeof(msg), "config.json: %s", bad_schedulers[*i].msg);
	assert_refused("", process, msg);
}

Test(sched_plan, io_priority_is_translated)
{
	struct plan_fixture f;
	plan_build_ok(
		&f,
		plan_doc_with(PROCESS_WITH(JSON("ioPriority"
						: {"class" : "IOPRIO_CLASS_BE", "priority" : 6})),
			      ""));
	cr_expect(f.plan.process.sched.set_ioprio);
	cr_expect_eq(f.plan.process.sched.ioprio, 2 << 13 | 6);
	plan_done(&f);
}

Test(sched_plan, memory_policy_is_translated)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(JSON("linux"
					: {
						"memoryPolicy" : {
							"mode" : "MPOL_INTERLEAVE",
							"nodes" : "0-1,65",
							"flags" : ["MPOL_F_STATIC_NODES"]
						}
					})));
	const struct ct_sched_plan *s = &f.plan.process.sched;
	cr_expect(s->set_mempolicy);
	cr_expect_eq(s->mpol_mode, MPOL_INTERLEAVE | MPOL_F_STATIC_NODES);
	cr_expect_eq(s->mpol_nodes[0], 0x3);
	cr_expect_eq(s->mpol_nodes[1], 0x2);
	cr_expect_eq(s->mpol_maxnode, CT_MAX_NODES + 1, "the kernel reads maxnode - 1 bits");
	plan_done(&f);
	plan_build_ok(&f, plan_doc(JSON("linux" : {"memoryPolicy" : {"mode" : "MPOL_LOCAL"}})));
	cr_expect_eq(f.plan.process.sched.mpol_mode, MPOL_LOCAL);
	cr_expect_eq(f.plan.process.sched.mpol_maxnode, 0, "no nodes: a NULL mask");
	plan_done(&f);
}

Test(sched_plan, bad_memory_policies_name_the_field)
{
	assert_refused(JSON("linux"
			    : {"memoryPolicy" : {"mode" : "MPOL_BIND"}}),
		       NULL,
		       "config.json: .linux.memoryPolicy.nodes: MPOL_BIND needs at least one node");
	assert_refused(JSON("linux"
			    : {"memoryPolicy" : {"mode" : "MPOL_DEFAULT", "nodes" : "0"}}),
		       NULL, "config.json: .linux.memoryPolicy.nodes: MPOL_DEFAULT takes no nodes");
	assert_refused(JSON("linux"
			    : {"memoryPolicy" : {"mode" : "MPOL_BIND", "nodes" : "1-0"}}),
		       NULL, "config.json: .linux.memoryPolicy.nodes: range \"1-0\" is reversed");
	assert_refused(
		JSON("linux"
		     : {
			     "memoryPolicy" : {
				     "mode" : "MPOL_BIND",
				     "nodes" : "0",
				     "flags" :
					     [ "MPOL_F_STATIC_NODES", "MPOL_F_RELATIVE_NODES" ]
			     }
		     }),
		NULL,
		"config.json: .linux.memoryPolicy.flags: MPOL_F_STATIC_NODES and "
		"MPOL_F_RELATIVE_NODES exclude each other");
}

Test(sched_plan, personality_domains)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc(JSON("linux" : {"personality" : {"domain" : "LINUX32"}})));
	cr_expect(f.plan.process.sched.set_personality);
	cr_expect_eq(f.plan.process.sched.persona, PER_LINUX32);
	plan_done(&f);
	plan_build_ok(&f, plan_doc(JSON("linux" : {"personality" : {"domain" : "LINUX"}})));
	cr_expect(f.plan.process.sched.set_personality);
	cr_expect_eq(f.plan.process.sched.persona, PER_LINUX);
	plan_done(&f);
	assert_refused(JSON("linux"
			    : {"personality" : {"domain" : "LINUX", "flags" : ["X"]}}),
		       NULL,
		       "config.json: .linux.personality.flags[0]: \"X\": no flag is supported");
}

Test(sched_plan, exec_cpu_affinity_is_checked_and_kept)
{
	struct plan_fixture f;
	plan_build_ok(&f, plan_doc_with(PROCESS_WITH(JSON("execCPUAffinity"
							  : {"initial" : "0-1", "final" : "1"})),
					""));
	const struct ct_sched_plan *s = &f.plan.process.sched;
	cr_expect(s->has_initial_cpus);
	cr_expect(s->has_final_cpus);
	cr_expect_eq(CPU_COUNT(&s->initial_cpus), 2);
	cr_expect(CPU_ISSET(1, &s->final_cpus));
	cr_expect_eq(CPU_COUNT(&s->final_cpus), 1);
	plan_done(&f);
	plan_build_ok(&f, plan_doc_with(PROCESS_WITH(JSON("execCPUAffinity"
							  : {"final" : ""})),
					""));
	cr_expect_not(f.plan.process.sched.has_final_cpus, "empty: the affinity is left alone");
	plan_done(&f);
	assert_refused("",
		       PROCESS_WITH(JSON("execCPUAffinity"
					 : {"final" : "2-1"})),
		       "config.json: .process.execCPUAffinity.final: range \"2-1\" is reversed");
	assert_refused("",
		       PROCESS_WITH(JSON("execCPUAffinity"
					 : {"initial" : "0,99999"})),
		       "config.json: .process.execCPUAffinity.initial: 99999 is beyond the last "
		       "one possible, 1023");
}
