/* pane-list.c - the event list pane: one row per event, in columns (time,
 * delta, host, CPU, event name, fields), the current row highlighted.
 *
 * When the cursor moved, list_cursor_moved (on the job's thread) decides
 * where the current row goes on screen (the follow rules), makes sure the
 * rows around it are read, and turns them into text: the cache.  Drawing
 * only lays that text out at the current horizontal scroll.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/format.h"
#include "tracenav/time.h"
#include "draw.h"
#include "pane.h"
#include "text.h"
#include "tui-private.h"

/* The list's columns, left to right; the last one takes the rest. */
enum column {
	COL_TIME,
	COL_DELTA,
	COL_HOST,
	COL_CPU,
	COL_NAME,
	COL_FIELDS,
	COL_COUNT_
};

/* The widest a column grows (except the last, which takes the rest). */
static const int max_widths[COL_COUNT_] = { 24, 16, 20, 4, 32, 0 };
static const char *const titles[COL_COUNT_] = {
	"Time", "Delta", "Host", "CPU", "Event", "Fields",
};

enum list_action {
	LIST_NONE,
	LIST_COUNT,		/* documented: digits before a key */
	LIST_PERCENT,		/* NN%: go to that fraction of the time */
	LIST_SCROLL_LEFT,
	LIST_SCROLL_RIGHT,
	LIST_MOUSE,		/* documented: see list_mouse */
};

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL

static const struct tn_tui_binding list_bindings[] = {
	{ { 'j', FN(KEY_DOWN), CTRL('n'), CTRL('e') }, NULL, 0,
		"down", "next event" },
	{ { 'k', FN(KEY_UP), CTRL('p'), CTRL('y') }, NULL, 0,
		"up", "previous event" },
	{ { 0 }, "N j, N k", LIST_COUNT, NULL,
		"digits before j, k, Down or Up: move N events" },
	{ { FN(KEY_NPAGE), ' ', 'f', CTRL('f') }, NULL, 0,
		"pgdn", "next page (the cursor keeps its screen row)" },
	{ { FN(KEY_PPAGE), 'b', CTRL('b') }, NULL, 0,
		"pgup", "previous page" },
	{ { 'g', FN(KEY_HOME), '<' }, NULL, 0,
		"top", "first event" },
	{ { 'G', FN(KEY_END), '>' }, NULL, 0,
		"bottom", "last event" },
	{ { 0 }, "N G", LIST_COUNT, NULL,
		"digits then G: go to event number N (once indexed)" },
	{ { '%' }, "NN%", LIST_PERCENT, NULL,
		"digits then %: go to NN% of the time range (50% the middle)" },
	{ { '\n', '\r', FN(KEY_ENTER) }, NULL, 0,
		"detail", "every field of the selected event" },
	{ { 'h', FN(KEY_LEFT) }, NULL, LIST_SCROLL_LEFT, NULL,
		"scroll the columns left" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, LIST_SCROLL_RIGHT, NULL,
		"scroll the columns right" },
	{ { 0 }, "wheel", LIST_MOUSE, NULL,
		"mouse wheel: scroll 3 events" },
	{ { 0 }, "click", LIST_MOUSE, NULL,
		"mouse click on a row: select it" },
};

static const struct tn_tui_keymap list_keys = {
	"Event list", list_bindings, G_N_ELEMENTS(list_bindings),
};

/* A row on screen, as text: a struct tn_row only lives until the cursor
 * reads again, and drawing must not read. */
struct row_text {
	struct tn_position pos;
	int screen_row;
	bool current, notice;
	char *cols[COL_COUNT_];
};

