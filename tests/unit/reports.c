/* The report collecting callbacks (reports.h). */
#include "tests/unit/reports.h"

#include <stdio.h>

void collect_error(void *data, const char *msg)
{
	struct reports *r = data;
	if (r->nerrors < MAX_REPORTS)
		snprintf(r->errors[r->nerrors], sizeof(r->errors[0]), "%s", msg);
	r->nerrors++;
}

void collect_unknown(void *data, const char *file, const char *path)
{
	struct reports *r = data;
	if (r->nunknown < MAX_REPORTS)
		snprintf(r->unknown[r->nunknown], sizeof(r->unknown[0]), "%s %s", file, path);
	r->nunknown++;
}
