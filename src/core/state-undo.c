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

/* Remove quark's slot from the child index (linear probing: the
 * entries after it that may move back, do). */
static void slot_remove(struct tn_state *state, int quark)
{
	const struct tn_state_attr *attr = &state->attrs[quark];
	struct tn_state_slot *slots = state->slots;
	uint32_t mask = state->slot_mask;
	uint32_t i = tn_state_child_hash(attr->parent, attr->name,
		strlen(attr->name)) & mask;

	while (slots[i].quark != quark)
		i = (i + 1) & mask;
	for (;;) {
		uint32_t j = i, home;

		do {
			j = (j + 1) & mask;
			if (slots[j].quark < 0) {
				slots[i].quark = -1;
				return;
			}
			home = slots[j].hash & mask;
			/* Stays when its home is cyclically in (i, j]. */
		} while (i <= j ? (home > i && home <= j) :
			(home > i || home <= j));
		slots[i] = slots[j];
		i = j;
	}
}

/* Rebuild the child index from the slots of the quarks below count. */
static void slots_keep_below(struct tn_state *state, int count)
{
	uint32_t size = state->slot_mask + 1;
	struct tn_state_slot *old = state->slots;
	struct tn_state_slot *slots = g_new(struct tn_state_slot, size);

	for (uint32_t i = 0; i < size; i++)
		slots[i].quark = -1;
	for (uint32_t i = 0; i < size; i++) {
		uint32_t j;

		if (old[i].quark < 0 || old[i].quark >= count)
			continue;
		for (j = old[i].hash & state->slot_mask; slots[j].quark >= 0;)
			j = (j + 1) & state->slot_mask;
		slots[j] = old[i];
	}
	g_free(old);
	state->slots = slots;
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

void tn_state_drop_hidden(struct tn_state *state)
{
	int count = state->count;
	bool rebuild = state->kept - count > count / 2;

	/* From the last: each is the last child of its parent. */
	for (int q = state->kept - 1; q >= count; q--) {
		struct tn_state_attr *attr = &state->attrs[q];
		struct tn_state_children *siblings = attr->parent ==
			TN_STATE_ROOT ? &state->root :
			&state->attrs[attr->parent].children;

		g_assert(siblings->count > 0 &&
			siblings->quarks[siblings->count - 1] == q);
		siblings->count--;
		if (!rebuild)
			slot_remove(state, q);
		g_free(attr->children.quarks);
		attr->children = (struct tn_state_children) { 0 };
	}
	if (rebuild && state->kept > count)
		slots_keep_below(state, count);
	state->kept = count;
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
