/* cursor.c - the event list's model: the current event and a ring of
 * decoded rows around it, read forward from where reading stopped and
 * backward with the window-doubling helper. */
#include <string.h>

#include "tracenav/cursor.h"
#include "tracenav/index.h"

/* Rows kept decoded; past this, the rows farthest from the current one
 * go (down to RING_KEEP). */
#define RING_MAX 4096
#define RING_KEEP 3072
/* Rows read at once when the ring must grow. */
#define READ_BATCH 64

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
	bool has_base_rank;	/* the rank of rows[0] is known */
	uint64_t base_rank;
	uint64_t fallbacks;	/* checkpoint seeks that missed, read whole */
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

/* Read until the ring holds `index` (an index past the last row). */
static int extend_forward(struct tn_cursor *cursor, int64_t index,
		struct tn_error *err)
{
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
	GArray *before;
	int64_t added;

	if (cursor->at_start || row_count(cursor) == 0)
		return 0;
	before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	added = tn_seek_n_events_backward(cursor->trace, &row_at(cursor, 0)->pos,
		n, &cursor->filter, window_guess(cursor, n), before, err);
	cursor->reads++;
	if (added < 0) {
		g_array_free(before, TRUE);
		return -1;
	}
	if ((uint64_t) added < n)
		cursor->at_start = true;
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

/* Start over on the first event at or after ns (INT64_MIN: the trace's
 * first event), keeping the walk to read on.  *found is false when no
 * event is there; the cursor is then left as it was. */
static int start_at(struct tn_cursor *cursor, int64_t ns, bool *found,
		struct tn_error *err)
{
	struct tn_walk *walk;
	struct tn_row row;
	int status;

	if (tn_walk_open(cursor->trace, ns, &walk, err))
		return -1;
	cursor->reads++;
	status = tn_walk_next(walk, &cursor->filter, &row, err);
	*found = status == 1;
	if (status != 1) {
		tn_walk_destroy(walk);
		return status;
	}
	clear_rows(cursor);
	cursor->at_start = ns == INT64_MIN;
	g_array_append_val(cursor->rows, row);
	cursor->ahead = walk;
	return 0;
}

int tn_cursor_seek_first(struct tn_cursor *cursor, struct tn_error *err)
{
	bool found;

	if (start_at(cursor, INT64_MIN, &found, err))
		return -1;
	if (!found) {
		/* No event at all. */
		clear_rows(cursor);
		cursor->at_start = cursor->at_end = true;
	}
	return 0;
}

int tn_cursor_seek_last(struct tn_cursor *cursor, struct tn_error *err)
{
	int64_t begin = 0, end = INT64_MAX - 1;
	struct tn_position after;
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	int64_t added;

	tn_trace_get_time_range(cursor->trace, &begin, &end);
	after.ns = end + 1;
	after.tie = 0;
	added = tn_seek_n_events_backward(cursor->trace, &after, READ_BATCH,
		&cursor->filter, window_guess(cursor, READ_BATCH), rows, err);
	cursor->reads++;
	if (added < 0) {
		g_array_free(rows, TRUE);
		return -1;
	}
	clear_rows(cursor);
	g_array_append_vals(cursor->rows, rows->data, rows->len);
	g_array_free(rows, TRUE);
	cursor->at_end = true;
	cursor->at_start = added < READ_BATCH;
	cursor->cur = added > 0 ? added - 1 : 0;
	if (cursor->index && !cursor->filter.match) {
		cursor->base_rank = cursor->index->event_count - (uint64_t) added;
		cursor->has_base_rank = true;
	}
	return 0;
}

int tn_cursor_seek_time(struct tn_cursor *cursor, int64_t ns,
		struct tn_error *err)
{
	bool found;

	if (start_at(cursor, ns, &found, err))
		return -1;
	return found ? 0 : tn_cursor_seek_last(cursor, err);
}

int tn_cursor_seek_fraction(struct tn_cursor *cursor, double fraction,
		struct tn_error *err)
{
	int64_t begin, end;

