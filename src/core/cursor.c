/* cursor.c - the event list's model: the current event and a ring of
 * decoded rows around it, read forward from where reading stopped and
 * backward with the window-doubling helper.  A jump keeps what its walk
 * decoded before the target (tn_walk_take_before()), so that moving up
 * right after it reads nothing. */
#include <string.h>

#include "tracenav/cursor.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "trace-private.h"

/* Rows kept decoded; past this, the rows farthest from the current one
 * go (down to RING_KEEP). */
#define RING_MAX 4096
#define RING_KEEP 3072
/* Rows read at once when the ring must grow. */
#define READ_BATCH 64
/* Rows a jump keeps of those its walk read before the target, and that
 * a read backward keeps beyond those asked for (a window decodes whole
 * packets: they come for free).  Enough for a dozen pages up; not more,
 * since every row kept holds an event that libbabeltrace2 then cannot
 * recycle, and making a new one costs some 10 us. */
#define KEEP_BEFORE 256
/* With a filter and its match counts, reading on through more intervals
 * without a match than this costs more than a jump to the next interval
 * that has one (an interval is about 4096 events). */
#define SKIP_INTERVALS 16
/* A jump for a match starts up to JUMP_BACK_INTERVALS earlier, and a
 * read backward reads up to READ_BACK_INTERVALS more, when they hold
 * matches: their rows come for the price of reading on (a few ms an
 * interval), where moving up to them later would cost another jump.
 * A jump reads fewer: the first screen waits for them. */
#define JUMP_BACK_INTERVALS 8
#define READ_BACK_INTERVALS 16

struct tn_cursor {
	const struct tn_trace *trace;
	struct tn_filter filter;
	GArray *rows;		/* struct tn_row, in trace order */
	int64_t cur;		/* index of the current row */
	struct tn_walk *ahead;	/* reads on after the last row, or NULL */
	bool at_start;		/* nothing before the first row */
	bool at_end;		/* nothing after the last row */
	uint64_t reads;		/* readers opened */
	const struct tn_index *index;	/* checkpoints, or NULL */
	/* With a filter: its matches per interval of the index, or NULL.
	 * With them, ranks count matches (see counted()). */
	const struct tn_match_counts *counts;
	bool has_base_rank;	/* the rank of rows[0] is known */
	uint64_t base_rank;
	uint64_t fallbacks;	/* checkpoint seeks that missed, read whole */
	bool has_last_ns;	/* the time of the trace's last event, once */
	int64_t last_ns;	/* the cursor read up to it (no filter) */
	/* A filter left no event: where the current event was, so that
	 * the next filter starts from there and not from the first
	 * event (a filter that matches nothing, then removed). */
	bool has_anchor;
	struct tn_position anchor;
};

static struct tn_row *row_at(const struct tn_cursor *cursor, int64_t index)
{
	return &g_array_index(cursor->rows, struct tn_row, index);
}

static int64_t row_count(const struct tn_cursor *cursor)
{
	return (int64_t) cursor->rows->len;
}

static void clear_rows(struct tn_cursor *cursor)
{
	for (int64_t i = 0; i < row_count(cursor); i++)
		tn_row_release(row_at(cursor, i));
	g_array_set_size(cursor->rows, 0);
	cursor->cur = 0;
	tn_walk_destroy(cursor->ahead);
	cursor->ahead = NULL;
	cursor->at_start = cursor->at_end = false;
	cursor->has_base_rank = false;
}

/* Drop rows far from the current one when the ring is full. */
static void trim_ring(struct tn_cursor *cursor)
{
	int64_t drop;

	if (row_count(cursor) <= RING_MAX)
		return;
	drop = row_count(cursor) - RING_KEEP;
	if (cursor->cur > row_count(cursor) - 1 - cursor->cur) {
		for (int64_t i = 0; i < drop; i++)
			tn_row_release(row_at(cursor, i));
		g_array_remove_range(cursor->rows, 0, (guint) drop);
		cursor->cur -= drop;
		cursor->base_rank += (uint64_t) drop;
		cursor->at_start = false;
	} else {
		for (int64_t i = row_count(cursor) - drop; i < row_count(cursor);
				i++)
			tn_row_release(row_at(cursor, i));
		g_array_set_size(cursor->rows, (guint) (row_count(cursor) - drop));
		tn_walk_destroy(cursor->ahead);
		cursor->ahead = NULL;
		cursor->at_end = false;
	}
}

/* The rows reach the trace's last event (at_end): remember its time. */
static void note_end(struct tn_cursor *cursor)
{
	if (cursor->filter.match || row_count(cursor) == 0)
		return;
	cursor->has_last_ns = true;
	cursor->last_ns = row_at(cursor, row_count(cursor) - 1)->pos.ns;
}

static void release_rows(GArray *rows)
{
	for (guint i = 0; i < rows->len; i++)
		tn_row_release(&g_array_index(rows, struct tn_row, i));
	g_array_free(rows, TRUE);
}

