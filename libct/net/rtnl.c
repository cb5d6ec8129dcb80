/* rtnetlink requests sent and their replies read (libct/net/rtnl.h). */
#include "libct/net/rtnl.h"

#include <errno.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "libct/net/rtnl_reply.h"
#include "libct/net/rtnl_req.h"

#define REPLY_BYTES 32768 /* a dump's part fits in a page or two; room to spare */

int ct_rtnl_open(struct ct_error *err)
{
	int sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (sock < 0)
		return ct_error_sys(err, errno, "open an rtnetlink socket");
	return sock;
}

int ct_rtnl_kernel_only(int sock, struct ct_error *err)
{
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	if (connect(sock, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return ct_error_sys(err, errno, "connect an rtnetlink socket to the kernel");
	return 0;
}

void ct_rtnl_ask_messages(int sock)
{
	int one = 1;
	(void)setsockopt(sock, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(sock, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
}

static int send_request(int sock, struct ct_nlmsg *m, uint32_t seq, const char *what,
			struct ct_error *err)
{
	if (m->overflow)
		return ct_error_plain(err, EMSGSIZE, "%s: request too long", what);
	((struct nlmsghdr *)m->buf)->nlmsg_seq = seq;
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	ssize_t n;
	do
		n = sendto(sock, m->buf, m->len, 0, (struct sockaddr *)&kernel, sizeof(kernel));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return ct_error_sys(err, errno, "%s: send", what);
	return 0;
}

static int refused(int errnum, const char *text, const char *what, struct ct_error *err)
{
	if (*text)
		return ct_error_plain(err, errnum, "%s: %s (%s)", what, strerror(errnum), text);
	return ct_error_sys(err, errnum, "%s", what);
}

/* One message of the reply: 1 when it ends the reply, 0 when more come, -1 on error. */
static int take_message(const struct nlmsghdr *h, ct_rtnl_each_fn each, void *arg,
			const char *what, struct ct_error *err)
{
	if (h->nlmsg_flags & NLM_F_DUMP_INTR) /* what changed meanwhile may be missing */
		return ct_error_plain(err, EAGAIN, "%s: the dump was interrupted by a change", what);
	if (h->nlmsg_type == NLMSG_DONE) {
		int errnum;
		if (ct_rtnl_parse_done(h, &errnum) < 0)
			return ct_error_plain(err, EPROTO, "%s: malformed netlink done", what);
		return errnum ? ct_error_sys(err, errnum, "%s: the dump failed", what) : 1;
	}
	if (h->nlmsg_type == NLMSG_ERROR) {
		int errnum;
		char text[256];
		if (ct_rtnl_parse_error(h, &errnum, text, sizeof(text)) < 0)
			return ct_error_plain(err, EPROTO, "%s: malformed netlink error", what);
		return errnum ? refused(errnum, text, what, err) : 1;
	}
	if (!each)
		return ct_error_plain(err, EPROTO, "%s: unexpected netlink message %u", what,
				      h->nlmsg_type);
	if (each(h, arg, err) < 0)
		return -1;
	/* a reply that is not a dump is one message */
	return (h->nlmsg_flags & NLM_F_MULTI) ? 0 : 1;
}

/* The reply's messages of sequence seq, until one ends it; others' are passed over. */
static int read_reply(int sock, uint32_t seq, ct_rtnl_each_fn each, void *arg, const char *what,
		      struct ct_error *err)
{
	uint32_t buf[REPLY_BYTES / sizeof(uint32_t)];
	for (;;) {
		ssize_t n = recv(sock, buf, sizeof(buf), MSG_TRUNC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ct_error_sys(err, errno, "%s: receive", what);
		if ((size_t)n > sizeof(buf))
			return ct_error_plain(err, EMSGSIZE, "%s: reply too long", what);
		size_t off = 0;
		bool bad;
		const struct nlmsghdr *h;
		while ((h = ct_rtnl_next(buf, (size_t)n, &off, &bad))) {
			int rc = h->nlmsg_seq == seq ? take_message(h, each, arg, what, err) : 0;
			if (rc != 0)
				return rc < 0 ? -1 : 0;
		}
		if (bad || n == 0)
			return ct_error_plain(err, EPROTO, "%s: malformed netlink reply", what);
	}
}

int ct_rtnl_call(int sock, struct ct_nlmsg *m, ct_rtnl_each_fn each, void *arg,
		 const char *what, struct ct_error *err)
{
	static uint32_t last_seq;
	uint32_t seq = ++last_seq;
	if (send_request(sock, m, seq, what, err) < 0)
		return -1;
	return read_reply(sock, seq, each, arg, what, err);
}

struct link_reply {
	uint32_t ifindex;
	char name[IFNAMSIZ];
};

static int take_link(const struct nlmsghdr *h, void *arg, struct ct_error *err)
{
	struct link_reply *r = arg;
	if (ct_rtnl_parse_link(h, &r->ifindex, r->name) < 0)
		return ct_error_plain(err, EPROTO, "malformed link message");
	return 0;
}

/* The one link the request m asks for, into r. */
static int look_up(int sock, struct ct_nlmsg *m, struct link_reply *r, struct ct_error *err)
{
	*r = (struct link_reply){0};
	if (ct_rtnl_call(sock, m, take_link, r, "look the device up", err) < 0)
		return -1;
	if (!r->ifindex)
		return ct_error_plain(err, EPROTO, "look the device up: no link in the reply");
	return 0;
}

int ct_rtnl_link_by_name(int sock, const char *name, uint32_t *ifindex, struct ct_error *err)
{
	struct ct_nlmsg m;
	struct link_reply r;
	ct_rtnl_req_link_by_name(&m, name);
	if (look_up(sock, &m, &r, err) < 0)
		return -1;
	*ifindex = r.ifindex;
	return 0;
}

int ct_rtnl_link_by_index(int sock, uint32_t ifindex, char name[IFNAMSIZ], struct ct_error *err)
{
	struct ct_nlmsg m;
	struct link_reply r;
	ct_rtnl_req_link_by_index(&m, ifindex);
	if (look_up(sock, &m, &r, err) < 0)
		return -1;
	memcpy(name, r.name, IFNAMSIZ);
	return 0;
}
