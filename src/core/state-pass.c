/* state-pass.c - the state pass: one read of the whole trace in order,
 * every event through the providers, and snapshots of the state taken
 * within a budget (see state-history.h).
 *
 * The budget: all snapshots within trace_share of the trace's stream
 * bytes, spent evenly.  Before an event, once min_gap events passed
 * since the last snapshot, the pass asks whether a snapshot now and
 * then one every as many events until the end would fit in the bytes
 * left: with s the estimated size of a snapshot (the last one's,
 * scaled by the attributes the state has now), g the events since the
 * last one and r the events to come (from the index, else from the
 * share of the time range read), it takes one when s * (g + r) <=
 * left * g.  After max_gap events it takes one anyway: that bounds a
 * query's replay, and only a trace whose state is large for its size
 * goes over its share then.  A snapshot that turns out larger than
 * estimated and does not fit is dropped (before max_gap).
 */
#include <glib.h>

#include "tracenav/state-history.h"
#include "tracenav/state-provider.h"

/* How often the pass says how far it got (events). */
#define REACHED_EVERY 1024
#define PROGRESS_EVERY 8192
/* A snapshot's size per attribute, before the first one tells. */
#define GUESS_BYTES_PER_ATTRIBUTE 24
#define GUESS_BYTES_FIXED 64

struct pass {
	const struct tn_trace *trace;
	const struct tn_index *index;
	struct tn_state_budget budget;
	struct tn_state_snapshots *snapshots;
	struct tn_state_providers *providers;
	struct tn_state *state;
	/* The time range, for the progress and the events to come without
	 * an index. */
	bool has_range;
	int64_t begin_ns, end_ns;
	/* The budget as it is spent. */
	double cap;		/* bytes */
	double used;
	double last_size;	/* of the last snapshot serialised */
	int last_attributes;	/* the state's attributes then */
};

struct tn_state_budget tn_state_budget_default(void)
{
	struct tn_state_budget budget = { 0.04, 16384, 65536 };

	return budget;
}

/* The share of the trace read once the event at ns is. */
static double time_fraction(const struct pass *pass, int64_t ns)
{
	double span;

	if (!pass->has_range || pass->end_ns <= pass->begin_ns)
		return -1;
	span = (double) pass->end_ns - (double) pass->begin_ns;
	return CLAMP(((double) ns - (double) pass->begin_ns) / span, 0.0, 1.0);
}

/* The events after event number rank (at ns), estimated. */
static double events_to_come(const struct pass *pass, uint64_t rank,
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

static double estimated_size(const struct pass *pass)
{
	int attributes = tn_state_get_attribute_count(pass->state);

	if (pass->last_size > 0 && pass->last_attributes > 0)
		return pass->last_size * attributes / pass->last_attributes;
	return (double) attributes * GUESS_BYTES_PER_ATTRIBUTE +
		GUESS_BYTES_FIXED;
}

/* Whether to take a snapshot before event number rank (at ns), gap
 * events after the last one. */
static bool wants_snapshot(const struct pass *pass, uint64_t gap,
		uint64_t rank, int64_t ns)
{
	double left = pass->cap - pass->used;

	if (gap >= pass->budget.max_gap)
		return true;
	if (gap < pass->budget.min_gap || left <= 0)
		return false;
	return estimated_size(pass) * ((double) gap +
		events_to_come(pass, rank, ns)) <= left * (double) gap;
}

/* Snapshot the state before the event at pos, number rank; false when
 * it did not fit in the budget (only when forced is false). */
static bool take_snapshot(struct pass *pass, const struct tn_position *pos,
		uint64_t rank, bool forced)
{
	GByteArray *buf = g_byte_array_new();
	GBytes *blob;
	double size;

	tn_state_save(pass->state, buf);
	size = buf->len;
	pass->last_size = size;
	pass->last_attributes = tn_state_get_attribute_count(pass->state);
	if (!forced && pass->used + size > pass->cap) {
		g_byte_array_free(buf, TRUE);
		return false;
	}
	blob = g_byte_array_free_to_bytes(buf);
	tn_state_snapshots_add(pass->snapshots, pos, rank, blob);
	g_bytes_unref(blob);
	pass->used += size;
	return true;
}

static void publish(struct tn_job *job, const struct pass *pass,
		uint64_t events, int64_t ns)
{
	double fraction = pass->index && pass->index->event_count ?
		(double) events / (double) pass->index->event_count :
		time_fraction(pass, ns);

	tn_job_set_progress(job, fraction, events);
}

static int run_pass(struct tn_job *job, void *data, struct tn_error *err)
{
	struct pass *pass = data;
	struct tn_walk *walk;
	struct tn_row row;
	struct tn_position last = { 0, 0 };
	uint64_t rank = 0, gap = 0;
	int status;

	pass->cap = pass->budget.trace_share *
		(double) tn_trace_get_stream_bytes(pass->trace);
	if (tn_walk_open(pass->trace, INT64_MIN, &walk, err))
		return -1;
	while ((status = tn_walk_next(walk, NULL, &row, err)) == 1) {
		if (rank > 0 && gap >= pass->budget.min_gap &&
		    wants_snapshot(pass, gap, rank, row.pos.ns) &&
		    take_snapshot(pass, &row.pos, rank,
				gap >= pass->budget.max_gap))
			gap = 0;
		status = tn_state_providers_handle(pass->providers,
			pass->state, &row.ev, &row.pos, err);
		last = row.pos;
		tn_row_release(&row);
		if (status)
			break;
		rank++;
		gap++;
		if (rank % REACHED_EVERY == 0)
			tn_state_snapshots_set_reached(pass->snapshots, &last,
				rank - 1);
		if (rank % PROGRESS_EVERY == 0) {
			publish(job, pass, rank, last.ns);
			if (tn_job_is_cancelled(job)) {
				tn_error_set(err, "cancelled");
				status = -1;
				break;
			}
		}
	}
	tn_walk_destroy(walk);
	if (status < 0)
		return -1;
	if (rank > 0)
		tn_state_snapshots_set_reached(pass->snapshots, &last,
			rank - 1);
	tn_state_snapshots_set_complete(pass->snapshots, rank);
	tn_job_set_progress(job, 1, rank);
	return 0;
}

static void free_pass(void *data)
{
	struct pass *pass = data;

	tn_state_providers_destroy(pass->providers);
	tn_state_destroy(pass->state);
	g_free(pass);
}

static const struct tn_job_class pass_class = {
	.name = "computing state",
	.run = run_pass,
	.free = free_pass,
};

int tn_state_pass_start(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget,
		struct tn_state_snapshots *snapshots, struct tn_job **out,
		struct tn_error *err)
{
	struct pass *pass = g_new0(struct pass, 1);

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
	pass->providers = tn_state_providers_create(trace);
	pass->state = tn_state_create();
	if (tn_job_start(&pass_class, pass, out, err)) {
		free_pass(pass);
		return -1;
	}
	return 0;
}
