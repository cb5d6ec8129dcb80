/* A network namespace the container makes of its own has its loopback up, as runc and crun
 * leave it: a process there can reach its own services on 127.0.0.1 and ::1 (and CRIU
 * restores TCP connections over it). A joined namespace is left as its owner set it. */
#ifndef CT_LOOPBACK_H
#define CT_LOOPBACK_H

#include "libct/base/error.h"

/* Sets IFF_UP on "lo" of the caller's network namespace (needs CAP_NET_ADMIN there). */
int ct_loopback_up(struct ct_error *err);

#endif
