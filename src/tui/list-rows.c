/* list-rows.c - what the event list shows for a position of the cursor:
 * where the current row goes on screen (the follow rules), the rows
 * around it read (or, after a cancel, only those the cursor holds), and
 * each turned into the text of its columns.  Runs on the thread that
 * owns the session (see pane.h's cursor_moved).
 *
 * Reading has a time budget: with a rare filter each row may cost a
 * jump, and a screen of them a second.  Past the budget the screen
 * shows the rows read, the others blank where they will go, and says
 * it is incomplete: the front end computes it again, and the rows come
 * in as they are read, the current one first. */
#include <inttypes.h>
#include <string.h>

#include "tracenav/cursor.h"
#include "tracenav/format.h"
#include "tracenav/time.h"
#include "list.h"

struct row_source {
	struct tn_cursor *cursor;
	bool may_read;
	gint64 deadline_us;	/* reading stops then (the view's budget) */
	bool incomplete;	/* a row was left unread for the budget */
	bool forced;		/* one was read past the budget */
	char **error;		/* the first read error */
	struct tn_regex_matcher *matcher;	/* the last search, or NULL */
};

/* Whether reading is allowed still. */
static bool can_read(const struct row_source *src)
{
	return src->may_read && (src->deadline_us == G_MAXINT64 ||
		g_get_monotonic_time() < src->deadline_us);
}

static const struct tn_row *get_row(struct row_source *src, int64_t offset)
{
	struct tn_error err;
	const struct tn_row *row;

	if (!can_read(src)) {
		row = tn_cursor_peek_row(src->cursor, offset);
		/* Its delta would need a read too. */
		if (!src->may_read || (row ? row->has_prev :
				tn_cursor_peek_has_row(src->cursor, offset) == 0))
			return row;
		/* The first row left unread is read all the same, so that
		 * each computation makes progress; the others wait. */
		if (src->forced) {
			src->incomplete = true;
			return row;
		}
		src->forced = true;
	}
	row = tn_cursor_row(src->cursor, offset, &err);
	if (!row && err.message[0] && !*src->error)
		*src->error = g_strdup(err.message);
	return row;
}

/* Whether the list has a row at offset; past the budget, a row not read
 * yet counts as one (where the rows go stays as it will be once read). */
static bool has_row(struct row_source *src, int64_t offset)
{
	if (!can_read(src) && src->may_read &&
	    tn_cursor_peek_has_row(src->cursor, offset) != 0)
		return true;
	return get_row(src, offset) != NULL;
}

static void row_clear(struct list_row *row)
{
	g_free(row->time);
	g_free(row->delta);
	g_free(row->host);
	g_free(row->cpu);
	g_free(row->name);
	g_free(row->payload);
	g_free(row->contexts);
	if (row->matches)
		g_array_free(row->matches, TRUE);
}

void tn_list_cache_free(void *data)
{
	struct list_cache *cache = data;

	if (!cache)
		return;
	for (guint i = 0; i < cache->rows->len; i++)
		row_clear(&g_array_index(cache->rows, struct list_row, i));
	g_array_free(cache->rows, TRUE);
	g_free(cache->error);
	g_free(cache->current_time);
	g_free(cache->current_line);
	g_free(cache);
}

static void row_fill(const struct tn_row *row, bool gmt, struct list_row *text)
{
	const struct tn_event *ev = &row->ev;
	GString *s = g_string_new(NULL);
	const char *host;
	int64_t cpu;

	text->pos = row->pos;
	text->lost_before = row->lost_before;
	if (ev->has_ns)
		tn_time_format_wall(s, ev->recorded_ns, gmt, false);
	text->time = g_strdup(s->str);
	g_string_truncate(s, 0);
	if (row->has_prev && ev->has_ns && ev->recorded_ns < row->prev_ns)
		tn_time_format_back(s, row->prev_ns - ev->recorded_ns);
	else
		tn_time_format_delta(s, row->has_prev && ev->has_ns ?
			ev->recorded_ns - row->prev_ns : -1);
	text->delta = g_strdup(s->str);
	host = tn_event_get_hostname(ev);
	if (!host)
		host = tn_event_get_trace_name(ev);
	text->host = g_strdup(host ? host : "");
	cpu = tn_event_get_cpu(ev);
	text->cpu = cpu >= 0 ? g_strdup_printf("%" PRId64, cpu) : g_strdup("");
	text->name = g_strdup(tn_event_get_name(ev));
	text->notice = ev->kind != TN_EVENT_KIND_EVENT;
	g_string_truncate(s, 0);
	if (text->notice) {
		tn_format_notice(s, ev, gmt);
		text->contexts = g_strdup("");
	} else {
		GString *contexts = g_string_new(NULL);

		/* The payload first: it tells events apart; the contexts
		 * (vpid, procname...) are much the same from row to row. */
		tn_format_event_payload(s, ev);
		tn_format_event_contexts(contexts, ev, cpu >= 0);
		text->contexts = g_string_free(contexts, FALSE);
	}
	text->payload = g_string_free(s, FALSE);
}

/* The screen row of the current event: where the old view had it, moved
 * as follow says; then no empty rows above the trace's start, nor below
 * its end while earlier events could fill them. */
static int64_t follow(const struct list_cache *old, struct row_source *src,
		const struct tn_row *current, int rows,
		enum tn_tui_follow mode)
{
	int64_t top = old ? old->top : 0;
	int64_t below = 0;

