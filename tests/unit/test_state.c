/* The container state store: ids, the root, reserve/open/remove with their locks, the
 * state.json round trip and the `ctrun state` document. Each test works in its own directory
 * under /tmp and removes it. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libct/state/state.h"

static char tmpdir[64];
static int rootfd = -1;

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void make_tmpdir(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/ctrun-test-state-XXXXXX");
	cr_assert_not_null(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
}

static void remove_tmpdir(void)
{
	if (rootfd >= 0)
		close(rootfd);
	rootfd = -1;
	if (tmpdir[0])
		nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = '\0';
}

/* A fresh state root <tmpdir>/root. */
static void setup_root(void)
{
	make_tmpdir();
	char root[128];
	snprintf(root, sizeof(root), "%s/root", tmpdir);
	struct ct_error err = {0};
	rootfd = ct_state_root_open(root, true, &err);
	cr_assert_geq(rootfd, 0, "%s", err.msg);
}

static bool exists_at(int dirfd, const char *name)
{
	struct stat st;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "stat %s: %s", path, strerror(errno));
	return st.st_mode & 07777;
}

/* ---- ids ---- */

static void assert_id_ok(const char *id)
{
	struct ct_error err = {0};
	cr_expect_eq(ct_state_check_id(id, &err), 0, "\"%s\" refused: %s", id, err.msg);
}

static void assert_id_bad(const char *id, const char *shown, const char *why)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_state_check_id(id, &err), -1, "\"%s\" accepted", shown);
	cr_expect_eq(err.errnum, EINVAL);
	char prefix[128];
	snprintf(prefix, sizeof(prefix), "invalid container id \"%s\": ", shown);
	cr_expect_eq(strncmp(err.msg, prefix, strlen(prefix)), 0, "message: %s", err.msg);
	cr_expect_not_null(strstr(err.msg, why), "message lacks \"%s\": %s", why, err.msg);
}

Test(state_id, good_ids)
{
	const char *good[] = {"a",  "web", "0",	    "A-b_c+d.e", "-x", "+x",
			      "_x", "a.b", "a.b.c", "x.",	 "Z9", "my-container_1.2+build"};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_id_ok(good[i]);
	char longest[CT_ID_MAX + 1];
	memset(longest, 'a', CT_ID_MAX);
	longest[CT_ID_MAX] = '\0';
	assert_id_ok(longest);
}

