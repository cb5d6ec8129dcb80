/* Read-only bind mounts of ctrun's binary alone: the views without a copy
 * (libct/parent/exe_view.h). */
#ifndef CT_EXE_BIND_H
#define CT_EXE_BIND_H

#include "libct/base/error.h"

#define CT_EXE_KEPT_PREFIX "exe-"

/* A detached copy of the mount of the file open at self, for that file alone, read-only,
 * nosuid and nodev: its fd (close-on-exec), or -1 with err set. */
int ct_exe_detached_bind(int self, struct ct_error *err);

/* The kept view of the file open at self: dir/exe-<dev>-<ino>, a read-only bind of that file
 * attached there in ctrun's mount namespace, made by the first command that needs it (one
 * maker at a time: the directory is locked) and used by every later one; opened O_RDONLY
 * once it is checked to be that file on a read-only mount (ct_exe_state_of: the caller
 * need not check it again). Making it unmounts and removes
 * the views of binaries deleted since (an upgrade, a test's copy). dir is made 0700 when
 * missing and used only when trusted (libct/fs/trusted_dir.h). -1 with err set when it
 * cannot be had. */
int ct_exe_kept_bind(const char *dir, int self, struct ct_error *err);

#endif
