#include "libct/fs/mount_options.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "libct/base/syscalls.h"

struct option_row {
	const char *name;
	unsigned long set, clear;
	unsigned long propagation;
};

struct recursive_row {
	const char *name;
	unsigned set, clear; /* MOUNT_ATTR_* */
};

/* The mount-option table of config-linux.md; propagation rows carry MS_REC when recursive. */
static const struct option_row option_table[] = {
	{"ro", MS_RDONLY, 0, 0},
	{"rw", 0, MS_RDONLY, 0},
	{"nosuid", MS_NOSUID, 0, 0},
	{"suid", 0, MS_NOSUID, 0},
	{"nodev", MS_NODEV, 0, 0},
	{"dev", 0, MS_NODEV, 0},
	{"noexec", MS_NOEXEC, 0, 0},
	{"exec", 0, MS_NOEXEC, 0},
	{"sync", MS_SYNCHRONOUS, 0, 0},
	{"async", 0, MS_SYNCHRONOUS, 0},
	{"dirsync", MS_DIRSYNC, 0, 0},
	{"remount", MS_REMOUNT, 0, 0},
	{"mand", MS_MANDLOCK, 0, 0},
	{"nomand", 0, MS_MANDLOCK, 0},
	{"atime", 0, MS_NOATIME, 0},
	{"noatime", MS_NOATIME, 0, 0},
	{"diratime", 0, MS_NODIRATIME, 0},
	{"nodiratime", MS_NODIRATIME, 0, 0},
	{"relatime", MS_RELATIME, 0, 0},
	{"norelatime", 0, MS_RELATIME, 0},
	{"strictatime", MS_STRICTATIME, 0, 0},
	{"nostrictatime", 0, MS_STRICTATIME, 0},
	{"silent", MS_SILENT, 0, 0},
	{"loud", 0, MS_SILENT, 0},
	{"nosymfollow", MS_NOSYMFOLLOW, 0, 0},
	{"symfollow", 0, MS_NOSYMFOLLOW, 0},
	{"private", 0, 0, MS_PRIVATE},
	{"rprivate", 0, 0, MS_PRIVATE | MS_REC},
	{"shared", 0, 0, MS_SHARED},
	{"rshared", 0, 0, MS_SHARED | MS_REC},
	{"slave", 0, 0, MS_SLAVE},
	{"rslave", 0, 0, MS_SLAVE | MS_REC},
	{"unbindable", 0, 0, MS_UNBINDABLE},
	{"runbindable", 0, 0, MS_UNBINDABLE | MS_REC},
};

/* The recursive rows of the table: applied with mount_setattr(AT_RECURSIVE). The atime
 * modes are an enum in the kernel's API, so each one clears the whole field; "ratime",
 * "rnorelatime" and "rnostrictatime" ask for the default mode, relatime. */
