/* The cache key of a seccomp profile (see seccomp_key.h). */
#include "libct/seccomp/seccomp_key.h"

#include <seccomp.h>
#include <stdbool.h>
#include <string.h>

/* Bumped when the encoding below changes. */
#define KEY_MAGIC "ctrun seccomp cache key 1"
#define ABSENT	  UINT64_MAX /* the length of a missing string */

static void feed_u64(struct ct_sha256 *c, uint64_t v)
{
	unsigned char le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	ct_sha256_update(c, le, sizeof(le));
}

static void feed_str(struct ct_sha256 *c, const char *s)
{
	if (!s) {
		feed_u64(c, ABSENT);
		return;
	}
	size_t len = strlen(s);
	feed_u64(c, len);
	ct_sha256_update(c, s, len);
}

static void feed_ints(struct ct_sha256 *c, const int *items, size_t n)
{
	feed_u64(c, n);
	for (size_t i = 0; i < n; i++)
		feed_u64(c, (uint64_t)(int64_t)items[i]);
}

static void feed_errno(struct ct_sha256 *c, bool has, uint32_t value)
{
	feed_u64(c, has);
	feed_u64(c, has ? value : 0);
}

static void feed_syscall(struct ct_sha256 *c, const struct oci_syscall *sc)
{
	feed_u64(c, sc->names.len);
	for (size_t i = 0; i < sc->names.len; i++)
		feed_str(c, sc->names.items[i]);
	feed_u64(c, (uint64_t)(int64_t)sc->action);
	feed_errno(c, sc->has_errno_ret, sc->errno_ret);
	feed_u64(c, sc->args.len);
	for (size_t i = 0; i < sc->args.len; i++) {
		const struct oci_syscall_arg *a = &sc->args.items[i];
		feed_u64(c, a->index);
		feed_u64(c, a->value);
		feed_u64(c, a->value_two);
		feed_u64(c, (uint64_t)(int64_t)a->op);
	}
}

void ct_seccomp_key_profile(struct ct_sha256 *c, const struct oci_seccomp *s)
{
	feed_u64(c, (uint64_t)(int64_t)s->default_action);
	feed_errno(c, s->has_default_errno_ret, s->default_errno_ret);
	feed_ints(c, s->architectures.items, s->architectures.len);
	feed_ints(c, s->flags.items, s->flags.len);
	feed_str(c, s->listener_path);
	feed_str(c, s->listener_metadata);
	feed_u64(c, s->syscalls.len);
	for (size_t i = 0; i < s->syscalls.len; i++)
		feed_syscall(c, &s->syscalls.items[i]);
}

/* What decides the program besides the profile. */
static void feed_environment(struct ct_sha256 *c, const char *runtime, const char *build_id)
{
	const struct scmp_version *v = seccomp_version();
	feed_str(c, KEY_MAGIC);
	feed_str(c, runtime);
	feed_str(c, build_id);
	feed_u64(c, v->major);
	feed_u64(c, v->minor);
	feed_u64(c, v->micro);
	feed_u64(c, seccomp_api_get());
	feed_u64(c, seccomp_arch_native());
}

const char *ct_seccomp_key_refusal(const char *build_id)
{
	if (!build_id || !build_id[0])
		return "ctrun has no build id (linked without --build-id), so a cached program "
		       "could be another build's";
	return NULL;
}

void ct_seccomp_key(const struct oci_seccomp *s, const char *runtime, const char *build_id,
		    char hex[CT_SHA256_HEX_LEN + 1])
{
	struct ct_sha256 c;
	unsigned char digest[CT_SHA256_LEN];
	ct_sha256_init(&c);
	feed_environment(&c, runtime, build_id);
	ct_seccomp_key_profile(&c, s);
	ct_sha256_final(&c, digest);
	ct_sha256_hex(digest, hex);
}
