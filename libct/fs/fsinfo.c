/* The mount query layer (fsinfo.h): one table, two back ends. The mountinfo parser is pure;
 * the statmount back end asks the kernel mount by mount; both normalise to the same values
 * (see the field comments in fsinfo.h), which tests/unit/test_fsinfo.c checks on the live
 * table. */
#include "libct/fs/fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/base/syscalls.h"
#include "libct/fs/safefs.h"

#define SB_FLAGS_MASK (CT_SB_RDONLY | CT_SB_SYNCHRONOUS | CT_SB_DIRSYNC | CT_SB_LAZYTIME)

/* dentry_path() appends this to the path of an unlinked dentry. A real path never holds
 * "//", so cutting it off is unambiguous. */
static const char deleted_suffix[] = "//deleted";

/* ---- the table ---------------------------------------------------------------------- */

/* The mounts' strings, carved from blocks of the table: five strdup()s per mount spread them
 * over the heap, and in a container init every heap page written is charged to its cgroup. */
struct ct_strblock {
	struct ct_strblock *next;
	size_t used, size;
	char data[];
};

#define STRBLOCK_SIZE 4000

void ct_mount_table_free(struct ct_mount_table *t)
{
	while (t->strings) {
		struct ct_strblock *next = t->strings->next;
		free(t->strings);
		t->strings = next;
	}
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

static void table_init(struct ct_mount_table *t, enum ct_mounts_backend backend)
{
	*t = (struct ct_mount_table){.backend = backend};
}

/* A new zeroed entry at the end of t, or NULL when out of memory. The array doubles: one
 * realloc per entry moved it through the heap each time, and in a container init every heap
 * page written is charged to the container's memory limit. */
static struct ct_mount *table_add(struct ct_mount_table *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 32;
		struct ct_mount *grown = realloc(t->v, cap * sizeof(*t->v));
		if (!grown)
			return NULL;
		t->v = grown;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	return &t->v[t->n++];
}

/* A copy of s in t's string blocks; -1 when out of memory. */
static int dup_str(struct ct_mount_table *t, char **dst, const char *s)
{
	size_t len = strlen(s);
	struct ct_strblock *b = t->strings;
	if (!b || b->size - b->used <= len) {
		size_t size = len >= STRBLOCK_SIZE ? len + 1 : STRBLOCK_SIZE;
		if (!(b = malloc(sizeof(*b) + size)))
			return -1;
		*b = (struct ct_strblock){.next = t->strings, .size = size};
		t->strings = b;
	}
	*dst = memcpy(b->data + b->used, s, len + 1);
	b->used += len + 1;
	return 0;
}

/* Both back ends see the "//deleted" suffix (statmount's mnt_root is dentry_path() too). */
static int set_root(struct ct_mount_table *t, struct ct_mount *m, const char *root)
{
	if (dup_str(t, &m->root, root) < 0)
		return -1;
	size_t len = strlen(m->root), suffix = sizeof(deleted_suffix) - 1;
	if (len > suffix && strcmp(m->root + len - suffix, deleted_suffix) == 0) {
		m->root[len - suffix] = '\0';
		m->root_deleted = true;
	}
	return 0;
}

static void set_sb_flags(struct ct_mount *m, uint32_t flags)
{
	m->sb_flags = flags & SB_FLAGS_MASK;
	m->sb_readonly = (flags & CT_SB_RDONLY) != 0;
}

/* ---- the mountinfo parser (proc(5), fs/proc_namespace.c) ------------------------------
 *
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   id par dev root target mount-options [optional fields...] - type source super-options
 */

struct line_ctx {
	unsigned no;
	struct ct_error *err;
	struct ct_mount_table *table; /* the strings' owner */
};

static int line_error(const struct line_ctx *c, const char *what, const char *field)
{
	if (field)
		return ct_error_plain(c->err, EINVAL, "mountinfo line %u: %s \"%s\"", c->no, what,
				      field);
	return ct_error_plain(c->err, EINVAL, "mountinfo line %u: %s", c->no, what);
}

static int line_nomem(const struct line_ctx *c)
{
	return ct_error_sys(c->err, ENOMEM, "mountinfo line %u", c->no);
}

/* Cuts the next field out of *cur. Fields are separated by exactly one space and may be
 * empty (a mount source can be ""). NULL when the line has no more fields. */
static char *next_field(char **cur)
{
	char *f = *cur;
	if (!f)
		return NULL;
	char *sp = strchr(f, ' ');
	*cur = sp ? sp + 1 : NULL;
	if (sp)
		*sp = '\0';
	return f;
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* Undoes the kernel's \ooo escapes (mangle(), seq_escape()) in place. A backslash without
 * three octal digits, or an escaped NUL, is not something the kernel writes. */
static int unescape(char *s)
{
	char *out = s;
	for (; *s; s++) {
		if (*s != '\\') {
			*out++ = *s;
			continue;
		}
		if (!is_octal(s[1]) || !is_octal(s[2]) || !is_octal(s[3]) || s[1] > '3')
			return -1;
		int c = (s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0');
		if (c == 0)
			return -1;
		*out++ = (char)c;
		s += 3;
	}
	*out = '\0';
	return 0;
}

/* Decimal digits only: no sign, no blanks, no overflow. */
static int parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		unsigned d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

static int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;
	if (parse_u64(s, UINT32_MAX, &v) < 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* "major:minor" */
static int parse_dev(char *s, struct ct_mount *m)
{
	char *colon = strchr(s, ':');
	uint32_t major, minor;
	if (!colon)
		return -1;
	*colon = '\0';
	if (parse_u32(s, &major) < 0 || parse_u32(colon + 1, &minor) < 0)
		return -1;
	m->dev_major = major;
	m->dev_minor = minor;
	return 0;
}

/* Unescapes field and stores a copy in *dst; bad_escape is the error when it cannot. */
static int take_string(const struct line_ctx *c, char *field, const char *bad_escape, char **dst)
{
	if (unescape(field) < 0)
		return line_error(c, bad_escape, field);
	return dup_str(c->table, dst, field) < 0 ? line_nomem(c) : 0;
}

/* The per-mount options the kernel shows (show_mnt_opts(), plus "idmapped") and the
 * statmount attribute each stands for. strictatime is never shown: it is the absence of
 * relatime and noatime. */
static const struct mount_opt {
	const char *name;
	uint64_t attr;
	bool atime; /* one of the exclusive atime modes */
} mount_opts[] = {
	{"rw", 0, false},
	{"ro", MOUNT_ATTR_RDONLY, false},
	{"nosuid", MOUNT_ATTR_NOSUID, false},
	{"nodev", MOUNT_ATTR_NODEV, false},
	{"noexec", MOUNT_ATTR_NOEXEC, false},
	{"nodiratime", MOUNT_ATTR_NODIRATIME, false},
	{"nosymfollow", MOUNT_ATTR_NOSYMFOLLOW, false},
	{"idmapped", MOUNT_ATTR_IDMAP, false},
	{"relatime", MOUNT_ATTR_RELATIME, true},
	{"noatime", MOUNT_ATTR_NOATIME, true},
	{"strictatime", MOUNT_ATTR_STRICTATIME, true},
};

static const struct mount_opt *find_mount_opt(const char *name)
{
	for (size_t i = 0; i < sizeof(mount_opts) / sizeof(mount_opts[0]); i++)
		if (strcmp(mount_opts[i].name, name) == 0)
			return &mount_opts[i];
	return NULL;
}

static bool starts_with_ro_rw(const char *opts)
{
	return (strncmp(opts, "ro", 2) == 0 || strncmp(opts, "rw", 2) == 0) &&
	       (opts[2] == ',' || opts[2] == '\0');
}

/* An option the table lacks is an error, not skipped: a flag this parser cannot read is
 * a flag the mount check could not verify. */
static int parse_mount_options(const struct line_ctx *c, char *opts, struct ct_mount *m)
{
	if (!starts_with_ro_rw(opts))
		return line_error(c, "mount options do not start with ro or rw:", opts);
	uint64_t atime = MOUNT_ATTR_STRICTATIME;
	for (char *tok, *cur = opts; (tok = strsep(&cur, ","));) {
		const struct mount_opt *o = find_mount_opt(tok);
		if (!o)
			return line_error(c, "unknown mount option", tok);
		if (o->atime)
			atime = o->attr;
		else
			m->attr |= o->attr;
	}
	m->attr |= atime;
	return 0;
}

/* The superblock flags among the super options (show_sb_opts()); the rest are the
 * filesystem's own. */
static const struct sb_opt {
	const char *name;
	uint32_t flag;
} sb_opts[] = {
	{"rw", 0},
	{"ro", CT_SB_RDONLY},
	{"sync", CT_SB_SYNCHRONOUS},
	{"dirsync", CT_SB_DIRSYNC},
	{"lazytime", CT_SB_LAZYTIME},
};

static const struct sb_opt *find_sb_opt(const char *name)
{
	for (size_t i = 0; i < sizeof(sb_opts) / sizeof(sb_opts[0]); i++)
		if (strcmp(sb_opts[i].name, name) == 0)
			return &sb_opts[i];
	return NULL;
}

/* Takes the superblock flags out of opts and leaves the filesystem's options there, still
 * escaped: statmount's mnt_opts has them escaped the same way. */
static int parse_super_options(const struct line_ctx *c, char *opts, struct ct_mount *m)
{
	if (!starts_with_ro_rw(opts))
		return line_error(c, "super options do not start with ro or rw:", opts);
	uint32_t flags = 0;
	char *out = opts; /* kept options are moved down over the taken ones */
	for (char *tok, *cur = opts; (tok = strsep(&cur, ","));) {
		const struct sb_opt *o = find_sb_opt(tok);
		if (o) {
			flags |= o->flag;
			continue;
		}
		if (out != opts)
			*out++ = ',';
		size_t len = strlen(tok);
		memmove(out, tok, len);
		out += len;
	}
	*out = '\0';
	set_sb_flags(m, flags);
	return dup_str(c->table, &m->fs_options, opts) < 0 ? line_nomem(c) : 0;
}

/* The optional fields (proc(5)): tag or tag:value. */
static const struct optional_tag {
	const char *tag;
	bool has_value;
	size_t value_off; /* where in struct ct_mount the value goes */
	uint64_t propagation;
} optional_tags[] = {
	{"shared", true, offsetof(struct ct_mount, peer_group), MS_SHARED},
	{"master", true, offsetof(struct ct_mount, master), MS_SLAVE},
	{"propagate_from", true, offsetof(struct ct_mount, propagate_from), 0},
	{"unbindable", false, 0, MS_UNBINDABLE},
};

/* proc(5) tells parsers to ignore tags they do not know, so a newer kernel's tag is
 * skipped; a known tag with a bad value is an error. */
static int parse_optional_field(const struct line_ctx *c, char *field, struct ct_mount *m)
{
	char *colon = strchr(field, ':');
	size_t tag_len = colon ? (size_t)(colon - field) : strlen(field);
	for (size_t i = 0; i < sizeof(optional_tags) / sizeof(optional_tags[0]); i++) {
		const struct optional_tag *t = &optional_tags[i];
		if (strlen(t->tag) != tag_len || strncmp(t->tag, field, tag_len) != 0)
			continue;
		if (t->has_value != (colon != NULL))
			return line_error(c, "bad optional field", field);
		uint64_t v;
		if (t->has_value && parse_u64(colon + 1, UINT64_MAX, &v) < 0)
			return line_error(c, "bad optional field", field);
		if (t->has_value)
			memcpy((char *)m + t->value_off, &v, sizeof(v));
		m->propagation |= t->propagation;
		return 0;
	}
	return 0;
}

/* Optional fields up to and including the "-" separator. */
static int parse_optional_fields(const struct line_ctx *c, char **cur, struct ct_mount *m)
{
	for (;;) {
		char *f = next_field(cur);
		if (!f)
			return line_error(c, "no \" - \" separator", NULL);
		if (strcmp(f, "-") == 0)
			break;
		if (parse_optional_field(c, f, m) < 0)
			return -1;
	}
	if (!m->propagation)
		m->propagation = MS_PRIVATE;
	if (m->propagate_from == m->master)
		m->propagate_from = 0;
	return 0;
}

static int parse_head(const struct line_ctx *c, char **cur, struct ct_mount *m)
{
	char *f[6];
	for (size_t i = 0; i < 6; i++)
		if (!(f[i] = next_field(cur)))
			return line_error(c, "too few fields", NULL);
	if (parse_u32(f[0], &m->mnt_id) < 0)
		return line_error(c, "bad mount id", f[0]);
	if (parse_u32(f[1], &m->parent_mnt_id) < 0)
		return line_error(c, "bad parent id", f[1]);
	if (parse_dev(f[2], m) < 0)
		return line_error(c, "bad device number", f[2]);
	if (unescape(f[3]) < 0)
		return line_error(c, "bad escape in root", f[3]);
	if (set_root(c->table, m, f[3]) < 0)
		return line_nomem(c);
	if (take_string(c, f[4], "bad escape in mount point", &m->target) < 0)
		return -1;
	return parse_mount_options(c, f[5], m);
}

static int parse_tail(const struct line_ctx *c, char **cur, struct ct_mount *m)
{
	char *type = next_field(cur), *source = next_field(cur), *super = next_field(cur);
	if (!super)
		return line_error(c, "too few fields after \" - \"", NULL);
	if (*cur)
		return line_error(c, "unexpected field after the super options:", *cur);
	if (take_string(c, type, "bad escape in type", &m->fstype) < 0 ||
	    take_string(c, source, "bad escape in source", &m->source) < 0)
		return -1;
	return parse_super_options(c, super, m);
}

static int parse_line(const struct line_ctx *c, const char *text, size_t len,
		      struct ct_mount_table *t)
{
	if (len == 0)
		return line_error(c, "empty line", NULL);
	_cleanup_free_ char *line = strndup(text, len);
	struct ct_mount *m = table_add(t);
	if (!line || !m)
		return line_nomem(c);
	char *cur = line;
	if (parse_head(c, &cur, m) < 0 || parse_optional_fields(c, &cur, m) < 0)
		return -1;
	return parse_tail(c, &cur, m);
}

int ct_mountinfo_parse(const char *text, struct ct_mount_table *t, struct ct_error *err)
{
	struct ct_mount_table out;
	table_init(&out, CT_MOUNTS_MOUNTINFO);
	table_init(t, CT_MOUNTS_MOUNTINFO);
	struct line_ctx c = {.no = 0, .err = err, .table = &out};
	for (const char *p = text; *p;) {
		const char *nl = strchrnul(p, '\n');
		c.no++;
		if (parse_line(&c, p, (size_t)(nl - p), &out) < 0) {
			ct_mount_table_free(&out);
			return -1;
		}
		p = *nl ? nl + 1 : nl;
	}
	*t = out;
	return 0;
}

/* ---- reading /proc ------------------------------------------------------------------- */

/* The whole of a /proc file (whose st_size is 0), NUL-terminated. */
/* mountinfo of a host with tens of thousands of mounts still fits */
#define PROC_FILE_MAX (64u << 20)

static char *read_proc_file(const char *path, struct ct_error *err)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "open \"%s\"", path), NULL;
	char *text = ct_read_all(fd, PROC_FILE_MAX, NULL);
	if (!text)
		ct_error_sys(err, errno, "read \"%s\"", path);
	return text;
}

char *ct_mountinfo_read(pid_t pid, struct ct_error *err)
{
	char path[64];
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/mountinfo");
	return read_proc_file(path, err);
}

static int read_mountinfo(struct ct_mount_table *t, struct ct_error *err)
{
	_cleanup_free_ char *text = ct_mountinfo_read(0, err);
	if (!text)
		return -1;
	return ct_mountinfo_parse(text, t, err);
}

/* ---- the statmount back end ---------------------------------------------------------- */

/* In every answer of a 6.8 kernel: numbers, and strings that are never empty. */
#define SM_ALWAYS                                                              \
	(STATMOUNT_SB_BASIC | STATMOUNT_MNT_BASIC | STATMOUNT_PROPAGATE_FROM | \
	 STATMOUNT_MNT_ROOT | STATMOUNT_MNT_POINT | STATMOUNT_FS_TYPE)
/* The strings that came later (sources and subtypes in 6.11, options in 6.9). */
#define SM_LATER (STATMOUNT_MNT_OPTS | STATMOUNT_FS_SUBTYPE | STATMOUNT_SB_SOURCE)
/* The groups that fill the strings root and fs_options, which a brief table leaves "":
 * the kernel builds them for every mount (a dentry path, the filesystem's show_options). */
#define SM_NOT_BRIEF (STATMOUNT_MNT_ROOT | STATMOUNT_MNT_OPTS)

/* What one read asks statmount for, and what the kernel must know for the table to be
 * complete. */
struct sm_fields {
	uint64_t want, always, needed;
};

static struct sm_fields sm_fields(bool brief)
{
	uint64_t drop = brief ? SM_NOT_BRIEF : 0;
	return (struct sm_fields){
		.want = (SM_ALWAYS | SM_LATER | STATMOUNT_SUPPORTED_MASK) & ~drop,
		.always = SM_ALWAYS & ~drop,
		.needed = (SM_ALWAYS | SM_LATER) & ~drop,
	};
}

#define SM_BUF_MAX (16U << 20)

/* The buffers of one read start on the stack and move to the heap only when they must
 * grow: under musl every malloc of a few KiB maps pages and its free unmaps them again,
 * with page faults between, in every container start. */
#define SM_STACK_IDS   256
#define SM_STACK_BYTES 4096

struct sm_buf {
	struct ct_statmount *sm;
	size_t size;
	bool on_heap;
};

struct id_list {
	uint64_t *v;
	size_t n, cap;
	bool on_heap;
};

/* A buffer of size bytes in place of *p (of old bytes, used ones kept): realloc'd when on
 * the heap already, else a new one. NULL when out of memory (*p unchanged). */
static void *grow_off_stack(void *p, size_t old, size_t size, bool *on_heap)
{
	void *grown = *on_heap ? realloc(p, size) : malloc(size);
	if (grown && !*on_heap)
		memcpy(grown, p, old);
	if (grown)
		*on_heap = true;
	return grown;
}

/* Every mount id, into l (which holds its first buffer). */
static int list_mount_ids(struct id_list *l, struct ct_error *err)
{
	struct ct_mnt_id_req req = {.size = MNT_ID_REQ_SIZE_VER0, .mnt_id = LSMT_ROOT};
	for (;;) {
		if (l->n == l->cap) {
			size_t cap = 2 * l->cap;
			uint64_t *grown = grow_off_stack(l->v, l->n * sizeof(*l->v),
							 cap * sizeof(*l->v), &l->on_heap);
			if (!grown)
				return ct_error_sys(err, ENOMEM, "listmount");
			l->v = grown;
			l->cap = cap;
		}
		size_t room = l->cap - l->n;
		ssize_t got = ct_listmount(&req, l->v + l->n, room, 0);
		if (got < 0)
			return ct_error_sys(err, errno, "listmount");
		l->n += (size_t)got;
		if ((size_t)got < room) /* the kernel gives all it has up to room */
			return 0;
		req.param = l->v[l->n - 1]; /* go on after the last id seen */
	}
}

/* statmount() of one mount, growing b until the strings fit. -1 with errno. */
static int statmount_one(uint64_t id, uint64_t want, struct sm_buf *b)
{
	struct ct_mnt_id_req req = {.size = MNT_ID_REQ_SIZE_VER0, .mnt_id = id, .param = want};
	for (;;) {
		if (ct_statmount(&req, b->sm, b->size, 0) == 0)
			return 0;
		if (errno != EOVERFLOW)
			return -1;
		size_t size = b->size * 2;
		if (size > SM_BUF_MAX)
			return errno = EOVERFLOW, -1;
		void *grown = grow_off_stack(b->sm, 0, size, &b->on_heap);
		if (!grown)
			return errno = ENOMEM, -1;
		b->sm = grown;
		b->size = size;
	}
}

/* A string of the answer; "" when the kernel left it out, as it does with empty ones. */
static const char *sm_string(const struct sm_buf *b, uint64_t bit, uint32_t off)
{
	if (!(b->sm->mask & bit) || off >= b->size - sizeof(*b->sm))
		return "";
	return b->sm->str + off;
}

/* mountinfo shows "type.subtype": so does this. An empty source stays "" as in mountinfo
 * (a mount made without one has "none" from the kernel in both). */
static int fill_strings(struct ct_mount_table *t, struct ct_mount *m, const struct sm_buf *b)
{
	const struct ct_statmount *sm = b->sm;
	const char *type = sm_string(b, STATMOUNT_FS_TYPE, sm->fs_type);
	const char *subtype = sm_string(b, STATMOUNT_FS_SUBTYPE, sm->fs_subtype);
	const char *source = sm_string(b, STATMOUNT_SB_SOURCE, sm->sb_source);
	_cleanup_free_ char *joined = NULL;
	if (*subtype && asprintf(&joined, "%s.%s", type, subtype) < 0) {
		joined = NULL;
		return -1;
	}
	if (dup_str(t, &m->fstype, joined ? joined : type) < 0 ||
	    dup_str(t, &m->source, source) < 0 ||
	    dup_str(t, &m->target, sm_string(b, STATMOUNT_MNT_POINT, sm->mnt_point)) < 0 ||
	    dup_str(t, &m->fs_options, sm_string(b, STATMOUNT_MNT_OPTS, sm->mnt_opts)) < 0)
		return -1;
	return set_root(t, m, sm_string(b, STATMOUNT_MNT_ROOT, sm->mnt_root));
}

static void fill_numbers(struct ct_mount *m, const struct ct_statmount *sm)
{
	m->id = sm->mnt_id;
	m->parent_id = sm->mnt_parent_id;
	m->mnt_id = sm->mnt_id_old;
	m->parent_mnt_id = sm->mnt_parent_id_old;
	m->dev_major = sm->sb_dev_major;
	m->dev_minor = sm->sb_dev_minor;
	m->attr = sm->mnt_attr;
	set_sb_flags(m, sm->sb_flags);
	m->propagation = sm->mnt_propagation;
	m->peer_group = sm->mnt_peer_group;
	m->master = sm->mnt_master;
	/* mountinfo leaves propagate_from out when it equals master. */
	m->propagate_from = sm->propagate_from == sm->mnt_master ? 0 : sm->propagate_from;
}

/* Strings come back only when not empty, so one answer cannot tell "no source" from "no
 * support for sources". supported_mask (6.15) says it outright; before that, a table in
 * which not one mount has a source comes from a kernel before 6.11, which added sources
 * and subtypes (mount options came in 6.9). */
static bool statmount_complete(uint64_t seen, uint64_t supported, uint64_t needed)
{
	if (supported)
		return (supported & needed) == needed;
	return (seen & STATMOUNT_SB_SOURCE) != 0;
}

static int add_statmount(struct ct_mount_table *t, const struct sm_buf *b, struct ct_error *err)
{
	struct ct_mount *m = table_add(t);
	if (!m || fill_strings(t, m, b) < 0)
		return ct_error_sys(err, ENOMEM, "statmount");
	fill_numbers(m, b->sm);
	return 0;
}

static int statmount_incomplete(struct ct_error *err)
{
	return ct_error_plain(err, EOPNOTSUPP,
			      "statmount: this kernel does not report every field of a "
			      "mount (that needs Linux 6.11)");
}

/* One statmount per listed mount. A mount unmounted since listmount (ENOENT) is gone from
 * the table too; a kernel that leaves out a group is EOPNOTSUPP, for ct_mounts_read to
 * fall back. */
static int stat_mounts(struct ct_mount_table *t, const uint64_t *ids, size_t n,
		       const struct sm_fields *f, struct sm_buf *b, struct ct_error *err)
{
	uint64_t seen = 0, supported = 0;
	for (size_t i = 0; i < n; i++) {
		if (statmount_one(ids[i], f->want, b) < 0) {
			if (errno == ENOENT)
				continue;
			return ct_error_sys(err, errno, "statmount of mount %#" PRIx64, ids[i]);
		}
		if ((b->sm->mask & f->always) != f->always)
			return statmount_incomplete(err);
		seen |= b->sm->mask;
		if (b->sm->mask & STATMOUNT_SUPPORTED_MASK)
			supported = b->sm->supported_mask;
		if (add_statmount(t, b, err) < 0)
			return -1;
	}
	return statmount_complete(seen, supported, f->needed) ? 0 : statmount_incomplete(err);
}

static int read_statmount(struct ct_mount_table *t, bool brief, struct ct_error *err)
{
	uint64_t first_ids[SM_STACK_IDS];
	uint64_t first_sm[SM_STACK_BYTES / sizeof(uint64_t)]; /* aligned for the struct */
	struct id_list ids = {first_ids, 0, SM_STACK_IDS, false};
	struct sm_buf b = {(struct ct_statmount *)first_sm, sizeof(first_sm), false};
	struct sm_fields f = sm_fields(brief);
	table_init(t, CT_MOUNTS_STATMOUNT);
	int r = list_mount_ids(&ids, err);
	if (r == 0)
		r = stat_mounts(t, ids.v, ids.n, &f, &b, err);
	if (ids.on_heap)
		free(ids.v);
	if (b.on_heap)
		free(b.sm);
	if (r < 0)
		ct_mount_table_free(t);
	return r;
}

/* ---- choosing the back end ------------------------------------------------------------ */

/* What an old kernel (ENOSYS), a seccomp profile (ENOSYS, EPERM) or a statmount too old
 * to report every field (EOPNOTSUPP) answers: the cases mountinfo stands in for. */
static bool statmount_unusable(int errnum)
{
	return errnum == ENOSYS || errnum == EPERM || errnum == EOPNOTSUPP;
}

/* statmount/listmount are called without a probe first: where they are missing or refused
 * the first listmount fails the same way a probe would. */
static int read_auto(struct ct_mount_table *t, bool brief, struct ct_error *err)
{
	struct ct_error sm_err = {0};
	if (read_statmount(t, brief, &sm_err) == 0)
		return 0;
	if (!statmount_unusable(sm_err.errnum)) {
		if (err)
			*err = sm_err;
		return -1;
	}
	return read_mountinfo(t, err);
}

static int read_table(struct ct_mount_table *t, enum ct_mounts_backend want, bool brief,
		      struct ct_error *err)
{
	table_init(t, want);
	switch (want) {
	case CT_MOUNTS_AUTO:
		return read_auto(t, brief, err);
	case CT_MOUNTS_STATMOUNT:
		return read_statmount(t, brief, err);
	case CT_MOUNTS_MOUNTINFO:
		return read_mountinfo(t, err);
	}
	return ct_error_plain(err, EINVAL, "mount table: unknown back end %d", (int)want);
}

int ct_mounts_read(struct ct_mount_table *t, enum ct_mounts_backend want, struct ct_error *err)
{
	return read_table(t, want, false, err);
}

int ct_mounts_read_brief(struct ct_mount_table *t, enum ct_mounts_backend want,
			 struct ct_error *err)
{
	return read_table(t, want, true, err);
}

const char *ct_mounts_backend_name(enum ct_mounts_backend b)
{
	switch (b) {
	case CT_MOUNTS_AUTO:
		return "auto";
	case CT_MOUNTS_STATMOUNT:
		return "statmount";
	case CT_MOUNTS_MOUNTINFO:
		return "mountinfo";
	}
	return "unknown";
}

/* ---- lookups ---------------------------------------------------------------------------- */

/* Whether some other mount at m's target is mounted on m, i.e. hides it. */
static bool is_covered(const struct ct_mount_table *t, const struct ct_mount *m)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_mount *o = &t->v[i];
		if (o != m && o->parent_mnt_id == m->mnt_id && strcmp(o->target, m->target) == 0)
			return true;
	}
	return false;
}

