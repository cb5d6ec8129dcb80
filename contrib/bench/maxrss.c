/* maxrss OUT CMD...: runs CMD and writes its peak RSS (KiB) to OUT. A child's ru_maxrss
 * includes its life before exec, so the parent must be small: this, not Python. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: maxrss OUT CMD...\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 2;
	FILE *f = fopen(argv[1], "w");
	if (f) {
		fprintf(f, "%ld\n", ru.ru_maxrss);
		fclose(f);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
