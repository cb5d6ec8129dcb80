/* Go's time.ParseDuration, which runc's --interval takes ("5s", "1m30s", "250ms", "1.5h"). */
#ifndef CTRUN_DURATION_H
#define CTRUN_DURATION_H

#include <stdint.h>

/* text -> nanoseconds: one or more <number>[.<fraction>]<unit>, unit one of ns, us (or
 * µs), ms, s, m, h; "0" alone is 0. -1 on anything else, a sign, or an overflow. */
int ct_parse_duration(const char *text, uint64_t *ns);

#endif
