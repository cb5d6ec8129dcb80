/* A D-Bus connection (libct/dbus/conn.h). */
#include "libct/dbus/conn.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/dbus/address.h"

#define AUTH_LINE_MAX 512

static const char bus_name[] = "org.freedesktop.DBus";
static const char bus_path[] = "/org/freedesktop/DBus";

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits until fd is ready for events or the deadline passes (ETIMEDOUT). */
static int wait_ready(int fd, short events, int64_t deadline, struct ct_error *err)
{
	for (;;) {
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return ct_error_plain(err, ETIMEDOUT,
					      "D-Bus: no answer from the bus in time");
		struct pollfd p = {.fd = fd, .events = events};
		int n = poll(&p, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return ct_error_sys(err, errno, "D-Bus: poll");
	}
}

static int send_all(struct ct_dbus_conn *c, const void *data, size_t len, int64_t deadline,
		    struct ct_error *err)
{
	const uint8_t *p = data;
	while (len) {
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_ready(c->fd, POLLOUT, deadline, err) < 0)
				return -1;
			continue;
		}
		if (n < 0)
			return ct_error_sys(err, errno, "D-Bus: write to the bus");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Reads more bytes into c->in (at least one). */
static int fill(struct ct_dbus_conn *c, size_t want, int64_t deadline, struct ct_error *err)
{
	if (want <= c->in_len)
		want = c->in_len + 4096;
	if (want > c->in_cap) {
		uint8_t *grown = realloc(c->in, want);
		if (!grown)
			return ct_error_sys(err, ENOMEM, "D-Bus: read");
		c->in = grown;
		c->in_cap = want;
	}
	for (;;) {
		ssize_t n = recv(c->fd, c->in + c->in_len, c->in_cap - c->in_len, MSG_DONTWAIT);
		if (n > 0) {
			c->in_len += (size_t)n;
			return 0;
		}
		if (n == 0)
			return ct_error_plain(err, ECONNRESET,
					      "D-Bus: the bus closed the connection");
		if (errno != EAGAIN && errno != EINTR)
			return ct_error_sys(err, errno, "D-Bus: read from the bus");
		if (wait_ready(c->fd, POLLIN, deadline, err) < 0)
			return -1;
	}
}

/* Takes the first n bytes of c->in out as a buffer of their own. */
static uint8_t *take(struct ct_dbus_conn *c, size_t n)
{
	uint8_t *out = malloc(n ? n : 1);
	if (!out)
		return NULL;
	memcpy(out, c->in, n);
	memmove(c->in, c->in + n, c->in_len - n);
	c->in_len -= n;
	return out;
}

/* The next whole message from the bus, checked (libct/dbus/message.h). */
static int read_message(struct ct_dbus_conn *c, struct ct_dbus_reply *r, int64_t deadline,
			struct ct_error *err)
{
	size_t size = CT_DBUS_FIXED_HEADER;
	while (c->in_len < CT_DBUS_FIXED_HEADER)
		if (fill(c, 4096, deadline, err) < 0)
			return -1;
	if (ct_dbus_message_size(c->in, &size, err) < 0)
		return -1;
	if (size > CT_DBUS_READ_MAX)
		return ct_error_plain(err, EMSGSIZE, "D-Bus: a message of %zu bytes from the bus",
				      size);
	while (c->in_len < size)
		if (fill(c, size > 4096 ? size : 4096, deadline, err) < 0)
			return -1;
	if (!(r->buf = take(c, size)))
		return ct_error_sys(err, ENOMEM, "D-Bus: read");
	if (ct_dbus_message_parse(r->buf, size, &r->msg, err) < 0) {
		ct_dbus_reply_free(r);
		return -1;
	}
	return 0;
}

void ct_dbus_reply_free(struct ct_dbus_reply *r)
{
	free(r->buf);
	r->buf = NULL;
}

static int send_call(struct ct_dbus_conn *c, const struct ct_dbus_msg *call,
		     const struct ct_dbus_writer *body, uint32_t *serial, int64_t deadline,
		     struct ct_error *err)
{
	struct ct_dbus_msg m = *call;
	struct ct_dbus_writer out;
	m.type = CT_DBUS_METHOD_CALL;
	m.serial = *serial = ++c->serial;
	if (ct_dbus_message_build(&m, body, &out, err) < 0)
		return -1;
	int rc = send_all(c, out.buf, out.len, deadline, err);
	ct_dbus_writer_free(&out);
	return rc;
}

/* An error reply as the user reads it: its message verbatim. */
static int remote_error(struct ct_dbus_conn *c, const struct ct_dbus_msg *m, struct ct_error *err)
{
	snprintf(c->error_name, sizeof(c->error_name), "%s", m->error_name);
	struct ct_dbus_iter it;
	union ct_dbus_value text;
	ct_dbus_iter_body(&it, m);
	if (ct_dbus_iter_type(&it) == 's' && ct_dbus_iter_get(&it, 's', &text, err) == 0)
		return ct_error_plain(err, EREMOTEIO, "%s", text.s);
	return ct_error_plain(err, EREMOTEIO, "%s", m->error_name);
}

/* A message that is not the reply waited for: signals go to the callback, the rest
 * (replies to calls given up, calls to ctrun) is dropped. */
static void dispatch(struct ct_dbus_conn *c, const struct ct_dbus_msg *m)
{
	if (m->type == CT_DBUS_SIGNAL && c->on_signal)
		c->on_signal(m, c->signal_ctx);
}

int ct_dbus_call(struct ct_dbus_conn *c, const struct ct_dbus_msg *call,
		 const struct ct_dbus_writer *body, int timeout_ms, struct ct_dbus_reply *reply,
		 struct ct_error *err)
{
	int64_t deadline = now_ms() + timeout_ms;
	uint32_t serial;
	c->error_name[0] = '\0';
	if (send_call(c, call, body, &serial, deadline, err) < 0)
		return -1;
	for (;;) {
		struct ct_dbus_reply r;
		if (read_message(c, &r, deadline, err) < 0)
			return ct_error_prefix(err, "%s.%s", call->interface, call->member);
		const struct ct_dbus_msg *m = &r.msg;
		bool ours = (m->type == CT_DBUS_METHOD_RETURN || m->type == CT_DBUS_ERROR) &&
			    m->reply_serial == serial;
		if (!ours) {
			dispatch(c, m);
			ct_dbus_reply_free(&r);
			continue;
		}
		int rc = m->type == CT_DBUS_ERROR ? remote_error(c, m, err) : 0;
		if (rc == 0 && reply)
			*reply = r;
		else
			ct_dbus_reply_free(&r);
		return rc;
	}
}

int ct_dbus_wait(struct ct_dbus_conn *c, bool (*done)(void *ctx), void *ctx, int timeout_ms,
		 struct ct_error *err)
{
	int64_t deadline = now_ms() + timeout_ms;
	while (!done(ctx)) {
		struct ct_dbus_reply r;
		if (read_message(c, &r, deadline, err) < 0)
			return -1;
		dispatch(c, &r.msg);
		ct_dbus_reply_free(&r);
	}
	return 0;
}

bool ct_dbus_failed_with(const struct ct_dbus_conn *c, const char *error_name)
{
	return strcmp(c->error_name, error_name) == 0;
}

int ct_dbus_add_match(struct ct_dbus_conn *c, const char *rule, int timeout_ms,
		      struct ct_error *err)
{
	struct ct_dbus_msg call = {.destination = bus_name,
				   .path = bus_path,
				   .interface = bus_name,
				   .member = "AddMatch",
				   .signature = "s"};
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, rule);
	int rc = ct_dbus_call(c, &call, &body, timeout_ms, NULL, err);
	ct_dbus_writer_free(&body);
	return rc;
}

