/* Parameterized tests over the rows of a static table. Criterion hands each test a copy of
 * its parameter in a worker process that may map the binary at another address, so a row
 * holding pointers (strings) cannot be the parameter: its index is.
 *
 *	static const struct row rows[] = {...};
 *	ParameterizedTestParameters(suite, name) { return ctt_rows(CTT_COUNT(rows)); }
 *	ParameterizedTest(size_t *i, suite, name) { const struct row *r = &rows[*i]; ... }
 */
#ifndef CTRUN_TESTS_ROWS_H
#define CTRUN_TESTS_ROWS_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stddef.h>

#define CTT_COUNT(table) (sizeof(table) / sizeof((table)[0]))

#define CTT_MAX_ROWS 128

/* The indices 0..n-1 as the parameters of a ParameterizedTest. */
static inline struct criterion_test_params ctt_rows(size_t n)
{
	static size_t index[CTT_MAX_ROWS];
	cr_assert_leq(n, CTT_MAX_ROWS, "a table of more than %d rows", CTT_MAX_ROWS);
	for (size_t i = 0; i < n; i++)
		index[i] = i;
	return cr_make_param_array(size_t, index, n);
}

#endif
