/* state-query.c - the state at any event: restore the nearest snapshot
 * at or before it and replay the events in between (see
 * state-history.h).
 *
 * The querier keeps what the last query built: the state, and the walk
 * that read up to it.  A query at a later event goes on from there when
 * that reads fewer events than a seek to the best snapshot (whose cost
 * is counted as SEEK_EVENTS events, unless the seek would read from
 * before the kept state anyway).
 *
 * Where the intervals end: the querier reads on past the queried event,
 * applying the events to the kept state with a change log that names
 * the attributes each event changes (so the first change of each one is
 * found without comparing them all) and an undo log, and then takes the
 * state back: what that costs is what changed, where a copy of the
 * state would cost the whole state (hundreds of thousands of attributes
 * late in a long kernel trace).  The events read on are kept in order
 * (up to AHEAD_MAX), so that the next query forward applies them again
 * without reading them; reading on further (a single attribute whose
 * value lasts long) drops the walk, and the next query starts from a
 * snapshot.
 */
#include <glib.h>
#include <inttypes.h>

#include "src/core/state-history-private.h"
#include "src/core/state-private.h"
#include "tracenav/job.h"
#include "tracenav/state-provider.h"
#include "tracenav/time.h"

/* What a seek to a snapshot costs, counted in events read: opening a
 * reader and decoding the start of a packet in each stream. */
#define SEEK_EVENTS 32768
/* Events read past the queried one that are kept for the next query. */
#define AHEAD_MAX 65536
/* How often a replay says how far it got, and looks for a cancel. */
#define PROGRESS_EVERY 4096

struct tn_state_querier {
	const struct tn_trace *trace;
	const struct tn_state_snapshots *snapshots;
	struct tn_state_providers *providers;
	struct tn_state *state;

	/* What the kept state holds.  has_state: it is valid and walk
	 * (with ahead before it) reads the events that come next; every
	 * event before `next` (exclusive) was applied, the last one at
	 * `last` when has_last.  next_rank is the number of the next
	 * event, when has_rank. */
	bool has_state;
	struct tn_walk *walk;
	GQueue *ahead;			/* struct tn_row *, read, not applied */
	bool walk_ended;
	struct tn_position next;
	bool has_last;
	struct tn_position last;
	bool has_rank;
	uint64_t next_rank;
	bool from_snapshot;
	uint64_t replayed;
	/* The state's attributes are in the state pass's order (as
	 * tn_state_snapshots_give_state() wants them): not after a replay
	 * from the middle of the trace with no snapshot. */
	bool pass_order;
	bool keeps;		/* tn_state_querier_keep_states() */

	/* Reading on: the change log, and the undo log. */
	struct tn_state_changes log;
	GArray *undo;

	struct tn_state_query_stats stats;
	unsigned open_threads;		/* 0: one per processor */
};

static void release_rows(GQueue *rows)
{
	struct tn_row *row;

	while ((row = g_queue_pop_head(rows))) {
		tn_row_release(row);
		g_free(row);
	}
}

/* Forget the kept state: the next query starts afresh. */
static void reset(struct tn_state_querier *querier)
{
	tn_walk_destroy(querier->walk);
	querier->walk = NULL;
	release_rows(querier->ahead);
	querier->walk_ended = false;
	querier->has_state = false;
	querier->has_last = false;
	querier->has_rank = false;
}

int tn_state_querier_create(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		struct tn_state_querier **out, struct tn_error *err)
{
	struct tn_state_querier *querier = g_new0(struct tn_state_querier, 1);

	(void) err;
	querier->trace = trace;
	querier->snapshots = snapshots;
	querier->providers = tn_state_providers_create(trace);
	querier->state = tn_state_create();
	querier->pass_order = true;
	querier->ahead = g_queue_new();
	querier->undo = g_array_new(FALSE, FALSE,
		sizeof(struct tn_state_undo));
	*out = querier;
	return 0;
}

