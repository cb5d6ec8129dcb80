/* The transient unit's properties (libct/cgroup/systemd_props.h). */
#include "libct/cgroup/systemd_props.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/cgroup/convert.h"
#include "libct/cgroup/device_rules.h"
#include "libct/dbus/literal.h"

#define CPUSET_MASK_MAX		1024 /* 8192 CPUs */
#define CPU_PERIOD_DEFAULT	100000
#define SYSTEMD_SCOPE_OOMPOLICY 253 /* the first systemd whose scopes take OOMPolicy */
#define TOKEN_TAG		" (create %s)"

static void prop_open(struct ct_dbus_writer *w, const char *name, const char *sig)
{
	ct_dbus_struct_open(w);
	ct_dbus_put_string(w, name);
	ct_dbus_variant_open(w, sig);
}

static void prop_u64(struct ct_dbus_writer *w, const char *name, uint64_t v)
{
	prop_open(w, name, "t");
	ct_dbus_put_u64(w, v);
}

static void prop_bool(struct ct_dbus_writer *w, const char *name, bool v)
{
	prop_open(w, name, "b");
	ct_dbus_put_bool(w, v);
}

static void prop_string(struct ct_dbus_writer *w, const char *name, const char *v)
{
	prop_open(w, name, "s");
	ct_dbus_put_string(w, v);
}

/* The unit's Description: prefix and text, then the create's token when it has one
 * (" (create 0123456789abcdef)"), which tells the unit as the create's own after a lost
 * answer. */
static int prop_description(struct ct_dbus_writer *w, const char *prefix, const char *text,
			    const char *token, struct ct_error *err)
{
	char *d;
	int n = token && *token ? asprintf(&d, "%s%s" TOKEN_TAG, prefix, text, token)
				: asprintf(&d, "%s%s", prefix, text);
	if (n < 0)
		return ct_error_sys(err, ENOMEM, "systemd unit description");
	prop_string(w, "Description", d);
	free(d);
	return 0;
}

bool ct_systemd_description_marked(const char *description, const char *token)
{
	char tag[sizeof(TOKEN_TAG) + CT_SYSTEMD_TOKEN_LEN];
	int k = snprintf(tag, sizeof(tag), TOKEN_TAG, token);
	size_t n = strlen(description);
	return *token && k > 0 && n >= (size_t)k && strcmp(description + n - k, tag) == 0;
}

static void prop_bytes(struct ct_dbus_writer *w, const char *name, const uint8_t *v, size_t n)
{
	prop_open(w, name, "ay");
	struct ct_dbus_array_mark m = ct_dbus_array_open(w, 'y');
	ct_dbus_put_raw(w, v, n);
	ct_dbus_array_close(w, m);
}

static uint64_t limit_or_infinity(int64_t v)
{
	return v < 0 ? UINT64_MAX : (uint64_t)v;
}

uint64_t ct_systemd_cpu_quota_per_sec(int64_t quota, uint64_t period)
{
	if (quota <= 0)
		return UINT64_MAX;
	if (!period)
		period = CPU_PERIOD_DEFAULT;
	uint64_t usec = (uint64_t)quota * 1000000 / period;
	return (usec + 9999) / 10000 * 10000;
}

static bool set_bit(uint8_t *mask, size_t max, size_t *n, unsigned long bit)
{
	if (bit / 8 >= max)
		return false;
	mask[bit / 8] |= (uint8_t)(1u << (bit % 8));
	if (bit / 8 + 1 > *n)
		*n = bit / 8 + 1;
	return true;
}

bool ct_systemd_cpuset_mask(const char *list, uint8_t *mask, size_t max, size_t *n)
{
	memset(mask, 0, max);
	*n = 0;
	for (const char *p = list; *p;) {
		char *end;
		if (*p < '0' || *p > '9')
			return false;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return false;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || hi / 8 >= max)
			return false;
		for (unsigned long b = lo; b <= hi; b++)
			set_bit(mask, max, n, b);
		if (*end != ',' && *end)
			return false;
		p = *end ? end + 1 : end;
	}
	return *n > 0;
}

