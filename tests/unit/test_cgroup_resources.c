/* The resource table of libct/cgroup/resources.c through ct_cgroup_apply(): a config's
 * linux.resources written into a fake cgroup tree (empty files in a temporary directory,
 * one directory per v1 hierarchy, one for v2) and read back, so every row's file and value
 * is checked for both versions without a kernel. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/cgroup/cgroup.h"
#include "libct/cgroup/zero_unset.h"
#include "oci/config.h"

static const char *const v1_hierarchies[] = {"memory", "cpu,cpuacct", "cpuset",
					     "pids",   "blkio",	      "rdma"};

static const char *const v1_files[] = {
	"memory/memory.limit_in_bytes",
	"memory/memory.memsw.limit_in_bytes",
	"memory/memory.soft_limit_in_bytes",
	"memory/memory.swappiness",
	"memory/memory.oom_control",
	"memory/memory.kmem.tcp.limit_in_bytes",
	"cpu,cpuacct/cpu.shares",
	"cpu,cpuacct/cpu.cfs_period_us",
	"cpu,cpuacct/cpu.cfs_quota_us",
	"cpu,cpuacct/cpu.cfs_burst_us",
	"cpu,cpuacct/cpu.rt_period_us",
	"cpu,cpuacct/cpu.rt_runtime_us",
	"cpu,cpuacct/cpu.idle",
	"cpuset/cpuset.cpus",
	"cpuset/cpuset.mems",
	"pids/pids.max",
	"blkio/blkio.bfq.weight",
	"blkio/blkio.throttle.read_bps_device",
	"rdma/rdma.max",
};

static const char *const v2_files[] = {
	"memory.max",	 "memory.swap.max", "memory.low",  "cpu.weight",  "cpu.max",
	"cpu.max.burst", "cpu.idle",	    "cpuset.cpus", "cpuset.mems", "pids.max",
	"io.weight",	 "io.max",	    "rdma.max",	   "memory.high", "hugetlb.2MB.max",
};

struct fake {
	char *root;
	struct ct_cgroup cg;
	struct oci_config *config;
	char warnings[2048];
};

static struct fake *current;

static void record_warning(const char *msg)
{
	size_t n = strlen(current->warnings);
	snprintf(current->warnings + n, sizeof(current->warnings) - n, "%s\n", msg);
}

static void touch(const char *root, const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0, "%s: %s", path, strerror(errno));
	close(fd);
}

static void add_dir(struct fake *f, const char *key, const char *sub)
{
	struct ct_cgroup_dir *d = &f->cg.dirs[f->cg.n_dirs++];
	d->key = strdup(key);
	cr_assert_geq(asprintf(&d->path, "%s/%s", f->root, sub), 0);
	mkdir(d->path, 0755);
	/* the files are written through the directory's fd, as after ct_cgroup_create */
	d->fd = open(d->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(d->fd, 0, "%s: %s", d->path, strerror(errno));
}

static void fake_make(struct fake *f, bool v2)
{
	memset(f, 0, sizeof(*f));
	current = f;
	char tmpl[] = "/tmp/ctrun-cgfake.XXXXXX";
	cr_assert_not_null(mkdtemp(tmpl));
	f->root = strdup(tmpl);
	f->cg.unified_fd = -1;
	f->cg.warn = record_warning;
	f->cg.dirs = calloc(8, sizeof(*f->cg.dirs));
	if (v2) {
		f->cg.ops = &ct_cgroup_v2_ops;
		add_dir(f, CT_CGROUP_UNIFIED_KEY, "unified");
		for (size_t i = 0; i < sizeof(v2_files) / sizeof(v2_files[0]); i++) {
			char rel[128];
			snprintf(rel, sizeof(rel), "unified/%s", v2_files[i]);
			touch(f->root, rel);
		}
		return;
	}
	f->cg.ops = &ct_cgroup_v1_ops;
	for (size_t i = 0; i < sizeof(v1_hierarchies) / sizeof(v1_hierarchies[0]); i++)
		add_dir(f, v1_hierarchies[i], v1_hierarchies[i]);
	for (size_t i = 0; i < sizeof(v1_files) / sizeof(v1_files[0]); i++)
		touch(f->root, v1_files[i]);
}

