/* The systemd driver's names (libct/cgroup/systemd_unit.h). */
#include "libct/cgroup/systemd_unit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char slice_suffix[] = ".slice";

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

bool ct_systemd_unit_name_valid(const char *name)
{
	size_t n = strlen(name);
	const char *dot = strrchr(name, '.');
	return n > 0 && n < CT_SYSTEMD_UNIT_MAX && dot && dot != name && dot[1] &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			    ":-_.\\@") == n;
}

bool ct_systemd_token_valid(const char *token)
{
	return strlen(token) == CT_SYSTEMD_TOKEN_LEN &&
	       strspn(token, "0123456789abcdef") == CT_SYSTEMD_TOKEN_LEN;
}

bool ct_systemd_slice_path(const char *slice, char *out, size_t size)
{
	if (!ct_systemd_unit_name_valid(slice) || !ends_with(slice, slice_suffix))
		return false;
	if (strcmp(slice, "-.slice") == 0) {
		out[0] = '\0';
		return size > 0;
	}
	size_t stem = strlen(slice) - strlen(slice_suffix), len = 0;
	if (slice[0] == '-' || slice[stem - 1] == '-' || memmem(slice, stem, "--", 2))
		return false;
	/* each prefix ending before a dash is a parent: "a-b-c" -> a, a-b, a-b-c */
	for (size_t i = 0; i <= stem; i++) {
		if (i < stem && slice[i] != '-')
			continue;
		int n = snprintf(out + len, size - len, "/%.*s%s", (int)i, slice, slice_suffix);
		if (n < 0 || (size_t)n >= size - len)
			return false;
		len += (size_t)n;
	}
	return true;
}

static int refuse(struct ct_error *err, const char *path, const char *rule)
{
	return ct_error_plain(err, EINVAL, "config.json: .linux.cgroupsPath: \"%s\": %s", path,
			      rule);
}

/* Copies the field [start, end) into out; false when it does not fit. */
static bool copy_field(char *out, const char *start, const char *end)
{
	size_t n = (size_t)(end - start);
	if (n >= CT_SYSTEMD_UNIT_MAX)
		return false;
	memcpy(out, start, n);
	out[n] = '\0';
	return true;
}

static int make_name(struct ct_systemd_unit *u, const char *prefix, const char *name,
		     const char *path, struct ct_error *err)
{
	u->is_slice = ends_with(name, slice_suffix);
	int n = u->is_slice ? snprintf(u->name, sizeof(u->name), "%s", name)
		: *prefix   ? snprintf(u->name, sizeof(u->name), "%s-%s.scope", prefix, name)
			    : snprintf(u->name, sizeof(u->name), "%s.scope", name);
	if (n < 0 || (size_t)n >= sizeof(u->name) || !ct_systemd_unit_name_valid(u->name))
		return refuse(err, path,
			      "the unit name made of prefix and name is not one systemd takes "
			      "(letters, digits and \":-_.\\@\", at most 255 characters)");
	char tmp[4096];
	if (u->is_slice && !ct_systemd_slice_path(u->name, tmp, sizeof(tmp)))
		return refuse(err, path, "the name ends in .slice but is not a valid slice name");
	return 0;
}

int ct_systemd_unit_parse(const char *cgroups_path, const char *id, bool rootless,
			  struct ct_systemd_unit *out, struct ct_error *err)
{
	char dflt[CT_SYSTEMD_UNIT_MAX + 16];
	const char *path = cgroups_path && *cgroups_path ? cgroups_path : NULL;
	if (!path) {
		snprintf(dflt, sizeof(dflt), ":%s:%s", CT_SYSTEMD_DEFAULT_PREFIX, id);
		path = dflt;
	}
	memset(out, 0, sizeof(*out));
	const char *c1 = strchr(path, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2 || strchr(c2 + 1, ':'))
		return refuse(err, path,
			      "the systemd cgroup driver takes the form slice:prefix:name "
			      "(three fields separated by two ':')");
	char prefix[CT_SYSTEMD_UNIT_MAX], name[CT_SYSTEMD_UNIT_MAX];
	if (!copy_field(out->slice, path, c1) || !copy_field(prefix, c1 + 1, c2) ||
	    !copy_field(name, c2 + 1, c2 + 1 + strlen(c2 + 1)))
		return refuse(err, path, "a field is longer than 255 characters");
	if (!*name)
		return refuse(err, path, "the name (after the second ':') is empty");
	if (!*out->slice)
		snprintf(out->slice, sizeof(out->slice), "%s",
			 rootless ? "user.slice" : "system.slice");
	char tmp[4096];
	if (!ct_systemd_slice_path(out->slice, tmp, sizeof(tmp)))
		return refuse(err, path,
			      "the slice (before the first ':') must be a slice unit name: "
			      "\"NAME.slice\", no '/', no leading, trailing or doubled '-'");
	return make_name(out, prefix, name, path, err);
}
