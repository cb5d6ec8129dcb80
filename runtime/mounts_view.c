#include "runtime/mounts_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/syscalls.h"
#include "libct/fs/safefs.h"

static int add(char ***v, size_t *n, const char *path)
{
	char **grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (!grown)
		return -1;
	*v = grown;
	char buf[4096];
	ct_path_normalize(path, buf, sizeof(buf));
	return (grown[(*n)++] = strdup(buf)) ? 0 : -1;
}

static bool has_option(const struct oci_mount *m, const char *name)
{
	for (size_t i = 0; i < m->options.len; i++)
		if (strcmp(m->options.items[i], name) == 0)
			return true;
	return false;
}

int ct_planned_paths_from_config(const struct oci_config *c, struct ct_planned_paths *out)
{
	memset(out, 0, sizeof(*out));
	int rc = add(&out->exact, &out->n_exact, "/");
	for (size_t i = 0; rc == 0 && i < c->mounts.len; i++) {
		const struct oci_mount *m = &c->mounts.items[i];
		bool tree = has_option(m, "rbind") || (m->type && strcmp(m->type, "cgroup") == 0);
		rc = tree ? add(&out->trees, &out->n_trees, m->destination)
			  : add(&out->exact, &out->n_exact, m->destination);
	}
	const oci_strings *lists[] = {&c->linux_.masked_paths, &c->linux_.readonly_paths};
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; rc == 0 && i < lists[l]->len; i++)
			rc = add(&out->exact, &out->n_exact, lists[l]->items[i]);
	if (rc == 0 && c->process.terminal)
		rc = add(&out->exact, &out->n_exact, "/dev/console");
	return rc;
}

bool ct_planned_paths_match(const struct ct_planned_paths *p, const char *target)
{
	for (size_t i = 0; i < p->n_exact; i++)
		if (strcmp(p->exact[i], target) == 0)
			return true;
	for (size_t i = 0; i < p->n_trees; i++) {
		size_t n = strlen(p->trees[i]);
		if (strncmp(p->trees[i], target, n) == 0 &&
		    (target[n] == '\0' || target[n] == '/' || n == 1))
			return true;
	}
	return false;
}

void ct_planned_paths_free(struct ct_planned_paths *p)
{
	for (size_t i = 0; i < p->n_exact; i++)
		free(p->exact[i]);
	for (size_t i = 0; i < p->n_trees; i++)
		free(p->trees[i]);
	free(p->exact);
	free(p->trees);
}

const char *ct_mount_options_string(const struct ct_mount *m, char *buf, size_t size)
{
	uint64_t atime = m->attr & MOUNT_ATTR__ATIME;
	snprintf(buf, size, "%s%s%s%s%s%s%s%s%s", m->attr & MOUNT_ATTR_RDONLY ? "ro" : "rw",
		 m->attr & MOUNT_ATTR_NOSUID ? ",nosuid" : "",
		 m->attr & MOUNT_ATTR_NODEV ? ",nodev" : "",
		 m->attr & MOUNT_ATTR_NOEXEC ? ",noexec" : "",
		 atime == MOUNT_ATTR_NOATIME	   ? ",noatime"
		 : atime == MOUNT_ATTR_STRICTATIME ? ""
						   : ",relatime",
		 m->attr & MOUNT_ATTR_NODIRATIME ? ",nodiratime" : "",
		 m->attr & MOUNT_ATTR_NOSYMFOLLOW ? ",nosymfollow" : "", *m->fs_options ? "," : "",
		 m->fs_options);
	return buf;
}