static int fake_apply(struct fake *f, const char *resources, struct ct_error *err)
{
	char doc[4096];
	snprintf(doc, sizeof(doc),
		 "{\"ociVersion\": \"1.2.0\", \"root\": {\"path\": \"rootfs\"}, "
		 "\"linux\": {\"resources\": %s}}",
		 resources);
	struct ct_error perr = {0};
	cr_assert_eq(oci_config_parse(doc, NULL, &f->config, &perr), 0, "%s", perr.msg);
	/* as the runtime does before every apply, at create and at update */
	ct_cgroup_forget_unset(&f->config->linux_.resources);
	/* update: no device rules to write, so nothing but the table runs */
	return ct_cgroup_apply(&f->cg, &f->config->linux_.resources, CT_CGROUP_APPLY_UPDATE, err);
}

static void assert_content(const struct fake *f, const char *rel, const char *want)
{
	char path[512], buf[256] = "";
	snprintf(path, sizeof(path), "%s/%s", f->root, rel);
	FILE *fp = fopen(path, "re");
	cr_assert_not_null(fp, "%s", path);
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	cr_expect_str_eq(buf, want, "%s", rel);
}

static void fake_free(struct fake *f)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	cr_expect_eq(system(cmd), 0);
	for (size_t i = 0; i < f->cg.n_dirs; i++) {
		free(f->cg.dirs[i].key);
		free(f->cg.dirs[i].path);
		close(f->cg.dirs[i].fd);
	}
	free(f->cg.dirs);
	free(f->root);
	oci_config_free(f->config);
}

static const char every_table_row[] =
	"{\"memory\": {\"limit\": 67108864, \"swap\": 100663296, \"reservation\": 1048576,"
	"  \"swappiness\": 20, \"disableOOMKiller\": true},"
	" \"cpu\": {\"shares\": 1024, \"quota\": 25000, \"period\": 50000, \"burst\": 1000,"
	"  \"idle\": 1, \"cpus\": \"0-1\", \"mems\": \"0\"},"
	" \"pids\": {\"limit\": -1},"
	" \"blockIO\": {\"weight\": 500, \"throttleReadBpsDevice\": [{\"major\": 8, \"minor\": 0,"
	"  \"rate\": 1048576}]},"
	" \"rdma\": {\"mlx5_1\": {\"hcaHandles\": 3}}}";

/* Every row of the table applied to a fake hierarchy (v2 or v1). */
static void apply_every_row(struct fake *f, bool v2)
{
	fake_make(f, v2);
	struct ct_error err = {0};
	cr_assert_eq(fake_apply(f, every_table_row, &err), 0, "%s", err.msg);
}

/* What every_table_row writes: the file under the fake root (v1: the controller's
 * directory; v2: unified/) and its content. */
static const char *const written[][2] = {
	{"memory/memory.limit_in_bytes", "67108864"},
	{"memory/memory.memsw.limit_in_bytes", "100663296"},
	{"memory/memory.soft_limit_in_bytes", "1048576"},
	{"memory/memory.swappiness", "20"},
	{"memory/memory.oom_control", "1"},
	{"cpu,cpuacct/cpu.shares", "1024"},
	{"cpu,cpuacct/cpu.cfs_period_us", "50000"},
	{"cpu,cpuacct/cpu.cfs_quota_us", "25000"},
	{"cpu,cpuacct/cpu.cfs_burst_us", "1000"},
	{"cpu,cpuacct/cpu.idle", "1"},
	{"cpuset/cpuset.cpus", "0-1"},
	{"pids/pids.max", "max"},
	{"blkio/blkio.bfq.weight", "500"},
	{"blkio/blkio.throttle.read_bps_device", "8:0 1048576"},
	{"rdma/rdma.max", "mlx5_1 hca_handle=3 hca_object=max"},
	{"unified/memory.max", "67108864"},
	{"unified/memory.swap.max", "33554432"},
	{"unified/memory.low", "1048576"},
	{"unified/cpu.weight", "39"},
	{"unified/cpu.max", "25000 50000"},
	{"unified/cpu.max.burst", "1000"},
	{"unified/cpuset.cpus", "0-1"},
	{"unified/pids.max", "max"},
	{"unified/io.weight", "4950"},
	{"unified/io.max", "8:0 rbps=1048576"},
	{"unified/rdma.max", "mlx5_1 hca_handle=3 hca_object=max"},
};

/* Applies every row to a fake hierarchy of the version and checks each file it writes. */
static void assert_every_row_written(struct fake *f, bool v2)
{
	apply_every_row(f, v2);
	for (size_t i = 0; i < sizeof(written) / sizeof(written[0]); i++)
		if ((strncmp(written[i][0], "unified/", 8) == 0) == v2)
			assert_content(f, written[i][0], written[i][1]);
}

