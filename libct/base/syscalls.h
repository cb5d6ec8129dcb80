/* The kernel interfaces ctrun needs that Debian 12's headers (Linux 6.1 UAPI, glibc 2.36) do
 * not all declare: syscall numbers, flags and structs for clone3, pidfd, openat2, the new
 * mount API, fchmodat2, statmount and listmount, and thin wrappers around syscall(2).
 *
 * Values come from the kernel's UAPI headers (include/uapi/linux/{sched,openat2,mount,stat}.h,
 * as of Linux 6.18). Each macro is guarded with #ifndef so that newer headers which define it
 * win without a clash. Structs that newer headers also declare (struct statmount, struct
 * mnt_id_req) live under ct_ names so that both can be in scope at once.
 *
 * glibc 2.36's <sys/mount.h> includes <linux/mount.h> itself (Debian's fixed 2.36), so this
 * header takes struct mount_attr and the older mount-API flags from there and never includes
 * <linux/mount.h> directly. Include this header, not <linux/mount.h>.
 *
 * The wrappers return what syscall(2) returns: -1 with errno set on failure. Whether the
 * kernel offers a call is decided once by libct/base/kernel.h, not by each caller.
 *
 * Files are opened with openat(AT_FDCWD, ...), never open(): musl's open() follows an
 * O_CLOEXEC open with fcntl(F_SETFD) for kernels before 2.6.23, one syscall more per file
 * (two per container in `list`); its openat() is the bare syscall, as glibc's open() is. */
#ifndef CT_SYSCALLS_H
#define CT_SYSCALLS_H

#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#ifndef __GLIBC__
#include <linux/mount.h> /* musl's <sys/mount.h> does not include it, glibc's does */
#endif

/* ---- syscall numbers ---------------------------------------------------------------------
 * Since Linux 5.1 every architecture shares one number for each new syscall (424 and up),
 * except alpha (+110), mips (per-ABI offsets) and ia64; x32 ORs in __X32_SYSCALL_BIT. Those
 * are not targets: refuse to build there rather than call the wrong syscall. */
#if defined(__alpha__) || defined(__mips__) || defined(__ia64__) || \
	(defined(__x86_64__) && defined(__ILP32__))
#error "libct/base/syscalls.h: syscall numbers for this architecture are not defined"
#endif

#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsconfig
#define __NR_fsconfig 431
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_fspick
#define __NR_fspick 433
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_statmount
#define __NR_statmount 457
#endif
#ifndef __NR_listmount
#define __NR_listmount 458
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif

/* ---- clone3 (linux/sched.h) --------------------------------------------------------------
 * struct clone_args comes from <linux/sched.h>; 6.1 has the set_tid and cgroup fields. */
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND 0x100000000ULL
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
#ifndef CLONE_ARGS_SIZE_VER0
#define CLONE_ARGS_SIZE_VER0 64 /* up to .tls */
#endif
#ifndef CLONE_ARGS_SIZE_VER1
#define CLONE_ARGS_SIZE_VER1 80 /* + .set_tid, .set_tid_size */
#endif
#ifndef CLONE_ARGS_SIZE_VER2
#define CLONE_ARGS_SIZE_VER2 88 /* + .cgroup */
#endif

_Static_assert(sizeof(struct clone_args) >= CLONE_ARGS_SIZE_VER2,
	       "<linux/sched.h> lacks clone_args.cgroup (needs Linux 5.7 headers)");

/* ---- pidfd (linux/pidfd.h, linux/wait.h) ---------------------------------------------- */
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* 6.9 */
#endif

/* ---- *at() flags (linux/fcntl.h) -------------------------------------------------------- */
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef ST_NOSYMFOLLOW
#define ST_NOSYMFOLLOW 0x2000 /* statvfs f_flag of a nosymfollow mount (5.10) */
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000 /* open_tree(), mount_setattr(): the whole subtree */
#endif

/* ---- openat2 (linux/openat2.h: struct open_how, RESOLVE_*) ------------------------------ */
#ifndef RESOLVE_NO_XDEV
#define RESOLVE_NO_XDEV 0x01
#endif
#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02
#endif
#ifndef RESOLVE_NO_SYMLINKS
#define RESOLVE_NO_SYMLINKS 0x04
#endif
#ifndef RESOLVE_BENEATH
#define RESOLVE_BENEATH 0x08
#endif
#ifndef RESOLVE_IN_ROOT
#define RESOLVE_IN_ROOT 0x10
#endif
#ifndef RESOLVE_CACHED
#define RESOLVE_CACHED 0x20
#endif
#ifndef OPEN_HOW_SIZE_VER0
#define OPEN_HOW_SIZE_VER0 24
#endif