	if (mode != TN_TUI_FOLLOW_KEEP_ROW && old && old->rows->len > 0) {
		const struct list_row *first = &g_array_index(old->rows,
			struct list_row, 0);
		const struct list_row *last = &g_array_index(old->rows,
			struct list_row, old->rows->len - 1);
		bool before = tn_position_compare(&current->pos,
			&first->pos) < 0;
		bool after = tn_position_compare(&current->pos,
			&last->pos) > 0;

		if ((before || after) && mode == TN_TUI_FOLLOW_JUMP) {
			top = rows / 2;
		} else if (before) {
			top = 0;
		} else if (after) {
			top = rows - 1;
		} else {
			/* Still on screen: the view stays, the bar moves. */
			for (guint i = 0; i < old->rows->len; i++) {
				const struct list_row *r = &g_array_index(
					old->rows, struct list_row, i);

				if (!tn_position_compare(&current->pos,
						&r->pos))
					top = r->screen_row;
			}
		}
	}
	top = CLAMP(top, 0, rows - 1);
	for (int64_t k = 1; k <= top; k++) {
		if (!has_row(src, -k)) {
			top = k - 1;
			break;
		}
	}
	while (below < rows - 1 - top && has_row(src, below + 1))
		below++;
	while (top + 1 + below < rows && has_row(src, -(top + 1)))
		top++;
	return top;
}

static void note_current(struct list_cache *cache, const struct tn_row *row,
		bool gmt)
{
	GString *text = g_string_new(NULL);
	struct tn_format_state state;

	cache->has_current_ns = row->ev.has_ns;
	cache->current_ns = row->ev.ns;
	if (row->ev.has_ns)
		tn_time_format_wall(text, row->ev.recorded_ns, gmt, true);
	cache->current_time = g_strdup(text->str);
	if (row->ev.kind == TN_EVENT_KIND_EVENT) {
		/* Its --dump line, delta included, for y. */
		tn_format_state_init(&state, gmt);
		state.has_last = row->has_prev;
		state.last_ns = row->prev_ns;
		g_string_truncate(text, 0);
		tn_format_event_line(text, &row->ev, &state);
		cache->current_line = g_strdup(text->str);
	}
	g_string_free(text, TRUE);
}

/* The event number, once indexed (up to one interval read). */
static void note_rank(struct list_cache *cache, struct tn_cursor *cursor,
		bool may_read)
{
	struct tn_error err;
	int known;

	if (!may_read) {
		cache->has_rank = tn_cursor_peek_rank(cursor, &cache->rank) == 1;
		return;
	}
	known = tn_cursor_get_rank(cursor, &cache->rank, &err);
	if (known < 0 && !cache->error)
		cache->error = g_strdup(err.message);
	cache->has_rank = known == 1;
}

static void read_rows(struct list_cache *cache, const struct list_cache *old,
		const struct tn_pane_view *view, struct row_source *src)
{
	int rows = MAX(view->lines - 1, 1);	/* under the header */
	const struct tn_row *current = get_row(src, 0);

	if (!current)
		return;
	cache->top = (int) follow(old, src, current, rows, view->follow);
	/* The nearest rows first: past the budget, the rows that wait are
	 * the farthest from the current one (and the one read all the
	 * same is the nearest: reading a far one reads those between). */
	for (int d = 1; d < rows && !*src->error; d++) {
		if (d <= rows - 1 - cache->top)
			get_row(src, d);
		if (d <= cache->top)
			get_row(src, -d);
	}
	for (int i = 0; i < rows; i++) {
		const struct tn_row *row = get_row(src, i - cache->top);
		struct list_row text = { .screen_row = i };

		if (!row) {
			if (*src->error)
				break;
			continue;	/* before the start or after the end */
		}
		text.current = i == cache->top;
		text.marked = tn_marks_has(view->session->marks.set, &row->pos);
		if (text.current)
			note_current(cache, row, view->session->view.gmt);
		row_fill(row, view->session->view.gmt, &text);
		tn_list_find_matches(&text, row, src->matcher,
			view->session->view.gmt);
		cache->has_cpu = cache->has_cpu || text.cpu[0];
		g_array_append_val(cache->rows, text);
	}
}

void *tn_list_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	const struct list_cache *old = old_cache;
	struct tn_cursor *cursor = view->session->cursor;
	struct list_cache *cache = g_new0(struct list_cache, 1);
	struct row_source src = { cursor, view->may_read,
		view->read_budget_us > 0 ? g_get_monotonic_time() +
			view->read_budget_us : G_MAXINT64, false, false,
		&cache->error, NULL };

	cache->rows = g_array_new(FALSE, TRUE, sizeof(struct list_row));
	cache->top = old ? old->top : 0;
	cache->empty = tn_cursor_is_empty(cursor);
	cache->filtered = view->session->filters.set != NULL;
	cache->has_marks = tn_marks_count(view->session->marks.set) > 0;
	/* Not waiting for the packets' range: the first screen does not
	 * need it (a trace without usable packet indexes has it from a
	 * query that reads every packet header). */
	cache->has_span = tn_cursor_peek_time_span(cursor, &cache->span_begin,
		&cache->span_end, &cache->span_exact, &cache->span_pending);
	/* The session's search is the job's, as the cursor. */
	if (view->session->view.search_regex)
		src.matcher = tn_regex_matcher_new(
			view->session->view.search_regex);
	if (!cache->empty) {
		read_rows(cache, old, view, &src);
		note_rank(cache, cursor, view->may_read);
		cache->incomplete = src.incomplete && !cache->error;
	}
	tn_regex_matcher_free(src.matcher);
	return cache;
}