	if (!tn_trace_get_time_range(cursor->trace, &begin, &end))
		return tn_cursor_seek_first(cursor, err);
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
 * not), for its delta. */
static int fill_prev(struct tn_cursor *cursor, int64_t index,
		struct tn_error *err)
{
	struct tn_row *row = row_at(cursor, index);
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
	added = tn_seek_n_events_backward(cursor->trace, &row->pos, 1, NULL,
		window_guess(cursor, 1), before, err);
	cursor->reads++;
	if (added < 0) {
		g_array_free(before, TRUE);
		return -1;
	}
	row = row_at(cursor, index);
	if (added == 1) {
		row->has_prev = true;
		row->prev_ns = g_array_index(before, struct tn_row, 0).pos.ns;
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

const struct tn_row *tn_cursor_peek_row(const struct tn_cursor *cursor,
		int64_t offset)
{
	int64_t index = cursor->cur + offset;

	if (index < 0 || index >= row_count(cursor))
		return NULL;
	return row_at(cursor, index);
}

int tn_cursor_peek_rank(const struct tn_cursor *cursor, uint64_t *rank)
{
	if (!cursor->index || cursor->filter.match || row_count(cursor) == 0 ||
	    !cursor->has_base_rank)
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
	cursor->has_base_rank = false;
}

/* A walk whose first event is checkpoint cp's, checked. */
static int open_at_checkpoint(struct tn_cursor *cursor,
		const struct tn_checkpoint *cp, struct tn_walk **walk,
		struct tn_error *err)
{
	bool fell_back;

	cursor->reads++;
	if (tn_walk_open_at_known(cursor->trace, &cp->pos, walk, &fell_back,
			err))
		return -1;
	if (fell_back)
		cursor->fallbacks++;
	return 0;
}

/* Count the events from checkpoint cp up to (not including) pos. */
static int count_from(struct tn_cursor *cursor, const struct tn_checkpoint *cp,
		const struct tn_position *pos, uint64_t *count,
		struct tn_error *err)
{
	struct tn_walk *walk;
	struct tn_row row;
	int status;

	*count = 0;
	if (open_at_checkpoint(cursor, cp, &walk, err))
		return -1;
	while ((status = tn_walk_next(walk, NULL, &row, err)) == 1) {
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

	if (!cursor->index || cursor->filter.match || row_count(cursor) == 0)
		return 0;
	if (!cursor->has_base_rank) {
		current = row_at(cursor, cursor->cur);
		cp = tn_index_checkpoint_for_position(cursor->index,
			&current->pos);
		if (!cp)
			return 0;
		if (count_from(cursor, cp, &current->pos, &count, err))
			return -1;
		cursor->base_rank = cp->rank + count - (uint64_t) cursor->cur;
		cursor->has_base_rank = true;
	}
	*rank = cursor->base_rank + (uint64_t) cursor->cur;
	return 1;
}

int tn_cursor_seek_rank(struct tn_cursor *cursor, uint64_t rank,
		struct tn_error *err)
{
	const struct tn_checkpoint *cp;
	struct tn_walk *walk;
	struct tn_row row;
	int status;

	if (!cursor->index || cursor->filter.match) {
		tn_error_set(err, "event numbers need the index of the whole "
			"trace, which is not built yet");
		return -1;
	}
	if (rank >= cursor->index->event_count)
		return tn_cursor_seek_last(cursor, err);
	cp = tn_index_checkpoint_for_rank(cursor->index, rank);
	if (!cp)
		return tn_cursor_seek_first(cursor, err);
	if (open_at_checkpoint(cursor, cp, &walk, err))
		return -1;
	/* At most one interval of events to skip. */
	for (uint64_t skipped = cp->rank; ; skipped++) {
		status = tn_walk_next(walk, NULL, &row, err);
		if (status != 1 || skipped == rank)
			break;
		tn_row_release(&row);
	}
	if (status != 1) {
		tn_walk_destroy(walk);
		if (status == 0)
			return tn_cursor_seek_last(cursor, err);
		return -1;
	}
	clear_rows(cursor);
	g_array_append_val(cursor->rows, row);
	cursor->ahead = walk;
	cursor->has_base_rank = true;
	cursor->base_rank = rank;
	return 0;
}

uint64_t tn_cursor_get_fallback_count(const struct tn_cursor *cursor)
{
	return cursor->fallbacks;
}
