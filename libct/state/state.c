/* The container state store (libct/state/state.h): ids, the root, one locked directory per
 * container, state.json written atomically and read back with the table-driven walker. */
#include "libct/state/state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#include "libct/base/cleanup.h"
#include "libct/base/pathbuf.h"
#include "libct/base/readall.h"
#include "libct/base/sha256.h"
#include "libct/base/syscalls.h"
#include "oci/jsonsax.h"
#include "oci/jsonwrite.h"

#define STATE_MAX_BYTES	 (16u << 20) /* annotations are the only unbounded part */
#define RESERVE_PREFIX	 ".reserve-" /* never a valid id: ids do not start with '.' */
#define OPEN_ATTEMPTS	 3
#define RESERVE_ATTEMPTS 8

_Static_assert(sizeof(pid_t) == 4, "the pid descriptor stores 4 bytes");
_Static_assert(sizeof(uid_t) == 4, "the owner descriptor stores 4 bytes");

/* ---- ids ---- */

static bool is_id_first_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '+' || c == '-';
}

static bool is_id_char(unsigned char c)
{
	return is_id_first_char(c) || c == '.';
}

struct ct_shown_id ct_shown_id(const char *id)
{
	struct ct_shown_id shown;
	const size_t size = sizeof(shown.s);
	size_t n = 0, i;
	if (!id)
		id = "";
	for (i = 0; id[i] && i < CT_ID_SHOWN_CHARS && n + 5 < size; i++) {
		unsigned char c = (unsigned char)id[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			shown.s[n++] = (char)c;
		else
			n += (size_t)snprintf(shown.s + n, size - n, "\\x%02x", c);
	}
	if (id[i] && n + 4 < size) {
		memcpy(shown.s + n, "...", 3);
		n += 3;
	}
	shown.s[n] = '\0';
	return shown;
}

int ct_state_check_id(const char *id, struct ct_error *err)
{
	if (!id || !*id)
		return ct_error_plain(err, EINVAL, "invalid container id \"\": it is empty");
	size_t len = strnlen(id, CT_ID_MAX + 1);
	if (len > CT_ID_MAX)
		return ct_error_plain(err, EINVAL,
				      "invalid container id \"%s\": longer than %d characters",
				      ct_shown_id(id).s, CT_ID_MAX);
	if (!is_id_first_char((unsigned char)id[0]))
		return ct_error_plain(
			err, EINVAL,
			"invalid container id \"%s\": it must start with a letter, a digit, "
			"'_', '+' or '-'",
			ct_shown_id(id).s);
	for (size_t i = 1; i < len; i++) {
		unsigned char c = (unsigned char)id[i];
		if (is_id_char(c))
			continue;
		char what[16];
		if (c >= 0x20 && c < 0x7f)
			snprintf(what, sizeof(what), "'%c'", c);
		else
			snprintf(what, sizeof(what), "byte 0x%02x", c);
		return ct_error_plain(
			err, EINVAL,
			"invalid container id \"%s\": %s at offset %zu is not allowed "
			"(only letters, digits, '_', '+', '-' and '.')",
			ct_shown_id(id).s, what, i);
	}
	/* the id becomes a path component and a cgroup name: nothing that walks upwards */
	if (strstr(id, ".."))
		return ct_error_plain(err, EINVAL,
				      "invalid container id \"%s\": it must not contain \"..\"",
				      ct_shown_id(id).s);
	return 0;
}

/* ---- the root ---- */

/* mkdir -p: each missing directory of the path made 0700, so that no other user can reach
 * the containers' state below it. */
static int make_root_dirs(const char *root, struct ct_error *err)
{
	_cleanup_free_ char *path = strdup(root);
	if (!path)
		return ct_error_sys(err, ENOMEM, "create state root \"%s\"", root);
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return ct_error_sys(err, errno, "create state root \"%s\"", path);
		*p = saved;
		if (!saved)
			break;
		while (p[1] == '/')
			p++;
	}
	return 0;
}

