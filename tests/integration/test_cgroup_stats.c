/* `events --stats` of a running container, key by key against what runc 1.1.5 prints for the
 * same container on this host (runc's types.Stats: its keys, their JSON types, Go's omitempty),
 * on the host's cgroup v1 hierarchies and in a cgroup2 view (/sys/fs/cgroup a cgroup2 mount in
 * ctrun's own mount namespace). The key sets below are what runc printed here; a key that
 * only a nonzero value brings (omitempty) is optional. The cpuset lists are checked against
 * the container's own cpuset files, read inside it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/cgroup.h"

TestSuite(cgroup_stats, .fini = cgt_cleanup);

/* "PATH TYPE" of a key: arrays' elements as PATH[], the keys of runc's maps (memory.raw,
 * hugetlb) as PATH.* */
struct shape {
	char **lines; /* NULL-terminated */
	size_t n;
};

static const char *type_name(yajl_val v)
{
	return YAJL_IS_OBJECT(v)   ? "object"
	       : YAJL_IS_ARRAY(v)  ? "array"
	       : YAJL_IS_NUMBER(v) ? "number"
	       : YAJL_IS_STRING(v) ? "string"
	       : YAJL_IS_NULL(v)   ? "null"
				   : "bool";
}

static void add_line(struct shape *s, const char *path, yajl_val v)
{
	char *line;
	cr_assert(asprintf(&line, "%s %s", path, type_name(v)) > 0);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->lines[i], line)) {
			free(line);
			return;
		}
	s->lines = realloc(s->lines, (s->n + 2) * sizeof(*s->lines));
	cr_assert_not_null(s->lines);
	s->lines[s->n++] = line;
	s->lines[s->n] = NULL;
}

static void walk(struct shape *s, const char *path, yajl_val v)
{
	char child[512];
	add_line(s, path, v);
	bool map = !strcmp(path, ".data.memory.raw") || !strcmp(path, ".data.hugetlb");
	for (size_t i = 0; YAJL_IS_OBJECT(v) && i < v->u.object.len; i++) {
		snprintf(child, sizeof(child), "%s.%s", path, map ? "*" : v->u.object.keys[i]);
		walk(s, child, v->u.object.values[i]);
	}
	for (size_t i = 0; YAJL_IS_ARRAY(v) && i < v->u.array.len; i++) {
		snprintf(child, sizeof(child), "%s[]", path);
		walk(s, child, v->u.array.values[i]);
	}
}

static bool listed(const char *const *list, const char *line)
{
	for (; *list; list++)
		if (!strcmp(*list, line))
			return true;
	return false;
}

/* Every required line is in the record, every line of the record is required or optional. */
static void assert_shape(yajl_val record, const char *const *required, const char *const *optional,
			 const char *text)
{
	struct shape s = {0};
	walk(&s, "", record);
	for (const char *const *r = required; *r; r++)
		cr_expect(listed((const char *const *)s.lines, *r), "missing \"%s\" in %s", *r,
			  text);
	for (size_t i = 0; i < s.n; i++) {
		cr_expect(listed(required, s.lines[i]) || listed(optional, s.lines[i]),
			  "runc 1.1.5 prints no \"%s\": %s", s.lines[i], text);
		free(s.lines[i]);
	}
	free(s.lines);
}

#define MEMORY_ENTRY(name)                                                    \
	".data.memory." name " object", ".data.memory." name ".limit number", \
		".data.memory." name ".failcnt number"
#define MEMORY_ENTRY_OPTIONAL(name) \
	".data.memory." name ".usage number", ".data.memory." name ".max number"
#define BLKIO_LIST(name)                                                                      \
	".data.blkio." name " array", ".data.blkio." name "[] object",                        \
		".data.blkio." name "[].major number", ".data.blkio." name "[].minor number", \
		".data.blkio." name "[].op string", ".data.blkio." name "[].value number"