/* Replace the ring by rows (taken), the current one at cur. */
static void install_rows(struct tn_cursor *cursor, GArray *rows, int64_t cur)
{
	clear_rows(cursor);
	g_array_append_vals(cursor->rows, rows->data, rows->len);
	g_array_free(rows, TRUE);
	cursor->cur = cur;
}

/* A guess of the time n rows span, from the rows at hand. */
static int64_t window_guess(const struct tn_cursor *cursor, uint64_t n)
{
	int64_t count = row_count(cursor), span;

	if (count < 2)
		return 0;
	span = row_at(cursor, count - 1)->pos.ns - row_at(cursor, 0)->pos.ns;
	if (span <= 0)
		return 0;
	/* Twice the expected span: one window is usually enough. */
	return span / (count - 1) * (int64_t) n * 2 + 1;
}

static bool counted(const struct tn_cursor *cursor);
static uint64_t match_total(const struct tn_cursor *cursor);
static uint64_t rank_before(const struct tn_cursor *cursor,
		const struct tn_checkpoint *cp);
static size_t earlier_start(const struct tn_cursor *cursor, size_t i);
static int counted_forward(struct tn_cursor *cursor, int64_t index,
		struct tn_error *err);
static int counted_backward(struct tn_cursor *cursor, int64_t count,
		struct tn_error *err);
static int counted_seek(struct tn_cursor *cursor,
		const struct tn_position *pos, struct tn_error *err);
static int counted_last(struct tn_cursor *cursor, struct tn_error *err);

/* Read until the ring holds `index` (an index past the last row). */
static int extend_forward(struct tn_cursor *cursor, int64_t index,
		struct tn_error *err)
{
	if (counted(cursor))
		return counted_forward(cursor, index, err);
	while (row_count(cursor) <= index && !cursor->at_end) {
		struct tn_row row;
		int status;

		if (!cursor->ahead) {
			int open = row_count(cursor) == 0 ?
				tn_walk_open(cursor->trace, INT64_MIN,
					&cursor->ahead, err) :
				tn_walk_open_at(cursor->trace,
					&row_at(cursor, row_count(cursor) - 1)->pos,
					true, &cursor->ahead, err);

			if (open)
				return -1;
			cursor->reads++;
		}
		status = tn_walk_next(cursor->ahead, &cursor->filter, &row, err);
		if (status < 0)
			return -1;
		if (status == 0) {
			cursor->at_end = true;
			tn_walk_destroy(cursor->ahead);
			cursor->ahead = NULL;
			note_end(cursor);
			break;
		}
		g_array_append_val(cursor->rows, row);
	}
	return 0;
}

/* Read backward until the ring holds `count` rows before the first. */
static int extend_backward(struct tn_cursor *cursor, int64_t count,
		struct tn_error *err)
{
	uint64_t n = count < READ_BATCH ? READ_BATCH : (uint64_t) count;
	struct tn_seek_info info;
	struct tn_row *first;
	GArray *before;
	int64_t added;

	if (cursor->at_start || row_count(cursor) == 0)
		return 0;
	if (counted(cursor))
		return counted_backward(cursor, count, err);
	before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	added = tn_seek_events_backward(cursor->trace, &row_at(cursor, 0)->pos,
		n, MAX(n, KEEP_BEFORE), &cursor->filter,
		window_guess(cursor, n), before, &info, err);
	cursor->reads++;
	if (added < 0) {
		g_array_free(before, TRUE);
		return -1;
	}
	if (info.at_start)
		cursor->at_start = true;
	/* The first row may not have known what came before it. */
	first = row_at(cursor, 0);
	if (added > 0 && !first->has_prev && info.has_next &&
	    !cursor->filter.match) {
		first->has_prev = true;
		first->prev_ns = g_array_index(before, struct tn_row,
			added - 1).pos.ns;
		first->lost_before = info.next_lost;
	}
	g_array_prepend_vals(cursor->rows, before->data, before->len);
	cursor->cur += added;
	cursor->base_rank -= (uint64_t) added;
	g_array_free(before, TRUE);
	return 0;
}

/* Make the ring hold the row at offset from the current one, if the trace
 * has it. */
static int reach(struct tn_cursor *cursor, int64_t offset,
		struct tn_error *err)
{
	int64_t index = cursor->cur + offset;

	if (index >= row_count(cursor))
		return extend_forward(cursor, index, err);
	if (index < 0)
		return extend_backward(cursor, -index, err);
	return 0;
}

int tn_cursor_create(const struct tn_trace *trace,
		const struct tn_filter *filter, struct tn_cursor **out,
		struct tn_error *err)
{
	struct tn_cursor *cursor = g_new0(struct tn_cursor, 1);

	cursor->trace = trace;
	if (filter)
		cursor->filter = *filter;
	cursor->rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	if (tn_cursor_seek_first(cursor, err)) {
		tn_cursor_destroy(cursor);
		return -1;
	}
	*out = cursor;
	return 0;
}

void tn_cursor_destroy(struct tn_cursor *cursor)
{
	if (!cursor)
		return;
	clear_rows(cursor);
	g_array_free(cursor->rows, TRUE);
	g_free(cursor);
}

