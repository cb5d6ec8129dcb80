/* CRIU's RPC messages (criu's images/rpc.proto, which Debian ships as
 * /usr/include/criu/rpc.proto): the request ctrun sends (criu_req with its criu_opts) and
 * the responses it reads (criu_resp, with criu_notify and the dump/restore results). Only
 * the fields ctrun uses; the field numbers are rpc.proto's. */
#ifndef CT_CRIU_RPC_H
#define CT_CRIU_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/criu/pbwire.h"

enum ct_criu_req_type {
	CT_CRIU_EMPTY = 0,
	CT_CRIU_DUMP = 1,
	CT_CRIU_RESTORE = 2,
	CT_CRIU_CHECK = 3,
	CT_CRIU_PRE_DUMP = 4,
	CT_CRIU_NOTIFY = 6,
	CT_CRIU_VERSION = 10,
};

/* criu_cg_mode */
enum ct_criu_cg_mode {
	CT_CRIU_CG_IGNORE = 0,
	CT_CRIU_CG_SOFT = 3,
	CT_CRIU_CG_FULL = 4,
	CT_CRIU_CG_STRICT = 5,
};

/* criu_network_lock_method */
enum ct_criu_network_lock { CT_CRIU_NETLOCK_IPTABLES = 1, CT_CRIU_NETLOCK_NFTABLES = 2 };

struct ct_criu_pair {
	const char *key, *val;
};

struct ct_criu_inherit_fd {
	const char *key;
	int fd;
};

#define CT_CRIU_LIST_MAX 64

/* criu_opts. Strings are borrowed; NULL is absent, as are -1 fds, 0 counts, and
 * has_cg_mode / network_lock 0. */
struct ct_criu_opts {
	int images_dir_fd, work_dir_fd, status_fd;
	int pid; /* 0: absent */
	bool leave_running, ext_unix_sk, tcp_established, shell_job, file_locks;
	bool notify_scripts, track_mem, auto_dedup, lazy_pages, manage_cgroups;
	bool rst_sibling, orphan_pts_master;
	int log_level;
	const char *log_file, *root, *parent_img, *lsm_profile, *lsm_mount_context;
	const char *config_file;   /* criu's options from a file of its format */
	const char *freeze_cgroup; /* criu stops the tasks with this freezer, not one by one */
	const char *ps_address;	   /* the page server: address and port */
	int ps_port;
	bool has_cg_mode;
	enum ct_criu_cg_mode cg_mode;
	uint32_t empty_ns; /* CLONE_NEW* bits */
	enum ct_criu_network_lock network_lock;
	struct ct_criu_pair ext_mnt[CT_CRIU_LIST_MAX];
	size_t n_ext_mnt;
	struct ct_criu_pair cg_root[CT_CRIU_LIST_MAX]; /* key: the controllers ("" for v2) */
	size_t n_cg_root;
	struct ct_criu_inherit_fd inherit_fd[CT_CRIU_LIST_MAX];
	size_t n_inherit_fd;
	const char *external[CT_CRIU_LIST_MAX];
	size_t n_external;
};

/* A criu_opts with nothing set (every fd -1). */
void ct_criu_opts_init(struct ct_criu_opts *o);

/* Appends to the lists; a full list fails with errnum E2BIG, naming `what`. */
int ct_criu_opts_add_ext_mnt(struct ct_criu_opts *o, const char *key, const char *val,
			     struct ct_error *err);
int ct_criu_opts_add_external(struct ct_criu_opts *o, const char *ext, struct ct_error *err);
int ct_criu_opts_add_inherit_fd(struct ct_criu_opts *o, const char *key, int fd,
				struct ct_error *err);
int ct_criu_opts_add_cg_root(struct ct_criu_opts *o, const char *ctrl, const char *path,
			     struct ct_error *err);

/* criu_req: type, opts (NULL: absent), and for a reply to a notification, notify_success
 * (has_notify_success). On allocation failure out->failed is set. */
struct ct_criu_req {
	enum ct_criu_req_type type;
	const struct ct_criu_opts *opts;
	bool has_notify_success, notify_success;
};
void ct_criu_req_encode(const struct ct_criu_req *req, struct ct_pb_buf *out);

#define CT_CRIU_TEXT_MAX 256

/* criu_resp, as far as ctrun reads it. Strings are copied (cut at CT_CRIU_TEXT_MAX - 1). */
struct ct_criu_resp {
	enum ct_criu_req_type type;
	bool success;
	bool has_type, has_success;
	bool dump_restored; /* criu_dump_resp.restored */
	int restore_pid;    /* criu_restore_resp.pid, 0 when absent */
	char notify_script[CT_CRIU_TEXT_MAX];
	int notify_pid;
	int cr_errno;
	char cr_errmsg[CT_CRIU_TEXT_MAX];
	int version_major, version_minor, version_sublevel;
};

/* Parses one criu_resp (one datagram of the swrk socket). Unknown fields are skipped, as
 * protobuf does; a message that is not the wire format, or lacks type or success (required
 * in rpc.proto), fails with errnum EPROTO and `criu response: <what>`. */
int ct_criu_resp_decode(const void *data, size_t len, struct ct_criu_resp *out,
			struct ct_error *err);

#endif