Test(state_id, bad_ids_say_why)
{
	/* the id, as the message quotes it (NULL: as it is), and why it is refused */
	static const char *const bad[][3] = {
		{"", NULL, "empty"},
		{"..", NULL, "must start with"},
		{".x", NULL, "must start with"},
		{"a/b", NULL, "'/' at offset 1"},
		{"a..b", NULL, "\"..\""},
		{"x..", NULL, "\"..\""},
		{"a b", NULL, "' ' at offset 1"},
		{" a", NULL, "must start with"},
		{"caf\xc3\xa9", "caf\\xc3\\xa9", "byte 0xc3 at offset 3"},
		{"a\nb", "a\\x0ab", "byte 0x0a at offset 1"},
		{"a:b", NULL, "':' at offset 1"},
		{"a\"b", "a\\x22b", "'\"' at offset 1"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_id_bad(bad[i][0], bad[i][1] ? bad[i][1] : bad[i][0], bad[i][2]);
	struct ct_error err = {0};
	cr_expect_eq(ct_state_check_id(NULL, &err), -1);
	cr_expect_eq(ct_state_check_id("a/b", NULL), -1, "a NULL error object is allowed");
}

Test(state_id, too_long)
{
	char id[CT_ID_MAX + 2];
	memset(id, 'a', CT_ID_MAX + 1);
	id[CT_ID_MAX + 1] = '\0';
	struct ct_error err = {0};
	cr_assert_eq(ct_state_check_id(id, &err), -1);
	cr_expect_eq(err.errnum, EINVAL);
	cr_expect_not_null(strstr(err.msg, "longer than 1024 characters"), "%s", err.msg);
	/* the message shows the start of the id, not all 1025 characters */
	cr_expect_not_null(strstr(err.msg, "aaaa...\""), "%s", err.msg);
}

Test(state_id, shown_id_is_short_and_printable)
{
	cr_expect_str_eq(ct_shown_id("web").s, "web");
	cr_expect_str_eq(ct_shown_id("a\"b\\c\n").s, "a\\x22b\\x5cc\\x0a");
	cr_expect_str_eq(ct_shown_id(NULL).s, "");
	char id[CT_ID_MAX + 100];
	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	char want[CT_ID_SHOWN_CHARS + 4];
	memset(want, 'a', CT_ID_SHOWN_CHARS);
	memcpy(want + CT_ID_SHOWN_CHARS, "...", 4);
	cr_expect_str_eq(ct_shown_id(id).s, want);
	/* exactly CT_ID_SHOWN_CHARS characters are shown whole, without "..." */
	id[CT_ID_SHOWN_CHARS] = '\0';
	want[CT_ID_SHOWN_CHARS] = '\0';
	cr_expect_str_eq(ct_shown_id(id).s, want);
	/* the worst case, every byte escaped, still fits */
	memset(id, '\x01', CT_ID_SHOWN_CHARS + 1);
	id[CT_ID_SHOWN_CHARS + 1] = '\0';
	struct ct_shown_id shown = ct_shown_id(id);
	cr_expect_eq(strlen(shown.s), 4 * CT_ID_SHOWN_CHARS + 3, "%s", shown.s);
	cr_expect_str_eq(shown.s + 4 * CT_ID_SHOWN_CHARS, "...");
}

/* ---- the root ---- */

Test(state_root, create_makes_missing_components_0700, .fini = remove_tmpdir)
{
	make_tmpdir();
	char existing[128], root[192], mid[160];
	snprintf(existing, sizeof(existing), "%s/existing", tmpdir);
	cr_assert_eq(mkdir(existing, 0755), 0);
	cr_assert_eq(chmod(existing, 0755), 0);
	snprintf(mid, sizeof(mid), "%s/a", existing);
	snprintf(root, sizeof(root), "%s/a//b/", existing);

	mode_t old_umask = umask(022);
	struct ct_error err = {0};
	int fd = ct_state_root_open(root, true, &err);
	umask(old_umask);
	cr_assert_geq(fd, 0, "%s", err.msg);
	cr_expect_eq(mode_of(mid), 0700);
	snprintf(mid, sizeof(mid), "%s/a/b", existing);
	cr_expect_eq(mode_of(mid), 0700);
	cr_expect_eq(mode_of(existing), 0755, "an existing component was changed");
	int flags = fcntl(fd, F_GETFD);
	cr_expect(flags & FD_CLOEXEC, "the root fd is not close-on-exec");
	close(fd);

	/* opening again, created or not, works on what is there */
	fd = ct_state_root_open(root, true, &err);
	cr_expect_geq(fd, 0, "%s", err.msg);
	close(fd);
	fd = ct_state_root_open(root, false, &err);
	cr_expect_geq(fd, 0, "%s", err.msg);
	close(fd);
}

Test(state_root, missing_without_create_is_enoent, .fini = remove_tmpdir)
{
	make_tmpdir();
	char root[128];
	snprintf(root, sizeof(root), "%s/nope/root", tmpdir);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_root_open(root, false, &err), -1);
	cr_expect_eq(err.errnum, ENOENT, "%s", err.msg);
	cr_expect_not_null(strstr(err.msg, root), "the message names the root: %s", err.msg);
	cr_expect_not(exists_at(AT_FDCWD, root), "created without create");
}

Test(state_root, a_file_is_not_a_root, .fini = remove_tmpdir)
{
	make_tmpdir();
	char root[128];
	snprintf(root, sizeof(root), "%s/file", tmpdir);
	int fd = open(root, O_CREAT | O_WRONLY, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	struct ct_error err = {0};
	cr_expect_eq(ct_state_root_open(root, true, &err), -1);
	cr_expect_eq(err.errnum, ENOTDIR, "%s", err.msg);
}

/* ---- reserve, open, close ---- */

static void reserve_ok(const char *id, struct ct_container_dir *d)
{
	struct ct_error err = {0};
	cr_assert_eq(ct_state_reserve(rootfd, id, d, &err), 0, "reserve %s: %s", id, err.msg);
}

static bool is_locked_by_someone_else(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	bool locked = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return locked;
}

static size_t count_entries(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	DIR *dir = fdopendir(fd);
	cr_assert_not_null(dir);
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dir)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

Test(state_dir, reserve_creates_a_locked_0700_dir, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	cr_expect_str_eq(d.id, "web");
	cr_expect_geq(d.dirfd, 0);
	cr_expect_geq(d.lockfd, 0);
	char path[160];
	snprintf(path, sizeof(path), "%s/root/web", tmpdir);
	cr_expect_eq(mode_of(path), 0700);
	cr_expect(is_locked_by_someone_else(d.dirfd), "the reservation is not locked");
	cr_expect_eq(count_entries(rootfd), 1, "the temporary name was left behind");
	ct_container_dir_close(&d);
	cr_expect_eq(d.dirfd, -1);
	cr_expect_eq(d.lockfd, -1);
	ct_container_dir_close(&d); /* twice is fine */
	cr_expect_not(is_locked_by_someone_else(rootfd), "unlocked after close");
}

Test(state_dir, reserve_twice_already_exists, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d, again;
	reserve_ok("web", &d);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_reserve(rootfd, "web", &again, &err), -1);
	cr_expect_eq(err.errnum, EEXIST);
	cr_expect_str_eq(err.msg, "container \"web\" already exists");
	cr_expect_eq(again.dirfd, -1);
	cr_expect_eq(again.lockfd, -1);
	ct_container_dir_close(&again);
	cr_expect_eq(count_entries(rootfd), 1, "a failed reserve left something behind");
	ct_container_dir_close(&d);

	/* still taken once its creator let go */
	cr_expect_eq(ct_state_reserve(rootfd, "web", &again, &err), -1);
	cr_expect_eq(err.errnum, EEXIST);
}

Test(state_dir, reserve_refuses_bad_ids, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_error err = {0};
	cr_expect_eq(ct_state_reserve(rootfd, "../escape", &d, &err), -1);
	cr_expect_eq(err.errnum, EINVAL);
	cr_expect_eq(count_entries(rootfd), 0);
	cr_expect_not(exists_at(rootfd, "../escape"));
}

/* Two children released at the same moment reserve one id; exit 0 = won, 1 = EEXIST. */
static int race_reserve(const char *id)
{
	int gate[2];
	cr_assert_eq(pipe(gate), 0);
	pid_t kids[2];
	for (int i = 0; i < 2; i++) {
		kids[i] = fork();
		cr_assert_geq(kids[i], 0);
		if (kids[i] == 0) {
			close(gate[1]);
			char c;
			while (read(gate[0], &c, 1) < 0 && errno == EINTR)
				;
			struct ct_container_dir d;
			struct ct_error err = {0};
			if (ct_state_reserve(rootfd, id, &d, &err) == 0)
				_exit(0);
			_exit(err.errnum == EEXIST ? 1 : 2);
		}
	}
	close(gate[0]);
	close(gate[1]); /* EOF releases both */
	int winners = 0, losers = 0;
	for (int i = 0; i < 2; i++) {
		int status;
		cr_assert_eq(waitpid(kids[i], &status, 0), kids[i]);
		cr_assert(WIFEXITED(status));
		int code = WEXITSTATUS(status);
		cr_assert_neq(code, 2, "a reserve failed with another error");
		winners += code == 0;
		losers += code == 1;
	}
	cr_expect_eq(losers, 1);
	return winners;
}

Test(state_dir, concurrent_reserve_exactly_one_wins, .init = setup_root, .fini = remove_tmpdir)
{
	const int rounds = 25;
	for (int r = 0; r < rounds; r++) {
		char id[16];
		snprintf(id, sizeof(id), "race%d", r);
		cr_assert_eq(race_reserve(id), 1, "round %d", r);
	}
	char **ids;
	size_t n;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_list_ids(rootfd, &ids, &n, &err), 0, "%s", err.msg);
	cr_expect_eq(n, (size_t)rounds);
	ct_state_free_ids(ids, n);
	cr_expect_eq(count_entries(rootfd), (size_t)rounds, "temporary directories were left");
}

