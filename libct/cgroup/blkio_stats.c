/* v1 blkio statistics as runc reads them: groups of *_recursive files, tried in order (BFQ
 * with its debug files, BFQ, CFQ, the throttle policy's, then the throttle policy's own
 * non-recursive ones); the first group whose first file has an entry is read, up to its first
 * file without one. A line is "MAJ:MIN OP VALUE" or "MAJ:MIN VALUE"; "Total N" is left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/cleanup.h"
#include "libct/cgroup/internal.h"

struct blkio_file {
	const char *name;
	enum ct_cgroup_blkio_list list;
};

#define GROUP_MAX 8
static const struct blkio_file groups[][GROUP_MAX] = {
	{{"blkio.bfq.sectors_recursive", CT_BLKIO_SECTORS},
	 {"blkio.bfq.io_service_time_recursive", CT_BLKIO_SERVICE_TIME},
	 {"blkio.bfq.io_wait_time_recursive", CT_BLKIO_WAIT_TIME},
	 {"blkio.bfq.io_merged_recursive", CT_BLKIO_MERGED},
	 {"blkio.bfq.io_queued_recursive", CT_BLKIO_QUEUED},
	 {"blkio.bfq.time_recursive", CT_BLKIO_TIME},
	 {"blkio.bfq.io_serviced_recursive", CT_BLKIO_SERVICED},
	 {"blkio.bfq.io_service_bytes_recursive", CT_BLKIO_SERVICE_BYTES}},
	{{"blkio.bfq.io_serviced_recursive", CT_BLKIO_SERVICED},
	 {"blkio.bfq.io_service_bytes_recursive", CT_BLKIO_SERVICE_BYTES}},
	{{"blkio.sectors_recursive", CT_BLKIO_SECTORS},
	 {"blkio.io_service_time_recursive", CT_BLKIO_SERVICE_TIME},
	 {"blkio.io_wait_time_recursive", CT_BLKIO_WAIT_TIME},
	 {"blkio.io_merged_recursive", CT_BLKIO_MERGED},
	 {"blkio.io_queued_recursive", CT_BLKIO_QUEUED},
	 {"blkio.time_recursive", CT_BLKIO_TIME},
	 {"blkio.io_serviced_recursive", CT_BLKIO_SERVICED},
	 {"blkio.io_service_bytes_recursive", CT_BLKIO_SERVICE_BYTES}},
	{{"blkio.throttle.io_serviced_recursive", CT_BLKIO_SERVICED},
	 {"blkio.throttle.io_service_bytes_recursive", CT_BLKIO_SERVICE_BYTES}},
	{{"blkio.throttle.io_serviced", CT_BLKIO_SERVICED},
	 {"blkio.throttle.io_service_bytes", CT_BLKIO_SERVICE_BYTES}},
};

/* One line into e: false for "Total N" and anything else that is no device's. */
static bool parse_line(const char *line, struct ct_cgroup_blkio_entry *e)
{
	unsigned long long major, minor, v;
	char op[sizeof(e->op)];
	*e = (struct ct_cgroup_blkio_entry){0};
	if (sscanf(line, "%llu:%llu %15s %llu", &major, &minor, op, &v) == 4)
		snprintf(e->op, sizeof(e->op), "%s", op);
	else if (sscanf(line, "%llu:%llu %llu", &major, &minor, &v) != 3)
		return false;
	e->major = major;
	e->minor = minor;
	e->value = v;
	return true;
}

/* The entries of dir/file into list (left empty when the file is missing or has none). */
static int read_file(const char *dir, const char *file, struct ct_cgroup_stats *st,
		     enum ct_cgroup_blkio_list list)
{
	_cleanup_free_ char *text = ct_cg_read(dir, file);
	char *save = NULL;
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct ct_cgroup_blkio_entry e;
		if (!parse_line(line, &e))
			continue;
		size_t n = st->blkio[list].n;
		struct ct_cgroup_blkio_entry *grown =
			realloc(st->blkio[list].entries, (n + 1) * sizeof(*grown));
		if (!grown)
			return -1;
		st->blkio[list].entries = grown;
		grown[st->blkio[list].n++] = e;
	}
	return 0;
}

int ct_cg_blkio_v1_stats(const char *dir, struct ct_cgroup_stats *st)
{
	st->has_blkio = true;
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		for (size_t i = 0; i < GROUP_MAX && groups[g][i].name; i++) {
			enum ct_cgroup_blkio_list list = groups[g][i].list;
			if (read_file(dir, groups[g][i].name, st, list) < 0)
				return -1;
			if (!st->blkio[list].n && i == 0)
				break; /* the next group */
			if (!st->blkio[list].n)
				return 0;
		}
		if (st->blkio[groups[g][0].list].n)
			return 0;
	}
	return 0;
}
