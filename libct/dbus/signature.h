/* D-Bus type signatures (the specification's "Type system"): which strings are valid, how
 * long one complete type is, and each type's alignment. Pure. */
#ifndef CT_DBUS_SIGNATURE_H
#define CT_DBUS_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>

#define CT_DBUS_SIGNATURE_MAX 255 /* a signature's length, its NUL not counted */
#define CT_DBUS_NESTING_MAX   32  /* arrays in arrays, or structs in structs */

/* Whether c is a basic type code (y b n q i u x t d s o g h): a dict entry's key. */
bool ct_dbus_type_is_basic(char c);

/* The alignment of values of type code c (1, 2, 4 or 8); 0 for an unknown code. */
size_t ct_dbus_type_align(char c);
/* The size of a value of fixed-size type c (y b n q i u h x t d): its alignment but for
 * y; 0 for any other code. */
size_t ct_dbus_fixed_size(char c);

/* The length of the one complete type that starts sig[0..len), 0 when it is not one
 * (an unknown code, an unclosed or empty struct, a dict entry outside an array, a key
 * that is not basic, nesting deeper than CT_DBUS_NESTING_MAX). */
size_t ct_dbus_complete_type_len(const char *sig, size_t len);

/* Whether sig[0..len) is a sequence of complete types no longer than the maximum. */
bool ct_dbus_signature_valid_n(const char *sig, size_t len);
bool ct_dbus_signature_valid(const char *sig);

/* Whether sig is exactly one complete type (a variant's signature). */
bool ct_dbus_signature_single(const char *sig);

#endif
