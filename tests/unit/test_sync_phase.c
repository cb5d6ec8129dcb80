/* The parent's phase checks of the sync protocol (libct/plan/sync_phase.h): a message of
 * its phase passes once, a repeated once-only message and one of another phase are
 * refused, naming the message and the phase; the table has a row per message type. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "libct/plan/sync_phase.h"

Test(sync_phase, set_up_takes_its_messages_then_ready)
{
	struct ct_sync_phase_state st;
	struct ct_error err = {0};
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_SET_UP);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_PTY_MASTER, &err), 0, "%s", err.msg);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_CREATE_HOOKS, &err), 0, "%s", err.msg);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_ROOT_BIND, &err), 0, "%s", err.msg);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_READY, &err), 0, "%s", err.msg);
}

Test(sync_phase, repeated_message_is_refused_naming_both)
{
	struct ct_sync_phase_state st;
	struct ct_error err = {0};
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_SET_UP);
	cr_assert_eq(ct_sync_phase_accept(&st, CT_SYNC_ROOT_BIND, &err), 0);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_ROOT_BIND, &err), -1);
	cr_expect_eq(err.errnum, EPROTO);
	cr_expect_str_eq(err.msg, "sync message ROOT_BIND repeated in the set-up phase");
}

Test(sync_phase, out_of_phase_message_is_refused_naming_both)
{
	struct ct_sync_phase_state st;
	struct ct_error err = {0};
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_SET_UP);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_STARTED, &err), -1);
	cr_expect_str_eq(err.msg,
			 "sync message STARTED out of phase: the set-up phase does not take it");
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_EXEC);
	cr_expect_eq(ct_sync_phase_accept(&st, CT_SYNC_ROOT_BIND, &err), -1);
	cr_expect_str_eq(err.msg,
			 "sync message ROOT_BIND out of phase: the exec phase does not take it");
}

Test(sync_phase, a_message_sent_to_the_child_is_never_taken_by_the_parent)
{
	static const enum ct_sync_phase all[] = {CT_SYNC_PHASE_JOINER, CT_SYNC_PHASE_SET_UP,
						 CT_SYNC_PHASE_EXEC, CT_SYNC_PHASE_START};
	for (uint32_t t = 0; t < 32; t++) {
		const struct ct_sync_kind *k = ct_sync_kind_of(t);
		if (!k || k->dir != CT_SYNC_TO_CHILD)
			continue;
		for (size_t p = 0; p < sizeof(all) / sizeof(all[0]); p++) {
			struct ct_sync_phase_state st;
			struct ct_error err = {0};
			ct_sync_phase_enter(&st, all[p]);
			cr_expect_eq(ct_sync_phase_accept(&st, t, &err), -1, "%s taken in %s",
				     k->name, ct_sync_phase_name(all[p]));
		}
	}
}

Test(sync_phase, unknown_type_is_refused)
{
	struct ct_sync_phase_state st;
	struct ct_error err = {0};
	ct_sync_phase_enter(&st, CT_SYNC_PHASE_JOINER);
	cr_expect_eq(ct_sync_phase_accept(&st, 99, &err), -1);
	cr_expect_str_eq(err.msg, "sync message of unknown type 99 in the joiner phase");
	cr_expect_str_eq(ct_sync_name(99), "unknown");
}

/* Every type of the enum (sync.h: 0..CT_SYNC_NET_DEVICES_DONE, no gaps) has its row. */
Test(sync_phase, every_type_has_a_row)
{
	for (uint32_t t = CT_SYNC_EOF; t <= CT_SYNC_NET_DEVICES_DONE; t++) {
		const struct ct_sync_kind *k = ct_sync_kind_of(t);
		cr_expect_not_null(k, "type %u", t);
		if (k)
			cr_expect_eq(k->type, t);
	}
}
