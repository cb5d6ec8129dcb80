/* `ctrun features`: one table per features list. A table names only what ctrun really does;
 * a feature joins its table in the change that implements it (and its test).
 *
 * Absent and empty differ (features.md): a NULL list pointer omits the property ("not
 * stated"), an empty list says "none". */
#include "oci/features.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

#include "oci/capabilities.h"
#include "oci/config.h"
#include "oci/jsonwrite.h"

#define OCI_VERSION_MIN "1.0.0"
#define OCI_VERSION_MAX "1.3.0"

/* ---- the tables ---- */

/* config.md#posix-platform-hooks: all six run (hooks/hooks.h). */
static const char *const features_hooks[] = {
	"prestart", "createRuntime", "createContainer", "startContainer", "poststart", "poststop",
	NULL};

/* The options of config-linux.md#mount-options that a plain mount(2) path applies: flags,
 * bind and propagation. The recursive (rro, rnosuid, ...) and other options come with the
 * rootfs work. */
static const char *const features_mount_options[] = {
	"async",      "atime",	  "bind",      "dev",	     "diratime",
	"exec",	      "idmap",	  "mand",      "noatime",    "nodev",
	"nodiratime", "noexec",	  "nomand",    "norelatime", "nostrictatime",
	"nosuid",     "private",  "rbind",     "ridmap",     "relatime",
	"remount",    "rprivate", "rshared",   "rslave",     "runbindable",
	"ro",	      "rw",	  "shared",    "slave",	     "strictatime",
	"suid",	      "sync",	  "tmpcopyup", "unbindable", NULL,
};

/* config-linux.md#namespaces that the spawn path creates or joins; user with id mappings. */
static const char *const features_namespaces[] = {
	"cgroup", "ipc", "mount", "network", "pid", "uts", "time", "user", NULL,
};

struct feature_flag {
	const char *name;
	bool value;
};

struct feature_list {
	const char *name;
	const char *const *items;
};

/* A features object: its booleans, its string lists, then its nested objects. */
struct feature_object {
	const char *name;
	const struct feature_flag *flags;
	const struct feature_list *lists;
	const struct feature_object *children;
};

#define END          \
	{            \
		NULL \
	}

/* features-linux.md#cgroup: the cgroupfs drivers of libct/cgroup (v1 and v2, rdma.max on
 * both) and the systemd driver (the system bus, or the user's when rootless). */
static const struct feature_flag features_cgroup[] = {
	{"v1", true}, {"v2", true}, {"systemd", true}, {"systemdUser", true}, {"rdma", true}, END,
};

/* features-linux.md#seccomp: libct/seccomp/seccomp.c applies every action and operator; the arches
 * are the ones libseccomp 2.5 knows (loongarch64, m68k and sh came with 2.6); of the flags,
 * WAIT_KILLABLE_RECV has no libseccomp 2.5 attribute and is refused. */
static const struct feature_flag features_seccomp[] = {{"enabled", true}, END};
static const char *const features_seccomp_archs[] = {
	"SCMP_ARCH_X86",     "SCMP_ARCH_X86_64",   "SCMP_ARCH_X32",	    "SCMP_ARCH_ARM",
	"SCMP_ARCH_AARCH64", "SCMP_ARCH_MIPS",	   "SCMP_ARCH_MIPS64",	    "SCMP_ARCH_MIPS64N32",
	"SCMP_ARCH_MIPSEL",  "SCMP_ARCH_MIPSEL64", "SCMP_ARCH_MIPSEL64N32", "SCMP_ARCH_PPC",
	"SCMP_ARCH_PPC64",   "SCMP_ARCH_PPC64LE",  "SCMP_ARCH_S390",	    "SCMP_ARCH_S390X",
	"SCMP_ARCH_PARISC",  "SCMP_ARCH_PARISC64", "SCMP_ARCH_RISCV64",	    NULL,
};
static const char *const features_seccomp_supported_flags[] = {
	"SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
	NULL};
static const struct feature_list features_seccomp_lists[] = {
	{"actions", oci_seccomp_action_names},
	{"operators", oci_seccomp_op_names},
	{"archs", features_seccomp_archs},
	{"knownFlags", oci_seccomp_flag_names},
	{"supportedFlags", features_seccomp_supported_flags},
	END,
};
static const struct feature_flag features_apparmor[] = {{"enabled", false}, END};
static const struct feature_flag features_selinux[] = {{"enabled", false}, END};
static const struct feature_flag features_intel_rdt[] = {{"enabled", false}, END};
static const struct feature_flag features_idmap[] = {{"enabled", true}, END};
static const struct feature_flag features_net_devices[] = {{"enabled", true}, END};

/* features-linux.md#memorypolicy: every mode and flag of config.json is recognized
 * (libct/plan/sched.c), even those the host kernel lacks. */
