#include "libct/criu/criu_rpc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* criu_opts field numbers (rpc.proto) */
enum {
	OPT_IMAGES_DIR_FD = 1,
	OPT_PID = 2,
	OPT_LEAVE_RUNNING = 3,
	OPT_EXT_UNIX_SK = 4,
	OPT_TCP_ESTABLISHED = 5,
	OPT_SHELL_JOB = 7,
	OPT_FILE_LOCKS = 8,
	OPT_LOG_LEVEL = 9,
	OPT_LOG_FILE = 10,
	OPT_PS = 11,
	OPT_NOTIFY_SCRIPTS = 12,
	OPT_ROOT = 13,
	OPT_PARENT_IMG = 14,
	OPT_TRACK_MEM = 15,
	OPT_AUTO_DEDUP = 16,
	OPT_WORK_DIR_FD = 17,
	OPT_EXT_MNT = 23,
	OPT_MANAGE_CGROUPS = 24,
	OPT_CG_ROOT = 25,
	OPT_RST_SIBLING = 26,
	OPT_INHERIT_FD = 27,
	OPT_MANAGE_CGROUPS_MODE = 34,
	OPT_EXTERNAL = 37,
	OPT_FREEZE_CGROUP = 44,
	OPT_EMPTY_NS = 38,
	OPT_LAZY_PAGES = 48,
	OPT_STATUS_FD = 49,
	OPT_ORPHAN_PTS_MASTER = 50,
	OPT_CONFIG_FILE = 51,
	OPT_LSM_PROFILE = 53,
	OPT_LSM_MOUNT_CONTEXT = 63,
	OPT_NETWORK_LOCK = 64,
};

/* criu_req, criu_resp and the messages inside them */
enum { REQ_TYPE = 1, REQ_OPTS = 2, REQ_NOTIFY_SUCCESS = 3 };
enum {
	RESP_TYPE = 1,
	RESP_SUCCESS = 2,
	RESP_DUMP = 3,
	RESP_RESTORE = 4,
	RESP_NOTIFY = 5,
	RESP_CR_ERRNO = 7,
	RESP_CR_ERRMSG = 9,
	RESP_VERSION = 10,
};
enum { PAIR_KEY = 1, PAIR_VAL = 2 };	     /* ext_mount_map; inherit_fd's key, fd */
enum { CG_ROOT_CTRL = 1, CG_ROOT_PATH = 2 }; /* cgroup_root */
enum { PS_ADDRESS = 1, PS_PORT = 2 };	     /* criu_page_server_info */
enum { NOTIFY_SCRIPT = 1, NOTIFY_PID = 2 };
enum { VERSION_MAJOR = 1, VERSION_MINOR = 2, VERSION_SUBLEVEL = 4 };

void ct_criu_opts_init(struct ct_criu_opts *o)
{
	*o = (struct ct_criu_opts){.images_dir_fd = -1, .work_dir_fd = -1, .status_fd = -1};
}

static int list_full(const char *what, struct ct_error *err)
{
	return ct_error_plain(err, E2BIG, "criu options: more than %d %s", CT_CRIU_LIST_MAX, what);
}

/* entry (size bytes) appended to a list that holds *n; what names it in the error. */
static int add_entry(void *list, size_t *n, size_t size, const void *entry, const char *what,
		     struct ct_error *err)
{
	if (*n == CT_CRIU_LIST_MAX)
		return list_full(what, err);
	memcpy((char *)list + (*n)++ * size, entry, size);
	return 0;
}

int ct_criu_opts_add_ext_mnt(struct ct_criu_opts *o, const char *key, const char *val,
			     struct ct_error *err)
{
	struct ct_criu_pair mnt = {key, val};
	return add_entry(o->ext_mnt, &o->n_ext_mnt, sizeof(mnt), &mnt, "external mounts", err);
}

int ct_criu_opts_add_external(struct ct_criu_opts *o, const char *ext, struct ct_error *err)
{
	return add_entry(o->external, &o->n_external, sizeof(ext), &ext, "external resources", err);
}

int ct_criu_opts_add_inherit_fd(struct ct_criu_opts *o, const char *key, int fd,
				struct ct_error *err)
{
	struct ct_criu_inherit_fd inherit = {key, fd};
	return add_entry(o->inherit_fd, &o->n_inherit_fd, sizeof(inherit), &inherit,
			 "inherited fds", err);
}

int ct_criu_opts_add_cg_root(struct ct_criu_opts *o, const char *ctrl, const char *path,
			     struct ct_error *err)
{
	struct ct_criu_pair root = {ctrl, path};
	return add_entry(o->cg_root, &o->n_cg_root, sizeof(root), &root, "cgroup roots", err);
}

static void put_opt_string(struct ct_pb_buf *b, uint32_t field, const char *s)
{
	if (s)
		ct_pb_put_string(b, field, s);
}

static void put_opt_true(struct ct_pb_buf *b, uint32_t field, bool v)
{
	if (v)
		ct_pb_put_bool(b, field, true);
}