/* Whether reading on with the walk the cursor holds reaches ns at least
 * as cheaply as a jump: nothing that a jump would skip is still ahead
 * of it (a trace without packet index: a jump reads from the start). */
static bool can_read_on(const struct tn_cursor *cursor,
		const struct tn_position *target)
{
	const struct tn_row *last;

	if (!cursor->ahead || row_count(cursor) == 0 ||
	    target->ns == INT64_MIN)
		return false;
	last = row_at(cursor, row_count(cursor) - 1);
	return tn_position_compare(&last->pos, target) < 0 &&
		tn_seek_get_skipped_until(cursor->trace, target->ns) <=
			last->pos.ns;
}

/* Go to the first event at or after target, after the rows, by reading
 * on with the walk the cursor holds; the rows read on the way stay (the
 * last KEEP_BEFORE, with the ring when they join it).  On failure the
 * rows stay, and the walk goes (it read past them). */
static int read_on(struct tn_cursor *cursor, const struct tn_position *target,
		struct tn_error *err)
{
	GArray *read = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	uint64_t dropped = 0;
	struct tn_row row;
	int status;

	for (;;) {
		status = tn_walk_next(cursor->ahead, &cursor->filter, &row, err);
		if (status < 0) {
			release_rows(read);
			tn_walk_destroy(cursor->ahead);
			cursor->ahead = NULL;
			return -1;
		}
		if (status == 0 || tn_position_compare(&row.pos, target) >= 0)
			break;
		g_array_append_val(read, row);
		if (read->len >= 2 * KEEP_BEFORE) {
			for (guint i = 0; i < KEEP_BEFORE; i++)
				tn_row_release(&g_array_index(read,
					struct tn_row, i));
			g_array_remove_range(read, 0, KEEP_BEFORE);
			dropped += KEEP_BEFORE;
		}
	}
	if (dropped > 0) {
		/* The rows read join the ring no more. */
		cursor->base_rank += (uint64_t) row_count(cursor) + dropped;
		for (int64_t i = 0; i < row_count(cursor); i++)
			tn_row_release(row_at(cursor, i));
		g_array_set_size(cursor->rows, 0);
		cursor->at_start = false;
	}
	g_array_append_vals(cursor->rows, read->data, read->len);
	g_array_free(read, TRUE);
	if (status == 0) {
		tn_walk_destroy(cursor->ahead);
		cursor->ahead = NULL;
		cursor->at_end = true;
		note_end(cursor);
	} else {
		g_array_append_val(cursor->rows, row);
	}
	cursor->cur = row_count(cursor) - 1;
	trim_ring(cursor);
	return 0;
}

/* Start over on the first event at or after target (ns INT64_MIN: the
 * trace's first event), with the rows before it that the walk read,
 * keeping the walk to read on.  *found is false when no event is there
 * or before; the cursor is then left as it was. */
static int start_at(struct tn_cursor *cursor, const struct tn_position *target,
		bool *found, struct tn_error *err)
{
	struct tn_position pos = *target;
	GArray *before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	struct tn_walk *walk;
	struct tn_row row;
	bool at_start;
	int status;

	*found = false;
	if (counted(cursor)) {
		g_array_free(before, TRUE);
		*found = true;
		return counted_seek(cursor, &pos, err);
	}
	/* Without a clock, every event is at time 0: any time is the
	 * start. */
	if (!tn_trace_has_clock(cursor->trace) && pos.tie == 0)
		pos.ns = INT64_MIN;
	if (can_read_on(cursor, &pos)) {
		g_array_free(before, TRUE);
		*found = true;
		return read_on(cursor, &pos, err);
	}
	if (tn_walk_open_near(cursor->trace, &pos, KEEP_BEFORE, &walk, err)) {
		g_array_free(before, TRUE);
		return -1;
	}
	cursor->reads++;
	tn_walk_take_before(walk, &cursor->filter, before, &at_start);
	status = tn_walk_next(walk, &cursor->filter, &row, err);
	if (status < 0 || (status == 0 && before->len == 0)) {
		tn_walk_destroy(walk);
		release_rows(before);
		return status;
	}
	*found = true;
	if (status == 0) {
		/* Nothing at or after ns: the last events are those before. */
		tn_walk_destroy(walk);
		install_rows(cursor, before, (int64_t) before->len - 1);
		cursor->at_start = at_start;
		cursor->at_end = true;
		note_end(cursor);
		return 0;
	}
	g_array_append_val(before, row);
	install_rows(cursor, before, (int64_t) before->len - 1);
	cursor->at_start = at_start;
	cursor->ahead = walk;
	return 0;
}

int tn_cursor_seek_first(struct tn_cursor *cursor, struct tn_error *err)
{
	struct tn_position first = { INT64_MIN, 0 };
	bool found;

	if (start_at(cursor, &first, &found, err))
		return -1;
	if (!found) {
		/* No event at all. */
		clear_rows(cursor);
		cursor->at_start = cursor->at_end = true;
	}
	return 0;
}

/* Just after the trace's last event, as well as known. */
static struct tn_position after_end(const struct tn_cursor *cursor)
{
	struct tn_position after = { INT64_MAX, 0 };
	int64_t begin, end;
	bool exact;