static const struct recursive_row recursive_table[] = {
	{"rro", MOUNT_ATTR_RDONLY, 0},
	{"rrw", 0, MOUNT_ATTR_RDONLY},
	{"rnosuid", MOUNT_ATTR_NOSUID, 0},
	{"rsuid", 0, MOUNT_ATTR_NOSUID},
	{"rnodev", MOUNT_ATTR_NODEV, 0},
	{"rdev", 0, MOUNT_ATTR_NODEV},
	{"rnoexec", MOUNT_ATTR_NOEXEC, 0},
	{"rexec", 0, MOUNT_ATTR_NOEXEC},
	{"rnodiratime", MOUNT_ATTR_NODIRATIME, 0},
	{"rdiratime", 0, MOUNT_ATTR_NODIRATIME},
	{"rnosymfollow", MOUNT_ATTR_NOSYMFOLLOW, 0},
	{"rsymfollow", 0, MOUNT_ATTR_NOSYMFOLLOW},
	{"rnoatime", MOUNT_ATTR_NOATIME, MOUNT_ATTR__ATIME},
	{"rstrictatime", MOUNT_ATTR_STRICTATIME, MOUNT_ATTR__ATIME},
	{"rrelatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME},
	{"ratime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME},
	{"rnorelatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME},
	{"rnostrictatime", MOUNT_ATTR_RELATIME, MOUNT_ATTR__ATIME},
};

/* A later option wins over an earlier one on the same bits, as with the flag rows. */
static void apply_recursive(struct ct_mount_flags *out, const struct recursive_row *row)
{
	unsigned bits = row->set | row->clear;
	if (row->clear & MOUNT_ATTR__ATIME)
		bits = MOUNT_ATTR__ATIME;
	out->rec_set = (out->rec_set & ~bits) | row->set;
	out->rec_clear = (out->rec_clear & ~bits) | row->clear;
}

static const struct recursive_row *find_recursive(const char *name)
{
	for (size_t i = 0; i < sizeof(recursive_table) / sizeof(recursive_table[0]); i++)
		if (strcmp(recursive_table[i].name, name) == 0)
			return &recursive_table[i];
	return NULL;
}

static const struct option_row *find_option(const char *name)
{
	for (size_t i = 0; i < sizeof(option_table) / sizeof(option_table[0]); i++)
		if (strcmp(option_table[i].name, name) == 0)
			return &option_table[i];
	return NULL;
}

static int append_data(char **data, const char *option)
{
	size_t old = *data ? strlen(*data) : 0;
	char *grown = realloc(*data, old + strlen(option) + 2);
	if (!grown)
		return -1;
	if (old)
		grown[old++] = ',';
	strcpy(grown + old, option);
	*data = grown;
	return 0;
}

int ct_mount_flags_parse(char *const *options, size_t n, struct ct_mount_flags *out)
{
	memset(out, 0, sizeof(*out));
	out->idmap_tree = -1;
	for (size_t i = 0; i < n; i++) {
		const char *opt = options[i];
		const struct option_row *row = find_option(opt);
		const struct recursive_row *rec = row ? NULL : find_recursive(opt);
		if (strcmp(opt, "bind") == 0) {
			out->bind = true;
		} else if (strcmp(opt, "rbind") == 0) {
			out->bind = out->recursive_bind = true;
		} else if (strcmp(opt, "idmap") == 0 || strcmp(opt, "ridmap") == 0) {
			out->idmap = true;
			out->ridmap = opt[0] == 'r';
		} else if (strcmp(opt, "tmpcopyup") == 0) {
			out->tmpcopyup = true;
		} else if (rec) {
			apply_recursive(out, rec);
		} else if (row && row->propagation) {
			out->propagation = row->propagation;
		} else if (row) {
			out->flags = (out->flags & ~row->clear) | row->set;
		} else if (append_data(&out->data, opt) < 0) {
			free(out->data);
			out->data = NULL;
			return -1;
		}
	}
	return 0;
}

unsigned ct_mount_attr_of(unsigned long ms)
{
	unsigned a = 0;
	a |= ms & MS_RDONLY ? MOUNT_ATTR_RDONLY : 0;
	a |= ms & MS_NOSUID ? MOUNT_ATTR_NOSUID : 0;
	a |= ms & MS_NODEV ? MOUNT_ATTR_NODEV : 0;
	a |= ms & MS_NOEXEC ? MOUNT_ATTR_NOEXEC : 0;
	a |= ms & MS_NODIRATIME ? MOUNT_ATTR_NODIRATIME : 0;
	a |= ms & MS_NOSYMFOLLOW ? MOUNT_ATTR_NOSYMFOLLOW : 0;
	a |= ms & MS_NOATIME	   ? MOUNT_ATTR_NOATIME
	     : ms & MS_STRICTATIME ? MOUNT_ATTR_STRICTATIME
				   : 0;
	return a;
}

char *ct_mount_data_next(char **cursor)
{
	char *p = *cursor;
	while (p && *p == ',')
		p++;
	if (!p || !*p)
		return *cursor = NULL;
	char *start = p;
	for (bool quoted = false; *p && (quoted || *p != ','); p++)
		if (*p == '"')
			quoted = !quoted;
	*cursor = *p ? p + 1 : NULL;
	*p = '\0';
	return start;
}
