/* `ctrun list [--format table|json] [-q]`: runc's columns and JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#include "libct/base/cleanup.h"
#include "libct/base/pathbuf.h"
#include "libct/lifecycle/container.h"
#include "runtime/flags.h"
#include "runtime/json_out.h"
#include "runtime/log.h"
#include "runtime/passwd.h"

enum column { COL_ID, COL_PID, COL_STATUS, COL_BUNDLE, COL_CREATED, COL_OWNER, NCOLUMNS };

static const char *const column_titles[NCOLUMNS] = {"ID",     "PID",	 "STATUS",
						    "BUNDLE", "CREATED", "OWNER"};

/* One container: its cells point into its state or into the buffers beside them. */
struct row {
	const char *cell[NCOLUMNS];
	size_t len[NCOLUMNS];
	char owner[64], pid[CT_DEC_MAX];
};

static void measure_cells(struct row *r)
{
	for (int col = 0; col < NCOLUMNS; col++)
		r->len[col] = strlen(r->cell[col]);
}

/* The owner of the previous row: containers mostly share one, looked up once. */
struct owner_cache {
	bool known;
	uid_t uid;
	char name[64];
};

static void owner_name(struct owner_cache *c, uid_t uid, char name[64])
{
	if (!c->known || c->uid != uid) {
		ct_owner_name(uid, c->name, sizeof(c->name));
		c->uid = uid;
		c->known = true;
	}
	memcpy(name, c->name, sizeof(c->name));
}

/* Reads one container into `st` (the caller's to free); a container being created or
 * removed meanwhile is skipped. */
static int read_row(int rootfd, const char *id, struct row *r, struct ct_state *st,
		    struct owner_cache *owners)
{
	struct ct_error err = {0};
	enum ct_status status;
	if (ct_container_peek(rootfd, id, st, &status, &err) < 0)
		return -1;
	/* only the status needed them: the next container's strings take their place */
	ct_state_drop_cgroup_paths(st);
	ct_format_dec(r->pid, status == CT_STATUS_STOPPED ? 0 : (uint64_t)st->pid);
	owner_name(owners, st->owner, r->owner);
	r->cell[COL_ID] = st->id;
	r->cell[COL_PID] = r->pid;
	r->cell[COL_STATUS] = ct_status_name(status);
	r->cell[COL_BUNDLE] = st->bundle;
	r->cell[COL_CREATED] = st->created;
	r->cell[COL_OWNER] = r->owner;
	measure_cells(r);
	return 0;
}

/* One line of the table at p: every cell but the last padded to its column's width. */
static char *put_row(char *p, const struct row *r, const size_t *width)
{
	for (int col = 0; col < NCOLUMNS; col++) {
		memcpy(p, r->cell[col], r->len[col]);
		p += r->len[col];
		if (col < NCOLUMNS - 1) {
			memset(p, ' ', width[col] - r->len[col]);
			p += width[col] - r->len[col];
		}
	}
	*p++ = '\n';
	return p;
}

/* runc's tabwriter: columns padded by 3, at least 12 wide, the last one not padded. Laid
 * out in one buffer and written once: a printf per cell was a tenth of list's time. */
static int print_table(const struct row *rows, size_t n)
{
	struct row titles;
	memcpy(titles.cell, column_titles, sizeof(titles.cell));
	measure_cells(&titles);
	size_t width[NCOLUMNS], line = 1;
	for (int col = 0; col < NCOLUMNS; col++) {
		size_t w = titles.len[col];
		for (size_t i = 0; i < n; i++)
			if (rows[i].len[col] > w)
				w = rows[i].len[col];
		width[col] = w + 3 > 12 ? w + 3 : 12;
		line += width[col];
	}
	_cleanup_free_ char *out = malloc(line * (n + 1));
	if (!out)
		return -1;
	char *end = put_row(out, &titles, width);
	for (size_t i = 0; i < n; i++)
		end = put_row(end, &rows[i], width);
	fwrite(out, 1, (size_t)(end - out), stdout);
	return 0;
}

