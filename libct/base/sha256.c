/* SHA-256 as FIPS 180-4 section 6.2 describes it (see sha256.h). */
#include "libct/base/sha256.h"

#include <string.h>

static const uint32_t round_constants[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* The message schedule of one 64-byte block (section 6.2.2 step 1). */
static void schedule(const unsigned char *block, uint32_t w[64])
{
	for (int t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
}

static void compress(uint32_t h[8], const unsigned char *block)
{
	uint32_t w[64], v[8];
	schedule(block, w);
	memcpy(v, h, sizeof(v));
	for (int t = 0; t < 64; t++) {
		uint32_t e = v[4], a = v[0];
		uint32_t ch = (e & v[5]) ^ (~e & v[6]);
		uint32_t t1 = v[7] + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ch +
			      round_constants[t] + w[t];
		uint32_t maj = (a & v[1]) ^ (a & v[2]) ^ (v[1] & v[2]);
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + maj;
		memmove(v + 1, v, 7 * sizeof(uint32_t));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void ct_sha256_init(struct ct_sha256 *c)
{
	static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, initial, sizeof(initial));
	c->total = 0;
	c->used = 0;
}

void ct_sha256_update(struct ct_sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	c->total += len;
	while (len) {
		size_t take = sizeof(c->block) - c->used;
		if (take > len)
			take = len;
		memcpy(c->block + c->used, p, take);
		c->used += take;
		p += take;
		len -= take;
		if (c->used == sizeof(c->block)) {
			compress(c->h, c->block);
			c->used = 0;
		}
	}
}

/* Padding (section 5.1.1): 0x80, zeros, the message length in bits, big-endian. */
void ct_sha256_final(struct ct_sha256 *c, unsigned char out[CT_SHA256_LEN])
{
	uint64_t bits = c->total * 8;
	static const unsigned char pad[64] = {0x80};
	size_t pad_len = c->used < 56 ? 56 - c->used : 120 - c->used;
	ct_sha256_update(c, pad, pad_len);
	unsigned char len_be[8];
	for (int i = 0; i < 8; i++)
		len_be[i] = (unsigned char)(bits >> (56 - 8 * i));
	ct_sha256_update(c, len_be, sizeof(len_be));
	for (int i = 0; i < 8; i++)
		store_be32(out + 4 * i, c->h[i]);
}

void ct_sha256_hex(const unsigned char digest[CT_SHA256_LEN], char hex[CT_SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < CT_SHA256_LEN; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 0xf];
	}
	hex[CT_SHA256_HEX_LEN] = '\0';
}