static int prop_cpuset(struct ct_dbus_writer *w, const char *name, const char *list,
		       const char *field, struct ct_error *err)
{
	uint8_t mask[CPUSET_MASK_MAX];
	size_t n;
	if (!list || !*list)
		return 0;
	if (!ct_systemd_cpuset_mask(list, mask, sizeof(mask), &n))
		return ct_error_plain(err, EINVAL, "config.json: %s: \"%s\" is not a cpu list",
				      field, list);
	prop_bytes(w, name, mask, n);
	return 0;
}

static int memory_props(const struct oci_memory *m, struct ct_dbus_writer *w, struct ct_error *err)
{
	if (m->has_limit && m->limit)
		prop_u64(w, "MemoryMax", limit_or_infinity(m->limit));
	if (m->has_reservation && m->reservation)
		prop_u64(w, "MemoryLow", limit_or_infinity(m->reservation));
	if (m->has_swap && m->swap) {
		int64_t swap;
		if (ct_cgroup_swap_to_v2(m->swap, m->has_limit, m->limit, &swap, err) < 0)
			return -1;
		prop_u64(w, "MemorySwapMax", limit_or_infinity(swap));
	}
	return 0;
}

static int cpu_props(const struct oci_cpu *c, struct ct_dbus_writer *w, struct ct_error *err)
{
	if (c->has_shares && c->shares)
		prop_u64(w, "CPUWeight", ct_cgroup_shares_to_weight(c->shares));
	if (c->has_period && c->period)
		prop_u64(w, "CPUQuotaPeriodUSec", c->period);
	if (c->has_quota && c->quota)
		prop_u64(w, "CPUQuotaPerSecUSec",
			 ct_systemd_cpu_quota_per_sec(c->quota, c->has_period ? c->period : 0));
	if (prop_cpuset(w, "AllowedCPUs", c->cpus, ".linux.resources.cpu.cpus", err) < 0)
		return -1;
	return prop_cpuset(w, "AllowedMemoryNodes", c->mems, ".linux.resources.cpu.mems", err);
}

/* The name /proc/devices gives the major of type ('c' or 'b'), or NULL. */
static bool devices_name(const char *proc_devices, char type, int64_t major, char *out, size_t size)
{
	const char *section = type == 'c' ? "Character devices:" : "Block devices:";
	const char *p = proc_devices ? strstr(proc_devices, section) : NULL;
	for (p = p ? strchr(p, '\n') : NULL; p && p[1] && p[1] != '\n'; p = strchr(p + 1, '\n')) {
		long long num;
		char name[64];
		if (sscanf(p + 1, "%lld %63s", &num, name) == 2 && num == major) {
			snprintf(out, size, "%s-%s", type == 'c' ? "char" : "block", name);
			return true;
		}
	}
	return false;
}

/* A rule by major alone: DeviceAllow names it by the major's name in /proc/devices. */
static bool by_major_name(const struct ct_dev_rule *r)
{
	return r->major != CT_DEV_ANY && r->minor == CT_DEV_ANY;
}

/* A rule as DeviceAllow's path: "/dev/char/1:3", "char-pts", "char-*"; false when
 * systemd cannot name it. */
static bool device_path(const struct ct_dev_rule *r, const char *proc_devices, char *out,
			size_t size)
{
	const char *kind = r->type == 'c' ? "char" : "block";
	if (r->type != 'c' && r->type != 'b')
		return false;
	if (r->major == CT_DEV_ANY)
		return snprintf(out, size, "%s-*", kind) > 0;
	if (by_major_name(r))
		return devices_name(proc_devices, r->type, r->major, out, size);
	return snprintf(out, size, "/dev/%s/%lld:%lld", kind, (long long)r->major,
			(long long)r->minor) > 0;
}

static void access_text(unsigned access, char out[4])
{
	size_t n = 0;
	if (access & CT_DEV_ACC_READ)
		out[n++] = 'r';
	if (access & CT_DEV_ACC_WRITE)
		out[n++] = 'w';
	if (access & CT_DEV_ACC_MKNOD)
		out[n++] = 'm';
	out[n] = '\0';
}

static bool deny_all(const struct ct_dev_rule *r)
{
	return !r->allow && r->type == 'a' && r->access == CT_DEV_ACC_ALL;
}

/* The rules are a deny-all followed by allows of char or block devices: the form that can
 * be a strict DeviceAllow list (when systemd can name each). */