/* ---- new mount API (linux/mount.h via sys/mount.h: struct mount_attr) ------------------- */
#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif

#ifndef MOVE_MOUNT_F_SYMLINKS
#define MOVE_MOUNT_F_SYMLINKS 0x00000001
#endif
#ifndef MOVE_MOUNT_F_AUTOMOUNTS
#define MOVE_MOUNT_F_AUTOMOUNTS 0x00000002
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif
#ifndef MOVE_MOUNT_T_SYMLINKS
#define MOVE_MOUNT_T_SYMLINKS 0x00000010
#endif
#ifndef MOVE_MOUNT_T_AUTOMOUNTS
#define MOVE_MOUNT_T_AUTOMOUNTS 0x00000020
#endif
#ifndef MOVE_MOUNT_T_EMPTY_PATH
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#endif
#ifndef MOVE_MOUNT_SET_GROUP
#define MOVE_MOUNT_SET_GROUP 0x00000100 /* 5.15 */
#endif
#ifndef MOVE_MOUNT_BENEATH
#define MOVE_MOUNT_BENEATH 0x00000200 /* 6.5 */
#endif

#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x00000001
#endif
#ifndef FSPICK_CLOEXEC
#define FSPICK_CLOEXEC 0x00000001
#endif
#ifndef FSPICK_SYMLINK_NOFOLLOW
#define FSPICK_SYMLINK_NOFOLLOW 0x00000002
#endif
#ifndef FSPICK_NO_AUTOMOUNT
#define FSPICK_NO_AUTOMOUNT 0x00000004
#endif
#ifndef FSPICK_EMPTY_PATH
#define FSPICK_EMPTY_PATH 0x00000008
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x00000001
#endif

/* enum fsconfig_command (FSCONFIG_SET_FLAG ... FSCONFIG_CMD_RECONFIGURE) comes from
 * <linux/mount.h>. 6.6 added CMD_CREATE_EXCL; #ifndef cannot see an enum member, but a macro
 * with the same value next to a newer header's member is harmless: that enum is already
 * parsed when this line is reached. */
#ifndef FSCONFIG_CMD_CREATE_EXCL
#define FSCONFIG_CMD_CREATE_EXCL 8
#endif

#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef MOUNT_ATTR_NOSUID
#define MOUNT_ATTR_NOSUID 0x00000002
#endif
#ifndef MOUNT_ATTR_NODEV
#define MOUNT_ATTR_NODEV 0x00000004
#endif
#ifndef MOUNT_ATTR_NOEXEC
#define MOUNT_ATTR_NOEXEC 0x00000008
#endif
#ifndef MOUNT_ATTR__ATIME
#define MOUNT_ATTR__ATIME 0x00000070
#endif
#ifndef MOUNT_ATTR_RELATIME
#define MOUNT_ATTR_RELATIME 0x00000000
#endif
#ifndef MOUNT_ATTR_NOATIME
#define MOUNT_ATTR_NOATIME 0x00000010
#endif
#ifndef MOUNT_ATTR_STRICTATIME
#define MOUNT_ATTR_STRICTATIME 0x00000020
#endif
#ifndef MOUNT_ATTR_NODIRATIME
#define MOUNT_ATTR_NODIRATIME 0x00000080
#endif
#ifndef MOUNT_ATTR_IDMAP
#define MOUNT_ATTR_IDMAP 0x00100000
#endif
#ifndef MOUNT_ATTR_NOSYMFOLLOW
#define MOUNT_ATTR_NOSYMFOLLOW 0x00200000
#endif
#ifndef MOUNT_ATTR_SIZE_VER0
#define MOUNT_ATTR_SIZE_VER0 32
#endif

/* ---- statx (linux/stat.h) --------------------------------------------------------------- */
#ifndef STATX_INO
#define STATX_INO 0x00000100U
#endif
#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U /* 6.8: stx_mnt_id is the 64-bit unique id */
#endif

