/* What a failed or killed command may leave: its cgroup in any hierarchy, an entry in the
 * state root, a process, an fd on the state root or the cgroup in another process, a mount.
 * The tests that use it run alone (--jobs 1, as make integration runs them). */
#ifndef CTT_LEFTOVERS_H
#define CTT_LEFTOVERS_H

#include "tests/lib/container.h"

/* Makes the kept view of ctrun's binary (a command that fails once it has it) and notes the
 * mount table, which lc_assert_all_gone() then compares with. */
void lc_note_mounts(const struct lc *t);
/* Every piece a create makes is gone (after names the moment in a failure's message). */
void lc_assert_all_gone(const struct lc *t, const char *after);

#endif
