#include "libct/fs/mount_options.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>

#include "libct/base/syscalls.h"

/* How a flag's option takes an "r" in front (mount_setattr(AT_RECURSIVE)). */
enum recursive_form {
	NOT_RECURSIVE,	 /* "rsync" is filesystem data, as any unknown option */
	RECURSIVE_FLAG,	 /* "rro" sets attr recursively, "rrw" clears it */
	RECURSIVE_ATIME, /* attr is an atime mode; the clearing option asks for the default */
};

/* A per-mount flag and the options that set and clear it (config-linux.md's table). */
struct flag_row {
	const char *set, *clear; /* clear NULL: nothing clears it */
	unsigned long ms;
	unsigned attr; /* MOUNT_ATTR_* of the recursive form */
	enum recursive_form recursive;
};

static const struct flag_row flag_table[] = {
	{"ro", "rw", MS_RDONLY, MOUNT_ATTR_RDONLY, RECURSIVE_FLAG},
	{"nosuid", "suid", MS_NOSUID, MOUNT_ATTR_NOSUID, RECURSIVE_FLAG},
	{"nodev", "dev", MS_NODEV, MOUNT_ATTR_NODEV, RECURSIVE_FLAG},
	{"noexec", "exec", MS_NOEXEC, MOUNT_ATTR_NOEXEC, RECURSIVE_FLAG},
	{"sync", "async", MS_SYNCHRONOUS, 0, NOT_RECURSIVE},
	{"dirsync", NULL, MS_DIRSYNC, 0, NOT_RECURSIVE},
	{"remount", NULL, MS_REMOUNT, 0, NOT_RECURSIVE},
	{"mand", "nomand", MS_MANDLOCK, 0, NOT_RECURSIVE},
	{"noatime", "atime", MS_NOATIME, MOUNT_ATTR_NOATIME, RECURSIVE_ATIME},
	{"nodiratime", "diratime", MS_NODIRATIME, MOUNT_ATTR_NODIRATIME, RECURSIVE_FLAG},
	{"relatime", "norelatime", MS_RELATIME, MOUNT_ATTR_RELATIME, RECURSIVE_ATIME},
	{"strictatime", "nostrictatime", MS_STRICTATIME, MOUNT_ATTR_STRICTATIME, RECURSIVE_ATIME},
	{"silent", "loud", MS_SILENT, 0, NOT_RECURSIVE},
	{"nosymfollow", "symfollow", MS_NOSYMFOLLOW, MOUNT_ATTR_NOSYMFOLLOW, RECURSIVE_FLAG},
};

/* The propagation options; an "r" in front adds MS_REC. */
static const struct {
	const char *name;
	unsigned long ms;
} propagation_table[] = {
	{"private", MS_PRIVATE},
	{"shared", MS_SHARED},
	{"slave", MS_SLAVE},
	{"unbindable", MS_UNBINDABLE},
};

#define N_OF(table) (sizeof(table) / sizeof((table)[0]))

/* The row whose set or clear option is name (*sets: which), NULL for none. */
static const struct flag_row *find_flag(const char *name, bool *sets)
{
	for (size_t i = 0; i < N_OF(flag_table); i++) {
		const struct flag_row *row = &flag_table[i];
		*sets = strcmp(row->set, name) == 0;
		if (*sets || (row->clear && strcmp(row->clear, name) == 0))
			return row;
	}
	return NULL;
}

static unsigned long find_propagation(const char *name)
{
	for (size_t i = 0; i < N_OF(propagation_table); i++) {
		const char *base = propagation_table[i].name;
		if (strcmp(base, name) == 0)
			return propagation_table[i].ms;
		if (name[0] == 'r' && strcmp(base, name + 1) == 0)
			return propagation_table[i].ms | MS_REC;
	}
	return 0;
}

/* A recursive option ("rro", "rnoatime"): true with the bits it sets and clears. The atime
 * modes are an enum in the kernel's API, so each one clears the whole field; "ratime",
 * "rnorelatime" and "rnostrictatime" ask for the default mode, relatime. */
static bool find_recursive(const char *name, unsigned *set, unsigned *clear)
{
	bool sets;
	const struct flag_row *row = name[0] == 'r' ? find_flag(name + 1, &sets) : NULL;
	if (!row || row->recursive == NOT_RECURSIVE)
		return false;
	if (row->recursive == RECURSIVE_ATIME) {
		*set = sets ? row->attr : MOUNT_ATTR_RELATIME;
		*clear = MOUNT_ATTR__ATIME;
	} else {
		*set = sets ? row->attr : 0;
		*clear = sets ? 0 : row->attr;
	}
	return true;
}

/* A later option wins over an earlier one on the same bits, as with the flag rows. */
static void apply_recursive(struct ct_mount_flags *out, unsigned set, unsigned clear)
{
	unsigned bits = set | clear;
	if (clear & MOUNT_ATTR__ATIME)
		bits = MOUNT_ATTR__ATIME;
	out->rec_set = (out->rec_set & ~bits) | set;
	out->rec_clear = (out->rec_clear & ~bits) | clear;
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

/* A new filesystem has no mounts below it yet: its recursive options reach the mount itself
 * only, where its own options win on the same bits, as under runc and crun ("ro" with "rrw"
 * stays read-only, "noatime" with "rrelatime" keeps noatime). A bind's come after its own. */
static void own_flags_win(struct ct_mount_flags *out)
{
	unsigned own = ct_mount_attr_of(out->flags);
	if (own & MOUNT_ATTR__ATIME)
		own |= MOUNT_ATTR__ATIME;
	out->rec_set &= ~own;
	out->rec_clear &= ~own;
}

int ct_mount_flags_parse(char *const *options, size_t n, struct ct_mount_flags *out)
{
	memset(out, 0, sizeof(*out));
	out->idmap_tree = -1;
	for (size_t i = 0; i < n; i++) {
		const char *opt = options[i];
		bool sets;
		const struct flag_row *row = find_flag(opt, &sets);
		unsigned long propagation = row ? 0 : find_propagation(opt);
		unsigned rec_set, rec_clear;
		if (strcmp(opt, "bind") == 0) {
			out->bind = true;
		} else if (strcmp(opt, "rbind") == 0) {
			out->bind = out->recursive_bind = true;
		} else if (strcmp(opt, "idmap") == 0 || strcmp(opt, "ridmap") == 0) {
			out->idmap = true;
			out->ridmap = opt[0] == 'r';
		} else if (strcmp(opt, "tmpcopyup") == 0) {
			out->tmpcopyup = true;
		} else if (row) {
			out->flags = sets ? out->flags | row->ms : out->flags & ~row->ms;
		} else if (propagation) {
			out->propagation = propagation;
		} else if (find_recursive(opt, &rec_set, &rec_clear)) {
			apply_recursive(out, rec_set, rec_clear);
		} else if (append_data(&out->data, opt) < 0) {
			free(out->data);
			out->data = NULL;
			return -1;
		}
	}
	if (!out->bind)
		own_flags_win(out);
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