/* The kernel's struct statx, under a name of our own: musl before 1.2.5 declares neither
 * statx() nor the struct, and <linux/stat.h> clashes with its <sys/stat.h> (S_IF* macros).
 * Only the fields ctrun reads are named; the layout is the UAPI's, checked below. */
struct ct_statx {
	__u32 stx_mask;
	__u32 stx_blksize;
	__u64 stx_attributes;
	__u32 stx_nlink, stx_uid, stx_gid;
	__u16 stx_mode, stx_spare0;
	__u64 stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	__u64 stx_times[8]; /* atime, btime, ctime, mtime: {__s64 sec; __u32 nsec; __s32 pad} */
	__u32 stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	__u64 stx_mnt_id;
	__u64 stx_spare[13];
};
_Static_assert(offsetof(struct ct_statx, stx_mnt_id) == 0x90, "struct statx: stx_mnt_id");
_Static_assert(sizeof(struct ct_statx) == 0x100, "struct statx: size");

/* ---- renameat2 (linux/fs.h) ------------------------------------------------------------ */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1U << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1U << 1)
#endif

/* ---- memfd, execveat (linux/memfd.h, fcntl.h) -------------------------------------------- */
#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#endif
#ifndef MFD_ALLOW_SEALING
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U /* 6.3: executable even where vm.memfd_noexec asks otherwise */
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#endif
#ifndef F_SEAL_SEAL
#define F_SEAL_SEAL   0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW   0x0004
#define F_SEAL_WRITE  0x0008
#endif
#ifndef OVERLAYFS_SUPER_MAGIC
#define OVERLAYFS_SUPER_MAGIC 0x794c7630
#endif

/* ---- statmount / listmount (linux/mount.h, 6.8+) ---------------------------------------- */

/* The request both calls take. Linux 6.18 reuses the 32-bit word after .size for a mount
 * namespace fd (it was "spare", required to be 0, before); leave it 0 for the caller's own
 * namespace. */
struct ct_mnt_id_req {
	__u32 size;	 /* MNT_ID_REQ_SIZE_VER0 or _VER1 */
	__u32 mnt_ns_fd; /* 0, or an nsfs fd of the mount namespace to look in (6.18) */
	__u64 mnt_id;	 /* the mount (unique 64-bit id), or LSMT_ROOT for listmount */
	__u64 param;	 /* statmount: STATMOUNT_* mask; listmount: last id seen, or 0 */
	__u64 mnt_ns_id; /* VER1: id of the mount namespace to look in, 0 for the caller's */
};

#ifndef MNT_ID_REQ_SIZE_VER0
#define MNT_ID_REQ_SIZE_VER0 24
#endif
#ifndef MNT_ID_REQ_SIZE_VER1
#define MNT_ID_REQ_SIZE_VER1 32
#endif

_Static_assert(sizeof(struct ct_mnt_id_req) == MNT_ID_REQ_SIZE_VER1, "mnt_id_req layout");

/* The fixed part of statmount()'s answer, Linux 6.18 layout. String fields ([str]) are
 * offsets into str[]; the buffer passed must extend past the struct to hold them (EOVERFLOW
 * when too small). .mask tells which groups the kernel filled. */
struct ct_statmount {
	__u32 size;	/* bytes used, strings included */
	__u32 mnt_opts; /* [str] per-mount options, comma separated */
	__u64 mask;	/* STATMOUNT_* groups present */
	__u32 sb_dev_major;
	__u32 sb_dev_minor;
	__u64 sb_magic; /* *_SUPER_MAGIC */
	__u32 sb_flags; /* SB_RDONLY, SB_SYNCHRONOUS, SB_DIRSYNC, SB_LAZYTIME */
	__u32 fs_type;	/* [str] */
	__u64 mnt_id;	/* unique 64-bit id */
	__u64 mnt_parent_id;
	__u32 mnt_id_old; /* the reusable id of /proc/self/mountinfo */
	__u32 mnt_parent_id_old;
	__u64 mnt_attr;	       /* MOUNT_ATTR_* */
	__u64 mnt_propagation; /* MS_SHARED, MS_SLAVE, MS_PRIVATE, MS_UNBINDABLE */
	__u64 mnt_peer_group;
	__u64 mnt_master;
	__u64 propagate_from;
	__u32 mnt_root;	 /* [str] root of the mount within its filesystem */
	__u32 mnt_point; /* [str] mount point relative to the caller's root */
	__u64 mnt_ns_id;
	__u32 fs_subtype;     /* [str] 6.11 */
	__u32 sb_source;      /* [str] 6.11 */
	__u32 opt_num;	      /* 6.12 */
	__u32 opt_array;      /* [str] opt_num NUL-terminated filesystem options */
	__u32 opt_sec_num;    /* 6.12 */
	__u32 opt_sec_array;  /* [str] opt_sec_num NUL-terminated security options */
	__u64 supported_mask; /* 6.15: every STATMOUNT_* bit this kernel knows */
	__u32 mnt_uidmap_num; /* 6.15 */
	__u32 mnt_uidmap;     /* [str] idmapped mount's uid map */
	__u32 mnt_gidmap_num;
	__u32 mnt_gidmap; /* [str] */
	__u64 __spare2[43];
	char str[]; /* the strings */
};

