/* process.terminal and --console-socket (config.md#process, runc's console socket): the
 * console_receiver helper plays conmon's part: it listens, takes the pty master ctrun sends
 * with SCM_RIGHTS, may type input into it, and prints everything the container writes to
 * its terminal. Checked from outside (exit codes, state, what arrives at the receiver, ctrun's
 * own stdout staying empty) and from inside (what the process sees on fds 0-2). */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(terminal, .fini = lc_cleanup);

#define RECEIVER_WAIT_MS 20000
#define ID		 "tty"

struct term {
	struct lc t;
	char *sock;	/* the --console-socket path */
	char *out;	/* the receiver's stdout and stderr */
	pid_t receiver; /* -1 until receiver_start() */
};

/* A bundle whose process is `sh -c script` on a terminal. */
static void term_init(struct term *x, const char *script)
{
	lc_init(&x->t);
	ctt_config_set(x->t.bundle, ".process.terminal", "true");
	lc_set_script(&x->t, script);
	char *dir = ctt_tmpdir();
	x->sock = ctt_path(dir, "console.sock");
	x->out = ctt_path(dir, "receiver.out");
	free(dir);
	x->receiver = -1;
}

static void receiver_start(struct term *x, const char *const *opts)
{
	x->receiver = lc_console_receiver(&x->t, x->sock, x->out, opts);
}

/* Waits until the receiver saw the last slave close (the container exited) and returns
 * what it printed, without "\r" (malloc'd). */
static char *receiver_output(struct term *x)
{
	int status = lc_wait(x->receiver, RECEIVER_WAIT_MS);
	char *text = ctt_read_file(x->out);
	cr_assert_eq(status, 0, "console_receiver exited %d:\n%s", status, text);
	ctt_strip_cr(text);
	return text;
}

/* args (NULL-terminated) must succeed and print nothing on stdout: with a terminal the
 * container's output goes to the pty, not to ctrun's stdio. */
static void expect_quiet_success(const struct term *x, const char *const *args)
{
	struct ctt_result r;
	lc_ctrunv(&r, &x->t, args);
	cr_assert_eq(r.status, 0, "ctrun %s: exit %d, stderr: %s", args[0], r.status, r.err);
	cr_expect_str_empty(r.out, "ctrun %s printed: %s", args[0], r.out);
	ctt_result_free(&r);
}

static void create_with_socket(const struct term *x)
{
	expect_quiet_success(x, (const char *const[]){"create", "--bundle", x->t.bundle,
						      "--console-socket", x->sock, ID, NULL});
}

/* After create: start, collect the receiver's output, delete; nothing may be left. */
static char *start_and_collect(struct term *x)
{
	expect_quiet_success(x, (const char *const[]){"start", ID, NULL});
	char *out = receiver_output(x);
	lc_wait_status(&x->t, ID, "stopped");
	lc_ok(&x->t, "delete", ID);
	lc_assert_nothing_left(&x->t);
	return out;
}

/* The whole create/start cycle with a receiver started with opts. */
static char *terminal_cycle(struct term *x, const char *const *opts)
{
	receiver_start(x, opts);
	create_with_socket(x);
	lc_assert_status(&x->t, ID, "created");
	return start_and_collect(x);
}

/* The number after "key " at the start of a line of out; fails when there is none. */
static long value_of(const char *out, const char *key)
{
	size_t len = strlen(key);
	for (const char *line = out; line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (strncmp(line, key, len) == 0 && line[len] == ' ')
			return strtol(line + len + 1, NULL, 10);
	}
	cr_assert_fail("no \"%s\" line in:\n%s", key, out);
	return -1;
}

/* A terminal cycle of script, the receiver run with opts (NULL-terminated, may be NULL):
 * each regex of lines (NULL-terminated) matches a line of what the receiver saw. */
static void assert_cycle_lines(const char *script, const char *const *opts,
			       const char *const *lines)
{
	struct term x;
	term_init(&x, script);
	char *out = terminal_cycle(&x, opts);
	for (; *lines; lines++)
		ctt_assert_line(out, *lines);
	free(out);
}

Test(terminal, stdio_of_the_container_is_the_pty)
{
	assert_cycle_lines("t=$(tty) && echo \"tty $t\"; for fd in 0 1 2; do [ -t $fd ] && "
			   "[ \"$(readlink /proc/$$/fd/$fd)\" = \"$t\" ] && echo \"fd$fd on $t\"; "
			   "done",
			   NULL,
			   LC_ARGV("^tty /dev/pts/[0-9]+$", "^fd0 on /dev/pts/[0-9]+$",
				   "^fd1 on /dev/pts/[0-9]+$", "^fd2 on /dev/pts/[0-9]+$"));
}

