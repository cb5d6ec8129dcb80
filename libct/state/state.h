/* The container state store: one directory per container under the root, created atomically,
 * locked with flock while an operation uses it, holding state.json (replaced by rename, never
 * rewritten in place). The status is not stored: libct/state/procstat.h derives it from the
 * process.
 *
 *   <root>/                 0700, made by ct_state_root_open(create = true)
 *     <id>/                 0700, appears already locked by its creator (ct_state_reserve)
 *       pending.json        what create is about to make (ct_state_write_pending)
 *       state.json          struct ct_state, written by ct_state_write
 *       ...                 anything else create puts there (exec fifo), removed by
 *                           ct_state_remove
 */
#ifndef CT_STATE_H
#define CT_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "libct/base/error.h"
#include "oci/config.h"
#include "oci/jsonwalk.h"

#define CT_ID_MAX	      1024
#define CT_STATE_OCI_VERSION  "1.3.0"
#define CT_STATE_FILE	      "state.json"
#define CT_STATE_PENDING_FILE "pending.json"
#define CT_EXEC_FIFO_FILE     "exec.fifo" /* create's init waits on it for start */
#define CT_TIMESTAMP_MAX      40 /* "2006-01-02T15:04:05.123456789Z" and its NUL, with room */

/* How an id is quoted in every message, so that an error line stays one short line: bytes
 * outside printable ASCII (and '"', '\\') as \xNN, cut after CT_ID_SHOWN_CHARS characters
 * with "...". Returned by value: ct_shown_id(id).s lives until the end of the full
 * expression, long enough for one printf-like call; keep the struct to use it longer. */
#define CT_ID_SHOWN_CHARS 64
struct ct_shown_id {
	char s[4 * CT_ID_SHOWN_CHARS + 8];
};
struct ct_shown_id ct_shown_id(const char *id);

/* Checks an id before it becomes a directory name (and a cgroup name, a hook's input):
 * [a-zA-Z0-9_+-][a-zA-Z0-9_+.-]*, no "..", at most CT_ID_MAX characters. errnum EINVAL;
 * the message is `invalid container id "ID": <why>`. */
int ct_state_check_id(const char *id, struct ct_error *err);

/* Opens the state root as an O_DIRECTORY|O_CLOEXEC fd. With `create`, every missing component
 * is made 0700 (existing ones are left as they are). Without it, a missing root fails with
 * errnum ENOENT. Returns the fd or -1. */
int ct_state_root_open(const char *root, bool create, struct ct_error *err);

/* An open container directory. lockfd holds the flock; closing it releases the lock.
 * A flock belongs to the open file, not the process: a child made by fork/clone holds it too
 * until it closes its copy (O_CLOEXEC only helps at execve). The container init must close
 * both fds right after clone, or a create that exits while the init waits on the exec fifo
 * leaves every later state/start/delete blocked on the lock. */
struct ct_container_dir {
	int dirfd;
	int lockfd;
	char id[CT_ID_MAX + 1];
};

/* For a ct_container_dir that may be closed before reserve/open ever filled it. */
#define CT_CONTAINER_DIR_INIT             \
	{                                 \
		.dirfd = -1, .lockfd = -1 \
	}

/* Creates <root>/<id> (0700) holding LOCK_EX on it. An existing id fails with errnum EEXIST
 * and `container "ID" already exists`; of concurrent reserves of one id exactly one wins.
 * The directory is made under a temporary name, locked, then renamed into place, so no other
 * process ever sees it unlocked before its creator let go. `out` is always initialised (fds
 * -1 on failure), so ct_container_dir_close(out) is always safe. */
int ct_state_reserve(int rootfd, const char *id, struct ct_container_dir *out,
		     struct ct_error *err);

/* The temporary name of id's reservation, ".reserve-" and 32 hex digits of the id's
 * SHA-256: one name per id, so that the one a create killed before its rename left is
 * found, and, when nobody holds it locked, taken over by a create of the id or removed by
 * an exclusive open (ct_state_open). A create locks it right after its mkdir and checks
 * after locking that it is still there. Never a valid id. */
#define CT_RESERVATION_NAME_MAX 48
void ct_state_reservation_name(const char *id, char name[CT_RESERVATION_NAME_MAX]);