const struct ct_mount *ct_mount_find_by_target(const struct ct_mount_table *t, const char *target)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].target, target) == 0 && !is_covered(t, &t->v[i]))
			return &t->v[i];
	return NULL;
}

const struct ct_mount *ct_mount_find_by_id(const struct ct_mount_table *t, uint64_t id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].mnt_id == id)
			return &t->v[i];
	return NULL;
}

/* Whether a walk that is in m on its way to the mount point of next (NULL: to m's own root)
 * would turn off into another mount made on m: one at that mount point or on a directory
 * above it. */
static bool walk_turns_off(const struct ct_mount_table *t, const struct ct_mount *m,
			   const struct ct_mount *next)
{
	const char *to = next ? next->target : m->target;
	for (size_t i = 0; i < t->n; i++) {
		const struct ct_mount *o = &t->v[i];
		if (o != m && o != next && o->parent_mnt_id == m->mnt_id &&
		    ct_path_within(to, o->target))
			return true;
	}
	return false;
}

bool ct_mount_reached_by(const struct ct_mount_table *t, const struct ct_mount *m, const char *path)
{
	if (strcmp(m->target, path) != 0)
		return false;
	const struct ct_mount *next = NULL;
	for (size_t depth = 0; depth <= t->n; depth++) {
		if (walk_turns_off(t, m, next))
			return false;
		const struct ct_mount *parent = ct_mount_find_by_id(t, m->parent_mnt_id);
		if (!parent || parent == m)
			return strcmp(m->target, "/") == 0;
		next = m;
		m = parent;
	}
	return false; /* the parents go round in a loop: not a table the kernel gives */
}

