/* /proc/PID/status parsing: the ignored signals and the bounding set the init inherits. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "libct/base/selfstatus.h"

static const char status_text[] = "Name:\tctrun\n"
				  "Umask:\t0022\n"
				  "SigQ:\t0/31457\n"
				  "SigPnd:\t0000000000000000\n"
				  "ShdPnd:\t0000000000000000\n"
				  "SigBlk:\tfffffffe7ffbfeff\n"
				  "SigIgn:\t0000000000001002\n"
				  "SigCgt:\t0000000000000000\n"
				  "CapInh:\t0000000000000000\n"
				  "CapPrm:\t000001ffffffffff\n"
				  "CapEff:\t000001ffffffffff\n"
				  "CapBnd:\t000001ffffffffff\n"
				  "CapAmb:\t0000000000000000\n";

Test(selfstatus, reads_sigign_and_capbnd)
{
	struct ct_self_status s;
	cr_assert_eq(ct_self_status_parse(status_text, &s), 0);
	cr_assert_eq(s.sig_ignored, (1ULL << (SIGINT - 1)) | (1ULL << (SIGPIPE - 1)));
	cr_assert_eq(s.cap_bounding, 0x1ffffffffffULL);
}

/* "SigIgnX:" or a key inside a line is not SigIgn; the last line may lack its newline. */
Test(selfstatus, matches_whole_keys_at_line_starts)
{
	struct ct_self_status s;
	cr_assert_eq(ct_self_status_parse("SigIgnX:\tffff\nName:\tx SigIgn: 1\nSigIgn:\t4\n"
					  "CapBnd:\t20",
					  &s),
		     0);
	cr_assert_eq(s.sig_ignored, 4);
	cr_assert_eq(s.cap_bounding, 0x20);
}

Test(selfstatus, a_missing_or_bad_field_fails)
{
	struct ct_self_status s = {.sig_ignored = 7, .cap_bounding = 9};
	cr_assert_eq(ct_self_status_parse("SigIgn:\t0\n", &s), -1);
	cr_assert_eq(ct_self_status_parse("CapBnd:\t0\n", &s), -1);
	cr_assert_eq(ct_self_status_parse("SigIgn:\tzz\nCapBnd:\t0\n", &s), -1);
	cr_assert_eq(ct_self_status_parse("SigIgn:\t12g\nCapBnd:\t0\n", &s), -1);
	cr_assert_eq(ct_self_status_parse("", &s), -1);
	cr_assert_eq(s.sig_ignored, 7, "untouched on failure");
	cr_assert_eq(s.cap_bounding, 9);
}

/* This process's own status reads, and agrees with what it ignores. */
Test(selfstatus, reads_this_process)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	cr_assert_eq(sigaction(SIGUSR2, &ign, &old), 0);
	struct ct_self_status s;
	ct_self_status_read(&s);
	sigaction(SIGUSR2, &old, NULL);
	cr_assert(s.sig_ignored & (1ULL << (SIGUSR2 - 1)));
	cr_assert_neq(s.sig_ignored, ~0ULL, "read, not the fallback");
}

/* The first line starting with the whole key, the text after its colon; none: NULL. */
Test(selfstatus, status_field_at_a_line_start)
{
	const char *text = "NSpidX:\t9\nName:\tNSpid: 8\nNSpid:\t7\t1\nNSpid:\t6\n";
	const char *v = ct_proc_status_field(text, "NSpid");
	cr_assert_not_null(v);
	cr_expect_eq(strncmp(v, "\t7\t1\n", 5), 0, "got: %s", v);
	cr_expect_null(ct_proc_status_field(text, "Tgid"));
	cr_expect_null(ct_proc_status_field("", "NSpid"));
	cr_expect_str_eq(ct_proc_status_field("Name:", "Name"), "");
}
