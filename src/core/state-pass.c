/* state-pass.c - the state pass: the snapshots of the state taken
 * within a budget while the preparse reads the whole trace once in
 * order and its providers apply every event (see state-history.h and
 * preparse.h).  The pass is a consumer of that read: before each event
 * it may take a snapshot and hands the event to its observer (the
 * analyses of the whole trace); after it, it notes what the event
 * changed.
 *
 * Most snapshots hold only the changes since the one before (the
 * attributes added, and those a change log of the state says changed):
 * a kernel state keeps every thread it has seen, so a full snapshot
 * grows with the trace while a change set grows with the gap.  A full
 * one is taken when the changes since the last full one weigh as much
 * as a full one would (a restore then costs at most about two full
 * ones) and the budget has room for it.
 *
 * The budget: all snapshots within trace_share of the trace's stream
 * bytes, spent evenly.  Before an event, once min_gap events passed
 * since the last snapshot, the pass asks whether a snapshot now and
 * then one every as many events until the end would fit in the bytes
 * left: with s the estimated size of the snapshot (the changes so far,
 * at the bytes per change of the last one), g the events since the
 * last one and r the events to come (from the index, else from the
 * share of the time range read), it takes one when s * (g + r) <=
 * left * g.  After max_gap events it takes one anyway: that bounds a
 * query's replay, and only a trace whose changes are large for its
 * size goes over its share then.  A snapshot that turns out larger than
 * estimated and does not fit is dropped (before max_gap).
 *
 * Where: a query at an event decodes, in every stream, the packet that
 * holds the snapshot's event from its start (libbabeltrace2 reads no
 * packet from the middle), then everything up to its event.  The part
 * of the packets that holds that event cannot be helped; what a
 * snapshot can save is the packet before, when a stream began a new
 * packet between the snapshot and the event.  So the pass also takes
 * one at the first event after a stream begins a packet (the packet
 * index says when: tn_seek_list_packet_starts()), once start_gap events
 * passed since the last one, when the budget has room for it.
 */
#include <glib.h>
#include <string.h>

#include "src/core/state-history-private.h"

/* How often the pass says how far it got (events). */
#define REACHED_EVERY 1024
/* Bytes per attribute of a full snapshot, and per change of a delta,
 * before the first one tells. */
#define GUESS_FULL_BYTES 12.0
#define GUESS_DELTA_BYTES 8.0
#define GUESS_FIXED_BYTES 64.0

struct tn_state_pass {
	const struct tn_trace *trace;
	const struct tn_index *index;
	struct tn_state_budget budget;
	struct tn_state_snapshots *snapshots;
	struct tn_state *state;		/* the preparse's */
	/* The time range, for the progress and the events to come without
	 * an index. */
	bool has_range;
	int64_t begin_ns, end_ns;
	/* The budget as it is spent. */
	double cap;		/* bytes */
	double used;
	double full_bytes;	/* per attribute, of the last full one */
	double delta_bytes;	/* per change, of the last delta */
	double chain;		/* bytes of the deltas since the last full */
	/* What changed since the last snapshot: the change log of the
	 * state, drained after each event into the set of changed quarks
	 * (a flag per quark, and their list), and the attributes added
	 * since (from base_count on). */
	struct tn_state_changes log;
	GByteArray *dirty;
	GArray *changed;
	int base_count;
	/* The times from which a seek begins a stream with a new packet
	 * (sorted), the next one not passed yet, and whether one was
	 * passed since the last snapshot. */
	GArray *starts;
	guint next_start;
	bool start_passed;
	/* Who else reads the events (has_observer). */
	bool has_observer;
	struct tn_state_pass_observer observer;
	/* Events since the last snapshot, and the last one's position. */
	uint64_t gap;
	struct tn_position last;
};

struct tn_state_budget tn_state_budget_default(void)
{
	struct tn_state_budget budget = { 0.04, 16384, 65536, 4096 };

	return budget;
}

/* The share of the trace read once the event at ns is. */
static double time_fraction(const struct tn_state_pass *pass, int64_t ns)
{
	double span;

	if (!pass->has_range || pass->end_ns <= pass->begin_ns)
		return -1;
	span = (double) pass->end_ns - (double) pass->begin_ns;
	return CLAMP(((double) ns - (double) pass->begin_ns) / span, 0.0, 1.0);
}

/* The events after event number rank (at ns), estimated. */
static double events_to_come(const struct tn_state_pass *pass, uint64_t rank,
		int64_t ns)
{
	double fraction;

	if (pass->index)
		return pass->index->event_count > rank ?
			(double) (pass->index->event_count - rank) : 0;
	fraction = time_fraction(pass, ns);
	/* Too early to tell: as many again as read so far. */
	if (fraction < 0.001)
		return (double) rank;
	return (double) rank * (1 - fraction) / fraction;
}

