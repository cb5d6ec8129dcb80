/* D-Bus server addresses ("unix:path=/run/dbus/system_bus_socket;unix:abstract=x,guid=..."):
 * which bus to connect to and where its socket is. */
#ifndef CT_DBUS_ADDRESS_H
#define CT_DBUS_ADDRESS_H

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "libct/base/error.h"

#define CT_DBUS_SYSTEM_BUS_DEFAULT "unix:path=/run/dbus/system_bus_socket"

/* The first address of the list that ctrun can connect to, a unix socket by path= or
 * abstract= (percent escapes decoded), as a sockaddr (*len its length). Other transports
 * are passed over; none usable fails naming the list (EAFNOSUPPORT). Pure. */
int ct_dbus_address_parse(const char *list, struct sockaddr_un *sa, socklen_t *len,
			  struct ct_error *err);

/* The address of the system bus (DBUS_SYSTEM_BUS_ADDRESS, else the default) or of the
 * calling user's bus (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus), malloc'ed. */
int ct_dbus_bus_address(bool user_bus, char **out, struct ct_error *err);

#endif
