/* ociVersion rule (config.md#specification-version): any SemVer 1.x.y is accepted, 0.x and
 * 2.x are not, and anything that is not SemVer is not. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "oci/config.h"

/* Parameters are copied into the test process, which Criterion may start by exec (ASLR):
 * they hold the text itself, never a pointer into this image. */
struct version_case {
	char text[48];
};

ParameterizedTestParameters(version, accepted)
{
	static struct version_case cases[] = {
		{"1.0.0"}, {"1.3.0"},	      {"1.0.2-dev"}, {"1.3.0-rc.1"},
		{"1.9.0"}, {"1.2.3+build.5"}, {"1.10.20"},   {"1.0.0-alpha-1.2+exp.sha.5114f85"},
	};
	return cr_make_param_array(struct version_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct version_case *c, version, accepted)
{
	cr_assert(oci_version_supported(c->text), "\"%s\" was refused", c->text);
}

ParameterizedTestParameters(version, refused)
{
	static struct version_case cases[] = {
		{"0.5.0"},
		{"0.5.0-dev"},
		{"2.0.0"},
		{"1.0"},
		{"1"},
		{"v1.0.0"},
		{"01.0.0"},
		{"1.00.0"},
		{"1.0.00"},
		{"1.0.0-"},
		{"1.0.0+"},
		{"1.0.0-rc..1"},
		{"1.0.0-rc_1"},
		{"1.0.0 "},
		{" 1.0.0"},
		{"1.0.0.0"},
		{"1..0"},
		{""},
		/* wraps to 1 in 64 bits */
		{"18446744073709551617.0.0"},
	};
	return cr_make_param_array(struct version_case, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct version_case *c, version, refused)
{
	cr_assert_not(oci_version_supported(c->text), "\"%s\" was accepted", c->text);
}
