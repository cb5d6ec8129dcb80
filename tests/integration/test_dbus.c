/* libct/dbus against a real bus: a private dbus-daemon (tests/lib/dbus_daemon.h). The
 * connection, EXTERNAL authentication, Hello, method calls and their replies, an error
 * reply's message as the user reads it, and a signal received through a match rule. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/dbus/conn.h"
#include "tests/lib/dbus_daemon.h"
#include "tests/lib/testlib.h"

#define TIMEOUT_MS 10000

static struct ctt_dbus_daemon bus;

static void stop_bus(void)
{
	ctt_dbus_daemon_stop(&bus);
}

static void start_bus(void)
{
	ctt_dbus_daemon_start(&bus);
	ctt_cleanup_first(stop_bus);
}

static void fini(void)
{
	stop_bus();
	ctt_cleanup();
}

TestSuite(dbus, .fini = fini);

static void open_conn(struct ct_dbus_conn *c)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_dbus_open(c, bus.address, TIMEOUT_MS, &err), 0, "%s", err.msg);
}

static struct ct_dbus_msg bus_call(const char *member, const char *signature)
{
	return (struct ct_dbus_msg){.destination = "org.freedesktop.DBus",
				    .path = "/org/freedesktop/DBus",
				    .interface = "org.freedesktop.DBus",
				    .member = member,
				    .signature = signature};
}

/* org.freedesktop.DBus.GetNameOwner(name): 0 and the owner in owner, or -1 with err. */
static int get_name_owner(struct ct_dbus_conn *c, const char *name, char *owner, size_t size,
			  struct ct_error *err)
{
	struct ct_dbus_msg call = bus_call("GetNameOwner", "s");
	struct ct_dbus_writer body;
	struct ct_dbus_reply r;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, name);
	int rc = ct_dbus_call(c, &call, &body, TIMEOUT_MS, &r, err);
	ct_dbus_writer_free(&body);
	if (rc < 0)
		return -1;
	struct ct_dbus_iter it;
	union ct_dbus_value v;
	ct_dbus_iter_body(&it, &r.msg);
	cr_assert_eq(ct_dbus_iter_get(&it, 's', &v, err), 0, "%s", err->msg);
	snprintf(owner, size, "%s", v.s);
	ct_dbus_reply_free(&r);
	return 0;
}

Test(dbus, hello_gives_a_unique_name)
{
	start_bus();
	struct ct_dbus_conn c;
	open_conn(&c);
	cr_expect(ctt_matches(c.unique_name, "^:1\\.[0-9]+$"), "unique name %s", c.unique_name);
	ct_dbus_close(&c);
}

Test(dbus, a_method_call_returns_its_reply)
{
	start_bus();
	struct ct_dbus_conn c;
	struct ct_error err = {0};
	char owner[256];
	open_conn(&c);
	cr_assert_eq(get_name_owner(&c, "org.freedesktop.DBus", owner, sizeof(owner), &err), 0,
		     "%s", err.msg);
	cr_expect_str_eq(owner, "org.freedesktop.DBus");
	cr_assert_eq(get_name_owner(&c, c.unique_name, owner, sizeof(owner), &err), 0, "%s",
		     err.msg);
	cr_expect_str_eq(owner, c.unique_name);
	ct_dbus_close(&c);
}

Test(dbus, an_array_of_strings_is_read_in_full)
{
	start_bus();
	struct ct_dbus_conn c, other;
	struct ct_error err = {0};
	open_conn(&c);
	open_conn(&other);
	struct ct_dbus_msg call = bus_call("ListNames", NULL);
	struct ct_dbus_reply r;
	cr_assert_eq(ct_dbus_call(&c, &call, NULL, TIMEOUT_MS, &r, &err), 0, "%s", err.msg);
	cr_assert_str_eq(r.msg.signature, "as");
	struct ct_dbus_iter it, names;
	ct_dbus_iter_body(&it, &r.msg);
	cr_assert_eq(ct_dbus_iter_enter(&it, &names, &err), 0, "%s", err.msg);
	bool bus_seen = false, mine = false, theirs = false;
	while (ct_dbus_iter_type(&names)) {
		union ct_dbus_value v;
		cr_assert_eq(ct_dbus_iter_get(&names, 's', &v, &err), 0, "%s", err.msg);
		bus_seen |= strcmp(v.s, "org.freedesktop.DBus") == 0;
		mine |= strcmp(v.s, c.unique_name) == 0;
		theirs |= strcmp(v.s, other.unique_name) == 0;
	}
	cr_expect(bus_seen && mine && theirs, "bus %d, %s %d, %s %d", bus_seen, c.unique_name, mine,
		  other.unique_name, theirs);
	cr_expect_eq(ct_dbus_iter_type(&it), 0, "one value in the body");
	ct_dbus_reply_free(&r);
	ct_dbus_close(&other);
	ct_dbus_close(&c);
}

