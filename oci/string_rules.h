/* The string rules the runtime-spec schema writes as regular expressions, checked by hand:
 * musl's regcomp + regexec cost ~2,000 instructions and ~20 allocations a check, and every
 * config with rlimits or a device rule pays one. Each function matches exactly what its
 * pattern (POSIX extended, no REG_NEWLINE) matches. Pure. */
#ifndef OCI_STRING_RULES_H
#define OCI_STRING_RULES_H

#include <stdbool.h>

/* ^RLIMIT_[A-Z]+$ */
bool oci_is_rlimit_name(const char *s);
/* ^[0-9, -]*$ */
bool oci_is_cpu_list(const char *s);
/* ^[1-9][0-9]*[KMG]B$ */
bool oci_is_page_size(const char *s);
/* ^MB:[^\n]*$ */
bool oci_is_mem_bw_schema(const char *s);
/* ^[abc]$ */
bool oci_is_device_cgroup_type(const char *s);
/* ^[rwm]*$ */
bool oci_is_device_cgroup_access(const char *s);

#endif