/* A create killed between making its reservation and renaming it left the directory alone,
 * unlocked: the next create of the id takes it over and goes on. */
Test(state_dir, reserve_takes_over_a_dead_reservation, .init = setup_root, .fini = remove_tmpdir)
{
	char name[CT_RESERVATION_NAME_MAX];
	ct_state_reservation_name("web", name);
	cr_expect_eq(strncmp(name, ".reserve-", 9), 0, "%s", name);
	cr_assert_eq(mkdirat(rootfd, name, 0700), 0);
	struct ct_container_dir d;
	reserve_ok("web", &d);
	cr_expect_not(exists_at(rootfd, name), "the dead reservation is left");
	cr_expect_eq(count_entries(rootfd), 1);
	ct_container_dir_close(&d);
}

/* One held locked is a create of the id under way: the id is taken. */
Test(state_dir, reserve_while_another_holds_it, .init = setup_root, .fini = remove_tmpdir)
{
	char name[CT_RESERVATION_NAME_MAX];
	ct_state_reservation_name("web", name);
	cr_assert_eq(mkdirat(rootfd, name, 0700), 0);
	int held = openat(rootfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_eq(flock(held, LOCK_EX), 0);
	struct ct_container_dir d;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_reserve(rootfd, "web", &d, &err), -1);
	cr_expect_eq(err.errnum, EEXIST);
	cr_expect_str_eq(err.msg, "container \"web\" already exists");
	cr_expect(exists_at(rootfd, name), "a held reservation was removed");
	close(held);
}

/* delete (an exclusive open) of an id whose create was killed before its rename removes the
 * reservation left; a shared open (state) leaves it, as do others' ids. */
Test(state_dir, exclusive_open_removes_a_dead_reservation, .init = setup_root,
     .fini = remove_tmpdir)
{
	char name[CT_RESERVATION_NAME_MAX], other[CT_RESERVATION_NAME_MAX];
	ct_state_reservation_name("web", name);
	ct_state_reservation_name("db", other);
	cr_expect_str_neq(name, other);
	cr_assert_eq(mkdirat(rootfd, name, 0700), 0);
	cr_assert_eq(mkdirat(rootfd, other, 0700), 0);
	struct ct_container_dir d;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_open(rootfd, "web", false, &d, &err), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect(exists_at(rootfd, name), "a shared open removed the reservation");
	cr_assert_eq(ct_state_open(rootfd, "web", true, &d, &err), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_str_eq(err.msg, "container \"web\" does not exist");
	cr_expect_not(exists_at(rootfd, name), "the dead reservation is left");
	cr_expect(exists_at(rootfd, other), "another id's reservation was removed");
}

Test(state_dir, open_missing_does_not_exist, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_open(rootfd, "nope", false, &d, &err), -1);
	cr_expect_eq(err.errnum, ENOENT);
	cr_expect_str_eq(err.msg, "container \"nope\" does not exist");
	cr_expect_eq(d.dirfd, -1);
	cr_expect_eq(d.lockfd, -1);
	cr_assert_eq(ct_state_open(rootfd, "a/b", false, &d, &err), -1);
	cr_expect_eq(err.errnum, EINVAL, "%s", err.msg);
}

Test(state_dir, open_refuses_a_symlink, .init = setup_root, .fini = remove_tmpdir)
{
	cr_assert_eq(symlinkat(tmpdir, rootfd, "link"), 0);
	struct ct_container_dir d;
	struct ct_error err = {0};
	cr_expect_eq(ct_state_open(rootfd, "link", true, &d, &err), -1);
	cr_expect_neq(err.errnum, 0);
}

Test(state_dir, shared_locks_share_exclusive_excludes, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir created, a, b;
	reserve_ok("web", &created);
	ct_container_dir_close(&created);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_open(rootfd, "web", false, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_state_open(rootfd, "web", false, &b, &err), 0, "%s", err.msg);
	cr_expect_str_eq(a.id, "web");
	cr_expect(is_locked_by_someone_else(a.dirfd), "a shared lock lets LOCK_EX through");
	ct_container_dir_close(&a);
	ct_container_dir_close(&b);
	cr_assert_eq(ct_state_open(rootfd, "web", true, &a, &err), 0, "%s", err.msg);
	cr_expect(is_locked_by_someone_else(a.dirfd));
	ct_container_dir_close(&a);
}

