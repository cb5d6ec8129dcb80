/* enosys: run a command as if the kernel lacked some syscalls.
 *
 *   enosys [--errno ERRNO] [--no-nnp] SYSCALL[,SYSCALL...] -- CMD [ARG...]
 *   enosys [--errno ERRNO] [--no-nnp] --clone-pidfd-einval [SYSCALL[,SYSCALL...]] -- CMD ...
 *
 * Installs a seccomp filter that makes each named syscall fail with ENOSYS (or ERRNO, a name
 * like EPERM or a number) and lets everything else through, then execs CMD. The filter is
 * inherited by every child, so `enosys clone3 -- ctrun run ...` exercises ctrun's fallbacks
 * the way an old kernel or a container host's seccomp profile would. SYSCALL is a name or a
 * number; names libseccomp 2.5.4 does not know (fchmodat2, statmount, listmount, ...) are
 * taken from libct/base/syscalls.h.
 *
 * --clone-pidfd-einval also makes clone() fail with EINVAL when CLONE_PIDFD is among its
 * flags (an argument filter on the first argument, masked with CLONE_PIDFD), as a kernel
 * before 5.2 answers; clone() without it, and so fork(), still works. With it the list of
 * syscalls may be left out. `enosys --clone-pidfd-einval clone3 -- ctrun ...` drives ctrun's
 * spawn onto its last fallback, clone() then pidfd_open(). ctrun makes no other clone() with
 * CLONE_PIDFD (glibc's fork and threads never ask for a pidfd), so only that spawn is hit.
 *
 * no_new_privs is set, as seccomp requires of an unprivileged caller; --no-nnp leaves it
 * clear, which needs CAP_SYS_ADMIN, for tests that look at NoNewPrivs.
 *
 * Exit status: CMD's, or 2 on a usage error, 1 when the filter cannot be installed, 127 when
 * CMD cannot be executed. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "libct/base/syscalls.h"

#define EXIT_USAGE 2
#define EXIT_SETUP 1
#define EXIT_EXEC  127

struct named_number {
	const char *name;
	int number;
};

/* Syscalls newer than libseccomp 2.5.4's table, and the ones libct probes, so that the
 * helper works whatever the installed libseccomp knows. */
static const struct named_number own_syscalls[] = {
	{"pidfd_send_signal", __NR_pidfd_send_signal},
	{"open_tree", __NR_open_tree},
	{"move_mount", __NR_move_mount},
	{"fsopen", __NR_fsopen},
	{"fsconfig", __NR_fsconfig},
	{"fsmount", __NR_fsmount},
	{"fspick", __NR_fspick},
	{"pidfd_open", __NR_pidfd_open},
	{"clone3", __NR_clone3},
	{"openat2", __NR_openat2},
	{"pidfd_getfd", __NR_pidfd_getfd},
	{"mount_setattr", __NR_mount_setattr},
	{"fchmodat2", __NR_fchmodat2},
	{"statmount", __NR_statmount},
	{"listmount", __NR_listmount},
	{"open_tree_attr", __NR_open_tree_attr},
};

static const struct named_number errno_names[] = {
	{"ENOSYS", ENOSYS}, {"EPERM", EPERM},	  {"EACCES", EACCES},
	{"EINVAL", EINVAL}, {"ENOTSUP", ENOTSUP}, {"EOPNOTSUPP", EOPNOTSUPP},
};

static void usage(void)
{
	fprintf(stderr, "usage: enosys [--errno ERRNO] [--no-nnp] [--clone-pidfd-einval] "
			"SYSCALL[,SYSCALL...] -- CMD [ARG...]\n");
	exit(EXIT_USAGE);
}

static bool parse_number(const char *s, int *out)
{
	if (!isdigit((unsigned char)*s))
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v > 0x7fffffff)
		return false;
	*out = (int)v;
	return true;
}

static bool lookup(const struct named_number *table, size_t n, const char *name, int *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(table[i].name, name) == 0) {
			*out = table[i].number;
			return true;
		}
	}
	return false;
}

