/* Whether a file ctrun runs from is one no container process can write (CVE-2019-5736,
 * libct/parent/exe_view.h), judged by the file itself, never by an environment variable. */
#ifndef CT_EXE_STATE_H
#define CT_EXE_STATE_H

enum ct_exe_state {
	CT_EXE_WRITABLE,	/* a container could come to write it: needs a view */
	CT_EXE_SEALED_MEMFD,	/* the sealed copy */
	CT_EXE_READ_ONLY_MOUNT, /* a bind view, or a binary installed on a read-only mount */
};

/* The state of the file open at fd (any open of an executable). */
enum ct_exe_state ct_exe_state_of(int fd);

#endif