void tn_state_querier_destroy(struct tn_state_querier *querier)
{
	if (!querier)
		return;
	reset(querier);
	g_queue_free(querier->ahead);
	tn_state_providers_destroy(querier->providers);
	tn_state_set_change_log(querier->state, NULL);
	tn_state_set_undo_log(querier->state, NULL);
	tn_state_set_interval_sink(querier->state, NULL, NULL);
	if (querier->keeps && querier->pass_order)
		tn_state_snapshots_give_state(querier->snapshots,
			querier->state);
	else
		tn_state_destroy(querier->state);
	tn_state_changes_fini(&querier->log);
	g_array_free(querier->undo, TRUE);
	g_free(querier);
}

void tn_state_querier_keep_states(struct tn_state_querier *querier)
{
	if (!querier->snapshots || querier->keeps)
		return;
	reset(querier);
	tn_state_destroy(querier->state);
	querier->state = tn_state_snapshots_take_state(querier->snapshots);
	querier->pass_order = true;
	querier->keeps = true;
}

const struct tn_state_snapshots *tn_state_querier_borrow_snapshots(
		const struct tn_state_querier *querier)
{
	return querier->snapshots;
}

void tn_state_querier_reset(struct tn_state_querier *querier)
{
	reset(querier);
}

void tn_state_querier_set_open_threads(struct tn_state_querier *querier,
		unsigned threads)
{
	querier->open_threads = threads;
}

void tn_state_querier_get_stats(const struct tn_state_querier *querier,
		struct tn_state_query_stats *stats)
{
	*stats = querier->stats;
}

static double now(void)
{
	return (double) g_get_monotonic_time() / 1e6;
}

static void format_pos(GString *out, const struct tn_position *pos)
{
	tn_time_format_seconds(out, pos->ns);
	g_string_append(out, " s");
	if (pos->tie)
		g_string_append_printf(out, " (tie %" PRIu64 ")", pos->tie);
}

/* ---- the kept state ---- */

/* Start from the trace's first event, with an empty state. */
/* The kept state empty at ns, the reader at the first event from ns on
 * (what happened before is not known). */
static int start_empty_at(struct tn_state_querier *querier, int64_t ns,
		struct tn_error *err)
{
	reset(querier);
	tn_state_clear(querier->state);
	querier->pass_order = ns == INT64_MIN;
	tn_state_providers_reset(querier->providers);
	if (tn_walk_open(querier->trace, ns, &querier->walk, err))
		return -1;
	querier->has_state = true;
	querier->next.ns = ns;
	querier->next.tie = 0;
	querier->has_rank = false;
	querier->from_snapshot = false;
	querier->replayed = 0;
	return 0;
}

static int start_from_beginning(struct tn_state_querier *querier,
		struct tn_error *err)
{
	if (start_empty_at(querier, INT64_MIN, err))
		return -1;
	/* The first event's number is known: 0. */
	querier->has_rank = true;
	querier->next_rank = 0;
	return 0;
}

/* A restore of the kept state, on a helper thread (a fan-out of one,
 * job.h), which also drops what the last walk read: the rows read
 * ahead, then the walk (releasing tens of thousands of rows and a graph
 * or two takes a few milliseconds, which the query need not wait
 * for). */
struct restore {
	const struct tn_state_snapshots *snapshots;
	size_t index;
	long from;
	struct tn_state *state;
	struct tn_walk *old_walk;
	GQueue *old_ahead;
	bool reused;		/* state had attributes */
	double seconds;
};

static void drop_old_read(struct restore *r)
{
	release_rows(r->old_ahead);
	g_queue_free(r->old_ahead);
	tn_walk_destroy(r->old_walk);
}

static int run_restore(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct restore *r = data;
	double t0 = now();
	int status;

	(void) fanout;
	(void) i;
	status = tn_state_snapshots_restore(r->snapshots, r->index, r->from,
		r->state, err);
	/* A state kept from an earlier query whose attributes do not fit
	 * (they should): once more from empty. */
	if (status && r->reused) {
		tn_state_clear(r->state);
		status = tn_state_snapshots_restore(r->snapshots, r->index, -1,
			r->state, err);
	}
	r->seconds = now() - t0;
	drop_old_read(r);
	return status;
}

/* How many threads open the walk at a snapshot. */
static unsigned open_threads(const struct tn_state_querier *querier)
{
	if (querier->open_threads > 0)
		return querier->open_threads;
	return (unsigned) CLAMP(g_get_num_processors(), 1, 4);
}