/* What the list shows for a position of the cursor. */
struct list_cache {
	int top;		/* screen row of the current event */
	GArray *rows;		/* struct row_text, top to bottom */
	int widths[COL_COUNT_];	/* grow with what was shown */
	int longest;		/* columns of the longest line shown */
	bool empty;		/* the trace has no event */
	bool has_current_ns;
	int64_t current_ns;
	bool has_rank;
	uint64_t rank;
	char *error;		/* a read error, or NULL */
	char *current_time;	/* the current event's time, as goto takes it */
	GPtrArray *field_names;	/* of the current event (char *) */
};

/* The pane's own state (the UI thread's). */
struct list_state {
	int hscroll;		/* columns scrolled off to the left */
};

/* ---- rows, read or only looked at ---- */

struct row_source {
	struct tn_cursor *cursor;
	bool may_read;
	char **error;		/* the first read error */
};

static const struct tn_row *get_row(struct row_source *src, int64_t offset)
{
	struct tn_error err;
	const struct tn_row *row;

	if (!src->may_read)
		return tn_cursor_peek_row(src->cursor, offset);
	row = tn_cursor_row(src->cursor, offset, &err);
	if (!row && err.message[0] && !*src->error)
		*src->error = g_strdup(err.message);
	return row;
}

static bool has_row(struct row_source *src, int64_t offset)
{
	return get_row(src, offset) != NULL;
}

/* ---- the cache ---- */

static void row_text_clear(struct row_text *text)
{
	for (int c = 0; c < COL_COUNT_; c++)
		g_free(text->cols[c]);
}

static void cache_free(void *data)
{
	struct list_cache *cache = data;

	if (!cache)
		return;
	for (guint i = 0; i < cache->rows->len; i++)
		row_text_clear(&g_array_index(cache->rows, struct row_text, i));
	g_array_free(cache->rows, TRUE);
	g_free(cache->error);
	g_free(cache->current_time);
	g_ptr_array_free(cache->field_names, TRUE);
	g_free(cache);
}

static int text_columns(const char *s, int max)
{
	GArray *tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int w = tn_tui_text_decode(tmp, s, -1, max);

	g_array_free(tmp, TRUE);
	return w;
}

/* The first widths: the titles, the usual times, and the hosts, known
 * from the metadata. */
static void initial_widths(const struct tn_trace *trace, int *widths)
{
	for (int c = 0; c < COL_COUNT_; c++)
		widths[c] = (int) strlen(titles[c]);
	widths[COL_TIME] = 18;	/* HH:MM:SS.NNNNNNNNN */
	widths[COL_DELTA] = 12;	/* +S.NNNNNNNNN */
	widths[COL_NAME] = 12;
	for (size_t i = 0; i < tn_trace_get_info_count(trace); i++) {
		const struct tn_trace_info *info =
			tn_trace_borrow_info(trace, i);
		const char *host = info->hostname ? info->hostname : info->name;
		int w = host ? text_columns(host, max_widths[COL_HOST]) : 0;

		widths[COL_HOST] = MAX(widths[COL_HOST], w);
	}
}

static struct list_cache *cache_new(const struct list_cache *old,
		const struct tn_pane_view *view)
{
	struct list_cache *cache = g_new0(struct list_cache, 1);

	cache->rows = g_array_new(FALSE, TRUE, sizeof(struct row_text));
	cache->field_names = g_ptr_array_new_with_free_func(g_free);
	/* Columns keep their widths, so they do not jump back and forth
	 * while scrolling. */
	if (old)
		memcpy(cache->widths, old->widths, sizeof(cache->widths));
	else
		initial_widths(view->session->trace, cache->widths);
	cache->top = old ? old->top : 0;
	return cache;
}

static void row_text_fill(const struct tn_row *row, bool gmt,
		struct row_text *text)
{
	const struct tn_event *ev = &row->ev;
	GString *s = g_string_new(NULL);
	const char *host;
	int64_t cpu;

