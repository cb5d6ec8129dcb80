#include "libct/child/sysctl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum needs { NEEDS_IPC, NEEDS_NET, NEEDS_UTS };

/* The namespaced sysctls runc and crun allow, by the namespace that owns them. A row ending
 * in '.' is a prefix. */
static const struct {
	const char *key;
	enum needs needs;
} allowed[] = {
	{"kernel.msgmax", NEEDS_IPC},	{"kernel.msgmnb", NEEDS_IPC},
	{"kernel.msgmni", NEEDS_IPC},	{"kernel.sem", NEEDS_IPC},
	{"kernel.shmall", NEEDS_IPC},	{"kernel.shmmax", NEEDS_IPC},
	{"kernel.shmmni", NEEDS_IPC},	{"kernel.shm_rmid_forced", NEEDS_IPC},
	{"fs.mqueue.", NEEDS_IPC},	{"net.", NEEDS_NET},
	{"kernel.domainname", NEEDS_UTS},
};

static const char *const namespace_names[] = {"ipc", "network", "uts"};

/* key with '/' as '.', refusing empty, "." and ".." components (no way up /proc/sys). */
static int normalize(const char *key, char *out, size_t size)
{
	if (!*key || strlen(key) >= size)
		return -1;
	for (size_t i = 0; key[i]; i++)
		out[i] = key[i] == '/' ? '.' : key[i];
	out[strlen(key)] = '\0';
	for (const char *p = out;;) {
		size_t n = strcspn(p, ".");
		if (n == 0)
			return -1;
		p += n;
		if (!*p)
			return 0;
		p++;
	}
}

static bool matches(const char *row, const char *key)
{
	size_t n = strlen(row);
	return row[n - 1] == '.' ? strncmp(row, key, n) == 0 && key[n] : strcmp(row, key) == 0;
}

int ct_sysctl_check(const char *key, const struct ct_sysctl_namespaces *ns, struct ct_error *err)
{
	char k[256];
	if (normalize(key, k, sizeof(k)) < 0)
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.sysctl[\"%s\"]: not a sysctl name", key);
	/* as runc 1.1.5 and crun 1.8.1: the hostname is the config's "hostname" field */
	if (strcmp(k, "kernel.hostname") == 0)
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.sysctl[\"%s\"]: conflicts with .hostname, "
				      "which sets it",
				      key);
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		if (!matches(allowed[i].key, k))
			continue;
		bool have = allowed[i].needs == NEEDS_IPC   ? ns->ipc
			    : allowed[i].needs == NEEDS_NET ? ns->net
							    : ns->uts;
		if (have)
			return 0;
		return ct_error_plain(err, EINVAL,
				      "config.json: .linux.sysctl[\"%s\"]: needs the "
				      "container's own %s namespace",
				      key, namespace_names[allowed[i].needs]);
	}
	return ct_error_plain(err, EINVAL,
			      "config.json: .linux.sysctl[\"%s\"]: not a namespaced sysctl: "
			      "it would change the host",
			      key);
}

int ct_sysctl_path(const char *key, char *buf, size_t size)
{
	int n = snprintf(buf, size, "/proc/sys/%s", key);
	if (n < 0 || (size_t)n >= size)
		return -1;
	for (char *p = buf + strlen("/proc/sys/"); *p; p++)
		if (*p == '.')
			*p = '/';
	return 0;
}
