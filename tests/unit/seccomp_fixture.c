/* See seccomp_fixture.h. */
#include "tests/unit/seccomp_fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>

struct oci_config *seccomp_fixture_parse(const char *seccomp)
{
	char doc[8192];
	snprintf(doc, sizeof(doc),
		 "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
		 "\"linux\": {\"seccomp\": %s}}",
		 seccomp);
	struct oci_config *c;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_parse(doc, NULL, &c, &err), 0, "%s: %s", doc, err.msg);
	return c;
}