static bool strict_form(const struct ct_dev_rules *rules)
{
	if (!rules->len || !deny_all(&rules->items[0]))
		return false;
	for (size_t i = 1; i < rules->len; i++) {
		const struct ct_dev_rule *r = &rules->items[i];
		if (!r->allow || (r->type != 'c' && r->type != 'b'))
			return false;
	}
	return true;
}

/* "strict" with the allowed devices when the rules are a deny-all followed by allows that
 * systemd can name each; else "auto" and no list: the driver's own eBPF filter (written
 * with the files) enforces the rules either way, systemd's only narrows. */
static bool expressible(const struct ct_dev_rules *rules, const char *proc_devices)
{
	char path[128];
	if (!strict_form(rules))
		return false;
	for (size_t i = 1; i < rules->len; i++)
		if (!device_path(&rules->items[i], proc_devices, path, sizeof(path)))
			return false;
	return true;
}

static int device_props(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w,
			struct ct_error *err)
{
	struct ct_dev_rules rules;
	if (ct_dev_rules_build(in->res, &rules, err) < 0)
		return -1;
	bool strict = expressible(&rules, in->proc_devices);
	prop_string(w, "DevicePolicy", strict ? "strict" : "auto");
	prop_open(w, "DeviceAllow", "a(ss)");
	struct ct_dbus_array_mark m = ct_dbus_array_open(w, '(');
	for (size_t i = 1; strict && i < rules.len; i++) {
		char path[128], access[4];
		device_path(&rules.items[i], in->proc_devices, path, sizeof(path));
		access_text(rules.items[i].access, access);
		ct_dbus_struct_open(w);
		ct_dbus_put_string(w, path);
		ct_dbus_put_string(w, access);
	}
	ct_dbus_array_close(w, m);
	ct_dev_rules_free(&rules);
	return 0;
}

static const char *unified_get(const oci_string_map *m, const char *key)
{
	for (size_t i = 0; i < m->len; i++)
		if (strcmp(m->items[i].key, key) == 0)
			return m->items[i].value;
	return NULL;
}

static const char *oom_group(const struct oci_resources *res)
{
	return unified_get(&res->unified, "memory.oom.group");
}

static void oom_policy(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w)
{
	const char *group = oom_group(in->res);
	bool takes = !in->systemd_version || in->systemd_version >= SYSTEMD_SCOPE_OOMPOLICY;
	if (!group || !takes)
		return; /* the file is written with the others */
	if (strncmp(group, "1", 1) == 0)
		prop_string(w, "OOMPolicy", "kill");
	else if (strncmp(group, "0", 1) == 0)
		prop_string(w, "OOMPolicy", "continue");
}

struct ct_systemd_props_needs ct_systemd_props_needs(const struct oci_resources *res)
{
	struct ct_systemd_props_needs needs = {.version = false, .proc_devices = false};
	struct ct_dev_rules rules;
	struct ct_error ignored; /* the properties' build reports it */
	if (!res)
		return needs;
	needs.version = oom_group(res) != NULL;
	if (ct_dev_rules_build(res, &rules, &ignored) < 0)
		return needs;
	if (strict_form(&rules))
		for (size_t i = 1; i < rules.len; i++)
			needs.proc_devices |= by_major_name(&rules.items[i]);
	ct_dev_rules_free(&rules);
	return needs;
}

int ct_systemd_props_resources(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w,
			       struct ct_error *err)
{
	const struct oci_resources *r = in->res;
	if (!r)
		return 0;
	if ((r->has_memory && memory_props(&r->memory, w, err) < 0) ||
	    (r->has_cpu && cpu_props(&r->cpu, w, err) < 0))
		return -1;
	if (r->has_pids && r->pids.limit)
		prop_u64(w, "TasksMax", limit_or_infinity(r->pids.limit));
	oom_policy(in, w);
	return device_props(in, w, err);
}

/* Property names as systemd spells them: a capital, then letters and digits. */
static bool property_name_valid(const char *name)
{
	size_t n = strlen(name);
	return n >= 3 && name[0] >= 'A' && name[0] <= 'Z' &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") == n;
}

/* "TimeoutStopSec" given in seconds becomes "TimeoutStopUSec" in microseconds, as runc
 * converts it: a non-negative number (integer or double). */