/* Start from a snapshot: its state, and a walk at its event.  With
 * from >= 0, the kept state is at snapshot from or past it (not at the
 * next one): only the changes after it are applied.  The restore runs
 * on another thread (which then drops the last walk) while this one
 * opens the walk, which decodes each stream's packet from its start up
 * to the snapshot's event, split over open_threads() threads: they
 * share nothing (a cancel stops the walk; the restore is not long). */
static int start_from_snapshot(struct tn_state_querier *querier,
		const struct tn_state_snapshot_info *info, long from,
		struct tn_error *err)
{
	struct restore task = { querier->snapshots, info->index, from,
		querier->state, querier->walk, querier->ahead,
		tn_state_get_attribute_count(querier->state) > 0, 0 };
	struct tn_fanout *restore;
	struct tn_error restore_err;
	bool fell_back;
	double t0;
	int status, restore_status;

	/* Snapshots are of the pass's attributes, in its order. */
	if (!querier->pass_order) {
		tn_state_clear(querier->state);
		task.from = -1;
		task.reused = false;
		querier->pass_order = true;
	}
	/* The restore's thread drops them. */
	querier->walk = NULL;
	querier->ahead = g_queue_new();
	reset(querier);
	if (tn_fanout_start(1, run_restore, &task, &restore, err)) {
		drop_old_read(&task);
		return -1;
	}
	t0 = now();
	status = tn_walk_open_at_known_split(querier->trace, &info->pos,
		open_threads(querier), &querier->walk, &fell_back, err);
	querier->stats.open_seconds = now() - t0;
	querier->stats.open_parts = status == 0 ?
		tn_walk_get_part_count(querier->walk) : 0;
	restore_status = tn_fanout_join(restore, &restore_err);
	querier->stats.restore_seconds = task.seconds;
	if (restore_status) {
		reset(querier);
		tn_error_set(err, "%s", restore_err.message);
		return -1;
	}
	tn_state_providers_reset(querier->providers);
	if (status)
		return -1;
	querier->has_state = true;
	querier->next = info->pos;
	querier->has_rank = true;
	querier->next_rank = info->rank;
	querier->from_snapshot = true;
	querier->replayed = 0;
	return 0;
}

/* The next event after the kept state (1), the end (0), or -1. */
static int next_row(struct tn_state_querier *querier, struct tn_row *row,
		struct tn_error *err)
{
	struct tn_row *kept = g_queue_pop_head(querier->ahead);
	int status;

	if (kept) {
		*row = *kept;
		g_free(kept);
		return 1;
	}
	if (querier->walk_ended)
		return 0;
	status = tn_walk_next(querier->walk, NULL, row, err);
	if (status == 0)
		querier->walk_ended = true;
	return status;
}

static void unread_row(struct tn_state_querier *querier,
		const struct tn_row *row)
{
	g_queue_push_head(querier->ahead, g_memdup2(row, sizeof(*row)));
}

/* Apply the events up to pos (inclusive) to the kept state.  A failure
 * of the reader or a cancel keeps what was applied (the walk can go on
 * later); a provider's failure forgets it. */
static int replay_to(struct tn_state_querier *querier,
		const struct tn_position *pos, struct tn_error *err)
{
	struct tn_row row;
	uint64_t count = 0;
	int status;

	while ((status = next_row(querier, &row, err)) == 1) {
		if (tn_position_compare(&row.pos, pos) > 0) {
			unread_row(querier, &row);
			querier->next = row.pos;
			break;
		}
		if (tn_state_providers_handle(querier->providers,
				querier->state, &row.ev, &row.pos, err)) {
			tn_row_release(&row);
			reset(querier);
			return -1;
		}
		querier->has_last = true;
		querier->last = row.pos;
		querier->next = row.pos;
		querier->next.tie++;	/* just after it */
		querier->next_rank++;
		querier->replayed++;
		tn_row_release(&row);
		if (++count % PROGRESS_EVERY == 0) {
			tn_job_current_set_progress("replaying", -1,
				querier->replayed);
			if (tn_job_current_is_cancelled()) {
				tn_error_set(err, "cancelled");
				return -1;
			}
		}
	}
	querier->stats.events += count;
	return status < 0 ? -1 : 0;
}