/* runc's "annotations", left out when empty; state.json keeps them sorted by key. */
static void gen_annotations(yajl_gen gen, const oci_string_map *map)
{
	if (!map->len)
		return;
	ct_json_key(gen, "annotations");
	yajl_gen_map_open(gen);
	for (size_t i = 0; i < map->len; i++)
		ct_json_str(gen, map->items[i].key, map->items[i].value);
	yajl_gen_map_close(gen);
}

static void print_json(const struct row *rows, const struct ct_state *states, size_t n)
{
	yajl_gen gen = yajl_gen_alloc(NULL);
	yajl_gen_array_open(gen);
	for (size_t i = 0; i < n; i++) {
		yajl_gen_map_open(gen);
		ct_json_str(gen, "ociVersion",
			    states[i].oci_version ? states[i].oci_version : "1.3.0");
		ct_json_str(gen, "id", rows[i].cell[COL_ID]);
		ct_json_int(gen, "pid", atoi(rows[i].pid));
		ct_json_str(gen, "status", rows[i].cell[COL_STATUS]);
		ct_json_str(gen, "bundle", rows[i].cell[COL_BUNDLE]);
		ct_json_str(gen, "rootfs", states[i].rootfs);
		ct_json_str(gen, "created", rows[i].cell[COL_CREATED]);
		gen_annotations(gen, &states[i].annotations);
		ct_json_str(gen, "owner", rows[i].owner);
		yajl_gen_map_close(gen);
	}
	yajl_gen_array_close(gen);
	ct_json_print(gen);
}

int cmd_list(const struct ct_globals *g, int argc, char **argv)
{
	bool quiet = false, json = false;
	const struct ct_flag flags[] = {
		{"format", 'f', CT_FLAG_FORMAT, &json},
		{"quiet", 'q', CT_FLAG_TRUE, &quiet},
		{NULL},
	};
	const struct ct_command_line line = {"[--format table|json] [-q]", flags, 0, 0};
	int parsed = ct_parse_command_line(argc, argv, &line);
	if (parsed)
		return parsed < 0;
	/* the whole listing leaves in one write (musl's stdout buffer is 1 KiB: a write per 10
	 * rows); before the first output, as setvbuf requires */
	static char out[64 * 1024];
	setvbuf(stdout, out, _IOFBF, sizeof(out));
	struct ct_error err = {0};
	char **ids = NULL;
	size_t n = 0;
	/* no state root yet: no containers */
	_cleanup_close_ int rootfd = ct_state_root_open(g->lc.root, false, &err);
	if (rootfd >= 0 && ct_state_list_ids(rootfd, &ids, &n, &err) < 0) {
		ct_log(CT_LOG_ERROR, "list: %s", err.msg);
		return 1;
	}
	struct row *rows = calloc(n + 1, sizeof(*rows));
	struct ct_state *states = calloc(n + 1, sizeof(*states));
	size_t found = 0;
	struct owner_cache owners = {0};
	for (size_t i = 0; rows && states && i < n; i++)
		if (read_row(rootfd, ids[i], &rows[found], &states[found], &owners) == 0)
			found++;
	int ret = rows && states ? 0 : -1;
	if (ret == 0 && quiet)
		for (size_t i = 0; i < found; i++)
			printf("%s\n", rows[i].cell[COL_ID]);
	else if (ret == 0 && json)
		print_json(rows, states, found);
	else if (ret == 0)
		ret = print_table(rows, found);
	if (ret < 0)
		ct_log(CT_LOG_ERROR, "list: %s", strerror(ENOMEM));
	for (size_t i = 0; i < found; i++)
		ct_state_free(&states[i]);
	free(rows);
	free(states);
	ct_state_free_ids(ids, n);
	return ret < 0;
}
