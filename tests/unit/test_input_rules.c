/* Input that a C string or a kernel call would read otherwise than the document says
 * (docs/security.md): a string with a NUL byte inside ("\u0000" cuts it short), and the id
 * 4294967295, (uid_t)-1, which setresuid, setgroups, chown and the id maps take as "leave it
 * unchanged". Both are refused wherever they stand, naming the file and the JSON path. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "libct/state/state.h"
#include "oci/config.h"
#include "oci/jsontree.h"

/* A minimal valid config.json with `members` (JSON text, may be empty) after its root. */
static const char *config(const char *members)
{
	static char text[4096];
	int n = snprintf(text, sizeof(text),
			 "{\"ociVersion\": \"1.3.0\", \"root\": {\"path\": \"rootfs\"}%s%s}",
			 *members ? ", " : "", members);
	cr_assert_lt((size_t)n, sizeof(text));
	return text;
}

static void assert_refused(const char *text, const char *want)
{
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	cr_expect_eq(oci_config_parse(text, NULL, &c, &err), -1, "taken: %s", text);
	cr_expect_null(c);
	cr_expect_str_eq(err.msg, want, "for %s", text);
	oci_config_free(c);
}

static void assert_taken(const char *text)
{
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	cr_expect_eq(oci_config_parse(text, NULL, &c, &err), 0, "%s: %s", err.msg, text);
	oci_config_free(c);
}

/* ---- NUL bytes ---- */

#define NUL_MSG(file, path, what, before)                                                       \
	file ": " path ": " what " \"" before "\\u0000...\" holds a NUL byte (\\u0000), which " \
	     "would cut it short"

#define PROC(extra) "\"process\": {\"cwd\": \"/\", \"args\": [\"sh\"]" extra "}"

static const struct nul_case {
	const char *members, *path, *before;
	bool key;
} nul_cases[] = {
	{"\"process\": {\"cwd\": \"/\", \"args\": [\"/bin/helper\\u0000-x\"]}", ".process.args[0]",
	 "/bin/helper"},
	{PROC(", \"env\": [\"A=1\", \"PATH=/bin\\u0000:/x\"]"), ".process.env[1]", "PATH=/bin"},
	{"\"process\": {\"cwd\": \"/tmp\\u0000/x\", \"args\": [\"sh\"]}", ".process.cwd", "/tmp"},
	{PROC(", \"capabilities\": {\"bounding\": [\"CAP_KILL\\u0000\"]}"),
	 ".process.capabilities.bounding[0]", "CAP_KILL"},
	{PROC(", \"rlimits\": [{\"type\": \"RLIMIT_NOFILE\\u0000\", \"soft\": 1, \"hard\": 1}]"),
	 ".process.rlimits[0].type", "RLIMIT_NOFILE"},
	{PROC(", \"apparmorProfile\": \"p\\u0000\""), ".process.apparmorProfile", "p"},
	{PROC(", \"user\": {\"uid\": 0, \"gid\": 0, \"username\": \"u\\u0000\"}"),
	 ".process.user.username", "u"},
	{"\"hostname\": \"box\\u0000evil\"", ".hostname", "box"},
	{"\"domainname\": \"d\\u0000\"", ".domainname", "d"},
	{"\"annotations\": {\"org.x\": \"v\\u0000\"}", ".annotations[\"org.x\"]", "v"},
	{"\"annotations\": {\"a\": \"1\", \"k\\u0000x\": \"v\"}", ".annotations", "k", true},
	{"\"hooks\": {\"prestart\": [{\"path\": \"/bin/h\\u0000\"}]}", ".hooks.prestart[0].path",
	 "/bin/h"},
	{"\"hooks\": {\"poststop\": [{\"path\": \"/h\", \"args\": [\"h\", \"-\\u0000\"]}]}",
	 ".hooks.poststop[0].args[1]", "-"},
	{"\"hooks\": {\"createRuntime\": [{\"path\": \"/h\", \"env\": [\"X=\\u0000\"]}]}",
	 ".hooks.createRuntime[0].env[0]", "X="},
	{"\"mounts\": [{\"destination\": \"/a\"}, {\"destination\": \"/b\", \"source\": "
	 "\"/s\\u0000\"}]",
	 ".mounts[1].source", "/s"},
	{"\"mounts\": [{\"destination\": \"/a\\u0000\"}]", ".mounts[0].destination", "/a"},
	{"\"mounts\": [{\"destination\": \"/a\", \"options\": [\"ro\", \"mode=1\\u0000\"]}]",
	 ".mounts[0].options[1]", "mode=1"},
	{"\"mounts\": [{\"destination\": \"/a\", \"type\": \"tmpfs\\u0000\"}]", ".mounts[0].type",
	 "tmpfs"},
	{"\"linux\": {\"sysctl\": {\"net.ipv4.ip_forward\": \"1\\u00000\"}}",
	 ".linux.sysctl[\"net.ipv4.ip_forward\"]", "1"},
	{"\"linux\": {\"sysctl\": {\"kernel.x\\u0000\": \"1\"}}", ".linux.sysctl", "kernel.x",
	 true},
	{"\"linux\": {\"cgroupsPath\": \"/a\\u0000/b\"}", ".linux.cgroupsPath", "/a"},
	{"\"linux\": {\"maskedPaths\": [\"/proc/kcore\\u0000\"]}", ".linux.maskedPaths[0]",
	 "/proc/kcore"},
	{"\"linux\": {\"readonlyPaths\": [\"/proc/sys\", \"/\\u0000\"]}", ".linux.readonlyPaths[1]",
	 "/"},
	{"\"linux\": {\"seccomp\": {\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": "
	 "[{\"names\": [\"mount\\u0000\"], \"action\": \"SCMP_ACT_ERRNO\"}]}}",
	 ".linux.seccomp.syscalls[0].names[0]", "mount"},
	{"\"linux\": {\"mountLabel\": \"l\\u0000\"}", ".linux.mountLabel", "l"},
	/* a member ctrun does not know is no exception: it may be read by a later version */
	{"\"x-vendor\": {\"deep\": [\"\\u0000\"]}", "[\"x-vendor\"].deep[0]", ""},
};