/* The snapshot the kept state is at or past (before the next one), or
 * -1 for none. */
static long kept_snapshot(const struct tn_state_querier *querier)
{
	struct tn_state_snapshot_info info;

	if (!tn_state_snapshots_find(querier->snapshots, &querier->next, &info,
			NULL))
		return -1;
	return (long) info.index;
}

/* Whether reading on from the kept state to pos costs less than
 * starting from the snapshot `info` (after it). */
static bool cheaper_to_go_on(const struct tn_state_querier *querier,
		const struct tn_state_snapshot_info *info)
{
	int64_t from;

	if (!querier->has_rank || info->rank <= querier->next_rank)
		return true;
	if (info->rank - querier->next_rank <= SEEK_EVENTS)
		return true;
	/* A seek that reads the trace from before the kept state anyway. */
	from = tn_seek_get_skipped_until(querier->trace, info->pos.ns);
	return from == INT64_MIN || (querier->has_last &&
		from <= querier->last.ns);
}

/* Make the kept state the state at pos. */
static int state_at(struct tn_state_querier *querier,
		const struct tn_position *pos, struct tn_error *err)
{
	struct tn_state_snapshot_info info;
	bool has_snapshot = querier->snapshots && tn_state_snapshots_find(
		querier->snapshots, pos, &info, NULL);
	long from = -1;
	/* Every event the kept state holds is at or before pos. */
	bool go_on = querier->has_state && (querier->has_last ?
		tn_position_compare(&querier->last, pos) <= 0 :
		tn_position_compare(&querier->next, pos) <= 0);
	double t0 = now(), t1;
	int status = 0;

	querier->stats.continued = false;
	querier->stats.events = 0;
	querier->stats.restore_seconds = 0;
	querier->stats.open_seconds = 0;
	querier->stats.open_parts = 0;
	/* The kept state may be at pos already: nothing to read.  Else,
	 * a snapshot after it is reached with its changes alone. */
	if (go_on && has_snapshot) {
		from = kept_snapshot(querier);
		go_on = (long) info.index <= from ||
			cheaper_to_go_on(querier, &info);
	}
	if (go_on)
		querier->stats.continued = true;
	else if (has_snapshot)
		status = start_from_snapshot(querier, &info, from, err);
	else
		status = start_from_beginning(querier, err);
	t1 = now();
	querier->stats.seek_seconds = t1 - t0;
	if (status == 0)
		status = replay_to(querier, pos, err);
	querier->stats.replay_seconds = now() - t1;
	querier->stats.from_snapshot = querier->from_snapshot;
	if (status)
		return -1;
	if (!querier->has_last) {
		GString *text = g_string_new(NULL);

		format_pos(text, pos);
		tn_error_set(err, "time %s is out of range: the trace's first "
			"event comes after it", text->str);
		g_string_free(text, TRUE);
		return -1;
	}
	if (tn_position_compare(&querier->last, pos) < 0 &&
	    g_queue_is_empty(querier->ahead) && querier->walk_ended) {
		GString *text = g_string_new("no event at ");

		format_pos(text, pos);
		g_string_append(text, ": the trace's last event is at ");
		format_pos(text, &querier->last);
		tn_error_set(err, "%s", text->str);
		g_string_free(text, TRUE);
		return -1;
	}
	return 0;
}

/* ---- reading on, then taking the state back ---- */

/* What reading on looks for, and what it found. */
struct read_on {
	uint64_t horizon;		/* events at most (UINT64_MAX: all) */
	int quark;			/* one attribute, or -1: every one */
	struct tn_state_end *ends;	/* per quark of the kept state */
	int count;			/* quarks of the kept state */
	int unresolved;
	struct tn_state_stamp end_after;
};

static struct tn_state_stamp stamp_of(const struct tn_row *row)
{
	struct tn_state_stamp stamp = { row->pos.ns, true, row->pos };

	return stamp;
}

