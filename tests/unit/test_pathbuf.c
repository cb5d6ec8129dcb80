/* libct/pathbuf.h: paths and numbers put together without snprintf. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>

#include "libct/pathbuf.h"

Test(pathbuf, joins_with_one_slash)
{
	char buf[32];
	cr_expect(ct_path_join(buf, sizeof(buf), "/proc/12", "stat"));
	cr_expect_str_eq(buf, "/proc/12/stat");
	cr_expect(ct_path_join(buf, sizeof(buf), "id", ""));
	cr_expect_str_eq(buf, "id/");
}

Test(pathbuf, refuses_what_does_not_fit)
{
	char buf[8];
	cr_expect(ct_path_join(buf, sizeof(buf), "abc", "def"), "7 bytes and the NUL fit");
	cr_expect_str_eq(buf, "abc/def");
	cr_expect_not(ct_path_join(buf, sizeof(buf), "abcd", "def"));
	cr_expect_str_empty(buf);
	cr_expect_not(ct_path_join(buf, 0, "a", "b"));
}

Test(pathbuf, decimal_digits_as_printf)
{
	const uint64_t values[] = {0, 7, 10, 99, 4242, 4294967295u, UINT64_MAX};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char want[CT_DEC_MAX], got[CT_DEC_MAX];
		int n = snprintf(want, sizeof(want), "%ju", (uintmax_t)values[i]);
		cr_expect_eq(ct_format_dec(got, values[i]), (size_t)n);
		cr_expect_str_eq(got, want);
	}
}