/* The changes since the last snapshot: added and changed attributes. */
static double changes(const struct tn_state_pass *pass)
{
	return (double) pass->changed->len +
		tn_state_get_attribute_count(pass->state) - pass->base_count;
}

static double estimated_delta(const struct tn_state_pass *pass)
{
	return changes(pass) * pass->delta_bytes + GUESS_FIXED_BYTES;
}

static double estimated_full(const struct tn_state_pass *pass)
{
	return tn_state_get_attribute_count(pass->state) * pass->full_bytes +
		GUESS_FIXED_BYTES;
}

/* Note the quarks the last event changed. */
static void drain_log(struct tn_state_pass *pass)
{
	for (size_t i = 0; i < pass->log.len; i++) {
		int q = pass->log.quarks[i];

		if ((guint) q >= pass->dirty->len) {
			guint old = pass->dirty->len;

			g_byte_array_set_size(pass->dirty, (guint) q * 2 + 64);
			memset(pass->dirty->data + old, 0,
				pass->dirty->len - old);
		}
		if (!pass->dirty->data[q]) {
			pass->dirty->data[q] = 1;
			g_array_append_val(pass->changed, q);
		}
	}
	pass->log.len = 0;
}

static void forget_changes(struct tn_state_pass *pass)
{
	for (guint i = 0; i < pass->changed->len; i++)
		pass->dirty->data[g_array_index(pass->changed, int, i)] = 0;
	g_array_set_size(pass->changed, 0);
	pass->base_count = tn_state_get_attribute_count(pass->state);
}

/* Whether to take a snapshot before event number rank (at ns), gap
 * events after the last one. */
static bool wants_snapshot(const struct tn_state_pass *pass, uint64_t gap,
		uint64_t rank, int64_t ns)
{
	double left = pass->cap - pass->used;

	if (gap >= pass->budget.max_gap)
		return true;
	if (gap < pass->budget.min_gap || left <= 0)
		return false;
	return estimated_delta(pass) * ((double) gap +
		events_to_come(pass, rank, ns)) <= left * (double) gap;
}

/* Note the packets that streams begin by the event at ns. */
static void pass_starts(struct tn_state_pass *pass, int64_t ns)
{
	const int64_t *starts = (const int64_t *) (void *) pass->starts->data;

	while (pass->next_start < pass->starts->len &&
	       starts[pass->next_start] <= ns) {
		pass->next_start++;
		pass->start_passed = true;
	}
}

/* Whether to take a snapshot before the event at ns, gap events after
 * the last one, because a stream began a packet since: the first such
 * event, once start_gap passed, if the budget leaves room for it and
 * for the snapshots to come at twice the pace so far. */
static bool wants_start_snapshot(const struct tn_state_pass *pass, uint64_t gap,
		uint64_t rank, int64_t ns)
{
	double left = pass->cap - pass->used;

	if (!pass->start_passed || pass->budget.start_gap == 0 ||
	    gap < pass->budget.start_gap)
		return false;
	return estimated_delta(pass) * ((double) gap +
		events_to_come(pass, rank, ns)) <= left * (double) gap * 2;
}

/* Whether the snapshot about to be taken is a full one: when the
 * changes since the last full one weigh as much, and a full one leaves
 * room for the changes to come at this pace. */
static bool wants_full(const struct tn_state_pass *pass, uint64_t gap, uint64_t rank,
		int64_t ns)
{
	double full = estimated_full(pass);
	double rest = events_to_come(pass, rank, ns) / (double) gap *
		estimated_delta(pass);

	return pass->chain + estimated_delta(pass) >= full &&
		pass->used + full + rest <= pass->cap;
}

/* Snapshot the state before the event at pos, number rank (full, or
 * its changes); false when it did not fit in the budget (only when
 * forced is false). */
static bool take_snapshot(struct tn_state_pass *pass, const struct tn_position *pos,
		uint64_t rank, bool full, bool forced)
{
	GByteArray *buf = g_byte_array_new();
	double count = changes(pass);
	GBytes *blob;
	double size;

	if (full)
		tn_state_delta_save(pass->state, 0, NULL, buf);
	else
		tn_state_delta_save(pass->state, pass->base_count,
			pass->changed, buf);
	size = buf->len;
	if (full)
		pass->full_bytes = size / MAX(1, tn_state_get_attribute_count(
			pass->state));
	else if (count > 0)
		pass->delta_bytes = size / count;
	if (!forced && pass->used + size > pass->cap) {
		g_byte_array_free(buf, TRUE);
		return false;
	}
	blob = g_byte_array_free_to_bytes(buf);
	tn_state_snapshots_add(pass->snapshots, pos, rank, full, blob);
	g_bytes_unref(blob);
	pass->used += size;
	pass->chain = full ? 0 : pass->chain + size;
	pass->start_passed = false;
	forget_changes(pass);
	return true;
}