/* Apply row to the kept state and note the ends it makes. */
static int apply_ahead(struct tn_state_querier *querier,
		struct read_on *on, const struct tn_row *row,
		struct tn_error *err)
{
	querier->log.len = 0;
	if (tn_state_providers_handle(querier->providers, querier->state,
			&row->ev, &row->pos, err))
		return -1;
	for (size_t i = 0; i < querier->log.len; i++) {
		int q = querier->log.quarks[i];

		if (q >= on->count || on->ends[q].has_end ||
		    (on->quark >= 0 && q != on->quark))
			continue;
		on->ends[q].has_end = true;
		on->ends[q].end = stamp_of(row);
		on->unresolved--;
	}
	on->end_after = stamp_of(row);
	return 0;
}

/* Read on past the kept state, up to on->horizon events or until every
 * end looked for is found, and take the state back. */
static int read_on(struct tn_state_querier *querier, struct read_on *on,
		struct tn_error *err)
{
	int count = tn_state_get_attribute_count(querier->state);
	int64_t time = tn_state_get_current_time(querier->state);
	uint64_t seen = 0;
	GList *link;
	int status = 0;

	querier->log.len = 0;
	g_array_set_size(querier->undo, 0);
	tn_state_set_change_log(querier->state, &querier->log);
	tn_state_set_undo_log(querier->state, querier->undo);
	/* The events read already, then the walk's. */
	for (link = querier->ahead->head; link && seen < on->horizon &&
			on->unresolved > 0; link = link->next, seen++) {
		if (apply_ahead(querier, on, link->data, err)) {
			status = -1;
			break;
		}
	}
	while (status == 0 && seen < on->horizon && on->unresolved > 0 &&
	       !querier->walk_ended && querier->walk) {
		struct tn_row row;

		status = tn_walk_next(querier->walk, NULL, &row, err);
		if (status == 0) {
			querier->walk_ended = true;
			break;
		}
		if (status < 0)
			break;
		status = apply_ahead(querier, on, &row, err);
		seen++;
		if (g_queue_get_length(querier->ahead) < AHEAD_MAX) {
			g_queue_push_tail(querier->ahead,
				g_memdup2(&row, sizeof(row)));
		} else {
			/* Too far to keep: the next query starts over. */
			tn_row_release(&row);
			querier->has_state = false;
		}
		if (seen % PROGRESS_EVERY == 0 && tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			status = -1;
		}
	}
	tn_state_set_change_log(querier->state, NULL);
	tn_state_set_undo_log(querier->state, NULL);
	tn_state_rollback(querier->state, querier->undo, count, time);
	/* Their quark caches may name attributes that went. */
	tn_state_providers_reset(querier->providers);
	querier->stats.ahead_events = seen;
	return status;
}

/* ---- replaying a part ---- */

/* The position just before pos (the last one that sorts before it). */
static struct tn_position position_before(const struct tn_position *pos)
{
	struct tn_position before = *pos;

	if (before.tie > 0) {
		before.tie--;
	} else {
		before.ns--;
		before.tie = UINT64_MAX;
	}
	return before;
}

/* Make the kept state the state before the event at from (NULL: the
 * trace's start). */
static int state_before(struct tn_state_querier *querier,
		const struct tn_position *from, struct tn_error *err)
{
	struct tn_state_snapshot_info info;
	struct tn_position before;

	if (!from || from->ns == INT64_MIN)
		return start_from_beginning(querier, err);
	if (querier->snapshots && tn_state_snapshots_find(querier->snapshots,
			from, &info, NULL) &&
	    tn_position_compare(&info.pos, from) == 0 &&
	    !(querier->has_state && tn_position_compare(&querier->next,
			from) == 0))
		return start_from_snapshot(querier, &info, -1, err);
	before = position_before(from);
	if (state_at(querier, &before, err) == 0)
		return 0;
	/* No event before from: the state before it is the empty one. */
	if (querier->has_state && !querier->has_last)
		return start_from_beginning(querier, err);
	return -1;
}


/* Replay the events from the kept state's on, up to to (NULL: the
 * end), to hooks. */
static int replay_rows(struct tn_state_querier *querier,
		const struct tn_position *to,
		const struct tn_state_replay_hooks *hooks, void *data,
		struct tn_error *err)
{
	struct tn_row row;
	int status;

