/* printf-style formatting of a variadic function's own arguments into a fixed buffer. */
#ifndef CT_BASE_VAFORMAT_H
#define CT_BASE_VAFORMAT_H

#include <stdarg.h>
#include <stdio.h>

/* Formats the arguments that follow fmt, the enclosing function's last named parameter, into
 * the char array buf, cut to its size. */
#define CT_VA_FORMAT(buf, fmt)                            \
	do {                                              \
		va_list ct_va_;                           \
		va_start(ct_va_, fmt);                    \
		vsnprintf(buf, sizeof(buf), fmt, ct_va_); \
		va_end(ct_va_);                           \
	} while (0)

#endif
