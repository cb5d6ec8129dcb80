/* libct/cgroup/paused.h: which freezer a state's cgroupPaths name, and what its files say
 * (read from files made here, laid out as cgroupfs shows them). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libct/cgroup/paused.h"

#define PATHS(...)                                                 \
	((oci_string_map){.items = (struct oci_kv[]){__VA_ARGS__}, \
			  .len = sizeof((struct oci_kv[]){__VA_ARGS__}) / sizeof(struct oci_kv)})

Test(cgroup_paused, the_v1_freezer_hierarchy_of_a_hybrid_layout)
{
	bool v2 = true;
	oci_string_map paths = PATHS({"cpu,cpuacct", "/c/cpu/x"}, {"unified", "/c/unified/x"},
				     {"freezer", "/c/freezer/x"}, {"memory", "/c/memory/x"});
	cr_expect_str_eq(ct_cgroup_freezer_dir(&paths, &v2), "/c/freezer/x");
	cr_expect_not(v2);
}

Test(cgroup_paused, a_key_naming_several_controllers)
{
	bool v2;
	oci_string_map paths = PATHS({"name=freezerish", "/c/n/x"}, {"devices,freezer", "/c/df/x"});
	cr_expect_str_eq(ct_cgroup_freezer_dir(&paths, &v2), "/c/df/x");
}

Test(cgroup_paused, v2_only_when_every_key_is_unified)
{
	bool v2 = false;
	oci_string_map unified = PATHS({"unified", "/sys/fs/cgroup/x"});
	cr_expect_str_eq(ct_cgroup_freezer_dir(&unified, &v2), "/sys/fs/cgroup/x");
	cr_expect(v2);
	/* a v1 layout without a freezer hierarchy has none, whatever cgroup2 offers */
	oci_string_map no_freezer = PATHS({"memory", "/c/memory/x"}, {"unified", "/c/unified/x"});
	cr_expect_null(ct_cgroup_freezer_dir(&no_freezer, &v2));
	cr_expect_not(v2);
	oci_string_map none = {0};
	cr_expect_null(ct_cgroup_freezer_dir(&none, &v2));
}

Test(cgroup_paused, v1_freezer_state_texts)
{
	cr_expect(ct_cgroup_v1_text_paused("FROZEN\n"));
	cr_expect(ct_cgroup_v1_text_paused("FREEZING\n"));
	cr_expect_not(ct_cgroup_v1_text_paused("THAWED\n"));
	cr_expect_not(ct_cgroup_v1_text_paused(""));
}

static char dir[] = "/tmp/ct-paused-XXXXXX";

static void make_dir(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void)
{
	char cmd[PATH_MAX];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

static void put(const char *file, const char *text)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

static bool paused_v1(void)
{
	return ct_cgroup_paths_paused(&PATHS({"freezer", dir}, {"unified", "/nonexistent"}));
}

static bool paused_v2(void)
{
	return ct_cgroup_paths_paused(&PATHS({"unified", dir}));
}

Test(cgroup_paused, v1_reads_freezer_state, .init = make_dir, .fini = remove_dir)
{
	cr_expect_not(paused_v1(), "no freezer.state: not paused");
	put("freezer.state", "THAWED\n");
	cr_expect_not(paused_v1());
	put("freezer.state", "FREEZING\n");
	cr_expect(paused_v1());
	put("freezer.state", "FROZEN\n");
	cr_expect(paused_v1());
}

Test(cgroup_paused, v2_reads_events_then_freeze, .init = make_dir, .fini = remove_dir)
{
	put("cgroup.freeze", "1\n");
	cr_expect_not(paused_v2(), "no cgroup.events: no freezer (as the v2 driver)");
	put("cgroup.events", "populated 1\n");
	cr_expect_not(paused_v2(), "no \"frozen\" key (kernel < 5.2): no freezer");
	put("cgroup.events", "populated 1\nfrozen 1\n");
	put("cgroup.freeze", "0\n");
	cr_expect(paused_v2(), "frozen (a parent froze it)");
	put("cgroup.events", "populated 1\nfrozen 0\n");
	cr_expect_not(paused_v2());
	put("cgroup.freeze", "1\n");
	cr_expect(paused_v2(), "asked to freeze, a task not stopped yet");
}