/* An open that waits for the lock of a container being deleted must not get the corpse. */
Test(state_dir, open_waiting_on_a_removed_container_does_not_exist, .init = setup_root,
     .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("doomed", &d);
	pid_t child = fork();
	cr_assert_geq(child, 0);
	if (child == 0) {
		/* a forked child shares the parent's lock until it closes its copy of the fd */
		ct_container_dir_close(&d);
		struct ct_container_dir o;
		struct ct_error err = {0};
		if (ct_state_open(rootfd, "doomed", true, &o, &err) == 0)
			_exit(0);
		_exit(err.errnum == ENOENT ? 1 : 2);
	}
	usleep(100 * 1000); /* let the child block in flock (either way it must not win) */
	struct ct_error err = {0};
	cr_assert_eq(ct_state_remove(rootfd, &d, &err), 0, "%s", err.msg);
	int status;
	cr_assert_eq(waitpid(child, &status, 0), child);
	cr_assert(WIFEXITED(status));
	cr_expect_eq(WEXITSTATUS(status), 1, "the waiting open got a removed container");
}

/* ---- state.json ---- */

static void fill_state(struct ct_state *st)
{
	memset(st, 0, sizeof(*st));
	st->id = strdup("web");
	st->bundle = strdup("/srv/bundles/web");
	st->rootfs = strdup("/srv/bundles/web/rootfs");
	st->pid = 4242;
	st->pid_start_time = 18446744073709551000u;
	st->created = strdup("2026-01-02T03:04:05.123456789Z");
	st->owner = 1000;
	st->cgroup_paths.len = 1;
	st->cgroup_paths.items = calloc(1, sizeof(struct oci_kv));
	st->cgroup_paths.items[0].key = strdup("memory");
	st->cgroup_paths.items[0].value = strdup("/sys/fs/cgroup/memory/ctrun/web");
	st->started = true;
	st->no_device_filter = true;
	st->annotations.len = 3;
	st->annotations.items = calloc(3, sizeof(struct oci_kv));
	const char *kv[3][2] = {{"org.b", "two \"quoted\"\n"},
				{"org.a", "one"},
				{"unicode", "caf\xc3\xa9 / \xe2\x9c\x93"}};
	for (int i = 0; i < 3; i++) {
		st->annotations.items[i].key = strdup(kv[i][0]);
		st->annotations.items[i].value = strdup(kv[i][1]);
	}
}

static const char *annotation(const struct ct_state *st, const char *key)
{
	for (size_t i = 0; i < st->annotations.len; i++)
		if (strcmp(st->annotations.items[i].key, key) == 0)
			return st->annotations.items[i].value;
	return NULL;
}

/* Container "web" reserved (locked) in d, with fill_state's state written. */
static void write_filled_web(struct ct_container_dir *d, struct ct_state *st)
{
	reserve_ok("web", d);
	fill_state(st);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_write(d, st, &err), 0, "%s", err.msg);
}

Test(state_file, write_read_round_trip, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_state st, back;
	write_filled_web(&d, &st);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_read(&d, &back, &err), 0, "%s", err.msg);

	cr_expect_str_eq(back.oci_version, CT_STATE_OCI_VERSION);
	cr_expect_str_eq(back.id, st.id);
	cr_expect_str_eq(back.bundle, st.bundle);
	cr_expect_str_eq(back.rootfs, st.rootfs);
	cr_expect_eq(back.pid, st.pid);
	cr_expect_eq(back.pid_start_time, st.pid_start_time);
	cr_expect_str_eq(back.created, st.created);
	cr_expect_eq(back.owner, st.owner);
	cr_assert_eq(back.cgroup_paths.len, 1);
	cr_expect_str_eq(back.cgroup_paths.items[0].key, "memory");
	cr_expect_str_eq(back.cgroup_paths.items[0].value, "/sys/fs/cgroup/memory/ctrun/web");
	cr_expect_eq(back.started, true);
	cr_expect_eq(back.no_device_filter, true);
	cr_assert_eq(back.annotations.len, 3);
	for (size_t i = 0; i < 3; i++) {
		const char *key = st.annotations.items[i].key;
		const char *value = annotation(&back, key);
		cr_assert_not_null(value, "annotation %s lost", key);
		cr_expect_str_eq(value, st.annotations.items[i].value);
	}
	ct_state_free(&back);
	cr_expect_null(back.id, "ct_state_free zeroes the struct");
	ct_state_free(&back); /* and a zeroed struct is fine */
	ct_state_free(&st);
	ct_container_dir_close(&d);
}

Test(state_file, optional_fields_stay_absent, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("bare", &d);
	struct ct_state st = {.id = "bare",
			      .bundle = "/b",
			      .rootfs = "/b/rootfs",
			      .created = "2026-01-02T03:04:05Z",
			      .pid = 7,
			      .owner = 0};
	struct ct_error err = {0};
	cr_assert_eq(ct_state_write(&d, &st, &err), 0, "%s", err.msg);
	struct ct_state back;
	cr_assert_eq(ct_state_read(&d, &back, &err), 0, "%s", err.msg);
	cr_expect_eq(back.cgroup_paths.len, 0);
	cr_expect_eq(back.annotations.len, 0);
	cr_expect_eq(back.started, false);
	cr_expect_eq(back.no_device_filter, false);
	cr_expect_eq(back.owner, 0);
	ct_state_free(&back);
	ct_container_dir_close(&d);
}

/* pending.json: what create is about to make, in state.json's form, read back by whoever
 * finds the directory without state.json. */
