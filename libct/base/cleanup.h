/* Scope-bound ownership: each resource has exactly one cleanup, moved out with steal_*(). */
#ifndef CT_CLEANUP_H
#define CT_CLEANUP_H

#include <dirent.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
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

/* Closes an fd given up before the scope ends (our copy of the child's end after a fork),
 * so that the cleanup does not close it again. */
static inline void ct_close_now(int *fd)
{
	ct_closep(fd);
	*fd = -1;
}

/* Closes what *owner holds and makes it own fd instead (a walk moving down a level). */
static inline void ct_fd_replace(int *owner, int fd)
{
	ct_closep(owner);
	*owner = fd;
}

/* A pipe or socket pair: each end owned until stolen or closed with ct_close_now. */
static inline void ct_close_pairp(int (*pair)[2])
{
	ct_closep(&(*pair)[0]);
	ct_closep(&(*pair)[1]);
}

/* A child of ours that exits by itself: waited for, so that it leaves no zombie. */
static inline void ct_waitp(pid_t *pid)
{
	while (*pid > 0 && waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* fdopendir taking *fd over only when it succeeds: on failure the fd stays the caller's
 * (its cleanup closes it) and errno is fdopendir's. */
static inline DIR *ct_fdopendir(int *fd)
{
	DIR *d = *fd >= 0 ? fdopendir(*fd) : NULL;
	if (d)
		*fd = -1;
	return d;
}

/* A stream over the directory dirfd through a fresh open file description (a dup would share,
 * and move, dirfd's offset); dirfd stays the caller's. NULL with errno set. */
static inline DIR *ct_opendir_at(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = ct_fdopendir(&fd);
	if (!d && fd >= 0) {
		int saved = errno;
		close(fd);
		errno = saved;
	}
	return d;
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

#define _cleanup_free_	     __attribute__((cleanup(ct_freep)))
#define _cleanup_close_	     __attribute__((cleanup(ct_closep)))
#define _cleanup_fclose_     __attribute__((cleanup(ct_fclosep)))
#define _cleanup_closedir_   __attribute__((cleanup(ct_closedirp)))
#define _cleanup_close_pair_ __attribute__((cleanup(ct_close_pairp)))
#define _cleanup_wait_	     __attribute__((cleanup(ct_waitp)))

#define CT_FD_PAIR_INIT \
	{               \
		-1, -1  \
	}

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
