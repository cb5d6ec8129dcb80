/* Scope-bound ownership: each resource has exactly one cleanup, moved out with steal_*(). */
#ifndef CT_CLEANUP_H
#define CT_CLEANUP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void ct_freep(void *p)
{
	free(*(void **)p);
}

static inline void ct_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd); /* never retried on EINTR: the fd is gone either way */
}

static inline void ct_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

static inline void ct_closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

#define _cleanup_free_	   __attribute__((cleanup(ct_freep)))
#define _cleanup_close_	   __attribute__((cleanup(ct_closep)))
#define _cleanup_fclose_   __attribute__((cleanup(ct_fclosep)))
#define _cleanup_closedir_ __attribute__((cleanup(ct_closedirp)))

static inline int steal_fd(int *fd)
{
	int v = *fd;
	*fd = -1;
	return v;
}

#define steal_ptr(pp)                         \
	({                                    \
		__typeof__(*(pp)) _v = *(pp); \
		*(pp) = NULL;                 \
		_v;                           \
	})

#endif
