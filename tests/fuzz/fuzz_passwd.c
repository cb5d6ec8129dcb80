/* libFuzzer harness: passwd(5) text (a container's /etc/passwd, hostile) -> the home and the
 * name of a few uids. The bytes are given by their length, as the file is read: no NUL is
 * added, so a read past the end is ASan's to report. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/base/passwd.h"

static const uid_t uids[] = {0, 1, 1000, 65534, 4294967295u};

/* A field never holds the separators it was cut at. */
static void check_field(const char *s)
{
	if (strchr(s, ':') || strchr(s, '\n'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	for (size_t i = 0; i < sizeof(uids) / sizeof(uids[0]); i++) {
		char *home = NULL, name[32];
		int found = ct_passwd_find_home(text, size, uids[i], &home);
		if (found < 0 || (found == 0) != (home != NULL))
			abort();
		if (home) {
			check_field(home);
			if (strlen(home) > size)
				abort();
		}
		free(home);
		/* a named entry of uid is an entry of uid (its name may start with a NUL byte,
		 * which ends the copy: no check that the copy is non-empty) */
		if (ct_passwd_find_name(text, size, uids[i], name, sizeof(name))) {
			check_field(name);
			if (found != 0)
				abort();
		}
	}
	return 0;
}