Test(cgroup_resources, v1_files_and_values)
{
	struct fake f;
	assert_every_row_written(&f, false);
	fake_free(&f);
}

Test(cgroup_resources, v2_files_and_converted_values)
{
	struct fake f;
	assert_every_row_written(&f, true);
	/* v2 has no swappiness nor OOM-killer switch: said, not written */
	cr_expect(strstr(f.warnings, ".memory.swappiness: not supported on cgroup v2"), "%s",
		  f.warnings);
	cr_expect(strstr(f.warnings, ".memory.disableOOMKiller: not supported on cgroup v2"), "%s",
		  f.warnings);
	fake_free(&f);
}

/* runc 1.1.5's reading of each field's 0 (and of its other "not set" values), field by
 * field, as found by running it: "" in want is a file left alone, anything else what is
 * written. The fake files start empty. */
struct zero_case {
	const char *resources;
	const char *file[2]; /* [0] v1, [1] v2; NULL: no file of that version to check */
	const char *want[2];
};

static const struct zero_case zero_cases[] = {
	{"{\"memory\": {\"limit\": 0}}",
	 {"memory/memory.limit_in_bytes", "unified/memory.max"},
	 {"", ""}},
	{"{\"memory\": {\"reservation\": 0}}",
	 {"memory/memory.soft_limit_in_bytes", "unified/memory.low"},
	 {"", ""}},
	{"{\"memory\": {\"swap\": 0}}",
	 {"memory/memory.memsw.limit_in_bytes", "unified/memory.swap.max"},
	 {"", ""}},
	{"{\"memory\": {\"kernel\": 0, \"kernelTCP\": 0}}",
	 {"memory/memory.kmem.tcp.limit_in_bytes", NULL},
	 {"", NULL}},
	{"{\"memory\": {\"swappiness\": 0}}", {"memory/memory.swappiness", NULL}, {"0", NULL}},
	{"{\"memory\": {\"swappiness\": 18446744073709551615}}",
	 {"memory/memory.swappiness", NULL},
	 {"", NULL}},
	{"{\"cpu\": {\"shares\": 0}}", {"cpu,cpuacct/cpu.shares", "unified/cpu.weight"}, {"", ""}},
	{"{\"cpu\": {\"quota\": 0}}",
	 {"cpu,cpuacct/cpu.cfs_quota_us", "unified/cpu.max"},
	 {"", ""}},
	{"{\"cpu\": {\"period\": 0}}",
	 {"cpu,cpuacct/cpu.cfs_period_us", "unified/cpu.max"},
	 {"", ""}},
	/* v2: runc writes cpu.max when either is set, "max" for a quota not set */
	{"{\"cpu\": {\"quota\": 0, \"period\": 50000}}",
	 {"cpu,cpuacct/cpu.cfs_quota_us", "unified/cpu.max"},
	 {"", "max 50000"}},
	{"{\"cpu\": {\"realtimeRuntime\": 0, \"realtimePeriod\": 0}}",
	 {"cpu,cpuacct/cpu.rt_runtime_us", NULL},
	 {"", NULL}},
	{"{\"cpu\": {\"realtimeRuntime\": 0, \"realtimePeriod\": 0}}",
	 {"cpu,cpuacct/cpu.rt_period_us", NULL},
	 {"", NULL}},
	{"{\"cpu\": {\"cpus\": \"\", \"mems\": \"\"}}",
	 {"cpuset/cpuset.cpus", "unified/cpuset.mems"},
	 {"", ""}},
	{"{\"cpu\": {\"idle\": 0}}", {"cpu,cpuacct/cpu.idle", "unified/cpu.idle"}, {"0", "0"}},
	{"{\"pids\": {\"limit\": 0}}", {"pids/pids.max", "unified/pids.max"}, {"", ""}},
	{"{\"pids\": {\"limit\": -1}}", {"pids/pids.max", "unified/pids.max"}, {"max", "max"}},
	{"{\"blockIO\": {\"weight\": 0, \"leafWeight\": 0}}",
	 {"blkio/blkio.bfq.weight", "unified/io.weight"},
	 {"", ""}},
	{"{\"blockIO\": {\"weightDevice\": [{\"major\": 8, \"minor\": 0, \"weight\": 0, "
	 "\"leafWeight\": 0}]}}",
	 {"blkio/blkio.bfq.weight", "unified/io.weight"},
	 {"", ""}},
	/* a rate of 0 lifts the device's limit: written */
	{"{\"blockIO\": {\"throttleReadBpsDevice\": [{\"major\": 8, \"minor\": 0, \"rate\": "
	 "0}]}}",
	 {"blkio/blkio.throttle.read_bps_device", "unified/io.max"},
	 {"8:0 0", "8:0 rbps=max"}},
	{"{\"hugepageLimits\": [{\"pageSize\": \"2MB\", \"limit\": 0}]}",
	 {NULL, "unified/hugetlb.2MB.max"},
	 {NULL, "0"}},
	{"{\"rdma\": {\"mlx5_1\": {\"hcaHandles\": 0}}}",
	 {"rdma/rdma.max", "unified/rdma.max"},
	 {"mlx5_1 hca_handle=0 hca_object=max", "mlx5_1 hca_handle=0 hca_object=max"}},
	/* no net_cls hierarchy in the fake: a classID of 0 must not need one */
	{"{\"network\": {\"classID\": 0}}", {"pids/pids.max", "unified/pids.max"}, {"", ""}},
};

