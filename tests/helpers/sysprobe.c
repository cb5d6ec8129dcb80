/* sysprobe: makes raw syscalls and prints what each returned, for tests that look at a
 * seccomp profile from inside a container (busybox cannot make these calls):
 *
 *   sysprobe NAME[:ARG[,ARG...]]...     ->  one "NAME=ok" or "NAME=EPERM" line each
 *
 * ARGs are numbers (strtoull base 0), at most 6. clone3 is called with no clone_args (a
 * kernel that has it says EINVAL, a profile that hides it ENOSYS). Built static, so it runs
 * in the busybox rootfs, which has no libc. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	const char *name;
	long nr;
} calls[] = {
	{"clone3", SYS_clone3}, {"personality", SYS_personality}, {"getppid", SYS_getppid},
	{"mkdir", SYS_mkdir},	{"getpid", SYS_getpid},		  {"add_key", SYS_add_key},
};

static const struct {
	int num;
	const char *name;
} errnos[] = {
	{EPERM, "EPERM"},   {ENOSYS, "ENOSYS"}, {EINVAL, "EINVAL"}, {EDOM, "EDOM"},
	{EACCES, "EACCES"}, {ENOENT, "ENOENT"}, {EEXIST, "EEXIST"}, {EFAULT, "EFAULT"},
};

static long lookup(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (strlen(calls[i].name) == len && strncmp(calls[i].name, name, len) == 0)
			return calls[i].nr;
	return -1;
}

static void print_result(const char *name, size_t len, long rc, int err)
{
	if (rc >= 0) {
		printf("%.*s=ok\n", (int)len, name);
		return;
	}
	for (size_t i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].num == err) {
			printf("%.*s=%s\n", (int)len, name, errnos[i].name);
			return;
		}
	printf("%.*s=errno%d\n", (int)len, name, err);
}

static int probe(const char *spec)
{
	size_t len = strcspn(spec, ":");
	long nr = lookup(spec, len);
	if (nr < 0) {
		fprintf(stderr, "sysprobe: unknown syscall \"%.*s\"\n", (int)len, spec);
		return -1;
	}
	unsigned long a[6] = {0};
	const char *p = spec[len] ? spec + len + 1 : NULL;
	for (int i = 0; p && *p && i < 6; i++) {
		char *end;
		a[i] = strtoull(p, &end, 0);
		p = *end == ',' ? end + 1 : NULL;
	}
	errno = 0;
	long rc = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	print_result(spec, len, rc, errno);
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (probe(argv[i]) < 0)
			return 2;
	return fflush(stdout) == 0 ? 0 : 1;
}
