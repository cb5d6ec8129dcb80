/* What a parser reports while it walks a document (test_config.c, test_jsonwalk.c): every
 * error message and every unknown member, kept in order as the callbacks get them. */
#ifndef CTRUN_TESTS_REPORTS_H
#define CTRUN_TESTS_REPORTS_H

#include "libct/base/error.h"

#define MAX_REPORTS 16

struct reports {
	unsigned nerrors, nunknown;
	char errors[MAX_REPORTS][CT_ERROR_MSG_MAX];
	char unknown[MAX_REPORTS][600];
};

/* The error callback: data is a struct reports. */
void collect_error(void *data, const char *msg);
/* The unknown-member callback: "file path" into data's list. */
void collect_unknown(void *data, const char *file, const char *path);

#endif
