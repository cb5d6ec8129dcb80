/* Editing a test bundle's config.json: arguments, mounts, namespaces, values taken from the
 * configs other tools really write. */
#include "tests/lib/container.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ctt_config_set(const char *bundle, const char *path, const char *json)
{
	char *config = ctt_path(bundle, "config.json");
	ctt_json_edit_file(config, path, json);
	free(config);
}

void lc_config_append(const struct lc *t, const char *path, const char *json)
{
	char *file = ctt_path(t->bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	bool absent = !ctt_json_get(tree, path);
	long n = absent ? 0 : ctt_json_len(tree, path);
	yajl_tree_free(tree);
	cr_assert_geq(n, 0, "config.json has no array at %s", path);
	if (absent)
		ctt_json_edit_file(file, path, "[]");
	char item[256];
	snprintf(item, sizeof(item), "%s[%ld]", path, n);
	ctt_json_edit_file(file, item, json);
	free(file);
}

/* options: comma-separated ("ro,size=1m") as a JSON array, malloc'd. */
static char *options_json(const char *options)
{
	char *copy = strdup(options), *save = NULL, *json = calloc(1, strlen(options) * 7 + 3);
	cr_assert(copy && json);
	strcat(json, "[");
	for (char *o = strtok_r(copy, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		char *q = ctt_json_quote(o);
		strcat(json, json[1] ? "," : "");
		strcat(json, q);
		free(q);
	}
	strcat(json, "]");
	free(copy);
	return json;
}

void lc_add_mount(const struct lc *t, const char *dest, const char *type, const char *source,
		  const char *options)
{
	char *d = ctt_json_quote(dest), *ty = ctt_json_quote(type), *s = ctt_json_quote(source);
	char *o = options ? options_json(options) : strdup("[]");
	char *json;
	cr_assert_geq(asprintf(&json,
			       "{\"destination\":%s,\"type\":%s,\"source\":%s,\"options\":%s}", d,
			       ty, s, o),
		      0);
	lc_config_append(t, ".mounts", json);
	free(json);
	free(o);
	free(s);
	free(ty);
	free(d);
}

void lc_remove_mount(const struct lc *t, const char *dest)
{
	char *file = ctt_path(t->bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	long n = ctt_json_len(tree, ".mounts");
	long found = -1;
	for (long i = 0; i < n && found < 0; i++) {
		char path[64];
		snprintf(path, sizeof(path), ".mounts[%ld].destination", i);
		const char *d = ctt_json_get_string(tree, path);
		if (d && strcmp(d, dest) == 0)
			found = i;
	}
	yajl_tree_free(tree);
	cr_assert_geq(found, 0, "config.json has no mount on \"%s\"", dest);
	char item[64];
	snprintf(item, sizeof(item), ".mounts[%ld]", found);
	ctt_json_edit_file(file, item, NULL);
	free(file);
}

void lc_set_args(const struct lc *t, const char *const *argv)
{
	size_t len = 3;
	for (size_t i = 0; argv[i]; i++)
		len += strlen(argv[i]) * 6 + 4;
	char *json = malloc(len);
	cr_assert_not_null(json);
	strcpy(json, "[");
	for (size_t i = 0; argv[i]; i++) {
		char *q = ctt_json_quote(argv[i]);
		strcat(json, i ? "," : "");
		strcat(json, q);
		free(q);
	}
	strcat(json, "]");
	ctt_config_set(t->bundle, ".process.args", json);
	free(json);
}

void lc_set_script(const struct lc *t, const char *script)
{
	lc_set_args(t, (const char *const[]){"sh", "-c", script, NULL});
}

void lc_covered_mounts(const struct lc *t)
{
	ctt_config_set(t->bundle, ".root.readonly", "false");
	char *link = lc_rootfs_path(t, "y");
	cr_assert_eq(symlink("/x", link), 0, "symlink %s", link);
	free(link);
	lc_add_mount(t, "/x", "tmpfs", "tmpfs", "ro");
	lc_add_mount(t, "/y", "tmpfs", "tmpfs", "rw");
	lc_set_script(t, "grep ' /x ' /proc/self/mountinfo; "
			 "if touch /x/f; then echo x-writable; fi");
}

long lc_config_index(const struct lc *t, const char *array, const char *member, const char *value)
{
	char *file = ctt_path(t->bundle, "config.json");
	yajl_val tree = ctt_json_load(file);
	long n = ctt_json_len(tree, array), found = -1;
	for (long i = 0; i < n && found < 0; i++) {
		char path[256];
		snprintf(path, sizeof(path), "%s[%ld]%s", array, i, member);
		const char *s = ctt_json_get_string(tree, path);
		if (s && strcmp(s, value) == 0)
			found = i;
	}
	yajl_tree_free(tree);
	free(file);
	return found;
}

long lc_namespace_index(const struct lc *t, const char *type)
{
	return lc_config_index(t, ".linux.namespaces", ".type", type);
}

void lc_namespace_set(const struct lc *t, const char *type, const char *json)
{
	long i = lc_namespace_index(t, type);
	cr_assert_geq(i, 0, "config.json has no %s namespace", type);
	char path[64];
	snprintf(path, sizeof(path), ".linux.namespaces[%ld]", i);
	ctt_config_set(t->bundle, path, json);
}

char *lc_shared_config_value(const char *file, const char *path)
{
	const char *src = getenv("CTRUN_SRC");
	if (!src || !*src)
		cr_assert_fail("CTRUN_SRC is not set (make integration sets it)");
	char *name;
	cr_assert_geq(asprintf(&name, "%s/../shared/configs/%s", src, file), 0, "out of memory");
	if (!ctt_exists(name))
		ctt_skip("%s is missing: the real-world configs are not there", name);
	yajl_val tree = ctt_json_load(name);
	yajl_val v = ctt_json_get(tree, path);
	cr_assert_not_null(v, "%s has no %s", name, path);
	char *text = ctt_json_text(v);
	yajl_tree_free(tree);
	free(name);
	return text;
}

void lc_add_tmpfs(const struct lc *t, const char *dest, const char *options)
{
	lc_add_mount(t, dest, "tmpfs", "tmpfs", options);
}

void lc_add_option_mounts(const struct lc *t, const char *source)
{
	lc_add_mount(t, "/ro", "bind", source, "bind,ro,nosuid");
	lc_add_tmpfs(t, "/t", "size=1m,mode=0700,noatime,nodev,noexec");
	lc_add_mount(t, "/rro", "bind", source, "rbind,rro,rnodev");
	lc_add_tmpfs(t, "/strict", "strictatime,nosymfollow,nodiratime");
	lc_add_tmpfs(t, "/shared", "shared");
	lc_add_mount(t, "/slave", "bind", "rootfs/shared", "bind,slave");
}

void lc_map_root(const struct lc *t, unsigned host_id, unsigned size)
{
	lc_config_append(t, ".linux.namespaces", "{\"type\": \"user\"}");
	char ranges[128];
	snprintf(ranges, sizeof(ranges), "[{\"containerID\": 0, \"hostID\": %u, \"size\": %u}]",
		 host_id, size);
	ctt_config_set(t->bundle, ".linux.uidMappings", ranges);
	ctt_config_set(t->bundle, ".linux.gidMappings", ranges);
	ctt_make_searchable(t->bundle);
	char *rootfs = lc_rootfs_path(t, "");
	ctt_chown_tree(rootfs, host_id);
	free(rootfs);
}
