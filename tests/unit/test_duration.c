/* runtime/duration.c: --interval takes Go's durations, as runc's does. */
#include <criterion/criterion.h>

#include "runtime/duration.h"

Test(duration, go_durations)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} ok[] = {
		{"0", 0},		  {"5s", 5000000000ULL},	{"250ms", 250000000ULL},
		{"1m30s", 90000000000ULL}, {"1.5h", 5400000000000ULL}, {"10us", 10000},
		{"10\xc2\xb5s", 10000},	  {"7ns", 7},			{".5s", 500000000ULL},
		{"1h2m3s4ms", 3723004000000ULL},
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t ns = 1;
		cr_expect_eq(ct_parse_duration(ok[i].text, &ns), 0, "%s", ok[i].text);
		cr_expect_eq(ns, ok[i].ns, "%s: %llu", ok[i].text, (unsigned long long)ns);
	}
	static const char *const bad[] = {"", "5", "-5s", "+5s", "5x", "s", "1.s5", ".s",
					  "5 s", "99999999999h"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t ns;
		cr_expect_eq(ct_parse_duration(bad[i], &ns), -1, "\"%s\" accepted", bad[i]);
	}
}