static int sec_to_usec(struct ct_dbus_lit *v, const char *key, struct ct_error *err)
{
	char t = v->sig[1] ? 0 : v->sig[0];
	double sec;
	if (t && strchr("yqut", t))
		sec = (double)v->u;
	else if (t && strchr("nix", t) && v->i >= 0)
		sec = (double)v->i;
	else if (t == 'd' && v->d >= 0)
		sec = v->d;
	else
		return ct_error_plain(err, EINVAL,
				      "config.json: .annotations[\"%s\"]: a duration in seconds "
				      "must be a non-negative number",
				      key);
	v->u = sec * 1e6 >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)(sec * 1e6);
	strcpy(v->sig, "t");
	return 0;
}

/* One org.systemd.property.NAME annotation; a Description of text keeps the token at its
 * end (the last Description given is the unit's). */
static int annotation_prop(const char *key, const char *value, const char *token,
			   struct ct_dbus_writer *w, struct ct_error *err)
{
	char name[256];
	snprintf(name, sizeof(name), "%s", key + strlen(CT_SYSTEMD_ANNOTATION_PREFIX));
	if (!property_name_valid(name))
		return ct_error_plain(err, EINVAL,
				      "config.json: .annotations[\"%s\"]: \"%s\" is not a systemd "
				      "property name (a capital letter, then letters and digits)",
				      key, name);
	struct ct_dbus_lit v;
	if (ct_dbus_literal_parse(value, &v, err) < 0)
		return ct_error_prefix(err, "config.json: .annotations[\"%s\"]", key);
	size_t n = strlen(name);
	if (n > 4 && strcmp(name + n - 3, "Sec") == 0 && name[n - 4] >= 'a' && name[n - 4] <= 'z') {
		if (sec_to_usec(&v, key, err) < 0) {
			ct_dbus_literal_free(&v);
			return -1;
		}
		snprintf(name + n - 3, sizeof(name) - (n - 3), "USec");
	}
	int rc = 0;
	if (strcmp(name, "Description") == 0 && strcmp(v.sig, "s") == 0) {
		rc = prop_description(w, "", v.s, token, err);
	} else {
		prop_open(w, name, v.sig);
		ct_dbus_literal_write(&v, w);
	}
	ct_dbus_literal_free(&v);
	return rc;
}

static int annotation_props(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w,
			    struct ct_error *err)
{
	const oci_string_map *a = in->annotations;
	for (size_t i = 0; a && i < a->len; i++) {
		const char *key = a->items[i].key;
		if (strncmp(key, CT_SYSTEMD_ANNOTATION_PREFIX,
			    strlen(CT_SYSTEMD_ANNOTATION_PREFIX)) == 0 &&
		    annotation_prop(key, a->items[i].value, in->token, w, err) < 0)
			return -1;
	}
	return 0;
}

int ct_systemd_props_create(const struct ct_systemd_props_in *in, struct ct_dbus_writer *w,
			    struct ct_error *err)
{
	if (prop_description(w, "ctrun container ", in->id, in->token, err) < 0)
		return -1;
	if (in->is_slice) {
		/* a slice is put in its parent by wanting it, as runc does */
		prop_open(w, "Wants", "as");
		struct ct_dbus_array_mark m = ct_dbus_array_open(w, 's');
		ct_dbus_put_string(w, in->slice);
		ct_dbus_array_close(w, m);
	} else {
		prop_string(w, "Slice", in->slice);
		prop_bool(w, "Delegate", true);
	}
	if (in->pid > 0) {
		prop_open(w, "PIDs", "au");
		struct ct_dbus_array_mark m = ct_dbus_array_open(w, 'u');
		ct_dbus_put_u32(w, (uint32_t)in->pid);
		ct_dbus_array_close(w, m);
	}
	prop_bool(w, "DefaultDependencies", false);
	prop_bool(w, "MemoryAccounting", true);
	prop_bool(w, "CPUAccounting", true);
	prop_bool(w, "IOAccounting", true);
	prop_bool(w, "TasksAccounting", true);
	if (ct_systemd_props_resources(in, w, err) < 0)
		return -1;
	return annotation_props(in, w, err);
}
