/* `ctrun spec [--bundle DIR] [--rootless]`: writes a default DIR/config.json (runc's
 * `runc spec`), never over an existing one. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/kernel.h"
#include "libct/base/readall.h"
#include "oci/spec_default.h"
#include "runtime/ctrun.h"
#include "runtime/flags.h"
#include "runtime/log.h"

/* O_EXCL: a config.json someone wrote by hand is never replaced, not even by a race. */
static int write_new_file(const char *path, const char *text, struct ct_error *err)
{
	_cleanup_close_ int fd =
		openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return ct_error_plain(err, 0, "\"%s\" already exists", path);
	if (fd < 0)
		return ct_error_sys(err, errno, "create \"%s\"", path);
	if (ct_write_all(fd, text, strlen(text)) < 0) {
		ct_error_sys(err, errno, "write \"%s\"", path);
		unlink(path); /* a half-written config.json would only mislead */
		return -1;
	}
	if (close(steal_fd(&fd)) < 0) {
		ct_error_sys(err, errno, "write \"%s\"", path);
		unlink(path);
		return -1;
	}
	return 0;
}

int cmd_spec(const struct ct_globals *g, int argc, char **argv)
{
	(void)g;
	const char *bundle = ".";
	struct oci_spec_opts opts = {.rootless = false};
	const struct ct_flag flags[] = {
		{"bundle", 'b', CT_FLAG_TEXT, &bundle},
		{"rootless", 0, CT_FLAG_TRUE, &opts.rootless},
		{NULL},
	};
	const struct ct_command_line line = {"[--bundle DIR] [--rootless]", flags, 0, 0};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;
	opts.uid = geteuid();
	opts.gid = getegid();
	/* mount_setattr came with AT_RECURSIVE (Linux 5.12): the call's presence is the answer,
	 * and a seccomp profile that refuses it refuses it to the runtime too. */
	opts.recursive_mount_attrs = ct_kernel_has(CT_KF_MOUNT_SETATTR);

	struct ct_error err = {0};
	_cleanup_free_ char *text = oci_spec_default_json(&opts, &err);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/config.json", bundle);
	if (!text || write_new_file(path, text, &err) < 0) {
		ct_log(CT_LOG_ERROR, "spec: %s", err.msg);
		return 1;
	}
	return 0;
}
