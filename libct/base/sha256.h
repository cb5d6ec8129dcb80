/* SHA-256 (FIPS 180-4), small and dependency-free: the names of seccomp cache entries and
 * the check of their contents (libct/seccomp/seccomp_cache.c). Not constant-time; nothing secret is
 * hashed. */
#ifndef CT_SHA256_H
#define CT_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define CT_SHA256_LEN	  32
#define CT_SHA256_HEX_LEN (2 * CT_SHA256_LEN)

struct ct_sha256 {
	uint32_t h[8];
	uint64_t total; /* bytes hashed so far */
	unsigned char block[64];
	size_t used; /* bytes waiting in block */
};

void ct_sha256_init(struct ct_sha256 *c);
void ct_sha256_update(struct ct_sha256 *c, const void *data, size_t len);
void ct_sha256_final(struct ct_sha256 *c, unsigned char out[CT_SHA256_LEN]);

/* Lower-case hex of a digest, NUL-terminated. */
void ct_sha256_hex(const unsigned char digest[CT_SHA256_LEN], char hex[CT_SHA256_HEX_LEN + 1]);

#endif
