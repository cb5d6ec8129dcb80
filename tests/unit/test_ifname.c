/* oci/ifname.h: the kernel's rules for interface names (dev_valid_name, dev_alloc_name). */
#include <criterion/criterion.h>

#include "oci/ifname.h"

Test(ifname, existing_device_names)
{
	cr_expect_null(oci_ifname_problem("eth0"));
	cr_expect_null(oci_ifname_problem("eth0.100"));
	cr_expect_null(oci_ifname_problem("0123456789abcde"), "15 bytes fit");
	cr_expect_not_null(oci_ifname_problem("0123456789abcdef"), "16 do not");
	cr_expect_not_null(oci_ifname_problem(""));
	cr_expect_not_null(oci_ifname_problem("."));
	cr_expect_not_null(oci_ifname_problem(".."));
	cr_expect_null(oci_ifname_problem("..."));
	cr_expect_not_null(oci_ifname_problem("a/b"));
	cr_expect_not_null(oci_ifname_problem("a:1"));
	cr_expect_not_null(oci_ifname_problem("a\tb"));
	cr_expect_not_null(oci_ifname_problem("a\nb"));
	cr_expect_not_null(oci_ifname_problem("eth%d"), "a template names no device");
}

Test(ifname, new_names_and_templates)
{
	cr_expect_null(oci_ifname_new_problem("ctr0"));
	cr_expect_null(oci_ifname_new_problem("eth%d"));
	cr_expect_null(oci_ifname_new_problem("%dx"), "the kernel takes %d anywhere");
	cr_expect_not_null(oci_ifname_new_problem("eth%"));
	cr_expect_not_null(oci_ifname_new_problem("eth%s"));
	cr_expect_not_null(oci_ifname_new_problem("e%d%d"));
	cr_expect_not_null(oci_ifname_new_problem("a b%d"));
	cr_expect(oci_ifname_is_template("eth%d"));
	cr_expect_not(oci_ifname_is_template("eth0"));
}
