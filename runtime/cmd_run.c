/* `ctrun run`: create + start in one process; in the foreground it forwards signals to the
 * container, reaps it, deletes it (unless --keep) and exits with its status
 * (libct/lifecycle/ops.h). */
#include "libct/lifecycle/ops.h"
#include "libct/lifecycle/subreaper.h"
#include "runtime/create_flags.h"
#include "runtime/ctrun.h"

int cmd_run(const struct ct_globals *g, int argc, char **argv)
{
	struct ct_run_flags f = {.create = {.start = CT_START_SYNC}};
	int rc = ct_parse_create_flags(argc, argv, true, &f);
	if (rc)
		return rc < 0 ? 1 : 0;
	/* as runc: a subreaper while in the foreground, unless --no-subreaper */
	struct ct_error err = {0};
	if (!f.detach && !f.no_subreaper && ct_subreaper_become(&err) < 0)
		return ct_lifecycle_fail("run", f.create.id, &err), 1;
	return ct_lifecycle_run(&g->lc, &f.create, f.detach, f.keep);
}
