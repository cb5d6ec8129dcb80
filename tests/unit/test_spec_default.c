/* oci/spec_default.c: the /sys mount of each variant, with and without the kernel's recursive
 * mount attributes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_tree.h>

#include "oci/spec_default.h"

/* The options of the /sys mount of the document opts make, comma-joined; *rro_anywhere
 * whether "rro" is in the document at all. */
static char *sys_options(const struct oci_spec_opts *opts, bool *rro_anywhere)
{
	struct ct_error err = {0};
	char *text = oci_spec_default_json(opts, &err);
	cr_assert_not_null(text, "%s", err.msg);
	*rro_anywhere = strstr(text, "\"rro\"") != NULL;
	char parse_err[256];
	yajl_val doc = yajl_tree_parse(text, parse_err, sizeof(parse_err));
	cr_assert_not_null(doc, "%s", parse_err);
	const char *mounts_path[] = {"mounts", NULL};
	yajl_val mounts = yajl_tree_get(doc, mounts_path, yajl_t_array);
	cr_assert_not_null(mounts);
	char *joined = NULL;
	for (size_t i = 0; i < mounts->u.array.len; i++) {
		yajl_val m = mounts->u.array.values[i];
		const char *dest_path[] = {"destination", NULL}, *opt_path[] = {"options", NULL};
		const char *dest = YAJL_GET_STRING(yajl_tree_get(m, dest_path, yajl_t_string));
		if (!dest || strcmp(dest, "/sys") != 0)
			continue;
		yajl_val options = yajl_tree_get(m, opt_path, yajl_t_array);
		cr_assert_not_null(options);
		joined = calloc(1, 256);
		cr_assert_not_null(joined);
		for (size_t o = 0; o < options->u.array.len; o++)
			snprintf(joined + strlen(joined), 256 - strlen(joined), "%s%s",
				 o ? "," : "", YAJL_GET_STRING(options->u.array.values[o]));
	}
	cr_assert_not_null(joined, "no /sys mount in:\n%s", text);
	yajl_tree_free(doc);
	free(text);
	return joined;
}

Test(spec_default, rootless_sys_asks_for_recursive_attributes_where_the_kernel_has_them)
{
	bool rro;
	char *options = sys_options(
		&(struct oci_spec_opts){
			.rootless = true, .uid = 1000, .gid = 1000, .recursive_mount_attrs = true},
		&rro);
	cr_expect_str_eq(options, "rbind,nosuid,noexec,nodev,ro,rro,rnosuid,rnodev,rnoexec");
	cr_expect(rro);
	free(options);
}

Test(spec_default, rootless_sys_plain_without_recursive_attributes)
{
	bool rro;
	char *options = sys_options(
		&(struct oci_spec_opts){.rootless = true, .uid = 1000, .gid = 1000}, &rro);
	cr_expect_str_eq(options, "rbind,nosuid,noexec,nodev,ro");
	cr_expect_not(rro);
	free(options);
}

/* A fresh sysfs has no mounts below it: the rootful variant is runc's either way. */
Test(spec_default, rootful_sys_is_a_fresh_sysfs_either_way)
{
	for (int recursive = 0; recursive <= 1; recursive++) {
		bool rro;
		char *options = sys_options(
			&(struct oci_spec_opts){.recursive_mount_attrs = recursive}, &rro);
		cr_expect_str_eq(options, "nosuid,noexec,nodev,ro");
		cr_expect_not(rro, "rro in the rootful document (recursive=%d)", recursive);
		free(options);
	}
}