int ct_state_root_open(const char *root, bool create, struct ct_error *err)
{
	if (!root || !*root)
		return ct_error_plain(err, EINVAL, "state root: empty path");
	int fd = openat(AT_FDCWD, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* the root is there but on a first use: no mkdir of each of its ancestors, each a
	 * walk of the path so far, to learn that they exist */
	if (fd < 0 && errno == ENOENT && create) {
		if (make_root_dirs(root, err) < 0)
			return -1;
		fd = openat(AT_FDCWD, root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0)
		return ct_error_sys(err, errno, "open state root \"%s\"", root);
	return fd;
}

/* ---- container directories ---- */

static void container_dir_init(struct ct_container_dir *d)
{
	d->dirfd = -1;
	d->lockfd = -1;
	d->id[0] = '\0';
}

void ct_container_dir_close(struct ct_container_dir *d)
{
	if (!d)
		return;
	ct_close_now(&d->lockfd);
	ct_close_now(&d->dirfd);
	d->lockfd = -1;
	d->dirfd = -1;
}

static int flock_retrying(int fd, int op)
{
	int ret;
	do
		ret = flock(fd, op);
	while (ret < 0 && errno == EINTR);
	return ret;
}

/* Opens rootfd/name and takes the lock on a second fd of the same directory, so that the
 * lock's lifetime is lockfd's alone. Symlinks in the root are refused. */
static int open_and_lock(int rootfd, const char *name, int lock_op, struct ct_container_dir *d,
			 struct ct_error *err)
{
	_cleanup_close_ int dirfd =
		openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (dirfd < 0)
		return ct_error_sys(err, errno, "open \"%s\" in the state root",
				    ct_shown_id(name).s);
	_cleanup_close_ int lockfd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lockfd < 0)
		return ct_error_sys(err, errno, "open \"%s\" in the state root",
				    ct_shown_id(name).s);
	if (flock_retrying(lockfd, lock_op) < 0)
		return ct_error_sys(err, errno, "lock \"%s\" in the state root",
				    ct_shown_id(name).s);
	d->dirfd = steal_fd(&dirfd);
	d->lockfd = steal_fd(&lockfd);
	return 0;
}

static int remove_contents(int dirfd, struct ct_error *err);

/* After rmdir a directory has no links; one that lost them while we waited for its lock was
 * removed by whoever held it. */
static bool was_removed(int dirfd)
{
	struct stat st;
	return fstat(dirfd, &st) == 0 && st.st_nlink == 0;
}

static int already_exists(struct ct_error *err, const char *id)
{
	return ct_error_plain(err, EEXIST, "container \"%s\" already exists", ct_shown_id(id).s);
}

/* The plain way, for file systems without RENAME_NOREPLACE: between mkdir and flock another
 * process may see the directory unlocked and empty. */
static int reserve_by_mkdir(int rootfd, const char *id, struct ct_container_dir *d,
			    struct ct_error *err)
{
	if (mkdirat(rootfd, id, 0700) < 0) {
		if (errno == EEXIST)
			return already_exists(err, id);
		return ct_error_sys(err, errno, "create the directory of container \"%s\"",
				    ct_shown_id(id).s);
	}
	if (open_and_lock(rootfd, id, LOCK_EX, d, err) < 0) {
		unlinkat(rootfd, id, AT_REMOVEDIR);
		return -1;
	}
	/* a command that locked it first took it for a create killed before its state.json */
	if (was_removed(d->dirfd)) {
		ct_container_dir_close(d);
		return already_exists(err, id);
	}
	return 0;
}

void ct_state_reservation_name(const char *id, char name[CT_RESERVATION_NAME_MAX])
{
	struct ct_sha256 c;
	unsigned char digest[CT_SHA256_LEN];
	char hex[CT_SHA256_HEX_LEN + 1];
	ct_sha256_init(&c);
	ct_sha256_update(&c, id, strlen(id));
	ct_sha256_final(&c, digest);
	ct_sha256_hex(digest, hex);
	snprintf(name, CT_RESERVATION_NAME_MAX, RESERVE_PREFIX "%.32s", hex);
}

/* A reservation nobody holds locked was left by a killed create (its creator locks it right
 * after making it and checks afterwards that it is still there): removed, under its lock. */
static void remove_dead_reservation(int rootfd, const char *name)
{
	_cleanup_close_ int fd =
		openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0)
		return;
	remove_contents(fd, NULL);
	unlinkat(rootfd, name, AT_REMOVEDIR);
}

/* Whether the locked directory d is still the reservation `name`: a remover of dead ones
 * may have taken it between our mkdir and our lock, and another create made it again. */
