#include "libct/lifecycle/log.h"

#include <stdarg.h>
#include <stdio.h>

#include "libct/base/vaformat.h"

static ct_log_sink *log_sink;
static bool log_debug;

void ct_log_set_sink(ct_log_sink *sink, bool debug)
{
	log_sink = sink;
	log_debug = debug;
}

bool ct_log_debug_enabled(void)
{
	return log_debug;
}

void ct_log(enum ct_log_level level, const char *fmt, ...)
{
	if (!log_sink || (level == CT_LOG_DEBUG && !log_debug))
		return;
	char msg[2048];
	CT_VA_FORMAT(msg, fmt);
	log_sink(level, msg);
}
