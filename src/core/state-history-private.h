/* state-history-private.h - what the files of the state history share:
 * the making of query results (state-result.c) for the querier
 * (state-query.c). */
#ifndef TRACENAV_STATE_HISTORY_PRIVATE_H
#define TRACENAV_STATE_HISTORY_PRIVATE_H

#include "tracenav/state-history.h"

/* Where the interval of one attribute ends, as a read past the queried
 * event found it. */
struct tn_state_end {
	bool has_end;
	struct tn_state_stamp end;
};

/* What a query knows besides the state. */
struct tn_state_result_source {
	const struct tn_position *pos;	/* the event queried */
	const char *glob;		/* NULL: every attribute */
	/* Per quark (the state's attribute count), or NULL when the query
	 * did not look past the event: */
	const struct tn_state_end *ends;
	/* how far it looked without finding an end (has_pos false: it
	 * found no event after the queried one). */
	struct tn_state_stamp end_after;
	const char *providers;
	bool from_snapshot;
	uint64_t replayed;
};

/* The result of a query from the state at the queried event: every
 * attribute (matching glob), sorted as state-history.h says, with
 * copies of its names and values.  Never fails. */
struct tn_state_result *tn_state_result_build(const struct tn_state *state,
		const struct tn_state_result_source *source);

/* Fill entry for quark of state (path as given) with copies it owns
 * (tn_state_entry_fini() frees them); no end. */
void tn_state_entry_init(struct tn_state_entry *entry,
		const struct tn_state *state, int quark, const char *path);

#endif
