/* The huge page sizes the kernel offers (/sys/kernel/mm/hugepages/hugepages-<N>kB), named as
 * runc names them in hugetlb file names and statistics ("2MB", "1GB", "64KB"). */
#ifndef CTRUN_CGROUP_HUGETLB_SIZES_H
#define CTRUN_CGROUP_HUGETLB_SIZES_H

#include <stddef.h>

#define CT_HUGETLB_NAME_MAX 16

/* The name of a size of kb KiB: the largest unit of B, KB, MB, GB, TB, PB that leaves a
 * number >= 1, printed shortest ("1.5MB" for 1536). Pure. */
void ct_hugetlb_size_name(unsigned long long kb, char name[CT_HUGETLB_NAME_MAX]);

/* The sizes' names, sorted as strings (runc's statistics are a map: Go prints its keys
 * sorted), at most max; the count, 0 when the directory cannot be read. */
size_t ct_hugetlb_sizes(char (*names)[CT_HUGETLB_NAME_MAX], size_t max);

#endif
