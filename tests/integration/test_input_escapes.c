/* Input the kernel would read otherwise than the document says (docs/security.md), each
 * tried on a real container the way an attacker holding the image or the config would:
 *
 * - procfs or sysfs through a symlink of the image (/proc -> /fakeproc): mounted there, the
 *   masked paths and LSM profiles miss it (CVE-2019-19921, CVE-2023-27561);
 * - the id 4294967295, (uid_t)-1, which setresuid and setgroups take as "leave it": the
 *   process keeps ctrun's root;
 * - a NUL byte inside a JSON string ("\u0000"), where the C string the kernel gets ends.
 *
 * Each is refused with one error line naming the JSON path (or the flag), a non-zero exit,
 * and nothing left: no state entry, process, mount or cgroup, nothing made in the image. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/cgroup.h"
#include "tests/lib/container.h"

TestSuite(input_escapes, .fini = cgt_cleanup);

#define ID "inp"

/* create and run of ID are refused with each needle, and nothing is left, the cgroup
 * included (the container's goes below the test's subtree). */
static void assert_refused(const struct lc *t, const char *const *needles)
{
	lc_assert_create_refused(t, ID, needles);
	cgt_assert_subtree_gone();
}

static void init_box(struct lc *t)
{
	lc_init(t);
	cgt_use_path(t, "box");
}

/* ---- procfs and sysfs through a symlink of the image ---- */

/* rootfs/name becomes a symlink to /fake<name>, a directory holding one file "marker". */
static char *image_fake_dir(const struct lc *t, const char *name)
{
	char *link = lc_rootfs_path(t, name);
	char fake_rel[64], target[64];
	snprintf(fake_rel, sizeof(fake_rel), "fake%s", name);
	snprintf(target, sizeof(target), "/fake%s", name);
	char *fake = lc_rootfs_path(t, fake_rel);
	cr_assert_eq(ctt_rm_rf(link), 0, "rm %s: %s", link, strerror(errno));
	ctt_mkdir_p(fake);
	char *marker = ctt_path(fake, "marker");
	ctt_write_file(marker, "image\n");
	free(marker);
	cr_assert_eq(symlink(target, link), 0, "symlink %s: %s", link, strerror(errno));
	free(link);
	return fake;
}

/* dir holds exactly the file "marker" with its text, and no mount is on it. */
static void assert_fake_dir_untouched(const char *dir)
{
	DIR *d = opendir(dir);
	cr_assert_not_null(d, "opendir %s: %s", dir, strerror(errno));
	unsigned n = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
			cr_expect_str_eq(e->d_name, "marker", "%s was made in %s", e->d_name, dir);
			n++;
		}
	closedir(d);
	cr_expect_eq(n, 1, "%s holds %u entries", dir, n);
	char *marker = ctt_path(dir, "marker");
	ctt_assert_file_text(marker, "image\n");
	free(marker);
	char *mounts = ctt_read_file("/proc/self/mountinfo");
	cr_expect_null(strstr(mounts, dir), "a mount is on %s", dir);
	free(mounts);
}

/* enosys_args: the syscalls ctrun runs without (the enosys helper), NULL for none. */
static void assert_mount_refused(const char *dest, const char *type, const char *const *enosys_args)
{
	struct lc t;
	init_box(&t);
	const char *wrapper[LC_WRAPPER_MAX];
	lc_wrap_enosys(&t, wrapper, enosys_args);
	char *fake = image_fake_dir(&t, dest + 1);
	long i = lc_config_index(&t, ".mounts", ".destination", dest);
	cr_assert_geq(i, 0, "the spec has no %s mount", dest);
	char where[64], what[64];
	snprintf(where, sizeof(where), "config.json: .mounts[%ld]: \"%s\"", i, dest);
	snprintf(what, sizeof(what), "%s goes only on a directory at that very path", type);
	assert_refused(&t, LC_ARGV(where, what));
	assert_fake_dir_untouched(fake);
	free(fake);
}

Test(input_escapes, proc_through_a_symlink_of_the_image_refused)
{
	assert_mount_refused("/proc", "proc", NULL);
}

/* The same without openat2: the walk that stands in for it refuses every symlink itself. */
Test(input_escapes, proc_through_a_symlink_refused_without_openat2)
{
	assert_mount_refused("/proc", "proc", LC_ARGV("openat2"));
}

