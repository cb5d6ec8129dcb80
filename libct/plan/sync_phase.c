#include "libct/plan/sync_phase.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "libct/base/fdpass.h"

#define BIT(t) (1u << (t))

/* An errno the kernel could have given, with something to say. */
static int check_error(const struct ct_sync_msg *msg, struct ct_error *err)
{
	const struct ct_sync_error *e = &msg->error;
	if (e->errnum <= 0 || e->errnum > 4095)
		return ct_error_plain(err, EPROTO, "errno %d out of range", e->errnum);
	if (e->message.len == 0)
		return ct_error_plain(err, EPROTO, "empty message");
	return 0;
}

static int check_init_pidfd(const struct ct_sync_msg *msg, struct ct_error *err)
{
	const struct ct_sync_init_pidfd *p = &msg->init_pidfd;
	if (p->pid <= 0)
		return ct_error_plain(err, EPROTO, "pid %d", p->pid);
	if (!memchr(p->method, '\0', sizeof(p->method)) || !p->method[0])
		return ct_error_plain(err, EPROTO, "clone call not a NUL-terminated name");
	return 0;
}

/* The columns of a row (struct ct_sync_kind): type, name, direction, descriptors (at least,
 * at most), once, then the payload: its struct, its fixed bytes, a text tail, its check. */
#define NO_PAYLOAD "", 0, false, NULL
#define NOTE	   "struct ct_sync_text note", 0, true, NULL
#define ERROR_TEXT \
	"struct ct_sync_error error", offsetof(struct ct_sync_error, message), true, check_error
#define ONE_FD 1, 1
#define NO_FD  0, 0

static const struct ct_sync_kind kinds[] = {
	{CT_SYNC_EOF, "EOF", CT_SYNC_TO_PARENT, NO_FD, true, NO_PAYLOAD},
	{CT_SYNC_READY, "READY", CT_SYNC_TO_PARENT, NO_FD, true, NOTE},
	{CT_SYNC_ERROR, "ERROR", CT_SYNC_TO_PARENT, NO_FD, true, ERROR_TEXT},
	{CT_SYNC_PTY_MASTER, "PTY_MASTER", CT_SYNC_TO_PARENT, ONE_FD, true, NO_PAYLOAD},
	{CT_SYNC_START, "START", CT_SYNC_TO_CHILD, NO_FD, true, NO_PAYLOAD},
	{CT_SYNC_SECCOMP_FD, "SECCOMP_FD", CT_SYNC_TO_PARENT, ONE_FD, true, NO_PAYLOAD},
	{CT_SYNC_USERNS_READY, "USERNS_READY", CT_SYNC_TO_CHILD, NO_FD, true, NO_PAYLOAD},
	{CT_SYNC_INIT_PIDFD, "INIT_PIDFD", CT_SYNC_TO_PARENT, ONE_FD, true,
	 "struct ct_sync_init_pidfd init_pidfd", sizeof(struct ct_sync_init_pidfd), false,
	 check_init_pidfd},
	{CT_SYNC_EXEC_ERROR, "EXEC_ERROR", CT_SYNC_TO_PARENT, NO_FD, true, ERROR_TEXT},
	{CT_SYNC_CREATE_HOOKS, "CREATE_HOOKS", CT_SYNC_TO_PARENT, NO_FD, true, NO_PAYLOAD},
	{CT_SYNC_HOOKS_DONE, "HOOKS_DONE", CT_SYNC_TO_CHILD, NO_FD, true, NO_PAYLOAD},
	{CT_SYNC_STARTED, "STARTED", CT_SYNC_TO_STARTER, NO_FD, true, NO_PAYLOAD},
	/* the `tasks` fds of the v1 directories made after the clone, or none */
	{CT_SYNC_CGROUP_READY, "CGROUP_READY", CT_SYNC_TO_CHILD, 0, CT_FDPASS_MAX, true,
	 NO_PAYLOAD},
	{CT_SYNC_CREATED, "CREATED", CT_SYNC_TO_CHILD, NO_FD, true, NO_PAYLOAD},
	{CT_SYNC_ROOT_BIND, "ROOT_BIND", CT_SYNC_TO_PARENT, ONE_FD, true, NO_PAYLOAD},
	{CT_SYNC_NET_DEVICES, "NET_DEVICES", CT_SYNC_TO_PARENT, ONE_FD, true, NO_PAYLOAD},
	{CT_SYNC_NET_DEVICES_DONE, "NET_DEVICES_DONE", CT_SYNC_TO_CHILD, NO_FD, true, NO_PAYLOAD},
};

/* What each phase takes; everything else received there is out of phase. */
static const struct {
	const char *name;
	uint32_t takes;
} phases[] = {
	[CT_SYNC_PHASE_JOINER] = {"joiner",
				  BIT(CT_SYNC_INIT_PIDFD) | BIT(CT_SYNC_ERROR) | BIT(CT_SYNC_EOF)},
	[CT_SYNC_PHASE_SET_UP] = {"set-up", BIT(CT_SYNC_PTY_MASTER) | BIT(CT_SYNC_SECCOMP_FD) |
						    BIT(CT_SYNC_CREATE_HOOKS) |
						    BIT(CT_SYNC_NET_DEVICES) |
						    BIT(CT_SYNC_ROOT_BIND) | BIT(CT_SYNC_READY) |
						    BIT(CT_SYNC_ERROR) | BIT(CT_SYNC_EOF)},
	[CT_SYNC_PHASE_EXEC] = {"exec", BIT(CT_SYNC_PTY_MASTER) | BIT(CT_SYNC_SECCOMP_FD) |
						BIT(CT_SYNC_READY) | BIT(CT_SYNC_EXEC_ERROR) |
						BIT(CT_SYNC_ERROR) | BIT(CT_SYNC_EOF)},
	[CT_SYNC_PHASE_START] = {"start",
				 BIT(CT_SYNC_STARTED) | BIT(CT_SYNC_ERROR) | BIT(CT_SYNC_EOF)},
};

const struct ct_sync_kind *ct_sync_kind_of(uint32_t type)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].type == type)
			return &kinds[i];
	return NULL;
}

const char *ct_sync_name(uint32_t type)
{
	const struct ct_sync_kind *k = ct_sync_kind_of(type);
	return k ? k->name : "unknown";
}

void ct_sync_phase_enter(struct ct_sync_phase_state *st, enum ct_sync_phase phase)
{
	*st = (struct ct_sync_phase_state){.phase = phase};
}

const char *ct_sync_phase_name(enum ct_sync_phase phase)
{
	return phases[phase].name;
}

int ct_sync_phase_accept(struct ct_sync_phase_state *st, uint32_t type, struct ct_error *err)
{
	const struct ct_sync_kind *k = ct_sync_kind_of(type);
	const char *phase = phases[st->phase].name;
	if (!k)
		return ct_error_plain(err, EPROTO,
				      "sync message of unknown type %u in the %s phase", type,
				      phase);
	if (!(phases[st->phase].takes & BIT(type)))
		return ct_error_plain(err, EPROTO,
				      "sync message %s out of phase: the %s phase "
				      "does not take it",
				      k->name, phase);
	if (k->once && (st->seen & BIT(type)))
		return ct_error_plain(err, EPROTO, "sync message %s repeated in the %s phase",
				      k->name, phase);
	st->seen |= BIT(type);
	return 0;
}