void tn_state_pass_begin(struct tn_state_pass *pass, struct tn_state *state)
{
	pass->state = state;
	pass->cap = pass->budget.trace_share *
		(double) tn_trace_get_stream_bytes(pass->trace);
	if (pass->budget.start_gap)
		tn_seek_list_packet_starts(pass->trace, pass->starts);
	tn_state_set_change_log(state, &pass->log);
	if (pass->has_observer)
		tn_state_set_interval_sink(state,
			pass->observer.hooks.interval, pass->observer.data);
}

void tn_state_pass_before(struct tn_state_pass *pass,
		const struct tn_row *row, uint64_t rank)
{
	pass_starts(pass, row->pos.ns);
	if (rank > 0 && ((pass->gap >= pass->budget.min_gap &&
	     wants_snapshot(pass, pass->gap, rank, row->pos.ns)) ||
	     wants_start_snapshot(pass, pass->gap, rank, row->pos.ns)) &&
	    take_snapshot(pass, &row->pos, rank,
			wants_full(pass, pass->gap, rank, row->pos.ns),
			pass->gap >= pass->budget.max_gap))
		pass->gap = 0;
	if (pass->has_observer && pass->observer.hooks.event)
		pass->observer.hooks.event(pass->observer.data, pass->state,
			row);
}

void tn_state_pass_after(struct tn_state_pass *pass, const struct tn_row *row,
		uint64_t rank)
{
	drain_log(pass);
	pass->gap++;
	if ((rank + 1) % REACHED_EVERY == 0)
		tn_state_snapshots_set_reached(pass->snapshots, &row->pos,
			rank);
	pass->last = row->pos;
}

void tn_state_pass_end(struct tn_state_pass *pass, uint64_t events)
{
	if (events > 0)
		tn_state_snapshots_set_reached(pass->snapshots, &pass->last,
			events - 1);
	if (pass->has_observer) {
		if (pass->observer.hooks.end)
			pass->observer.hooks.end(pass->observer.data,
				pass->state);
		if (pass->observer.finish)
			pass->observer.finish(pass->observer.data,
				pass->snapshots);
	}
	tn_state_snapshots_set_complete(pass->snapshots, events);
}

void tn_state_pass_add_wants(const struct tn_state_pass *pass, GArray *wants)
{
	if (pass->has_observer && pass->observer.add_wants)
		pass->observer.add_wants(wants);
}

void tn_state_pass_free(struct tn_state_pass *pass)
{
	if (!pass)
		return;
	if (pass->has_observer && pass->observer.destroy)
		pass->observer.destroy(pass->observer.data);
	tn_state_changes_fini(&pass->log);
	g_byte_array_free(pass->dirty, TRUE);
	g_array_free(pass->changed, TRUE);
	g_array_free(pass->starts, TRUE);
	g_free(pass);
}

struct tn_state_pass *tn_state_pass_new(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots,
		const struct tn_state_pass_observer *observer)
{
	struct tn_state_pass *pass = g_new0(struct tn_state_pass, 1);

	if (observer) {
		pass->has_observer = true;
		pass->observer = *observer;
	}
	pass->trace = trace;
	pass->index = index;
	pass->budget = budget ? *budget : tn_state_budget_default();
	if (pass->budget.max_gap < pass->budget.min_gap)
		pass->budget.max_gap = pass->budget.min_gap;
	if (pass->budget.min_gap == 0)
		pass->budget.min_gap = 1;
	pass->snapshots = snapshots;
	pass->has_range = tn_trace_get_time_range(trace, &pass->begin_ns,
		&pass->end_ns);
	if (index && index->event_count > 0) {
		pass->has_range = true;
		pass->begin_ns = index->first_event_ns;
		pass->end_ns = index->last_event_ns;
	}
	pass->full_bytes = GUESS_FULL_BYTES;
	pass->delta_bytes = GUESS_DELTA_BYTES;
	pass->dirty = g_byte_array_new();
	pass->changed = g_array_new(FALSE, FALSE, sizeof(int));
	pass->starts = g_array_new(FALSE, FALSE, sizeof(int64_t));
	return pass;
}