	if (tn_cursor_get_time_span(cursor, &begin, &end, &exact) &&
	    end < INT64_MAX)
		after.ns = end + 1;
	return after;
}

int tn_cursor_seek_last(struct tn_cursor *cursor, struct tn_error *err)
{
	struct tn_position after = after_end(cursor);
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	struct tn_seek_info info;
	int64_t added;

	if (counted(cursor)) {
		g_array_free(rows, TRUE);
		return counted_last(cursor, err);
	}
	/* A window reads the last packets whole: one is usually enough,
	 * and whatever it decoded stays for moving up. */
	added = tn_seek_events_backward(cursor->trace, &after, READ_BATCH,
		KEEP_BEFORE, &cursor->filter, window_guess(cursor, READ_BATCH),
		rows, &info, err);
	cursor->reads++;
	if (added < 0) {
		g_array_free(rows, TRUE);
		return -1;
	}
	install_rows(cursor, rows, added > 0 ? added - 1 : 0);
	cursor->at_end = true;
	cursor->at_start = info.at_start;
	note_end(cursor);
	if (cursor->index && !cursor->filter.match) {
		cursor->base_rank = cursor->index->event_count - (uint64_t) added;
		cursor->has_base_rank = true;
	}
	return 0;
}

int tn_cursor_seek_time(struct tn_cursor *cursor, int64_t ns,
		struct tn_error *err)
{
	struct tn_position pos = { ns, 0 };

	return tn_cursor_seek_position(cursor, &pos, err);
}

int tn_cursor_seek_position(struct tn_cursor *cursor,
		const struct tn_position *pos, struct tn_error *err)
{
	bool found;

	if (start_at(cursor, pos, &found, err))
		return -1;
	return found ? 0 : tn_cursor_seek_last(cursor, err);
}

/* tn_cursor_get_time_span(), or without waiting for the packets'
 * range when pending is not NULL (tn_cursor_peek_time_span()). */
static bool time_span(const struct tn_cursor *cursor, int64_t *begin_ns,
		int64_t *end_ns, bool *exact, bool *pending)
{
	int64_t first;

	if (pending)
		*pending = false;
	if (!tn_trace_has_clock(cursor->trace))
		return false;
	if (cursor->index && cursor->index->event_count > 0) {
		*begin_ns = cursor->index->first_event_ns;
		*end_ns = cursor->index->last_event_ns;
		*exact = true;
		return true;
	}
	if (cursor->has_last_ns &&
	    tn_trace_get_first_event_time(cursor->trace, &first)) {
		*begin_ns = first;
		*end_ns = cursor->last_ns;
		*exact = true;
		return true;
	}
	*exact = false;
	return pending ? tn_trace_peek_time_range(cursor->trace, begin_ns,
		end_ns, pending) : tn_trace_get_time_range(cursor->trace,
		begin_ns, end_ns);
}

bool tn_cursor_get_time_span(const struct tn_cursor *cursor,
		int64_t *begin_ns, int64_t *end_ns, bool *exact)
{
	return time_span(cursor, begin_ns, end_ns, exact, NULL);
}

bool tn_cursor_peek_time_span(const struct tn_cursor *cursor,
		int64_t *begin_ns, int64_t *end_ns, bool *exact, bool *pending)
{
	return time_span(cursor, begin_ns, end_ns, exact, pending);
}

int tn_cursor_seek_fraction(struct tn_cursor *cursor, double fraction,
		struct tn_error *err)
{
	int64_t begin, end;
	bool exact;

	if (!tn_cursor_get_time_span(cursor, &begin, &end, &exact)) {
		if (!tn_trace_has_clock(cursor->trace))
			tn_error_set(err, "the trace's events have no "
				"timestamps: go to an event number (#K) "
				"instead");
		else
			tn_error_set(err, "time range not known yet: the "
				"trace's packets carry no times, and its last "
				"event is known once it is indexed; wait for "
				"the index, or start it (:index)");
		return -1;
	}
	if (fraction <= 0)
		return tn_cursor_seek_first(cursor, err);
	if (fraction >= 1)
		return tn_cursor_seek_last(cursor, err);
	return tn_cursor_seek_time(cursor,
		begin + (int64_t) ((double) (end - begin) * fraction), err);
}

int tn_cursor_move(struct tn_cursor *cursor, int64_t delta, int64_t *moved,
		struct tn_error *err)
{
	int64_t target;

	if (moved)
		*moved = 0;
	if (row_count(cursor) == 0)
		return 0;
	if (reach(cursor, delta, err))
		return -1;
	target = cursor->cur + delta;
	if (target < 0)
		target = 0;
	if (target >= row_count(cursor))
		target = row_count(cursor) - 1;
	if (moved)
		*moved = target - cursor->cur;
	cursor->cur = target;
	trim_ring(cursor);
	return 0;
}

/* Find the time of the event just before row (any event, filtered or
 * not), for its delta, and (without a filter) what was discarded
 * between them. */
static int fill_prev(struct tn_cursor *cursor, int64_t index,
		struct tn_error *err)
{
	struct tn_row *row = row_at(cursor, index);
	struct tn_seek_info info;
	GArray *before;
	int64_t added;

