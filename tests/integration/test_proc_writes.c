/* CVE-2025-52881 class: a config mount or the image tries to redirect a /proc write of the
 * runtime (a sysctl, oom_score_adj, an LSM label) to another file. ctrun writes through a
 * procfs it mounted itself, which no path of the container leads to (libct/fs/procfs.h), on
 * each of its three routes, named in the debug log:
 *
 * - "fsmount": fsopen("proc") + fsmount(), a detached mount; the write lands where it
 *   should whatever is mounted over /proc in the container;
 * - "mount": the same where the new mount API is missing (ctrun under enosys fsopen): a
 *   proc mounted on the rootfs path and detached at once;
 * - "/proc (checked)": where no procfs may be mounted (a user namespace without a pid
 *   namespace of its own): the file must be procfs on the /proc mount, so the redirected
 *   write is refused, with nothing left (oom_score_adj, in a user namespace, the parent
 *   writes from the host's side).
 *
 * Checked from outside (the victim file is unchanged) and inside (the value is where it
 * belongs: the domainname uname(2) gives for kernel.domainname, a child's oom_score_adj).
 * kernel.hostname, which runc and crun refuse in linux.sysctl, is not used. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/container.h"
#include "tests/lib/rows.h"

TestSuite(proc_writes, .fini = lc_cleanup);

#define ID	"pw"
#define HOST_ID 100000

enum route { FSMOUNT, MOUNT, CHECKED };

static const char *const route_names[] = {"fsmount", "mount", "/proc (checked)"};

struct pw {
	struct lc t;
	enum route route;
	const char *wrapper[LC_WRAPPER_MAX];
};

/* A user namespace in the host's pid namespace: no procfs of its own may be mounted, so
 * /proc is the host's, bound. */
static void use_userns_without_pidns(struct pw *p)
{
	struct lc *t = &p->t;
	lc_namespace_set(t, "pid", NULL);
	lc_map_root(t, HOST_ID, 65536);
	lc_remove_mount(t, "/proc");
	lc_add_mount(t, "/proc", "bind", "/proc", "rbind");
}

static void pw_init(struct pw *p, enum route route)
{
	lc_init(&p->t);
	p->route = route;
	lc_wrap_enosys(&p->t, p->wrapper,
		       route == MOUNT ? (const char *const[]){"fsopen", NULL} : NULL);
	if (route == CHECKED)
		use_userns_without_pidns(p);
}

/* A host file holding "host\n" in a directory of its own, both the mapped root's (a
 * volume of the container: only the checks stand between the write and the file),
 * malloc'd. */
static char *victim_file(const char *name)
{
	char *dir = ctt_tmpdir();
	ctt_make_searchable(dir);
	char *file = ctt_path(dir, name);
	ctt_write_file(file, "host\n");
	ctt_chown_tree(dir, HOST_ID);
	free(dir);
	return file;
}

/* On a private procfs: `--debug run` of script prints want, the log names the route. On
 * the checked /proc: create and run fail naming each needle, and leave nothing. */
static void assert_write_not_redirected(const struct pw *p, const char *script, const char *want,
					const char *const *needles)
{
	lc_set_script(&p->t, script);
	struct ctt_result r;
	if (p->route == CHECKED) {
		lc_assert_create_refused(&p->t, ID, needles);
		return;
	}
	lc_ctrun(&r, &p->t, "--debug", "run", "--bundle", p->t.bundle, ID);
	cr_assert_eq(r.status, 0, "run: exit %d\nstdout: %s\nstderr: %s", r.status, r.out, r.err);
	cr_expect_str_eq(r.out, want, "`%s`", script);
	char note[64];
	snprintf(note, sizeof(note), "/proc writes through %s", route_names[p->route]);
	cr_expect_not_null(strstr(r.err, note), "the log does not say '%s':\n%s", note, r.err);
	ctt_result_free(&r);
	lc_assert_nothing_left(&p->t);
}

