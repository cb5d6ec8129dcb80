/* The sync protocol declared (libct/plan/sync.h draws the exchange): one row per message
 * (its direction, whether it carries fds, its payload, whether it may come more than once)
 * and the parent's phases, each with the messages it takes. The parent checks every
 * message it receives against its phase: a repeated once-only message or one of another
 * phase is refused with an error naming both. */
#ifndef CT_SYNC_PHASE_H
#define CT_SYNC_PHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "libct/base/error.h"
#include "libct/plan/sync.h"

enum ct_sync_dir {
	CT_SYNC_TO_PARENT,  /* init, joiner or exec'd child -> ctrun */
	CT_SYNC_TO_CHILD,   /* ctrun -> init or exec'd child */
	CT_SYNC_TO_STARTER, /* init -> `ctrun start` (exec fifo) or run (socket) */
};

struct ct_sync_kind {
	uint32_t type;
	const char *name;
	enum ct_sync_dir dir;
	unsigned min_fds, max_fds; /* the descriptors it carries */
	bool once;		   /* at most once per exchange */
	const char *payload;	   /* its struct in struct ct_sync_msg (sync.h), "" for none */
	/* the payload's bytes before a text tail (a struct ct_sync_text whose len says how
	 * much of it comes), or all of them without one */
	size_t fixed_size;
	bool text_tail;
	/* what its fields may hold, beyond their sizes; NULL: anything */
	int (*check)(const struct ct_sync_msg *msg, struct ct_error *err);
};

/* The row of type, NULL for a type the protocol does not have. */
const struct ct_sync_kind *ct_sync_kind_of(uint32_t type);
/* Its name ("READY"), "unknown" for a type the protocol does not have. */
const char *ct_sync_name(uint32_t type);

/* Where the parent is in the exchange, as it receives. */
enum ct_sync_phase {
	CT_SYNC_PHASE_JOINER, /* waiting for the joiner's INIT_PIDFD */
	CT_SYNC_PHASE_SET_UP, /* the init sets itself up, until READY */
	CT_SYNC_PHASE_EXEC,   /* an exec'd child sets itself up, until its execve (EOF) */
	CT_SYNC_PHASE_START,  /* START sent: STARTED, then EOF at the execve */
};

struct ct_sync_phase_state {
	enum ct_sync_phase phase;
	uint32_t seen; /* bit n: a message of type n came in this phase */
};

void ct_sync_phase_enter(struct ct_sync_phase_state *st, enum ct_sync_phase phase);
const char *ct_sync_phase_name(enum ct_sync_phase phase);

/* Whether a received message of type may come now: 0, or -1 with EPROTO and an error
 * naming the message and the phase. Records it as seen. */
int ct_sync_phase_accept(struct ct_sync_phase_state *st, uint32_t type, struct ct_error *err);

#endif