	if (row->has_prev)
		return 0;
	if (index > 0 && !cursor->filter.match) {
		row->has_prev = true;
		row->prev_ns = row_at(cursor, index - 1)->pos.ns;
		return 0;
	}
	if (index == 0 && cursor->at_start && !cursor->filter.match)
		return 0;	/* the trace's first event */
	before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	added = tn_seek_events_backward(cursor->trace, &row->pos, 1, 1, NULL,
		window_guess(cursor, 1), before, &info, err);
	cursor->reads++;
	if (added < 0) {
		g_array_free(before, TRUE);
		return -1;
	}
	row = row_at(cursor, index);
	if (added == 1) {
		row->has_prev = true;
		row->prev_ns = g_array_index(before, struct tn_row, 0).pos.ns;
		if (info.has_next && !cursor->filter.match)
			row->lost_before = info.next_lost;
		tn_row_release(&g_array_index(before, struct tn_row, 0));
	}
	g_array_free(before, TRUE);
	return 0;
}

const struct tn_row *tn_cursor_row(struct tn_cursor *cursor, int64_t offset,
		struct tn_error *err)
{
	int64_t index;

	tn_error_clear(err);
	if (row_count(cursor) == 0)
		return NULL;
	if (reach(cursor, offset, err))
		return NULL;
	index = cursor->cur + offset;
	if (index < 0 || index >= row_count(cursor))
		return NULL;
	if (fill_prev(cursor, index, err))
		return NULL;
	return row_at(cursor, index);
}

int tn_cursor_prefetch(struct tn_cursor *cursor, int64_t before,
		int64_t after, struct tn_error *err)
{
	tn_error_clear(err);
	if (row_count(cursor) == 0 || (cursor->filter.match && !counted(cursor)))
		return 0;
	/* Down first: paging down is the more common move.  Row by row,
	 * as the list asks for them: each one's previous time too. */
	for (int64_t offset = 1; offset <= after; offset++)
		if (!tn_cursor_row(cursor, offset, err))
			break;
	for (int64_t offset = -1; !err->message[0] && offset >= -before;
			offset--)
		if (!tn_cursor_row(cursor, offset, err))
			break;
	return err->message[0] ? -1 : 0;
}

const struct tn_row *tn_cursor_peek_row(const struct tn_cursor *cursor,
		int64_t offset)
{
	int64_t index = cursor->cur + offset;

	if (index < 0 || index >= row_count(cursor))
		return NULL;
	return row_at(cursor, index);
}

int tn_cursor_peek_has_row(const struct tn_cursor *cursor, int64_t offset)
{
	int64_t index = cursor->cur + offset;

	if (index >= 0 && index < row_count(cursor))
		return 1;
	if (row_count(cursor) == 0)
		return -1;
	return (index < 0 && cursor->at_start) ||
		(index >= row_count(cursor) && cursor->at_end) ? 0 : -1;
}

int tn_cursor_peek_rank(const struct tn_cursor *cursor, uint64_t *rank)
{
	if (!cursor->index || (cursor->filter.match && !counted(cursor)) ||
	    row_count(cursor) == 0 || !cursor->has_base_rank)
		return 0;
	*rank = cursor->base_rank + (uint64_t) cursor->cur;
	return 1;
}

bool tn_cursor_is_empty(const struct tn_cursor *cursor)
{
	return row_count(cursor) == 0;
}

uint64_t tn_cursor_get_ring_size(const struct tn_cursor *cursor)
{
	return cursor->rows->len;
}

uint64_t tn_cursor_get_read_count(const struct tn_cursor *cursor)
{
	return cursor->reads;
}

void tn_cursor_set_index(struct tn_cursor *cursor,
		const struct tn_index *index)
{
	cursor->index = index;
	cursor->counts = NULL;	/* they were another index's */
	cursor->has_base_rank = false;
}

/* A walk whose first event is checkpoint cp's, checked, keeping up to
 * keep of the rows it read before. */
static int open_at_checkpoint(struct tn_cursor *cursor,
		const struct tn_checkpoint *cp, uint64_t keep,
		struct tn_walk **walk, struct tn_error *err)
{
	bool fell_back;

	cursor->reads++;
	if (tn_walk_open_at_known(cursor->trace, &cp->pos, keep, walk,
			&fell_back, err))
		return -1;
	if (fell_back)
		cursor->fallbacks++;
	return 0;
}

/* Count the events (with match counts: the matches) from checkpoint cp
 * up to (not including) pos. */
static int count_from(struct tn_cursor *cursor, const struct tn_checkpoint *cp,
		const struct tn_position *pos, uint64_t *count,
		struct tn_error *err)
{
	const struct tn_filter *filter = counted(cursor) ? &cursor->filter :
		NULL;
	struct tn_walk *walk;
	struct tn_row row;
	int status;

	*count = 0;
	if (open_at_checkpoint(cursor, cp, 0, &walk, err))
		return -1;
	while ((status = tn_walk_next(walk, filter, &row, err)) == 1) {
		bool reached = tn_position_compare(&row.pos, pos) >= 0;

		tn_row_release(&row);
		if (reached)
			break;
		(*count)++;
	}
	tn_walk_destroy(walk);
	return status < 0 ? -1 : 0;
}

