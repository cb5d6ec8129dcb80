/* Which cgroup layout /sys/fs/cgroup has (libct/cgroup/cgroup.h), detected once from
 * /proc/self/mountinfo and /proc/self/cgroup. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/cleanup.h"
#include "libct/base/readall.h"
#include "libct/cgroup/cgroup.h"

#define PROC_TEXT_MAX (4u << 20)

static void free_v1(struct ct_cgroup_layout *l)
{
	for (size_t i = 0; i < l->n_v1; i++) {
		free(l->v1[i].key);
		free(l->v1[i].mountpoint);
		free(l->v1[i].mount_root);
		free(l->v1[i].caller_path);
		free(l->v1[i].options);
	}
	free(l->v1);
	l->v1 = NULL;
	l->n_v1 = 0;
}

void ct_cgroup_layout_free(struct ct_cgroup_layout *l)
{
	free_v1(l);
	free(l->unified_mount);
	free(l->unified_mount_root);
	free(l->unified_caller_path);
	memset(l, 0, sizeof(*l));
}

/* Whether every comma-separated token of list[0..len) is one of opts' tokens. */
static bool tokens_in_n(const char *list, size_t len, const char *opts)
{
	const char *p = list, *end = list + len;
	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		size_t tlen = comma ? (size_t)(comma - p) : (size_t)(end - p);
		bool found = false;
		for (const char *q = opts; *q && !found;) {
			size_t qlen = strcspn(q, ",");
			found = qlen == tlen && strncmp(p, q, tlen) == 0;
			q += qlen + (q[qlen] == ',');
		}
		if (!found)
			return false;
		p += tlen + (comma != NULL);
	}
	return true;
}

static bool tokens_in(const char *list, const char *opts)
{
	return tokens_in_n(list, strlen(list), opts);
}

/* A space-separated field of a line, not NUL-terminated. */
struct field {
	const char *text;
	size_t len;
};

/* The field at *p (spaces before it skipped), *p moved past it; false at the line's end. */
static bool next_field(const char **p, const char *end, struct field *f)
{
	while (*p < end && **p == ' ')
		(*p)++;
	f->text = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	f->len = (size_t)(*p - f->text);
	return f->len > 0;
}

static bool field_is(struct field f, const char *s)
{
	return f.len == strlen(s) && memcmp(f.text, s, f.len) == 0;
}

/* f into dst as a C string; false when it does not fit. */
static bool copy_field(char *dst, size_t size, struct field f)
{
	if (f.len >= size)
		return false;
	memcpy(dst, f.text, f.len);
	dst[f.len] = '\0';
	return true;
}

struct mount_line {
	char root[1024], mountpoint[1024], fstype[64], super[1024];
};

/* id parent major:minor root mountpoint options [optional...] - fstype source super
 *
 * Only mounts on CT_CGROUP_ROOT or below it are kept: the others neither are a hierarchy
 * nor hide one (drop_hidden), and most lines of a host's mountinfo are such others, so
 * they are passed over before anything is copied. A kept line with a field longer than
 * mount_line holds is no hierarchy ctrun could use either. */
static bool parse_mount_line(const char *line, const char *end, struct mount_line *m)
{
	struct field f[5], root, point, fstype, source, super;
	const char *p = line;
	for (size_t i = 0; i < 5; i++)
		if (!next_field(&p, end, &f[i]))
			return false;
	root = f[3];
	point = f[4];
	if (point.len < strlen(CT_CGROUP_ROOT) ||
	    memcmp(point.text, CT_CGROUP_ROOT, strlen(CT_CGROUP_ROOT)) != 0)
		return false;
	/* the separator may be any field after the first, as " - " was searched for */
	struct field sep;
	p = f[0].text + f[0].len;
	do {
		if (!next_field(&p, end, &sep))
			return false;
	} while (!field_is(sep, "-"));
	if (!next_field(&p, end, &fstype) || !next_field(&p, end, &source) ||
	    !next_field(&p, end, &super))
		return false;
	return copy_field(m->root, sizeof(m->root), root) &&
	       copy_field(m->mountpoint, sizeof(m->mountpoint), point) &&
	       copy_field(m->fstype, sizeof(m->fstype), fstype) &&
	       copy_field(m->super, sizeof(m->super), super);
}