/* One line of the authentication dialogue ("OK <guid>\r\n"), without its CR LF. */
static int read_auth_line(struct ct_dbus_conn *c, char *line, int64_t deadline,
			  struct ct_error *err)
{
	for (;;) {
		uint8_t *nl = memchr(c->in, '\n', c->in_len);
		if (nl) {
			size_t n = (size_t)(nl - c->in) + 1;
			if (n < 2 || nl[-1] != '\r')
				return ct_error_plain(err, EPROTO,
						      "D-Bus: a line of the "
						      "authentication not ended by CR LF");
			memcpy(line, c->in, n - 2);
			line[n - 2] = '\0';
			memmove(c->in, c->in + n, c->in_len - n);
			c->in_len -= n;
			return 0;
		}
		if (c->in_len >= AUTH_LINE_MAX)
			return ct_error_plain(err, EPROTO, "D-Bus: authentication line too long");
		if (fill(c, AUTH_LINE_MAX, deadline, err) < 0)
			return -1;
	}
}

/* The SASL EXTERNAL mechanism with no identity claimed: the bus answers DATA, the empty DATA
 * line lets it take who we are from the socket's credentials. Claiming geteuid() would fail in
 * a user namespace, where our uid 0 is another uid at the bus's end. */
static int authenticate(struct ct_dbus_conn *c, int64_t deadline, struct ct_error *err)
{
	static const char auth[] = "\0AUTH EXTERNAL\r\n";
	char line[AUTH_LINE_MAX];
	if (send_all(c, auth, sizeof(auth) - 1, deadline, err) < 0 ||
	    read_auth_line(c, line, deadline, err) < 0)
		return ct_error_prefix(err, "D-Bus authentication");
	if (strcmp(line, "DATA") == 0 && (send_all(c, "DATA\r\n", 6, deadline, err) < 0 ||
					  read_auth_line(c, line, deadline, err) < 0))
		return ct_error_prefix(err, "D-Bus authentication");
	if (strncmp(line, "OK ", 3) != 0)
		return ct_error_plain(
			err, EACCES,
			"D-Bus authentication as the socket's uid %u refused: the bus said "
			"\"%s\"",
			(unsigned)geteuid(), line);
	return send_all(c, "BEGIN\r\n", 7, deadline, err);
}