Test(state_file, pending_round_trip, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_state st, back;
	reserve_ok("web", &d);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_read_pending(&d, &back, &err), -1);
	cr_expect_eq(err.errnum, ENOENT);
	fill_state(&st);
	st.systemd_unit = strdup("ctrun-web.scope");
	st.systemd_unit_token = strdup("0123456789abcdef");
	cr_assert_eq(ct_state_write_pending(&d, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_state_read_pending(&d, &back, &err), 0, "%s", err.msg);
	cr_assert_eq(back.cgroup_paths.len, 1);
	cr_expect_str_eq(back.cgroup_paths.items[0].value, "/sys/fs/cgroup/memory/ctrun/web");
	cr_expect_str_eq(back.systemd_unit, "ctrun-web.scope");
	cr_expect_str_eq(back.systemd_unit_token, "0123456789abcdef");
	cr_expect_not(back.systemd_unit_started, "not written: the start's answer is not in");
	ct_state_free(&back);
	/* written again once systemd took the start */
	st.systemd_unit_started = true;
	cr_assert_eq(ct_state_write_pending(&d, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(ct_state_read_pending(&d, &back, &err), 0, "%s", err.msg);
	cr_expect(back.systemd_unit_started);
	ct_state_free(&back);
	cr_expect_eq(ct_state_read(&d, &back, &err), -1, "pending.json is not state.json");
	cr_expect_eq(err.errnum, ENOENT);
	ct_state_free(&st);
	ct_container_dir_close(&d);
}

static char *read_text_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(fd, 0, "open %s: %s", name, strerror(errno));
	static char buf[8192];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	cr_assert_geq(n, 0);
	buf[n] = '\0';
	return buf;
}

/* A reserved directory for id with the state of fill_state() written into it. */
static void write_state_ok(const char *id, struct ct_container_dir *d, struct ct_state *st)
{
	reserve_ok(id, d);
	fill_state(st);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_write(d, st, &err), 0, "%s", err.msg);
}

Test(state_file, written_by_rename_no_temp_left, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_state st;
	write_state_ok("web", &d, &st);
	struct ct_error err = {0};
	struct stat first;
	cr_assert_eq(fstatat(d.dirfd, CT_STATE_FILE, &first, 0), 0);
	cr_expect_eq(first.st_mode & 07777, 0600);

	st.pid = 99;
	cr_assert_eq(ct_state_write(&d, &st, &err), 0, "%s", err.msg);
	cr_expect_not(exists_at(d.dirfd, "state.json.tmp"), "the temporary file was left");
	cr_expect_eq(count_entries(d.dirfd), 1);
	struct stat second;
	cr_assert_eq(fstatat(d.dirfd, CT_STATE_FILE, &second, 0), 0);
	cr_expect_neq(first.st_ino, second.st_ino, "rewritten in place instead of replaced");

	const char *text = read_text_at(d.dirfd, CT_STATE_FILE);
	cr_expect_not_null(strstr(text, "\"pid\": 99"), "%s", text);
	cr_expect_not_null(strstr(text, "\"ctrun\": {"), "%s", text);
	cr_expect_not_null(strstr(text, "\"pidStartTime\": 18446744073709551000"), "%s", text);
	cr_expect_null(strstr(text, "\"status\""), "the status must not be stored: %s", text);
	cr_expect_not_null(strstr(text, "\"noDeviceFilter\": true"), "%s", text);
	st.no_device_filter = false;
	cr_assert_eq(ct_state_write(&d, &st, &err), 0, "%s", err.msg);
	text = read_text_at(d.dirfd, CT_STATE_FILE);
	cr_expect_null(strstr(text, "noDeviceFilter"), "written only when true: %s", text);
	ct_state_free(&st);
	ct_container_dir_close(&d);
}

Test(state_file, write_refuses_another_id, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	struct ct_state st = {.id = "db", .bundle = "/b", .rootfs = "/r", .created = "c"};
	struct ct_error err = {0};
	cr_expect_eq(ct_state_write(&d, &st, &err), -1);
	cr_expect_eq(err.errnum, EINVAL);
	cr_expect_not(exists_at(d.dirfd, CT_STATE_FILE));
	st.id = NULL;
	cr_expect_eq(ct_state_write(&d, &st, &err), -1);
	ct_container_dir_close(&d);
}

Test(state_file, read_without_state_json_is_enoent, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("creating", &d);
	struct ct_state st;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_read(&d, &st, &err), -1);
	cr_expect_eq(err.errnum, ENOENT, "%s", err.msg);
	cr_expect_null(st.id);
	ct_container_dir_close(&d);
}

/* list's reader: no lock, no directory fd, the same file and the same checks. */
Test(state_file, unlocked_read_of_a_written_state, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_state st, back;
	write_filled_web(&d, &st);
	struct ct_error err = {0};
	/* list never waits: the writer's exclusive lock is still held here */
	cr_assert_eq(ct_state_read_unlocked(rootfd, "web", &back, &err), 0, "%s", err.msg);
	cr_expect_str_eq(back.id, "web");
	cr_expect_str_eq(back.bundle, st.bundle);
	cr_expect_eq(back.pid, st.pid);
	cr_expect_eq(back.pid_start_time, st.pid_start_time);
	cr_expect_eq(back.started, true);
	cr_expect_eq(back.cgroup_paths.len, 1);
	cr_expect_eq(back.annotations.len, 3);
	cr_expect_str_eq(annotation(&back, "org.b"), "two \"quoted\"\n");
	cr_expect_str_eq(back.created, st.created);
	cr_expect_eq(back.owner, st.owner);
	/* what list never uses is not read */
	cr_expect_eq(back.cgroup_bases.len, 0);
	cr_expect_eq(back.hooks.poststop.len, 0);
	ct_state_free(&back);
	ct_state_free(&st);
	ct_container_dir_close(&d);
}

