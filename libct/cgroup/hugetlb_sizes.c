/* Huge page sizes (see hugetlb_sizes.h). */
#include "libct/cgroup/hugetlb_sizes.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HUGEPAGES_DIR "/sys/kernel/mm/hugepages"

void ct_hugetlb_size_name(unsigned long long kb, char name[CT_HUGETLB_NAME_MAX])
{
	static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
	double size = (double)kb * 1024;
	size_t unit = 0;
	for (; size >= 1024 && unit + 1 < sizeof(units) / sizeof(units[0]); unit++)
		size /= 1024;
	snprintf(name, CT_HUGETLB_NAME_MAX, "%g%s", size, units[unit]);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t ct_hugetlb_sizes(char (*names)[CT_HUGETLB_NAME_MAX], size_t max)
{
	DIR *d = opendir(HUGEPAGES_DIR);
	size_t n = 0;
	if (!d)
		return 0;
	for (struct dirent *e; n < max && (e = readdir(d));) {
		unsigned long long kb;
		char unit[4];
		if (sscanf(e->d_name, "hugepages-%llu%3s", &kb, unit) == 2 && !strcmp(unit, "kB"))
			ct_hugetlb_size_name(kb, names[n++]);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	return n;
}
