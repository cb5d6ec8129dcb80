#include "libct/lifecycle/criu_container.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libct/base/cleanup.h"
#include "oci/jsonwrite.h"

void ct_criu_strings_free(struct ct_criu_strings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i]);
	s->n = 0;
}

char *ct_criu_keep(struct ct_criu_strings *s, struct ct_error *err, const char *fmt, ...)
{
	char *str = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&str, fmt, ap);
	va_end(ap);
	if (n < 0 || s->n == sizeof(s->items) / sizeof(s->items[0])) {
		if (n >= 0)
			free(str);
		ct_error_plain(err, ENOMEM, "criu options: out of room");
		return NULL;
	}
	return s->items[s->n++] = str;
}

int ct_criu_open_dir(const char *path, const char *flag, bool make, struct ct_error *err)
{
	if (make && mkdir(path, 0700) < 0 && errno != EEXIST)
		return ct_error_sys(err, errno, "%s \"%s\"", flag, path);
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return ct_error_sys(err, errno, "%s \"%s\"", flag, path);
	return fd;
}

int ct_criu_open_work_dir(const char *work_path, int image_fd, bool make, struct ct_error *err)
{
	if (work_path)
		return ct_criu_open_dir(work_path, "--work-path", make, err);
	/* close-on-exec as every fd of ours: criu gets it only among its kept fds */
	int fd = fcntl(image_fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return ct_error_sys(err, errno, "the work directory (a copy of --image-path's fd)");
	return fd;
}

/* What the init's fds 0-2 are, as their /proc links read ("" for a closed one). */
struct stdio_targets {
	char link[3][PATH_MAX];
};

static int gen_descriptors(yajl_gen g, const void *arg)
{
	const struct stdio_targets *t = arg;
	if (yajl_gen_array_open(g) != yajl_gen_status_ok)
		return -1;
	for (int i = 0; i < 3; i++)
		if (yajl_gen_string(g, (const unsigned char *)t->link[i], strlen(t->link[i])) !=
		    yajl_gen_status_ok)
			return -1;
	return yajl_gen_array_close(g) != yajl_gen_status_ok ? -1 : 0;
}

char *ct_criu_descriptors_json(pid_t pid, struct ct_error *err)
{
	_cleanup_free_ struct stdio_targets *t = calloc(1, sizeof(*t));
	if (!t) {
		ct_error_sys(err, ENOMEM, CT_CRIU_DESCRIPTORS);
		return NULL;
	}
	for (int i = 0; i < 3; i++) {
		char link[64];
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, i);
		ssize_t n = readlink(link, t->link[i], sizeof(t->link[i]) - 1);
		t->link[i][n < 0 ? 0 : n] = '\0';
	}
	return oci_json_document(gen_descriptors, t, false, CT_CRIU_DESCRIPTORS, err);
}

static const struct {
	const char *name;
	enum ct_criu_cg_mode mode;
} cg_modes[] = {{"soft", CT_CRIU_CG_SOFT},
		{"full", CT_CRIU_CG_FULL},
		{"strict", CT_CRIU_CG_STRICT},
		{"ignore", CT_CRIU_CG_IGNORE}};

static int parse_cg_mode(const char *name, struct ct_criu_opts *o, struct ct_error *err)
{
	for (size_t i = 0; i < sizeof(cg_modes) / sizeof(cg_modes[0]); i++)
		if (strcmp(name, cg_modes[i].name) == 0) {
			o->has_cg_mode = true;
			o->cg_mode = cg_modes[i].mode;
			return 0;
		}
	return ct_error_plain(err, EINVAL,
			      "--manage-cgroups-mode \"%s\": not soft, full, strict or ignore",
			      name);
}

static int parse_page_server(const char *text, struct ct_criu_opts *o, struct ct_criu_strings *s,
			     struct ct_error *err)
{
	const char *colon = strrchr(text, ':');
	char *end;
	long port = colon ? strtol(colon + 1, &end, 10) : 0;
	if (!colon || colon == text || !colon[1] || *end || port <= 0 || port > 65535)
		return ct_error_plain(err, EINVAL, "--page-server \"%s\": not ADDRESS:PORT", text);
	o->ps_address = ct_criu_keep(s, err, "%.*s", (int)(colon - text), text);
	o->ps_port = (int)port;
	return o->ps_address ? 0 : -1;
}

int ct_criu_opts_from_args(const struct ct_criu_args *a, struct ct_criu_opts *o,
			   struct ct_criu_strings *s, struct ct_error *err)
{
	o->leave_running = a->leave_running || a->pre_dump;
	o->tcp_established = a->tcp_established;
	o->ext_unix_sk = a->ext_unix_sk;
	o->shell_job = a->shell_job;
	o->file_locks = a->file_locks;
	o->auto_dedup = a->auto_dedup;
	o->empty_ns = a->empty_ns;
	o->status_fd = a->status_fd;
	o->parent_img = a->parent_path;
	o->lsm_profile = a->lsm_profile;
	o->lsm_mount_context = a->lsm_mount_context;
	o->manage_cgroups = true;
	o->notify_scripts = true;
	o->log_level = 4;
	/* The network lock is criu's default (iptables-restore), as runc leaves it, or what a
	 * criu config file says: criu 3.17's nftables lock of a restored network namespace
	 * stays behind after the restore (table inet CRIU-<pid>, policy drop), and the
	 * restored container's packets are all dropped. */
	if (a->cg_mode && parse_cg_mode(a->cg_mode, o, err) < 0)
		return -1;
	return a->page_server ? parse_page_server(a->page_server, o, s, err) : 0;
}

