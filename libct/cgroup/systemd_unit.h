/* The systemd driver's names (libct/cgroup/systemd.c): linux.cgroupsPath in runc's systemd
 * form "slice:prefix:name" -> the slice the unit goes in and the unit's name, and a slice's
 * place in the cgroup tree ("a-b.slice" is under "a.slice"). Pure. */
#ifndef CT_CGROUP_SYSTEMD_UNIT_H
#define CT_CGROUP_SYSTEMD_UNIT_H

#include <stdbool.h>

#include "libct/base/error.h"

#define CT_SYSTEMD_UNIT_MAX	  256 /* systemd's UNIT_NAME_MAX, its NUL included */
#define CT_SYSTEMD_DEFAULT_PREFIX "ctrun"
#define CT_SYSTEMD_TOKEN_LEN	  16 /* hex digits of a create's token (64 random bits) */

/* Whose the unit of a create is. A create puts a token of its own at the end of the
 * Description it gives the unit, and records the token before it sends the start: when
 * the start's answer never reached it (lost, or the create was killed first), the unit is
 * its own only if it carries that token. So is a unit systemd took, later: once it went
 * (emptied, or stopped by someone), another's may be made under its name. */
enum ct_systemd_claim {
	CT_SYSTEMD_NOT_OURS,  /* no start was sent, or systemd refused it (another's name) */
	CT_SYSTEMD_IF_MARKED, /* a start may have been taken: the unit's token decides */
	CT_SYSTEMD_OURS,      /* systemd took the start (its answer seen) */
};

struct ct_systemd_unit {
	char slice[CT_SYSTEMD_UNIT_MAX]; /* "system.slice", "user.slice" (rootless), given */
	char name[CT_SYSTEMD_UNIT_MAX];	 /* "prefix-name.scope", or "name.slice" */
	bool is_slice;			 /* the name ends in .slice: the unit is a slice */
};

/* cgroupsPath -> unit: "slice:prefix:name"; an empty slice is system.slice (user.slice
 * when rootless); a name ending in ".slice" makes that slice, else the scope
 * "prefix-name.scope" ("name.scope" for an empty prefix); an empty or NULL path is
 * ":ctrun:<id>". A path of another form, or names systemd would refuse, fail naming
 * .linux.cgroupsPath and the rule broken (EINVAL). */
int ct_systemd_unit_parse(const char *cgroups_path, const char *id, bool rootless,
			  struct ct_systemd_unit *out, struct ct_error *err);

/* A slice's cgroup below the manager's root: "-.slice" -> "", "a-b.slice" ->
 * "/a.slice/a-b.slice" (written to out, size bytes). False for a name that is not a valid
 * slice ("/", no ".slice", a leading, trailing or doubled "-"). */
bool ct_systemd_slice_path(const char *slice, char *out, size_t size);

/* Whether token is one a create makes: CT_SYSTEMD_TOKEN_LEN lowercase hex digits. Pure. */
bool ct_systemd_token_valid(const char *token);

/* Whether name is a valid unit name of systemd's characters (letters, digits, ":-_.\@"),
 * non-empty, shorter than CT_SYSTEMD_UNIT_MAX, with a suffix after its last dot. */
bool ct_systemd_unit_name_valid(const char *name);

#endif
