/* `ctrun features`: the features document (features.md) on stdout. */
#include <seccomp.h>
#include <stdio.h>

#include "libct/base/cleanup.h"
#include "libct/fs/fsinfo.h"
#include "oci/features.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"
#include "runtime/log.h"

int cmd_features(const struct ct_globals *g, int argc, char **argv)
{
	(void)g;
	static const struct ct_command_line line = {.usage = ""};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;

	/* The library ctrun runs with, not the headers it was built against. */
	const struct scmp_version *v = seccomp_version();
	char seccomp[64];
	snprintf(seccomp, sizeof(seccomp), "%u.%u.%u", v->major, v->minor, v->micro);
	struct ct_error err = {0};
	struct ct_mount_table mounts;
	const char *backend = NULL;
	if (ct_mounts_read(&mounts, CT_MOUNTS_AUTO, &err) == 0) {
		backend = ct_mounts_backend_name(mounts.backend);
		ct_mount_table_free(&mounts);
	}
	struct oci_features_info info = {.libseccomp_version = seccomp, .mounts_backend = backend};
	_cleanup_free_ char *text = oci_features_json(&info, &err);
	if (!text) {
		ct_log(CT_LOG_ERROR, "features: %s", err.msg);
		return 1;
	}
	if (fputs(text, stdout) == EOF || fflush(stdout) == EOF) {
		ct_log(CT_LOG_ERROR, "features: write to stdout failed");
		return 1;
	}
	return 0;
}