Test(input_nul, refused_in_every_string_of_config_json_naming_its_path)
{
	for (size_t i = 0; i < sizeof(nul_cases) / sizeof(nul_cases[0]); i++) {
		const struct nul_case *t = &nul_cases[i];
		char want[CT_ERROR_MSG_MAX];
		snprintf(want, sizeof(want),
			 "config.json: %s: %s \"%s\\u0000...\" holds a NUL byte (\\u0000), which "
			 "would cut it short",
			 t->path, t->key ? "the property name" : "the string", t->before);
		assert_refused(config(t->members), want);
	}
}

Test(input_nul, refused_in_the_root_path_and_at_the_top)
{
	assert_refused("{\"ociVersion\": \"1.3.0\", \"root\": {\"path\": \"rootfs\\u0000\"}}",
		       NUL_MSG("config.json", ".root.path", "the string", "rootfs"));
	assert_refused("{\"\\u0000\": 1}", NUL_MSG("config.json", ".", "the property name", ""));
	assert_refused("\"a\\u0000\"", NUL_MSG("config.json", ".", "the string", "a"));
}

Test(input_nul, other_escapes_still_decoded)
{
	struct oci_config *c = NULL;
	struct ct_error err = {0};
	cr_assert_eq(oci_config_parse(config("\"hostname\": \"a\\u0001b\\u00e9\""), NULL, &c, &err),
		     0, "%s", err.msg);
	cr_expect_str_eq(c->hostname, "a\001b\xc3\xa9");
	oci_config_free(c);
}

/* The path is the tree builder's own, rendered as the walker renders its paths. */
Test(input_nul, path_through_nested_arrays_and_names)
{
	struct ct_error err = {0};
	yajl_val v = oci_json_parse(
		"f.json", "{\"a\": [1, {\"b c\": [\"x\", {\"k\": 2}, \"y\\u0000\"]}], \"z\": 1}",
		&err);
	cr_expect_null(v);
	oci_json_free(v);
	cr_expect_str_eq(err.msg, NUL_MSG("f.json", ".a[1][\"b c\"][2]", "the string", "y"));
	v = oci_json_parse("f.json", "[[], [0, {\"k\": {\"n\\u0000\": 1}}]]", &err);
	cr_expect_null(v);
	cr_expect_str_eq(err.msg, NUL_MSG("f.json", "[1][1].k", "the property name", "n"));
}

/* The text is read in order: a NUL met before a syntax error is what is reported (found by
 * tests/fuzz/fuzz_jsontree.c), a syntax error before it is. */
Test(input_nul, the_first_problem_in_reading_order_is_reported)
{
	struct ct_error err = {0};
	cr_expect_null(oci_json_parse("f.json", "[\"a\\u0000\", }", &err));
	cr_expect_str_eq(err.msg, NUL_MSG("f.json", "[0]", "the string", "a"));
	cr_expect_null(oci_json_parse("f.json", "[}, \"a\\u0000\"]", &err));
	cr_expect(strstr(err.msg, "f.json: malformed JSON at line 1"), "%s", err.msg);
}

Test(input_nul, refused_in_process_resources_and_state_documents)
{
	struct ct_error err = {0};
	struct oci_process p;
	cr_expect_eq(oci_process_parse("{\"cwd\": \"/\", \"args\": [\"a\", \"b\\u0000c\"]}",
				       "proc.json", &p, &err),
		     -1);
	cr_expect_str_eq(err.msg, NUL_MSG("proc.json", ".args[1]", "the string", "b"));
	struct oci_resources *r = NULL;
	cr_expect_eq(oci_resources_parse("{\"unified\": {\"memory.max\": \"1\\u0000\"}}",
					 "res.json", &r, &err),
		     -1);
	cr_expect_null(r);
	cr_expect_str_eq(err.msg,
			 NUL_MSG("res.json", ".unified[\"memory.max\"]", "the string", "1"));
	static const char state[] = "{\"ociVersion\": \"1.0.2\", \"id\": \"a\\u0000b\"}";
	struct ct_state st;
	cr_expect_eq(ct_state_parse("state.json", state, &st, &err), -1);
	cr_expect_str_eq(err.msg, NUL_MSG("state.json", ".id", "the string", "a"));
	cr_expect_eq(ct_state_parse_for_list("state.json", state, strlen(state), &st, &err), -1);
}

