/* libct/cgroup/hugetlb_sizes.c: huge page sizes named as runc names them. */
#include <criterion/criterion.h>
#include <string.h>

#include "libct/cgroup/hugetlb_sizes.h"

Test(hugetlb_sizes, names_as_runc)
{
	static const struct {
		unsigned long long kb;
		const char *name;
	} cases[] = {
		{64, "64KB"},	  {2048, "2MB"},      {32768, "32MB"}, {524288, "512MB"},
		{1048576, "1GB"}, {16777216, "16GB"}, {1536, "1.5MB"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[CT_HUGETLB_NAME_MAX];
		ct_hugetlb_size_name(cases[i].kb, name);
		cr_expect_str_eq(name, cases[i].name, "%llu kB", cases[i].kb);
	}
}

/* What this kernel offers, sorted as Go sorts a map's keys. */
Test(hugetlb_sizes, listed_sorted)
{
	char names[16][CT_HUGETLB_NAME_MAX];
	size_t n = ct_hugetlb_sizes(names, 16);
	for (size_t i = 1; i < n; i++)
		cr_expect_lt(strcmp(names[i - 1], names[i]), 0, "%s before %s", names[i - 1],
			     names[i]);
	for (size_t i = 0; i < n; i++)
		cr_expect(strstr(names[i], "B"), "%s", names[i]);
}