/* In both layouts. */
#define COMMON_REQUIRED                                                                          \
	" object", ".type string", ".id string", ".data object", ".data.cpu object",             \
		".data.cpu.usage object", ".data.cpu.usage.total number",                        \
		".data.cpu.usage.kernel number", ".data.cpu.usage.user number",                  \
		".data.cpu.throttling object", ".data.cpuset object",                            \
		".data.cpuset.cpu_exclusive number", ".data.cpuset.mem_hardwall number",         \
		".data.cpuset.mem_exclusive number", ".data.cpuset.memory_migrate number",       \
		".data.cpuset.memory_spread_page number",                                        \
		".data.cpuset.memory_spread_slab number", ".data.cpuset.memory_pressure number", \
		".data.cpuset.sched_load_balance number",                                        \
		".data.cpuset.sched_relax_domain_level number", ".data.memory object",           \
		MEMORY_ENTRY("usage"), MEMORY_ENTRY("swap"), MEMORY_ENTRY("kernel"),             \
		MEMORY_ENTRY("kernelTCP"), ".data.pids object", ".data.pids.current number",     \
		".data.blkio object", ".data.hugetlb object", ".data.intel_rdt object",          \
		".data.network_interfaces null"

/* omitempty keys: there when their value is not 0 (or the list not empty) */
#define COMMON_OPTIONAL                                                                            \
	".data.cpu.throttling.periods number", ".data.cpu.throttling.throttledPeriods number",     \
		".data.cpu.throttling.throttledTime number", ".data.memory.cache number",          \
		MEMORY_ENTRY_OPTIONAL("usage"), MEMORY_ENTRY_OPTIONAL("swap"),                     \
		MEMORY_ENTRY_OPTIONAL("kernel"), MEMORY_ENTRY_OPTIONAL("kernelTCP"),               \
		".data.memory.raw object", ".data.memory.raw.* number", ".data.pids.limit number", \
		BLKIO_LIST("ioServiceBytesRecursive"), BLKIO_LIST("ioServicedRecursive"),          \
		".data.hugetlb.* object", ".data.hugetlb.*.usage number",                          \
		".data.hugetlb.*.max number", ".data.hugetlb.*.failcnt number"

/* runc on the v1 hierarchies: the per-cpu lists of cpuacct and the cpuset lists too. */
static const char *const v1_required[] = {COMMON_REQUIRED,
					  ".data.cpu.usage.percpu array",
					  ".data.cpu.usage.percpu[] number",
					  ".data.cpu.usage.percpu_kernel array",
					  ".data.cpu.usage.percpu_kernel[] number",
					  ".data.cpu.usage.percpu_user array",
					  ".data.cpu.usage.percpu_user[] number",
					  ".data.cpuset.cpus array",
					  ".data.cpuset.cpus[] number",
					  ".data.cpuset.mems array",
					  ".data.cpuset.mems[] number",
					  ".data.memory.raw object",
					  ".data.memory.raw.* number",
					  NULL};
static const char *const v1_optional[] = {COMMON_OPTIONAL, NULL};

/* runc 1.1.5 on cgroup2: cpu.stat's three times, no per-cpu or cpuset lists (its cpuset
 * fields stay 0), a hugetlb entry per page size. */
static const char *const v2_required[] = {COMMON_REQUIRED, NULL};
static const char *const v2_optional[] = {COMMON_OPTIONAL, NULL};

/* The container's script: its cpuset files as it sees them, a write that reaches the disk
 * (blkio entries where the root is on a block device), then /ready, then two sleeps. */
#define CPUSET_INSIDE                                                                           \
	"dd if=/dev/zero of=/written bs=4096 count=16 conv=fsync 2>/dev/null; "                 \
	"cat /sys/fs/cgroup/cpuset/cpuset.cpus > /cpus; cat /sys/fs/cgroup/cpuset/cpuset.mems " \
	"> /mems; sleep 1000 & until grep -qx sleep /proc/$!/comm 2>/dev/null; do :; done; "    \
	": > /ready; wait"

