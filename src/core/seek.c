/* seek.c - positions of events, walks that know them, and the two seek
 * helpers of the event list. */
#include <string.h>

#include "reader-private.h"
#include "slice.h"
#include "trace-private.h"
#include "tracenav/job.h"
#include "tracenav/reader.h"
#include "tracenav/seek.h"

/* The first backward window when the caller has no better guess. */
#define DEFAULT_WINDOW_NS INT64_C(1000000)
/* A walk run by a job looks for a cancel request this often (items). */
#define CANCEL_CHECK_EVERY 256

struct tn_walk {
	struct tn_reader *reader;
	struct tn_slice *slice;
	bool has_last;		/* time and tie of the last event read */
	int64_t last_ns;
	uint64_t last_tie;
	uint64_t lost;		/* discarded events since the last row */
	uint64_t items;		/* read, for the cancel checks */
	bool has_pending;	/* a row read ahead by tn_walk_open_at() */
	struct tn_row pending;
};

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

/* Open a walk at the first event at or after begin (INT64_MIN: the
 * start), through a slice when allowed and possible. */
static int open_walk(const struct tn_trace *trace, int64_t begin,
		bool allow_slice, struct tn_walk **out, struct tn_error *err)
{
	struct tn_walk *walk = g_new0(struct tn_walk, 1);
	struct tn_reader_options options = { 0 };
	struct tn_error slice_err;
	int64_t first, last;

	/* Streams without a clock cannot seek: every event is at time 0
	 * and positions count from the start. */
	if (!tn_trace_get_time_range(trace, &first, &last))
		begin = INT64_MIN;
	if (begin == INT64_MIN &&
	    (walk->reader = tn_trace_take_start_reader(trace))) {
		*out = walk;
		return 0;
	}
	if (begin != INT64_MIN) {
		options.has_begin = true;
		options.begin_ns = begin;
		/* A slice makes the seek cost one packet per stream; without
		 * one (no packet index), the trimmer seeks by reading from
		 * the start. */
		if (allow_slice)
			(void) tn_slice_create(trace, begin, &walk->slice,
				&slice_err);
	}
	if (tn_reader_create_on_dirs(trace, &options, walk->slice ?
			tn_slice_borrow_dirs(walk->slice) : NULL, &walk->reader,
			err)) {
		tn_walk_destroy(walk);
		return -1;
	}
	*out = walk;
	return 0;
}

int tn_walk_open(const struct tn_trace *trace, int64_t ns,
		struct tn_walk **out, struct tn_error *err)
{
	return open_walk(trace, ns, true, out, err);
}

void tn_walk_destroy(struct tn_walk *walk)
{
	if (!walk)
		return;
	if (walk->has_pending)
		tn_row_release(&walk->pending);
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
		status = tn_reader_next(walk->reader, &ev, err);

		if (status == TN_READER_END)
			return 0;
		if (status == TN_READER_ERROR)
			return -1;
		if (ev.kind != TN_EVENT_KIND_EVENT) {
			walk->lost += tn_event_get_discarded_count(&ev, &count) ?
				count : 0;
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

/* Open a walk at pos.ns and skip the events that share its time and come
 * before pos (when exclusive, pos too).  *landed says whether an event
 * is exactly at pos. */
static int open_at(const struct tn_trace *trace, const struct tn_position *pos,
		bool exclusive, bool allow_slice, struct tn_walk **out,
		bool *landed, struct tn_error *err)
{
	struct tn_walk *walk;
	struct tn_row row;
	int status;

	*landed = false;
	if (open_walk(trace, pos->ns, allow_slice, &walk, err))
		return -1;
	while ((status = read_event(walk, &row, err)) == 1) {
		int cmp = tn_position_compare(&row.pos, pos);

		if (cmp == 0)
			*landed = true;
		if (cmp > 0 || (cmp == 0 && !exclusive)) {
			walk->pending = row;
			walk->has_pending = true;
			break;
		}
		walk->lost += row.lost_before;
		tn_row_release(&row);
	}
	if (status < 0) {
		tn_walk_destroy(walk);
		return -1;
	}
	*out = walk;
	return 0;
}

int tn_walk_open_at(const struct tn_trace *trace,
		const struct tn_position *pos, bool exclusive,
		struct tn_walk **out, struct tn_error *err)
{
	bool landed;

	return open_at(trace, pos, exclusive, true, out, &landed, err);
}

int tn_walk_open_at_known(const struct tn_trace *trace,
		const struct tn_position *pos, struct tn_walk **out,
		bool *fell_back, struct tn_error *err)
{
	bool landed;

	*fell_back = false;
	if (open_at(trace, pos, false, true, out, &landed, err))
		return -1;
	if (landed)
		return 0;
	/* The sliced view missed an event that a full read has: read the
	 * whole trace instead (slow, right). */
	tn_walk_destroy(*out);
	*fell_back = true;
	if (open_at(trace, pos, false, false, out, &landed, err))
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

/* The last n matching rows in [start, pos), in a ring of n slots.
 * *count is how many were found (up to n), *first_slot where the oldest
 * is.  Returns 0 or -1. */
static int read_window(const struct tn_trace *trace, int64_t start,
		const struct tn_position *pos, uint64_t n,
		const struct tn_filter *filter, struct tn_row *ring,
		uint64_t *count, uint64_t *first_slot, struct tn_error *err)
{
	struct tn_walk *walk;
	struct tn_row row;
	uint64_t seen = 0;
	int status;

	if (tn_walk_open(trace, start, &walk, err))
		return -1;
	while ((status = tn_walk_next(walk, filter, &row, err)) == 1) {
		if (tn_position_compare(&row.pos, pos) >= 0) {
			tn_row_release(&row);
			break;
		}
		if (seen >= n)
			tn_row_release(&ring[seen % n]);
		ring[seen % n] = row;
		seen++;
	}
	tn_walk_destroy(walk);
	*count = seen < n ? seen : n;
	*first_slot = seen < n ? 0 : seen % n;
	if (status < 0) {
		for (uint64_t i = 0; i < *count; i++)
			tn_row_release(&ring[i]);
		return -1;
	}
	return 0;
}

int64_t tn_seek_n_events_backward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t n,
		const struct tn_filter *filter, int64_t window_ns, GArray *rows,
		struct tn_error *err)
{
	int64_t begin = INT64_MIN, end, window;
	struct tn_row *ring;
	uint64_t count = 0, first = 0;

	if (n == 0)
		return 0;
	/* Without a time range (streams without clocks), every window
	 * starts at the trace start. */
	bool has_range = tn_trace_get_time_range(trace, &begin, &end);

	window = window_ns > 0 ? window_ns : DEFAULT_WINDOW_NS;
	ring = g_new(struct tn_row, n);
	for (;;) {
		/* Start the window at the trace start once it reaches it:
		 * no event can be missed before it. */
		bool from_start = !has_range || pos->ns <= begin ||
			(uint64_t) pos->ns - (uint64_t) begin <= (uint64_t) window;
		int64_t start = from_start ? INT64_MIN : pos->ns - window;

		if (read_window(trace, start, pos, n, filter, ring, &count,
				&first, err)) {
			g_free(ring);
			return -1;
		}
		if (count == n || from_start)
			break;
		for (uint64_t i = 0; i < count; i++)
			tn_row_release(&ring[i]);
		window = window > INT64_MAX / 2 ? INT64_MAX : window * 2;
	}
	for (uint64_t i = 0; i < count; i++)
		g_array_append_val(rows, ring[(first + i) % n]);
	g_free(ring);
	return (int64_t) count;
}