Test(input_escapes, sysfs_through_a_symlink_of_the_image_refused)
{
	assert_mount_refused("/sys", "sysfs", NULL);
}

/* A symlink above the destination counts too: /a -> /fakea, proc at /a/proc. */
Test(input_escapes, proc_below_a_symlinked_directory_refused)
{
	struct lc t;
	init_box(&t);
	char *fake = image_fake_dir(&t, "a");
	lc_add_mount(&t, "/a/proc", "proc", "proc", NULL);
	long i = lc_config_index(&t, ".mounts", ".destination", "/a/proc");
	char where[64];
	snprintf(where, sizeof(where), "config.json: .mounts[%ld]: \"/a/proc\"", i);
	assert_refused(&t, LC_ARGV(where, "proc goes only on a directory"));
	assert_fake_dir_untouched(fake);
	free(fake);
}

/* Without a proc mount the masked and read-only paths under a symlinked /proc are the
 * image's files, not the kernel's: refused too, naming the list and the entry. */
static void assert_path_list_refused(const char *list, const char *path)
{
	struct lc t;
	init_box(&t);
	lc_remove_mount(&t, "/proc");
	char *fake = image_fake_dir(&t, "proc");
	char json[64], field[64], where[128];
	snprintf(field, sizeof(field), ".linux.%s", list);
	snprintf(json, sizeof(json), "[\"%s\"]", path);
	ctt_config_set(t.bundle, ".linux.maskedPaths", "[]");
	ctt_config_set(t.bundle, ".linux.readonlyPaths", "[]");
	ctt_config_set(t.bundle, field, json);
	snprintf(where, sizeof(where), "config.json: %s[0]: \"%s\"", field, path);
	assert_refused(&t, LC_ARGV(where, "\"/proc\" is a symlink"));
	assert_fake_dir_untouched(fake);
	free(fake);
}

Test(input_escapes, masked_path_under_a_symlinked_proc_refused)
{
	assert_path_list_refused("maskedPaths", "/proc/marker");
}

Test(input_escapes, readonly_path_under_a_symlinked_proc_refused)
{
	assert_path_list_refused("readonlyPaths", "/proc/marker");
}

/* ---- (uid_t)-1 ---- */

#define NO_CHANGE "(uid_t)-1", "leave the id unchanged"

/* The process would write its identity here if it ran. */
static void assert_did_not_run(const struct lc *t)
{
	char *ran = lc_rootfs_path(t, "ran");
	cr_expect(!ctt_exists(ran), "the process ran: %s", ran);
	free(ran);
}

