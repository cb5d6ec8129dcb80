/* User names for `list`'s OWNER column, from /etc/passwd. */
#ifndef CT_PASSWD_H
#define CT_PASSWD_H

#include <stddef.h>
#include <sys/types.h>

/* uid's name from /etc/passwd (read once per process; libct/base/passwd.h parses it), else
 * "#uid" as runc prints. ctrun is linked statically, where glibc's getpwuid() needs NSS
 * modules of its own version at run time; runc's list reads /etc/passwd alone too. */
void ct_owner_name(uid_t uid, char *name, size_t size);

#endif
