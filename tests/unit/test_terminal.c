/* process.terminal: the pty, its controlling-terminal setup and the console socket. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "libct/base/fdpass.h"
#include "libct/child/terminal.h"

static void need_ptmx(void)
{
	if (access("/dev/ptmx", R_OK | W_OK) != 0)
		cr_skip("no usable /dev/ptmx here: %s", strerror(errno));
}

struct pty {
	int master;
	char slave[64];
};

static struct pty open_pty(void)
{
	need_ptmx();
	struct pty p = {.master = -1};
	struct ct_error err = {0};
	cr_assert_eq(ct_pty_open(&p.master, p.slave, sizeof(p.slave), &err), 0, "%s", err.msg);
	return p;
}

/* Reads the master until the last slave closes (EIO) or the buffer is full. */
static size_t read_until_hangup(int master, char *buf, size_t size)
{
	size_t got = 0;
	while (got + 1 < size) {
		struct pollfd pfd = {.fd = master, .events = POLLIN};
		cr_assert_gt(poll(&pfd, 1, 10000), 0, "the pty stayed silent for 10 s");
		ssize_t n = read(master, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == EIO))
			break;
		cr_assert_gt(n, 0, "read master: %s", strerror(errno));
		got += (size_t)n;
	}
	buf[got] = '\0';
	return got;
}

static int wait_exit_status(pid_t pid)
{
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "child died from a signal (status %#x)", status);
	return WEXITSTATUS(status);
}

Test(terminal, pty_open_gives_master_and_slave_name)
{
	struct pty p = open_pty();
	cr_expect_eq(strncmp(p.slave, "/dev/pts/", 9), 0, "slave name %s", p.slave);
	cr_expect(fcntl(p.master, F_GETFD) & FD_CLOEXEC, "master is close-on-exec");
	struct stat st;
	cr_assert_eq(stat(p.slave, &st), 0, "stat %s: %s", p.slave, strerror(errno));
	cr_expect(S_ISCHR(st.st_mode));
	/* Unlocked: the slave opens. */
	int slave = open(p.slave, O_RDWR | O_NOCTTY | O_CLOEXEC);
	cr_expect_geq(slave, 0, "open %s: %s", p.slave, strerror(errno));
	close(slave);
	close(p.master);
}

Test(terminal, pty_open_reports_a_short_name_buffer)
{
	need_ptmx();
	int master = -1;
	char tiny[4];
	struct ct_error err = {0};
	cr_assert_eq(ct_pty_open(&master, tiny, sizeof(tiny), &err), -1);
	cr_expect_eq(master, -1, "no master handed out on failure");
	cr_expect_eq(err.errnum, ERANGE);
	cr_expect_str_eq(err.msg, "get the slave name of pty \"/dev/ptmx\": Numerical result out "
				  "of range");
}

Test(terminal, set_size_reads_back)
{
	struct pty p = open_pty();
	struct ct_error err = {0};
	cr_assert_eq(ct_pty_set_size(p.master, 30, 100, &err), 0, "%s", err.msg);
	struct winsize ws;
	cr_assert_eq(ioctl(p.master, TIOCGWINSZ, &ws), 0);
	cr_expect_eq(ws.ws_row, 30);
	cr_expect_eq(ws.ws_col, 100);
	close(p.master);
}

Test(terminal, set_size_on_a_non_tty_names_the_size)
{
	struct ct_error err = {0};
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(ct_pty_set_size(fd, 24, 80, &err), -1);
	cr_expect_str_eq(err.msg, "set the pty size to 24 rows, 80 columns: Inappropriate ioctl "
				  "for device");
	close(fd);
}

/* Child checks, reported through the exit status: a failed child cannot cr_assert. */
enum child_failure {
	CHILD_OK,
	CHILD_SETUP_FAILED,
	CHILD_WRONG_TTYNAME,
	CHILD_NOT_SESSION_LEADER,
	CHILD_NO_CONTROLLING_TTY,
	CHILD_STDIO_NOT_SLAVE,
	CHILD_WRITE_FAILED,
};