/* Opens <root>/<id> and takes LOCK_EX (lock_exclusive) or LOCK_SH, waiting for it. A missing
 * container, or one removed while we waited for the lock, fails with errnum ENOENT and
 * `container "ID" does not exist` (an exclusive opener then removes the id's reservation a
 * killed create left). `out` is always initialised, as for ct_state_reserve. */
int ct_state_open(int rootfd, const char *id, bool lock_exclusive, struct ct_container_dir *out,
		  struct ct_error *err);

/* Closes both fds (releasing the lock); safe to call twice. */
void ct_container_dir_close(struct ct_container_dir *d);

/* Releases the lock but keeps both fds, for a holder that waits long (run, while its
 * container runs); ct_state_relock takes the lock back, exclusive. It fails with errnum
 * ENOENT and `container "ID" does not exist` when someone removed the container meanwhile. */
void ct_state_unlock(struct ct_container_dir *d);
int ct_state_relock(struct ct_container_dir *d, struct ct_error *err);

/* Removes everything in the container directory (state.json, the exec fifo, subdirectories,
 * whatever else), then the directory itself, while still holding the lock; then closes `d`.
 * `d` is closed on return whether or not the removal succeeded. */
int ct_state_remove(int rootfd, struct ct_container_dir *d, struct ct_error *err);

/* What state.json holds. Strings are malloc'ed and owned by the struct (ct_state_free);
 * annotations is an oci_string_map of malloc'ed keys and values. */
struct ct_state {
	char *oci_version; /* as read back; NULL when writing means CT_STATE_OCI_VERSION */
	char *id;
	char *bundle;
	char *rootfs; /* absolute path */
	pid_t pid;
	uint64_t pid_start_time; /* field 22 of /proc/PID/stat when the pid was recorded */
	char *created;		 /* RFC 3339 UTC with nanoseconds (ct_format_timestamp) */
	uid_t owner;		 /* euid of the creator */
	/* the container's cgroup directories: hierarchy key -> absolute path
	 * (libct/cgroup/cgroup.h), empty without a cgroup (--cgroup-manager disabled) */
	oci_string_map cgroup_paths;
	oci_string_map cgroup_bases; /* key -> where removing empty parents stops */
	/* the systemd driver's unit ("ctrun-x.scope"), recorded before it is started; the
	 * create's token, which ends the Description it gives the unit; and whether systemd
	 * took that create's start of it (libct/cgroup/systemd.c decides whose a unit is) */
	char *systemd_unit;
	char *systemd_unit_token;
	bool systemd_unit_started;
	bool started; /* set by `start` once the exec fifo was opened */
	/* no cgroup holds the device rules, and no user namespace: only the missing
	 * CAP_MKNOD keeps the process from making host devices (exec keeps it so) */
	bool no_device_filter;
	oci_string_map annotations;
	/* The hooks later commands run: poststart (start) and poststop (delete). Kept here,
	 * not read again from the bundle, because runtime.md#lifecycle step 2 says later
	 * changes to config.json must not affect the container, and the bundle may be gone
	 * or rewritten by delete time (runc keeps its whole config in its state for that).
	 * The other lists stay empty: create and the init's memory have them. */
	struct oci_hooks hooks;
};

/* Serialises `st` to state.json.tmp in the directory and renames it over
 * state.json, so a reader sees the old file or the new one, never a part. The caller holds
 * LOCK_EX. File format (ctrun's own; the status is never stored):
 *   { "ociVersion", "id", "pid", "bundle", "rootfs", "created", "owner" (uid, integer),
 *     "annotations"?, "ctrun": { "pidStartTime", "started", "noDeviceFilter"?, "cgroupPaths"?,
 *     "cgroupBases"?, "systemdUnit"?, "systemdUnitToken"?, "systemdUnitStarted"?,
 *     "hooks"?: { "poststart"?, "poststop"? } } } */
int ct_state_write(const struct ct_container_dir *d, const struct ct_state *st,
		   struct ct_error *err);

/* What create records before it makes anything outside this directory (its cgroup
 * directories), in state.json's format: a create killed before state.json leaves this
 * for whoever removes its directory (ct_state_read_pending: errnum ENOENT when there is
 * none). Its cgroup paths are only the directories create makes, never one that was there. */
int ct_state_write_pending(const struct ct_container_dir *d, const struct ct_state *st,
			   struct ct_error *err);
int ct_state_read_pending(const struct ct_container_dir *d, struct ct_state *st,
			  struct ct_error *err);

