/* libFuzzer harness: a sync record (libct/plan/sync_decode.h), as the parent, the init or
 * `ctrun start` receives it from a peer that may be hostile, -> ct_sync_decode. The first
 * byte says how many descriptors came with it (0-3), the rest is the record. What decodes
 * must hold to its row: its length is the one the sender's encoding gives, its text ends
 * where its len says; what is refused says why, naming the record; either way the phase
 * checks take the type. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libct/plan/sync_decode.h"
#include "libct/plan/sync_phase.h"

static void check_decoded(const struct ct_sync_msg *msg, size_t len)
{
	const struct ct_sync_kind *k = ct_sync_kind_of(msg->type);
	if (len == 0) {
		if (msg->type != CT_SYNC_EOF)
			abort();
		return;
	}
	if (!k || msg->type == CT_SYNC_EOF || ct_sync_wire_len(msg) != len)
		abort(); /* a record decoded that no sender's encoding makes */
	if (msg->type == CT_SYNC_READY && strlen(msg->note.text) != msg->note.len)
		abort();
	if ((msg->type == CT_SYNC_ERROR || msg->type == CT_SYNC_EXEC_ERROR) &&
	    (strlen(msg->error.message.text) != msg->error.message.len ||
	     msg->error.message.len == 0 || msg->error.errnum <= 0))
		abort();
	if (msg->type == CT_SYNC_INIT_PIDFD &&
	    (msg->init_pidfd.pid <= 0 || !memchr(msg->init_pidfd.method, '\0', 32)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	size_t n_fds = data[0] % 4, len = size - 1;
	/* a copy of its own size: a read past the record is ASan's to report */
	uint8_t *record = malloc(len ? len : 1);
	if (!record)
		abort();
	memcpy(record, data + 1, len);
	struct ct_sync_msg msg;
	struct ct_error err = {0};
	if (ct_sync_decode(record, len, n_fds, &msg, &err) == 0) {
		check_decoded(&msg, len);
		struct ct_sync_phase_state st;
		ct_sync_phase_enter(&st, CT_SYNC_PHASE_SET_UP);
		struct ct_error phase_err = {0};
		if (ct_sync_phase_accept(&st, msg.type, &phase_err) < 0 && !phase_err.msg[0])
			abort();
	} else if (strncmp(err.msg, "sync ", 5) != 0 || err.errnum == 0) {
		abort(); /* a refusal that does not say what it refused */
	}
	free(record);
	return 0;
}
