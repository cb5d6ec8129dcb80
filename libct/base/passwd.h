/* passwd(5) text, read as runc reads it (libcontainer/user): one entry a line, the line
 * trimmed of white space at both ends (so CRLF files work), fields split at ':', missing
 * fields empty, no comment syntax. The uid field is decimal with an optional '+' (Go's
 * Atoi); a line whose uid field is anything else never matches (runc takes it as uid 0).
 * Parsed here, not through NSS: ctrun is linked statically, and the container's file is
 * not the host's. */
#ifndef CT_PASSWD_H_LIBCT
#define CT_PASSWD_H_LIBCT

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The largest passwd file read (ctrun's own for `list`, a container's for HOME). */
#define CT_PASSWD_MAX (16u << 20)

/* The name of uid's first entry with a non-empty name in the len bytes of text, into name
 * (truncated to size - 1); false when no line has that uid. */
bool ct_passwd_find_name(const char *text, size_t len, uid_t uid, char *name, size_t size);

/* The home directory field of uid's first entry (empty when the line has none), malloc'ed
 * into *home; 0 when found, 1 when no line has that uid, -1 with errno ENOMEM. */
int ct_passwd_find_home(const char *text, size_t len, uid_t uid, char **home);

#endif