int tn_cursor_get_rank(struct tn_cursor *cursor, uint64_t *rank,
		struct tn_error *err)
{
	const struct tn_checkpoint *cp;
	const struct tn_row *current;
	uint64_t count;

	if (!cursor->index || (cursor->filter.match && !counted(cursor)) ||
	    row_count(cursor) == 0)
		return 0;
	if (!cursor->has_base_rank) {
		current = row_at(cursor, cursor->cur);
		cp = tn_index_checkpoint_for_position(cursor->index,
			&current->pos);
		if (!cp)
			return 0;
		if (count_from(cursor, cp, &current->pos, &count, err))
			return -1;
		cursor->base_rank = rank_before(cursor, cp) + count -
			(uint64_t) cursor->cur;
		cursor->has_base_rank = true;
	}
	*rank = cursor->base_rank + (uint64_t) cursor->cur;
	return 1;
}

int tn_cursor_seek_rank(struct tn_cursor *cursor, uint64_t rank,
		struct tn_error *err)
{
	const struct tn_filter *filter = counted(cursor) ? &cursor->filter :
		NULL;
	const struct tn_checkpoint *cp;
	struct tn_walk *walk;
	struct tn_row row;
	GArray *rows;
	bool at_start;
	int status;

	if (!cursor->index) {
		tn_error_set(err, "event numbers need the index of the whole "
			"trace, which is not built yet");
		return -1;
	}
	if (cursor->filter.match && !filter) {
		tn_error_set(err, "match numbers are known once the matches "
			"are counted (the status bar then shows \"match K of "
			"M\")");
		return -1;
	}
	if (rank >= (filter ? match_total(cursor) :
			cursor->index->event_count))
		return tn_cursor_seek_last(cursor, err);
	cp = filter ? &cursor->index->checkpoints[earlier_start(cursor,
		tn_match_counts_interval_of(cursor->counts, rank))] :
		tn_index_checkpoint_for_rank(cursor->index, rank);
	if (!cp)
		return tn_cursor_seek_first(cursor, err);
	if (open_at_checkpoint(cursor, cp, KEEP_BEFORE, &walk, err))
		return -1;
	rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	tn_walk_take_before(walk, filter, rows, &at_start);
	/* At most one interval of events to skip; they stay as rows. */
	for (uint64_t skipped = rank_before(cursor, cp); ; skipped++) {
		status = tn_walk_next(walk, filter, &row, err);
		if (status != 1)
			break;
		g_array_append_val(rows, row);
		if (skipped == rank)
			break;
	}
	if (status != 1) {
		tn_walk_destroy(walk);
		release_rows(rows);
		if (status == 0)
			return tn_cursor_seek_last(cursor, err);
		return -1;
	}
	install_rows(cursor, rows, (int64_t) rows->len - 1);
	cursor->at_start = at_start;
	cursor->ahead = walk;
	cursor->has_base_rank = true;
	cursor->base_rank = rank - (uint64_t) cursor->cur;
	trim_ring(cursor);
	return 0;
}

uint64_t tn_cursor_get_fallback_count(const struct tn_cursor *cursor)
{
	return cursor->fallbacks;
}

/* ---- with a filter and its match counts ---- */

/* The matches of the filter per interval are known: ranks count
 * matches, reading skips the intervals without any, and the ends are
 * known without reading to them. */
static bool counted(const struct tn_cursor *cursor)
{
	return cursor->filter.match && cursor->counts && cursor->index;
}

static uint64_t match_total(const struct tn_cursor *cursor)
{
	return cursor->counts->before[cursor->counts->interval_count];
}

/* The rank of checkpoint cp's interval's first item: its event, or
 * (counted) its first match. */
static uint64_t rank_before(const struct tn_cursor *cursor,
		const struct tn_checkpoint *cp)
{
	if (!counted(cursor))
		return cp->rank;
	return cursor->counts->before[cp - cursor->index->checkpoints];
}

static size_t interval_of(const struct tn_cursor *cursor, uint64_t rank)
{
	return tn_match_counts_interval_of(cursor->counts, rank);
}

/* Whether a walk that has just read match rank - 1 should jump to the
 * interval of match rank rather than read on: many intervals without a
 * match lie between, and a jump skips them (the trace can slice). */
static bool worth_jumping(const struct tn_cursor *cursor, uint64_t rank,
		int64_t reached_ns)
{
	size_t from = interval_of(cursor, rank - 1), to;

	to = interval_of(cursor, rank);
	return to > from + SKIP_INTERVALS && tn_seek_get_skipped_until(
		cursor->trace, cursor->index->checkpoints[to].pos.ns) >
		reached_ns;
}

/* Where to start reading for a match of interval i: up to
 * JUMP_BACK_INTERVALS earlier, while each has matches and they give
 * fewer than READ_BATCH before it.  The rows above a match that a
 * screen or a page up shows then come from reading on, not from
 * another jump. */
