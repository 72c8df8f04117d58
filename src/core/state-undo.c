/* state-undo.c - taking a state back: the undo log of its changes, and
 * dropping the attributes added last (see state-history-private.h).
 *
 * A query reads past its event to find where the intervals end, and a
 * state restored from a snapshot may reuse the attributes a state
 * already has: both would cost a copy or a rebuild of the whole state
 * (hundreds of thousands of attributes in a long kernel trace) where
 * taking back what changed costs what changed.  Works on the state's
 * own tables (state-private.h).
 */
#include <string.h>

#include "src/core/state-history-private.h"
#include "src/core/state-private.h"

static const struct tn_state_value null_value = { .type = TN_STATE_NULL };

void tn_state_set_undo_log(struct tn_state *state, GArray *log)
{
	state->undo_log = log;
}

void tn_state_truncate(struct tn_state *state, int count)
{
	if (count < 0 || count >= state->count)
		return;
	/* Hidden, as new: null, never set, of no type.  From the last, so
	 * that each one's children went before it: only its own value
	 * counts among the live ones. */
	for (int q = state->count - 1; q >= count; q--) {
		struct tn_state_attr *attr = &state->attrs[q];

		if (attr->value.type != TN_STATE_NULL)
			tn_state_put_value(state, q, &null_value);
		attr->type = TN_STATE_NULL;
		attr->start = tn_state_stamp_never;
	}
	state->count = count;
}

void tn_state_rollback(struct tn_state *state, GArray *log, int count,
		int64_t current_time)
{
	for (guint i = log->len; i-- > 0;) {
		const struct tn_state_undo *undo =
			&g_array_index(log, struct tn_state_undo, i);
		struct tn_state_attr *attr;

		if (undo->quark >= count)
			continue;
		attr = &state->attrs[undo->quark];
		attr->type = undo->type;
		tn_state_put_value(state, undo->quark, &undo->value);
		attr->start = undo->start;
	}
	g_array_set_size(log, 0);
	tn_state_truncate(state, count);
	state->current_time = current_time;
}

void tn_state_reset_values(struct tn_state *state)
{
	for (int q = 0; q < state->count; q++) {
		struct tn_state_attr *attr = &state->attrs[q];

		attr->value.type = TN_STATE_NULL;
		attr->type = TN_STATE_NULL;
		attr->start = tn_state_stamp_never;
		/* Nothing lives. */
		attr->live = 0;
		attr->live_prev = attr->live_next = attr->live_first = -1;
	}
	state->root_live_first = -1;
	state->current_time = INT64_MIN;
}
