/* seek.c - positions of events and walks that know them (the event
 * list's seek helpers are in seek-events.c, split walks in
 * walk-split.c). */
#include <string.h>

#include "reader-private.h"
#include "slice.h"
#include "trace-private.h"
#include "tracenav/job.h"
#include "tracenav/reader.h"
#include "tracenav/seek.h"
#include "walk-private.h"

/* A walk run by a job looks for a cancel request this often (items). */
#define CANCEL_CHECK_EVERY 256


int tn_position_compare(const struct tn_position *a,
		const struct tn_position *b)
{
	if (a->ns != b->ns)
		return a->ns < b->ns ? -1 : 1;
	if (a->tie != b->tie)
		return a->tie < b->tie ? -1 : 1;
	return 0;
}

void tn_row_release(struct tn_row *row)
{
	tn_event_release(&row->ev);
}

/* Open a walk that reads the trace from a little before begin: from
 * its start (begin INT64_MIN, or no slice), or through a slice holding
 * every event from begin on.  Nothing is dropped yet: the walk skips
 * what comes before its position itself (libbabeltrace2 2.0's trimmer
 * cannot be trusted with every trace, and drops the counts of the
 * notices it clips). */
static int open_walk_once(const struct tn_trace *trace, int64_t begin,
		bool allow_slice, const struct tn_walk_part *part,
		struct tn_walk **out, struct tn_error *err)
{
	struct tn_walk *walk = g_new0(struct tn_walk, 1);
	struct tn_error slice_err;

	walk->complete_after = INT64_MIN;
	/* Streams without a clock cannot seek: every event is at time 0
	 * and positions count from the start. */
	if (!tn_trace_has_clock(trace))
		begin = INT64_MIN;
	if (part) {
		/* A part of a split walk reads its slice, or nothing. */
		if (begin == INT64_MIN || tn_slice_create_part(trace, begin, 0,
				part->part, part->parts, &walk->slice, err)) {
			g_free(walk);
			return -1;
		}
		walk->complete_after =
			tn_slice_get_complete_after(walk->slice);
	} else if (begin != INT64_MIN && allow_slice &&
	    tn_slice_create(trace, begin, 0, &walk->slice, &slice_err) == 0) {
		/* A slice makes the seek cost one packet per stream; without
		 * one (no packet index, no packet tables), the walk reads
		 * from the start. */
		walk->complete_after =
			tn_slice_get_complete_after(walk->slice);
		/* A slice that keeps every packet is the trace itself. */
		if (walk->complete_after == INT64_MIN) {
			tn_slice_destroy(walk->slice);
			walk->slice = NULL;
		}
	}
	if (!walk->slice && (walk->reader = tn_trace_take_start_reader(trace))) {
		*out = walk;
		return 0;
	}
	if (tn_reader_create_on_dirs(trace, NULL, walk->slice ?
			tn_slice_borrow_dirs(walk->slice) : NULL, &walk->reader,
			err)) {
		tn_walk_destroy(walk);
		return -1;
	}
	*out = walk;
	return 0;
}

/* The same, again when a repaired stream file grew between the slice
 * and its reader (a trace being written): libbabeltrace2 saw a file
 * larger than the slice's index says, and refused it. */
static int open_walk(const struct tn_trace *trace, int64_t begin,
		bool allow_slice, const struct tn_walk_part *part,
		struct tn_walk **out, struct tn_error *err)
{
	for (int tries = 1;; tries++) {
		uint64_t generation = tn_trace_get_read_generation(trace);
		int status = open_walk_once(trace, begin, allow_slice, part,
			out, err);

		if (status == 0 || tries == 3)
			return status;
		/* Did a repaired file grow meanwhile? */
		tn_trace_refresh_read_dirs(trace);
		if (tn_trace_get_read_generation(trace) == generation)
			return status;
	}
}

static void release_before(struct tn_walk *walk)
{
	uint64_t kept = MIN(walk->before_seen, walk->keep_before);

	for (uint64_t i = 0; i < kept; i++)
		tn_row_release(&walk->before[i]);
	walk->before_seen = 0;
}