/* ---- (uid_t)-1 ---- */

#define NO_CHANGE                                                                         \
	"4294967295 is (uid_t)-1, which the kernel takes as \"leave the id unchanged\": " \
	"not an id"
#define USERNS "\"namespaces\": [{\"type\": \"user\"}, {\"type\": \"mount\"}]"

static const struct id_case {
	const char *members, *path;
} id_cases[] = {
	{PROC(", \"user\": {\"uid\": 4294967295, \"gid\": 0}"), ".process.user.uid"},
	{PROC(", \"user\": {\"uid\": 0, \"gid\": 4294967295}"), ".process.user.gid"},
	{PROC(", \"user\": {\"uid\": 0, \"gid\": 0, \"additionalGids\": [1, 2, 4294967295]}"),
	 ".process.user.additionalGids[2]"},
	{"\"linux\": {\"devices\": [{\"type\": \"c\", \"path\": \"/dev/x\", \"major\": 1, "
	 "\"minor\": 3, \"uid\": 4294967295}]}",
	 ".linux.devices[0].uid"},
	{"\"linux\": {\"devices\": [{\"type\": \"c\", \"path\": \"/dev/x\", \"major\": 1, "
	 "\"minor\": 3, \"gid\": 4294967295}]}",
	 ".linux.devices[0].gid"},
	{"\"linux\": {" USERNS ", \"uidMappings\": [{\"containerID\": 4294967295, \"hostID\": 1, "
	 "\"size\": 1}]}",
	 ".linux.uidMappings[0].containerID"},
	{"\"linux\": {" USERNS ", \"gidMappings\": [{\"containerID\": 0, \"hostID\": 0, \"size\": "
	 "1}, {\"containerID\": 1, \"hostID\": 4294967295, \"size\": 1}]}",
	 ".linux.gidMappings[1].hostID"},
	{"\"mounts\": [{\"destination\": \"/a\", \"type\": \"tmpfs\", \"uidMappings\": "
	 "[{\"containerID\": 0, \"hostID\": 4294967295, \"size\": 1}]}]",
	 ".mounts[0].uidMappings[0].hostID"},
};

Test(input_ids, minus_one_refused_as_every_id_naming_its_path)
{
	for (size_t i = 0; i < sizeof(id_cases) / sizeof(id_cases[0]); i++) {
		char want[CT_ERROR_MSG_MAX];
		snprintf(want, sizeof(want), "config.json: %s: " NO_CHANGE, id_cases[i].path);
		assert_refused(config(id_cases[i].members), want);
	}
}

Test(input_ids, a_mapped_range_that_reaches_minus_one_is_refused)
{
	assert_refused(config("\"linux\": {" USERNS ", \"uidMappings\": [{\"containerID\": 0, "
			      "\"hostID\": 4294967200, \"size\": 100}]}"),
		       "config.json: .linux.uidMappings[0].size: 100 ids from hostID 4294967200 "
		       "reach 4294967295, (uid_t)-1, which the kernel takes as \"leave the id "
		       "unchanged\": not an id");
	assert_refused(config("\"linux\": {" USERNS ", \"gidMappings\": [{\"containerID\": 1, "
			      "\"hostID\": 0, \"size\": 4294967295}]}"),
		       "config.json: .linux.gidMappings[0].size: 4294967295 ids from containerID 1 "
		       "reach 4294967295, (uid_t)-1, which the kernel takes as \"leave the id "
		       "unchanged\": not an id");
}

Test(input_ids, the_largest_ids_and_ranges_below_minus_one_are_taken)
{
	assert_taken(config(PROC(", \"user\": {\"uid\": 4294967294, \"gid\": 4294967294, "
				 "\"additionalGids\": [4294967294]}")));
	assert_taken(
		config("\"linux\": {" USERNS ", \"uidMappings\": [{\"containerID\": 0, "
		       "\"hostID\": 0, \"size\": 4294967295}], \"gidMappings\": "
		       "[{\"containerID\": 4294967294, \"hostID\": 4294967294, \"size\": 1}]}"));
}

Test(input_ids, minus_one_refused_in_a_process_document)
{
	struct ct_error err = {0};
	struct oci_process p;
	cr_expect_eq(oci_process_parse("{\"cwd\": \"/\", \"args\": [\"id\"], \"user\": {\"uid\": "
				       "0, \"gid\": 0, \"additionalGids\": [4294967295]}}",
				       "proc.json", &p, &err),
		     -1);
	cr_expect_str_eq(err.msg, "proc.json: .user.additionalGids[0]: " NO_CHANGE);
}