Test(dbus, an_error_reply_reaches_the_caller_verbatim)
{
	start_bus();
	struct ct_dbus_conn c;
	struct ct_error err = {0};
	char owner[256];
	open_conn(&c);
	cr_assert_eq(get_name_owner(&c, "com.example.Absent", owner, sizeof(owner), &err), -1);
	cr_expect_eq(err.errnum, EREMOTEIO);
	cr_expect_str_eq(err.msg, "Could not get owner of name 'com.example.Absent': no such name");
	cr_expect(ct_dbus_failed_with(&c, "org.freedesktop.DBus.Error.NameHasNoOwner"), "name %s",
		  c.error_name);
	/* the connection goes on after an error */
	cr_assert_eq(get_name_owner(&c, "org.freedesktop.DBus", owner, sizeof(owner), &err), 0,
		     "%s", err.msg);
	cr_expect_str_eq(c.error_name, "");
	ct_dbus_close(&c);
}

Test(dbus, a_dict_argument_is_marshalled_as_the_bus_reads_it)
{
	start_bus();
	struct ct_dbus_conn c;
	struct ct_error err = {0};
	open_conn(&c);
	struct ct_dbus_msg call = bus_call("UpdateActivationEnvironment", "a{ss}");
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	struct ct_dbus_array_mark m = ct_dbus_array_open(&body, '{');
	for (int i = 0; i < 3; i++) {
		ct_dbus_struct_open(&body);
		ct_dbus_put_string(&body, i ? "CTRUN_B" : "CTRUN_A");
		ct_dbus_put_string(&body, "value");
	}
	ct_dbus_array_close(&body, m);
	cr_expect_eq(ct_dbus_call(&c, &call, &body, TIMEOUT_MS, NULL, &err), 0, "%s", err.msg);
	ct_dbus_writer_free(&body);
	/* well formed, but not the arguments the method takes: an error reply */
	call.signature = "s";
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, "CTRUN_A=value");
	cr_expect_eq(ct_dbus_call(&c, &call, &body, TIMEOUT_MS, NULL, &err), -1);
	cr_expect(ct_dbus_failed_with(&c, "org.freedesktop.DBus.Error.InvalidArgs"), "%s: %s",
		  c.error_name, err.msg);
	ct_dbus_writer_free(&body);
	ct_dbus_close(&c);
}

/* What the NameOwnerChanged signals told, for the one name watched. */
struct owner_watch {
	const char *name;
	char new_owner[256];
	int seen;
};

