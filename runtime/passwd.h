/* User names for `list`'s OWNER column, from /etc/passwd. */
#ifndef CT_PASSWD_H
#define CT_PASSWD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The name of uid's first entry in passwd(5) text, into name (truncated to size - 1);
 * false when no well-formed line has that uid. */
bool ct_passwd_find_name(const char *text, uid_t uid, char *name, size_t size);

/* uid's name from /etc/passwd (read once per process), else "#uid" as runc prints. ctrun
 * is linked statically, where glibc's getpwuid() needs NSS modules of its own version at run
 * time; runc's list reads /etc/passwd alone too. */
void ct_owner_name(uid_t uid, char *name, size_t size);

#endif