	if (ev->has_ns)
		tn_time_format_wall(s, ev->ns, gmt, false);
	text->cols[COL_TIME] = g_strdup(s->str);
	g_string_truncate(s, 0);
	tn_time_format_delta(s, row->has_prev && ev->has_ns ?
		ev->ns - row->prev_ns : -1);
	text->cols[COL_DELTA] = g_strdup(s->str);
	host = tn_event_get_hostname(ev);
	if (!host)
		host = tn_event_get_trace_name(ev);
	text->cols[COL_HOST] = g_strdup(host ? host : "");
	cpu = tn_event_get_cpu(ev);
	text->cols[COL_CPU] = cpu >= 0 ?
		g_strdup_printf("%" PRId64, cpu) : g_strdup("");
	text->cols[COL_NAME] = g_strdup(tn_event_get_name(ev));
	g_string_truncate(s, 0);
	if (row->lost_before)
		g_string_append_printf(s, "(%" PRIu64 " lost before) ",
			row->lost_before);
	text->notice = ev->kind != TN_EVENT_KIND_EVENT;
	if (text->notice)
		tn_format_notice(s, ev, gmt);
	else if (cpu >= 0)
		tn_format_event_payload(s, ev);	/* cpu_id has its column */
	else
		tn_format_event_fields(s, ev);
	text->cols[COL_FIELDS] = g_string_free(s, FALSE);
	text->pos = row->pos;
}

static void grow_widths(struct list_cache *cache, const struct row_text *text)
{
	for (int c = 0; c < COL_FIELDS; c++)
		cache->widths[c] = MAX(cache->widths[c],
			text_columns(text->cols[c], max_widths[c]));
}

/* ---- following the cursor ---- */

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
		const struct row_text *first = &g_array_index(old->rows,
			struct row_text, 0);
		const struct row_text *last = &g_array_index(old->rows,
			struct row_text, old->rows->len - 1);
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
				const struct row_text *r = &g_array_index(
					old->rows, struct row_text, i);

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

/* The names of the current event's fields, for the prompt's completion
 * (the lines of its field tree one level under a scope). */
static void add_field_name(int depth, const char *text, void *data)
{
	GPtrArray *names = data;
	size_t len = strcspn(text, " :");

	if (depth == 1 && len > 0)
		g_ptr_array_add(names, g_strndup(text, len));
}

static void note_current(struct list_cache *cache, const struct tn_row *row,
		bool gmt)
{
	GString *time = g_string_new(NULL);

	cache->has_current_ns = row->ev.has_ns;
	cache->current_ns = row->ev.ns;
	if (row->ev.has_ns)
		tn_time_format_wall(time, row->ev.ns, gmt, true);
	cache->current_time = g_string_free(time, FALSE);
	if (row->ev.kind == TN_EVENT_KIND_EVENT)
		tn_format_event_tree(&row->ev, add_field_name,
			cache->field_names);
	g_ptr_array_add(cache->field_names, NULL);
}

static void *list_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	const struct list_cache *old = old_cache;
	struct tn_session *session = view->session;
	struct list_cache *cache = cache_new(old, view);
	struct row_source src = { session->cursor, view->may_read,
		&cache->error };
	int rows = MAX(view->lines - 1, 1);	/* under the header */
	const struct tn_row *current;
	struct tn_error err;

	if (tn_cursor_is_empty(session->cursor)) {
		cache->empty = true;
		g_ptr_array_add(cache->field_names, NULL);
		return cache;
	}
	current = get_row(&src, 0);
	if (!current) {
		g_ptr_array_add(cache->field_names, NULL);
		return cache;
	}
	cache->top = (int) follow(old, &src, current, rows, view->follow);
	for (int i = 0; i < rows; i++) {
		const struct tn_row *row = get_row(&src, i - cache->top);
		struct row_text text = { .screen_row = i };

		if (!row) {
			if (cache->error)
				break;
			continue;	/* before the start or after the end */
		}
		text.current = i == cache->top;
		if (text.current)
			note_current(cache, row, session->gmt);
		row_text_fill(row, session->gmt, &text);
		grow_widths(cache, &text);
		g_array_append_val(cache->rows, text);
		/* Bytes for columns: close enough to bound the scrolling. */
		cache->longest = MAX(cache->longest,
			(int) MIN(strlen(text.cols[COL_FIELDS]),
				(size_t) G_MAXINT / 2));
	}
	if (!cache->field_names->len ||
	    g_ptr_array_index(cache->field_names,
		    cache->field_names->len - 1) != NULL)
		g_ptr_array_add(cache->field_names, NULL);
	for (int c = 0; c < COL_FIELDS; c++)
		cache->longest += cache->widths[c] + 1;
	/* The event number, once indexed (up to one interval read). */
	if (view->may_read) {
		int known = tn_cursor_get_rank(session->cursor, &cache->rank,
			&err);

		if (known < 0 && !cache->error)
			cache->error = g_strdup(err.message);
		cache->has_rank = known == 1;
	} else {
		cache->has_rank = tn_cursor_peek_rank(session->cursor,
			&cache->rank) == 1;
	}
	return cache;
}

