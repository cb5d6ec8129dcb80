/* HOME from the container's /etc/passwd (see home_env.h). */
#include "libct/child/home_env.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/passwd.h"
#include "libct/base/readall.h"
#include "libct/fs/safefs.h"

#define PASSWD "/etc/passwd"

/* The container's passwd text, or NULL with *len 0 when it has none to read. */
static int read_passwd(char **text, size_t *len, struct ct_error *err)
{
	*text = NULL;
	*len = 0;
	_cleanup_close_ int root = openat(AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return ct_error_sys(err, errno, "open /");
	_cleanup_close_ int fd = ct_root_open_regular(root, PASSWD);
	/* not a regular file (masked by /dev/null, a FIFO, a directory): never opened, and read
	 * as none, which is what runc makes of /dev/null */
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == EINVAL || errno == EISDIR))
		return 0;
	if (fd < 0 && errno == ESTALE)
		return ct_error_plain(err, ESTALE,
				      "HOME: the container's \"" PASSWD
				      "\" changed while being opened");
	if (fd >= 0 && !(*text = ct_read_file(fd, CT_PASSWD_MAX, len)) && errno == EFBIG)
		return ct_error_plain(err, EFBIG,
				      "HOME: the container's \"" PASSWD "\" is larger than %u "
				      "MiB (set HOME in process.env)",
				      CT_PASSWD_MAX >> 20);
	if (!*text)
		return ct_error_sys(err, errno, "HOME: read the container's \"" PASSWD "\"");
	return 0;
}

int ct_home_env_apply(struct ct_plan_process *proc, struct ct_error *err)
{
	if (!proc->needs_home)
		return 0;
	_cleanup_free_ char *text = NULL, *home = NULL;
	size_t len;
	if (read_passwd(&text, &len, err) < 0)
		return -1;
	int found = text ? ct_passwd_find_home(text, len, proc->p->user.uid, &home) : 1;
	if (found < 0 || asprintf(&proc->home_var, "HOME=%s", found == 0 ? home : "/") < 0) {
		proc->home_var = NULL;
		return ct_error_sys(err, ENOMEM, "HOME: set from \"" PASSWD "\"");
	}
	proc->envp[proc->home_slot] = proc->home_var;
	return 0;
}