void tn_walk_destroy(struct tn_walk *walk)
{
	if (!walk)
		return;
	if (walk->has_pending)
		tn_row_release(&walk->pending);
	release_before(walk);
	g_free(walk->before);
	if (walk->source_class)
		walk->source_class->destroy(walk->source);
	tn_reader_destroy(walk->reader);
	tn_slice_destroy(walk->slice);
	g_free(walk);
}

/* Read the next event, matching or not, with its position. */
static int read_event(struct tn_walk *walk, struct tn_row *row,
		struct tn_error *err)
{
	for (;;) {
		struct tn_event ev;
		uint64_t count;
		enum tn_reader_status status;

		/* Before reading, so that a cancelled walk loses nothing
		 * and can go on later. */
		if (++walk->items % CANCEL_CHECK_EVERY == 0 &&
		    tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			return -1;
		}
		status = walk->source_class ?
			walk->source_class->next(walk->source, &ev,
				&walk->lost, err) :
			tn_reader_next(walk->reader, &ev, err);

		if (status == TN_READER_END)
			return 0;
		if (status == TN_READER_ERROR)
			return -1;
		if (ev.kind != TN_EVENT_KIND_EVENT) {
			/* Events, not packets: lost_before counts events. */
			if (ev.kind == TN_EVENT_KIND_DISCARDED_EVENTS &&
			    tn_event_get_discarded_count(&ev, &count))
				walk->lost += count;
			tn_event_release(&ev);
			continue;
		}
		memset(row, 0, sizeof(*row));
		row->ev = ev;
		row->pos.ns = ev.ns;
		row->pos.tie = walk->has_last && walk->last_ns == ev.ns ?
			walk->last_tie + 1 : 0;
		row->has_prev = walk->has_last;
		row->prev_ns = walk->last_ns;
		row->lost_before = walk->lost;
		/* Before the view is complete, what precedes a row is not
		 * known: the row before it in a full read may have been
		 * left out. */
		if (walk->complete_after != INT64_MIN && !walk->seen_complete) {
			row->has_prev = false;
			walk->seen_complete = ev.ns > walk->complete_after;
		}
		walk->lost = 0;
		walk->has_last = true;
		walk->last_ns = ev.ns;
		walk->last_tie = row->pos.tie;
		return 1;
	}
}

static bool matches(const struct tn_filter *filter, const struct tn_event *ev)
{
	return !filter || !filter->match || filter->match(ev, filter->data);
}

int tn_walk_next(struct tn_walk *walk, const struct tn_filter *filter,
		struct tn_row *row, struct tn_error *err)
{
	for (;;) {
		int status;

		if (walk->has_pending) {
			*row = walk->pending;
			walk->has_pending = false;
			status = 1;
		} else {
			status = read_event(walk, row, err);
		}
		if (status <= 0 || matches(filter, &row->ev))
			return status;
		/* Lost events before a skipped event are still before the
		 * next matching one. */
		walk->lost += row->lost_before;
		tn_row_release(row);
	}
}

static bool is_complete(const struct tn_walk *walk, const struct tn_row *row)
{
	return walk->complete_after == INT64_MIN ||
		row->pos.ns > walk->complete_after;
}

/* Keep row, read before the walk's position, if it is complete and
 * rows are kept; otherwise drop it. */
static void keep_before(struct tn_walk *walk, struct tn_row *row)
{
	struct tn_row *slot;

	if (!is_complete(walk, row)) {
		tn_row_release(row);
		return;
	}
	if (walk->keep_before == 0) {
		tn_row_release(row);
		walk->before_seen++;	/* for tn_walk_take_before() */
		return;
	}
	slot = &walk->before[walk->before_seen % walk->keep_before];
	if (walk->before_seen >= walk->keep_before)
		tn_row_release(slot);
	*slot = *row;
	walk->before_seen++;
}

int tn_walk_skip_to(struct tn_walk *walk, const struct tn_position *pos,
		bool exclusive, uint64_t keep, bool *landed,
		struct tn_error *err)
{
	struct tn_row row;
	int status;

	*landed = false;
	walk->keep_before = keep;
	walk->before = keep ? g_new(struct tn_row, keep) : NULL;
	while ((status = read_event(walk, &row, err)) == 1) {
		int cmp = tn_position_compare(&row.pos, pos);

		if (cmp == 0)
			*landed = true;
		if (cmp > 0 || (cmp == 0 && !exclusive)) {
			walk->pending = row;
			walk->has_pending = true;
			break;
		}
		keep_before(walk, &row);
	}
	if (status < 0) {
		tn_walk_destroy(walk);
		return -1;
	}
	return 0;
}