/* ---- drawing ---- */

/* The line of a row (or of the header): the fixed columns cut and padded
 * to their widths, then the fields up to what the window can show. */
static void compose(const struct list_cache *cache, int hscroll,
		const char *const *cols, int window_cols, GArray *line)
{
	int start = 0;

	for (int c = 0; c < COL_FIELDS; c++) {
		tn_tui_text_append_fit(line, cols[c], cache->widths[c]);
		tn_tui_text_append_spaces(line, 1);
		start += cache->widths[c] + 1;
	}
	if (hscroll + window_cols > start)
		tn_tui_text_decode(line, cols[COL_FIELDS], -1,
			hscroll + window_cols - start);
}

static void list_draw(struct tn_pane *pane, WINDOW *win)
{
	const struct list_cache *cache = pane->cache;
	const struct list_state *state = pane->data;
	struct tn_tui *tui = pane->tui;
	bool focused = tn_panes_focused(&tui->panes) == pane;
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int width = getmaxx(win);

	werase(win);
	if (!cache) {
		tn_tui_draw_utf8(win, 1, 0, "(reading...)", width);
		g_array_free(line, TRUE);
		return;
	}
	wattrset(win, tn_tui_attr(tui, focused ? TN_TUI_COLOR_HEADER :
		TN_TUI_COLOR_PANE));
	compose(cache, state->hscroll, titles, width, line);
	tn_tui_draw_wide(win, 0, 0, (wchar_t *) line->data, line->len,
		state->hscroll, width);
	wattrset(win, A_NORMAL);
	if (cache->empty)
		tn_tui_draw_utf8(win, 1, 0, "(the trace has no events)", width);
	for (guint i = 0; i < cache->rows->len; i++) {
		const struct row_text *text = &g_array_index(cache->rows,
			struct row_text, i);
		const char *cols[COL_COUNT_];
		attr_t attr = A_NORMAL;

		for (int c = 0; c < COL_COUNT_; c++)
			cols[c] = text->cols[c];
		g_array_set_size(line, 0);
		compose(cache, state->hscroll, cols, width, line);
		if (text->notice)
			attr = tn_tui_attr(tui, TN_TUI_COLOR_NOTICE);
		if (text->current)
			attr |= focused ? A_REVERSE : A_UNDERLINE | A_BOLD;
		wattrset(win, attr);
		tn_tui_draw_wide(win, 1 + text->screen_row, 0,
			(wchar_t *) line->data, line->len, state->hscroll,
			width);
	}
	wattrset(win, A_NORMAL);
	g_array_free(line, TRUE);
}

/* ---- keys and the mouse ---- */