Test(terminal, input_typed_at_the_master_reaches_the_container)
{
	assert_cycle_lines("read -r line; echo \"got [$line]\"",
			   LC_ARGV("--input", "hello there\\n"),
			   LC_ARGV("^got \\[hello there\\]$"));
}

/* ^D at the start of a line is end of input on a terminal in canonical mode. */
Test(terminal, eof_typed_at_the_master_ends_the_input)
{
	assert_cycle_lines("n=0; while read -r l; do n=$((n + 1)); done; echo \"lines $n\"",
			   LC_ARGV("--input", "one\\ntwo\\n\\x04"), LC_ARGV("^lines 2$"));
}

Test(terminal, console_size_is_the_window_size)
{
	struct term x;
	term_init(&x, "echo \"size $(stty size)\"");
	ctt_config_set(x.t.bundle, ".process.consoleSize", "{\"height\": 33, \"width\": 77}");
	char *out = terminal_cycle(&x, (const char *const[]){"--winsize", NULL});
	ctt_assert_line(out, "^winsize 33 77$"); /* what the master reports to the receiver */
	ctt_assert_line(out, "^size 33 77$");	 /* what the process sees */
	free(out);
}

/* tty_nr of /proc/self/stat is the controlling terminal's device; /dev/tty opens only with
 * one; the process leads its session (what TIOCSCTTY required). */
Test(terminal, pty_is_the_controlling_terminal)
{
	struct term x;
	term_init(&x, "set -- $(stat -c '%t %T' \"$(tty)\"); echo \"dev $((0x$1 * 256 + 0x$2))\"; "
		      "read -r pid comm state ppid pgrp sid ttynr rest < /proc/self/stat; "
		      "echo \"tty_nr $ttynr\"; [ \"$sid\" = \"$$\" ] && echo leader; "
		      "echo 'via /dev/tty' > /dev/tty");
	char *out = terminal_cycle(&x, NULL);
	long dev = value_of(out, "dev"), tty_nr = value_of(out, "tty_nr");
	cr_expect_neq(tty_nr, 0, "no controlling terminal:\n%s", out);
	cr_expect_eq(tty_nr, dev, "controlling terminal %ld is not the pty %ld", tty_nr, dev);
	ctt_assert_line(out, "^leader$");
	ctt_assert_line(out, "^via /dev/tty$");
	free(out);
}

/* config-linux.md#default-devices: /dev/console is a bind of the pty, with tty's device
 * number, and what is written to it reaches the receiver. */
Test(terminal, dev_console_is_the_pty)
{
	struct term x;
	term_init(&x, "echo \"tty $(stat -c '%t:%T' \"$(tty)\")\"; "
		      "echo \"console $(stat -c '%t:%T' /dev/console)\"; "
		      "echo \"bound $(grep -c ' /dev/console ' /proc/self/mountinfo)\"; "
		      "echo 'via /dev/console' > /dev/console");
	char *out = terminal_cycle(&x, NULL);
	const char *tty = strstr(out, "tty "), *console = strstr(out, "console ");
	cr_assert(tty && console, "%s", out);
	size_t n = strcspn(tty + 4, "\n");
	cr_expect(n > 0 && strncmp(tty + 4, console + 8, n) == 0 && console[8 + n] == '\n',
		  "/dev/console is not the pty:\n%s", out);
	ctt_assert_line(out, "^bound 1$");
	ctt_assert_line(out, "^via /dev/console$");
	free(out);
}

/* Before start the init already owns the terminal, seen from the host's /proc. */
Test(terminal, created_init_already_has_the_terminal)
{
	struct term x;
	term_init(&x, "true");
	receiver_start(&x, NULL);
	create_with_socket(&x);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", lc_pid(&x.t, ID));
	char *stat = ctt_read_file(path);
	const char *after_comm = strrchr(stat, ')');
	cr_assert_not_null(after_comm, "%s: %s", path, stat);
	int pid, session, tty_nr;
	cr_assert_eq(sscanf(stat, "%d", &pid), 1);
	cr_assert_eq(sscanf(after_comm, ") %*c %*d %*d %d %d", &session, &tty_nr), 2, "%s", stat);
	cr_expect_eq(session, pid, "the init does not lead its session: %s", stat);
	cr_expect_neq(tty_nr, 0, "the init has no controlling terminal: %s", stat);
	free(stat);
	free(start_and_collect(&x));
}

