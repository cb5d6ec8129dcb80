/* `ctrun checkpoint` and `ctrun restore`: runc's flags, as go-runc and Podman pass them. */
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "libct/lifecycle/ops.h"
#include "libct/lifecycle/subreaper.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"

#define COMMON_USAGE                                                                    \
	"[--image-path DIR] [--work-path DIR] [--tcp-established] [--ext-unix-sk] "     \
	"[--shell-job] [--file-locks] [--manage-cgroups-mode soft|full|strict|ignore] " \
	"[--empty-ns network] [--status-fd N] [--auto-dedup]"
#define CHECKPOINT_USAGE                                                                   \
	COMMON_USAGE " [--parent-path DIR] [--leave-running] [--pre-dump] [--page-server " \
		     "ADDR:PORT] ID"
#define RESTORE_USAGE                                                                  \
	COMMON_USAGE " [--bundle DIR] [--detach] [--pid-file F] [--console-socket S] " \
		     "[--no-subreaper] [--lsm-profile P] [--lsm-mount-context C] ID"

static int take_empty_ns(void *to, const char *command, const char *text)
{
	if (strcmp(text, "network") != 0 && strcmp(text, "net") != 0)
		return ct_usage_error(command, "--empty-ns \"%s\": only network can be left empty",
				      text),
		       -1;
	*(unsigned *)to |= CLONE_NEWNET;
	return 0;
}

static int refuse_lazy_pages(void *to, const char *command, const char *none)
{
	(void)to, (void)none;
	return ct_usage_error(command, "--lazy-pages: not supported by ctrun (it runs no "
				       "criu lazy-pages daemon)"),
	       -1;
}

static int refuse_no_pivot(void *to, const char *command, const char *none)
{
	(void)to, (void)none;
	return ct_usage_error(command, "--no-pivot: not supported by restore (criu makes "
				       "the root of the restored mount namespace itself)"),
	       -1;
}

/* go-runc spells it with one dash; getopt would read that as short flags. */
static void accept_one_dash_no_subreaper(int argc, char **argv)
{
	static char two_dashes[] = "--no-subreaper";
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "-no-subreaper") == 0)
			argv[i] = two_dashes;
}

/* Returns 0, -1 after a usage error, 1 after --help. Each command refuses the other's own
 * flags as unknown. */
static int parse(int argc, char **argv, bool restore, struct ct_criu_args *a)
{
	bool dump = !restore;
	const struct ct_flag flags[] = {
		{"image-path", 0, CT_FLAG_TEXT, &a->image_path},
		{"work-path", 0, CT_FLAG_TEXT, &a->work_path},
		{"parent-path", 0, CT_FLAG_TEXT, dump ? &a->parent_path : NULL},
		{"leave-running", 0, CT_FLAG_TRUE, dump ? &a->leave_running : NULL},
		{"tcp-established", 0, CT_FLAG_TRUE, &a->tcp_established},
		{"ext-unix-sk", 0, CT_FLAG_TRUE, &a->ext_unix_sk},
		{"shell-job", 0, CT_FLAG_TRUE, &a->shell_job},
		{"file-locks", 0, CT_FLAG_TRUE, &a->file_locks},
		{"pre-dump", 0, CT_FLAG_TRUE, dump ? &a->pre_dump : NULL},
		{"page-server", 0, CT_FLAG_TEXT, dump ? &a->page_server : NULL},
		{"manage-cgroups-mode", 0, CT_FLAG_TEXT, &a->cg_mode},
		{"empty-ns", 0, CT_FLAG_CALL, &a->empty_ns, take_empty_ns},
		{"lazy-pages", 0, CT_FLAG_CALL_SWITCH, a, refuse_lazy_pages},
		{"status-fd", 0, CT_FLAG_COUNT, &a->status_fd},
		{"auto-dedup", 0, CT_FLAG_TRUE, &a->auto_dedup},
		{"bundle", 'b', CT_FLAG_TEXT, restore ? &a->bundle : NULL},
		{"detach", 'd', CT_FLAG_TRUE, restore ? &a->detach : NULL},
		{"pid-file", 0, CT_FLAG_TEXT, restore ? &a->pid_file : NULL},
		{"console-socket", 0, CT_FLAG_TEXT, restore ? &a->console_socket : NULL},
		{"no-pivot", 0, CT_FLAG_CALL_SWITCH, restore ? a : NULL, refuse_no_pivot},
		{"no-subreaper", 0, CT_FLAG_TRUE, restore ? &a->no_subreaper : NULL},
		{"lsm-profile", 0, CT_FLAG_TEXT, restore ? &a->lsm_profile : NULL},
		{"lsm-mount-context", 0, CT_FLAG_TEXT, restore ? &a->lsm_mount_context : NULL},
		{NULL},
	};
	const struct ct_command_line line = {restore ? RESTORE_USAGE : CHECKPOINT_USAGE, flags, 1,
					     1};
	accept_one_dash_no_subreaper(argc, argv);
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed == 0)
		a->id = argv[optind];
	return parsed;
}

static int run_command(const struct ct_globals *g, int argc, char **argv, bool restore)
{
	struct ct_criu_args a = {.image_path = "checkpoint", .status_fd = -1};
	int rc = parse(argc, argv, restore, &a);
	if (rc != 0)
		return rc > 0 ? 0 : 1;
	/* as runc's restore: a subreaper before criu runs, detached too, unless --no-subreaper
	 * (what the restored tree orphans comes to ctrun while it lives) */
	struct ct_error err = {0};
	if (restore && !a.no_subreaper && ct_subreaper_become(&err) < 0)
		return ct_lifecycle_fail("restore", a.id, &err), 1;
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
