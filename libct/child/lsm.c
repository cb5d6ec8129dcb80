#include "libct/child/lsm.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "libct/fs/procfs.h"

bool ct_apparmor_enabled(void)
{
	char c = 0;
	int fd = openat(AT_FDCWD, "/sys/module/apparmor/parameters/enabled", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool yes = read(fd, &c, 1) == 1 && c == 'Y';
	close(fd);
	return yes;
}

#define SELINUX_MAGIC 0xf97cff8cU

bool ct_selinux_enabled(void)
{
	struct statfs st;
	return statfs("/sys/fs/selinux", &st) == 0 && (unsigned)st.f_type == SELINUX_MAGIC;
}

static bool asked(const char *s)
{
	return s && *s;
}

int ct_lsm_check_at(const char *where, const char *apparmor_profile, const char *selinux_label,
		    struct ct_error *err)
{
	if (asked(apparmor_profile) && !ct_apparmor_enabled())
		return ct_error_set_plain(err, EINVAL,
					  "%s.apparmorProfile: \"%s\" asked, but AppArmor is not "
					  "enabled on this host",
					  where, apparmor_profile);
	if (asked(selinux_label) && !ct_selinux_enabled())
		return ct_error_set_plain(err, EINVAL,
					  "%s.selinuxLabel: \"%s\" asked, but SELinux is not "
					  "enabled on this host",
					  where, selinux_label);
	return 0;
}

int ct_lsm_check(const char *apparmor_profile, const char *selinux_label, struct ct_error *err)
{
	return ct_lsm_check_at("config.json: .process", apparmor_profile, selinux_label, err);
}

int ct_lsm_apply(const struct ct_procfs *procfs, const char *apparmor_profile,
		 const char *selinux_label, struct ct_error *err)
{
	char value[4096 + 8];
	if (asked(apparmor_profile)) {
		snprintf(value, sizeof(value), "exec %s", apparmor_profile);
		if (ct_procfs_write(procfs, "/proc/thread-self/attr/apparmor/exec", value, err) < 0)
			return ct_error_prefix(err, "set the AppArmor profile \"%s\"",
					       apparmor_profile);
	}
	if (asked(selinux_label) &&
	    ct_procfs_write(procfs, "/proc/thread-self/attr/exec", selinux_label, err) < 0)
		return ct_error_prefix(err, "set the SELinux label \"%s\"", selinux_label);
	return 0;
}