static const struct feature_list features_memory_policy_lists[] = {
	{"modes", oci_mpol_mode_names},
	{"flags", oci_mpol_flag_names},
	END,
};

static const struct feature_list features_linux_lists[] = {
	{"namespaces", features_namespaces},
	{"capabilities", oci_capability_names},
	END,
};

static const struct feature_object features_linux_children[] = {
	{"cgroup", .flags = features_cgroup},
	{"seccomp", .flags = features_seccomp, .lists = features_seccomp_lists},
	{"apparmor", .flags = features_apparmor},
	{"selinux", .flags = features_selinux},
	{"intelRdt", .flags = features_intel_rdt},
	{"mountExtensions",
	 .children = (const struct feature_object[]){{"idmap", .flags = features_idmap}, END}},
	{"netDevices", .flags = features_net_devices},
	{"memoryPolicy", .lists = features_memory_policy_lists},
	END,
};

/* The document's members after the versions. */
static const struct feature_object features_top = {
	.lists = (const struct feature_list[]){{"hooks", features_hooks},
					       {"mountOptions", features_mount_options},
					       END},
	.children = (const struct feature_object[]){{"linux", .lists = features_linux_lists,
						     .children = features_linux_children},
						    END},
};

/* ---- the generator ---- */

static void gen_string(yajl_gen g, const char *s)
{
	yajl_gen_string(g, (const unsigned char *)s, strlen(s));
}

static void gen_lists(yajl_gen g, const struct feature_list *lists)
{
	for (; lists && lists->name; lists++) {
		if (!lists->items)
			continue;
		gen_string(g, lists->name);
		yajl_gen_array_open(g);
		for (const char *const *s = lists->items; *s; s++)
			gen_string(g, *s);
		yajl_gen_array_close(g);
	}
}

static void gen_flags(yajl_gen g, const struct feature_flag *flags)
{
	for (; flags && flags->name; flags++) {
		gen_string(g, flags->name);
		yajl_gen_bool(g, flags->value);
	}
}

/* Emits the members of an object (the caller opens and closes it). */
static void gen_members(yajl_gen g, const struct feature_flag *flags,
			const struct feature_list *lists, const struct feature_object *children)
{
	gen_flags(g, flags);
	gen_lists(g, lists);
	for (; children && children->name; children++) {
		gen_string(g, children->name);
		yajl_gen_map_open(g);
		gen_members(g, children->flags, children->lists, children->children);
		yajl_gen_map_close(g);
	}
}

static void gen_annotations(yajl_gen g, const struct oci_features_info *info)
{
	gen_string(g, "annotations");
	yajl_gen_map_open(g);
	if (info->libseccomp_version) {
		gen_string(g, "io.github.seccomp.libseccomp.version");
		gen_string(g, info->libseccomp_version);
	}
	/* as runc says it (its build has checkpoint/restore): Podman and containerd read it */
	gen_string(g, "org.opencontainers.runc.checkpoint.enabled");
	gen_string(g, "true");
	if (info->mounts_backend) {
		gen_string(g, "org.ctrun.mounts.backend");
		gen_string(g, info->mounts_backend);
	}
	yajl_gen_map_close(g);
}

static int gen_document(yajl_gen g, const void *arg)
{
	const struct oci_features_info *info = arg;
	yajl_gen_map_open(g);
	gen_string(g, "ociVersionMin");
	gen_string(g, OCI_VERSION_MIN);
	gen_string(g, "ociVersionMax");
	gen_string(g, OCI_VERSION_MAX);
	gen_members(g, features_top.flags, features_top.lists, features_top.children);
	gen_annotations(g, info);
	return yajl_gen_map_close(g) != yajl_gen_status_ok;
}

/* yajl's beautifier spreads an empty array over three lines; "hooks": [] reads better. Copies
 * text to out (as large as text, or text itself: out never passes what was read) with every
 * "[<whitespace>]" outside a string made "[]". Returns the length written. */
static size_t collapse_empty_arrays(char *out, const char *text, size_t len)
{
	size_t o = 0;
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		char ch = text[i];
		out[o++] = ch;
		if (in_string) {
			if (ch == '\\' && i + 1 < len)
				out[o++] = text[++i];
			else if (ch == '"')
				in_string = false;
		} else if (ch == '"') {
			in_string = true;
		} else if (ch == '[') {
			size_t j = i + 1;
			while (j < len && strchr(" \t\n", text[j]))
				j++;
			if (j < len && text[j] == ']') {
				out[o++] = ']';
				i = j;
			}
		}
	}
	return o;
}

char *oci_features_json(const struct oci_features_info *info, struct ct_error *err)
{
	char *text = oci_json_document(gen_document, info, true, "generate features", err);
	if (text) /* in place: the collapsed text is never longer */
		text[collapse_empty_arrays(text, text, strlen(text))] = '\0';
	return text;
}