Test(state_file, unlocked_read_of_a_missing_container_or_file, .init = setup_root,
     .fini = remove_tmpdir)
{
	struct ct_state st;
	struct ct_error err = {0};
	cr_expect_eq(ct_state_read_unlocked(rootfd, "ghost", &st, &err), -1);
	cr_expect_eq(err.errnum, ENOENT, "%s", err.msg);
	cr_expect_str_eq(err.msg, "container \"ghost\" does not exist");
	struct ct_container_dir d;
	reserve_ok("creating", &d);
	cr_expect_eq(ct_state_read_unlocked(rootfd, "creating", &st, &err), -1);
	cr_expect_eq(err.errnum, ENOENT, "%s", err.msg);
	cr_expect_null(st.id);
	cr_expect_eq(ct_state_read_unlocked(rootfd, "../x", &st, &err), -1);
	cr_expect_eq(err.errnum, EINVAL, "%s", err.msg);
	ct_container_dir_close(&d);
}

/* A FIFO planted as state.json is an error at once, not an open that blocks forever. */
Test(state_file, a_fifo_state_json_does_not_block, .init = setup_root, .fini = remove_tmpdir,
     .timeout = 10)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	cr_assert_eq(mkfifoat(d.dirfd, CT_STATE_FILE, 0600), 0, "%s", strerror(errno));
	struct ct_state st;
	struct ct_error err = {0};
	cr_expect_eq(ct_state_read_unlocked(rootfd, "web", &st, &err), -1);
	cr_expect_eq(err.errnum, EINVAL, "%s", err.msg);
	cr_expect_eq(ct_state_read(&d, &st, &err), -1);
	cr_expect_eq(err.errnum, EINVAL, "%s", err.msg);
	ct_container_dir_close(&d);
}

/* text as the state file of d. */
static void write_state_text(const struct ct_container_dir *d, const char *text)
{
	int fd = openat(d->dirfd, CT_STATE_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void assert_read_error(const char *text, const char *expected_msg)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	write_state_text(&d, text);
	struct ct_state st;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_read(&d, &st, &err), -1, "accepted: %s", text);
	cr_expect_str_eq(err.msg, expected_msg);
	cr_expect_eq(err.errnum, EINVAL);
	cr_expect_null(st.id, "a failed read leaves nothing to free");
	ct_state_free(&st);
	struct ct_error rm_err = {0};
	cr_assert_eq(ct_state_remove(rootfd, &d, &rm_err), 0, "%s", rm_err.msg);
}

#define GOOD_PRIVATE "\"ctrun\": {\"pidStartTime\": 1, \"started\": false}"
#define GOOD_HEAD                                                                              \
	"\"ociVersion\": \"1.3.0\", \"id\": \"web\", \"bundle\": \"/b\", \"rootfs\": \"/r\", " \
	"\"created\": \"c\", \"owner\": 0, "

Test(state_file, bad_files_are_named_with_the_json_path, .init = setup_root, .fini = remove_tmpdir)
{
	assert_read_error("{\"id\": ",
			  "container \"web\": state.json: malformed JSON at line 1, column 7: "
			  "premature EOF");
	assert_read_error("{" GOOD_HEAD "\"pid\": \"x\", " GOOD_PRIVATE "}",
			  "container \"web\": state.json: .pid: expected an integer, got \"x\"");
	assert_read_error("{" GOOD_HEAD "\"pid\": 1, \"ctrun\": {\"started\": true}}",
			  "container \"web\": state.json: .ctrun: missing required property "
			  "\"pidStartTime\"");
	assert_read_error("{" GOOD_HEAD "\"pid\": 1}",
			  "container \"web\": state.json: .: missing required property \"ctrun\"");
	assert_read_error("[]",
			  "container \"web\": state.json: .: expected an object, got an array");
}

/* The lean reader refuses what the full one refuses, in fewer words. */
Test(state_file, dropping_the_cgroup_paths_keeps_the_rest, .init = setup_root,
     .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_state st, back;
	write_filled_web(&d, &st);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_read_unlocked(rootfd, "web", &back, &err), 0, "%s", err.msg);
	cr_assert_eq(back.cgroup_paths.len, 1);
	ct_state_drop_cgroup_paths(&back);
	cr_expect_eq(back.cgroup_paths.len, 0);
	cr_expect_null(back.cgroup_paths.items);
	cr_expect_str_eq(back.id, "web");
	cr_expect_str_eq(back.bundle, st.bundle);
	cr_expect_eq(back.annotations.len, 3);
	ct_state_drop_cgroup_paths(&back); /* twice, then the rest: nothing freed twice */
	ct_state_free(&back);
	ct_state_free(&st);
	ct_container_dir_close(&d);
}

Test(state_file, unlocked_read_refuses_a_bad_file, .init = setup_root, .fini = remove_tmpdir)
{
	static const char *const bad[] = {
		"{\"id\": ",
		"{\"ociVersion\": \"1.3.0\", \"id\": \"web\", \"bundle\": \"/b\", \"rootfs\": "
		"\"/r\", \"created\": \"c\", \"owner\": 0, \"pid\": 1}",
		"{\"ociVersion\": \"1.3.0\", \"id\": \"web\", \"bundle\": \"/b\", \"rootfs\": "
		"\"/r\", \"created\": \"c\", \"owner\": 0, \"pid\": -1, " GOOD_PRIVATE "}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ct_container_dir d;
		reserve_ok("web", &d);
		cr_assert_eq(ct_state_replace_file(&d, CT_STATE_FILE, bad[i], strlen(bad[i]), NULL),
			     0);
		struct ct_state st;
		struct ct_error err = {0};
		cr_expect_eq(ct_state_read_unlocked(rootfd, "web", &st, &err), -1, "%s", bad[i]);
		cr_expect_eq(err.errnum, EINVAL, "%s", err.msg);
		cr_expect_str_eq(err.msg, "container \"web\": state.json: not a valid state file");
		cr_expect_null(st.id);
		cr_assert_eq(ct_state_remove(rootfd, &d, &err), 0, "%s", err.msg);
	}
}

