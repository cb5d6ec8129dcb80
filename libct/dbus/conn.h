/* A D-Bus connection of ctrun's own (it is a static binary: no libdbus, no sd-bus): a unix
 * socket to a bus, the EXTERNAL authentication with the caller's uid, Hello, method calls
 * with their replies, and the signals that arrive meanwhile, handed to a callback. One
 * thread, blocking I/O bounded by a deadline per call. */
#ifndef CT_DBUS_CONN_H
#define CT_DBUS_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/dbus/message.h"
#include "libct/dbus/writer.h"

#define CT_DBUS_ERROR_NAME_MAX 256
#define CT_DBUS_READ_MAX       (8u << 20) /* larger messages are refused: none is expected */

struct ct_dbus_conn;

/* A signal that arrived while waiting (a reply or ct_dbus_wait); m is valid for the call. */
typedef void (*ct_dbus_signal_fn)(const struct ct_dbus_msg *m, void *ctx);

struct ct_dbus_conn {
	int fd;
	uint32_t serial;   /* the last one sent */
	char *unique_name; /* from Hello: ":1.42" */
	uint8_t *in;	   /* bytes read past the last message */
	size_t in_len, in_cap;
	/* the name of the last error reply ("org.freedesktop.systemd1.UnitExists"), "" */
	char error_name[CT_DBUS_ERROR_NAME_MAX];
	ct_dbus_signal_fn on_signal;
	void *signal_ctx;
};

/* A received message: msg's strings point into buf, which it owns. */
struct ct_dbus_reply {
	uint8_t *buf;
	struct ct_dbus_msg msg;
};

/* Connects to the bus at address (libct/dbus/address.h), authenticates and says Hello.
 * On failure c holds nothing (no fd). */
int ct_dbus_open(struct ct_dbus_conn *c, const char *address, int timeout_ms, struct ct_error *err);
/* The same for the system bus, or the caller's own bus when user_bus. */
int ct_dbus_open_bus(struct ct_dbus_conn *c, bool user_bus, int timeout_ms, struct ct_error *err);
void ct_dbus_close(struct ct_dbus_conn *c);

/* Sends the method call `call` (destination, path, interface, member, signature; the
 * serial is the connection's) with body (NULL for none) and waits at most timeout_ms for
 * its reply, handing the signals that come first to on_signal. An error reply fails with
 * its message as systemd or the bus wrote it (the first string of its body, else its
 * name), errnum EREMOTEIO, its name in c->error_name. reply may be NULL (the reply is
 * dropped); else free it with ct_dbus_reply_free. */
int ct_dbus_call(struct ct_dbus_conn *c, const struct ct_dbus_msg *call,
		 const struct ct_dbus_writer *body, int timeout_ms, struct ct_dbus_reply *reply,
		 struct ct_error *err);
void ct_dbus_reply_free(struct ct_dbus_reply *r);

/* Reads messages, handing signals to on_signal, until done(ctx) says so (checked first)
 * or timeout_ms pass (ETIMEDOUT). */
int ct_dbus_wait(struct ct_dbus_conn *c, bool (*done)(void *ctx), void *ctx, int timeout_ms,
		 struct ct_error *err);

/* A match rule added to the bus (org.freedesktop.DBus.AddMatch), e.g.
 * "type='signal',interface='org.freedesktop.systemd1.Manager',member='JobRemoved'". */
int ct_dbus_add_match(struct ct_dbus_conn *c, const char *rule, int timeout_ms,
		      struct ct_error *err);

/* Whether the last call failed with the error reply of that name. */
bool ct_dbus_failed_with(const struct ct_dbus_conn *c, const char *error_name);

#endif