Test(terminal, run_detached_hands_the_terminal_over)
{
	struct term x;
	term_init(&x, "read -r line; echo \"got [$line]\"; "
		      "while [ ! -e /go ]; do usleep 20000; done; echo finished");
	receiver_start(&x, (const char *const[]){"--input", "hi\\n", NULL});
	expect_quiet_success(&x, (const char *const[]){"run", "--detach", "--bundle", x.t.bundle,
						       "--console-socket", x.sock, ID, NULL});
	free(ctt_wait_content(x.out, "got [hi]"));
	lc_assert_status(&x.t, ID, "running");
	char *go = lc_rootfs_file(&x.t, "go", "");
	free(go);
	char *out = receiver_output(&x);
	ctt_assert_line(out, "^finished$");
	free(out);
	lc_wait_status(&x.t, ID, "stopped");
	lc_ok(&x.t, "delete", ID);
	lc_assert_nothing_left(&x.t);
}

/* In the foreground ctrun still waits, exits with the container's status and deletes it. */
Test(terminal, run_in_the_foreground_with_a_console_socket)
{
	struct term x;
	term_init(&x, "echo \"on $(tty)\"; exit 3");
	receiver_start(&x, NULL);
	struct ctt_result r;
	lc_ctrun(&r, &x.t, "run", "--bundle", x.t.bundle, "--console-socket", x.sock, ID);
	cr_expect_eq(r.status, 3, "stderr: %s", r.err);
	cr_expect_str_empty(r.out);
	ctt_result_free(&r);
	char *out = receiver_output(&x);
	ctt_assert_line(out, "^on /dev/pts/[0-9]+$");
	free(out);
	lc_assert_nothing_left(&x.t);
}

/* create and run (in the foreground, or detached) both fail before anything is made. */
static void assert_refused_by_create_and_run_as(const struct term *x, bool detach,
						const char *const *extra,
						const char *const *needles)
{
	static const char *const commands[] = {"create", "run"};
	for (size_t i = 0; i < 2; i++) {
		const char *args[12] = {commands[i], "--bundle", x->t.bundle};
		size_t n = 3;
		if (detach && i == 1)
			args[n++] = "--detach";
		for (const char *const *e = extra; e && *e; e++)
			args[n++] = *e;
		args[n++] = ID;
		args[n] = NULL;
		struct ctt_result r;
		lc_ctrunv(&r, &x->t, args);
		ctt_assert_error_line(&r, needles);
		ctt_result_free(&r);
		lc_assert_nothing_left(&x->t);
	}
}

static void assert_refused_by_create_and_run(const struct term *x, const char *const *extra,
					     const char *const *needles)
{
	assert_refused_by_create_and_run_as(x, false, extra, needles);
}

/* Without a console socket nobody would take the master of a container left running: create
 * and run --detach refuse, as runc and crun do (run in the foreground relays it, below). */
Test(terminal, terminal_without_console_socket_is_an_error_when_detached)
{
	struct term x;
	term_init(&x, "true");
	assert_refused_by_create_and_run_as(
		&x, true, NULL,
		(const char *const[]){"\"" ID "\"", ".process.terminal", "--console-socket", NULL});
}

/* `runc spec && runc run ID`: in the foreground without --console-socket, ctrun keeps the
 * master and relays it to its own stdin and stdout (as runc and crun do), waits, exits with
 * the container's status and deletes it. Inside, fds 0-2 are the pty. */
Test(terminal, run_in_the_foreground_relays_the_terminal)
{
	struct term x;
	term_init(&x, "read line; echo \"got-$line\"; echo \"on $(tty)\"; "
		      "[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo all-on-pty; exit 5");
	struct ctt_result r;
	lc_ctrun_input(&r, &x.t, "typed\n", "run", "--bundle", x.t.bundle, ID);
	cr_expect_eq(r.status, 5, "stderr: %s", r.err);
	cr_expect_str_empty(r.err);
	ctt_strip_cr(r.out);
	ctt_assert_line(r.out, "^got-typed$");
	ctt_assert_line(r.out, "^on /dev/pts/[0-9]+$");
	ctt_assert_line(r.out, "^all-on-pty$");
	ctt_result_free(&r);
	lc_assert_nothing_left(&x.t);
}