const char *ct_criu_config_file(const oci_string_map *annotations)
{
	for (size_t i = 0; i < annotations->len; i++)
		if (strcmp(annotations->items[i].key, CT_CRIU_CONFIG_ANNOTATION) == 0)
			return *annotations->items[i].value ? annotations->items[i].value : NULL;
	return access(CT_CRIU_DEFAULT_CONFIG, F_OK) == 0 ? CT_CRIU_DEFAULT_CONFIG : NULL;
}

void ct_criu_log_of(const struct ct_criu_args *a, const struct ct_criu_opts *o,
		    struct ct_criu_log *log)
{
	const char *work_dir = a->work_path ? a->work_path : a->image_path;
	ct_criu_log_locate(log, o->config_file, work_dir, o->log_file);
}

static bool is_bind(const struct oci_mount *m)
{
	if (m->type && strcmp(m->type, "bind") == 0)
		return true;
	for (size_t i = 0; i < m->options.len; i++)
		if (strcmp(m->options.items[i], "bind") == 0 ||
		    strcmp(m->options.items[i], "rbind") == 0)
			return true;
	return false;
}

static int bind_mount(const struct oci_mount *m, const char *bundle, bool restore,
		      struct ct_criu_opts *o, struct ct_criu_strings *s, struct ct_error *err)
{
	const char *val = m->destination;
	if (restore) {
		val = m->source[0] == '/' ? m->source
					  : ct_criu_keep(s, err, "%s/%s", bundle, m->source);
		if (!val)
			return -1;
	}
	return ct_criu_opts_add_ext_mnt(o, m->destination, val, err);
}

int ct_criu_external_mounts(const struct oci_config *cfg, const char *bundle, bool restore,
			    struct ct_criu_opts *o, struct ct_criu_strings *s, struct ct_error *err)
{
	for (size_t i = 0; i < cfg->mounts.len; i++) {
		const struct oci_mount *m = &cfg->mounts.items[i];
		if (is_bind(m) && m->source && bind_mount(m, bundle, restore, o, s, err) < 0)
			return -1;
	}
	return 0;
}

/* The key criu gives a joined namespace, "net[4026531840]:extRootNetNS", from its file. */
static int dump_external(const char *kind, const char *path, const char *key,
			 struct ct_criu_opts *o, struct ct_criu_strings *s, struct ct_error *err)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return ct_error_sys(err, errno, "namespace \"%s\"", path);
	const char *ext =
		ct_criu_keep(s, err, "%s[%llu]:%s", kind, (unsigned long long)st.st_ino, key);
	return ext ? ct_criu_opts_add_external(o, ext, err) : -1;
}

static int restore_external(const char *path, const char *key, struct ct_criu_opts *o, int *fd,
			    struct ct_error *err)
{
	*fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return ct_error_sys(err, errno, "namespace \"%s\"", path);
	return ct_criu_opts_add_inherit_fd(o, key, *fd, err);
}

static const char *const ns_names[OCI_NS_COUNT] = {
	[OCI_NS_MOUNT] = "mount",   [OCI_NS_PID] = "pid",  [OCI_NS_NETWORK] = "network",
	[OCI_NS_UTS] = "uts",	    [OCI_NS_IPC] = "ipc",  [OCI_NS_USER] = "user",
	[OCI_NS_CGROUP] = "cgroup", [OCI_NS_TIME] = "time"};

int ct_criu_external_namespaces(const struct oci_config *cfg, bool restore, struct ct_criu_opts *o,
				struct ct_criu_strings *s, int fds[2], struct ct_error *err)
{
	fds[0] = fds[1] = -1;
	for (size_t i = 0; i < cfg->linux_.namespaces.len; i++) {
		const struct oci_namespace *ns = &cfg->linux_.namespaces.items[i];
		if (!ns->path || !*ns->path)
			continue;
		bool net = ns->type == OCI_NS_NETWORK;
		if (!net && ns->type != OCI_NS_PID)
			return ct_error_plain(err, ENOTSUP,
					      "linux.namespaces: the joined %s namespace \"%s\": "
					      "only network and pid ones can be external to CRIU",
					      ns_names[ns->type], ns->path);
		const char *key = net ? CT_CRIU_EXT_NETNS : CT_CRIU_EXT_PIDNS;
		int rc = restore ? restore_external(ns->path, key, o, &fds[net ? 0 : 1], err)
				 : dump_external(net ? "net" : "pid", ns->path, key, o, s, err);
		if (rc < 0)
			return -1;
	}
	return 0;
}
