/* Checks documents against the runtime-spec's JSON schemas with python3's jsonschema, the
 * validator the spec's own tooling uses. */
#include "tests/lib/testlib.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PYTHON "/usr/bin/python3"

/* The schemas are draft-04 and refer to each other ("defs.json#/definitions/..."): the
 * resolver is rooted at the schema directory so those references resolve to files. */
static const char validate_py[] =
	"import json, os, sys, warnings\n"
	"warnings.simplefilter('ignore')\n"
	"import jsonschema\n"
	"doc, schema = sys.argv[1], sys.argv[2]\n"
	"with open(schema) as f: s = json.load(f)\n"
	"with open(doc) as f: d = json.load(f)\n"
	"base = 'file://' + os.path.dirname(os.path.abspath(schema)) + '/'\n"
	"resolver = jsonschema.RefResolver(base_uri=base, referrer=s)\n"
	"v = jsonschema.Draft4Validator(s, resolver=resolver)\n"
	"errors = sorted(v.iter_errors(d), key=lambda e: [str(p) for p in e.absolute_path])\n"
	"for e in errors:\n"
	"    where = ''.join('[%d]' % p if isinstance(p, int) else '.' + p\n"
	"                    for p in e.absolute_path) or '.'\n"
	"    print('%s: %s' % (where, e.message), file=sys.stderr)\n"
	"sys.exit(1 if errors else 0)\n";

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *ctt_spec_dir(void)
{
	static char dir[4096];
	const char *env = getenv("CTRUN_SPEC_DIR");
	const char *src = getenv("CTRUN_SRC");
	if (env && *env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (src && *src)
		snprintf(dir, sizeof(dir), "%s/../shared/runtime-spec", src);
	else
		return NULL;
	return is_dir(dir) ? dir : NULL;
}

static bool have_jsonschema(void)
{
	if (access(PYTHON, X_OK) != 0)
		return false;
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){PYTHON, "-c", "import jsonschema", NULL});
	ctt_result_free(&r);
	return r.status == 0;
}

void ctt_assert_schema_valid(const char *file, const char *schema)
{
	const char *spec = ctt_spec_dir();
	if (!spec)
		ctt_skip("no runtime-spec directory (set CTRUN_SPEC_DIR or CTRUN_SRC)");
	if (!have_jsonschema())
		ctt_skip("%s has no jsonschema module (install python3-jsonschema)", PYTHON);
	char *schema_dir = ctt_path(spec, "schema");
	char *schema_path = ctt_path(schema_dir, schema);
	cr_assert(ctt_exists(schema_path), "no schema \"%s\"", schema_path);
	struct ctt_result r;
	ctt_run(&r, NULL,
		(const char *const[]){PYTHON, "-c", validate_py, file, schema_path, NULL});
	cr_assert_eq(r.status, 0, "%s does not match %s:\n%s", file, schema, r.err);
	ctt_result_free(&r);
	free(schema_path);
	free(schema_dir);
}