	tn_state_set_interval_sink(querier->state, hooks->interval, data);
	while ((status = next_row(querier, &row, err)) == 1) {
		if (to && tn_position_compare(&row.pos, to) >= 0) {
			unread_row(querier, &row);
			querier->next = row.pos;
			break;
		}
		if (hooks->event && hooks->event(data, querier->state, &row)) {
			tn_row_release(&row);
			tn_error_set(err, "cancelled");
			status = -1;
			break;
		}
		if (tn_state_providers_handle(querier->providers,
				querier->state, &row.ev, &row.pos, err)) {
			tn_row_release(&row);
			tn_state_set_interval_sink(querier->state, NULL, NULL);
			reset(querier);
			return -1;
		}
		querier->has_last = true;
		querier->last = row.pos;
		querier->next = row.pos;
		querier->next.tie++;
		querier->next_rank++;
		querier->replayed++;
		tn_row_release(&row);
	}
	tn_state_set_interval_sink(querier->state, NULL, NULL);
	if (status < 0) {
		reset(querier);
		return -1;
	}
	if (hooks->end)
		hooks->end(data, querier->state);
	return 0;
}

int tn_state_querier_replay(struct tn_state_querier *querier,
		const struct tn_position *from, const struct tn_position *to,
		const struct tn_state_replay_hooks *hooks, void *data,
		struct tn_error *err)
{
	if (state_before(querier, from, err))
		return -1;
	return replay_rows(querier, to, hooks, data, err);
}

int tn_state_querier_replay_unknown(struct tn_state_querier *querier,
		int64_t from_ns, const struct tn_position *to,
		const struct tn_state_replay_hooks *hooks, void *data,
		struct tn_error *err)
{
	if (start_empty_at(querier, from_ns, err))
		return -1;
	return replay_rows(querier, to, hooks, data, err);
}

/* ---- queries ---- */

int tn_state_querier_query(struct tn_state_querier *querier,
		const struct tn_position *pos,
		const struct tn_state_query_options *options,
		struct tn_state_result **out, struct tn_error *err)
{
	struct tn_state_result_source source = {
		.pos = pos,
		.glob = options ? options->glob : NULL,
		.symbols = options ? options->symbols : NULL,
		.providers = tn_state_providers_get_names(querier->providers),
	};
	uint64_t horizon = options ? options->end_horizon : 0;
	struct read_on on = { 0 };
	double t0;

	querier->stats.ahead_events = 0;
	if (state_at(querier, pos, err))
		return -1;
	source.from_snapshot = querier->from_snapshot;
	source.replayed = querier->replayed;
	t0 = now();
	if (horizon > 0) {
		on.horizon = horizon;
		on.quark = -1;
		on.count = tn_state_get_attribute_count(querier->state);
		on.unresolved = on.count;
		on.ends = g_new0(struct tn_state_end, on.count ? on.count : 1);
		if (read_on(querier, &on, err)) {
			g_free(on.ends);
			return -1;
		}
		source.ends = on.ends;
		source.end_after = on.end_after;
	}
	*out = tn_state_result_build(querier->state, &source);
	querier->stats.result_seconds = now() - t0;
	g_free(on.ends);
	return 0;
}

int tn_state_querier_query_single(struct tn_state_querier *querier,
		const struct tn_position *pos, const char *path,
		struct tn_state_entry *entry, struct tn_error *err)
{
	struct read_on on = { .horizon = UINT64_MAX };
	int quark;

	querier->stats.ahead_events = 0;
	if (state_at(querier, pos, err))
		return -1;
	quark = tn_state_quark_lookup(querier->state, TN_STATE_ROOT, path);
	if (quark < 0) {
		GString *text = g_string_new(NULL);

		format_pos(text, pos);
		tn_error_set(err, "no attribute %s in the state at %s", path,
			text->str);
		g_string_free(text, TRUE);
		return -1;
	}
	on.quark = quark;
	on.count = tn_state_get_attribute_count(querier->state);
	on.unresolved = 1;
	on.ends = g_new0(struct tn_state_end, on.count);
	if (read_on(querier, &on, err)) {
		g_free(on.ends);
		return -1;
	}
	tn_state_entry_init(entry, querier->state, quark, path);
	entry->has_end = on.ends[quark].has_end;
	if (entry->has_end)
		entry->end = on.ends[quark].end;
	else
		entry->end_after = on.end_after;
	g_free(on.ends);
	return 0;
}
