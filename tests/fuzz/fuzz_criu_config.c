/* libFuzzer harness: a criu configuration file (org.criu.config names any file) -> the
 * log-file it sets. The bytes are given by their length, as the file is read: no NUL is
 * added, so a read past the end is ASan's to report. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/criu/criu_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char value[32];
	int rc = ct_criu_config_log_file((const char *)data, size, value, sizeof(value));
	if (rc < -1 || rc > 1)
		abort();
	size_t len = strnlen(value, sizeof(value));
	/* a value fits with its NUL, is one word's bytes, and is found only when set (a NUL
	 * byte inside may end it early) */
	if (len == sizeof(value) || len > size || (rc != 1 && len > 0))
		abort();
	if (rc == 1 && len == 0 && !memchr(data, 0, size))
		abort();
	if (rc == 1 && strchr(value, '\n'))
		abort();
	return 0;
}