static size_t earlier_start(const struct tn_cursor *cursor, size_t i)
{
	const uint64_t *before = cursor->counts->before;
	size_t j = i;

	while (j > 0 && i - j < JUMP_BACK_INTERVALS &&
	       before[i] - before[j] < READ_BATCH && before[j] > before[j - 1])
		j--;
	return j;
}

static int ensure_base_rank(struct tn_cursor *cursor, struct tn_error *err)
{
	uint64_t rank;
	int known;

	if (cursor->has_base_rank)
		return 0;
	known = tn_cursor_get_rank(cursor, &rank, err);
	if (known == 1)
		return 0;
	if (known == 0)
		tn_error_set(err, "the current match's number is not known: "
			"the index does not hold its position; rebuild the "
			"index (:index)");
	return -1;
}

static void set_counted_end(struct tn_cursor *cursor)
{
	cursor->at_end = true;
	tn_walk_destroy(cursor->ahead);
	cursor->ahead = NULL;
}

static int counted_forward(struct tn_cursor *cursor, int64_t index,
		struct tn_error *err)
{
	while (row_count(cursor) <= index && !cursor->at_end) {
		const struct tn_row *last;
		struct tn_row row;
		uint64_t next;
		int status;

		if (ensure_base_rank(cursor, err))
			return -1;
		next = cursor->base_rank + (uint64_t) row_count(cursor);
		if (next >= match_total(cursor)) {
			set_counted_end(cursor);
			break;
		}
		last = row_at(cursor, row_count(cursor) - 1);
		if (cursor->ahead && worth_jumping(cursor, next,
				last->pos.ns)) {
			tn_walk_destroy(cursor->ahead);
			cursor->ahead = NULL;
		}
		if (!cursor->ahead) {
			/* The next match is the first one of its interval
			 * when it is far: no need to read up to it. */
			int open = worth_jumping(cursor, next, last->pos.ns) ?
				open_at_checkpoint(cursor,
					&cursor->index->checkpoints[
						interval_of(cursor, next)], 0,
					&cursor->ahead, err) :
				tn_walk_open_at(cursor->trace, &last->pos, true,
					&cursor->ahead, err);

			if (open)
				return -1;
			cursor->reads++;
		}
		status = tn_walk_next(cursor->ahead, &cursor->filter, &row,
			err);
		if (status < 0)
			return -1;
		if (status == 0) {
			set_counted_end(cursor);
			break;
		}
		g_array_append_val(cursor->rows, row);
	}
	return 0;
}

/* Append to rows the matches of ranks from up to (not including) to,
 * jumping over the intervals that have none. */
static int read_matches(struct tn_cursor *cursor, uint64_t from, uint64_t to,
		GArray *rows, struct tn_error *err)
{
	const struct tn_checkpoint *cps = cursor->index->checkpoints;
	size_t k = interval_of(cursor, from);
	uint64_t rank = cursor->counts->before[k];
	struct tn_walk *walk = NULL;
	int status = 1;

	while (rank < to) {
		struct tn_row row;

		if (!walk && open_at_checkpoint(cursor, &cps[k], 0, &walk,
				err))
			return -1;
		status = tn_walk_next(walk, &cursor->filter, &row, err);
		if (status != 1)
			break;
		if (rank >= from)
			g_array_append_val(rows, row);
		else
			tn_row_release(&row);
		rank++;
		if (rank < to && worth_jumping(cursor, rank, row.pos.ns)) {
			tn_walk_destroy(walk);
			walk = NULL;
			k = interval_of(cursor, rank);
		}
	}
	tn_walk_destroy(walk);
	if (status == 0)
		tn_error_set(err, "fewer matches than counted: the trace "
			"changed since it was indexed; rebuild the index "
			"(:index)");
	return status == 1 ? 0 : -1;
}

static int counted_backward(struct tn_cursor *cursor, int64_t count,
		struct tn_error *err)
{
	uint64_t n = (uint64_t) count, first, from;
	size_t lowest;
	GArray *before;
	int64_t added;

	if (ensure_base_rank(cursor, err))
		return -1;
	first = cursor->base_rank;
	if (first == 0) {
		cursor->at_start = true;
		return 0;
	}
	from = first > n ? first - n : 0;
	/* More rows come cheaply from the interval read anyway and those
	 * just before it (read on, where another page up would cost a
	 * jump); those of intervals farther back would cost a jump each
	 * when matches are rare. */
	lowest = interval_of(cursor, from);
	lowest = lowest > READ_BACK_INTERVALS ? lowest - READ_BACK_INTERVALS :
		0;
	while (from > 0 && first - from < KEEP_BEFORE &&
	       interval_of(cursor, from - 1) >= lowest)
		from--;
	before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	if (read_matches(cursor, from, first, before, err)) {
		release_rows(before);
		return -1;
	}
	added = (int64_t) before->len;
	g_array_prepend_vals(cursor->rows, before->data, before->len);
	g_array_free(before, TRUE);
	cursor->cur += added;
	cursor->base_rank -= (uint64_t) added;
	cursor->at_start = cursor->base_rank == 0;
	return 0;
}

