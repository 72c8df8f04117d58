/* seek-events.c - the event list's two seek helpers: the n events from
 * a position on, and those before it, read from windows of the trace
 * that widen until they hold enough (see seek.h).  They read walks
 * (seek.c, walk-split.c) through their interface. */
#include <string.h>

#include "trace-private.h"
#include "tracenav/seek.h"
#include "walk-private.h"

/* The first backward window when the caller has no better guess. */
#define DEFAULT_WINDOW_NS INT64_C(1000000)

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
