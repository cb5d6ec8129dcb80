/* libct/net: the rtnetlink requests built byte for byte as the kernel reads them, and its
 * replies read back, malformed ones refused. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "libct/net/nlmsg.h"
#include "libct/net/rtnl_reply.h"
#include "libct/net/rtnl_req.h"

static const struct nlmsghdr *header(const struct ct_nlmsg *m)
{
	return (const struct nlmsghdr *)m->buf;
}

/* The attribute of type after a fixed header of body bytes, or NULL. */
static const struct nlattr *find_attr(const struct ct_nlmsg *m, size_t body, uint16_t type)
{
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(body);
	while (off + NLA_HDRLEN <= m->len) {
		const struct nlattr *a = (const void *)(m->buf + off);
		cr_assert_geq(a->nla_len, NLA_HDRLEN);
		if (a->nla_type == type)
			return a;
		off += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static void assert_u32_attr(const struct ct_nlmsg *m, size_t body, uint16_t type, uint32_t want)
{
	const struct nlattr *a = find_attr(m, body, type);
	cr_assert_not_null(a, "attribute %u missing", type);
	cr_assert_eq(a->nla_len, NLA_HDRLEN + 4);
	uint32_t v;
	memcpy(&v, (const char *)a + NLA_HDRLEN, 4);
	cr_expect_eq(v, want);
}

static void assert_str_attr(const struct ct_nlmsg *m, size_t body, uint16_t type,
			    const char *want)
{
	const struct nlattr *a = find_attr(m, body, type);
	cr_assert_not_null(a, "attribute %u missing", type);
	cr_assert_eq(a->nla_len, NLA_HDRLEN + strlen(want) + 1, "with its NUL");
	cr_expect_str_eq((const char *)a + NLA_HDRLEN, want);
}

Test(nlmsg, header_body_and_padding)
{
	struct ct_nlmsg m;
	struct ifinfomsg ifi = {.ifi_index = 7};
	ct_nlmsg_init(&m, RTM_GETLINK, NLM_F_ACK, &ifi, sizeof(ifi));
	ct_nlmsg_put_str(&m, IFLA_IFNAME, "ab");
	cr_assert_not(m.overflow);
	cr_expect_eq(header(&m)->nlmsg_len, m.len);
	cr_expect_eq(m.len, NLMSG_HDRLEN + sizeof(ifi) + NLA_ALIGN(NLA_HDRLEN + 3));
	cr_expect_eq(header(&m)->nlmsg_flags, NLM_F_ACK | NLM_F_REQUEST);
	cr_expect_eq(((struct ifinfomsg *)ct_nlmsg_body(&m))->ifi_index, 7);
}

Test(nlmsg, overflow_is_marked_not_written)
{
	struct ct_nlmsg m;
	char big[CT_NLMSG_MAX];
	memset(big, 'x', sizeof(big));
	ct_nlmsg_init(&m, RTM_GETLINK, 0, NULL, 0);
	size_t before = m.len;
	ct_nlmsg_put(&m, IFLA_IFNAME, big, sizeof(big));
	cr_expect(m.overflow);
	cr_expect_eq(m.len, before);
}

Test(rtnl_req, move_names_namespace_index_and_name)
{
	struct ct_nlmsg m;
	ct_rtnl_req_move(&m, 5, 9, 6, "ctr%d");
	cr_assert_not(m.overflow);
	cr_expect_eq(header(&m)->nlmsg_type, RTM_NEWLINK);
	cr_expect(header(&m)->nlmsg_flags & NLM_F_ACK);
	cr_expect_eq(((struct ifinfomsg *)ct_nlmsg_body(&m))->ifi_index, 5);
	assert_u32_attr(&m, sizeof(struct ifinfomsg), IFLA_NET_NS_FD, 9);
	assert_u32_attr(&m, sizeof(struct ifinfomsg), IFLA_NEW_IFINDEX, 6);
	assert_str_attr(&m, sizeof(struct ifinfomsg), IFLA_IFNAME, "ctr%d");
}

Test(rtnl_req, link_up_changes_only_up)
{
	struct ct_nlmsg m;
	ct_rtnl_req_link_up(&m, 3);
	const struct ifinfomsg *ifi = ct_nlmsg_body(&m);
	cr_expect_eq(ifi->ifi_index, 3);
	cr_expect_eq(ifi->ifi_flags, IFF_UP);
	cr_expect_eq(ifi->ifi_change, IFF_UP);
}

Test(rtnl_req, lookups)
{
	struct ct_nlmsg m;
	ct_rtnl_req_link_by_name(&m, "eth0");
	cr_expect_eq(header(&m)->nlmsg_type, RTM_GETLINK);
	assert_str_attr(&m, sizeof(struct ifinfomsg), IFLA_IFNAME, "eth0");
	ct_rtnl_req_link_by_index(&m, 12);
	cr_expect_eq(((struct ifinfomsg *)ct_nlmsg_body(&m))->ifi_index, 12);
	ct_rtnl_req_addr_dump(&m);
	cr_expect_eq(header(&m)->nlmsg_type, RTM_GETADDR);
	cr_expect_eq(header(&m)->nlmsg_flags & NLM_F_DUMP, NLM_F_DUMP);
}

static struct ct_netaddr ipv4(void)
{
	struct ct_netaddr a = {.family = AF_INET,
			       .prefixlen = 24,
			       .flags = IFA_F_PERMANENT | IFA_F_NOPREFIXROUTE,
			       .has_local = true,
			       .has_address = true,
			       .has_broadcast = true};
	inet_pton(AF_INET, "192.0.2.5", a.local);
	inet_pton(AF_INET, "192.0.2.5", a.address);
	inet_pton(AF_INET, "192.0.2.255", a.broadcast);
	return a;
}

Test(rtnl_req, address_with_prefix_broadcast_and_kept_flags)
{
	struct ct_nlmsg m;
	struct ct_netaddr a = ipv4();
	ct_rtnl_req_addr_add(&m, 4, &a);
	const struct ifaddrmsg *ifa = ct_nlmsg_body(&m);
	cr_expect_eq(header(&m)->nlmsg_type, RTM_NEWADDR);
	cr_expect_eq(ifa->ifa_index, 4);
	cr_expect_eq(ifa->ifa_prefixlen, 24);
	cr_expect_eq(ifa->ifa_family, AF_INET);
	/* IFA_F_NOPREFIXROUTE is above the byte: in IFA_FLAGS; PERMANENT is the kernel's */
	assert_u32_attr(&m, sizeof(*ifa), IFA_FLAGS, IFA_F_NOPREFIXROUTE);
	const struct nlattr *brd = find_attr(&m, sizeof(*ifa), IFA_BROADCAST);
	cr_assert_not_null(brd);
	cr_expect_eq(memcmp((const char *)brd + NLA_HDRLEN, a.broadcast, 4), 0);
	cr_expect_not_null(find_attr(&m, sizeof(*ifa), IFA_LOCAL));
}

/* A reply message built the way the kernel lays it out. */
static const struct nlmsghdr *addr_reply(struct ct_nlmsg *m, const struct ct_netaddr *a)
{
	ct_rtnl_req_addr_add(m, 4, a);
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	struct ifaddrmsg *ifa = ct_nlmsg_body(m);
	ifa->ifa_flags = (uint8_t)a->flags;
	h->nlmsg_flags = NLM_F_MULTI;
	return h;
}

Test(rtnl_reply, address_read_back)
{
	struct ct_nlmsg m;
	struct ct_netaddr want = ipv4(), got;
	want.flags = IFA_F_PERMANENT;
	cr_assert_eq(ct_rtnl_parse_addr(addr_reply(&m, &want), &got), 0);
	cr_expect_eq(got.family, AF_INET);
	cr_expect_eq(got.prefixlen, 24);
	cr_expect_eq(got.ifindex, 4);
	cr_expect(got.has_local && got.has_address && got.has_broadcast);
	cr_expect_eq(memcmp(got.local, want.local, 4), 0);
	cr_expect(ct_netaddr_is_kept(&got));
	got.scope = RT_SCOPE_LINK;
	cr_expect_not(ct_netaddr_is_kept(&got), "a link-local address is not global");
	got.scope = RT_SCOPE_UNIVERSE;
	got.flags = 0;
	cr_expect_not(ct_netaddr_is_kept(&got), "a dynamic address is not permanent");
}

Test(rtnl_reply, address_of_wrong_size_refused)
{
	struct ct_nlmsg m;
	struct ct_netaddr a = ipv4(), got;
	addr_reply(&m, &a);
	((struct ifaddrmsg *)ct_nlmsg_body(&m))->ifa_family = AF_INET6; /* 4 bytes where 16 go */
	cr_expect_eq(ct_rtnl_parse_addr(header(&m), &got), -1);
	a = ipv4();
	a.prefixlen = 33;
	cr_expect_eq(ct_rtnl_parse_addr(addr_reply(&m, &a), &got), -1);
}

Test(rtnl_reply, link_read_back)
{
	struct ct_nlmsg m;
	uint32_t index;
	char name[IFNAMSIZ];
	ct_rtnl_req_link_by_name(&m, "ctr0");
	((struct nlmsghdr *)m.buf)->nlmsg_type = RTM_NEWLINK;
	((struct ifinfomsg *)ct_nlmsg_body(&m))->ifi_index = 9;
	cr_assert_eq(ct_rtnl_parse_link(header(&m), &index, name), 0);
	cr_expect_eq(index, 9);
	cr_expect_str_eq(name, "ctr0");
}

/* An error with a message (NLMSGERR_ATTR_MSG) after the capped request header. */
static size_t error_reply(unsigned char *buf, int errnum, const char *text)
{
	struct nlmsghdr *h = (void *)buf;
	struct nlmsgerr e = {.error = -errnum, .msg = {.nlmsg_len = 40}};
	size_t off = NLMSG_HDRLEN;
	memcpy(buf + off, &e, sizeof(e));
	off += sizeof(e);
	struct nlattr a = {.nla_len = (uint16_t)(NLA_HDRLEN + strlen(text) + 1),
			   .nla_type = NLMSGERR_ATTR_MSG};
	memcpy(buf + off, &a, sizeof(a));
	memcpy(buf + off + NLA_HDRLEN, text, strlen(text) + 1);
	off += NLA_ALIGN(a.nla_len);
	*h = (struct nlmsghdr){.nlmsg_len = (uint32_t)off,
			       .nlmsg_type = NLMSG_ERROR,
			       .nlmsg_flags = NLM_F_CAPPED | NLM_F_ACK_TLVS};
	return off;
}

Test(rtnl_reply, error_with_its_message)
{
	_Alignas(4) unsigned char buf[256] = {0};
	size_t len = error_reply(buf, 17, "Name \x01taken");
	size_t off = 0;
	bool bad;
	const struct nlmsghdr *h = ct_rtnl_next(buf, len, &off, &bad);
	cr_assert_not_null(h);
	int errnum;
	char text[64];
	cr_assert_eq(ct_rtnl_parse_error(h, &errnum, text, sizeof(text)), 0);
	cr_expect_eq(errnum, 17);
	cr_expect_str_eq(text, "Name ?taken", "control bytes shown as '?'");
	cr_expect_null(ct_rtnl_next(buf, len, &off, &bad));
	cr_expect_not(bad);
}

Test(rtnl_reply, short_and_lying_messages_refused)
{
	_Alignas(4) unsigned char buf[256] = {0};
	size_t len = error_reply(buf, 17, "x");
	size_t off = 0;
	bool bad;
	cr_expect_null(ct_rtnl_next(buf, len - 1, &off, &bad), "cut short");
	cr_expect(bad);
	((struct nlmsghdr *)buf)->nlmsg_len = 8;
	off = 0;
	cr_expect_null(ct_rtnl_next(buf, len, &off, &bad), "shorter than its header");
	cr_expect(bad);
	/* the attribute says it runs past the message */
	len = error_reply(buf, 17, "x");
	((struct nlattr *)(buf + NLMSG_HDRLEN + sizeof(struct nlmsgerr)))->nla_len = 200;
	int errnum;
	char text[64];
	cr_assert_eq(ct_rtnl_parse_error((const void *)buf, &errnum, text, sizeof(text)), 0);
	cr_expect_eq(errnum, 17, "the errno stands");
	cr_expect_str_eq(text, "", "the message does not");
}

/* NLMSG_DONE with the status the kernel's dump ended on. */
static const struct nlmsghdr *done_reply(unsigned char *buf, int32_t status, size_t len)
{
	struct nlmsghdr *h = (void *)buf;
	*h = (struct nlmsghdr){.nlmsg_len = (uint32_t)len, .nlmsg_type = NLMSG_DONE,
			       .nlmsg_flags = NLM_F_MULTI};
	memcpy(buf + NLMSG_HDRLEN, &status, sizeof(status));
	return h;
}

Test(rtnl_reply, dump_end_carries_its_error)
{
	_Alignas(4) unsigned char buf[64] = {0};
	int errnum = -1;
	cr_assert_eq(ct_rtnl_parse_done(done_reply(buf, 0, NLMSG_HDRLEN + 4), &errnum), 0);
	cr_expect_eq(errnum, 0, "a dump that ended well");
	cr_assert_eq(ct_rtnl_parse_done(done_reply(buf, -EMSGSIZE, NLMSG_HDRLEN + 4), &errnum), 0);
	cr_expect_eq(errnum, EMSGSIZE, "a dump cut short is not taken for whole");
	cr_assert_eq(ct_rtnl_parse_done(done_reply(buf, 0, NLMSG_HDRLEN), &errnum), 0);
	cr_expect_eq(errnum, 0, "no status: ended well");
	cr_expect_eq(ct_rtnl_parse_done(done_reply(buf, 5, NLMSG_HDRLEN + 4), &errnum), -1);
	struct nlmsghdr *h = (void *)buf;
	h->nlmsg_type = NLMSG_ERROR;
	cr_expect_eq(ct_rtnl_parse_done(h, &errnum), -1, "not a done");
}