int tn_walk_open_at_part(const struct tn_trace *trace,
		const struct tn_position *pos, bool exclusive, bool allow_slice,
		const struct tn_walk_part *part, uint64_t keep,
		struct tn_walk **out, bool *landed, struct tn_error *err)
{
	struct tn_walk *walk;

	*landed = false;
	if (open_walk(trace, pos->ns, allow_slice, part, &walk, err) ||
	    tn_walk_skip_to(walk, pos, exclusive, keep, landed, err))
		return -1;
	*out = walk;
	return 0;
}

int64_t tn_seek_get_skipped_until(const struct tn_trace *trace, int64_t ns)
{
	struct tn_error err;
	int64_t bound;

	if (ns == INT64_MIN || !tn_trace_has_clock(trace) ||
	    tn_slice_plan(trace, ns, 0, &bound, &err))
		return INT64_MIN;
	return bound;
}

void tn_seek_list_packet_starts(const struct tn_trace *trace,
		GArray *starts_ns)
{
	struct tn_error err;

	if (tn_trace_has_clock(trace))
		tn_slice_list_packet_starts(trace, starts_ns, &err);
}

int tn_walk_open(const struct tn_trace *trace, int64_t ns,
		struct tn_walk **out, struct tn_error *err)
{
	/* Without a clock, every event is at time 0: any time is the
	 * start. */
	struct tn_position pos = { tn_trace_has_clock(trace) ? ns : INT64_MIN,
		0 };
	bool landed;

	return tn_walk_open_at_part(trace, &pos, false, true, NULL, 0, out,
		&landed, err);
}

int tn_walk_open_at(const struct tn_trace *trace,
		const struct tn_position *pos, bool exclusive,
		struct tn_walk **out, struct tn_error *err)
{
	bool landed;

	return tn_walk_open_at_part(trace, pos, exclusive, true, NULL, 0,
		out, &landed, err);
}

int tn_walk_open_at_known(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t keep_before,
		struct tn_walk **out, bool *fell_back, struct tn_error *err)
{
	bool landed;

	*fell_back = false;
	if (tn_walk_open_at_part(trace, pos, false, true, NULL, keep_before,
			out, &landed, err))
		return -1;
	if (landed)
		return 0;
	/* The sliced view missed an event that a full read has: read the
	 * whole trace instead (slow, right). */
	tn_walk_destroy(*out);
	*fell_back = true;
	if (tn_walk_open_at_part(trace, pos, false, false, NULL,
			keep_before, out, &landed, err))
		return -1;
	if (landed)
		return 0;
	tn_walk_destroy(*out);
	*out = NULL;
	tn_error_set(err, "no event at the checkpoint %" G_GINT64_FORMAT
		" ns (tie %" G_GUINT64_FORMAT "): the trace changed since it "
		"was indexed; rebuild the index (:index)", pos->ns, pos->tie);
	return -1;
}

int64_t tn_walk_take_before(struct tn_walk *walk,
		const struct tn_filter *filter, GArray *rows, bool *at_start)
{
	uint64_t kept = MIN(walk->before_seen, walk->keep_before);
	uint64_t first = kept < walk->before_seen && kept > 0 ?
		walk->before_seen % walk->keep_before : 0;
	uint64_t carry = 0;
	int64_t added = 0;

	/* Every row since the first event of the trace is there. */
	*at_start = walk->complete_after == INT64_MIN &&
		walk->before_seen <= walk->keep_before;
	for (uint64_t i = 0; i < kept; i++) {
		struct tn_row *row = &walk->before[(first + i) %
			walk->keep_before];

		/* As tn_walk_next(): the discarded events before a skipped
		 * row are still before the next matching one. */
		if (!matches(filter, &row->ev)) {
			carry += row->lost_before;
			tn_row_release(row);
			continue;
		}
		row->lost_before += carry;
		carry = 0;
		g_array_append_val(rows, *row);
		added++;
	}
	if (walk->has_pending)
		walk->pending.lost_before += carry;
	else
		walk->lost += carry;
	walk->before_seen = 0;
	return added;
}