/* "mnt_id:\t<n>" of /proc/self/fdinfo/FD: the reusable id, on kernels before statx has it. */
static int fdinfo_mount_id(int fd, uint64_t *id, struct ct_error *err)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	_cleanup_free_ char *text = read_proc_file(path, err);
	if (!text)
		return -1;
	char *cur = text;
	for (char *line; (line = strsep(&cur, "\n"));) {
		uint32_t v;
		if (strncmp(line, "mnt_id:", 7) != 0)
			continue;
		if (parse_u32(line + 7 + strspn(line + 7, " \t"), &v) < 0)
			break;
		*id = v;
		return 0;
	}
	return ct_error_plain(err, EINVAL, "%s: no mnt_id line", path);
}

int ct_fd_mount_id(int fd, bool unique, uint64_t *id, struct ct_error *err)
{
	unsigned int want = unique ? STATX_MNT_ID_UNIQUE : STATX_MNT_ID;
	struct ct_statx stx;
	int r = ct_statx(fd, "", AT_EMPTY_PATH, want, &stx);
	if (r == 0 && (stx.stx_mask & want)) {
		*id = stx.stx_mnt_id;
		return 0;
	}
	if (r < 0 && errno != ENOSYS && errno != EPERM)
		return ct_error_sys(err, errno, "read the mount id (statx)");
	if (unique)
		return ct_error_plain(err, EOPNOTSUPP,
				      "fd %d: the kernel gives no unique mount id "
				      "(statx STATX_MNT_ID_UNIQUE needs Linux 6.8)",
				      fd);
	return fdinfo_mount_id(fd, id, err);
}

const struct ct_mount *ct_mount_find_by_fd(const struct ct_mount_table *t, int fd,
					   struct ct_error *err)
{
	bool unique = t->backend == CT_MOUNTS_STATMOUNT;
	uint64_t id;
	if (ct_fd_mount_id(fd, unique, &id, err) < 0)
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		if ((unique ? t->v[i].id : t->v[i].mnt_id) == id)
			return &t->v[i];
	ct_error_plain(err, ENOENT, "fd %d is on mount %" PRIu64 ", which is not in the table", fd,
		       id);
	return NULL;
}
