/* The name of a compiled seccomp program in the cache: SHA-256 over everything the program
 * depends on, so that a different input never finds another input's program:
 *   - the profile as parsed (linux.seccomp, every field, in a fixed encoding);
 *   - libseccomp's runtime version and API level and the native architecture, which decide
 *     what it emits;
 *   - ctrun's version and commit and the build id of the running binary, which cover what
 *     ctrun adds to the profile (clone3 -> ENOSYS, no NNP attribute) and any change of it.
 * Without a build id there is no key: nothing would tell two builds of one commit apart. */
#ifndef CT_SECCOMP_KEY_H
#define CT_SECCOMP_KEY_H

#include "libct/base/sha256.h"
#include "oci/config.h"

/* Feeds the profile's canonical bytes into c: each number as 8 bytes little-endian, each
 * string and array with its length first, absent strings distinct from empty ones. */
void ct_seccomp_key_profile(struct ct_sha256 *c, const struct oci_seccomp *s);

/* Why a binary with this build id (ct_build_id()) must not use the cache, NULL when it may. */
const char *ct_seccomp_key_refusal(const char *build_id);

/* hex: the key of s compiled by this process; runtime is ctrun's "version commit", build_id
 * the running binary's (one ct_seccomp_key_refusal() accepts). */
void ct_seccomp_key(const struct oci_seccomp *s, const char *runtime, const char *build_id,
		    char hex[CT_SHA256_HEX_LEN + 1]);

#endif