/* ctrun's input a pipe (runc and crun refuse a stdin that is no terminal): its end reaches
 * the process as a terminal's end of file, also after a partial line, so `cat` ends. */
Test(terminal, the_end_of_piped_input_is_the_end_of_file_on_the_pty, .timeout = 60)
{
	struct term x;
	term_init(&x, "n=$(cat | wc -c); echo \"read-$n\"");
	struct ctt_result r;
	lc_ctrun_input(&r, &x.t, "one\ntwo", "run", "--bundle", x.t.bundle, ID);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	ctt_strip_cr(r.out);
	ctt_assert_line(r.out, "read-7$"); /* "one\n" and the partial "two", echoed before */
	ctt_result_free(&r);
	lc_assert_nothing_left(&x.t);
}

/* runc refuses it too: the caller would wait for a master that never comes. */
Test(terminal, console_socket_without_terminal_is_an_error)
{
	struct term x;
	term_init(&x, "true");
	ctt_config_set(x.t.bundle, ".process.terminal", "false");
	assert_refused_by_create_and_run(&x,
					 (const char *const[]){"--console-socket", x.sock, NULL},
					 (const char *const[]){"--console-socket", x.sock,
							       ".process.terminal is false", NULL});
}

Test(terminal, console_socket_that_does_not_exist_is_an_error)
{
	struct term x;
	term_init(&x, "true");
	assert_refused_by_create_and_run(
		&x, (const char *const[]){"--console-socket", x.sock, NULL},
		(const char *const[]){"console socket", x.sock, strerror(ENOENT), NULL});
}

/* A socket file left by a listener that is gone: connect() is refused. */
Test(terminal, console_socket_nobody_listens_on_is_an_error)
{
	struct term x;
	term_init(&x, "true");
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	cr_assert_lt(strlen(x.sock), sizeof(addr.sun_path));
	strcpy(addr.sun_path, x.sock);
	cr_assert_eq(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0, "bind: %s",
		     strerror(errno));
	close(fd);
	assert_refused_by_create_and_run(
		&x, (const char *const[]){"--console-socket", x.sock, NULL},
		(const char *const[]){"console socket", x.sock, strerror(ECONNREFUSED), NULL});
}

/* CVE-2025-52565: with the image's own /dev (no tmpfs over it), an image whose /dev/console
 * is a symlink had the pty bound where it leads: over the container's /proc/sys file, or a
 * file of a volume (whose mounts may propagate to the host). create refuses it, naming the
 * symlink; the volume's file, seen from the host, is left as it was. */
static void assert_console_symlink_refused(const char *link_target)
{
	struct term x;
	term_init(&x, "true");
	lc_remove_mount(&x.t, "/dev");
	char *vol = ctt_tmpdir();
	char *victim = ctt_path(vol, "victim");
	ctt_write_file(victim, "host\n");
	lc_add_mount(&x.t, "/vol", "bind", vol, "rbind");
	char *console = lc_rootfs_path(&x.t, "dev/console");
	cr_assert_eq(symlink(link_target, console), 0, "symlink %s: %s", console, strerror(errno));
	receiver_start(&x, NULL); /* there to take the master, had the bind been made */
	struct ctt_result r;
	lc_ctrun(&r, &x.t, "create", "--bundle", x.t.bundle, "--console-socket", x.sock, ID);
	kill(x.receiver, SIGKILL);
	lc_wait(x.receiver, RECEIVER_WAIT_MS);
	ctt_assert_error_line(&r, (const char *const[]){"\"/dev/console\" is a symlink", NULL});
	ctt_result_free(&r);
	lc_assert_nothing_left(&x.t);
	ctt_assert_file_text(victim, "host\n");
	free(console);
	free(victim);
	free(vol);
}

Test(terminal, image_console_symlink_to_a_proc_file_refused)
{
	assert_console_symlink_refused("/proc/sys/kernel/core_pattern");
}

Test(terminal, image_console_symlink_into_a_volume_refused)
{
	assert_console_symlink_refused("../vol/victim");
}

/* Without the tmpfs, a missing /dev/console is made for the bind (the rootfs writable). */
Test(terminal, image_dev_without_console_gets_one)
{
	struct term x;
	term_init(&x, "awk '$5 == \"/dev/console\" {print \"bound\"}' /proc/self/mountinfo");
	lc_remove_mount(&x.t, "/dev");
	ctt_config_set(x.t.bundle, ".root.readonly", "false");
	char *out = terminal_cycle(&x, NULL);
	ctt_assert_line(out, "^bound$");
	free(out);
}
