/* `ctrun ps --format table`: as runc does, the host's ps(1) lists every process and only the
 * rows of the container's pids are kept. Pure. */
#ifndef CTRUN_PS_FILTER_H
#define CTRUN_PS_FILTER_H

#include <stddef.h>
#include <sys/types.h>

#include "libct/base/error.h"

/* ps's output -> its header line and the lines whose PID column (found by its title in the
 * header) holds one of pids; *out malloc'ed. Fails when the header has no PID column. */
int ct_ps_filter(const char *ps_output, const pid_t *pids, size_t n, char **out,
		 struct ct_error *err);

#endif
