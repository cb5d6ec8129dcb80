/* util-linux's libmount, the parser mount(8) reads its options with, as an independent
 * source for tests of ctrun's own option and flag tables (test_mount_options.c,
 * test_mountcheck.c). Found at run time, so the build needs no libmount headers; a test
 * skips when libmount.so.1 is not installed. */
#ifndef CTRUN_TESTS_UTIL_LINUX_H
#define CTRUN_TESTS_UTIL_LINUX_H

#include <stdbool.h>

/* What mount(8) makes of an option: the MS_* bits it sets and those it clears. */
struct util_linux_flags {
	unsigned long set, clear;
};

/* mnt_optstr_get_flags() of name over libmount's built-in Linux map. */
struct util_linux_flags util_linux_flags(const char *name);

/* The option of that map that sets (sets true: "nosuid") or clears ("suid") exactly the
 * flag ms; fails the test when there is none. */
const char *util_linux_option(unsigned long ms, bool sets);

#endif