static int hello(struct ct_dbus_conn *c, int timeout_ms, struct ct_error *err)
{
	struct ct_dbus_msg call = {.destination = bus_name,
				   .path = bus_path,
				   .interface = bus_name,
				   .member = "Hello"};
	struct ct_dbus_reply r;
	struct ct_dbus_iter it;
	union ct_dbus_value name;
	if (ct_dbus_call(c, &call, NULL, timeout_ms, &r, err) < 0)
		return -1;
	ct_dbus_iter_body(&it, &r.msg);
	int rc = ct_dbus_iter_get(&it, 's', &name, err);
	if (rc == 0 && !(c->unique_name = strdup(name.s)))
		rc = ct_error_sys(err, ENOMEM, "D-Bus Hello");
	ct_dbus_reply_free(&r);
	return rc;
}

static int connect_socket(struct ct_dbus_conn *c, const char *address, struct ct_error *err)
{
	struct sockaddr_un sa;
	socklen_t len;
	if (ct_dbus_address_parse(address, &sa, &len, err) < 0)
		return -1;
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return ct_error_sys(err, errno, "D-Bus: socket");
	if (connect(c->fd, (struct sockaddr *)&sa, len) < 0)
		return ct_error_sys(err, errno, "D-Bus: connect to the bus at \"%s\"", address);
	return 0;
}

int ct_dbus_open(struct ct_dbus_conn *c, const char *address, int timeout_ms, struct ct_error *err)
{
	*c = (struct ct_dbus_conn){.fd = -1};
	int64_t deadline = now_ms() + timeout_ms;
	if (connect_socket(c, address, err) < 0 || authenticate(c, deadline, err) < 0 ||
	    hello(c, timeout_ms, err) < 0) {
		ct_dbus_close(c);
		return -1;
	}
	return 0;
}

int ct_dbus_open_bus(struct ct_dbus_conn *c, bool user_bus, int timeout_ms, struct ct_error *err)
{
	_cleanup_free_ char *address = NULL;
	*c = (struct ct_dbus_conn){.fd = -1};
	if (ct_dbus_bus_address(user_bus, &address, err) < 0)
		return -1;
	return ct_dbus_open(c, address, timeout_ms, err);
}

void ct_dbus_close(struct ct_dbus_conn *c)
{
	ct_close_now(&c->fd);
	free(c->unique_name);
	free(c->in);
	c->unique_name = NULL;
	c->in = NULL;
	c->in_len = c->in_cap = 0;
}
