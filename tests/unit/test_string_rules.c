/* oci/string_rules.h: each hand-written test agrees with its schema pattern, run through
 * regcomp/regexec as the reference, on strings at and around the pattern's edges. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdbool.h>

#include "oci/string_rules.h"

static const char *const samples[] = {
	"",
	"a",
	"b",
	"c",
	"d",
	"ab",
	"A",
	"r",
	"rw",
	"rwm",
	"mwr",
	"rrr",
	"rx",
	" r",
	"RLIMIT_",
	"RLIMIT_NOFILE",
	"RLIMIT_nofile",
	"RLIMIT_NOFILE ",
	"XRLIMIT_CPU",
	"RLIMIT_CPU\n",
	"RLIMIT_AS1",
	"NOFILE",
	"0-3,7",
	"0",
	"1, 2 - 3",
	"0-3\n",
	"0;1",
	"2MB",
	"1GB",
	"64KB",
	"0MB",
	"20MB",
	"2M",
	"2MBB",
	"2 MB",
	"MB",
	"2mB",
	"10TB",
	"MB:",
	"MB:0=70;1=70",
	"MB:0=70\n",
	"mB:",
	"MB",
	" MB:",
	"MB:\xc3\xa9",
	"\xc3\xa9",
	"\n",
};

static void assert_same_as_pattern(bool (*matches)(const char *), const char *pattern)
{
	regex_t re;
	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0, "%s", pattern);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		bool want = regexec(&re, samples[i], 0, NULL, 0) == 0;
		cr_expect_eq(matches(samples[i]), want, "%s on \"%s\": the pattern says %d",
			     pattern, samples[i], want);
	}
	regfree(&re);
}

Test(string_rules, rlimit_name)
{
	assert_same_as_pattern(oci_is_rlimit_name, "^RLIMIT_[A-Z]+$");
	cr_expect(oci_is_rlimit_name("RLIMIT_NOFILE"));
}

Test(string_rules, cpu_list)
{
	assert_same_as_pattern(oci_is_cpu_list, "^[0-9, -]*$");
	cr_expect(oci_is_cpu_list("0-3,7"));
}

Test(string_rules, page_size)
{
	assert_same_as_pattern(oci_is_page_size, "^[1-9][0-9]*[KMG]B$");
	cr_expect(oci_is_page_size("2MB"));
}

Test(string_rules, mem_bw_schema)
{
	assert_same_as_pattern(oci_is_mem_bw_schema, "^MB:[^\n]*$");
	cr_expect(oci_is_mem_bw_schema("MB:0=70;1=70"));
}

Test(string_rules, device_cgroup_type)
{
	assert_same_as_pattern(oci_is_device_cgroup_type, "^[abc]$");
	cr_expect(oci_is_device_cgroup_type("c"));
}

Test(string_rules, device_cgroup_access)
{
	assert_same_as_pattern(oci_is_device_cgroup_access, "^[rwm]*$");
	cr_expect(oci_is_device_cgroup_access("rwm"));
}
