/* linux.resources.devices -> the rule list of a device filter (see device_rules.h). */
#include "libct/cgroup/device_rules.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define STANDARD(maj, min)                          \
	{                                           \
		true, 'c', maj, min, CT_DEV_ACC_ALL \
	}
#define MKNOD_ANY(type)                                              \
	{                                                            \
		true, type, CT_DEV_ANY, CT_DEV_ANY, CT_DEV_ACC_MKNOD \
	}

/* runc 1.1.5's list, in the order its devices.list shows it. Making a node is not opening it: image
 * and package scripts make nodes, which then open only as the rules allow. No rule for
 * /dev/console (5:1): the container's console is a pty slave (136:N), and with mknod of any
 * node allowed 5:1 would hand out the host's console. */
const struct ct_dev_rule ct_dev_rules_standard[] = {
	MKNOD_ANY('b'),		   /* mknod of any block device */
	MKNOD_ANY('c'),		   /* mknod of any character device */
	STANDARD(1, 3),		   /* /dev/null */
	STANDARD(1, 5),		   /* /dev/zero */
	STANDARD(1, 7),		   /* /dev/full */
	STANDARD(1, 8),		   /* /dev/random */
	STANDARD(1, 9),		   /* /dev/urandom */
	STANDARD(5, 0),		   /* /dev/tty */
	STANDARD(5, 2),		   /* /dev/ptmx */
	STANDARD(10, 200),	   /* /dev/net/tun */
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
		return ct_error_sys(err, ENOMEM, "device rules");
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
