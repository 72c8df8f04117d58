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
	const struct tn_symbols *symbols;	/* NULL: addresses as stored */
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

/* ---- deltas (state-delta.c) ---- */

/* Append to buf the changes of state since a snapshot: the attributes
 * from quark base_count on, and those of changed (a GArray of int,
 * sorted here; duplicates and quarks out of range are skipped) with
 * their current values and starts.  With base_count 0 and changed
 * NULL, the whole state (every attribute that was ever set). */
void tn_state_delta_save(const struct tn_state *state, int base_count,
		struct _GArray *changed, struct _GByteArray *buf);

/* Apply a delta to state, which holds the attributes of the snapshot
 * it follows, or more of them in the same order (a replay past it, or
 * a state being taken back in place): state then holds the next
 * snapshot's values, and the attributes it had beyond the snapshot's
 * stay (tn_state_truncate() them).  With check, its checksum is
 * verified first (a delta applied once already need not be: its bytes
 * do not change).  Returns 0, or -1 with err for a damaged delta or one
 * that does not fit state; state is half-changed then (clear it). */
int tn_state_delta_apply(struct tn_state *state, const void *data,
		size_t size, bool check, struct tn_error *err);

/* The number of attributes of the state after the delta data. */
int tn_state_delta_get_count(const void *data, size_t size);

/* ---- taking a state back (state-undo.c) ---- */

/* Append to log (a GArray of struct tn_state_undo, state-private.h;
 * NULL stops) every attribute as it was before a change of its value. */
void tn_state_set_undo_log(struct tn_state *state, struct _GArray *log);

/* Undo the changes of log (emptied) and drop the attributes from quark
 * count on: the state is again what it was when it had count
 * attributes and log was empty, at current_time. */
void tn_state_rollback(struct tn_state *state, struct _GArray *log,
		int count, int64_t current_time);

/* Drop the attributes from quark count on: no reader sees them again.
 * The state keeps them hidden (state-private.h), null and never set,
 * and shows them again when a replay adds the same ones in the same
 * order: what this costs is a write to each, not a removal (nor, later,
 * a new creation) of each. */
void tn_state_truncate(struct tn_state *state, int count);

/* Make every attribute null, never set, of no type (the attributes
 * stay): a state about to get a whole snapshot's values in place. */
void tn_state_reset_values(struct tn_state *state);

/* ---- the state pass (state-pass.c): a consumer of the preparse ----
 *
 * Made for trace (which, snapshots and index outlive it; index may be
 * NULL: the events to come are then estimated from the share of the
 * time range read), with budget (NULL: the default) and observer (may
 * be NULL; the pass takes it and destroys it when freed).  begin()
 * takes the state that the providers change (the pass logs its changes
 * and gives its intervals to the observer); for each event, in the
 * order of a full read, with its rank: before() ahead of the providers
 * and after() once they applied it; end() with the number of events
 * once the whole trace was read (the snapshots are then complete). */
struct tn_state_pass;

struct tn_state_pass *tn_state_pass_new(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots,
		const struct tn_state_pass_observer *observer);
void tn_state_pass_begin(struct tn_state_pass *pass, struct tn_state *state);
void tn_state_pass_before(struct tn_state_pass *pass,
		const struct tn_row *row, uint64_t rank);
void tn_state_pass_after(struct tn_state_pass *pass, const struct tn_row *row,
		uint64_t rank);
void tn_state_pass_end(struct tn_state_pass *pass, uint64_t events);
void tn_state_pass_free(struct tn_state_pass *pass);
/* Append to wants (struct tn_field_want) what its observer reads. */
void tn_state_pass_add_wants(const struct tn_state_pass *pass,
		struct _GArray *wants);

#endif
