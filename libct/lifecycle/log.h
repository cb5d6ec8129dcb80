/* The lifecycle's log lines (what create, start, kill and delete do and meet on the way),
 * handed to the sink the program sets: the CLI's writes them to stderr and the --log file
 * (runtime/log.c). Dropped while no sink is set. */
#ifndef CT_LIFECYCLE_LOG_H
#define CT_LIFECYCLE_LOG_H

#include <stdbool.h>

enum ct_log_level { CT_LOG_DEBUG, CT_LOG_INFO, CT_LOG_WARNING, CT_LOG_ERROR };

/* Takes one line, without a newline; debug lines come only when the sink asked for them. */
typedef void ct_log_sink(enum ct_log_level level, const char *msg);

void ct_log_set_sink(ct_log_sink *sink, bool debug);
void ct_log(enum ct_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Whether debug lines are wanted: callers skip the work of making them otherwise. */
bool ct_log_debug_enabled(void);

#endif