static void put_opt_fd(struct ct_pb_buf *b, uint32_t field, int fd)
{
	if (fd >= 0)
		ct_pb_put_int32(b, field, fd);
}

static void put_pairs(struct ct_pb_buf *b, uint32_t field, uint32_t key_field,
		      const struct ct_criu_pair *pairs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ct_pb_buf m = {0};
		if (pairs[i].key && *pairs[i].key)
			ct_pb_put_string(&m, key_field, pairs[i].key);
		ct_pb_put_string(&m, key_field + 1, pairs[i].val);
		ct_pb_put_message(b, field, &m);
	}
}

static void put_lists(struct ct_pb_buf *b, const struct ct_criu_opts *o)
{
	for (size_t i = 0; i < o->n_ext_mnt; i++) { /* both required */
		struct ct_pb_buf m = {0};
		ct_pb_put_string(&m, PAIR_KEY, o->ext_mnt[i].key);
		ct_pb_put_string(&m, PAIR_VAL, o->ext_mnt[i].val);
		ct_pb_put_message(b, OPT_EXT_MNT, &m);
	}
	put_pairs(b, OPT_CG_ROOT, CG_ROOT_CTRL, o->cg_root, o->n_cg_root);
	for (size_t i = 0; i < o->n_inherit_fd; i++) {
		struct ct_pb_buf m = {0};
		ct_pb_put_string(&m, PAIR_KEY, o->inherit_fd[i].key);
		ct_pb_put_int32(&m, PAIR_VAL, o->inherit_fd[i].fd);
		ct_pb_put_message(b, OPT_INHERIT_FD, &m);
	}
	for (size_t i = 0; i < o->n_external; i++)
		ct_pb_put_string(b, OPT_EXTERNAL, o->external[i]);
}

static void put_page_server(struct ct_pb_buf *b, const struct ct_criu_opts *o)
{
	if (!o->ps_address)
		return;
	struct ct_pb_buf m = {0};
	ct_pb_put_string(&m, PS_ADDRESS, o->ps_address);
	ct_pb_put_int32(&m, PS_PORT, o->ps_port);
	ct_pb_put_message(b, OPT_PS, &m);
}

static void put_flags(struct ct_pb_buf *b, const struct ct_criu_opts *o)
{
	put_opt_true(b, OPT_LEAVE_RUNNING, o->leave_running);
	put_opt_true(b, OPT_EXT_UNIX_SK, o->ext_unix_sk);
	put_opt_true(b, OPT_TCP_ESTABLISHED, o->tcp_established);
	put_opt_true(b, OPT_SHELL_JOB, o->shell_job);
	put_opt_true(b, OPT_FILE_LOCKS, o->file_locks);
	put_opt_true(b, OPT_NOTIFY_SCRIPTS, o->notify_scripts);
	put_opt_true(b, OPT_TRACK_MEM, o->track_mem);
	put_opt_true(b, OPT_AUTO_DEDUP, o->auto_dedup);
	put_opt_true(b, OPT_MANAGE_CGROUPS, o->manage_cgroups);
	put_opt_true(b, OPT_RST_SIBLING, o->rst_sibling);
	put_opt_true(b, OPT_LAZY_PAGES, o->lazy_pages);
	put_opt_true(b, OPT_ORPHAN_PTS_MASTER, o->orphan_pts_master);
}

static void encode_opts(struct ct_pb_buf *b, const struct ct_criu_opts *o)
{
	ct_pb_put_int32(b, OPT_IMAGES_DIR_FD, o->images_dir_fd); /* required */
	if (o->pid > 0)
		ct_pb_put_int32(b, OPT_PID, o->pid);
	put_flags(b, o);
	if (o->log_level)
		ct_pb_put_int32(b, OPT_LOG_LEVEL, o->log_level);
	put_opt_string(b, OPT_LOG_FILE, o->log_file);
	put_page_server(b, o);
	put_opt_string(b, OPT_ROOT, o->root);
	put_opt_string(b, OPT_PARENT_IMG, o->parent_img);
	put_opt_fd(b, OPT_WORK_DIR_FD, o->work_dir_fd);
	put_lists(b, o);
	if (o->has_cg_mode)
		ct_pb_put_varint(b, OPT_MANAGE_CGROUPS_MODE, o->cg_mode);
	if (o->empty_ns)
		ct_pb_put_varint(b, OPT_EMPTY_NS, o->empty_ns);
	put_opt_fd(b, OPT_STATUS_FD, o->status_fd);
	put_opt_string(b, OPT_CONFIG_FILE, o->config_file);
	put_opt_string(b, OPT_FREEZE_CGROUP, o->freeze_cgroup);
	put_opt_string(b, OPT_LSM_PROFILE, o->lsm_profile);
	put_opt_string(b, OPT_LSM_MOUNT_CONTEXT, o->lsm_mount_context);
	if (o->network_lock)
		ct_pb_put_varint(b, OPT_NETWORK_LOCK, o->network_lock);
}