Test(state_file, id_must_match_the_directory, .init = setup_root, .fini = remove_tmpdir)
{
	assert_read_error(
		"{\"ociVersion\": \"1.3.0\", \"id\": \"other\", \"bundle\": \"/b\", "
		"\"rootfs\": \"/r\", \"created\": \"c\", \"owner\": 0, \"pid\": 1, " GOOD_PRIVATE
		"}",
		"container \"web\": state.json: .id: \"other\" is not the directory's id");
}

Test(state_file, unknown_fields_are_ignored, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	const char *text = "{" GOOD_HEAD "\"pid\": 5, \"future\": [1, 2], "
			   "\"ctrun\": {\"pidStartTime\": 3, \"started\": true, \"x\": 1}}";
	write_state_text(&d, text);
	struct ct_state st;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_read(&d, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(st.pid, 5);
	cr_expect_eq(st.pid_start_time, 3);
	ct_state_free(&st);
	ct_container_dir_close(&d);
}

/* ---- remove ---- */

/* state.json and pending.json are removed by name: one that is not a file is found by the
 * scan that follows */
Test(state_dir, remove_removes_a_known_name_that_is_a_directory, .init = setup_root,
     .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	cr_assert_eq(mkdirat(d.dirfd, "state.json", 0700), 0);
	int fd = openat(d.dirfd, "pending.json", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	struct ct_error err = {0};
	cr_assert_eq(ct_state_remove(rootfd, &d, &err), 0, "%s", err.msg);
	cr_expect_eq(d.dirfd, -1, "remove closes the directory");
	cr_expect_not(exists_at(rootfd, "web"));
}

Test(state_dir, remove_removes_everything, .init = setup_root, .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	struct ct_state st;
	write_state_ok("web", &d, &st);
	struct ct_error err = {0};
	ct_state_free(&st);
	cr_assert_eq(mkfifoat(d.dirfd, "exec.fifo", 0600), 0);
	cr_assert_eq(mkdirat(d.dirfd, "sub", 0700), 0);
	cr_assert_eq(mkdirat(d.dirfd, "sub/deeper", 0700), 0);
	int fd = openat(d.dirfd, "sub/deeper/file", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	/* a symlink is removed, what it points to is not */
	char outside[128];
	snprintf(outside, sizeof(outside), "%s/outside", tmpdir);
	cr_assert_eq(mkdir(outside, 0700), 0);
	cr_assert_eq(symlinkat(outside, d.dirfd, "link"), 0);
	cr_assert_eq(symlinkat(outside, d.dirfd, "sub/link"), 0);

	cr_assert_eq(ct_state_remove(rootfd, &d, &err), 0, "%s", err.msg);
	cr_expect_eq(d.dirfd, -1, "remove closes the directory");
	cr_expect_eq(d.lockfd, -1);
	cr_expect_not(exists_at(rootfd, "web"));
	cr_expect_eq(count_entries(rootfd), 0);
	cr_expect(exists_at(AT_FDCWD, outside), "followed a symlink");
	cr_assert_eq(ct_state_open(rootfd, "web", false, &d, &err), -1);
	cr_expect_eq(err.errnum, ENOENT);

	/* the id is free again */
	reserve_ok("web", &d);
	ct_container_dir_close(&d);
}

/* ---- listing ---- */

Test(state_list, sorted_ids_of_directories_only, .init = setup_root, .fini = remove_tmpdir)
{
	const char *made[] = {"b", "a", "c-1", "C", "a.2", "_z"};
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		struct ct_container_dir d;
		reserve_ok(made[i], &d);
		ct_container_dir_close(&d);
	}
	/* what is not a container: a file, a reservation in progress, a symlink */
	int fd = openat(rootfd, "zfile", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0);
	close(fd);
	cr_assert_eq(mkdirat(rootfd, ".reserve-0123456789abcdef", 0700), 0);
	cr_assert_eq(symlinkat("a", rootfd, "zlink"), 0);

	char **ids;
	size_t n;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_list_ids(rootfd, &ids, &n, &err), 0, "%s", err.msg);
	const char *expected[] = {"C", "_z", "a", "a.2", "b", "c-1"};
	cr_assert_eq(n, sizeof(expected) / sizeof(expected[0]));
	for (size_t i = 0; i < n; i++)
		cr_expect_str_eq(ids[i], expected[i]);
	ct_state_free_ids(ids, n);

	/* listing twice from the same root fd sees the same (no shared offset) */
	cr_assert_eq(ct_state_list_ids(rootfd, &ids, &n, &err), 0, "%s", err.msg);
	cr_expect_eq(n, sizeof(expected) / sizeof(expected[0]));
	ct_state_free_ids(ids, n);
}

Test(state_list, empty_root, .init = setup_root, .fini = remove_tmpdir)
{
	char **ids = (char **)1;
	size_t n = 99;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_list_ids(rootfd, &ids, &n, &err), 0, "%s", err.msg);
	cr_expect_eq(n, 0);
	ct_state_free_ids(ids, n);
}

