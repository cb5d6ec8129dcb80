/* One hexadecimal digit's value, for the decoders of escaped text. */
#ifndef CT_BASE_HEX_H
#define CT_BASE_HEX_H

/* 0 to 15, or -1 when c is no hexadecimal digit (either case). */
static inline int ct_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
