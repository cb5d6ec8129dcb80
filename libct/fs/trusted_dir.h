/* Directories ctrun keeps its own files in (its cache directory and the folders in it): only
 * what the caller itself made, or root (the caller then), is trusted. */
#ifndef CT_TRUSTED_DIR_H
#define CT_TRUSTED_DIR_H

#include <stdbool.h>
#include <sys/stat.h>

/* Owned by the euid and writable by no group or other. */
bool ct_trusted_stat(const struct stat *st);

/* name in atfd opened O_RDONLY | O_DIRECTORY, made 0700 when create and missing; -1 when it
 * is missing or cannot be used (a symlink there, not ours, writable by others). */
int ct_open_trusted_dir(int atfd, const char *name, bool create);

#endif
