/* What CRIU must be told of a container, for checkpoint and restore alike (runc tells it the
 * same): the binds from outside as external mounts (their destination as the key; at
 * restore the source it is to bind again), joined
 * network and pid namespaces as external, and the flags of the command line. */
#ifndef CT_CRIU_CONTAINER_H
#define CT_CRIU_CONTAINER_H

#include <stdbool.h>
#include <sys/types.h>

#include "libct/criu/criu_config.h"
#include "libct/criu/criu_rpc.h"
#include "libct/lifecycle/ops.h"
#include "oci/config.h"

/* runc's names of the joined namespaces' keys */
#define CT_CRIU_EXT_NETNS   "extRootNetNS"
#define CT_CRIU_EXT_PIDNS   "extRootPidNS"
#define CT_CRIU_DESCRIPTORS "descriptors.json" /* the init's fds 0-2 as runc records them */

/* Strings made for the options, freed together. */
struct ct_criu_strings {
	char *items[2 * CT_CRIU_LIST_MAX];
	size_t n;
};
void ct_criu_strings_free(struct ct_criu_strings *s);
/* A formatted string kept in s; NULL on failure (err set). */
char *ct_criu_keep(struct ct_criu_strings *s, struct ct_error *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* descriptors.json's text: what the init's fds 0, 1 and 2 are, as runc records them
 * ("/dev/null", "pipe:[123]", a file's path; "" for a closed one), a JSON array of three
 * strings; restore gives pipes among them its caller's. malloc'd, or NULL (err set). */
char *ct_criu_descriptors_json(pid_t pid, struct ct_error *err);

/* The directory of a flag (--image-path, --work-path) opened, made (0700) first when make
 * and missing; its fd, or -1 naming the flag and path. */
int ct_criu_open_dir(const char *path, const char *flag, bool make, struct ct_error *err);

/* criu's work directory: work_path opened as ct_criu_open_dir does, or, without one, a
 * close-on-exec copy of image_fd (criu works in the image directory then). */
int ct_criu_open_work_dir(const char *work_path, int image_fd, bool make, struct ct_error *err);

/* The command line's flags into o (page server, cgroup mode, ...); a value ctrun cannot
 * use fails naming the flag. */
int ct_criu_opts_from_args(const struct ct_criu_args *a, struct ct_criu_opts *o,
			   struct ct_criu_strings *s, struct ct_error *err);

/* runc's criu configuration file: the one the annotation org.criu.config names (none when
 * it is empty), else CT_CRIU_DEFAULT_CONFIG when it exists; NULL: none. */
#define CT_CRIU_CONFIG_ANNOTATION "org.criu.config"
#define CT_CRIU_DEFAULT_CONFIG	  "/etc/criu/runc.conf"
const char *ct_criu_config_file(const oci_string_map *annotations);

/* Where criu puts the log o asks for (o->log_file), o->config_file read: in the work
 * directory (--work-path, else --image-path) unless that config moves it. */
void ct_criu_log_of(const struct ct_criu_args *a, const struct ct_criu_opts *o,
		    struct ct_criu_log *log);

/* The binds from outside, external mounts keyed by their destination: for a dump the value
 * (what criu writes in the image) is the key again; for a restore it is the bind's source
 * (a relative one under bundle). Masked paths need none: ctrun binds the container's own
 * /dev/null over them, a bind criu sees inside. */
int ct_criu_external_mounts(const struct oci_config *cfg, const char *bundle, bool restore,
			    struct ct_criu_opts *o, struct ct_criu_strings *s,
			    struct ct_error *err);

/* Namespaces the container joined (a path in linux.namespaces): network and pid are
 * external (dump: "net[INODE]:extRootNetNS"; restore: the namespace opened and inherited
 * under that key, the fd in *fds). Others cannot be checkpointed: refused. */
int ct_criu_external_namespaces(const struct oci_config *cfg, bool restore, struct ct_criu_opts *o,
				struct ct_criu_strings *s, int fds[2], struct ct_error *err);

#endif
