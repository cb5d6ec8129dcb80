/* descriptors.json (ct_criu_descriptors_json): the init's fds 0-2 as JSON that reads back as
 * the links were, whatever a file's name holds. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yajl/yajl_tree.h>

#include "libct/lifecycle/criu_container.h"

static char dir[] = "/tmp/criu-desc-XXXXXX";
static char file[sizeof(dir) + 32];

static void remove_files(void)
{
	if (file[0])
		unlink(file);
	if (!strchr(dir, 'X'))
		rmdir(dir);
}

TestSuite(criu_descriptors, .fini = remove_files);

/* A child whose fd 0 is a pipe, fd 1 the file, fd 2 closed, waiting to be killed once it
 * said (on `ready`) that its fds are so. */
static pid_t child_with_stdio(void)
{
	int p[2], ready[2];
	cr_assert_eq(pipe(p), 0);
	cr_assert_eq(pipe2(ready, O_CLOEXEC), 0);
	int out = open(file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	cr_assert_geq(out, 0, "%s: %s", file, strerror(errno));
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (dup2(p[0], 0) < 0 || dup2(out, 1) < 0 || close(2) < 0 ||
		    write(ready[1], "", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	char byte;
	close(ready[1]);
	cr_assert_eq(read(ready[0], &byte, 1), 1, "the child did not get ready");
	close(ready[0]);
	close(p[0]);
	close(p[1]);
	close(out);
	return pid;
}

static const char *item(yajl_val v, size_t i)
{
	cr_assert(YAJL_IS_ARRAY(v) && v->u.array.len == 3, "not an array of three");
	const char *s = YAJL_GET_STRING(v->u.array.values[i]);
	cr_assert_not_null(s, "[%zu] is not a string", i);
	return s;
}

Test(criu_descriptors, links_read_back_as_they_are)
{
	cr_assert_not_null(mkdtemp(dir));
	/* a quote, a backslash, a newline, a tab and a non-ASCII letter */
	snprintf(file, sizeof(file), "%s/a\"b\\c\nd\te\xc3\xa9", dir);
	pid_t pid = child_with_stdio();
	struct ct_error err = {0};
	char *json = ct_criu_descriptors_json(pid, &err);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	cr_assert_not_null(json, "%s", err.msg);
	char why[256];
	yajl_val v = yajl_tree_parse(json, why, sizeof(why));
	cr_assert_not_null(v, "%s: %s", why, json);
	cr_expect_eq(strncmp(item(v, 0), "pipe:[", 6), 0, "fd 0: %s", item(v, 0));
	cr_expect_str_eq(item(v, 1), file);
	cr_expect_str_eq(item(v, 2), "", "a closed fd");
	yajl_tree_free(v);
	free(json);
}
