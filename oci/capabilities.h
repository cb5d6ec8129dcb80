/* The capability names process.capabilities may use (config.md#process), ctrun's own table:
 * `features` lists it and the plan maps names to numbers with it, so ctrun needs no libcap
 * (whose start-up probed the bounding set with six prctl calls in every command). */
#ifndef OCI_CAPABILITIES_H
#define OCI_CAPABILITIES_H

/* Indexed by capability number, NULL-terminated. */
extern const char *const oci_capability_names[];

#endif
