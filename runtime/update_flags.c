/* runc update's flags -> fields of struct oci_resources, one table row per flag. */
#include "runtime/update_flags.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum flag_kind {
	F_BYTES,  /* int64 through ct_parse_ram_bytes */
	F_INT64,  /* decimal, may be negative */
	F_UINT64, /* decimal */
	F_UINT16, /* decimal up to 65535 */
	F_CPUS,	  /* char *: a CPU or memory node list */
	F_REFUSE, /* a field ctrun does not apply (intelRdt) */
};

struct flag_row {
	struct ct_update_flag flag;
	enum flag_kind kind;
	size_t value;	/* offset in struct oci_resources */
	size_t has;	/* offset of its has_* bool, or 0 when it has none */
	size_t section; /* offset of has_memory / has_cpu / ... */
};

#define RES(member) offsetof(struct oci_resources, member)
#define ROW(name, help, kind, sect, field)                                                 \
	{{name, help}, kind, RES(sect.field), RES(sect.has_##field), RES(has_##sect)}

static const struct flag_row rows[] = {
	{{"memory", "memory limit in bytes (k, m, g suffixes; -1: none)"}, F_BYTES,
	 RES(memory.limit), RES(memory.has_limit), RES(has_memory)},
	{{"memory-reservation", "memory soft limit in bytes"}, F_BYTES, RES(memory.reservation),
	 RES(memory.has_reservation), RES(has_memory)},
	{{"memory-swap", "memory plus swap limit in bytes (-1: unlimited)"}, F_BYTES,
	 RES(memory.swap), RES(memory.has_swap), RES(has_memory)},
	{{"kernel-memory", "kernel memory limit in bytes (cgroup v1)"}, F_BYTES,
	 RES(memory.kernel), RES(memory.has_kernel), RES(has_memory)},
	{{"kernel-memory-tcp", "kernel TCP buffer limit in bytes (cgroup v1)"}, F_BYTES,
	 RES(memory.kernel_tcp), RES(memory.has_kernel_tcp), RES(has_memory)},
	ROW("cpu-share", "CPU shares (relative weight)", F_UINT64, cpu, shares),
	ROW("cpu-shares", "the same as --cpu-share", F_UINT64, cpu, shares),
	ROW("cpu-period", "CFS period in microseconds", F_UINT64, cpu, period),
	ROW("cpu-quota", "CFS quota in microseconds per period (-1: none)", F_INT64, cpu, quota),
	ROW("cpu-rt-period", "realtime period in microseconds", F_UINT64, cpu, realtime_period),
	ROW("cpu-rt-runtime", "realtime runtime in microseconds", F_INT64, cpu, realtime_runtime),
	{{"cpuset-cpus", "CPUs to use (0-3, 0,1)"}, F_CPUS, RES(cpu.cpus), 0, RES(has_cpu)},
	{{"cpuset-mems", "memory nodes to use (0-3, 0,1)"}, F_CPUS, RES(cpu.mems), 0, RES(has_cpu)},
	{{"pids-limit", "maximum number of processes (-1: none)"}, F_INT64, RES(pids.limit), 0,
	 RES(has_pids)},
	{{"blkio-weight", "block IO weight, 10 to 1000"}, F_UINT16, RES(block_io.weight),
	 RES(block_io.has_weight), RES(has_block_io)},
	{{"l3-cache-schema", "Intel RDT L3 cache schema"}, F_REFUSE, 0, 0, 0},
	{{"mem-bw-schema", "Intel RDT memory bandwidth schema"}, F_REFUSE, 0, 0, 0},
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

const struct ct_update_flag *ct_update_flag_at(size_t i)
{
	return i < NROWS ? &rows[i].flag : NULL;
}

int ct_parse_ram_bytes(const char *text, int64_t *out)
{
	if (strcmp(text, "-1") == 0) {
		*out = -1;
		return 0;
	}
	const char *p = text;
	if (!isdigit((unsigned char)*p))
		return errno = EINVAL, -1;
	double size = 0, scale = 1;
	for (; isdigit((unsigned char)*p); p++)
		size = size * 10 + (*p - '0');
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return errno = EINVAL, -1;
		for (; isdigit((unsigned char)*p); p++)
			size += (*p - '0') * (scale /= 10);
	}
	if (*p == ' ')
		p++;
	static const char units[] = "kmgtp";
	const char *u = *p ? strchr(units, tolower((unsigned char)*p)) : NULL;
	double mult = 1;
	if (u && *u) {
		for (const char *k = units; k <= u; k++)
			mult *= 1024;
		p++;
		if (*p == 'i' || *p == 'I')
			p++;
	}
	if (*p == 'b' || *p == 'B')
		p++;
	if (*p)
		return errno = EINVAL, -1;
	double bytes = size * mult;
	if (bytes >= 9223372036854775808.0)
		return errno = ERANGE, -1;
	*out = (int64_t)bytes;
	return 0;
}

static int parse_integer(const char *text, bool is_signed, uint64_t umax, void *out)
{
	if (!*text || isspace((unsigned char)*text) || (!is_signed && *text == '-'))
		return -1;
	char *end;
	errno = 0;
	if (is_signed) {
		long long v = strtoll(text, &end, 10);
		if (errno || *end)
			return -1;
		*(int64_t *)out = v;
		return 0;
	}
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || *end || v > umax)
		return -1;
	if (umax == UINT16_MAX)
		*(uint16_t *)out = (uint16_t)v;
	else
		*(uint64_t *)out = v;
	return 0;
}

static bool is_cpu_list(const char *s)
{
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && *s != ',' && *s != '-' && *s != ' ')
			return false;
	return true;
}

static int set_value(const struct flag_row *r, char *base, const char *value)
{
	void *dst = base + r->value;
	switch (r->kind) {
	case F_BYTES:
		return ct_parse_ram_bytes(value, dst);
	case F_INT64:
		return parse_integer(value, true, 0, dst);
	case F_UINT64:
		return parse_integer(value, false, UINT64_MAX, dst);
	case F_UINT16:
		return parse_integer(value, false, UINT16_MAX, dst);
	case F_CPUS: {
		if (!is_cpu_list(value))
			return -1;
		char *copy = strdup(value);
		if (!copy)
			return -1;
		free(*(char **)dst);
		*(char **)dst = copy;
		return 0;
	}
	case F_REFUSE:
		break;
	}
	return -1;
}

int ct_update_flag_set(struct oci_resources *res, const char *name, const char *value,
		       struct ct_error *err)
{
	for (size_t i = 0; i < NROWS; i++) {
		const struct flag_row *r = &rows[i];
		if (strcmp(r->flag.name, name) != 0)
			continue;
		if (r->kind == F_REFUSE)
			return ct_error_plain(err, ENOTSUP, "--%s: intelRdt: not supported yet", name);
		if (set_value(r, (char *)res, value) < 0)
			return ct_error_plain(err, EINVAL, "--%s: invalid value \"%s\"", name, value);
		if (r->has)
			*(bool *)((char *)res + r->has) = true;
		*(bool *)((char *)res + r->section) = true;
		return 0;
	}
	return ct_error_plain(err, EINVAL, "unknown flag --%s", name);
}