/* The /proc/self/cgroup line whose controller list the mount's options all carry: the
 * hierarchy's key and the caller's path in it. */
static const char *find_caller_line(const char *proc_cgroup, const char *super, char *key,
				    size_t key_size)
{
	for (const char *line = proc_cgroup; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *c1 = memchr(line, ':', len);
		const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;
		if (c2 && c2 > c1 + 1 && tokens_in_n(c1 + 1, (size_t)(c2 - c1 - 1), super)) {
			struct field controllers = {c1 + 1, (size_t)(c2 - c1 - 1)};
			if (controllers.len >= key_size)
				controllers.len = key_size - 1;
			copy_field(key, key_size, controllers);
			return c2 + 1;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

/* The path part of a /proc/self/cgroup line found above, malloc'ed. */
static char *line_path(const char *p)
{
	size_t len = strcspn(p, "\n");
	return strndup(p, len);
}

/* The super options a new mount of the hierarchy takes: all but rw and ro. */
static char *mount_options(const char *super)
{
	char *out = malloc(strlen(super) + 1);
	if (!out)
		return NULL;
	size_t n = 0;
	for (const char *p = super; *p;) {
		size_t len = strcspn(p, ",");
		if (!(len == 2 && (strncmp(p, "rw", 2) == 0 || strncmp(p, "ro", 2) == 0))) {
			if (n)
				out[n++] = ',';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len + (p[len] == ',');
	}
	out[n] = '\0';
	return out;
}

static int add_v1(struct ct_cgroup_layout *l, const struct mount_line *m, const char *key,
		  const char *caller)
{
	for (size_t i = 0; i < l->n_v1; i++)
		if (strcmp(l->v1[i].key, key) == 0)
			return 0; /* a second mount of one hierarchy: the first counts */
	struct ct_cgroup_hierarchy_info *grown = realloc(l->v1, (l->n_v1 + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	l->v1 = grown;
	struct ct_cgroup_hierarchy_info *h = &l->v1[l->n_v1++];
	h->key = strdup(key);
	h->mountpoint = strdup(m->mountpoint);
	h->mount_root = strdup(m->root);
	h->caller_path = line_path(caller);
	h->options = mount_options(m->super);
	return h->key && h->mountpoint && h->mount_root && h->caller_path && h->options ? 0 : -1;
}

static const char *unified_line(const char *proc_cgroup)
{
	if (strncmp(proc_cgroup, "0::", 3) == 0)
		return proc_cgroup + 3;
	const char *p = strstr(proc_cgroup, "\n0::");
	return p ? p + 4 : NULL;
}

/* mountinfo lists mounts in the order they were stacked: a later mount on a hierarchy's
 * mount point hides it, as an empty tmpfs over .../unified does on a hybrid host to show
 * plain v1 (what crun 1.8 needs there). */
static void drop_hidden(struct ct_cgroup_layout *l, const char *point)
{
	if (l->unified_mount && strcmp(point, l->unified_mount) == 0) {
		free(l->unified_mount);
		free(l->unified_mount_root);
		free(l->unified_caller_path);
		l->unified_mount = l->unified_mount_root = l->unified_caller_path = NULL;
		l->mode = CT_CGROUP_MODE_NONE;
	}
	size_t kept = 0;
	for (size_t i = 0; i < l->n_v1; i++) {
		struct ct_cgroup_hierarchy_info *h = &l->v1[i];
		if (strcmp(point, h->mountpoint) != 0) {
			l->v1[kept++] = *h;
			continue;
		}
		free(h->key);
		free(h->mountpoint);
		free(h->mount_root);
		free(h->caller_path);
		free(h->options);
	}
	l->n_v1 = kept;
}

static int take_mount(struct ct_cgroup_layout *l, const struct mount_line *m,
		      const char *proc_cgroup)
{
	drop_hidden(l, m->mountpoint);
	bool top = strcmp(m->mountpoint, CT_CGROUP_ROOT) == 0;
	bool below = strncmp(m->mountpoint, CT_CGROUP_ROOT "/", sizeof(CT_CGROUP_ROOT)) == 0 &&
		     !strchr(m->mountpoint + sizeof(CT_CGROUP_ROOT), '/');
	if (strcmp(m->fstype, "cgroup2") == 0 &&
	    (top || strcmp(m->mountpoint, CT_CGROUP_ROOT "/unified") == 0)) {
		const char *caller = unified_line(proc_cgroup);
		free(l->unified_mount);
		free(l->unified_mount_root);
		free(l->unified_caller_path);
		l->unified_mount = strdup(m->mountpoint);
		l->unified_mount_root = strdup(m->root);
		l->unified_caller_path = caller ? line_path(caller) : strdup("/");
		if (top)
			l->mode = CT_CGROUP_MODE_UNIFIED;
		return l->unified_mount && l->unified_mount_root && l->unified_caller_path ? 0 : -1;
	}
	if (strcmp(m->fstype, "cgroup") != 0 || !below)
		return 0;
	char key[1024];
	const char *caller = find_caller_line(proc_cgroup, m->super, key, sizeof(key));
	return caller ? add_v1(l, m, key, caller) : 0;
}

int ct_cgroup_layout_parse(const char *mountinfo, const char *proc_cgroup,
			   struct ct_cgroup_layout *l, struct ct_error *err)
{
	memset(l, 0, sizeof(*l));
	for (const char *line = mountinfo; line && *line;) {
		const char *end = strchr(line, '\n');
		struct mount_line m;
		if (parse_mount_line(line, end ? end : line + strlen(line), &m) &&
		    take_mount(l, &m, proc_cgroup) < 0) {
			ct_cgroup_layout_free(l);
			return ct_error_set(err, ENOMEM, "detect the cgroup layout");
		}
		line = end ? end + 1 : NULL;
	}
	if (l->mode == CT_CGROUP_MODE_UNIFIED) {
		/* v1 hierarchies mounted below a cgroup2 root are not the layout */
		free_v1(l);
	} else if (l->n_v1) {
		l->mode = l->unified_mount ? CT_CGROUP_MODE_HYBRID : CT_CGROUP_MODE_LEGACY;
	} else if (l->unified_mount) {
		/* a lone cgroup2 on .../unified without v1 controllers: no layout to use */
		l->mode = CT_CGROUP_MODE_NONE;
	}
	return 0;
}

static char *read_proc(const char *path)
{
	_cleanup_close_ int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? NULL : ct_read_all(fd, PROC_TEXT_MAX, NULL);
}

int ct_cgroup_layout_get(const struct ct_cgroup_layout **out, struct ct_error *err)
{
	static struct ct_cgroup_layout layout;
	static bool done;
	if (!done) {
		_cleanup_free_ char *mountinfo = read_proc("/proc/self/mountinfo");
		if (!mountinfo)
			return ct_error_set(err, errno, "read \"/proc/self/mountinfo\"");
		_cleanup_free_ char *cgroup = read_proc("/proc/self/cgroup");
		if (!cgroup)
			return ct_error_set(err, errno, "read \"/proc/self/cgroup\"");
		if (ct_cgroup_layout_parse(mountinfo, cgroup, &layout, err) < 0)
			return -1;
		done = true;
	}
	*out = &layout;
	return 0;
}

const struct ct_cgroup_hierarchy_info *ct_cgroup_layout_find(const struct ct_cgroup_layout *l,
							     const char *controller)
{
	for (size_t i = 0; i < l->n_v1; i++)
		if (tokens_in(controller, l->v1[i].key))
			return &l->v1[i];
	return NULL;
}