static int same_tty(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_rdev == sb.st_rdev;
}

static enum child_failure check_terminal_is(const char *slave)
{
	char name[64];
	if (ttyname_r(0, name, sizeof(name)) != 0 || strcmp(name, slave) != 0)
		return CHILD_WRONG_TTYNAME;
	if (tcgetsid(0) != getpid())
		return CHILD_NOT_SESSION_LEADER;
	/* /dev/tty opens only for a process with a controlling terminal (else ENXIO). */
	int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
	if (tty < 0 || tcgetsid(tty) != getpid())
		return CHILD_NO_CONTROLLING_TTY;
	close(tty);
	if (!same_tty(0, 1) || !same_tty(0, 2) || fcntl(1, F_GETFD) != 0)
		return CHILD_STDIO_NOT_SLAVE;
	if (write(1, "hello\n", 6) != 6)
		return CHILD_WRITE_FAILED;
	return CHILD_OK;
}

static void expect_child_said_hello(struct pty *p, pid_t pid)
{
	char buf[256];
	read_until_hangup(p->master, buf, sizeof(buf));
	int status = wait_exit_status(pid);
	cr_expect_eq(status, CHILD_OK, "child check %d failed", status);
	/* The line discipline turns \n into \r\n (OPOST|ONLCR). */
	cr_expect_str_eq(buf, "hello\r\n");
}

Test(terminal, child_gets_the_slave_as_controlling_terminal)
{
	struct pty p = open_pty();
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(p.master);
		struct ct_error err = {0};
		if (ct_pty_make_controlling(p.slave, &err) < 0)
			_exit(CHILD_SETUP_FAILED);
		_exit(check_terminal_is(p.slave));
	}
	expect_child_said_hello(&p, pid);
	close(p.master);
}

Test(terminal, child_gets_the_slave_opened_from_the_master)
{
	struct pty p = open_pty();
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct ct_error err = {0};
		int slave = ct_pty_open_slave(p.master, p.slave, &err);
		close(p.master);
		if (slave < 0 || ct_pty_make_controlling_fd(slave, &err) < 0)
			_exit(CHILD_SETUP_FAILED);
		if (fcntl(slave, F_GETFD) >= 0)
			_exit(CHILD_SETUP_FAILED); /* the extra fd must be gone */
		_exit(check_terminal_is(p.slave));
	}
	expect_child_said_hello(&p, pid);
	close(p.master);
}

Test(terminal, missing_slave_names_the_path)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_pty_make_controlling("/dev/pts/no-such-pty", &err), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_str_eq(err.msg, "open \"/dev/pts/no-such-pty\": No such file or directory");
}

/* Without TIOCGPTPEER (a master that is no pty answers ENOTTY, as old kernels answer
 * EINVAL) the slave is opened by name: a file planted there is refused. */
Test(terminal, slave_opened_by_name_must_be_a_pty_slave)
{
	char dir[] = "/tmp/ctrun-pts.XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/0", dir);
	int file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	cr_assert_geq(file, 0, "%s: %s", path, strerror(errno));
	struct ct_error err = {0};
	int fd = ct_pty_open_slave(file, path, &err);
	close(file);
	unlink(path);
	rmdir(dir);
	cr_expect_eq(fd, -1);
	cr_expect_eq(err.errnum, EPERM);
	char want[128];
	snprintf(want, sizeof(want), "\"%s\" is not a pty slave", path);
	cr_expect_str_eq(err.msg, want);
}

Test(terminal, a_non_tty_cannot_become_the_controlling_terminal)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		struct ct_error err = {0};
		int rc = ct_pty_make_controlling("/dev/null", &err);
		_exit(rc == -1 && strcmp(err.msg, "make \"/dev/null\" the controlling terminal: "
						  "Inappropriate ioctl for device") == 0
			      ? 0
			      : 1);
	}
	cr_expect_eq(wait_exit_status(pid), 0, "expected the TIOCSCTTY error naming /dev/null");
}

/* A listening console socket in a fresh temporary directory. */
struct listener {
	char dir[64];
	char path[128];
	int sock;
};

