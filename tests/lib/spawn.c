/* Background processes of a test (a ctrun that waits, a console receiver, a process whose
 * pid a stopped container's state then names), killed at the clean-up if still there. */
#include "tests/lib/container.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SPAWNED 24

/* Each Criterion test runs in its own process: this list is per test. */
static pid_t spawned[MAX_SPAWNED];
static unsigned nspawned;

pid_t lc_spawn(const struct lc *t, const char *const *argv, const char *out, int fd3)
{
	return lc_spawn_stdin(t, argv, "/dev/null", out, fd3);
}

pid_t lc_spawn_stdin(const struct lc *t, const char *const *argv, const char *in, const char *out,
		     int fd3)
{
	unsigned slot = 0;
	while (slot < nspawned && spawned[slot])
		slot++;
	cr_assert_lt(slot, MAX_SPAWNED, "too many background processes");
	char *mark = lc_mark_env(t);
	char **env = ctt_env_with((const char *const[]){mark, NULL});
	pid_t pid = ctt_fork_exec(argv, env, in, out, out, fd3);
	free(env);
	free(mark);
	spawned[slot] = pid;
	if (slot == nspawned)
		nspawned++;
	return pid;
}

char *lc_spawn_output(const struct lc *t, const char *const *argv, int fd3, int *status)
{
	char *out = ctt_tmp_path("out");
	pid_t pid = lc_spawn(t, argv, out, fd3);
	*status = lc_wait(pid, 20000);
	char *text = ctt_read_file(out);
	free(out);
	return text;
}

pid_t lc_console_receiver(const struct lc *t, const char *sock, const char *out,
			  const char *const *opts)
{
	const char *argv[8] = {ctt_helper("console_receiver"), sock};
	size_t n = 2;
	for (; opts && *opts; opts++) {
		cr_assert_lt(n, 7, "too many receiver options");
		argv[n++] = *opts;
	}
	argv[n] = NULL;
	pid_t pid = lc_spawn(t, argv, out, -1);
	free(ctt_wait_content(out, "ready\n"));
	return pid;
}

pid_t lc_seccomp_listener(const struct lc *t, const char *sock, const char *state, const char *out,
			  const char *answer, bool hold)
{
	const char *argv[] = {ctt_helper("seccomp_listener"), sock, state, answer, NULL, NULL};
	if (hold)
		argv[4] = "hold";
	pid_t pid = lc_spawn(t, argv, out, -1);
	free(ctt_wait_content(out, "ready\n"));
	return pid;
}

void lc_wait_listener_taken(const char *sock)
{
	for (unsigned waited = 0; ctt_exists(sock); waited += 10) {
		cr_assert_lt(waited, CTT_POLL_LIMIT_MS, "the agent still listens on %s", sock);
		ctt_sleep_ms(10);
	}
}

int lc_wait(pid_t pid, unsigned timeout_ms)
{
	int wstatus;
	for (unsigned waited = 0;; waited += 10) {
		pid_t r = waitpid(pid, &wstatus, WNOHANG);
		cr_assert_geq(r, 0, "waitpid %d: %s", pid, strerror(errno));
		if (r == pid)
			break;
		if (waited >= timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &wstatus, 0);
			cr_assert_fail("process %d did not exit within %u ms", pid, timeout_ms);
		}
		ctt_sleep_ms(10);
	}
	for (unsigned i = 0; i < nspawned; i++)
		if (spawned[i] == pid)
			spawned[i] = 0;
	return WIFSIGNALED(wstatus) ? 128 + WTERMSIG(wstatus) : WEXITSTATUS(wstatus);
}

pid_t lc_recycle_pid(const struct lc *t, const char *id)
{
	char *file = lc_state_file(t, id), *out = ctt_tmp_path("recycled.out");
	yajl_val state = ctt_json_load(file);
	unsigned long long recorded =
		(unsigned long long)ctt_json_get_int(state, ".ctrun.pidStartTime");
	yajl_tree_free(state);
	pid_t other;
	/* a process started in the same clock tick as the init is, by start time, the init */
	for (;;) {
		other = lc_spawn(t, (const char *const[]){"/bin/sleep", "1000", NULL}, out, -1);
		if (ctt_start_time(other) != recorded)
			break;
		kill(other, SIGKILL);
		lc_wait(other, CTT_POLL_LIMIT_MS);
	}
	char pidtext[16];
	snprintf(pidtext, sizeof(pidtext), "%d", other);
	ctt_json_edit_file(file, ".pid", pidtext);
	free(out);
	free(file);
	return other;
}

void lc_kill_spawned(void)
{
	for (unsigned i = 0; i < nspawned; i++)
		if (spawned[i] > 0) {
			kill(spawned[i], SIGKILL);
			waitpid(spawned[i], NULL, 0);
		}
	nspawned = 0;
}

char **lc_run_concurrently(const struct lc *t, size_t n, lc_command_fn command, unsigned timeout_ms)
{
	char *dir = ctt_tmpdir();
	pid_t *pids = calloc(n, sizeof(*pids));
	char **outs = calloc(n, sizeof(*outs));
	cr_assert(pids && outs, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char name[32], buf[128];
		const char *args[LC_COMMAND_MAX] = {NULL};
		command(t, i, args, buf, sizeof(buf));
		snprintf(name, sizeof(name), "out%zu", i);
		outs[i] = ctt_path(dir, name);
		pids[i] = lc_spawn(t, lc_ctrun_argv(t, args), outs[i], -1);
	}
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(lc_wait(pids[i], timeout_ms), 0, "command #%zu", i);
		char *text = ctt_read_file(outs[i]);
		free(outs[i]);
		outs[i] = text;
	}
	free(pids);
	free(dir);
	return outs;
}
