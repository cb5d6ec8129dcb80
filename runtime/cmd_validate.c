/* `ctrun validate [--bundle DIR]`: every problem of a bundle's config.json, same messages as
 * create, nothing created. Exit 0 only for a valid bundle. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "libct/lifecycle/bundle.h"
#include "oci/config.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"
#include "runtime/log.h"

static void print_problem(void *data, const char *msg)
{
	unsigned *count = data;
	(*count)++;
	ct_log(CT_LOG_ERROR, "%s", msg);
}

int cmd_validate(const struct ct_globals *g, int argc, char **argv)
{
	(void)g;
	const char *bundle = ".";
	const struct ct_flag flags[] = {{"bundle", 'b', CT_FLAG_TEXT, &bundle}, {NULL}};
	const struct ct_command_line line = {"[--bundle DIR]", flags, 0, 0};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;

	unsigned problems = 0;
	struct oci_config_opts opts = {
		.on_error = print_problem, .on_unknown = ct_bundle_log_unknown, .data = &problems};
	struct oci_config *config = NULL;
	struct ct_error err = {0};
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/config.json", bundle);
	if (oci_config_load(path, &opts, &config, &err) == 0 &&
	    ct_bundle_rootfs(bundle, config, NULL, &err) < 0) {
		ct_log(CT_LOG_ERROR, "%s", err.msg);
		problems++;
	}
	oci_config_free(config);
	if (problems) {
		fprintf(stderr, "%s: %u problem%s found\n", path, problems,
			problems == 1 ? "" : "s");
		return 1;
	}
	printf("%s: valid\n", path);
	return 0;
}
