/* `ctrun update [--resources FILE|-] [runc's resource flags] ID`: changes the resources of a
 * running (or created, or paused) container. The document (a LinuxResources object, from a
 * file or, with "-", stdin as containerd sends it) is read by the walker of config.json's
 * .linux.resources, so an error names the file and the JSON path; the flags are laid over
 * it; the update itself is the lifecycle's (libct/lifecycle/ops.h). Neither given, it changes
 * nothing but still says whether the container can be updated, as runc and crun. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/lifecycle/ops.h"
#include "oci/jsonwrite.h"
#include "runtime/log.h"
#include "runtime/update_flags.h"

enum { OPT_RESOURCES = 'r', OPT_HELP = 'h', OPT_FLAG = 256 };

static int usage(void)
{
	printf("Usage: ctrun update [--resources FILE|-] [flags] ID\n\n"
	       "  -r, --resources FILE   a LinuxResources JSON object (\"-\": stdin)\n");
	for (size_t i = 0; ct_update_flag_at(i); i++)
		printf("  --%-20s %s\n", ct_update_flag_at(i)->name, ct_update_flag_at(i)->help);
	return 0;
}

/* --resources: the document, from the file or from stdin. */
static int read_document(const char *from, struct oci_resources **out, struct ct_error *err)
{
	bool in = strcmp(from, "-") == 0;
	size_t len = 0;
	_cleanup_free_ char *text = in ? ct_read_all(STDIN_FILENO, CT_RESOURCES_MAX, &len)
				       : oci_read_file(from, CT_RESOURCES_MAX, err);
	if (!text && in && errno == EFBIG) /* ct_read_all's own: more than it may read */
		return ct_error_plain(err, EFBIG, "stdin: larger than %u bytes", CT_RESOURCES_MAX);
	if (!text)
		return in ? ct_error_sys(err, errno, "read the resources from stdin") : -1;
	/* the parser reads a C string: what follows a NUL would go unread (oci_read_file checks
	 * a file the same way) */
	if (in && strlen(text) != len)
		return ct_error_plain(err, EINVAL, "stdin: contains a NUL byte");
	return oci_resources_parse(text, in ? "stdin" : from, out, err);
}

/* The command line -> the update's resources and the id. Returns 0, or the exit status + 1
 * (a usage error or --help). */
static int parse_args(int argc, char **argv, struct oci_resources **upd, const char **id)
{
	struct option opts[40];
	size_t n = 0;
	opts[n++] = (struct option){"resources", required_argument, NULL, OPT_RESOURCES};
	opts[n++] = (struct option){"help", no_argument, NULL, OPT_HELP};
	for (size_t i = 0; ct_update_flag_at(i) && n < 39; i++)
		opts[n++] = (struct option){ct_update_flag_at(i)->name, required_argument, NULL,
					    OPT_FLAG + (int)i};
	opts[n] = (struct option){NULL, 0, NULL, 0};
	const char *document = NULL;
	struct oci_resources flags = {0};
	int c, rc = 0;
	struct ct_error err = {0};
	while (!rc && (c = ct_getopt(argc, argv, "+:r:h", opts)) != -1) {
		if (c == OPT_RESOURCES)
			document = optarg;
		else if (c == OPT_HELP)
			rc = usage() + 1;
		else if (c < OPT_FLAG)
			rc = 2;
		else if (ct_update_flag_set(&flags, ct_update_flag_at(c - OPT_FLAG)->name, optarg,
					    &err) < 0)
			rc = ct_usage_error(argv[0], "%s", err.msg) + 1;
	}
	if (!rc && optind + 1 != argc)
		rc = ct_usage_error(argv[0], optind >= argc ? "missing container id"
							    : "too many arguments") +
		     1;
	*upd = NULL;
	if (!rc && document && read_document(document, upd, &err) < 0) {
		ct_log(CT_LOG_ERROR, "update: %s", err.msg);
		rc = 2;
	}
	if (!rc && !*upd && !(*upd = calloc(1, sizeof(**upd))))
		rc = 2;
	if (!rc) {
		oci_merge_object(oci_resources_fields, *upd, &flags);
		*id = argv[optind];
	}
	oci_walk_free(oci_resources_fields, &flags);
	return rc;
}

int cmd_update(const struct ct_globals *g, int argc, char **argv)
{
	struct oci_resources *upd = NULL;
	const char *id = NULL;
	int rc = parse_args(argc, argv, &upd, &id);
	if (rc)
		return rc - 1;
	rc = ct_lifecycle_update(&g->lc, id, upd) < 0 ? 1 : 0;
	oci_resources_free(upd);
	return rc;
}
