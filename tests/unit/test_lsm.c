/* libct/child/lsm.c: labels asked for are checked against the LSMs this kernel runs. */
#include <criterion/criterion.h>

#include "libct/child/lsm.h"

Test(lsm, nothing_asked_is_fine)
{
	struct ct_error err = {0};
	cr_expect_eq(ct_lsm_check(NULL, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(ct_lsm_check("", "", &err), 0, "%s", err.msg);
	struct ct_procfs procfs = CT_PROCFS_INIT;
	cr_expect_eq(ct_lsm_apply(&procfs, NULL, "", &err), 0, "%s", err.msg);
}

Test(lsm, apparmor_profile_needs_apparmor)
{
	if (ct_apparmor_enabled())
		cr_skip("AppArmor is enabled here");
	struct ct_error err = {0};
	cr_assert_eq(ct_lsm_check("p", NULL, &err), -1);
	cr_expect_str_eq(err.msg, "config.json: .process.apparmorProfile: \"p\" asked, but "
				  "AppArmor is not enabled on this host");
}

Test(lsm, selinux_label_needs_selinux)
{
	if (ct_selinux_enabled())
		cr_skip("SELinux is enabled here");
	struct ct_error err = {0};
	cr_assert_eq(ct_lsm_check(NULL, "l", &err), -1);
	cr_expect_str_eq(err.msg, "config.json: .process.selinuxLabel: \"l\" asked, but "
				  "SELinux is not enabled on this host");
}
