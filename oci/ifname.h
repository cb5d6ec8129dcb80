/* Network interface names as the kernel takes them (dev_valid_name and dev_alloc_name in
 * net/core/dev.c), checked when config.json is read so that a bad name in
 * .linux.netDevices is refused before anything is made. Pure. */
#ifndef OCI_IFNAME_H
#define OCI_IFNAME_H

#include <stdbool.h>

/* Why name cannot name an existing device: NULL when it can. */
const char *oci_ifname_problem(const char *name);
/* Why name cannot be a new name (a "%d" template allowed): NULL when it can. */
const char *oci_ifname_new_problem(const char *name);
/* Whether name is a template: the kernel puts the lowest free number in place of its "%d". */
bool oci_ifname_is_template(const char *name);

#endif