static void on_owner_changed(const struct ct_dbus_msg *m, void *ctx)
{
	struct owner_watch *w = ctx;
	struct ct_dbus_iter it;
	union ct_dbus_value name, old, new_owner;
	struct ct_error err;
	if (strcmp(m->member, "NameOwnerChanged") != 0)
		return;
	ct_dbus_iter_body(&it, m);
	cr_assert_eq(ct_dbus_iter_get(&it, 's', &name, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_dbus_iter_get(&it, 's', &old, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_dbus_iter_get(&it, 's', &new_owner, &err), 0, "%s", err.msg);
	if (strcmp(name.s, w->name) == 0) {
		snprintf(w->new_owner, sizeof(w->new_owner), "%s", new_owner.s);
		w->seen++;
	}
}

static bool owner_seen(void *ctx)
{
	return ((struct owner_watch *)ctx)->seen > 0;
}

Test(dbus, a_matched_signal_reaches_its_callback)
{
	start_bus();
	struct ct_dbus_conn c, other;
	struct ct_error err = {0};
	open_conn(&c);
	struct owner_watch w = {.name = "com.example.Ctrun"};
	c.on_signal = on_owner_changed;
	c.signal_ctx = &w;
	cr_assert_eq(ct_dbus_add_match(&c,
				       "type='signal',interface='org.freedesktop.DBus',"
				       "member='NameOwnerChanged',arg0='com.example.Ctrun'",
				       TIMEOUT_MS, &err),
		     0, "%s", err.msg);
	open_conn(&other);
	struct ct_dbus_msg call = bus_call("RequestName", "su");
	struct ct_dbus_writer body;
	ct_dbus_writer_init(&body);
	ct_dbus_put_string(&body, "com.example.Ctrun");
	ct_dbus_put_u32(&body, 0);
	cr_assert_eq(ct_dbus_call(&other, &call, &body, TIMEOUT_MS, NULL, &err), 0, "%s", err.msg);
	ct_dbus_writer_free(&body);
	cr_assert_eq(ct_dbus_wait(&c, owner_seen, &w, TIMEOUT_MS, &err), 0, "%s", err.msg);
	cr_expect_str_eq(w.new_owner, other.unique_name);
	ct_dbus_close(&other);
	ct_dbus_close(&c);
}

static bool never(void *ctx)
{
	(void)ctx;
	return false;
}

Test(dbus, a_wait_without_its_signal_times_out)
{
	start_bus();
	struct ct_dbus_conn c;
	struct ct_error err = {0};
	open_conn(&c);
	cr_expect_eq(ct_dbus_wait(&c, never, NULL, 200, &err), -1);
	cr_expect_eq(err.errnum, ETIMEDOUT, "%s", err.msg);
	ct_dbus_close(&c);
}

Test(dbus, a_socket_without_a_bus_is_named_in_the_error)
{
	struct ct_dbus_conn c;
	struct ct_error err = {0};
	char *dir = ctt_tmpdir(), *addr;
	cr_assert(asprintf(&addr, "unix:path=%s/none", dir) > 0);
	cr_expect_eq(ct_dbus_open(&c, addr, TIMEOUT_MS, &err), -1);
	cr_expect(strstr(err.msg, addr) && err.errnum == ENOENT, "%s", err.msg);
	cr_expect_eq(c.fd, -1);
	free(addr);
	free(dir);
}

/* Connects from a user namespace where the caller's uid reads 1000 but is the bus's own uid 0
 * outside: the bus must take the identity from the socket, not from a uid we claim. Exits 0
 * when connected, 1 when refused. */
static int connect_from_userns(void)
{
	int go[2];
	cr_assert_eq(pipe(go), 0);
	pid_t child = fork();
	cr_assert_neq(child, -1);
	if (child == 0) {
		char c;
		close(go[1]);
		if (unshare(CLONE_NEWUSER) < 0 || read(go[0], &c, 1) != 1)
			_exit(2);
		struct ct_dbus_conn conn;
		struct ct_error err = {0};
		if (geteuid() != 1000)
			_exit(3);
		if (ct_dbus_open(&conn, bus.address, TIMEOUT_MS, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			_exit(1);
		}
		ct_dbus_close(&conn);
		_exit(0);
	}
	close(go[0]);
	char path[64];
	for (int tries = 0;; tries++) { /* until the child's unshare shows in its ns link */
		char mine[64] = "", its[64] = "";
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)child);
		cr_assert_gt(readlink("/proc/self/ns/user", mine, sizeof(mine) - 1), 0);
		cr_assert_gt(readlink(path, its, sizeof(its) - 1), 0);
		if (strcmp(mine, its) != 0)
			break;
		cr_assert_lt(tries, 10000, "the child never entered its user namespace");
		usleep(1000);
	}
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)child);
	ctt_write_file(path, "1000 0 1\n");
	snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)child);
	ctt_write_file(path, "deny\n");
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)child);
	ctt_write_file(path, "1000 0 1\n");
	cr_assert_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	int status;
	cr_assert_eq(waitpid(child, &status, 0), child);
	cr_assert(WIFEXITED(status), "the client died: status %#x", status);
	return WEXITSTATUS(status);
}

Test(dbus, a_client_in_a_user_namespace_is_who_the_socket_says)
{
	start_bus();
	cr_expect_eq(connect_from_userns(), 0,
		     "the bus refused a client whose uid is its own "
		     "outside the client's user namespace");
}