/* ---- `ctrun state` ---- */

/* `ctrun state`'s document of st with status, malloc'd. */
static char *state_json(const struct ct_state *st, const char *status)
{
	char *out;
	struct ct_error err = {0};
	cr_assert_eq(ct_state_format_json(st, status, &out, &err), 0, "%s", err.msg);
	return out;
}

Test(state_json, runc_shape_with_sorted_annotations)
{
	struct ct_state st;
	fill_state(&st);
	char *out = state_json(&st, "running");
	cr_expect_str_eq(out, "{\n"
			      "  \"ociVersion\": \"1.3.0\",\n"
			      "  \"id\": \"web\",\n"
			      "  \"pid\": 4242,\n"
			      "  \"status\": \"running\",\n"
			      "  \"bundle\": \"/srv/bundles/web\",\n"
			      "  \"rootfs\": \"/srv/bundles/web/rootfs\",\n"
			      "  \"created\": \"2026-01-02T03:04:05.123456789Z\",\n"
			      "  \"annotations\": {\n"
			      "    \"org.a\": \"one\",\n"
			      "    \"org.b\": \"two \\\"quoted\\\"\\n\",\n"
			      "    \"unicode\": \"caf\xc3\xa9 / \xe2\x9c\x93\"\n"
			      "  },\n"
			      "  \"owner\": \"\"\n"
			      "}");
	free(out);
	ct_state_free(&st);
}

Test(state_json, stopped_prints_pid_0_and_no_empty_annotations)
{
	struct ct_state st = {.id = "x",
			      .bundle = "/b",
			      .rootfs = "/b/rootfs",
			      .pid = 77,
			      .created = "2026-01-02T03:04:05Z",
			      .oci_version = "1.0.2"};
	char *out = state_json(&st, "stopped");
	cr_expect_str_eq(out, "{\n"
			      "  \"ociVersion\": \"1.0.2\",\n"
			      "  \"id\": \"x\",\n"
			      "  \"pid\": 0,\n"
			      "  \"status\": \"stopped\",\n"
			      "  \"bundle\": \"/b\",\n"
			      "  \"rootfs\": \"/b/rootfs\",\n"
			      "  \"created\": \"2026-01-02T03:04:05Z\",\n"
			      "  \"owner\": \"\"\n"
			      "}");
	free(out);
	out = state_json(&st, "created");
	cr_expect_not_null(strstr(out, "\"pid\": 77,"), "%s", out);
	free(out);
}

Test(state_json, timestamps_like_go_rfc3339nano)
{
	char buf[CT_TIMESTAMP_MAX];
	struct timespec cases[] = {{0, 0},
				   {1700000000, 123456789},
				   {1700000000, 120000000},
				   {1700000000, 1},
				   {1700000000, 999999999}};
	const char *expected[] = {"1970-01-01T00:00:00Z", "2023-11-14T22:13:20.123456789Z",
				  "2023-11-14T22:13:20.12Z", "2023-11-14T22:13:20.000000001Z",
				  "2023-11-14T22:13:20.999999999Z"};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ct_format_timestamp(&cases[i], buf);
		cr_expect_str_eq(buf, expected[i]);
	}
}

/* The seconds written by hand agree with strftime across years 1000-9999, and the years
 * outside them still come out (from strftime). */
Test(state_json, timestamp_seconds_as_strftime_writes_them)
{
	const time_t secs[] = {-30610224000 /* 1000-01-01 */,
			       -1,
			       0,
			       951782400 /* 2000-02-29 */,
			       1700000000,
			       1798761599 /* 2026-12-31T23:59:59 */,
			       253402300799 /* 9999-12-31T23:59:59 */};
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		struct timespec ts = {secs[i], 5000};
		struct tm tm;
		char want[CT_TIMESTAMP_MAX], got[CT_TIMESTAMP_MAX];
		cr_assert_not_null(gmtime_r(&secs[i], &tm));
		size_t n = strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
		memcpy(want + n, ".000005Z", sizeof(".000005Z"));
		ct_format_timestamp(&ts, got);
		cr_expect_str_eq(got, want);
	}
	struct timespec later = {253402300800 /* year 10000 */, 0};
	char buf[CT_TIMESTAMP_MAX];
	ct_format_timestamp(&later, buf);
	cr_expect_not_null(strstr(buf, "10000-01-01T00:00:00Z"), "%s", buf); /* musl adds a '+' */
}

/* More than the reader may take is said in words, not as strerror(EFBIG): no call failed. */
Test(state_file, read_file_larger_than_max_is_refused_in_words, .init = setup_root,
     .fini = remove_tmpdir)
{
	struct ct_container_dir d;
	reserve_ok("web", &d);
	int fd = openat(d.dirfd, "extra.json", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	cr_assert_geq(fd, 0, "%s", strerror(errno));
	cr_assert_eq(write(fd, "0123456789", 10), 10);
	close(fd);
	struct ct_error err = {0};
	char *text = ct_state_read_file(&d, "extra.json", 10, &err);
	cr_expect_str_eq(text, "0123456789", "%s", err.msg);
	free(text);
	cr_expect_null(ct_state_read_file(&d, "extra.json", 9, &err));
	cr_expect_eq(err.errnum, EFBIG);
	cr_expect_str_eq(err.msg, "\"extra.json\" of container \"web\": larger than 9 bytes");
	cr_expect_null(ct_state_read_file(&d, "missing.json", 9, &err));
	cr_expect_eq(err.errnum, ENOENT);
	ct_container_dir_close(&d);
}
