/* One generic walker from a yajl tree into C structs, driven by field descriptor tables.
 *
 * A struct is described by an array of `struct oci_field` (name, type, offset); a type says
 * what JSON it accepts and how it is stored. Arrays and maps are stored as
 * OCI_ARRAY(T) {T *items; size_t len;}; a map element holds its key (char *) at offset 0.
 * Errors name the file and the JSON path; the walker keeps going after an error so that
 * `ctrun validate` can list every problem of a document in one run. */
#ifndef OCI_JSONWALK_H
#define OCI_JSONWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <yajl/yajl_tree.h>

#include "libct/base/error.h"
#include "oci/jsonpath.h"
#include "oci/jsontree.h"

#define OCI_ARRAY(T)        \
	struct {            \
		T *items;   \
		size_t len; \
	}

enum oci_kind {
	OCI_STRING, /* char *, NULL when absent */
	OCI_BOOL,   /* bool */
	OCI_INT,    /* signed integer of `width` bytes, within [min, max] */
	OCI_UINT,   /* unsigned integer of `width` bytes, at most umax */
	OCI_ENUM,   /* int: index of the string in `names` */
	OCI_OBJECT, /* embedded struct described by `fields` */
	OCI_ARRAY,  /* OCI_ARRAY of elements of `elem` */
	OCI_MAP,    /* OCI_ARRAY of {char *key; value at value_offset} */
};

struct oci_walk;
struct oci_field;

struct oci_type {
	enum oci_kind kind;
	unsigned width;
	int64_t min, max;
	uint64_t umax;
	const char *const *names;
	const struct oci_field *fields;
	const struct oci_type *elem;
	size_t elem_size;
	size_t value_offset;
	/* Extra rule beyond the JSON type (pattern, absolute path); returns 0 or reports. */
	int (*check)(struct oci_walk *w, const void *value);
};

#define OCI_NO_PRESENCE ((ssize_t)-1)

struct oci_field {
	const char *name;
	const struct oci_type *type;
	size_t offset;
	ssize_t present; /* offset of a bool set when the field is given, or OCI_NO_PRESENCE */
	bool required;
};

/* Sentinel-terminated field tables: { NULL } ends the list. */
#define OCI_FIELD(st, json, member, typ)                                   \
	{                                                                  \
		json, &(typ), offsetof(st, member), OCI_NO_PRESENCE, false \
	}
#define OCI_FIELD_REQ(st, json, member, typ)                              \
	{                                                                 \
		json, &(typ), offsetof(st, member), OCI_NO_PRESENCE, true \
	}
/* An optional scalar whose absence matters: sets st.has_<member>. */
#define OCI_FIELD_OPT(st, json, member, typ)                                          \
	{                                                                             \
		json, &(typ), offsetof(st, member), offsetof(st, has_##member), false \
	}

/* Steps kept: each renders to at least 2 characters, so these fill the 511 characters of
 * a rendered path; deeper levels are only counted. */
#define OCI_PATH_STEPS 256

struct oci_walk {
	const char *file; /* "config.json": first word of every message */
	/* ".linux.resources.memory.limit": rendered from `steps` only when a message needs it
	 * (an error, an unknown property), not for every value walked. */
	char path[512];
	struct oci_path_step steps[OCI_PATH_STEPS];
	size_t depth; /* levels below the document; steps[] holds the first OCI_PATH_STEPS */
	unsigned nerrors;
	struct ct_error *err; /* receives the first error */
	/* Called for every error (validate lists them all); may be NULL. */
	void (*on_error)(void *data, const char *msg);
	/* Called for every property the descriptors do not know (logged with --debug). */
	void (*on_unknown)(void *data, const char *file, const char *path);
	void *data;
};

/* Fills `out` (zeroed by the caller) from object `v` using `fields`. Returns 0 or -1. */
int oci_walk_object(struct oci_walk *w, const struct oci_field *fields, yajl_val v, void *out);

/* Reports an error at the current path: "<file>: <path>: <message>". Returns -1. */
int oci_walk_error(struct oci_walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Same, at "<path>.<subpath>" below the current one ("linux.devices[2]"). */
int oci_walk_error_at(struct oci_walk *w, const char *subpath, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An integer of type t (OCI_INT or OCI_UINT) from its JSON text, stored at dst by the
 * type's width; what the walker does with a number, for readers that see the text alone
 * (oci/jsonsax.h). */
enum oci_integer_result { OCI_INTEGER_STORED, OCI_NOT_AN_INTEGER, OCI_OUT_OF_RANGE };
enum oci_integer_result oci_integer_store(const struct oci_type *t, const char *text, void *dst);

/* Releases everything oci_walk_object allocated in `obj` (not obj itself). */
void oci_walk_free(const struct oci_field *fields, void *obj);

/* Reads a file into a NUL-terminated buffer (at most `max` bytes). */
char *oci_read_file(const char *path, size_t max, struct ct_error *err);

/* Shared scalar types of the spec (defs.json). */
extern const struct oci_type oci_t_string, oci_t_bool, oci_t_int32, oci_t_int64, oci_t_uint8,
	oci_t_uint16, oci_t_uint32, oci_t_uint64, oci_t_string_array, oci_t_uint32_array,
	oci_t_string_map, oci_t_abs_path;

/* A map element of oci_t_string_map. */
struct oci_kv {
	char *key;
	char *value;
};
typedef OCI_ARRAY(char *) oci_strings;
typedef OCI_ARRAY(struct oci_kv) oci_string_map;
typedef OCI_ARRAY(uint32_t) oci_uint32s;

#endif
