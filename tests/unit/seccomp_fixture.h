/* Seccomp profiles in unit tests (test_seccomp.c, test_seccomp_cache.c): a config.json with
 * the given .linux.seccomp text, parsed (a parse error fails the test). */
#ifndef CTRUN_SECCOMP_FIXTURE_H
#define CTRUN_SECCOMP_FIXTURE_H

#include "oci/config.h"

struct oci_config *seccomp_fixture_parse(const char *seccomp);

#endif
