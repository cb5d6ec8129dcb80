/* libFuzzer harness: what comes back on an rtnetlink socket (the kernel's replies, read by
 * the runtime that moves network devices) -> its messages, each read as an error, a dump's
 * end, a link and an address. Every message handed out lies within the bytes and the walk always moves on;
 * what is taken holds what its reader promises (a name of 1 to 15 bytes, an address of its
 * family's size and prefix, a printable message). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "libct/net/rtnl_reply.h"

static void check_error(const struct nlmsghdr *h)
{
	int errnum = -1;
	char text[64];
	if (ct_rtnl_parse_error(h, &errnum, text, sizeof(text)) < 0)
		return;
	if (errnum < 0 || errnum > 4095 || strlen(text) >= sizeof(text))
		abort();
	for (const char *p = text; *p; p++)
		if (!isprint((unsigned char)*p))
			abort();
}

static void check_done(const struct nlmsghdr *h)
{
	int errnum = -1;
	if (ct_rtnl_parse_done(h, &errnum) == 0 && (errnum < 0 || errnum > 4095))
		abort();
}

static void check_link(const struct nlmsghdr *h)
{
	uint32_t index = 0;
	char name[IFNAMSIZ];
	if (ct_rtnl_parse_link(h, &index, name) < 0)
		return;
	size_t n = strnlen(name, IFNAMSIZ);
	if (index == 0 || n == 0 || n >= IFNAMSIZ)
		abort();
}

static void check_addr(const struct nlmsghdr *h)
{
	struct ct_netaddr a;
	if (ct_rtnl_parse_addr(h, &a) < 0)
		return;
	unsigned size = ct_netaddr_size(a.family);
	if (!size || a.prefixlen > size * 8 || !(a.has_local || a.has_address) ||
	    (a.has_broadcast && size != 4))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* as recv() leaves them: aligned, in a buffer of exactly the bytes received */
	uint32_t *buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	size_t off = 0, last = 0;
	bool bad;
	const struct nlmsghdr *h;
	while ((h = ct_rtnl_next(buf, size, &off, &bad))) {
		if ((const unsigned char *)h + h->nlmsg_len > (const unsigned char *)buf + size ||
		    off <= last || off > size)
			abort();
		last = off;
		check_error(h);
		check_done(h);
		check_link(h);
		check_addr(h);
	}
	free(buf);
	return 0;
}
