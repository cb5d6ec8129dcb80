/* libct/base/pathbuf.h: paths and numbers put together without snprintf. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>

#include "libct/base/pathbuf.h"

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

Test(pathbuf, puts_cut_as_snprintf_cuts)
{
	const char *dirs[] = {"", "/sys/fs/cgroup", "a"};
	const char *names[] = {"", "devices", "cpu,cpuacct"};
	for (size_t d = 0; d < 3; d++)
		for (size_t n = 0; n < 3; n++)
			for (size_t size = 1; size <= 32; size++) {
				char want[32], got[32];
				int wlen = snprintf(want, size, "%s/%s", dirs[d], names[n]);
				size_t at = ct_buf_put(got, size, 0, dirs[d]);
				at = ct_buf_put(got, size, at, "/");
				at = ct_buf_put(got, size, at, names[n]);
				cr_expect_str_eq(got, want, "\"%s\" \"%s\" in %zu bytes", dirs[d],
						 names[n], size);
				cr_expect_eq(at, (size_t)wlen < size ? (size_t)wlen : size - 1);
			}
}

Test(pathbuf, puts_nothing_into_no_room)
{
	char buf[4] = "xyz";
	cr_expect_eq(ct_buf_put(buf, 0, 0, "abc"), 0);
	cr_expect_str_eq(buf, "xyz", "a size of 0 leaves buf alone");
	cr_expect_eq(ct_buf_put(buf, sizeof(buf), 3, "abc"), 3);
	cr_expect_str_eq(buf, "xyz", "a full buffer stays as it is");
}
