#include "runtime/log.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <yajl/yajl_gen.h>

#include "libct/base/readall.h"
#include "runtime/json_out.h"

static int log_fd = -1;
static enum ct_log_format log_format = CT_LOG_TEXT;
static bool log_debug;

static const char *const level_names[] = {"debug", "info", "warning", "error"};

void ct_log_time_rfc3339(char *buf, unsigned size)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, size - n, ".%09ldZ", ts.tv_nsec);
}

int ct_log_format_json(char *buf, unsigned size, enum ct_log_level level, const char *msg,
		       const char *time)
{
	yajl_gen gen = yajl_gen_alloc(NULL);
	if (!gen)
		return -1;
	yajl_gen_map_open(gen);
	const char *pairs[][2] = {{"level", level_names[level]}, {"msg", msg}, {"time", time}};
	for (size_t i = 0; i < 3; i++)
		ct_json_str(gen, pairs[i][0], pairs[i][1]);
	yajl_gen_map_close(gen);
	const unsigned char *out;
	size_t len;
	yajl_gen_get_buf(gen, &out, &len);
	int n = snprintf(buf, size, "%.*s", (int)len, (const char *)out);
	yajl_gen_free(gen);
	return n < 0 || (unsigned)n >= size ? -1 : 0;
}

/* The length of the valid UTF-8 sequence at p (2 to 4 bytes), its code point in *cp; 0 when
 * p starts none (a stray continuation, an overlong form, a surrogate, past U+10FFFF, cut). */
static size_t utf8_sequence(const unsigned char *p, uint32_t *cp)
{
	size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 0;
	if (!len || p[0] > 0xf4)
		return 0;
	uint32_t v = p[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
	if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* Go's %q of a message, as logrus quotes one: a quote, a backslash and control bytes escaped
 * (by name where Go has one: \a \b \f \n \r \t \v; else \xHH), the C1 controls, U+00A0
 * and U+00AD as \u00HH, a byte of no valid UTF-8 sequence as \xHH, other UTF-8 as it is;
 * so that a reader of key="value" pairs finds where msg ends and the record stays one line.
 * 0, or -1 when it does not fit in room. */
static int quote_go(char *out, size_t room, const char *s)
{
	static const char named[] = {
		['"'] = '"',  ['\\'] = '\\', ['\a'] = 'a', ['\b'] = 'b', ['\f'] = 'f',
		['\n'] = 'n', ['\r'] = 'r',  ['\t'] = 't', ['\v'] = 'v'};
	size_t n = 0;
	out[n++] = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		uint32_t cp;
		size_t len;
		if (n + 8 > room) /* the longest escape (\u00HH), the closing quote, the NUL */
			return -1;
		if (*p < sizeof(named) && named[*p]) {
			out[n++] = '\\';
			out[n++] = named[*p];
		} else if (*p < 0x20 || *p == 0x7f) {
			n += (size_t)snprintf(out + n, room - n, "\\x%02x", *p);
		} else if (*p < 0x80) {
			out[n++] = (char)*p;
		} else if (!(len = utf8_sequence(p, &cp))) {
			n += (size_t)snprintf(out + n, room - n, "\\x%02x", *p);
		} else if (cp <= 0xa0 || cp == 0xad) { /* Go's unprintable Latin-1 */
			n += (size_t)snprintf(out + n, room - n, "\\u%04x", (unsigned)cp);
			p += len - 1;
		} else {
			memcpy(out + n, p, len);
			n += len;
			p += len - 1;
		}
	}
	out[n++] = '"';
	out[n] = '\0';
	return 0;
}

/* logrus's rule: a value is quoted once it holds a byte other than a letter, a digit or one
 * of -._/@^+ (an empty one is not). */
static bool needs_quoting(const char *s)
{
	for (; *s; s++)
		if (!isascii((unsigned char)*s) ||
		    (!isalnum((unsigned char)*s) && !strchr("-._/@^+", *s)))
			return true;
	return false;
}

int ct_log_format_text(char *buf, unsigned size, enum ct_log_level level, const char *msg,
		       const char *time)
{
	int n = snprintf(buf, size, "time=\"%s\" level=%s msg=", time, level_names[level]);
	if (n < 0 || (unsigned)n >= size)
		return -1;
	if (needs_quoting(msg))
		return quote_go(buf + n, size - (unsigned)n, msg);
	int m = snprintf(buf + n, size - (unsigned)n, "%s", msg);
	return m < 0 || (unsigned)m >= size - (unsigned)n ? -1 : 0;
}

bool ct_log_file_takes(enum ct_log_format format, enum ct_log_level level, bool debug)
{
	return format != CT_LOG_JSON || level == CT_LOG_ERROR || debug;
}

static void log_to_file(enum ct_log_level level, const char *msg)
{
	char time[64], line[4096];
	ct_log_time_rfc3339(time, sizeof(time));
	int (*format)(char *, unsigned, enum ct_log_level, const char *, const char *) =
		log_format == CT_LOG_JSON ? ct_log_format_json : ct_log_format_text;
	if (format(line, sizeof(line) - 1, level, msg, time) < 0)
		return;
	size_t n = strlen(line);
	line[n++] = '\n';
	(void)ct_write_all(log_fd, line, n); /* a log that cannot be written is lost */
}

/* The sink of the library's log (libct/lifecycle/log.h). */
static void write_line(enum ct_log_level level, const char *msg)
{
	bool to_file = log_fd >= 0 && ct_log_file_takes(log_format, level, log_debug);
	if (to_file)
		log_to_file(level, msg);
	/* runc prints errors to stderr even with --log; callers rely on both. Those that pass
	 * --log (conmon, the shim) name the runtime themselves: conmon hands this line to
	 * Podman, which shows "Error: ctrun: <msg>"; so, as runc's, it is bare then. */
	if (level == CT_LOG_ERROR)
		fprintf(stderr, "%s%s\n", log_fd >= 0 ? "" : "ctrun: ", msg);
	else if (!to_file) /* as runc's: --debug fills the file, not the caller's stderr (Buildah
			    * prints a failed RUN's runtime stderr as the build's error) */
		fprintf(stderr, "ctrun: %s: %s\n", level_names[level], msg);
}

int ct_log_open(const struct ct_globals *g, struct ct_error *err)
{
	log_format = g->log_format;
	log_debug = g->debug;
	ct_log_set_sink(write_line, log_debug);
	if (!g->log_file)
		return 0;
	log_fd = openat(AT_FDCWD, g->log_file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (log_fd < 0)
		return ct_error_sys(err, errno, "open log file \"%s\"", g->log_file);
	return 0;
}