static void scroll_columns(struct tn_pane *pane, int direction)
{
	const struct list_cache *cache = pane->cache;
	struct list_state *state = pane->data;
	int width = pane->rect.w;
	int step = MAX(8, width / 4);
	/* Right: until the longest line shown ends mid-screen. */
	int limit = MAX(0, (cache ? cache->longest : 0) - width / 2);
	int hscroll = CLAMP(state->hscroll + direction * step, 0,
		MAX(limit, state->hscroll));

	if (direction > 0 && hscroll == state->hscroll)
		tn_tui_message_set(pane->tui, false,
			"(no more columns to the right)");
	state->hscroll = hscroll;
	pane->dirty = true;
}

static bool list_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	const struct tn_tui_binding *b = tn_tui_keymap_find(&list_keys,
		key->key);
	char line[64];

	if (!b)
		return false;
	if (b->command) {
		tn_tui_run_command(pane->tui, b->command, key);
		return true;
	}
	switch (b->action) {
	case LIST_PERCENT:
		if (!key->has_count) {
			tn_tui_message_set(pane->tui, true, "type the digits "
				"first, then %: 50% goes to the middle");
			break;
		}
		snprintf(line, sizeof(line), "goto %ld%%", key->count);
		tn_tui_run_line(pane->tui, line, TN_TUI_FOLLOW_BY_COMMAND);
		break;
	case LIST_SCROLL_LEFT: scroll_columns(pane, -1); break;
	case LIST_SCROLL_RIGHT: scroll_columns(pane, 1); break;
	default: break;
	}
	return true;
}

/* The wheel scrolls, keeping the cursor's screen row; a click on a row
 * selects it (a move by the difference of rows). */
static void list_mouse(struct tn_pane *pane, int y, int x, int wheel)
{
	const struct list_cache *cache = pane->cache;
	char line[64];
	int row = y - 1;	/* under the header */

	(void) x;
	if (wheel) {
		snprintf(line, sizeof(line), "%s %d", wheel > 0 ? "down" : "up",
			abs(wheel));
		tn_tui_run_line(pane->tui, line, TN_TUI_FOLLOW_KEEP_ROW);
		return;
	}
	for (guint i = 0; cache && i < cache->rows->len; i++) {
		const struct row_text *text = &g_array_index(cache->rows,
			struct row_text, i);

		if (text->screen_row != row || row == cache->top)
			continue;
		snprintf(line, sizeof(line), "%s %d", row > cache->top ?
			"down" : "up", abs(row - cache->top));
		tn_tui_run_line(pane->tui, line, TN_TUI_FOLLOW_BY_COMMAND);
	}
}

/* ---- what the rest of the TUI asks the list ---- */

bool tn_pane_list_get_status(const struct tn_pane *pane,
		struct tn_list_status *status)
{
	const struct list_cache *cache = pane->cache;

	memset(status, 0, sizeof(*status));
	if (!cache)
		return false;
	status->top = cache->top;
	status->shown = (int) cache->rows->len;
	status->has_current_ns = cache->has_current_ns;
	status->current_ns = cache->current_ns;
	status->has_rank = cache->has_rank;
	status->rank = cache->rank;
	status->error = cache->error;
	status->current_time = cache->current_time;
	status->field_names = (const char *const *) cache->field_names->pdata;
	return true;
}

int tn_pane_list_rows(const struct tn_pane *pane)
{
	return pane->win && pane->rect.h > 1 ? pane->rect.h - 1 : 0;
}

static void list_init(struct tn_pane *pane)
{
	pane->data = g_new0(struct list_state, 1);
}

static void list_destroy(struct tn_pane *pane)
{
	g_free(pane->data);
	pane->data = NULL;
}

const struct tn_pane_class tn_pane_list = {
	.name = "list",
	.title = "Event list",
	.layout = { TN_PANE_MAIN, 40, 8, 100, 0 },
	.keymap = &list_keys,
	.init = list_init,
	.destroy = list_destroy,
	.cursor_moved = list_cursor_moved,
	.cache_free = cache_free,
	.draw = list_draw,
	.key = list_key,
	.mouse = list_mouse,
};