Test(cgroup_resources, zero_means_unset_as_runc_reads_it)
{
	for (size_t i = 0; i < sizeof(zero_cases) / sizeof(zero_cases[0]); i++)
		for (int v2 = 0; v2 <= 1; v2++) {
			const struct zero_case *c = &zero_cases[i];
			if (!c->file[v2])
				continue;
			struct fake f;
			fake_make(&f, v2);
			struct ct_error err = {0};
			cr_expect_eq(fake_apply(&f, c->resources, &err), 0, "v%d %s: %s", v2 + 1,
				     c->resources, err.msg);
			assert_content(&f, c->file[v2], c->want[v2]);
			fake_free(&f);
		}
}

/* runc 1.1.5 never writes memory.use_hierarchy, and this kernel refuses a 0 (memory cgroups
 * are hierarchical): true writes nothing and says nothing, false is a warning, on v1 and v2
 * alike. */
Test(cgroup_resources, use_hierarchy_is_never_written_as_in_runc)
{
	for (int v2 = 0; v2 <= 1; v2++) {
		/* v1's file, there to stay empty; v2 has none */
		static const char *const file[] = {"memory/memory.use_hierarchy", NULL};
		for (int value = 0; value <= 1; value++) {
			struct fake f;
			fake_make(&f, v2);
			if (file[v2])
				touch(f.root, file[v2]);
			char res[64];
			snprintf(res, sizeof(res), "{\"memory\": {\"useHierarchy\": %s}}",
				 value ? "true" : "false");
			struct ct_error err = {0};
			cr_expect_eq(fake_apply(&f, res, &err), 0, "v%d %s: %s", v2 + 1, res,
				     err.msg);
			if (file[v2])
				assert_content(&f, file[v2], "");
			if (value)
				cr_expect_str_eq(f.warnings, "", "v%d %s", v2 + 1, res);
			else
				cr_expect_str_eq(
					f.warnings,
					"config.json: .linux.resources.memory.useHierarchy: "
					"false: ignored (memory cgroups are hierarchical; "
					"runc ignores it too)\n",
					"v%d %s", v2 + 1, res);
			fake_free(&f);
		}
	}
}

/* Docker 20.10's resources for a container without limits, on a kernel without any blkio
 * weight file (this machine's): nothing to write, nothing refused. */
Test(cgroup_resources, docker_zeros_need_no_weight_file)
{
	for (int v2 = 0; v2 <= 1; v2++) {
		struct fake f;
		fake_make(&f, v2);
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", f.root,
			 v2 ? "unified/io.weight" : "blkio/blkio.bfq.weight");
		cr_assert_eq(unlink(path), 0, "%s", path);
		struct ct_error err = {0};
		cr_expect_eq(fake_apply(&f,
					"{\"memory\": {\"disableOOMKiller\": false}, \"cpu\": "
					"{\"shares\": 0}, \"blockIO\": {\"weight\": 0}}",
					&err),
			     0, "v%d: %s", v2 + 1, err.msg);
		assert_content(&f, v2 ? "unified/cpu.weight" : "cpu,cpuacct/cpu.shares", "");
		fake_free(&f);
	}
}