static int parse_errno(const char *s)
{
	int e;
	if (parse_number(s, &e) ||
	    lookup(errno_names, sizeof(errno_names) / sizeof(errno_names[0]), s, &e))
		return e;
	fprintf(stderr, "enosys: unknown errno \"%s\"\n", s);
	exit(EXIT_USAGE);
}

/* The native syscall number for name, or -1. */
static int resolve_syscall(const char *name)
{
	int nr;
	if (parse_number(name, &nr))
		return nr;
	nr = seccomp_syscall_resolve_name(name);
	if (nr >= 0)
		return nr;
	if (lookup(own_syscalls, sizeof(own_syscalls) / sizeof(own_syscalls[0]), name, &nr))
		return nr;
	return -1;
}

/* Adds one ERRNO rule per name of the comma-separated list; returns how many. */
static int add_rules(scmp_filter_ctx ctx, const char *list, int err)
{
	char *copy = strdup(list);
	if (!copy) {
		perror("enosys");
		exit(EXIT_SETUP);
	}
	char *save = NULL;
	int count = 0;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int nr = resolve_syscall(name);
		if (nr < 0) {
			fprintf(stderr, "enosys: unknown syscall \"%s\"\n", name);
			exit(EXIT_USAGE);
		}
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0);
		if (r < 0) {
			fprintf(stderr, "enosys: seccomp rule for \"%s\": %s\n", name,
				strerror(-r));
			exit(EXIT_SETUP);
		}
		count++;
	}
	free(copy);
	return count;
}

/* clone(flags, ...) with (flags & CLONE_PIDFD) == CLONE_PIDFD: EINVAL, as before Linux 5.2. */
static void add_clone_pidfd_rule(scmp_filter_ctx ctx)
{
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EINVAL), SCMP_SYS(clone), 1,
				 SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_PIDFD, CLONE_PIDFD));
	if (r < 0) {
		fprintf(stderr, "enosys: seccomp rule for clone(CLONE_PIDFD): %s\n", strerror(-r));
		exit(EXIT_SETUP);
	}
}

/* list may be NULL when clone_pidfd is set. */
static void install_filter(const char *list, int err, bool nnp, bool clone_pidfd)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fprintf(stderr, "enosys: seccomp_init failed\n");
		exit(EXIT_SETUP);
	}
	if (clone_pidfd)
		add_clone_pidfd_rule(ctx);
	if (list && add_rules(ctx, list, err) == 0 && !clone_pidfd)
		usage();

	/* Said explicitly rather than left to libseccomp's default, and --no-nnp relies on it. */
	if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("enosys: PR_SET_NO_NEW_PRIVS");
		exit(EXIT_SETUP);
	}
	int r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, nnp ? 1 : 0);
	if (r == 0)
		r = seccomp_load(ctx);
	if (r < 0) {
		fprintf(stderr, "enosys: loading the seccomp filter: %s\n", strerror(-r));
		exit(EXIT_SETUP);
	}
	seccomp_release(ctx);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"errno", required_argument, NULL, 'e'},
		{"no-nnp", no_argument, NULL, 'N'},
		{"clone-pidfd-einval", no_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int err = ENOSYS;
	bool nnp = true, clone_pidfd = false;
	int c;

	/* "+": stop at the first operand, so CMD's own options are never ours. */
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			err = parse_errno(optarg);
			break;
		case 'N':
			nnp = false;
			break;
		case 'C':
			clone_pidfd = true;
			break;
		default:
			usage();
		}
	}
	/* Without a syscall list (only with --clone-pidfd-einval) "--" comes first, and getopt
	 * has already taken it. */
	const char *list = NULL;
	if (strcmp(argv[optind - 1], "--") != 0) {
		if (optind < argc && strcmp(argv[optind], "--") != 0)
			list = argv[optind++];
		if (optind >= argc || strcmp(argv[optind], "--") != 0)
			usage();
		optind++;
	}
	if ((!list && !clone_pidfd) || optind >= argc)
		usage();

	install_filter(list, err, nnp, clone_pidfd);

	char **cmd = &argv[optind];
	execvp(cmd[0], cmd);
	fprintf(stderr, "enosys: exec \"%s\": %s\n", cmd[0], strerror(errno));
	return EXIT_EXEC;
}
