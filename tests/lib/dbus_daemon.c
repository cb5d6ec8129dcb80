/* A private D-Bus daemon for tests (tests/lib/dbus_daemon.h). */
#include "tests/lib/dbus_daemon.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tests/lib/testlib.h"

void ctt_dbus_daemon_start(struct ctt_dbus_daemon *d)
{
	char *daemon = ctt_which("dbus-daemon");
	if (!daemon)
		ctt_skip("dbus-daemon is not installed (apt-get install dbus; `make deps` does)");
	d->dir = ctt_tmpdir();
	cr_assert(asprintf(&d->address, "unix:path=%s/bus", d->dir) > 0);
	char *arg;
	cr_assert(asprintf(&arg, "--address=%s", d->address) > 0);
	struct ctt_result r;
	ctt_run(&r, NULL,
		(const char *const[]){daemon, "--session", arg, "--fork", "--print-pid",
				      "--nopidfile", NULL});
	cr_assert_eq(r.status, 0, "dbus-daemon: %s", r.err);
	d->pid = (pid_t)atoi(r.out);
	cr_assert_gt(d->pid, 0, "dbus-daemon printed no pid: %s", r.out);
	ctt_result_free(&r);
	free(arg);
	free(daemon);
}

void ctt_dbus_daemon_stop(struct ctt_dbus_daemon *d)
{
	if (d->pid > 0)
		kill(d->pid, SIGTERM);
	d->pid = 0;
	free(d->address);
	free(d->dir);
	d->address = d->dir = NULL;
}