#define SET_DOMAINNAME "{\"kernel.domainname\": \"fromsysctl\"}"
/* the domainname from uname(2), past whatever covers /proc/sys/kernel/domainname */
#define DOMAINNAME "diffprobe | sed -n 's/^domainname: //p'"

/* source bound (options) at dest in the container, which sets kernel.domainname by sysctl. */
static void bind_and_set_domainname(const struct pw *p, const char *dest, const char *source,
				    const char *options)
{
	lc_add_mount(&p->t, dest, "bind", source, options);
	ctt_config_set(p->t.bundle, ".linux.sysctl", SET_DOMAINNAME);
	lc_install_helper(&p->t, "diffprobe");
}

/* A host file bound over the sysctl's file. */
static void assert_no_redirect_sysctl_through_a_file_bound_over_it(struct pw *p)
{
	char *fake = victim_file("hostname");
	bind_and_set_domainname(p, "/proc/sys/kernel/domainname", fake, "bind");
	assert_write_not_redirected(p, DOMAINNAME, "fromsysctl\n",
				    LC_ARGV("sysctl kernel.domainname=fromsysctl",
					    "\"/proc/sys/kernel/domainname\" is not procfs"));
	ctt_assert_file_text(fake, "host\n");
	free(fake);
}

/* A host directory in place of /proc/sys: the sysctl would be written into it. */
static void assert_no_redirect_sysctl_through_a_mount_over_proc_sys(struct pw *p)
{
	char *fake = victim_file("hostname");
	char *dir = strdup(fake);
	*strrchr(dir, '/') = '\0';
	char *kernel = ctt_path(dir, "kernel"), *file = ctt_path(kernel, "domainname");
	ctt_mkdir_p(kernel);
	ctt_make_searchable(kernel);
	cr_assert_eq(rename(fake, file), 0);
	ctt_chown_tree(dir, HOST_ID);
	bind_and_set_domainname(p, "/proc/sys", dir, "rbind");
	assert_write_not_redirected(p, DOMAINNAME, "fromsysctl\n",
				    LC_ARGV("sysctl kernel.domainname", "not procfs"));
	ctt_assert_file_text(file, "host\n");
	free(file);
	free(kernel);
	free(dir);
	free(fake);
}

/* Procfs bound over procfs: a volume's symlink led the bind source to another sysctl,
 * net.ipv4.ip_forward, which the container's root may write (its network namespace's).
 * Inside, that one keeps its (the host's) value. */
static void assert_no_redirect_sysctl_through_a_procfs_file_bound_over_it(struct pw *p)
{
	char *vol = ctt_tmpdir(), *link = ctt_path(vol, "link");
	ctt_make_searchable(vol);
	cr_assert_eq(symlink("/proc/sys/net/ipv4/ip_forward", link), 0);
	char *before = ctt_read_file("/proc/sys/net/ipv4/ip_forward");
	bind_and_set_domainname(p, "/proc/sys/kernel/domainname", link, "bind");
	/* the bound file shows the host's value, whatever it is (Podman's netavark sets 1) */
	char want[64];
	snprintf(want, sizeof(want), "fromsysctl\n%s", before);
	assert_write_not_redirected(p, DOMAINNAME "; cat /proc/sys/kernel/domainname", want,
				    LC_ARGV("sysctl kernel.domainname", "not on the /proc mount"));
	ctt_assert_file_text("/proc/sys/net/ipv4/ip_forward", before);
	free(before);
	free(link);
	free(vol);
}

/* A host file on the init's own /proc/self/oom_score_adj; a child of the process (cat,
 * which sh must fork: a command follows) inherits the value the init set. In a user
 * namespace (the checked route) the parent writes it, through a procfs of its own: the run
 * goes on and the value is where it belongs. */
