/* See plan_fixture.h. */
#include "libct/parent/spawn_plan.h"
#include "tests/unit/plan_fixture.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char plan_bundle[64];
static char rootfs[128];

void plan_bundle_make(void)
{
	snprintf(plan_bundle, sizeof(plan_bundle), "/tmp/ct-h8-plan-XXXXXX");
	cr_assert_not_null(mkdtemp(plan_bundle), "mkdtemp: %s", strerror(errno));
	snprintf(rootfs, sizeof(rootfs), "%s/rootfs", plan_bundle);
	cr_assert_eq(mkdir(rootfs, 0755), 0, "mkdir %s: %s", rootfs, strerror(errno));
}

void plan_bundle_remove(void)
{
	rmdir(rootfs);
	rmdir(plan_bundle);
}

char plan_notices[4096];

static void collect_notice(const char *msg)
{
	size_t len = strlen(plan_notices);
	snprintf(plan_notices + len, sizeof(plan_notices) - len, "%s\n", msg);
}

void plan_build(struct plan_fixture *f, const char *text)
{
	memset(f, 0, sizeof(*f));
	plan_notices[0] = '\0';
	struct ct_error perr = {0};
	cr_assert_eq(oci_config_parse(text, NULL, &f->config, &perr), 0, "parse: %s\n%s", perr.msg,
		     text);
	f->opts = (struct ct_spawn_opts){
		.config = f->config,
		.bundle = plan_bundle,
		.rootfs = rootfs,
		.id = "h8",
		.state_dirfd = -1,
		.start = CT_START_SYNC,
		.verify_mounts = true,
		.notice = collect_notice,
	};
	f->ret = ct_init_plan_build(&f->opts, &f->plan, &f->err);
}

void plan_build_ok(struct plan_fixture *f, const char *text)
{
	plan_build(f, text);
	cr_assert_eq(f->ret, 0, "refused: %s\n%s", f->err.msg, text);
}

void plan_done(struct plan_fixture *f)
{
	ct_init_plan_free(&f->plan);
	oci_config_free(f->config);
}

const char *plan_doc_with(const char *process, const char *members)
{
	static char text[8192];
	int n = snprintf(text, sizeof(text),
			 "{\"ociVersion\": \"1.3.0\", \"root\": {\"path\": \"rootfs\"}%s%s%s%s}",
			 process ? ", \"process\": " : "", process ? process : "",
			 *members ? ", " : "", members);
	cr_assert_lt((size_t)n, sizeof(text));
	return text;
}

const char *plan_doc(const char *members)
{
	return plan_doc_with(MINIMAL_PROCESS, members);
}
