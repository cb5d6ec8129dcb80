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

/* Each rule, its schema pattern and a string the schema's own examples give. */
static const struct {
	bool (*matches)(const char *);
	const char *pattern, *example;
} rules[] = {
	{oci_is_rlimit_name, "^RLIMIT_[A-Z]+$", "RLIMIT_NOFILE"},
	{oci_is_cpu_list, "^[0-9, -]*$", "0-3,7"},
	{oci_is_page_size, "^[1-9][0-9]*[KMG]B$", "2MB"},
	{oci_is_mem_bw_schema, "^MB:[^\n]*$", "MB:0=70;1=70"},
	{oci_is_device_cgroup_type, "^[abc]$", "c"},
	{oci_is_device_cgroup_access, "^[rwm]*$", "rwm"},
};

Test(string_rules, each_rule_says_what_its_pattern_says)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		assert_same_as_pattern(rules[i].matches, rules[i].pattern);
		cr_expect(rules[i].matches(rules[i].example), "%s refuses \"%s\"", rules[i].pattern,
			  rules[i].example);
	}
}
