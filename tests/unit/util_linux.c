/* libmount found at run time (util_linux.h). */
#include "tests/unit/util_linux.h"

#include <criterion/criterion.h>
#include <dlfcn.h>
#include <stddef.h>

/* libmount's struct libmnt_optmap, as its ABI has it. */
struct optmap_entry {
	const char *name;
	int id;	  /* the MS_* flag */
	int mask; /* MNT_INVERT: the option clears id */
};

#define MNT_LINUX_MAP 1
#define MNT_INVERT    (1 << 1)

static int (*get_flags)(const char *, unsigned long *, const struct optmap_entry *);
static const struct optmap_entry *linux_map;

static void load(void)
{
	if (get_flags)
		return;
	void *lib = dlopen("libmount.so.1", RTLD_NOW);
	if (!lib)
		cr_skip("libmount.so.1 (util-linux) is not installed: %s", dlerror());
	const struct optmap_entry *(*optmap)(int) =
		(const struct optmap_entry *(*)(int))dlsym(lib, "mnt_get_builtin_optmap");
	get_flags = (int (*)(const char *, unsigned long *, const struct optmap_entry *))dlsym(
		lib, "mnt_optstr_get_flags");
	cr_assert(optmap && get_flags, "libmount lacks its optmap functions");
	linux_map = optmap(MNT_LINUX_MAP);
}

/* The flags start as 0 to see what the option sets, as all ones to see what it clears. */
struct util_linux_flags util_linux_flags(const char *name)
{
	load();
	unsigned long from_zero = 0, from_ones = ~0UL;
	cr_assert_eq(get_flags(name, &from_zero, linux_map), 0, "libmount: \"%s\"", name);
	cr_assert_eq(get_flags(name, &from_ones, linux_map), 0, "libmount: \"%s\"", name);
	cr_assert(from_zero || ~from_ones, "libmount does not know \"%s\"", name);
	return (struct util_linux_flags){from_zero, ~from_ones};
}

const char *util_linux_option(unsigned long ms, bool sets)
{
	load();
	for (const struct optmap_entry *e = linux_map; e->name; e++)
		if ((unsigned long)e->id == ms && e->mask == (sets ? 0 : MNT_INVERT))
			return e->name;
	cr_assert_fail("libmount has no option that %s %#lx", sets ? "sets" : "clears", ms);
	return NULL;
}