/* The presence flags themselves: an update's 0 must not replace what the container has. */
Test(cgroup_resources, forget_unset_clears_only_unset_values)
{
	struct oci_resources *r;
	struct ct_error err = {0};
	cr_assert_eq(
		oci_resources_parse(
			"{\"memory\": {\"limit\": 0, \"swap\": 1048576, \"swappiness\": 0},"
			" \"cpu\": {\"shares\": 0, \"quota\": -1, \"cpus\": \"\", \"idle\": 0},"
			" \"pids\": {\"limit\": 0}, \"network\": {\"classID\": 0},"
			" \"blockIO\": {\"weight\": 0, \"weightDevice\": [{\"major\": 8,"
			" \"minor\": 0, \"weight\": 0, \"leafWeight\": 10}]}}",
			"update.json", &r, &err),
		0, "%s", err.msg);
	ct_cgroup_forget_unset(r);
	cr_expect_not(r->memory.has_limit);
	cr_expect(r->memory.has_swap);
	cr_expect(r->memory.has_swappiness, "swappiness 0 is a value");
	cr_expect_not(r->cpu.has_shares);
	cr_expect(r->cpu.has_quota, "-1 lifts the quota");
	cr_expect_null(r->cpu.cpus);
	cr_expect(r->cpu.has_idle, "idle 0 is a value");
	cr_expect_not(r->has_pids);
	cr_expect_not(r->network.has_class_id);
	cr_expect_not(r->block_io.has_weight);
	cr_expect_not(r->block_io.weight_device.items[0].has_weight);
	cr_expect(r->block_io.weight_device.items[0].has_leaf_weight);
	oci_resources_free(r);
}

/* As runc: a memory value of 0 (what containerd's CRI sends for no limit) writes nothing,
 * on v1 and on v2, and the rest of the document still applies. */
Test(cgroup_resources, zero_memory_values_write_nothing)
{
	static const char zeros[] = "{\"memory\": {\"limit\": 0, \"swap\": 0, \"reservation\": 0},"
				    " \"cpu\": {\"shares\": 2}}";
	for (int v2 = 0; v2 <= 1; v2++) {
		struct fake f;
		fake_make(&f, v2);
		struct ct_error err = {0};
		cr_assert_eq(fake_apply(&f, zeros, &err), 0, "%s", err.msg);
		assert_content(&f, v2 ? "unified/memory.max" : "memory/memory.limit_in_bytes", "");
		assert_content(
			&f, v2 ? "unified/memory.swap.max" : "memory/memory.memsw.limit_in_bytes",
			"");
		assert_content(&f, v2 ? "unified/memory.low" : "memory/memory.soft_limit_in_bytes",
			       "");
		assert_content(&f, v2 ? "unified/cpu.weight" : "cpu,cpuacct/cpu.shares",
			       v2 ? "1" : "2");
		fake_free(&f);
	}
}

Test(cgroup_resources, v2_unified_keys_and_hugepages)
{
	struct fake f;
	fake_make(&f, true);
	struct ct_error err = {0};
	cr_assert_eq(
		fake_apply(&f,
			   "{\"unified\": {\"memory.high\": \"1000000\"}, "
			   "\"hugepageLimits\": [{\"pageSize\": \"2MB\", \"limit\": 4194304}]}",
			   &err),
		0, "%s", err.msg);
	assert_content(&f, "unified/memory.high", "1000000");
	assert_content(&f, "unified/hugetlb.2MB.max", "4194304");
	fake_free(&f);
}

static void assert_refused(bool v2, const char *resources, const char *needle)
{
	struct fake f;
	fake_make(&f, v2);
	struct ct_error err = {0};
	cr_expect_eq(fake_apply(&f, resources, &err), -1, "%s accepted", resources);
	cr_expect(strstr(err.msg, needle), "%s: %s", resources, err.msg);
	fake_free(&f);
}

Test(cgroup_resources, refusals_name_the_field)
{
	assert_refused(true, "{\"unified\": {\"memory.bogus\": \"1\"}}",
		       ".unified[\"memory.bogus\"]: \"");
	assert_refused(true, "{\"unified\": {\"../cgroup.procs\": \"1\"}}", "not a cgroup file");
	assert_refused(false, "{\"unified\": {\"memory.high\": \"1\"}}", "only for cgroup v2");
	assert_refused(true, "{\"cpu\": {\"realtimeRuntime\": 1000}}",
		       ".cpu.realtimeRuntime: not supported on cgroup v2");
	assert_refused(true, "{\"memory\": {\"limit\": 100, \"swap\": 50}}",
		       ".memory.swap: 50 is below .memory.limit 100");
	assert_refused(false, "{\"network\": {\"classID\": 1}}",
		       "net_cls controller is not mounted");
	assert_refused(false, "{\"memory\": {\"swappiness\": 101}}", "not in [0, 100]");
}
