/* Logging: errors once to stderr as "ctrun: <message>", and to the --log file as text or as
 * one JSON object per line ({"level","msg","time"}), where Podman and containerd read it. */
#ifndef CTRUN_LOG_H
#define CTRUN_LOG_H

#include <stdbool.h>

#include "libct/base/error.h"
#include "libct/lifecycle/log.h"
#include "runtime/ctrun.h"

/* Opens the --log file and makes this the sink of ct_log (libct/lifecycle/log.h): returns 0
 * or -1 with err set. */
int ct_log_open(const struct ct_globals *g, struct ct_error *err);

/* Whether a record of level goes to the --log file: every one in text format; in JSON
 * format only errors unless --debug, because Podman reads a failed command's whole file
 * as one JSON object (a warning before the error would break it). Pure. */
bool ct_log_file_takes(enum ct_log_format format, enum ct_log_level level, bool debug);

/* Formats one JSON log line (no newline) into buf; exposed for unit tests. */
int ct_log_format_json(char *buf, unsigned size, enum ct_log_level level, const char *msg,
		       const char *time);
/* Formats one text log line (no newline) as runc's logrus writes it: time="T" level=L
 * msg="M", M quoted as Go's %q (\" \\ \a \b \f \n \r \t \v \xHH); exposed for unit tests. */
int ct_log_format_text(char *buf, unsigned size, enum ct_log_level level, const char *msg,
		       const char *time);
/* RFC 3339 UTC time with nanoseconds: 2026-12-03T08:00:00.123456789Z */
void ct_log_time_rfc3339(char *buf, unsigned size);

#endif
