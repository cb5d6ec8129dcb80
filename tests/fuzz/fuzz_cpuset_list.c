/* libFuzzer harness: a cgroup's cpuset.cpus or cpuset.mems text (a kernel's, or a hostile
 * container's cgroup files) -> the numbers of its list. A list taken is written back out, one
 * number at a time, and must read back as the same numbers; a list refused is EINVAL or
 * ENOMEM and leaves nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libct/cgroup/cpuset_list.h"
#include "tests/fuzz/fuzz_input.h"

static char *render(const uint16_t *v, size_t n)
{
	char *text = malloc(n * 6 + 2), *p = text;
	if (!text)
		abort();
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%u", i ? "," : "", (unsigned)v[i]);
	strcpy(p, "\n");
	return text;
}

static void check_round_trip(const uint16_t *v, size_t n)
{
	char *text = render(v, n);
	uint16_t *again = NULL;
	size_t m = 0;
	if (ct_cpuset_list_parse(text, &again, &m) != 0 || m != n ||
	    (n && memcmp(again, v, n * sizeof(*v)) != 0))
		abort();
	free(again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint16_t *v = (uint16_t *)&text; /* not NULL: a refusal must leave NULL */
	size_t n = 7;
	int rc = ct_cpuset_list_parse(text, &v, &n);
	if (rc == 0) {
		if ((n == 0) != (v == NULL))
			abort();
		check_round_trip(v, n);
	} else if (rc != -1 || (errno != EINVAL && errno != ENOMEM)) {
		abort();
	}
	if (rc == 0)
		free(v);
	free(text);
	return 0;
}