static int bind_listener(const char *bind_path, int backlog)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	cr_assert_lt(strlen(bind_path), sizeof(addr.sun_path));
	strcpy(addr.sun_path, bind_path);
	int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert_geq(sock, 0);
	cr_assert_eq(bind(sock, (struct sockaddr *)&addr, sizeof(addr)), 0, "bind %s: %s",
		     bind_path, strerror(errno));
	if (backlog > 0)
		cr_assert_eq(listen(sock, backlog), 0);
	return sock;
}

static void make_tempdir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/ct-h6-XXXXXX");
	cr_assert_not_null(mkdtemp(dir), "mkdtemp: %s", strerror(errno));
}

static struct listener listen_console(int backlog)
{
	struct listener l;
	make_tempdir(l.dir, sizeof(l.dir));
	snprintf(l.path, sizeof(l.path), "%s/console.sock", l.dir);
	l.sock = bind_listener(l.path, backlog);
	return l;
}

static void remove_listener(struct listener *l)
{
	close(l->sock);
	unlink(l->path);
	rmdir(l->dir);
}

static int accept_conn(int sock)
{
	int conn = accept4(sock, NULL, NULL, SOCK_CLOEXEC);
	cr_assert_geq(conn, 0, "accept: %s", strerror(errno));
	return conn;
}

Test(console_socket, missing_socket_names_the_path)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_console_send_master("/nonexistent/ct-h6.sock", 0, &err), -1);
	cr_expect_str_eq(err.msg, "connect to console socket \"/nonexistent/ct-h6.sock\": No such "
				  "file or directory");
}

Test(console_socket, socket_nobody_listens_on_is_refused)
{
	struct listener l = listen_console(0);
	struct ct_error err = {0};
	cr_expect_eq(ct_console_send_master(l.path, 0, &err), -1);
	char expected[256];
	snprintf(expected, sizeof(expected), "connect to console socket \"%s\": Connection refused",
		 l.path);
	cr_expect_str_eq(err.msg, expected);
	remove_listener(&l);
}

static void expect_received_master_is(int conn, struct pty *p)
{
	struct ct_error err = {0};
	int got = -1;
	char payload[64];
	size_t len = sizeof(payload);
	cr_assert_eq(ct_recv_fd(conn, &got, payload, &len, &err), 0, "%s", err.msg);
	cr_assert_geq(got, 0);
	cr_expect_eq(len, strlen(CT_CONSOLE_PAYLOAD), "payload is the master's name, like runc");
	cr_expect_eq(memcmp(payload, CT_CONSOLE_PAYLOAD, len), 0);

	/* The received fd is that very master: its slave hears what it writes. */
	int slave = open(p->slave, O_RDWR | O_NOCTTY | O_CLOEXEC);
	cr_assert_geq(slave, 0);
	cr_assert_eq(write(got, "x\n", 2), 2);
	char buf[8] = {0};
	cr_expect_eq(read(slave, buf, sizeof(buf)), 2);
	cr_expect_str_eq(buf, "x\n");
	close(slave);
	close(got);
}

Test(console_socket, master_arrives_with_runc_payload)
{
	struct pty p = open_pty();
	struct listener l = listen_console(1);
	struct ct_error err = {0};
	/* connect() completes against the backlog, so one process can play both sides. */
	cr_assert_eq(ct_console_send_master(l.path, p.master, &err), 0, "%s", err.msg);
	int conn = accept_conn(l.sock);
	expect_received_master_is(conn, &p);
	close(conn);
	remove_listener(&l);
	close(p.master);
}

