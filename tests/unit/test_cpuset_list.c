/* libct/cgroup/cpuset_list.c: cpuset.cpus / cpuset.mems as runc's events --stats lists them. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdlib.h>

#include "libct/cgroup/cpuset_list.h"

static void assert_list(const char *text, const uint16_t *want, size_t n_want)
{
	uint16_t *got = NULL;
	size_t n = 99;
	cr_assert_eq(ct_cpuset_list_parse(text, &got, &n), 0, "\"%s\" refused", text);
	cr_assert_eq(n, n_want, "\"%s\": %zu numbers", text, n);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(got[i], want[i], "\"%s\"[%zu]: %u", text, i, got[i]);
	free(got);
}

Test(cpuset_list, ranges_are_expanded_in_order)
{
	assert_list("0-3,5\n", (const uint16_t[]){0, 1, 2, 3, 5}, 5);
	assert_list("0", (const uint16_t[]){0}, 1);
	assert_list("7,2", (const uint16_t[]){7, 2}, 2);
	assert_list("4-4", (const uint16_t[]){4}, 1);
	assert_list("65534-65535", (const uint16_t[]){65534, 65535}, 2);
}

Test(cpuset_list, empty_is_an_empty_list)
{
	uint16_t *got = (uint16_t *)1;
	size_t n = 99;
	cr_assert_eq(ct_cpuset_list_parse("\n", &got, &n), 0);
	cr_expect_null(got);
	cr_expect_eq(n, 0);
	cr_assert_eq(ct_cpuset_list_parse("", &got, &n), 0);
	cr_expect_eq(n, 0);
}

Test(cpuset_list, bad_lists_are_refused)
{
	static const char *const bad[] = {"3-1", "1-2-3", "x",	 "1,,2",  "1,",
					  ",1",	 "-1",	  "1-",	 "65536", "0-65536",
					  " 1",	 "1 ",	  "1;2", "0x1",	  "99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint16_t *got = (uint16_t *)1;
		size_t n = 99;
		errno = 0;
		cr_expect_eq(ct_cpuset_list_parse(bad[i], &got, &n), -1, "\"%s\" accepted", bad[i]);
		cr_expect_eq(errno, EINVAL, "\"%s\": errno %d", bad[i], errno);
		cr_expect_null(got, "\"%s\": a list left", bad[i]);
		cr_expect_eq(n, 0, "\"%s\"", bad[i]);
	}
}

/* Every number of 16 bits once is the most a list may hold; ranges repeated past it are
 * refused rather than grown without bound. */
Test(cpuset_list, more_numbers_than_sixteen_bits_hold_are_refused)
{
	uint16_t *got = NULL;
	size_t n = 0;
	cr_assert_eq(ct_cpuset_list_parse("0-65535", &got, &n), 0);
	cr_expect_eq(n, 65536);
	cr_expect_eq(got[65535], 65535);
	free(got);
	got = (uint16_t *)1;
	errno = 0;
	cr_expect_eq(ct_cpuset_list_parse("0-65535,0", &got, &n), -1);
	cr_expect_eq(errno, EINVAL);
	cr_expect_null(got);
	cr_expect_eq(ct_cpuset_list_parse("1-65535,0-1", &got, &n), -1);
}
