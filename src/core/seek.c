/* seek.c - positions of events, walks that know them, and the two seek
 * helpers of the event list. */
#include <string.h>

#include "reader-private.h"
#include "slice.h"
#include "trace-private.h"
#include "tracenav/job.h"
#include "tracenav/reader.h"
#include "tracenav/seek.h"
#include "walk-private.h"

/* The first backward window when the caller has no better guess. */
#define DEFAULT_WINDOW_NS INT64_C(1000000)
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

int64_t tn_seek_n_events_forward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t n,
		const struct tn_filter *filter, GArray *rows,
		struct tn_error *err)
{
	struct tn_walk *walk;
	int64_t added = 0;
	struct tn_row row;
	int status = 1;

	if (tn_walk_open_at(trace, pos, false, &walk, err))
		return -1;
	while ((uint64_t) added < n &&
	       (status = tn_walk_next(walk, filter, &row, err)) == 1) {
		g_array_append_val(rows, row);
		added++;
	}
	tn_walk_destroy(walk);
	return status < 0 ? -1 : added;
}

/* The last n rows pushed, in n slots. */
struct row_ring {
	struct tn_row *slots;
	uint64_t n, seen;
};

static void ring_push(struct row_ring *ring, const struct tn_row *row)
{
	struct tn_row *slot = &ring->slots[ring->seen % ring->n];

	if (ring->seen >= ring->n)
		tn_row_release(slot);
	*slot = *row;
	ring->seen++;
}

/* Append the rows of ring to rows, oldest first, and empty it. */
static void ring_move_to(struct row_ring *ring, GArray *rows)
{
	uint64_t count = MIN(ring->seen, ring->n);
	uint64_t first = ring->seen > ring->n ? ring->seen % ring->n : 0;

	for (uint64_t i = 0; i < count; i++)
		g_array_append_val(rows, ring->slots[(first + i) % ring->n]);
	ring->seen = 0;
}

static void ring_release(struct row_ring *ring)
{
	uint64_t count = MIN(ring->seen, ring->n);

	for (uint64_t i = 0; i < count; i++)
		tn_row_release(&ring->slots[i]);
	ring->seen = 0;
}

/* The last `most` matching rows before pos that a walk opened at
 * start holds complete (those it decoded before start too), appended
 * to rows; info says whether they begin at the trace's start and what
 * the walk knows of the event at pos; *bound is the time after which
 * the walk held every event (INT64_MIN: from the start). */
static int64_t read_window(const struct tn_trace *trace, int64_t start,
		const struct tn_position *pos, uint64_t most,
		const struct tn_filter *filter, GArray *rows,
		struct tn_seek_info *info, int64_t *bound,
		struct tn_error *err)
{
	struct tn_position from = { start, 0 };
	struct row_ring ring = { g_new(struct tn_row, most), most, 0 };
	GArray *before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	struct tn_walk *walk;
	struct tn_row row;
	int64_t count;
	int status;

	if (tn_walk_open_near(trace, &from, most, &walk, err)) {
		g_free(ring.slots);
		g_array_free(before, TRUE);
		return -1;
	}
	*bound = walk->complete_after;
	tn_walk_take_before(walk, filter, before, &info->at_start);
	for (guint i = 0; i < before->len; i++)
		ring_push(&ring, &g_array_index(before, struct tn_row, i));
	g_array_free(before, TRUE);
	while ((status = tn_walk_next(walk, filter, &row, err)) == 1) {
		if (tn_position_compare(&row.pos, pos) >= 0) {
			/* What a full read has before the event at pos is
			 * known if the event before it is. */
			info->has_next = tn_position_compare(&row.pos, pos) ==
				0 && row.has_prev;
			info->next_lost = row.lost_before;
			tn_row_release(&row);
			break;
		}
		ring_push(&ring, &row);
	}
	tn_walk_destroy(walk);
	if (ring.seen > ring.n)
		info->at_start = false;
	count = (int64_t) MIN(ring.seen, ring.n);
	if (status < 0) {
		ring_release(&ring);
		count = -1;
	} else {
		ring_move_to(&ring, rows);
	}
	g_free(ring.slots);
	return count;
}

/* When the trace's first event is: its packets' range, or the first
 * event the trace read when it opened. */
static bool trace_begin(const struct tn_trace *trace, int64_t *begin)
{
	int64_t end;

	return tn_trace_get_time_range(trace, begin, &end) ||
		tn_trace_get_first_event_time(trace, begin);
}

/* The next window after one that held count (< least) rows after
 * bound: twice as wide at least, and wide enough for least rows at the
 * density seen, with a margin.  A window that does not reach below the
 * bound (the end of a packet it left out) reads the same again: on a
 * trace whose streams idle for seconds, doubling alone would open a
 * reader a dozen times. */
static int64_t next_window(int64_t window, int64_t pos_ns, int64_t bound,
		uint64_t count, uint64_t least)
{
	double held = bound == INT64_MIN || bound >= pos_ns ? 0 :
		(double) pos_ns - (double) bound;
	double wanted = count > 0 ?
		held * (1 + 2.0 * (double) (least - count) / (double) count) :
		held * 4;

	if (window > INT64_MAX / 2)
		return INT64_MAX;
	window *= 2;
	if (wanted > (double) window)
		window = wanted >= (double) INT64_MAX ? INT64_MAX :
			(int64_t) wanted;
	return window;
}

int64_t tn_seek_events_backward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t least, uint64_t most,
		const struct tn_filter *filter, int64_t window_ns, GArray *rows,
		struct tn_seek_info *info, struct tn_error *err)
{
	struct tn_seek_info local;
	int64_t begin = INT64_MIN, window, count = 0;
	bool has_begin = tn_trace_has_clock(trace) &&
		trace_begin(trace, &begin);
	guint first = rows->len;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	if (most < least)
		most = least;
	if (most == 0)
		return 0;
	window = window_ns > 0 ? window_ns : DEFAULT_WINDOW_NS;
	for (;;) {
		/* Start the window at the trace start once it reaches it:
		 * no event can be missed before it. */
		bool from_start = !has_begin || pos->ns <= begin ||
			(uint64_t) pos->ns - (uint64_t) begin <= (uint64_t) window;
		int64_t start = from_start ? INT64_MIN : pos->ns - window;
		int64_t bound;

		memset(info, 0, sizeof(*info));
		count = read_window(trace, start, pos, most, filter, rows, info,
			&bound, err);
		if (count < 0)
			return -1;
		if ((uint64_t) count >= least || info->at_start || from_start)
			break;
		for (guint i = first; i < rows->len; i++)
			tn_row_release(&g_array_index(rows, struct tn_row, i));
		g_array_set_size(rows, first);
		window = next_window(window, pos->ns, bound, (uint64_t) count,
			least);
	}
	/* Fewer than asked from the start: nothing more before them. */
	if ((uint64_t) count < least)
		info->at_start = true;
	return count;
}

int64_t tn_seek_n_events_backward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t n,
		const struct tn_filter *filter, int64_t window_ns, GArray *rows,
		struct tn_error *err)
{
	return tn_seek_events_backward(trace, pos, n, n, filter, window_ns,
		rows, NULL, err);
}