static void set_empty(struct tn_cursor *cursor)
{
	clear_rows(cursor);
	cursor->at_start = cursor->at_end = true;
	cursor->has_base_rank = true;
	cursor->base_rank = 0;
}

static int counted_last(struct tn_cursor *cursor, struct tn_error *err)
{
	if (match_total(cursor) == 0) {
		set_empty(cursor);
		return 0;
	}
	return tn_cursor_seek_rank(cursor, match_total(cursor) - 1, err);
}

/* Go to the first match at or after pos (the last match if there is
 * none): read the interval of pos from its checkpoint, whose matches
 * before pos stay as rows, and jump when the next match is far. */
static int counted_seek(struct tn_cursor *cursor,
		const struct tn_position *pos, struct tn_error *err)
{
	uint64_t total = match_total(cursor), rank;
	const struct tn_checkpoint *cp;
	struct tn_walk *walk;
	struct tn_row row;
	GArray *rows;
	bool at_start;
	size_t i;
	int status = 1;

	if (total == 0) {
		set_empty(cursor);
		return 0;
	}
	cp = tn_index_checkpoint_for_position(cursor->index, pos);
	if (!cp)
		return tn_cursor_seek_rank(cursor, 0, err);
	i = (size_t) (cp - cursor->index->checkpoints);
	rank = cursor->counts->before[i];
	if (rank < total && interval_of(cursor, rank) > i + SKIP_INTERVALS)
		return tn_cursor_seek_rank(cursor, rank, err);
	cp = &cursor->index->checkpoints[earlier_start(cursor, i)];
	rank = rank_before(cursor, cp);
	if (open_at_checkpoint(cursor, cp, KEEP_BEFORE, &walk, err))
		return -1;
	rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	tn_walk_take_before(walk, &cursor->filter, rows, &at_start);
	while (rank < total) {
		/* The next match is past the interval of pos, hence the
		 * first one after pos: jump to it when it is far. */
		if (interval_of(cursor, rank) > i + SKIP_INTERVALS) {
			tn_walk_destroy(walk);
			release_rows(rows);
			return tn_cursor_seek_rank(cursor, rank, err);
		}
		status = tn_walk_next(walk, &cursor->filter, &row, err);
		if (status != 1)
			break;
		g_array_append_val(rows, row);
		if (tn_position_compare(&row.pos, pos) >= 0)
			break;
		rank++;
	}
	if (status < 0 || rows->len == 0) {
		tn_walk_destroy(walk);
		release_rows(rows);
		if (status < 0)
			return -1;
		return tn_cursor_seek_rank(cursor, total - 1, err);
	}
	install_rows(cursor, rows, (int64_t) rows->len - 1);
	cursor->has_base_rank = true;
	if (rank >= total || status == 0) {
		/* No match at or after pos: the last one is current. */
		cursor->base_rank = total - (uint64_t) cursor->rows->len;
		set_counted_end(cursor);
		tn_walk_destroy(walk);
	} else {
		cursor->base_rank = rank - (uint64_t) cursor->cur;
		cursor->ahead = walk;
	}
	cursor->at_start = at_start || cursor->base_rank == 0;
	trim_ring(cursor);
	return 0;
}

int tn_cursor_set_filter(struct tn_cursor *cursor,
		const struct tn_filter *filter,
		const struct tn_match_counts *counts, struct tn_error *err)
{
	struct tn_cursor old = *cursor;
	bool had_row = row_count(cursor) > 0;
	struct tn_position pos = { INT64_MIN, 0 };
	int status;

	if (had_row)
		pos = row_at(cursor, cursor->cur)->pos;
	else if (cursor->has_anchor)
		pos = cursor->anchor;
	had_row = had_row || cursor->has_anchor;
	/* The old rows stay aside until the move succeeded. */
	cursor->rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	cursor->cur = 0;
	cursor->ahead = NULL;
	cursor->at_start = cursor->at_end = false;
	cursor->has_base_rank = false;
	cursor->filter = filter ? *filter : (struct tn_filter) { NULL, NULL };
	cursor->counts = cursor->filter.match ? counts : NULL;
	status = had_row ? tn_cursor_seek_position(cursor, &pos, err) :
		tn_cursor_seek_first(cursor, err);
	if (status) {
		clear_rows(cursor);
		g_array_free(cursor->rows, TRUE);
		cursor->rows = old.rows;
		cursor->cur = old.cur;
		cursor->ahead = old.ahead;
		cursor->at_start = old.at_start;
		cursor->at_end = old.at_end;
		cursor->has_base_rank = old.has_base_rank;
		cursor->base_rank = old.base_rank;
		cursor->filter = old.filter;
		cursor->counts = old.counts;
		return -1;
	}
	cursor->has_anchor = had_row && row_count(cursor) == 0;
	cursor->anchor = pos;
	release_rows(old.rows);
	tn_walk_destroy(old.ahead);
	return 0;
}

void tn_cursor_set_match_counts(struct tn_cursor *cursor,
		const struct tn_match_counts *counts)
{
	cursor->counts = cursor->filter.match ? counts : NULL;
	cursor->has_base_rank = false;
}
