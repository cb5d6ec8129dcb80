/* `ctrun ps [--format table|json] ID [PS_ARGS...]`, as runc does it: json is the array of
 * the container's host pids (what containerd reads); table runs the host's ps with the
 * arguments (default -ef) and keeps its header and the container's rows. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/lifecycle/pids.h"
#include "libct/state/state.h"
#include "runtime/flags.h"
#include "runtime/log.h"
#include "runtime/ps_filter.h"

#define PS_OUTPUT_MAX (64u << 20)

static void print_json(const pid_t *pids, size_t n)
{
	printf("[");
	for (size_t i = 0; i < n; i++)
		printf("%s%d", i ? "," : "", (int)pids[i]);
	printf("]\n");
}

/* Runs ps with args (argv-style, NULL-terminated, args[0] "ps") and returns its stdout. */
static char *run_ps(char *const *args, struct ct_error *err)
{
	_cleanup_close_pair_ int pipefd[2] = CT_FD_PAIR_INIT;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return ct_error_sys(err, errno, "pipe for ps"), NULL;
	pid_t pid = fork();
	if (pid < 0)
		return ct_error_sys(err, errno, "fork for ps"), NULL;
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		execvp("ps", args);
		fprintf(stderr, "ctrun: exec ps: %s\n", strerror(errno));
		_exit(127);
	}
	ct_close_now(&pipefd[1]); /* so that its exit is our EOF */
	char *out = ct_read_all(pipefd[0], PS_OUTPUT_MAX, NULL);
	int saved = errno;
	ct_close_now(&pipefd[0]); /* ps writing more than we read gets EPIPE, not a full pipe */
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!out && saved == EFBIG) { /* ct_read_all's own: more than it may read */
		ct_error_plain(err, EFBIG, "the output of ps: larger than %u bytes", PS_OUTPUT_MAX);
	} else if (!out) {
		ct_error_sys(err, saved, "read the output of ps");
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		ct_error_plain(err, EINVAL, "ps %s failed (exit status %d)", args[1] ? args[1] : "",
			       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		free(out);
		out = NULL;
	}
	return out;
}

static int print_table(char **ps_args, int n_args, const pid_t *pids, size_t n,
		       struct ct_error *err)
{
	char *default_args[] = {"ps", "-ef", NULL};
	_cleanup_free_ char **args = calloc((size_t)n_args + 2, sizeof(char *));
	if (!args)
		return ct_error_sys(err, ENOMEM, "ps arguments");
	args[0] = "ps";
	memcpy(args + 1, ps_args, (size_t)n_args * sizeof(char *));
	_cleanup_free_ char *out = run_ps(n_args ? args : default_args, err);
	_cleanup_free_ char *table = NULL;
	if (!out || ct_ps_filter(out, pids, n, &table, err) < 0)
		return -1;
	fputs(table, stdout);
	return 0;
}

int cmd_ps(const struct ct_globals *g, int argc, char **argv)
{
	bool json = false;
	const struct ct_flag flags[] = {{"format", 'f', CT_FLAG_FORMAT, &json}, {NULL}};
	const struct ct_command_line line = {"[--format table|json] ID [PS_ARGS...]", flags, 1,
					     CT_ARGS_ANY};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;
	const char *id = argv[optind];
	if (json && optind + 1 < argc)
		return ct_usage_error(argv[0], "ps arguments cannot be used with --format json");
	struct ct_error err = {0};
	pid_t *pids = NULL;
	size_t n = 0;
	int rc = ct_container_pids(&g->lc, id, &pids, &n, &err);
	if (rc == 0 && json)
		print_json(pids, n);
	else if (rc == 0)
		rc = print_table(argv + optind + 1, argc - optind - 1, pids, n, &err);
	free(pids);
	if (rc < 0) {
		ct_log(CT_LOG_ERROR, "ps of container \"%s\": %s", ct_shown_id(id).s, err.msg);
		return 1;
	}
	return 0;
}
