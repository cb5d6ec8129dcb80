/* ct_sha256 against the known answers of FIPS 180-4's examples and NIST's vectors, fed in one
 * piece and in pieces that straddle the 64-byte blocks. */
#include <criterion/criterion.h>
#include <string.h>

#include "libct/base/sha256.h"

/* Hashes len bytes of data in pieces of step bytes (0: in one call). */
static void assert_digest(const void *data, size_t len, size_t step, const char *want)
{
	struct ct_sha256 c;
	ct_sha256_init(&c);
	const unsigned char *p = data;
	for (size_t done = 0; step && done < len; done += step)
		ct_sha256_update(&c, p + done, len - done < step ? len - done : step);
	if (!step)
		ct_sha256_update(&c, data, len);
	unsigned char digest[CT_SHA256_LEN];
	char hex[CT_SHA256_HEX_LEN + 1];
	ct_sha256_final(&c, digest);
	ct_sha256_hex(digest, hex);
	cr_expect_str_eq(hex, want, "%zu bytes in steps of %zu", len, step);
}

static const struct {
	const char *msg, *digest;
} vectors[] = {
	{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	/* 56 bytes: the length no longer fits the first block */
	{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnop"
	 "qrlmnopqrsmnopqrstnopqrstu",
	 "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
};

Test(sha256, known_answers_in_one_piece_and_in_pieces)
{
	static const size_t steps[] = {0, 1, 3, 63, 64, 65};
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
		for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++)
			assert_digest(vectors[i].msg, strlen(vectors[i].msg), steps[s],
				      vectors[i].digest);
}

/* NIST's long message: one million 'a'. */
Test(sha256, one_million_a)
{
	static char data[1000000];
	memset(data, 'a', sizeof(data));
	assert_digest(data, sizeof(data), 0,
		      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	assert_digest(data, sizeof(data), 4097,
		      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
