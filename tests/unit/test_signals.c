/* Signal names as `ctrun kill` takes them (runc's forms): name with or without SIG, any case,
 * or a number; anything else names no signal. */
#include <criterion/criterion.h>
#include <signal.h>

#include "libct/base/signals.h"

Test(signals, bare_name)
{
	cr_expect_eq(ct_signal_parse("KILL"), SIGKILL);
	cr_expect_eq(ct_signal_parse("TERM"), SIGTERM);
	cr_expect_eq(ct_signal_parse("HUP"), SIGHUP);
	cr_expect_eq(ct_signal_parse("USR1"), SIGUSR1);
	cr_expect_eq(ct_signal_parse("WINCH"), SIGWINCH);
}

Test(signals, sig_prefixed_name)
{
	cr_expect_eq(ct_signal_parse("SIGKILL"), SIGKILL);
	cr_expect_eq(ct_signal_parse("SIGTERM"), SIGTERM);
	cr_expect_eq(ct_signal_parse("SIGCHLD"), SIGCHLD);
}

Test(signals, any_case)
{
	cr_expect_eq(ct_signal_parse("kill"), SIGKILL);
	cr_expect_eq(ct_signal_parse("sigterm"), SIGTERM);
	cr_expect_eq(ct_signal_parse("SigInt"), SIGINT);
}

Test(signals, numbers)
{
	cr_expect_eq(ct_signal_parse("9"), 9);
	cr_expect_eq(ct_signal_parse("15"), 15);
	cr_expect_eq(ct_signal_parse("1"), 1);
	cr_expect_eq(ct_signal_parse("64"), 64, "the last real-time signal");
	cr_expect_eq(ct_signal_parse("0"), 0, "0 probes, as kill(2), runc and crun take it");
}

Test(signals, numbers_out_of_range)
{
	cr_expect_eq(ct_signal_parse("65"), -1);
	cr_expect_eq(ct_signal_parse("99999999999999999999999"), -1);
}

Test(signals, not_a_signal)
{
	cr_expect_eq(ct_signal_parse(""), -1);
	cr_expect_eq(ct_signal_parse(NULL), -1);
	cr_expect_eq(ct_signal_parse("FOO"), -1);
	cr_expect_eq(ct_signal_parse("SIGFOO"), -1);
	cr_expect_eq(ct_signal_parse("SIG"), -1);
	cr_expect_eq(ct_signal_parse("9x"), -1);
	cr_expect_eq(ct_signal_parse("-9"), -1);
	cr_expect_eq(ct_signal_parse("KILLX"), -1);
	cr_expect_eq(ct_signal_parse("SIGSIGKILL"), -1);
}

/* The names messages print ("killed by signal 9 (SIGKILL)"), the usual one of an alias. */
Test(signals, abbrev_names_a_number)
{
	cr_expect_str_eq(ct_signal_abbrev(SIGKILL), "KILL");
	cr_expect_str_eq(ct_signal_abbrev(SIGSEGV), "SEGV");
	cr_expect_str_eq(ct_signal_abbrev(SIGABRT), "ABRT", "not IOT");
	cr_expect_str_eq(ct_signal_abbrev(SIGIO), "IO", "not POLL");
	cr_expect_str_eq(ct_signal_abbrev(SIGSYS), "SYS");
}

Test(signals, abbrev_of_unnamed_numbers_is_null)
{
	cr_expect_null(ct_signal_abbrev(0));
	cr_expect_null(ct_signal_abbrev(SIGRTMIN));
	cr_expect_null(ct_signal_abbrev(65));
}
