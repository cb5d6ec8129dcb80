/* runtime/update_flags.c: runc update's flags land in the LinuxResources fields, with
 * runc's byte sizes, and a bad value names its flag. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "runtime/update_flags.h"
#include "tests/lib/rows.h"

/* A size as runc's --memory and the like take it, and its bytes. */
struct ram_case {
	const char *text;
	int64_t bytes;
};

static const struct ram_case ram_cases[] = {
	{"0", 0},
	{"1024", 1024},
	{"-1", -1},
	{"1k", 1024},
	{"1K", 1024},
	{"1kb", 1024},
	{"1KiB", 1024},
	{"512m", 512 << 20},
	{"512 MB", 512 << 20},
	{"1.5g", 3LL << 29},
	{"2t", 2LL << 40},
	{"1p", 1LL << 50},
	{"10b", 10},
};

ParameterizedTestParameters(update_flags, ram_bytes_as_runc_reads_them)
{
	return ctt_rows(CTT_COUNT(ram_cases));
}

ParameterizedTest(size_t *i, update_flags, ram_bytes_as_runc_reads_them)
{
	const struct ram_case *c = &ram_cases[*i];
	int64_t v = 0;
	cr_expect_eq(ct_parse_ram_bytes(c->text, &v), 0, "\"%s\" refused", c->text);
	cr_expect_eq(v, c->bytes, "\"%s\": %lld", c->text, (long long)v);
}

Test(update_flags, ram_bytes_refuses_what_runc_refuses)
{
	static const char *const bad[] = {"",	"m",  "-2",  "12x",	"1mm",
					  "1.", " 1", "1e3", "9000000p"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v;
		cr_expect_eq(ct_parse_ram_bytes(bad[i], &v), -1, "\"%s\" accepted", bad[i]);
	}
}

static void set_ok(struct oci_resources *r, const char *flag, const char *value)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_update_flag_set(r, flag, value, &err), 0, "--%s %s: %s", flag, value,
		     err.msg);
}

Test(update_flags, each_flag_sets_its_field)
{
	struct oci_resources r = {0};
	set_ok(&r, "memory", "256m");
	set_ok(&r, "memory-reservation", "128m");
	set_ok(&r, "memory-swap", "-1");
	set_ok(&r, "kernel-memory", "64m");
	set_ok(&r, "kernel-memory-tcp", "1m");
	cr_expect(r.has_memory);
	cr_expect(r.memory.has_limit && r.memory.limit == 256 << 20);
	cr_expect(r.memory.has_reservation && r.memory.reservation == 128 << 20);
	cr_expect(r.memory.has_swap && r.memory.swap == -1);
	cr_expect(r.memory.has_kernel && r.memory.kernel == 64 << 20);
	cr_expect(r.memory.has_kernel_tcp && r.memory.kernel_tcp == 1 << 20);
	cr_expect(!r.has_cpu && !r.has_pids && !r.has_block_io);

	set_ok(&r, "cpu-share", "512");
	cr_expect(r.has_cpu && r.cpu.has_shares && r.cpu.shares == 512);
	set_ok(&r, "cpu-shares", "1024");
	cr_expect_eq(r.cpu.shares, 1024);
	set_ok(&r, "cpu-period", "100000");
	set_ok(&r, "cpu-quota", "-1");
	set_ok(&r, "cpu-rt-period", "1000000");
	set_ok(&r, "cpu-rt-runtime", "950000");
	cr_expect(r.cpu.has_period && r.cpu.period == 100000);
	cr_expect(r.cpu.has_quota && r.cpu.quota == -1);
	cr_expect(r.cpu.has_realtime_period && r.cpu.realtime_period == 1000000);
	cr_expect(r.cpu.has_realtime_runtime && r.cpu.realtime_runtime == 950000);
	set_ok(&r, "cpuset-cpus", "0-1");
	set_ok(&r, "cpuset-cpus", "0");
	set_ok(&r, "cpuset-mems", "0");
	cr_expect_str_eq(r.cpu.cpus, "0", "a second value replaces the first");
	cr_expect_str_eq(r.cpu.mems, "0");

	set_ok(&r, "pids-limit", "42");
	cr_expect(r.has_pids && r.pids.limit == 42);
	set_ok(&r, "blkio-weight", "300");
	cr_expect(r.has_block_io && r.block_io.has_weight && r.block_io.weight == 300);
	oci_walk_free(oci_resources_fields, &r);
}

static void assert_flag_refused(const char *flag, const char *value, const char *want)
{
	struct oci_resources r = {0};
	struct ct_error err = {0};
	cr_expect_eq(ct_update_flag_set(&r, flag, value, &err), -1, "--%s %s", flag, value);
	cr_expect_str_eq(err.msg, want);
	cr_expect(!r.has_memory && !r.has_cpu && !r.has_pids && !r.has_block_io);
	oci_walk_free(oci_resources_fields, &r);
}

Test(update_flags, bad_values_name_the_flag)
{
	/* each flag with a value it cannot take: "--flag: invalid value \"value\"" */
	static const char *const invalid[] = {"memory=12x",	 "cpu-period=-5",
					      "cpu-quota=1.5",	 "blkio-weight=70000",
					      "cpuset-cpus=a-b", "pids-limit="};
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		char flag[32], msg[96];
		const char *value = strchr(invalid[i], '=') + 1;
		snprintf(flag, sizeof(flag), "%.*s", (int)(value - 1 - invalid[i]), invalid[i]);
		snprintf(msg, sizeof(msg), "--%s: invalid value \"%s\"", flag, value);
		assert_flag_refused(flag, value, msg);
	}
	assert_flag_refused("l3-cache-schema", "L3:0=f",
			    "--l3-cache-schema: intelRdt: not supported yet");
	assert_flag_refused("no-such", "1", "unknown flag --no-such");
}

Test(update_flags, table_lists_runc_flags)
{
	static const char *const runc[] = {
		"memory",	  "memory-reservation", "memory-swap",
		"kernel-memory",  "kernel-memory-tcp",	"cpu-share",
		"cpu-period",	  "cpu-quota",		"cpu-rt-period",
		"cpu-rt-runtime", "cpuset-cpus",	"cpuset-mems",
		"pids-limit",	  "blkio-weight",	"l3-cache-schema",
		"mem-bw-schema"};
	for (size_t i = 0; i < sizeof(runc) / sizeof(runc[0]); i++) {
		bool found = false;
		for (size_t k = 0; ct_update_flag_at(k); k++)
			found |= strcmp(ct_update_flag_at(k)->name, runc[i]) == 0;
		cr_expect(found, "--%s missing", runc[i]);
	}
}
