/* A private D-Bus daemon for tests (the real dbus-daemon, with a session bus's policy, on a
 * socket in a temporary directory): what the D-Bus client and the systemd driver are tested
 * against on a machine without systemd. */
#ifndef CTT_DBUS_DAEMON_H
#define CTT_DBUS_DAEMON_H

#include <sys/types.h>

struct ctt_dbus_daemon {
	pid_t pid;
	char *dir;     /* its temporary directory */
	char *address; /* "unix:path=DIR/bus" */
};

/* Starts one; skips the test (saying why) when dbus-daemon is not installed. */
void ctt_dbus_daemon_start(struct ctt_dbus_daemon *d);
/* Kills it (by its pid) and frees d's strings. */
void ctt_dbus_daemon_stop(struct ctt_dbus_daemon *d);

#endif
