/* The flag helpers every subcommand shares (runtime/usage.c). */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <stdbool.h>

#include "runtime/ctrun.h"

Test(usage, format_table_or_json, .init = cr_redirect_stderr)
{
	bool json = true;
	cr_expect_eq(ct_parse_format("ps", "table", &json), 0);
	cr_expect_not(json);
	cr_expect_eq(ct_parse_format("ps", "json", &json), 0);
	cr_expect(json);
	cr_expect_eq(ct_parse_format("ps", "yaml", &json), 1);
	cr_expect(json, "a refused value changes nothing");
	fflush(stderr);
	cr_expect_stderr_eq_str(
		"ctrun ps: --format: invalid value \"yaml\" (see 'ctrun ps --help')\n");
}
