/* Typed D-Bus values written as text, the way runc reads the values of the
 * org.systemd.property.* annotations (GVariant's text format, the part of it that systemd
 * properties need): true/false; numbers (an integer is int32, one with a '.' or an exponent
 * a double, "0x" hex); a type keyword before a value (byte, int16, uint16, int32, uint32,
 * int64, uint64, double, boolean, string, objectpath, signature: "uint64 1024"); "@T value"
 * with any signature T ("@t 5", "@as []"); strings in '...' or "..." with backslash
 * escapes; arrays [a, b] and tuples (a, b). Pure. */
#ifndef CT_DBUS_LITERAL_H
#define CT_DBUS_LITERAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/dbus/signature.h"
#include "libct/dbus/writer.h"

#define CT_DBUS_LITERAL_MAX 65536 /* text longer than that is refused */

struct ct_dbus_lit {
	char sig[CT_DBUS_SIGNATURE_MAX + 1]; /* the value's whole type: "t", "as", "(ss)" */
	union {
		uint64_t u; /* y q u t, and b */
		int64_t i;  /* n i x */
		double d;
		char *s; /* s o g, malloc'ed */
	};
	struct ct_dbus_lit *items; /* an array's elements or a tuple's members */
	size_t n_items;
};

/* Parses the whole of text into *out (its own), or fails with EINVAL saying where. */
int ct_dbus_literal_parse(const char *text, struct ct_dbus_lit *out, struct ct_error *err);
void ct_dbus_literal_free(struct ct_dbus_lit *v);
/* Marshals the value (not its signature: the caller opens the variant with v->sig). */
void ct_dbus_literal_write(const struct ct_dbus_lit *v, struct ct_dbus_writer *w);

#endif
