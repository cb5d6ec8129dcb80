/* restore on this machine, where Debian's criu cannot run (its cases are the vm suite's,
 * tests/vm/criu): a stand-in criu ($CTRUN_CRIU, a script) shows what ctrun gives criu
 * before it works, and how a restore that goes wrong ends. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/lib/container.h"

TestSuite(restore, .fini = lc_cleanup);

/* A directory for the stand-in's records ($REC), the stand-in criu running script, and an
 * image directory whose descriptors.json is as a checkpoint writes it: its path. */
static char *stand_in(const char *script, char **rec)
{
	*rec = ctt_tmpdir();
	char *criu = ctt_path(*rec, "criu"), *text = malloc(strlen(script) + 16);
	cr_assert_not_null(text);
	sprintf(text, "#!/bin/sh\n%s", script);
	ctt_write_file(criu, text);
	cr_assert_eq(chmod(criu, 0755), 0);
	setenv("CTRUN_CRIU", criu, 1);
	setenv("REC", *rec, 1);
	free(text);
	free(criu);
	char *img = ctt_tmpdir(), *desc = ctt_path(img, "descriptors.json");
	ctt_write_file(desc, "[\"/dev/null\", \"/dev/null\", \"/dev/null\"]");
	free(desc);
	return img;
}

/* How many mounts of this (the test's) mount namespace are on a criu-root. */
static int criu_roots_mounted(void)
{
	char *text = ctt_read_file("/proc/self/mountinfo");
	int n = 0;
	for (const char *p = text; (p = strstr(p, "/criu-root ")); p++)
		n++;
	free(text);
	return n;
}

/* Kills the stand-in (its pid in REC/pid) and waits until it is gone: its namespaces go
 * when it exits, before anyone reaps it. */
static void kill_stand_in(const char *rec)
{
	char *file = ctt_path(rec, "pid"), *text = ctt_read_file(file);
	pid_t pid = (pid_t)atoi(text);
	cr_assert_gt(pid, 1, "%s: %s", file, text);
	kill(pid, SIGKILL);
	for (int i = 0; i < 20000 && ctt_alive(pid); i++)
		usleep(1000);
	cr_assert_not(ctt_alive(pid), "the stand-in criu %d lives on", (int)pid);
	free(text);
	free(file);
}

/* A restore killed while criu works (the stand-in waits to be killed, having counted the
 * root's binds it sees): criu saw the rootfs bound, the host never did, and once criu is
 * gone too, delete --force removes what the restore left. */
Test(restore, a_killed_restore_leaves_nothing_mounted)
{
	struct lc t;
	lc_init(&t);
	char *rec;
	char *img = stand_in("echo $$ > \"$REC/pid\"\n"
			     "grep -c /criu-root /proc/self/mountinfo > \"$REC/seen.tmp\"\n"
			     "mv \"$REC/seen.tmp\" \"$REC/seen\"\n"
			     "exec sleep 1000\n",
			     &rec);
	char *out = ctt_path(rec, "restore.out"), *seen = ctt_path(rec, "seen");
	pid_t restore = lc_spawn(&t,
				 lc_ctrun_argv(&t, LC_ARGV("restore", "--detach", "--image-path",
							   img, "--bundle", t.bundle, "killed")),
				 out, -1);
	ctt_wait_file(seen);
	char *count = ctt_read_file(seen);
	cr_expect_eq(atoi(count), 1, "criu sees the rootfs bound once: %s", count);
	cr_expect_eq(criu_roots_mounted(), 0, "the rootfs is bound in the host's namespace");
	kill(restore, SIGKILL);
	lc_wait(restore, 20000);
	kill_stand_in(rec); /* ctrun's child: not killed with it */
	lc_okv(&t, LC_ARGV("delete", "--force", "killed"));
	cr_expect_eq(criu_roots_mounted(), 0, "a criu-root is left mounted");
	char *dir = ctt_path(t.root, "killed");
	cr_expect_not(ctt_exists(dir), "state directory %s left", dir);
	free(dir);
	free(count);
	free(seen);
	free(out);
	free(img);
	free(rec);
}

/* runc's global --criu PATH (go-runc passes it to every command when containerd's CriuPath
 * is set): every command takes it; a restore runs that criu, ahead of $CTRUN_CRIU, and one
 * that cannot be run is named as the flag's. */
