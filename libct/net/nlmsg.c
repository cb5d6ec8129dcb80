/* Netlink requests built (libct/net/nlmsg.h). */
#include "libct/net/nlmsg.h"

#include <linux/netlink.h>
#include <string.h>

static struct nlmsghdr *header(struct ct_nlmsg *m)
{
	return (struct nlmsghdr *)m->buf;
}

/* Appends len bytes padded to NLMSG_ALIGNTO, or marks the message overflowed. */
static void *reserve(struct ct_nlmsg *m, size_t len)
{
	size_t padded = NLMSG_ALIGN(len);
	if (m->overflow || padded > sizeof(m->buf) - m->len) {
		m->overflow = true;
		return NULL;
	}
	void *at = m->buf + m->len;
	memset(at, 0, padded);
	m->len += padded;
	header(m)->nlmsg_len = (uint32_t)m->len;
	return at;
}

void ct_nlmsg_init(struct ct_nlmsg *m, uint16_t type, uint16_t flags, const void *body,
		   size_t len)
{
	m->len = 0;
	m->overflow = false;
	struct nlmsghdr *h = reserve(m, NLMSG_HDRLEN);
	h->nlmsg_type = type;
	h->nlmsg_flags = flags | NLM_F_REQUEST;
	void *at = reserve(m, len);
	if (at && len)
		memcpy(at, body, len);
}

void *ct_nlmsg_body(struct ct_nlmsg *m)
{
	return m->buf + NLMSG_HDRLEN;
}

void ct_nlmsg_put(struct ct_nlmsg *m, uint16_t type, const void *data, size_t len)
{
	if (len > UINT16_MAX - NLA_HDRLEN) {
		m->overflow = true;
		return;
	}
	struct nlattr *a = reserve(m, NLA_HDRLEN + len);
	if (!a)
		return;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy((unsigned char *)a + NLA_HDRLEN, data, len);
}

void ct_nlmsg_put_u32(struct ct_nlmsg *m, uint16_t type, uint32_t value)
{
	ct_nlmsg_put(m, type, &value, sizeof(value));
}

void ct_nlmsg_put_str(struct ct_nlmsg *m, uint16_t type, const char *s)
{
	ct_nlmsg_put(m, type, s, strlen(s) + 1);
}
