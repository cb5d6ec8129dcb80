#include "libct/parent/mount_label.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ct_mount_takes_label(const struct ct_planned_mount *m)
{
	static const char *const refuse[] = {"proc", "sysfs", "cgroup", "cgroup2", "mqueue"};
	if (m->flags.bind || !m->type)
		return false;
	for (size_t i = 0; i < sizeof(refuse) / sizeof(refuse[0]); i++)
		if (strcmp(m->type, refuse[i]) == 0)
			return false;
	return true;
}

int ct_mount_label_apply(struct ct_init_plan *plan, const char *label)
{
	for (size_t i = 0; i < plan->rootfs.n_mounts; i++) {
		struct ct_planned_mount *m = &plan->rootfs.mounts[i];
		if (!ct_mount_takes_label(m))
			continue;
		char *data;
		if (asprintf(&data, "%s%scontext=\"%s\"", m->flags.data ? m->flags.data : "",
			     m->flags.data ? "," : "", label) < 0)
			return -1;
		free(m->flags.data);
		m->flags.data = data;
	}
	return 0;
}