/* conmon and CI systems put sockets in deep directories; sun_path holds only 108 bytes. */
Test(console_socket, path_longer_than_sun_path_still_connects)
{
	struct pty p = open_pty();
	char dir[64], deep[512];
	make_tempdir(dir, sizeof(dir));
	snprintf(deep, sizeof(deep), "%s/%0120d", dir, 0);
	cr_assert_eq(mkdir(deep, 0700), 0, "mkdir: %s", strerror(errno));
	int dirfd = open(deep, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(dirfd, 0);
	char short_path[64], long_path[600];
	snprintf(short_path, sizeof(short_path), "/proc/self/fd/%d/c.sock", dirfd);
	snprintf(long_path, sizeof(long_path), "%s/c.sock", deep);
	cr_assert_gt(strlen(long_path), sizeof(((struct sockaddr_un *)0)->sun_path));
	int sock = bind_listener(short_path, 1);

	struct ct_error err = {0};
	cr_assert_eq(ct_console_send_master(long_path, p.master, &err), 0, "%s", err.msg);
	int conn = accept_conn(sock);
	expect_received_master_is(conn, &p);

	close(conn);
	close(sock);
	unlink(long_path);
	close(dirfd);
	rmdir(deep);
	rmdir(dir);
	close(p.master);
}

/* CTRUN_HELPERS, else the helpers/ next to this binary (build-x/unit-tests). */
static void console_receiver_path(char *path, size_t size)
{
	const char *dir = getenv("CTRUN_HELPERS");
	char exe[PATH_MAX];
	if (!dir) {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		cr_assert_gt(n, 0);
		exe[n] = '\0';
		snprintf(path, size, "%s/helpers/console_receiver", dirname(exe));
	} else {
		snprintf(path, size, "%s/console_receiver", dir);
	}
	if (access(path, X_OK) != 0)
		cr_skip("%s is not built (make BUILD=... BUILD/helpers/console_receiver)", path);
}

static pid_t spawn_receiver(const char *helper, char *const argv[], int *out)
{
	int pipefd[2];
	cr_assert_eq(pipe2(pipefd, O_CLOEXEC), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		dup2(pipefd[1], 1);
		execv(helper, argv);
		_exit(127);
	}
	close(pipefd[1]);
	*out = pipefd[0];
	return pid;
}

/* The helper the integration tests use as conmon: gets the master, types into it, reports
 * the size and everything the "container" wrote, and exits when the slave closes. */
Test(console_socket, console_receiver_helper_plays_conmon)
{
	char helper[PATH_MAX];
	console_receiver_path(helper, sizeof(helper));
	struct pty p = open_pty();
	struct ct_error err = {0};
	cr_assert_eq(ct_pty_set_size(p.master, 30, 100, &err), 0, "%s", err.msg);
	char dir[64], sock[128];
	make_tempdir(dir, sizeof(dir));
	snprintf(sock, sizeof(sock), "%s/console.sock", dir);

	char *argv[] = {"console_receiver", sock, "--winsize", "--input", "ping\\n", NULL};
	int out;
	pid_t pid = spawn_receiver(helper, argv, &out);
	FILE *from = fdopen(out, "r");
	cr_assert_not_null(from, "fdopen: %s", strerror(errno));
	char buf[512];
	cr_assert_not_null(fgets(buf, sizeof(buf), from), "the receiver said nothing");
	cr_assert_str_eq(buf, "ready\n");

	int slave = ct_pty_open_slave(p.master, p.slave, &err);
	cr_assert_geq(slave, 0, "%s", err.msg);
	cr_assert_eq(ct_console_send_master(sock, p.master, &err), 0, "%s", err.msg);
	close(p.master);
	char typed[16] = {0};
	cr_expect_eq(read(slave, typed, sizeof(typed) - 1), 5);
	cr_expect_str_eq(typed, "ping\n", "--input reaches the process, unescaped");
	cr_assert_eq(write(slave, "pong\n", 5), 5);
	close(slave); /* the "container" exits: EIO ends the receiver */

	buf[fread(buf, 1, sizeof(buf) - 1, from)] = '\0'; /* to its end: the receiver exits */
	fclose(from);
	cr_expect_eq(wait_exit_status(pid), 0);
	/* The echo of the typed line, then the output, both through ONLCR. */
	cr_expect_str_eq(buf, "winsize 30 100\nping\r\npong\r\n");
	cr_expect_neq(access(sock, F_OK), 0, "the receiver removed its socket");
	rmdir(dir);
}