_Static_assert(sizeof(struct ct_statmount) == 512, "statmount's fixed part is 512 bytes");

#ifndef STATMOUNT_SB_BASIC
#define STATMOUNT_SB_BASIC 0x00000001U
#endif
#ifndef STATMOUNT_MNT_BASIC
#define STATMOUNT_MNT_BASIC 0x00000002U
#endif
#ifndef STATMOUNT_PROPAGATE_FROM
#define STATMOUNT_PROPAGATE_FROM 0x00000004U
#endif
#ifndef STATMOUNT_MNT_ROOT
#define STATMOUNT_MNT_ROOT 0x00000008U
#endif
#ifndef STATMOUNT_MNT_POINT
#define STATMOUNT_MNT_POINT 0x00000010U
#endif
#ifndef STATMOUNT_FS_TYPE
#define STATMOUNT_FS_TYPE 0x00000020U
#endif
#ifndef STATMOUNT_MNT_NS_ID
#define STATMOUNT_MNT_NS_ID 0x00000040U
#endif
#ifndef STATMOUNT_MNT_OPTS
#define STATMOUNT_MNT_OPTS 0x00000080U
#endif
#ifndef STATMOUNT_FS_SUBTYPE
#define STATMOUNT_FS_SUBTYPE 0x00000100U
#endif
#ifndef STATMOUNT_SB_SOURCE
#define STATMOUNT_SB_SOURCE 0x00000200U
#endif
#ifndef STATMOUNT_OPT_ARRAY
#define STATMOUNT_OPT_ARRAY 0x00000400U
#endif
#ifndef STATMOUNT_OPT_SEC_ARRAY
#define STATMOUNT_OPT_SEC_ARRAY 0x00000800U
#endif
#ifndef STATMOUNT_SUPPORTED_MASK
#define STATMOUNT_SUPPORTED_MASK 0x00001000U
#endif
#ifndef STATMOUNT_MNT_UIDMAP
#define STATMOUNT_MNT_UIDMAP 0x00002000U
#endif
#ifndef STATMOUNT_MNT_GIDMAP
#define STATMOUNT_MNT_GIDMAP 0x00004000U
#endif

#ifndef LSMT_ROOT
#define LSMT_ROOT 0xffffffffffffffffULL /* listmount: start at the namespace's root mount */
#endif
#ifndef LISTMOUNT_REVERSE
#define LISTMOUNT_REVERSE (1U << 0)
#endif

/* ---- wrappers ------------------------------------------------------------------------- */

/* The identity calls as bare syscalls: libc's broadcast each change to every thread (musl
 * blocks and restores all signals around it, three syscalls more a call). Only for a
 * single-threaded process: the init, exec's child. */
#ifdef SYS_setresuid32 /* 32-bit ids where the plain calls take 16-bit ones */
#define CT_SYS_SETRESUID SYS_setresuid32
#define CT_SYS_SETRESGID SYS_setresgid32
#define CT_SYS_SETGROUPS SYS_setgroups32
#else
#define CT_SYS_SETRESUID SYS_setresuid
#define CT_SYS_SETRESGID SYS_setresgid
#define CT_SYS_SETGROUPS SYS_setgroups
#endif

static inline int ct_setresuid_1thread(uid_t r, uid_t e, uid_t s)
{
	return (int)syscall(CT_SYS_SETRESUID, r, e, s);
}

static inline int ct_setresgid_1thread(gid_t r, gid_t e, gid_t s)
{
	return (int)syscall(CT_SYS_SETRESGID, r, e, s);
}