static yajl_val stats_of_running(struct lc *t, const char *id, const char *const *wrapper,
				 const char *script, char **text)
{
	lc_init(t);
	ctt_config_set(t->bundle, ".root.readonly", "false");
	t->wrapper = wrapper;
	cgt_run_ready(t, id, script);
	struct ctt_result r;
	lc_ctrun(&r, t, "events", "--stats", id);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.err);
	cr_expect_eq(ctt_count_lines(r.out), 1, "%s", r.out);
	yajl_val v = ctt_json_parse(r.out, "events --stats");
	*text = strdup(r.out);
	ctt_result_free(&r);
	return v;
}

/* The kernel's list text ("0-1,3") expanded, as a JSON array's text ("[0,1,3]"). */
static char *expanded(const char *list)
{
	char *out = NULL, *tok, *save = NULL, *copy = strdup(list);
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	const char *sep = "";
	fputc('[', f);
	for (tok = strtok_r(copy, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		unsigned a, b;
		int n = sscanf(tok, "%u-%u", &a, &b);
		cr_assert(n >= 1, "bad list %s", list);
		for (unsigned c = a; c <= (n == 2 ? b : a); c++, sep = ",")
			fprintf(f, "%s%u", sep, c);
	}
	fputc(']', f);
	fclose(f);
	free(copy);
	return out;
}

static void assert_list_matches_inside(const struct lc *t, yajl_val v, const char *path,
				       const char *file)
{
	char *inside_path = lc_rootfs_path(t, file), *inside = ctt_read_file(inside_path);
	char *want = expanded(inside), *got = ctt_json_text(ctt_json_get(v, path));
	cr_expect_str_eq(got, want, "%s: the container's cpuset file says \"%s\"", path, inside);
	free(got);
	free(want);
	free(inside);
	free(inside_path);
}

/* As many blkio entries as the container's blkio.throttle files have device lines (read from
 * outside), in runc's two lists. */
static void assert_blkio_entries(yajl_val v, const char *id, const char *text)
{
	static const char *const files[][2] = {
		{"blkio.throttle.io_service_bytes_recursive",
		 ".data.blkio.ioServiceBytesRecursive"},
		{"blkio.throttle.io_serviced_recursive", ".data.blkio.ioServicedRecursive"},
	};
	char *rel = cgt_rel(id), *dir = cgt_dir("blkio", rel);
	for (size_t i = 0; dir && i < 2; i++) {
		char *path = ctt_path(dir, files[i][0]), *content = ctt_read_file(path);
		long lines = 0;
		for (char *p = content; (p = strchr(p, ':')); p++)
			lines++;
		cr_expect_eq(ctt_json_len(v, files[i][1]), lines ? lines : -1, "%s: %s\n%s",
			     files[i][0], content, text);
		free(content);
		free(path);
	}
	free(dir);
	free(rel);
}

/* The cpu times in ns as cpuacct has them (the container sleeps: they stand still), read
 * from outside. */
static void assert_cpu_times(yajl_val v, const char *id, const char *text)
{
	static const char *const files[][2] = {
		{"cpuacct.usage_user", ".data.cpu.usage.user"},
		{"cpuacct.usage_sys", ".data.cpu.usage.kernel"},
		{"cpuacct.usage_percpu_user", ".data.cpu.usage.percpu_user"},
		{"cpuacct.usage_percpu_sys", ".data.cpu.usage.percpu_kernel"},
	};
	char *rel = cgt_rel(id), *dir = cgt_dir("cpuacct", rel);
	for (size_t i = 0; dir && i < 4; i++) {
		char *want = cgt_read(dir, files[i][0]),
		     *got = ctt_json_text(ctt_json_get(v, files[i][1]));
		for (char *c = want; *c; c++)
			*c = *c == ' ' ? ',' : *c;
		want[strcspn(want, "\n")] = '\0';
		if (want[0] && want[strlen(want) - 1] == ',')
			want[strlen(want) - 1] = '\0';
		char *bracketed = NULL;
		cr_assert(asprintf(&bracketed, "[%s]", want) > 0);
		cr_expect(!strcmp(got, want) || !strcmp(got, bracketed), "%s: \"%s\", %s: %s",
			  files[i][0], want, files[i][1], text);
		free(bracketed);
		free(got);
		free(want);
	}
	free(dir);
	free(rel);
}

Test(cgroup_stats, v1_keys_are_runcs)
{
	char *cpuset = cgt_dir("cpuset", ""), *cpuacct = cgt_dir("cpuacct", "");
	bool v1 = cpuset && cpuacct;
	free(cpuset);
	free(cpuacct);
	if (!v1)
		ctt_skip("no v1 cpuset and cpuacct hierarchies here");
	struct lc t;
	char *text;
	yajl_val v = stats_of_running(&t, "st1", NULL, CPUSET_INSIDE, &text);
	assert_shape(v, v1_required, v1_optional, text);
	assert_list_matches_inside(&t, v, ".data.cpuset.cpus", "cpus");
	assert_list_matches_inside(&t, v, ".data.cpuset.mems", "mems");
	cr_expect_eq(ctt_json_get_int(v, ".data.pids.current"), 2, "%s", text);
	long ncpu = ctt_json_len(v, ".data.cpu.usage.percpu");
	cr_expect_gt(ncpu, 0, "%s", text);
	cr_expect_eq(ctt_json_len(v, ".data.cpu.usage.percpu_kernel"), ncpu, "%s", text);
	cr_expect_eq(ctt_json_len(v, ".data.cpu.usage.percpu_user"), ncpu, "%s", text);
	assert_blkio_entries(v, "st1", text);
	assert_cpu_times(v, "st1", text);
	lc_ok(&t, "delete", "--force", "st1");
	yajl_tree_free(v);
	free(text);
}

/* The page sizes /sys/kernel/mm/hugepages lists. */
static long count_page_sizes(void)
{
	struct ctt_result r;
	ctt_run(&r, NULL,
		(const char *const[]){"sh", "-c",
				      "ls /sys/kernel/mm/hugepages | grep -c '^hugepages-'", NULL});
	long n = atol(r.out);
	ctt_result_free(&r);
	return n;
}

/* An entry per page size when the container's cgroup2 directory has the hugetlb controller
 * (read from outside), as runc gives; none without it. */
static void assert_hugetlb_entries(yajl_val v, const char *id, const char *text)
{
	char *rel = cgt_rel(id), *dir = cgt_dir("", rel),
	     *controllers = cgt_read(dir, "cgroup.controllers");
	bool hugetlb = strstr(controllers, "hugetlb") != NULL;
	cr_expect_eq(ctt_json_len(v, ".data.hugetlb"), hugetlb ? count_page_sizes() : 0,
		     "controllers \"%s\": %s", controllers, text);
	free(controllers);
	free(dir);
	free(rel);
}

/* ctrun sees only cgroup2: its unified driver, in the machine's cgroup2 hierarchy. */
static const char *const cgroup2_view[] = {
	"unshare",
	"-m",
	"--propagation",
	"private",
	"sh",
	"-c",
	"mount -t cgroup2 cgroup2 /sys/fs/cgroup && exec \"$0\" \"$@\"",
	NULL};

Test(cgroup_stats, cgroup2_keys_are_runcs)
{
	char *unified = cgt_dir("", "");
	if (!unified)
		ctt_skip("no cgroup2 hierarchy here");
	free(unified);
	struct lc t;
	char *text;
	yajl_val v = stats_of_running(
		&t, "st2", cgroup2_view,
		"sleep 1000 & until grep -qx sleep /proc/$!/comm 2>/dev/null; do :; done; "
		": > /ready; wait",
		&text);
	assert_shape(v, v2_required, v2_optional, text);
	cr_expect_eq(ctt_json_get_int(v, ".data.pids.current"), 2, "%s", text);
	cr_expect_eq(ctt_json_get_int(v, ".data.cpuset.sched_load_balance"), 0, "%s", text);
	assert_hugetlb_entries(v, "st2", text);
	lc_ok(&t, "delete", "--force", "st2");
	yajl_tree_free(v);
	free(text);
}