void ct_criu_req_encode(const struct ct_criu_req *req, struct ct_pb_buf *out)
{
	ct_pb_put_varint(out, REQ_TYPE, req->type);
	if (req->opts) {
		struct ct_pb_buf opts = {0};
		encode_opts(&opts, req->opts);
		ct_pb_put_message(out, REQ_OPTS, &opts);
	}
	if (req->has_notify_success)
		ct_pb_put_bool(out, REQ_NOTIFY_SUCCESS, req->notify_success);
}

/* ---- responses ---- */

static int bad(struct ct_error *err, const char *what)
{
	return ct_error_plain(err, EPROTO, "criu response: %s", what);
}

/* The text cut to fit, without the line ends criu's messages come with. */
static void copy_text(char dst[CT_CRIU_TEXT_MAX], const struct ct_pb_field *f)
{
	size_t n = f->len < CT_CRIU_TEXT_MAX - 1 ? f->len : CT_CRIU_TEXT_MAX - 1;
	memcpy(dst, f->data, n);
	while (n && (dst[n - 1] == '\n' || dst[n - 1] == '\r'))
		n--;
	dst[n] = '\0';
}

/* The fields of one nested message: calls on(out, field) for each. */
static int each_field(const struct ct_pb_field *outer, struct ct_criu_resp *out,
		      void (*on)(struct ct_criu_resp *, const struct ct_pb_field *),
		      struct ct_error *err)
{
	if (outer->wire != CT_PB_LEN)
		return bad(err, "a nested message is not length-delimited");
	struct ct_pb_reader r = ct_pb_reader(outer->data, outer->len);
	struct ct_pb_field f;
	int rc;
	while ((rc = ct_pb_next(&r, &f)) > 0)
		on(out, &f);
	return rc < 0 ? bad(err, "malformed nested message") : 0;
}

static void on_dump(struct ct_criu_resp *out, const struct ct_pb_field *f)
{
	if (f->number == 1 && f->wire == CT_PB_VARINT)
		out->dump_restored = f->varint != 0;
}

static void on_restore(struct ct_criu_resp *out, const struct ct_pb_field *f)
{
	if (f->number == 1 && f->wire == CT_PB_VARINT)
		out->restore_pid = (int)(int32_t)f->varint;
}

static void on_notify(struct ct_criu_resp *out, const struct ct_pb_field *f)
{
	if (f->number == NOTIFY_SCRIPT && f->wire == CT_PB_LEN)
		copy_text(out->notify_script, f);
	else if (f->number == NOTIFY_PID && f->wire == CT_PB_VARINT)
		out->notify_pid = (int)(int32_t)f->varint;
}

static void on_version(struct ct_criu_resp *out, const struct ct_pb_field *f)
{
	if (f->wire != CT_PB_VARINT)
		return;
	int v = (int)(int32_t)f->varint;
	if (f->number == VERSION_MAJOR)
		out->version_major = v;
	else if (f->number == VERSION_MINOR)
		out->version_minor = v;
	else if (f->number == VERSION_SUBLEVEL)
		out->version_sublevel = v;
}

static int on_top_varint(struct ct_criu_resp *out, const struct ct_pb_field *f)
{
	switch (f->number) {
	case RESP_TYPE:
		out->type = (enum ct_criu_req_type)f->varint;
		out->has_type = true;
		break;
	case RESP_SUCCESS:
		out->success = f->varint != 0;
		out->has_success = true;
		break;
	case RESP_CR_ERRNO:
		out->cr_errno = (int)(int32_t)f->varint;
		break;
	}
	return 0;
}

static int on_top_field(struct ct_criu_resp *out, const struct ct_pb_field *f, struct ct_error *err)
{
	switch (f->number) {
	case RESP_DUMP:
		return each_field(f, out, on_dump, err);
	case RESP_RESTORE:
		return each_field(f, out, on_restore, err);
	case RESP_NOTIFY:
		return each_field(f, out, on_notify, err);
	case RESP_VERSION:
		return each_field(f, out, on_version, err);
	case RESP_CR_ERRMSG:
		if (f->wire == CT_PB_LEN)
			copy_text(out->cr_errmsg, f);
		return 0;
	}
	return f->wire == CT_PB_VARINT ? on_top_varint(out, f) : 0;
}

int ct_criu_resp_decode(const void *data, size_t len, struct ct_criu_resp *out,
			struct ct_error *err)
{
	*out = (struct ct_criu_resp){0};
	struct ct_pb_reader r = ct_pb_reader(data, len);
	struct ct_pb_field f;
	int rc;
	while ((rc = ct_pb_next(&r, &f)) > 0)
		if (on_top_field(out, &f, err) < 0)
			return -1;
	if (rc < 0)
		return bad(err, "not the protobuf wire format");
	if (!out->has_type || !out->has_success)
		return bad(err, "no type or success field");
	return 0;
}
