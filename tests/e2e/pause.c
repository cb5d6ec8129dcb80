/* pause: the CRI e2e suite's pod sandbox process (what a kubelet's pause image runs). It is
 * the pid 1 of a pod that shares its pid namespace, so it reaps every child handed to it,
 * and it ends with status 0 on SIGTERM or SIGINT. Built static: the pause image holds
 * nothing else. */
#include <signal.h>
#include <sys/wait.h>

int main(void)
{
	sigset_t wanted;
	int sig = 0;

	sigemptyset(&wanted);
	sigaddset(&wanted, SIGCHLD);
	sigaddset(&wanted, SIGTERM);
	sigaddset(&wanted, SIGINT);
	sigprocmask(SIG_BLOCK, &wanted, 0);
	while (sig != SIGTERM && sig != SIGINT) {
		sig = sigwaitinfo(&wanted, 0);
		while (waitpid(-1, 0, WNOHANG) > 0)
			;
	}
	return 0;
}
