/* rtnetlink replies read (libct/net/rtnl_reply.h). */
#include "libct/net/rtnl_reply.h"

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>

#define ATTR_MAX 64 /* above every IFLA_, IFA_ and NLMSGERR_ATTR_ type read here */

const struct nlmsghdr *ct_rtnl_next(const void *buf, size_t len, size_t *off, bool *bad)
{
	*bad = false;
	if (*off >= len)
		return NULL;
	size_t left = len - *off;
	const struct nlmsghdr *h = (const void *)((const unsigned char *)buf + *off);
	if (left < NLMSG_HDRLEN || h->nlmsg_len < NLMSG_HDRLEN || h->nlmsg_len > left) {
		*bad = true;
		return NULL;
	}
	size_t step = NLMSG_ALIGN(h->nlmsg_len);
	*off += step < left ? step : left;
	return h;
}

/* The attributes in len bytes at p, by type (the last of a type wins); false when one
 * runs past the end. */
static bool read_attrs(const unsigned char *p, size_t len, const struct nlattr **tb)
{
	memset(tb, 0, ATTR_MAX * sizeof(*tb));
	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const void *)p;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return false;
		unsigned type = a->nla_type & NLA_TYPE_MASK;
		if (type < ATTR_MAX)
			tb[type] = a;
		size_t step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return true;
		p += step;
		len -= step;
	}
	return len == 0;
}

static const void *attr_data(const struct nlattr *a)
{
	return (const unsigned char *)a + NLA_HDRLEN;
}

static size_t attr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

/* The attributes after the message's fixed header of size body; false when malformed. */
static bool message_attrs(const struct nlmsghdr *h, size_t body, const struct nlattr **tb)
{
	size_t fixed = NLMSG_HDRLEN + NLMSG_ALIGN(body);
	if (h->nlmsg_len < NLMSG_HDRLEN + body)
		return false;
	if (h->nlmsg_len <= fixed)
		return read_attrs(NULL, 0, tb);
	return read_attrs((const unsigned char *)h + fixed, h->nlmsg_len - fixed, tb);
}

/* A string attribute's text up to its NUL, into out (size bytes), printable ASCII only. */
static void copy_text(const struct nlattr *a, char *out, size_t size)
{
	const char *s = attr_data(a);
	size_t n = 0;
	for (size_t i = 0; i < attr_len(a) && s[i] && n + 1 < size; i++)
		out[n++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	out[n] = '\0';
}

/* Where the acknowledgement's TLVs start: after the request it quotes, unless capped. */
static size_t ack_tlv_offset(const struct nlmsghdr *h, const struct nlmsgerr *e)
{
	size_t off = NLMSG_HDRLEN + sizeof(*e);
	if (!(h->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len > NLMSG_HDRLEN)
		off += NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN;
	return off;
}

int ct_rtnl_parse_error(const struct nlmsghdr *h, int *errnum, char *text, size_t size)
{
	struct nlmsgerr e;
	if (size)
		text[0] = '\0';
	if (h->nlmsg_type != NLMSG_ERROR || h->nlmsg_len < NLMSG_HDRLEN + sizeof(e))
		return -1;
	memcpy(&e, (const unsigned char *)h + NLMSG_HDRLEN, sizeof(e));
	if (e.error > 0 || e.error < -4095)
		return -1;
	*errnum = -e.error;
	size_t off = ack_tlv_offset(h, &e);
	const struct nlattr *tb[ATTR_MAX];
	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS) || off >= h->nlmsg_len || !size ||
	    !read_attrs((const unsigned char *)h + off, h->nlmsg_len - off, tb))
		return 0;
	if (tb[NLMSGERR_ATTR_MSG])
		copy_text(tb[NLMSGERR_ATTR_MSG], text, size);
	return 0;
}

int ct_rtnl_parse_done(const struct nlmsghdr *h, int *errnum)
{
	int32_t status;
	*errnum = 0;
	if (h->nlmsg_type != NLMSG_DONE)
		return -1;
	/* an old kernel's NLMSG_DONE may come without its status: a dump that ended well */
	if (h->nlmsg_len < NLMSG_HDRLEN + sizeof(status))
		return 0;
	memcpy(&status, (const unsigned char *)h + NLMSG_HDRLEN, sizeof(status));
	if (status > 0 || status < -4095)
		return -1;
	*errnum = -status;
	return 0;
}

int ct_rtnl_parse_link(const struct nlmsghdr *h, uint32_t *ifindex, char name[IFNAMSIZ])
{
	struct ifinfomsg ifi;
	const struct nlattr *tb[ATTR_MAX];
	if (h->nlmsg_type != RTM_NEWLINK || !message_attrs(h, sizeof(ifi), tb) ||
	    !tb[IFLA_IFNAME])
		return -1;
	memcpy(&ifi, (const unsigned char *)h + NLMSG_HDRLEN, sizeof(ifi));
	if (ifi.ifi_index <= 0)
		return -1;
	const char *s = attr_data(tb[IFLA_IFNAME]);
	size_t n = strnlen(s, attr_len(tb[IFLA_IFNAME]));
	if (n == 0 || n >= IFNAMSIZ)
		return -1;
	memcpy(name, s, n);
	name[n] = '\0';
	*ifindex = (uint32_t)ifi.ifi_index;
	return 0;
}

/* An address attribute of the family's size into out. */
static bool take_address(const struct nlattr *a, unsigned size, uint8_t *out, bool *has)
{
	if (!a)
		return true;
	if (attr_len(a) != size)
		return false;
	memcpy(out, attr_data(a), size);
	*has = true;
	return true;
}

int ct_rtnl_parse_addr(const struct nlmsghdr *h, struct ct_netaddr *a)
{
	struct ifaddrmsg ifa;
	const struct nlattr *tb[ATTR_MAX];
	memset(a, 0, sizeof(*a));
	if (h->nlmsg_type != RTM_NEWADDR || !message_attrs(h, sizeof(ifa), tb))
		return -1;
	memcpy(&ifa, (const unsigned char *)h + NLMSG_HDRLEN, sizeof(ifa));
	unsigned size = ct_netaddr_size(ifa.ifa_family);
	if (!size)
		return -1;
	*a = (struct ct_netaddr){.family = ifa.ifa_family,
				 .prefixlen = ifa.ifa_prefixlen,
				 .scope = ifa.ifa_scope,
				 .flags = ifa.ifa_flags,
				 .ifindex = ifa.ifa_index};
	if (a->prefixlen > size * 8)
		return -1;
	if (tb[IFA_FLAGS]) {
		if (attr_len(tb[IFA_FLAGS]) != sizeof(uint32_t))
			return -1;
		memcpy(&a->flags, attr_data(tb[IFA_FLAGS]), sizeof(uint32_t));
	}
	bool ok = take_address(tb[IFA_LOCAL], size, a->local, &a->has_local) &&
		  take_address(tb[IFA_ADDRESS], size, a->address, &a->has_address) &&
		  (size != 4 || take_address(tb[IFA_BROADCAST], 4, a->broadcast, &a->has_broadcast));
	return ok && (a->has_local || a->has_address) ? 0 : -1;
}

bool ct_netaddr_is_kept(const struct ct_netaddr *a)
{
	return (a->flags & IFA_F_PERMANENT) && a->scope == RT_SCOPE_UNIVERSE;
}
