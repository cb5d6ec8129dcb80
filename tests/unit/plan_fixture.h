/* Plans built in unit tests (test_spawn_plan.c, test_mountcheck.c): a config parsed from a
 * string, ct_init_plan_build() on it, the rootfs an empty directory under /tmp made by the
 * suite's .init (plan_bundle_make) and removed by its .fini (plan_bundle_remove). */
#ifndef CTRUN_PLAN_FIXTURE_H
#define CTRUN_PLAN_FIXTURE_H

#include "libct/plan/plan.h"

/* JSON written as C tokens (see test_config.c): `#` keeps true/false and "linux" as written. */
#define JSON(...) #__VA_ARGS__

#define MINIMAL_PROCESS JSON({"args" : ["/bin/true"], "cwd" : "/"})

/* The bundle directory of the suite (its rootfs is plan_bundle/rootfs). */
extern char plan_bundle[64];

void plan_bundle_make(void);
void plan_bundle_remove(void);

/* One config, its options and its plan. */
struct plan_fixture {
	struct oci_config *config;
	struct ct_spawn_opts opts;
	struct ct_init_plan plan;
	struct ct_error err;
	int ret;
};

/* The debug lines (opts.notice) of the last plan_build(), one a line. */
extern char plan_notices[4096];

/* Parses text (which must parse) and builds its plan: f->ret and f->err say how. */
void plan_build(struct plan_fixture *f, const char *text);
/* The same; the build must succeed. */
void plan_build_ok(struct plan_fixture *f, const char *text);
void plan_done(struct plan_fixture *f);

/* A document with `process` (an object, NULL for none) and the given extra members (each a
 * "key": value). The result lives until the next call. */
const char *plan_doc_with(const char *process, const char *members);
/* The same with MINIMAL_PROCESS. */
const char *plan_doc(const char *members);

#endif