static void assert_user_refused(const char *user, const char *path)
{
	struct lc t;
	init_box(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	lc_set_script(&t, "id > /ran");
	ctt_config_set(t.bundle, ".process.user", user);
	char where[96];
	snprintf(where, sizeof(where), "config.json: %s: 4294967295", path);
	assert_refused(&t, LC_ARGV(where, NO_CHANGE));
	assert_did_not_run(&t);
}

Test(input_escapes, uid_minus_one_refused)
{
	assert_user_refused("{\"uid\": 4294967295, \"gid\": 1000}", ".process.user.uid");
}

Test(input_escapes, gid_minus_one_refused)
{
	assert_user_refused("{\"uid\": 1000, \"gid\": 4294967295}", ".process.user.gid");
}

Test(input_escapes, additional_gid_minus_one_refused)
{
	assert_user_refused("{\"uid\": 1000, \"gid\": 1000, \"additionalGids\": [5, 4294967295]}",
			    ".process.user.additionalGids[1]");
}

/* A device node chown'ed to (uid_t)-1 would stay root's. */
Test(input_escapes, device_owner_minus_one_refused)
{
	struct lc t;
	init_box(&t);
	ctt_config_set(t.bundle, ".linux.devices",
		       "[{\"type\": \"c\", \"path\": \"/dev/mynull\", \"major\": 1, \"minor\": 3, "
		       "\"uid\": 4294967295, \"gid\": 0}]");
	assert_refused(&t, LC_ARGV("config.json: .linux.devices[0].uid: 4294967295", NO_CHANGE));
}

Test(input_escapes, id_mapping_reaching_minus_one_refused)
{
	struct lc t;
	init_box(&t);
	lc_config_append(&t, ".linux.namespaces", "{\"type\": \"user\"}");
	ctt_config_set(t.bundle, ".linux.uidMappings",
		       "[{\"containerID\": 0, \"hostID\": 4294967295, \"size\": 1}]");
	ctt_config_set(t.bundle, ".linux.gidMappings",
		       "[{\"containerID\": 0, \"hostID\": 0, \"size\": 65536}]");
	assert_refused(&t,
		       LC_ARGV("config.json: .linux.uidMappings[0].hostID: 4294967295", NO_CHANGE));
}

/* A running container with a writable root, its init asleep. */
static void start_box(struct lc *t)
{
	init_box(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
	lc_set_args(t, LC_ARGV("sleep", "1000"));
	lc_ok(t, "run", "--detach", "--bundle", t->bundle, ID);
}

/* exec is refused with each needle; the container still runs and the command never ran. */
static void assert_exec_refused(const struct lc *t, const char *const *args,
				const char *const *needles)
{
	pid_t init = lc_pid(t, ID);
	struct ctt_result r;
	lc_ctrunv(&r, t, args);
	ctt_assert_error_line(&r, needles);
	ctt_result_free(&r);
	assert_did_not_run(t);
	cr_expect(ctt_alive(init), "the container's init is gone");
	lc_assert_status(t, ID, "running");
	cr_expect_eq(ctt_count_in_pidns(init, "sh -c id > /ran"), 0);
}

Test(input_escapes, exec_user_minus_one_refused)
{
	struct lc t;
	start_box(&t);
	assert_exec_refused(&t,
			    LC_ARGV("exec", "--user", "4294967295", ID, "sh", "-c", "id > /ran"),
			    LC_ARGV("--user", NO_CHANGE));
	assert_exec_refused(
		&t, LC_ARGV("exec", "--user", "1000:4294967295", ID, "sh", "-c", "id > /ran"),
		LC_ARGV("--user", NO_CHANGE));
	assert_exec_refused(&t,
			    LC_ARGV("exec", "--user", "1000:1000", "--additional-gids",
				    "4294967295", ID, "sh", "-c", "id > /ran"),
			    LC_ARGV("--additional-gids", NO_CHANGE));
}

/* `exec --process` of a document (JSON text) whose error names the document, then where
 * (".user.uid: ..."), then holds each needle. */
static void assert_exec_document_refused(const char *json, const char *where,
					 const char *const *needles)
{
	struct lc t;
	start_box(&t);
	char *doc = ctt_tmp_path("process.json");
	ctt_write_file(doc, json);
	char named[PATH_MAX + 64];
	snprintf(named, sizeof(named), "%s: %s", doc, where);
	const char *all[8] = {named};
	for (size_t i = 0; needles[i] && i + 2 < 8; i++)
		all[i + 1] = needles[i];
	assert_exec_refused(&t, LC_ARGV("exec", "--process", doc, ID), all);
	free(doc);
}

Test(input_escapes, exec_process_document_with_uid_minus_one_refused)
{
	assert_exec_document_refused("{\"cwd\": \"/\", \"args\": [\"sh\", \"-c\", \"id > /ran\"], "
				     "\"user\": {\"uid\": 4294967295, \"gid\": 0}}",
				     ".user.uid: 4294967295", LC_ARGV(NO_CHANGE));
}

/* ---- NUL bytes ---- */

#define NUL_MARK "@NUL@"

/* Sets path of config.json to json, in which each NUL_MARK becomes "\u0000" (the test's JSON
 * library, like every C one, would cut the string there). */
static void config_set_with_nul(const struct lc *t, const char *path, const char *json)
{
	ctt_config_set(t->bundle, path, json);
	char *file = ctt_path(t->bundle, "config.json");
	char *text = ctt_read_file(file);
	size_t len = strlen(text);
	char *out = malloc(len * 2 + 1);
	cr_assert_not_null(out);
	char *o = out;
	for (const char *s = text; *s;) {
		if (strncmp(s, NUL_MARK, strlen(NUL_MARK)) == 0) {
			o += sprintf(o, "\\u0000");
			s += strlen(NUL_MARK);
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	cr_assert(strstr(out, "\\u0000"), "no " NUL_MARK " in %s", json);
	ctt_write_file(file, out);
	free(out);
	free(text);
	free(file);
}

/* The documented attack: args[0] "/bin/sh\u0000-x" runs /bin/sh. */
Test(input_escapes, nul_in_args_refused)
{
	struct lc t;
	init_box(&t);
	ctt_config_set(t.bundle, ".root.readonly", "false");
	config_set_with_nul(&t, ".process.args",
			    "[\"/bin/sh" NUL_MARK "-x\", \"-c\", \"id > /ran\"]");
	assert_refused(&t, LC_ARGV("config.json: .process.args[0]: the string \"/bin/sh\\u0000",
				   "holds a NUL byte"));
	assert_did_not_run(&t);
}

static const struct nul_case {
	const char *path, *json, *shown;
} nul_cases[] = {
	{".process.env[0]", "\"PATH=/bin" NUL_MARK ":/x\"", ".process.env[0]"},
	{".process.cwd", "\"/tmp" NUL_MARK "/x\"", ".process.cwd"},
	{".hostname", "\"box" NUL_MARK "evil\"", ".hostname"},
	{".linux.sysctl", "{\"kernel.shmmax\": \"1" NUL_MARK "0\"}",
	 ".linux.sysctl[\"kernel.shmmax\"]"},
	{".linux.sysctl", "{\"kernel.shm" NUL_MARK "max\": \"1\"}", ".linux.sysctl"},
	{".annotations", "{\"org.example\": \"v" NUL_MARK "\"}", ".annotations[\"org.example\"]"},
	{".annotations", "{\"org" NUL_MARK ".example\": \"v\"}", ".annotations"},
	{".hooks", "{\"createRuntime\": [{\"path\": \"/bin/true" NUL_MARK "x\"}]}",
	 ".hooks.createRuntime[0].path"},
	{".linux.cgroupsPath", "\"inp" NUL_MARK "/x\"", ".linux.cgroupsPath"},
	{".linux.maskedPaths", "[\"/proc/kcore" NUL_MARK "\"]", ".linux.maskedPaths[0]"},
};

Test(input_escapes, nul_in_any_string_refused_naming_its_path)
{
	for (size_t i = 0; i < sizeof(nul_cases) / sizeof(nul_cases[0]); i++) {
		struct lc t;
		init_box(&t);
		config_set_with_nul(&t, nul_cases[i].path, nul_cases[i].json);
		char where[128];
		snprintf(where, sizeof(where), "config.json: %s: ", nul_cases[i].shown);
		assert_refused(&t, LC_ARGV(where, "holds a NUL byte"));
	}
}

Test(input_escapes, nul_in_an_exec_process_document_refused)
{
	assert_exec_document_refused(
		"{\"cwd\": \"/\", \"args\": [\"/bin/sh\\u0000-x\", \"-c\", \"id > /ran\"]}",
		".args[0]: the string", LC_ARGV("holds a NUL byte"));
}

/* The cgroup keeps its limit: the document is refused before anything is written. */
Test(input_escapes, nul_in_update_resources_refused)
{
	struct lc t;
	start_box(&t);
	char rel[128];
	snprintf(rel, sizeof(rel), "%s/box", cgt_subtree());
	char *pids = cgt_dir("pids", rel);
	char *before = pids ? cgt_read(pids, "pids.max") : NULL;
	struct ctt_result r;
	lc_ctrun_input(&r, &t,
		       "{\"pids\": {\"limit\": 7}, \"unified\": {\"pids.max\": \"5\\u0000\"}}",
		       "update", "--resources", "-", ID);
	ctt_assert_error(&r, ".unified[\"pids.max\"]", "holds a NUL byte");
	ctt_result_free(&r);
	lc_assert_status(&t, ID, "running");
	if (pids) {
		char *after = cgt_read(pids, "pids.max");
		cr_expect_str_eq(after, before, "the limit changed");
		free(after);
	}
	free(before);
	free(pids);
}

/* A raw NUL byte on stdin would end the text the parser reads: what follows it unread. */
Test(input_escapes, raw_nul_in_update_resources_on_stdin_refused)
{
	struct lc t;
	start_box(&t);
	static const char doc[] = "{\"pids\": {\"limit\": 7}}\0{\"garbage\": ";
	struct ctt_run_opts opts = {.input = doc, .input_len = sizeof(doc) - 1};
	struct ctt_result r;
	ctt_ctrunv(&r, &opts, LC_ARGV("--root", t.root, "update", "--resources", "-", ID));
	ctt_assert_error(&r, "stdin: contains a NUL byte");
	ctt_result_free(&r);
	char *status = lc_status(&t, ID);
	cr_expect_str_eq(status, "running");
	free(status);
}
