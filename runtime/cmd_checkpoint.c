/* `ctrun checkpoint` and `ctrun restore`: runc's flags, as go-runc and Podman pass them. */
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "libct/lifecycle/ops.h"
#include "runtime/ctrun.h"

enum {
	OPT_IMAGE_PATH = 256,
	OPT_WORK_PATH,
	OPT_PARENT_PATH,
	OPT_LEAVE_RUNNING,
	OPT_TCP_ESTABLISHED,
	OPT_EXT_UNIX_SK,
	OPT_SHELL_JOB,
	OPT_FILE_LOCKS,
	OPT_PRE_DUMP,
	OPT_PAGE_SERVER,
	OPT_CG_MODE,
	OPT_EMPTY_NS,
	OPT_LAZY_PAGES,
	OPT_STATUS_FD,
	OPT_AUTO_DEDUP,
	/* restore */
	OPT_PID_FILE,
	OPT_CONSOLE_SOCKET,
	OPT_NO_PIVOT,
	OPT_NO_SUBREAPER,
	OPT_LSM_PROFILE,
	OPT_LSM_MOUNT_CONTEXT,
};

static const struct option options[] = {
	{"image-path", required_argument, NULL, OPT_IMAGE_PATH},
	{"work-path", required_argument, NULL, OPT_WORK_PATH},
	{"parent-path", required_argument, NULL, OPT_PARENT_PATH},
	{"leave-running", no_argument, NULL, OPT_LEAVE_RUNNING},
	{"tcp-established", no_argument, NULL, OPT_TCP_ESTABLISHED},
	{"ext-unix-sk", no_argument, NULL, OPT_EXT_UNIX_SK},
	{"shell-job", no_argument, NULL, OPT_SHELL_JOB},
	{"file-locks", no_argument, NULL, OPT_FILE_LOCKS},
	{"pre-dump", no_argument, NULL, OPT_PRE_DUMP},
	{"page-server", required_argument, NULL, OPT_PAGE_SERVER},
	{"manage-cgroups-mode", required_argument, NULL, OPT_CG_MODE},
	{"empty-ns", required_argument, NULL, OPT_EMPTY_NS},
	{"lazy-pages", no_argument, NULL, OPT_LAZY_PAGES},
	{"status-fd", required_argument, NULL, OPT_STATUS_FD},
	{"auto-dedup", no_argument, NULL, OPT_AUTO_DEDUP},
	{"bundle", required_argument, NULL, 'b'},
	{"detach", no_argument, NULL, 'd'},
	{"pid-file", required_argument, NULL, OPT_PID_FILE},
	{"console-socket", required_argument, NULL, OPT_CONSOLE_SOCKET},
	{"no-pivot", no_argument, NULL, OPT_NO_PIVOT},
	{"no-subreaper", no_argument, NULL, OPT_NO_SUBREAPER},
	{"lsm-profile", required_argument, NULL, OPT_LSM_PROFILE},
	{"lsm-mount-context", required_argument, NULL, OPT_LSM_MOUNT_CONTEXT},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

#define COMMON_USAGE                                                                    \
	"[--image-path DIR] [--work-path DIR] [--tcp-established] [--ext-unix-sk] "     \
	"[--shell-job] [--file-locks] [--manage-cgroups-mode soft|full|strict|ignore] " \
	"[--empty-ns network] [--status-fd N] [--auto-dedup]"

static int usage(const char *cmd, bool restore)
{
	if (restore)
		printf("Usage: ctrun restore " COMMON_USAGE " [--bundle DIR] [--detach] "
		       "[--pid-file F] [--console-socket S] [--no-subreaper] [--lsm-profile P] "
		       "[--lsm-mount-context C] ID\n");
	else
		printf("Usage: ctrun %s " COMMON_USAGE " [--parent-path DIR] [--leave-running] "
		       "[--pre-dump] [--page-server ADDR:PORT] ID\n",
		       cmd);
	return 1;
}

/* The flags only one of the two commands has. */
static bool checkpoint_only(int c)
{
	return c == OPT_PARENT_PATH || c == OPT_LEAVE_RUNNING || c == OPT_PRE_DUMP ||
	       c == OPT_PAGE_SERVER;
}

static bool restore_only(int c)
{
	return c == 'b' || c == 'd' || c >= OPT_PID_FILE;
}

static int parse_empty_ns(const char *cmd, const char *text, unsigned *out)
{
	if (strcmp(text, "network") != 0 && strcmp(text, "net") != 0)
		return ct_usage_error(cmd, "--empty-ns \"%s\": only network can be left empty",
				      text),
		       -1;
	*out |= CLONE_NEWNET;
	return 0;
}

/* The value of a flag with one; 0, or -1 after a usage error. */
static int with_value(const char *cmd, int c, const char *v, struct ct_criu_args *a)
{
	switch (c) {
	case OPT_IMAGE_PATH:
		a->image_path = v;
		return 0;
	case OPT_WORK_PATH:
		a->work_path = v;
		return 0;
	case OPT_PARENT_PATH:
		a->parent_path = v;
		return 0;
	case OPT_PAGE_SERVER:
		a->page_server = v;
		return 0;
	case OPT_CG_MODE:
		a->cg_mode = v;
		return 0;
	case OPT_EMPTY_NS:
		return parse_empty_ns(cmd, v, &a->empty_ns);
	case OPT_STATUS_FD:
		return ct_parse_count(cmd, "--status-fd", v, &a->status_fd);
	case 'b':
		a->bundle = v;
		return 0;
	case OPT_PID_FILE:
		a->pid_file = v;
		return 0;
	case OPT_CONSOLE_SOCKET:
		a->console_socket = v;
		return 0;
	case OPT_LSM_PROFILE:
		a->lsm_profile = v;
		return 0;
	case OPT_LSM_MOUNT_CONTEXT:
		a->lsm_mount_context = v;
		return 0;
	}
	return 1;
}

/* A flag without a value; 0, or -1 after a usage error. */
static int switch_on(const char *cmd, int c, struct ct_criu_args *a)
{
	switch (c) {
	case OPT_LEAVE_RUNNING:
		a->leave_running = true;
		return 0;
	case OPT_TCP_ESTABLISHED:
		a->tcp_established = true;
		return 0;
	case OPT_EXT_UNIX_SK:
		a->ext_unix_sk = true;
		return 0;
	case OPT_SHELL_JOB:
		a->shell_job = true;
		return 0;
	case OPT_FILE_LOCKS:
		a->file_locks = true;
		return 0;
	case OPT_PRE_DUMP:
		a->pre_dump = true;
		return 0;
	case OPT_AUTO_DEDUP:
		a->auto_dedup = true;
		return 0;
	case 'd':
		a->detach = true;
		return 0;
	case OPT_NO_SUBREAPER:
		return 0; /* ctrun never makes itself a subreaper */
	case OPT_LAZY_PAGES:
		return ct_usage_error(cmd, "--lazy-pages: not supported by ctrun (it runs no "
					   "criu lazy-pages daemon)"),
		       -1;
	case OPT_NO_PIVOT:
		return ct_usage_error(cmd, "--no-pivot: not supported by restore (criu makes "
					   "the root of the restored mount namespace itself)"),
		       -1;
	}
	return -1;
}

/* go-runc spells it with one dash; getopt would read that as short flags. */
static void accept_one_dash_no_subreaper(int argc, char **argv)
{
	static char two_dashes[] = "--no-subreaper";
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-no-subreaper") == 0)
			argv[i] = two_dashes;
}

/* Returns 0, -1 after a usage error, 1 after --help. */
static int parse(int argc, char **argv, bool restore, struct ct_criu_args *a)
{
	accept_one_dash_no_subreaper(argc, argv);
	int c;
	while ((c = ct_getopt(argc, argv, "+:b:dh", options)) != -1) {
		if (c == 'h')
			return usage(argv[0], restore);
		if (c == '?')
			return -1;
		if ((restore && checkpoint_only(c)) || (!restore && restore_only(c)))
			return ct_usage_error(argv[0], "unknown flag '%s'", argv[optind - 1]), -1;
		int rc = with_value(argv[0], c, optarg, a);
		if (rc == 1)
			rc = switch_on(argv[0], c, a);
		if (rc < 0)
			return -1;
	}
	if (optind != argc - 1)
		return ct_usage_error(argv[0], optind >= argc ? "missing container id"
							      : "too many arguments"),
		       -1;
	a->id = argv[optind];
	return 0;
}

static int run_command(const struct ct_globals *g, int argc, char **argv, bool restore)
{
	struct ct_criu_args a = {.image_path = "checkpoint", .status_fd = -1};
	int rc = parse(argc, argv, restore, &a);
	if (rc != 0)
		return rc > 0 ? 0 : 1;
	if (restore)
		return ct_lifecycle_restore(&g->lc, &a);
	return ct_lifecycle_checkpoint(&g->lc, &a) < 0 ? 1 : 0;
}

int cmd_checkpoint(const struct ct_globals *g, int argc, char **argv)
{
	return run_command(g, argc, argv, false);
}

int cmd_restore(const struct ct_globals *g, int argc, char **argv)
{
	return run_command(g, argc, argv, true);
}
