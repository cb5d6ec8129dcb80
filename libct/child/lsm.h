/* process.apparmorProfile and process.selinuxLabel: the label the user process is exec'd
 * with, written by the init to its own /proc/thread-self/attr (through libct/fs/procfs.h, so a
 * mount over /proc cannot redirect it) just before the exec. A label asked for on a host
 * whose kernel does not run that LSM is an error at create, in the parent, as runc does:
 * the container would otherwise run unconfined. */
#ifndef CT_LSM_H
#define CT_LSM_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/fs/procfs.h"

/* The kernel runs AppArmor (/sys/module/apparmor/parameters/enabled is "Y"). */
bool ct_apparmor_enabled(void);

/* SELinux is enabled: selinuxfs is mounted at /sys/fs/selinux. */
bool ct_selinux_enabled(void);

/* Parent side: 0, or -1 naming the field when its LSM is not enabled here. Either may be
 * NULL or "" (nothing asked). */
int ct_lsm_check(const char *apparmor_profile, const char *selinux_label, struct ct_error *err);
/* The same for the process object at where ("proc.json: " for `exec --process`). */
int ct_lsm_check_at(const char *where, const char *apparmor_profile, const char *selinux_label,
		    struct ct_error *err);

/* Child side, before execve: the exec labels (a no-op for what is not asked), written
 * through procfs (the init's own). */
int ct_lsm_apply(const struct ct_procfs *procfs, const char *apparmor_profile,
		 const char *selinux_label, struct ct_error *err);

#endif