static void assert_no_redirect_oom_score_adj_through_a_bind(struct pw *p)
{
	char *fake = victim_file("oom");
	lc_add_mount(&p->t, "/proc/self/oom_score_adj", "bind", fake, "bind");
	ctt_config_set(p->t.bundle, ".process.oomScoreAdj", "100");
	if (p->route == CHECKED)
		lc_assert_sh_output(&p->t, "cat /proc/self/oom_score_adj; :", "100\n");
	else
		assert_write_not_redirected(p, "cat /proc/self/oom_score_adj; :", "100\n",
					    LC_ARGV("oom_score_adj 100", "not procfs"));
	ctt_assert_file_text(fake, "host\n");
	free(fake);
}

/* The image's /proc is a symlink to a directory of its own, and no proc is mounted: the
 * sysctl and oom_score_adj would land in its files. Nothing is masked (the mount(2)
 * fallback binds through /proc/self/fd, which this container does not have). */
static void assert_no_redirect_writes_through_a_symlinked_proc(struct pw *p)
{
	lc_remove_mount(&p->t, "/proc");
	ctt_config_set(p->t.bundle, ".linux.maskedPaths", "[]");
	ctt_config_set(p->t.bundle, ".linux.readonlyPaths", "[]");
	char *proc = lc_rootfs_path(&p->t, "proc"),
	     *kernel = lc_rootfs_path(&p->t, "fake/sys/kernel");
	char *self = lc_rootfs_path(&p->t, "fake/self");
	char *domainname = ctt_path(kernel, "domainname"), *oom = ctt_path(self, "oom_score_adj");
	ctt_rm_rf(proc);
	cr_assert_eq(symlink("fake", proc), 0);
	ctt_mkdir_p(kernel);
	ctt_mkdir_p(self);
	ctt_write_file(domainname, "host\n");
	ctt_write_file(oom, "host\n");
	if (p->route == CHECKED) {
		char *fake = lc_rootfs_path(&p->t, "fake");
		ctt_chown_tree(fake, HOST_ID);
		free(fake);
	}
	ctt_config_set(p->t.bundle, ".linux.sysctl", SET_DOMAINNAME);
	lc_install_helper(&p->t, "diffprobe");
	ctt_config_set(p->t.bundle, ".process.oomScoreAdj", "100");
	assert_write_not_redirected(p, DOMAINNAME, "fromsysctl\n",
				    LC_ARGV("sysctl kernel.domainname", "not procfs"));
	ctt_assert_file_text(domainname, "host\n");
	ctt_assert_file_text(oom, "host\n");
	free(oom);
	free(domainname);
	free(self);
	free(kernel);
	free(proc);
}

/* Each way to redirect a write of the init's, each by the three routes a mount is made. */
static const struct {
	const char *what;
	void (*assert_not_redirected)(struct pw *p); /* p: pw_init()'ed for its route */
} redirects[] = {
	{"sysctl through a file bound over it",
	 assert_no_redirect_sysctl_through_a_file_bound_over_it},
	{"sysctl through a mount over proc sys",
	 assert_no_redirect_sysctl_through_a_mount_over_proc_sys},
	{"sysctl through a procfs file bound over it",
	 assert_no_redirect_sysctl_through_a_procfs_file_bound_over_it},
	{"oom score adj through a bind", assert_no_redirect_oom_score_adj_through_a_bind},
	{"writes through a symlinked proc", assert_no_redirect_writes_through_a_symlinked_proc},
};

ParameterizedTestParameters(proc_writes, write_is_not_redirected)
{
	return ctt_rows(CTT_COUNT(redirects) * CTT_COUNT(route_names));
}

ParameterizedTest(size_t *i, proc_writes, write_is_not_redirected)
{
	enum route route = (enum route)(*i % CTT_COUNT(route_names));
	size_t which = *i / CTT_COUNT(route_names);
	cr_log_info("no redirect of the %s by %s", redirects[which].what, route_names[route]);
	struct pw p;
	pw_init(&p, route);
	redirects[which].assert_not_redirected(&p);
}
