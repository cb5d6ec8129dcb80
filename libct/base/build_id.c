/* NT_GNU_BUILD_ID of the main program, read from its loaded PT_NOTE segments. */
#include "libct/base/build_id.h"

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct found {
	char *buf;
	size_t size;
};

static size_t note_align(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Walks one PT_NOTE segment; true when it held the build id. */
static bool scan_notes(const unsigned char *p, size_t len, struct found *f)
{
	while (len >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const void *)p;
		size_t name = note_align(n->n_namesz), desc = note_align(n->n_descsz);
		size_t total = sizeof(*n) + name + desc;
		if (total > len)
			return false;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    memcmp(p + sizeof(*n), "GNU", 4) == 0) {
			const unsigned char *id = p + sizeof(*n) + name;
			for (size_t i = 0; i < n->n_descsz && 2 * i + 2 < f->size; i++)
				snprintf(f->buf + 2 * i, 3, "%02x", id[i]);
			return true;
		}
		p += total;
		len -= total;
	}
	return false;
}

/* The first object dl_iterate_phdr reports is the main program. */
static int main_program(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_NOTE &&
		    scan_notes((const void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, arg))
			break;
	}
	return 1;
}

const char *ct_build_id(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	struct found f = {buf, size};
	dl_iterate_phdr(main_program, &f);
	return buf;
}
