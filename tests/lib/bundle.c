/* Busybox bundles: Debian's busybox-static is the whole root filesystem of a test. */
#include "tests/lib/testlib.h"

#include <criterion/criterion.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOST_BUSYBOX "/bin/busybox"

/* A dynamically linked busybox (Debian's "busybox" package) cannot run in a rootfs with no
 * libc: look for an ELF interpreter in its program headers. */
static bool is_static_elf(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	Elf64_Ehdr eh;
	bool ok = pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) &&
		  memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64;
	for (unsigned i = 0; ok && i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		off_t at = (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize);
		if (pread(fd, &ph, sizeof(ph), at) != sizeof(ph) || ph.p_type == PT_INTERP)
			ok = false;
	}
	close(fd);
	return ok;
}

static void copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	cr_assert_geq(in, 0, "open \"%s\": %s", from, strerror(errno));
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	cr_assert_geq(out, 0, "create \"%s\": %s", to, strerror(errno));
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		cr_assert_eq(write(out, buf, (size_t)n), n, "write \"%s\": %s", to,
			     strerror(errno));
	cr_assert_eq(n, 0, "read \"%s\": %s", from, strerror(errno));
	close(in);
	cr_assert_eq(close(out), 0, "close \"%s\": %s", to, strerror(errno));
	cr_assert_eq(chmod(to, mode), 0, "chmod \"%s\": %s", to, strerror(errno)); /* umask */
}

/* `busybox --install -s` into one directory: a relative symlink per applet. */
static void link_applets(const char *bindir)
{
	char *busybox = ctt_path(bindir, "busybox");
	struct ctt_result r;
	ctt_run(&r, NULL, (const char *const[]){busybox, "--list", NULL});
	cr_assert_eq(r.status, 0, "%s --list: %s", busybox, r.err);
	for (char *name = strtok(r.out, "\n"); name; name = strtok(NULL, "\n")) {
		if (!*name || strchr(name, '/') || !strcmp(name, "busybox"))
			continue;
		char *link = ctt_path(bindir, name);
		cr_assert(symlink("busybox", link) == 0 || errno == EEXIST, "symlink \"%s\": %s",
			  link, strerror(errno));
		free(link);
	}
	ctt_result_free(&r);
	free(busybox);
}

static void make_rootfs(const char *rootfs)
{
	static const char *const dirs[] = {"bin", "dev",  "proc", "sys", "tmp",
					   "etc", "root", "run",  NULL};
	for (const char *const *d = dirs; *d; d++) {
		char *p = ctt_path(rootfs, *d);
		ctt_mkdir_p(p);
		free(p);
	}
	char *tmp = ctt_path(rootfs, "tmp");
	chmod(tmp, 01777);
	free(tmp);
	char *bin = ctt_path(rootfs, "bin");
	char *busybox = ctt_path(bin, "busybox");
	copy_file(HOST_BUSYBOX, busybox, 0755);
	link_applets(bin);
	free(busybox);
	free(bin);
	/* `id` and `ls -l` print names, and devpts is mounted with gid=5 (tty). */
	char *passwd = ctt_path(rootfs, "etc/passwd");
	ctt_write_file(passwd, "root:x:0:0:root:/root:/bin/sh\n"
			       "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n");
	char *group = ctt_path(rootfs, "etc/group");
	ctt_write_file(group, "root:x:0:\ntty:x:5:\nnogroup:x:65534:\n");
	free(passwd);
	free(group);
}

void ctt_bundle_make(const char *dir)
{
	if (access(HOST_BUSYBOX, X_OK) != 0 || !is_static_elf(HOST_BUSYBOX))
		ctt_skip("no static %s (install busybox-static)", HOST_BUSYBOX);
	ctt_mkdir_p(dir);
	char *rootfs = ctt_path(dir, "rootfs");
	make_rootfs(rootfs);
	free(rootfs);
	struct ctt_result r;
	ctt_ctrun(&r, NULL, "spec", "--bundle", dir, NULL);
	cr_assert_eq(r.status, 0, "ctrun spec --bundle %s: %s", dir, r.err);
	ctt_result_free(&r);
}

char *ctt_bundle_new(void)
{
	char *dir = ctt_tmpdir();
	ctt_bundle_make(dir);
	return dir;
}