/* Another file of the container directory (what `update` keeps), replaced as state.json is
 * (NAME.tmp, then rename), and read back (NULL with errnum ENOENT when there is none). The
 * caller holds the lock. */
int ct_state_replace_file(const struct ct_container_dir *d, const char *name, const void *buf,
			  size_t len, struct ct_error *err);
char *ct_state_read_file(const struct ct_container_dir *d, const char *name, size_t max,
			 struct ct_error *err);

/* Reads state.json back into `st` (zeroed here first). A missing file fails with errnum
 * ENOENT (a container still being created, or one whose create died); a bad one with
 * `container "ID": state.json: <json path>: <what is wrong>`. An id in the file that differs
 * from the directory's is refused. On failure `st` holds nothing to free. */
int ct_state_read(const struct ct_container_dir *d, struct ct_state *st, struct ct_error *err);

/* ct_state_read for a reader that takes no lock and opens no directory (list): one open of
 * <id>/state.json relative to the root. state.json is only ever replaced by rename, so the
 * reader still sees one whole file; what it cannot see is an operation in progress. The id
 * component is followed even if it is a symlink: the caller found it as a directory entry
 * of type DT_DIR (ct_state_list_ids) in the 0700 root. A missing directory or file fails
 * with errnum ENOENT and `container "ID" does not exist` (one removed meanwhile, or still
 * being created). Lean: the file goes through yajl's callback parser with state.json's
 * field tables (oci/jsonsax.h), leaving out what list never uses (hooks, cgroup_bases stay
 * empty); a bad file fails with errnum EINVAL and `...: state.json: not a valid state file`
 * (ct_state_read names what is wrong). */
int ct_state_read_unlocked(int rootfd, const char *id, struct ct_state *st, struct ct_error *err);

/* Parses the text of a state.json into `st` (zeroed here first), naming `label` in errors;
 * ct_state_read without the file and the id check. Pure. On failure `st` holds nothing to
 * free. */
int ct_state_parse(const char *label, const char *text, struct ct_state *st, struct ct_error *err);

/* ct_state_parse for list: the same field tables through yajl's callbacks (no tree), the
 * hooks and cgroup_bases left out unread, no message beyond `<label>: not a valid state
 * file` (errnum EINVAL). What ct_state_parse accepts, this accepts with the same values. */
int ct_state_parse_for_list(const char *label, const char *text, size_t len, struct ct_state *st,
			    struct ct_error *err);

/* Frees what `st` holds and zeroes it; safe on a zeroed struct. */
void ct_state_free(struct ct_state *st);
/* Frees and empties st->cgroup_paths alone: `list` keeps a hundred states for its output
 * once their status is known, and the nine paths were most of each. */
void ct_state_drop_cgroup_paths(struct ct_state *st);

/* The ids of the containers under the root, sorted by strcmp. Entries that are not valid ids
 * (a reservation in progress, stray files) are skipped. Free with ct_state_free_ids. */
int ct_state_list_ids(int rootfd, char ***ids, size_t *n, struct ct_error *err);
void ct_state_free_ids(char **ids, size_t n);

/* Formats the `ctrun state` document exactly as `runc state` prints it (Go's
 * json.MarshalIndent with two spaces, fields in runc's order, no trailing newline):
 *   ociVersion, id, pid (0 when status is "stopped"), status, bundle, rootfs, created,
 *   annotations (only when not empty, keys sorted as Go sorts map keys), owner (always "":
 *   `runc state` never fills it in). *out is malloc'ed and NUL-terminated. */
int ct_state_format_json(const struct ct_state *st, const char *status, char **out,
			 struct ct_error *err);

/* The same document in one line (yajl's compact form), as a hook reads it on stdin
 * (config.md#posix-platform-hooks); pid is the one to show (runtime.md#state: the pid as
 * seen in the namespace the hook runs in). */
int ct_state_format_compact(const struct ct_state *st, const char *status, pid_t pid, char **out,
			    struct ct_error *err);

/* Formats `ts` as Go's time.RFC3339Nano in UTC, which is what runc's "created" looks like:
 * "2006-01-02T15:04:05.123456789Z", trailing zeros of the fraction dropped, and the fraction
 * dropped entirely when it is zero. */
void ct_format_timestamp(const struct timespec *ts, char buf[CT_TIMESTAMP_MAX]);

#endif