Test(restore, global_criu_flag_names_the_criu_to_run)
{
	struct lc t;
	lc_init(&t);
	char *rec;
	char *img = stand_in("echo \"$0\" > \"$REC/ran\"\nexit 1\n", &rec);
	char *criu = ctt_path(rec, "criu"), *ran = ctt_path(rec, "ran");
	setenv("CTRUN_CRIU", "/nonexistent/criu", 1);
	lc_set_script(&t, "echo inside-ran");
	struct ctt_result r;
	lc_ctrun(&r, &t, "--criu", criu, "run", "--bundle", t.bundle, "cr1");
	cr_expect_eq(r.status, 0, "run with --criu: %s", r.err);
	cr_expect_str_eq(r.out, "inside-ran\n");
	ctt_result_free(&r);
	lc_ctrun(&r, &t, "--criu", criu, "restore", "--image-path", img, "--bundle", t.bundle,
		 "cr2");
	cr_expect_neq(r.status, 0, "the stand-in fails the restore");
	ctt_result_free(&r);
	cr_expect(ctt_exists(ran), "the --criu program did not run");
	lc_assert_nothing_left(&t);
	lc_ctrun(&r, &t, "--criu", "/nonexistent/criu-flag", "restore", "--image-path", img,
		 "--bundle", t.bundle, "cr3");
	ctt_assert_error(&r, "\"/nonexistent/criu-flag\" (from --criu)");
	ctt_result_free(&r);
	lc_assert_nothing_left(&t);
	/* a name without a slash is searched in $PATH, as runc's exec of it */
	unlink(ran);
	const char *was = getenv("PATH");
	char *old_path = strdup(was ? was : "/usr/bin:/bin"), *path = NULL;
	cr_assert(old_path && asprintf(&path, "%s:%s", rec, old_path) > 0);
	setenv("PATH", path, 1);
	lc_ctrun(&r, &t, "--criu", "criu", "restore", "--image-path", img, "--bundle", t.bundle,
		 "cr4");
	setenv("PATH", old_path, 1);
	cr_expect_neq(r.status, 0, "the stand-in fails the restore");
	ctt_result_free(&r);
	cr_expect(ctt_exists(ran), "--criu criu did not run the criu of $PATH");
	lc_assert_nothing_left(&t);
	free(old_path), free(path);
	free(ran), free(criu), free(img), free(rec);
}

/* The stand-in criu leaves an orphan (its child exits at once) and waits until the orphan has
 * written the pid it was handed to ($REC/adopter) next to criu's parent's ($REC/parent). */
static char *orphan_stand_in(char **rec)
{
	char *img = stand_in("echo $PPID > \"$REC/parent\"\n"
			     "sh -c 'sh \"$REC/orphan\" $$ &'\n"
			     "while [ ! -e \"$REC/adopter\" ]; do sleep 0.01; done\n"
			     "exit 1\n",
			     rec);
	char *orphan = ctt_path(*rec, "orphan");
	/* $1: its first parent, which may have exited before it started */
	ctt_write_file(orphan, "stat_ppid() { cut -d' ' -f4 /proc/$$/stat; }\n"
			       "while [ \"$(stat_ppid)\" = \"$1\" ]; do sleep 0.01; done\n"
			       "stat_ppid > \"$REC/adopter.tmp\"\n"
			       "mv \"$REC/adopter.tmp\" \"$REC/adopter\"\n");
	free(orphan);
	return img;
}

/* Whether ctrun (criu's parent) adopted the orphan of a restore run with these flags. */
static bool restore_adopts(struct lc *t, const char *flag)
{
	char *rec, *img = orphan_stand_in(&rec);
	struct ctt_result r;
	if (flag)
		lc_ctrun(&r, t, "restore", flag, "--image-path", img, "--bundle", t->bundle, "sr");
	else
		lc_ctrun(&r, t, "restore", "--image-path", img, "--bundle", t->bundle, "sr");
	cr_expect_neq(r.status, 0, "the stand-in fails the restore");
	ctt_result_free(&r);
	char *parent_file = ctt_path(rec, "parent"), *adopter_file = ctt_path(rec, "adopter");
	char *parent = ctt_read_file(parent_file), *adopter = ctt_read_file(adopter_file);
	bool adopted = strcmp(parent, adopter) == 0;
	free(parent), free(adopter), free(parent_file), free(adopter_file), free(img), free(rec);
	lc_assert_nothing_left(t);
	return adopted;
}

/* As runc 1.1.5's restore: a child subreaper before criu runs, detached too, unless
 * --no-subreaper (go-runc spells it -no-subreaper). */
Test(restore, a_subreaper_unless_no_subreaper)
{
	struct lc t;
	lc_init(&t);
	cr_expect(restore_adopts(&t, NULL), "a foreground restore is no subreaper");
	cr_expect(restore_adopts(&t, "--detach"), "a detached restore is no subreaper");
	cr_expect_not(restore_adopts(&t, "--no-subreaper"), "--no-subreaper: a subreaper");
	cr_expect_not(restore_adopts(&t, "-no-subreaper"), "-no-subreaper: a subreaper");
}
