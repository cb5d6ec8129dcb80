/* criu's configuration file, read for one thing: where it moves criu's log. A config file
 * given over RPC is applied after the RPC options (criu(8), "Configuration files in RPC
 * mode"), so its log-file wins over the one ctrun asks for, and a failure's hint must name
 * that file. */
#ifndef CT_CRIU_CONFIG_H
#define CT_CRIU_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* The value of the last log-file option ("log-file NAME", "log-file=NAME", NAME maybe in
 * double quotes with \" inside) of len bytes of config text, copied into out. 1 when one is
 * set, 0 when none is, -1 when the last one has no value or its value does not fit size. */
int ct_criu_config_log_file(const char *text, size_t len, char *out, size_t size);

/* Where criu writes its log: path, or "" when config (the config file criu is given, or
 * NULL) moves it where ctrun cannot tell (its log-file has no value, or one too long);
 * unread when config could not be read (path is then where criu writes it unless config
 * moves it). */
struct ct_criu_log {
	char path[PATH_MAX];
	const char *config;
	bool unread;
};

/* The log of a criu asked for name in work_dir, given config_file (NULL: none): name in
 * work_dir, unless the file sets log-file (its value, under work_dir unless absolute). */
void ct_criu_log_locate(struct ct_criu_log *log, const char *config_file, const char *work_dir,
			const char *name);

/* " (see PATH)", or what the config may have made of it, for the end of a failure's
 * message. */
void ct_criu_log_hint(const struct ct_criu_log *log, char *out, size_t size);

#endif
