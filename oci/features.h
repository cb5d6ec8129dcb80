/* The features document of features.md / features-linux.md: what ctrun implements, fixed
 * at build time (features.md: "determined on the compilation time"). */
#ifndef OCI_FEATURES_H
#define OCI_FEATURES_H

#include "libct/base/error.h"

/* Facts known only to the caller (oci/ links no libseccomp). */
struct oci_features_info {
	const char *libseccomp_version; /* "2.5.4", or NULL to leave the annotation out */
	/* The back end of the mount query layer on this kernel ("statmount", "mountinfo"),
	 * which create's mount check uses; NULL to leave it out. */
	const char *mounts_backend;
};

/* Returns the pretty-printed document (malloc'd, ends with a newline), or NULL with err. */
char *oci_features_json(const struct oci_features_info *info, struct ct_error *err);

#endif