static bool holds_reservation(int rootfd, const char *name, const struct ct_container_dir *d)
{
	struct stat ours, named;
	return fstat(d->dirfd, &ours) == 0 && ours.st_nlink > 0 &&
	       fstatat(rootfd, name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
	       ours.st_dev == named.st_dev && ours.st_ino == named.st_ino;
}

/* Makes and locks the reservation `name`: 0, 1 to try again (lost to a remover), -1. One
 * that is there already and that nobody holds is a killed create's: taken over as it is
 * (empty: nothing goes in before the rename); one held is a create of the id under way. */
static int take_reservation(int rootfd, const char *id, const char *name,
			    struct ct_container_dir *d, struct ct_error *err)
{
	bool made = mkdirat(rootfd, name, 0700) == 0;
	if (!made && errno != EEXIST)
		return ct_error_sys(err, errno, "create a directory in the state root");
	if (open_and_lock(rootfd, name, made ? LOCK_EX : LOCK_EX | LOCK_NB, d, err) < 0) {
		if (err->errnum == ENOENT)
			return 1;
		return err->errnum == EWOULDBLOCK ? already_exists(err, id) : -1;
	}
	if (holds_reservation(rootfd, name, d))
		return 0;
	ct_container_dir_close(d);
	return 1;
}

/* A directory that appears under its id is already locked by its creator: readers and
 * `delete` never find a half-made container they could mistake for an abandoned one. */
static int reserve_by_rename(int rootfd, const char *id, struct ct_container_dir *d,
			     struct ct_error *err, bool *unsupported)
{
	char tmp[CT_RESERVATION_NAME_MAX];
	*unsupported = false;
	ct_state_reservation_name(id, tmp);
	int taken = 1;
	for (int attempt = 0; taken == 1 && attempt < RESERVE_ATTEMPTS; attempt++)
		taken = take_reservation(rootfd, id, tmp, d, err);
	if (taken == 1)
		return already_exists(err, id);
	if (taken < 0)
		return -1;
	if (ct_renameat2(rootfd, tmp, rootfd, id, RENAME_NOREPLACE) == 0)
		return 0;
	int e = errno;
	unlinkat(rootfd, tmp, AT_REMOVEDIR);
	ct_container_dir_close(d);
	if (e == EEXIST)
		return already_exists(err, id);
	if (e == EINVAL || e == ENOSYS) {
		*unsupported = true;
		return -1;
	}
	return ct_error_sys(err, e, "create the directory of container \"%s\"", ct_shown_id(id).s);
}

int ct_state_reserve(int rootfd, const char *id, struct ct_container_dir *out, struct ct_error *err)
{
	container_dir_init(out);
	if (ct_state_check_id(id, err) < 0)
		return -1;
	bool unsupported;
	int ret = reserve_by_rename(rootfd, id, out, err, &unsupported);
	if (ret < 0 && unsupported)
		ret = reserve_by_mkdir(rootfd, id, out, err);
	if (ret < 0)
		return -1;
	snprintf(out->id, sizeof(out->id), "%s", id);
	return 0;
}

static int does_not_exist(struct ct_error *err, const char *id)
{
	return ct_error_plain(err, ENOENT, "container \"%s\" does not exist", ct_shown_id(id).s);
}

/* A create killed before it renamed its reservation into place left that alone: an
 * exclusive opener (delete, ...) removes it. */
static int not_found(int rootfd, const char *id, bool exclusive, struct ct_error *err)
{
	if (exclusive) {
		char name[CT_RESERVATION_NAME_MAX];
		ct_state_reservation_name(id, name);
		remove_dead_reservation(rootfd, name);
	}
	return does_not_exist(err, id);
}

void ct_state_unlock(struct ct_container_dir *d)
{
	flock_retrying(d->lockfd, LOCK_UN);
}

int ct_state_relock(struct ct_container_dir *d, struct ct_error *err)
{
	if (flock_retrying(d->lockfd, LOCK_EX) < 0)
		return ct_error_sys(err, errno, "lock \"%s\" in the state root",
				    ct_shown_id(d->id).s);
	return was_removed(d->dirfd) ? does_not_exist(err, d->id) : 0;
}

int ct_state_open(int rootfd, const char *id, bool lock_exclusive, struct ct_container_dir *out,
		  struct ct_error *err)
{
	container_dir_init(out);
	if (ct_state_check_id(id, err) < 0)
		return -1;
	/* A removed container may come back under the same id at once: look again. */
	for (int attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
		if (open_and_lock(rootfd, id, lock_exclusive ? LOCK_EX : LOCK_SH, out, err) < 0) {
			if (err && err->errnum == ENOENT)
				return not_found(rootfd, id, lock_exclusive, err);
			return -1;
		}
		if (!was_removed(out->dirfd)) {
			snprintf(out->id, sizeof(out->id), "%s", id);
			return 0;
		}
		ct_container_dir_close(out);
	}
	return does_not_exist(err, id);
}

/* Empties the directory `dirfd`; subdirectories are emptied and removed, symlinks are
 * removed, never followed. */
static int remove_contents(int dirfd, struct ct_error *err)
{
	_cleanup_closedir_ DIR *dir = ct_opendir_at(dirfd);
	if (!dir)
		return ct_error_sys(err, errno, "open");
	struct dirent *de;
	while ((errno = 0, de = readdir(dir))) {
		const char *name = de->d_name;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
			continue;
		if (errno != EISDIR)
			return ct_error_sys(err, errno, "remove \"%s\"", name);
		_cleanup_close_ int sub =
			openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (sub < 0)
			return ct_error_sys(err, errno, "open \"%s\"", name);
		if (remove_contents(sub, err) < 0)
			return ct_error_prefix(err, "\"%s\"", name);
		if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
			return ct_error_sys(err, errno, "remove \"%s\"", name);
	}
	if (errno)
		return ct_error_sys(err, errno, "read directory");
	return 0;
}

/* The files a container's directory usually holds are removed by name and the directory
 * with them: 1 when that emptied it, 0 when something else is there (a scan is needed). */
static int remove_known_files(int rootfd, const struct ct_container_dir *d)
{
	static const char *const known[] = {CT_STATE_FILE, CT_STATE_PENDING_FILE};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		unlinkat(d->dirfd, known[i], 0);
	return unlinkat(rootfd, d->id, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

int ct_state_remove(int rootfd, struct ct_container_dir *d, struct ct_error *err)
{
	int ret = -1;
	if (remove_known_files(rootfd, d)) {
		ct_container_dir_close(d);
		return 0;
	}
	/* Entries removed during readdir may hide others from the same pass: go again. */
	for (int pass = 0; pass < 3; pass++) {
		if (remove_contents(d->dirfd, err) < 0) {
			ct_error_prefix(err, "remove the directory of container \"%s\"",
					ct_shown_id(d->id).s);
			break;
		}
		if (unlinkat(rootfd, d->id, AT_REMOVEDIR) == 0 || errno == ENOENT) {
			ret = 0;
			break;
		}
		if (errno != ENOTEMPTY || pass == 2) {
			ct_error_sys(err, errno, "remove the directory of container \"%s\"",
				     ct_shown_id(d->id).s);
			break;
		}
	}
	ct_container_dir_close(d);
	return ret;
}

/* ---- state.json: writing ---- */

static int gen_key(yajl_gen g, const char *key)
{
	return yajl_gen_string(g, (const unsigned char *)key, strlen(key)) != yajl_gen_status_ok;
}

static int gen_str(yajl_gen g, const char *key, const char *value)
{
	if (!value)
		value = "";
	return gen_key(g, key) || yajl_gen_string(g, (const unsigned char *)value, strlen(value)) !=
					  yajl_gen_status_ok;
}

static int gen_int(yajl_gen g, const char *key, long long value)
{
	return gen_key(g, key) || yajl_gen_integer(g, value) != yajl_gen_status_ok;
}

/* yajl_gen_integer takes a long long: a uint64_t goes out as its decimal text */
static int gen_u64(yajl_gen g, const char *key, uint64_t value)
{
	char text[CT_DEC_MAX];
	size_t n = ct_format_dec(text, value);
	return gen_key(g, key) || yajl_gen_number(g, text, n) != yajl_gen_status_ok;
}

static int gen_bool(yajl_gen g, const char *key, bool value)
{
	return gen_key(g, key) || yajl_gen_bool(g, value) != yajl_gen_status_ok;
}

static int compare_kv_keys(const void *a, const void *b)
{
	const struct oci_kv *const *x = a, *const *y = b;
	return strcmp((*x)->key, (*y)->key);
}

/* Keys in byte order, as Go's encoding/json writes every map: the output does not depend on
 * the order config.json happened to list them in. */
static int gen_string_map(yajl_gen g, const char *key, const oci_string_map *map)
{
	_cleanup_free_ const struct oci_kv **sorted =
		calloc(map->len ? map->len : 1, sizeof(*sorted));
	if (!sorted)
		return -1;
	for (size_t i = 0; i < map->len; i++)
		sorted[i] = &map->items[i];
	qsort(sorted, map->len, sizeof(*sorted), compare_kv_keys);
	if (gen_key(g, key) || yajl_gen_map_open(g) != yajl_gen_status_ok)
		return -1;
	for (size_t i = 0; i < map->len; i++)
		if (gen_str(g, sorted[i]->key, sorted[i]->value))
			return -1;
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static const char *state_oci_version(const struct ct_state *st)
{
	return st->oci_version ? st->oci_version : CT_STATE_OCI_VERSION;
}

static int gen_strings(yajl_gen g, const char *key, const oci_strings *v)
{
	if (gen_key(g, key) || yajl_gen_array_open(g) != yajl_gen_status_ok)
		return -1;
	for (size_t i = 0; i < v->len; i++)
		if (yajl_gen_string(g, (const unsigned char *)v->items[i], strlen(v->items[i])) !=
		    yajl_gen_status_ok)
			return -1;
	return yajl_gen_array_close(g) != yajl_gen_status_ok;
}

static int gen_hook(yajl_gen g, const struct oci_hook *h)
{
	if (yajl_gen_map_open(g) != yajl_gen_status_ok || gen_str(g, "path", h->path) ||
	    (h->args.len && gen_strings(g, "args", &h->args)) ||
	    (h->env.len && gen_strings(g, "env", &h->env)) ||
	    (h->has_timeout && gen_int(g, "timeout", h->timeout)))
		return -1;
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static int gen_hook_list(yajl_gen g, const char *key, const oci_hook_list *l)
{
	if (!l->len)
		return 0;
	if (gen_key(g, key) || yajl_gen_array_open(g) != yajl_gen_status_ok)
		return -1;
	for (size_t i = 0; i < l->len; i++)
		if (gen_hook(g, &l->items[i]))
			return -1;
	return yajl_gen_array_close(g) != yajl_gen_status_ok;
}

/* Only the lists later commands run (struct ct_state). */
static int gen_kept_hooks(yajl_gen g, const struct oci_hooks *h)
{
	if (!h->poststart.len && !h->poststop.len)
		return 0;
	if (gen_key(g, "hooks") || yajl_gen_map_open(g) != yajl_gen_status_ok ||
	    gen_hook_list(g, "poststart", &h->poststart) ||
	    gen_hook_list(g, "poststop", &h->poststop))
		return -1;
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static int gen_private_fields(yajl_gen g, const struct ct_state *st)
{
	if (gen_key(g, "ctrun") || yajl_gen_map_open(g) != yajl_gen_status_ok)
		return -1;
	if (gen_u64(g, "pidStartTime", st->pid_start_time) || gen_bool(g, "started", st->started))
		return -1;
	if (st->no_device_filter && gen_bool(g, "noDeviceFilter", true))
		return -1;
	if (st->cgroup_paths.len && gen_string_map(g, "cgroupPaths", &st->cgroup_paths))
		return -1;
	if (st->cgroup_bases.len && gen_string_map(g, "cgroupBases", &st->cgroup_bases))
		return -1;
	if (st->systemd_unit && gen_str(g, "systemdUnit", st->systemd_unit))
		return -1;
	if (st->systemd_unit_token && gen_str(g, "systemdUnitToken", st->systemd_unit_token))
		return -1;
	if (st->systemd_unit_started && gen_bool(g, "systemdUnitStarted", true))
		return -1;
	if (gen_kept_hooks(g, &st->hooks))
		return -1;
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static int gen_state_file(yajl_gen g, const void *arg)
{
	const struct ct_state *st = arg;
	if (yajl_gen_map_open(g) != yajl_gen_status_ok)
		return -1;
	if (gen_str(g, "ociVersion", state_oci_version(st)) || gen_str(g, "id", st->id) ||
	    gen_int(g, "pid", st->pid) || gen_str(g, "bundle", st->bundle) ||
	    gen_str(g, "rootfs", st->rootfs) || gen_str(g, "created", st->created) ||
	    gen_int(g, "owner", st->owner))
		return -1;
	if (st->annotations.len && gen_string_map(g, "annotations", &st->annotations))
		return -1;
	if (gen_private_fields(g, st))
		return -1;
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static int write_new_file(int dirfd, const char *name, const void *buf, size_t len,
			  struct ct_error *err)
{
	_cleanup_close_ int fd =
		openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return ct_error_sys(err, errno, "create \"%s\"", name);
	if (ct_write_all(fd, buf, len) < 0)
		return ct_error_sys(err, errno, "write \"%s\"", name);
	return 0;
}

/* Rename is atomic: a reader sees the old file or the new one. No fsync: the state never
 * outlives the machine's uptime (the containers die with it, and the root is normally the
 * tmpfs /run), and one fsync of a disk-backed root costs more than the whole create. */
static int replace_file(int dirfd, const char *name, const void *buf, size_t len,
			struct ct_error *err)
{
	char tmp[256];
	snprintf(tmp, sizeof(tmp), "%s.tmp", name);
	if (write_new_file(dirfd, tmp, buf, len, err) < 0) {
		unlinkat(dirfd, tmp, 0);
		return -1;
	}
	if (renameat(dirfd, tmp, dirfd, name) < 0) {
		int e = errno;
		unlinkat(dirfd, tmp, 0);
		return ct_error_sys(err, e, "rename \"%s\" to \"%s\"", tmp, name);
	}
	return 0;
}

int ct_state_replace_file(const struct ct_container_dir *d, const char *name, const void *buf,
			  size_t len, struct ct_error *err)
{
	return replace_file(d->dirfd, name, buf, len, err);
}

char *ct_state_read_file(const struct ct_container_dir *d, const char *name, size_t max,
			 struct ct_error *err)
{
	_cleanup_close_ int fd = openat(d->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	char *text = fd < 0 ? NULL : ct_read_all(fd, max, NULL);
	if (!text && fd >= 0 && errno == EFBIG) /* ct_read_all's own: more than max */
		return ct_error_plain(err, EFBIG,
				      "\"%s\" of container \"%s\": larger than %zu bytes", name,
				      ct_shown_id(d->id).s, max),
		       NULL;
	if (!text)
		ct_error_sys(err, errno, "read \"%s\" of container \"%s\"", name,
			     ct_shown_id(d->id).s);
	return text;
}

/* st as the file `name` of the container directory (state.json's format). */
static int write_state_as(const struct ct_container_dir *d, const char *name,
			  const struct ct_state *st, struct ct_error *err)
{
	/* ct_state_read refuses a file whose id is not its directory's: never write one */
	if (!st->id || strcmp(st->id, d->id) != 0)
		return ct_error_plain(err, EINVAL,
				      "write the state of container \"%s\": id \"%s\" differs",
				      ct_shown_id(d->id).s, ct_shown_id(st->id).s);
	size_t len;
	_cleanup_free_ char *text = oci_json_generate(gen_state_file, st, true, &len);
	if (!text && errno == EINVAL)
		return ct_error_plain(err, EINVAL, "encode the state of container \"%s\"",
				      ct_shown_id(d->id).s);
	if (!text)
		return ct_error_sys(err, errno, "write the state of container \"%s\"",
				    ct_shown_id(d->id).s);
	if (replace_file(d->dirfd, name, text, len, err) < 0)
		return ct_error_prefix(err, "write the state of container \"%s\"",
				       ct_shown_id(d->id).s);
	return 0;
}

int ct_state_write(const struct ct_container_dir *d, const struct ct_state *st,
		   struct ct_error *err)
{
	return write_state_as(d, CT_STATE_FILE, st, err);
}

int ct_state_write_pending(const struct ct_container_dir *d, const struct ct_state *st,
			   struct ct_error *err)
{
	return write_state_as(d, CT_STATE_PENDING_FILE, st, err);
}

/* ---- state.json: reading ---- */

static const struct oci_type t_pid = {.kind = OCI_INT, .width = 4, .min = 0, .max = INT32_MAX};

static const struct oci_field private_fields[] = {
	OCI_FIELD_REQ(struct ct_state, "pidStartTime", pid_start_time, oci_t_uint64),
	OCI_FIELD_REQ(struct ct_state, "started", started, oci_t_bool),
	OCI_FIELD(struct ct_state, "noDeviceFilter", no_device_filter, oci_t_bool),
	OCI_FIELD(struct ct_state, "cgroupPaths", cgroup_paths, oci_t_string_map),
	OCI_FIELD(struct ct_state, "cgroupBases", cgroup_bases, oci_t_string_map),
	OCI_FIELD(struct ct_state, "systemdUnit", systemd_unit, oci_t_string),
	OCI_FIELD(struct ct_state, "systemdUnitToken", systemd_unit_token, oci_t_string),
	OCI_FIELD(struct ct_state, "systemdUnitStarted", systemd_unit_started, oci_t_bool),
	OCI_FIELD(struct ct_state, "hooks", hooks, oci_t_hooks),
	{NULL},
};
static const struct oci_type t_private = {.kind = OCI_OBJECT, .fields = private_fields};

/* The "ctrun" object describes members of struct ct_state itself: its descriptor sits at
 * offset 0, so the walker (and oci_walk_free) apply private_fields to the same struct. No
 * member is listed in both tables, so nothing is filled or freed twice. */
static const struct oci_field state_fields[] = {
	OCI_FIELD_REQ(struct ct_state, "ociVersion", oci_version, oci_t_string),
	OCI_FIELD_REQ(struct ct_state, "id", id, oci_t_string),
	OCI_FIELD_REQ(struct ct_state, "pid", pid, t_pid),
	OCI_FIELD_REQ(struct ct_state, "bundle", bundle, oci_t_string),
	OCI_FIELD_REQ(struct ct_state, "rootfs", rootfs, oci_t_string),
	OCI_FIELD_REQ(struct ct_state, "created", created, oci_t_string),
	OCI_FIELD_REQ(struct ct_state, "owner", owner, oci_t_uint32),
	OCI_FIELD(struct ct_state, "annotations", annotations, oci_t_string_map),
	{"ctrun", &t_private, 0, OCI_NO_PRESENCE, true},
	{NULL},
};

/* Where a state.json is read first: one that fits (a state without many annotations is under
 * 3 KiB) needs no allocation. `list` reads one per container, and with musl's malloc a 2 KiB
 * buffer made and freed each time was an mmap and a munmap. */
#define STATE_STACK_BYTES 8192

/* One open and, for what fits `stack`, one read; a bigger file is read on into *heap (the
 * caller's to free). Returns the NUL-terminated text. O_NONBLOCK: a FIFO planted as
 * state.json reads as empty (a parse error) instead of blocking the open; the size cap is
 * the read's. */
static const char *read_state_text(int atfd, const char *path, const char *label,
				   char stack[STATE_STACK_BYTES], char **heap, size_t *len,
				   struct ct_error *err)
{
	_cleanup_close_ int fd = openat(atfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return ct_error_sys(err, errno, "%s", label), NULL;
	const char *text =
		ct_read_file_into(fd, stack, STATE_STACK_BYTES, STATE_MAX_BYTES, heap, len);
	if (!text && errno == EFBIG)
		return ct_error_plain(err, EFBIG, "%s: larger than %u bytes", label,
				      STATE_MAX_BYTES),
		       NULL;
	if (!text)
		return ct_error_sys(err, errno, "%s", label), NULL;
	return text;
}

/* The parser's words, as an invalid state file (EINVAL) whatever code the parser gave. */
int ct_state_parse(const char *label, const char *text, struct ct_state *st, struct ct_error *err)
{
	memset(st, 0, sizeof(*st));
	struct ct_error why = {0};
	yajl_val tree = oci_json_parse(label, text, &why);
	if (!tree)
		return ct_error_plain(err, EINVAL, "%s", why.msg);
	struct oci_walk w = {.file = label, .err = &why};
	int ret = oci_walk_object(&w, state_fields, tree, st);
	oci_json_free(tree);
	if (ret < 0 || w.nerrors) {
		ct_state_free(st);
		return ct_error_plain(err, EINVAL, "%s", why.msg);
	}
	return 0;
}

/* What `list` never looks at: the hooks later commands run, and where removing the cgroup
 * stops. Skipped unread by the lean parse. */
static bool list_reads(const struct oci_field *f)
{
	return strcmp(f->name, "hooks") != 0 && strcmp(f->name, "cgroupBases") != 0;
}

int ct_state_parse_for_list(const char *label, const char *text, size_t len, struct ct_state *st,
			    struct ct_error *err)
{
	memset(st, 0, sizeof(*st));
	if (oci_sax_fill(text, len, state_fields, list_reads, st) == 0)
		return 0;
	ct_state_free(st);
	return ct_error_plain(err, EINVAL, "%s: not a valid state file", label);
}

/* yajl's tree reads a C string: a NUL inside would end the text early. The lean reader
 * refuses a NUL itself (no JSON token holds one). */
static int parse_in_full(const char *label, const char *text, size_t len, struct ct_state *st,
			 struct ct_error *err)
{
	if (strlen(text) != len)
		return ct_error_plain(err, EINVAL, "%s: contains a NUL byte", label);
	return ct_state_parse(label, text, st, err);
}

typedef int (*state_parser)(const char *label, const char *text, size_t len, struct ct_state *st,
			    struct ct_error *err);

/* state.json at `path` relative to `atfd`, checked against the id it belongs to. Messages
 * say `container "ID": state.json: ...`; the id is quoted only when one is made (list reads
 * a hundred files that are fine). */
static int read_state_at(int atfd, const char *path, const char *label, const char *id,
			 state_parser parse, struct ct_state *st, struct ct_error *err)
{
	memset(st, 0, sizeof(*st));
	size_t len;
	char stack[STATE_STACK_BYTES];
	_cleanup_free_ char *heap = NULL;
	const char *text = read_state_text(atfd, path, label, stack, &heap, &len, err);
	if (!text || parse(label, text, len, st, err) < 0)
		return ct_error_prefix(err, "container \"%s\"", ct_shown_id(id).s);
	if (strcmp(st->id, id) != 0) {
		ct_error_plain(err, EINVAL,
			       "container \"%s\": %s: .id: \"%s\" is not the directory's id",
			       ct_shown_id(id).s, label, ct_shown_id(st->id).s);
		ct_state_free(st);
		return -1;
	}
	return 0;
}

int ct_state_read(const struct ct_container_dir *d, struct ct_state *st, struct ct_error *err)
{
	return read_state_at(d->dirfd, CT_STATE_FILE, CT_STATE_FILE, d->id, parse_in_full, st, err);
}

int ct_state_read_pending(const struct ct_container_dir *d, struct ct_state *st,
			  struct ct_error *err)
{
	return read_state_at(d->dirfd, CT_STATE_PENDING_FILE, CT_STATE_PENDING_FILE, d->id,
			     parse_in_full, st, err);
}

int ct_state_read_unlocked(int rootfd, const char *id, struct ct_state *st, struct ct_error *err)
{
	memset(st, 0, sizeof(*st));
	if (ct_state_check_id(id, err) < 0)
		return -1;
	char path[CT_ID_MAX + sizeof("/" CT_STATE_FILE)];
	ct_path_join(path, sizeof(path), id, CT_STATE_FILE); /* fits: the id was checked */
	if (read_state_at(rootfd, path, CT_STATE_FILE, id, ct_state_parse_for_list, st, err) < 0) {
		if (err && err->errnum == ENOENT)
			does_not_exist(err, id);
		return -1;
	}
	return 0;
}

void ct_state_free(struct ct_state *st)
{
	if (!st)
		return;
	oci_walk_free(state_fields, st);
	memset(st, 0, sizeof(*st));
}

void ct_state_drop_cgroup_paths(struct ct_state *st)
{
	static const struct oci_field paths_only[] = {
		OCI_FIELD(struct ct_state, "cgroupPaths", cgroup_paths, oci_t_string_map),
		{NULL},
	};
	oci_walk_free(paths_only, st);
	memset(&st->cgroup_paths, 0, sizeof(st->cgroup_paths));
}

/* ---- listing ---- */

static bool is_container_dir(int rootfd, const struct dirent *de)
{
	if (ct_state_check_id(de->d_name, NULL) < 0)
		return false;
	if (de->d_type == DT_DIR)
		return true;
	if (de->d_type != DT_UNKNOWN)
		return false;
	struct stat st;
	return fstatat(rootfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

static int compare_ids(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int append_id(char ***ids, size_t *n, size_t *cap, const char *id)
{
	if (*n == *cap) {
		size_t new_cap = *cap ? *cap * 2 : 16;
		char **grown = realloc(*ids, new_cap * sizeof(**ids));
		if (!grown)
			return -1;
		*ids = grown;
		*cap = new_cap;
	}
	char *copy = strdup(id);
	if (!copy)
		return -1;
	(*ids)[(*n)++] = copy;
	return 0;
}

int ct_state_list_ids(int rootfd, char ***ids, size_t *n, struct ct_error *err)
{
	*ids = NULL;
	*n = 0;
	_cleanup_closedir_ DIR *dir = ct_opendir_at(rootfd);
	if (!dir)
		return ct_error_sys(err, errno, "list the state root");
	char **found = NULL;
	size_t count = 0, cap = 0;
	struct dirent *de;
	while ((errno = 0, de = readdir(dir))) {
		if (!is_container_dir(rootfd, de))
			continue;
		if (append_id(&found, &count, &cap, de->d_name) < 0) {
			ct_state_free_ids(found, count);
			return ct_error_sys(err, ENOMEM, "list the state root");
		}
	}
	if (errno) {
		int e = errno;
		ct_state_free_ids(found, count);
		return ct_error_sys(err, e, "list the state root");
	}
	if (count)
		qsort(found, count, sizeof(*found), compare_ids);
	*ids = found;
	*n = count;
	return 0;
}

void ct_state_free_ids(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

/* ---- `ctrun state` output ---- */

/* What `ctrun state` shows: the state with its status. */
struct runc_state {
	const struct ct_state *st;
	const char *status;
};

static int gen_runc_state(yajl_gen g, const void *arg)
{
	const struct ct_state *st = ((const struct runc_state *)arg)->st;
	const char *status = ((const struct runc_state *)arg)->status;
	/* runc reports pid 0 once the container stopped: the recorded pid may be someone
	 * else's by now */
	long long pid = strcmp(status, "stopped") == 0 ? 0 : st->pid;
	if (yajl_gen_map_open(g) != yajl_gen_status_ok)
		return -1;
	if (gen_str(g, "ociVersion", state_oci_version(st)) || gen_str(g, "id", st->id) ||
	    gen_int(g, "pid", pid) || gen_str(g, "status", status) ||
	    gen_str(g, "bundle", st->bundle) || gen_str(g, "rootfs", st->rootfs) ||
	    gen_str(g, "created", st->created))
		return -1;
	if (st->annotations.len && gen_string_map(g, "annotations", &st->annotations))
		return -1;
	if (gen_str(g, "owner", ""))
		return -1;
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

static int format_state(const struct ct_state *st, const char *status, bool beautify, char **out,
			struct ct_error *err)
{
	const struct runc_state shown = {st, status};
	size_t len;
	*out = oci_json_generate(gen_runc_state, &shown, beautify, &len);
	if (!*out && errno == EINVAL)
		return ct_error_plain(err, EINVAL, "format the state of container \"%s\"",
				      ct_shown_id(st->id).s);
	if (!*out)
		return ct_error_sys(err, errno, "format the state of container \"%s\"",
				    ct_shown_id(st->id).s);
	/* the pretty text ends with a newline, Go's MarshalIndent does not */
	if (len && (*out)[len - 1] == '\n')
		(*out)[len - 1] = '\0';
	return 0;
}

int ct_state_format_json(const struct ct_state *st, const char *status, char **out,
			 struct ct_error *err)
{
	return format_state(st, status, true, out, err);
}

int ct_state_format_compact(const struct ct_state *st, const char *status, pid_t pid, char **out,
			    struct ct_error *err)
{
	struct ct_state shown = *st; /* shallow: only the pid differs */
	shown.pid = pid;
	return format_state(&shown, status, false, out, err);
}

/* v's last `width` decimal digits, zero-padded, at buf (no NUL); returns width. */
static size_t put_padded(char *buf, unsigned long v, size_t width)
{
	for (size_t i = width; i-- > 0; v /= 10)
		buf[i] = (char)('0' + v % 10);
	return width;
}

/* "%Y-%m-%dT%H:%M:%S" by hand: musl's strftime makes an snprintf of every field. Years
 * 1000-9999 only, which every strftime writes as four digits; 0 for the others. */
static size_t format_seconds(const struct tm *tm, char *buf)
{
	long year = tm->tm_year + 1900L;
	size_t n = 0;
	if (year < 1000 || year > 9999)
		return 0;
	n += put_padded(buf + n, (unsigned long)year, 4);
	buf[n++] = '-';
	n += put_padded(buf + n, (unsigned long)tm->tm_mon + 1, 2);
	buf[n++] = '-';
	n += put_padded(buf + n, (unsigned long)tm->tm_mday, 2);
	buf[n++] = 'T';
	n += put_padded(buf + n, (unsigned long)tm->tm_hour, 2);
	buf[n++] = ':';
	n += put_padded(buf + n, (unsigned long)tm->tm_min, 2);
	buf[n++] = ':';
	n += put_padded(buf + n, (unsigned long)tm->tm_sec, 2);
	buf[n] = '\0';
	return n;
}

void ct_format_timestamp(const struct timespec *ts, char buf[CT_TIMESTAMP_MAX])
{
	struct tm tm;
	time_t sec = ts->tv_sec;
	size_t n = 0;
	if (!gmtime_r(&sec, &tm) ||
	    (!(n = format_seconds(&tm, buf)) &&
	     !(n = strftime(buf, CT_TIMESTAMP_MAX - 12, "%Y-%m-%dT%H:%M:%S", &tm)))) {
		snprintf(buf, CT_TIMESTAMP_MAX, "0001-01-01T00:00:00Z");
		return;
	}
	if (ts->tv_nsec > 0 && ts->tv_nsec < 1000000000L) {
		/* ".%09ld" without its trailing zeros, as Go's RFC3339Nano */
		size_t len = 1 + put_padded(buf + n + 1, (unsigned long)ts->tv_nsec, 9);
		buf[n] = '.';
		while (buf[n + len - 1] == '0')
			len--;
		n += len;
	}
	buf[n++] = 'Z';
	buf[n] = '\0';
}
