/* linux.resources.devices -> the rule list of a device filter (see device_rules.h). */
#include "libct/cgroup/device_rules.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define STANDARD(maj, min)                          \
	{                                           \
		true, 'c', maj, min, CT_DEV_ACC_ALL \
	}

const struct ct_dev_rule ct_dev_rules_standard[] = {
	STANDARD(1, 3),		   /* /dev/null */
	STANDARD(1, 5),		   /* /dev/zero */
	STANDARD(1, 7),		   /* /dev/full */
	STANDARD(1, 8),		   /* /dev/random */
	STANDARD(1, 9),		   /* /dev/urandom */
	STANDARD(5, 0),		   /* /dev/tty */
	STANDARD(5, 1),		   /* /dev/console */
	STANDARD(5, 2),		   /* /dev/ptmx */
	STANDARD(136, CT_DEV_ANY), /* /dev/pts/N */
};
const size_t ct_dev_rules_standard_len =
	sizeof(ct_dev_rules_standard) / sizeof(ct_dev_rules_standard[0]);

unsigned ct_dev_access_bits(const char *access)
{
	if (!access)
		return CT_DEV_ACC_ALL;
	unsigned bits = 0;
	for (const char *c = access; *c; c++)
		bits |= *c == 'r'   ? CT_DEV_ACC_READ
			: *c == 'w' ? CT_DEV_ACC_WRITE
			: *c == 'm' ? CT_DEV_ACC_MKNOD
				    : 0;
	return bits;
}

static struct ct_dev_rule rule_of(const struct oci_device_cgroup *d)
{
	return (struct ct_dev_rule){
		.allow = d->allow,
		.type = d->type ? d->type[0] : 'a',
		.major = d->has_major ? d->major : CT_DEV_ANY,
		.minor = d->has_minor ? d->minor : CT_DEV_ANY,
		.access = ct_dev_access_bits(d->access),
	};
}

int ct_dev_rules_build(const struct oci_resources *res, struct ct_dev_rules *out,
		       struct ct_error *err)
{
	size_t own = res ? res->devices.len : 0;
	out->len = own + ct_dev_rules_standard_len;
	out->items = calloc(out->len, sizeof(*out->items));
	if (!out->items) {
		out->len = 0;
		return ct_error_set(err, ENOMEM, "device rules");
	}
	for (size_t i = 0; i < own; i++)
		out->items[i] = rule_of(&res->devices.items[i]);
	memcpy(out->items + own, ct_dev_rules_standard, sizeof(ct_dev_rules_standard));
	return 0;
}

void ct_dev_rules_free(struct ct_dev_rules *rules)
{
	free(rules->items);
	rules->items = NULL;
	rules->len = 0;
}
