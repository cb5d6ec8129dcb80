/* The GNU build id of the running program: a hash the linker computed over the whole
 * binary, so it changes with any change of the code, committed or not. */
#ifndef CT_BUILD_ID_H
#define CT_BUILD_ID_H

#include <stddef.h>

/* Lower-case hex of the main program's NT_GNU_BUILD_ID note into buf; "" when the program
 * has none (linked with --build-id=none). Returns buf. */
const char *ct_build_id(char *buf, size_t size);

#endif
