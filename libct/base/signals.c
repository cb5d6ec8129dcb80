#include "libct/base/signals.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int number;
} signal_table[] = {
	{"HUP", SIGHUP},       {"INT", SIGINT},	  {"QUIT", SIGQUIT},	 {"ILL", SIGILL},
	{"TRAP", SIGTRAP},     {"ABRT", SIGABRT}, {"IOT", SIGIOT},	 {"BUS", SIGBUS},
	{"FPE", SIGFPE},       {"KILL", SIGKILL}, {"USR1", SIGUSR1},	 {"SEGV", SIGSEGV},
	{"USR2", SIGUSR2},     {"PIPE", SIGPIPE}, {"ALRM", SIGALRM},	 {"TERM", SIGTERM},
	{"STKFLT", SIGSTKFLT}, {"CHLD", SIGCHLD}, {"CONT", SIGCONT},	 {"STOP", SIGSTOP},
	{"TSTP", SIGTSTP},     {"TTIN", SIGTTIN}, {"TTOU", SIGTTOU},	 {"URG", SIGURG},
	{"XCPU", SIGXCPU},     {"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF},
	{"WINCH", SIGWINCH},   {"IO", SIGIO},	  {"POLL", SIGPOLL},	 {"PWR", SIGPWR},
	{"SYS", SIGSYS},
};

int ct_signal_parse(const char *text)
{
	if (!text || !*text)
		return -1;
	if (text[0] >= '0' && text[0] <= '9') {
		char *end;
		long n = strtol(text, &end, 10);
		return *end || n < 0 || n >= NSIG ? -1 : (int)n;
	}
	const char *name = strncasecmp(text, "SIG", 3) == 0 ? text + 3 : text;
	for (size_t i = 0; i < sizeof(signal_table) / sizeof(signal_table[0]); i++)
		if (strcasecmp(signal_table[i].name, name) == 0)
			return signal_table[i].number;
	return -1;
}

/* The table lists the usual name of a number first (ABRT before IOT, IO before POLL). */
const char *ct_signal_abbrev(int sig)
{
	for (size_t i = 0; i < sizeof(signal_table) / sizeof(signal_table[0]); i++)
		if (signal_table[i].number == sig)
			return signal_table[i].name;
	return NULL;
}