static inline int ct_setgroups_1thread(size_t n, const gid_t *groups)
{
	return (int)syscall(CT_SYS_SETGROUPS, n, groups);
}

/* Fork-like use only (no CLONE_VM, .stack = 0): the child returns here on a copy of the
 * parent's stack. Returns the child's pid in the parent, 0 in the child. */
static inline pid_t ct_clone3(struct clone_args *args, size_t size)
{
	return (pid_t)syscall(__NR_clone3, args, size);
}

static inline int ct_pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_open, pid, flags);
}

static inline int ct_pidfd_send_signal(int pidfd, int sig, siginfo_t *info, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_send_signal, pidfd, sig, info, flags);
}

static inline int ct_pidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	return (int)syscall(__NR_pidfd_getfd, pidfd, targetfd, flags);
}

static inline int ct_statx(int dirfd, const char *path, int flags, unsigned int mask,
			   struct ct_statx *stx)
{
	return (int)syscall(__NR_statx, dirfd, path, flags, mask, stx);
}

/* glibc has a wrapper from 2.28, musl from 1.2.5 only. */
static inline int ct_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
			       unsigned int flags)
{
	return (int)syscall(__NR_renameat2, olddirfd, oldpath, newdirfd, newpath, flags);
}

static inline int ct_openat2(int dirfd, const char *path, struct open_how *how, size_t size)
{
	return (int)syscall(__NR_openat2, dirfd, path, how, size);
}

static inline int ct_open_tree(int dirfd, const char *path, unsigned int flags)
{
	return (int)syscall(__NR_open_tree, dirfd, path, flags);
}

/* open_tree() and mount_setattr() of the copy in one call (Linux 6.15); with AT_RECURSIVE
 * the attributes go on every mount of the copy, as mount_setattr's AT_RECURSIVE. */
static inline int ct_open_tree_attr(int dirfd, const char *path, unsigned int flags,
				    struct mount_attr *attr, size_t size)
{
	return (int)syscall(__NR_open_tree_attr, dirfd, path, flags, attr, size);
}

static inline int ct_move_mount(int from_dirfd, const char *from_path, int to_dirfd,
				const char *to_path, unsigned int flags)
{
	return (int)syscall(__NR_move_mount, from_dirfd, from_path, to_dirfd, to_path, flags);
}

static inline int ct_mount_setattr(int dirfd, const char *path, unsigned int flags,
				   struct mount_attr *attr, size_t size)
{
	return (int)syscall(__NR_mount_setattr, dirfd, path, flags, attr, size);
}

static inline int ct_fsopen(const char *fsname, unsigned int flags)
{
	return (int)syscall(__NR_fsopen, fsname, flags);
}

/* cmd is an enum fsconfig_command. */
static inline int ct_fsconfig(int fsfd, unsigned int cmd, const char *key, const void *value,
			      int aux)
{
	return (int)syscall(__NR_fsconfig, fsfd, cmd, key, value, aux);
}

static inline int ct_fsmount(int fsfd, unsigned int flags, unsigned int attr_flags)
{
	return (int)syscall(__NR_fsmount, fsfd, flags, attr_flags);
}

static inline int ct_fspick(int dirfd, const char *path, unsigned int flags)
{
	return (int)syscall(__NR_fspick, dirfd, path, flags);
}

/* fchmodat() that honours AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH (6.6). */
static inline int ct_fchmodat2(int dirfd, const char *path, mode_t mode, unsigned int flags)
{
	return (int)syscall(__NR_fchmodat2, dirfd, path, mode, flags);
}

static inline int ct_statmount(const struct ct_mnt_id_req *req, struct ct_statmount *buf,
			       size_t bufsize, unsigned int flags)
{
	return (int)syscall(__NR_statmount, req, buf, bufsize, flags);
}

/* musl has no execveat() wrapper (its fexecve() falls back to /proc/self/fd). */
static inline int ct_execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
			      int flags)
{
	return (int)syscall(__NR_execveat, dirfd, path, argv, envp, flags);
}

/* Fills ids[] with up to nr mount ids after req->param; returns how many, 0 at the end. */
static inline ssize_t ct_listmount(const struct ct_mnt_id_req *req, uint64_t *ids, size_t nr,
				   unsigned int flags)
{
	return (ssize_t)syscall(__NR_listmount, req, ids, nr, flags);
}

#endif
