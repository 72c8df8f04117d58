/* list.c - the event list pane: one row per event, in columns (time,
 * delta, host, CPU, event name, fields), the current row highlighted,
 * session->top_offset rows above it. */
#include <inttypes.h>
#include <string.h>

#include "tracenav/format.h"
#include "tracenav/time.h"
#include "draw.h"
#include "text.h"
#include "tui-private.h"

/* The widest a column grows (except the last, which takes the rest). */
static const int max_widths[TN_TUI_COL_COUNT_] = { 24, 16, 20, 4, 32, 0 };
static const char *const titles[TN_TUI_COL_COUNT_] = {
	"Time", "Delta", "Host", "CPU", "Event", "Fields",
};

/* A row on screen, as text (a struct tn_row only lives until the cursor
 * reads again). */
struct shown_row {
	struct tn_position pos;
	int screen_row;
};

struct row_text {
	char *cols[TN_TUI_COL_COUNT_];
	int screen_row;
	bool current, notice;
};

void tn_tui_list_init(struct tn_tui *tui)
{
	struct tn_tui_list *list = &tui->list;
	size_t n = tn_trace_get_info_count(tui->session->trace);

	for (int c = 0; c < TN_TUI_COL_COUNT_; c++)
		list->widths[c] = (int) strlen(titles[c]);
	list->widths[TN_TUI_COL_TIME] = 18;	/* HH:MM:SS.NNNNNNNNN */
	list->widths[TN_TUI_COL_DELTA] = 12;	/* +S.NNNNNNNNN */
	list->widths[TN_TUI_COL_NAME] = 12;
	/* The hosts are known from the metadata: size their column once. */
	for (size_t i = 0; i < n; i++) {
		const struct tn_trace_info *info =
			tn_trace_borrow_info(tui->session->trace, i);
		const char *host = info->hostname ? info->hostname : info->name;
		GArray *text = g_array_new(FALSE, FALSE, sizeof(wchar_t));
		int w = host ? tn_tui_text_decode(text, host, -1, -1) : 0;

		if (w > list->widths[TN_TUI_COL_HOST])
			list->widths[TN_TUI_COL_HOST] =
				MIN(w, max_widths[TN_TUI_COL_HOST]);
		g_array_free(text, TRUE);
	}
	list->shown = g_array_new(FALSE, FALSE, sizeof(struct shown_row));
}

void tn_tui_list_fini(struct tn_tui *tui)
{
	if (tui->list.shown)
		g_array_free(tui->list.shown, TRUE);
	tui->list.shown = NULL;
}

static void row_text_fill(struct tn_tui *tui, const struct tn_row *row,
		struct row_text *text)
{
	const struct tn_event *ev = &row->ev;
	bool gmt = tui->session->gmt;
	GString *s = g_string_new(NULL);
	const char *host;
	int64_t cpu;

	if (ev->has_ns)
		tn_time_format_wall(s, ev->ns, gmt, false);
	text->cols[TN_TUI_COL_TIME] = g_strdup(s->str);
	g_string_truncate(s, 0);
	tn_time_format_delta(s, row->has_prev && ev->has_ns ?
		ev->ns - row->prev_ns : -1);
	text->cols[TN_TUI_COL_DELTA] = g_strdup(s->str);
	host = tn_event_get_hostname(ev);
	if (!host)
		host = tn_event_get_trace_name(ev);
	text->cols[TN_TUI_COL_HOST] = g_strdup(host ? host : "");
	cpu = tn_event_get_cpu(ev);
	text->cols[TN_TUI_COL_CPU] = cpu >= 0 ?
		g_strdup_printf("%" PRId64, cpu) : g_strdup("");
	text->cols[TN_TUI_COL_NAME] = g_strdup(tn_event_get_name(ev));
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
	text->cols[TN_TUI_COL_FIELDS] = g_string_free(s, FALSE);
}

static void row_text_clear(struct row_text *text)
{
	for (int c = 0; c < TN_TUI_COL_COUNT_; c++)
		g_free(text->cols[c]);
}

/* Let the columns grow to what they show, so they do not jump back and
 * forth while scrolling. */
static void grow_widths(struct tn_tui_list *list, const struct row_text *text)
{
	for (int c = 0; c < TN_TUI_COL_FIELDS; c++) {
		GArray *tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
		int w = tn_tui_text_decode(tmp, text->cols[c], -1,
			max_widths[c]);

		if (w > list->widths[c])
			list->widths[c] = w;
		g_array_free(tmp, TRUE);
	}
}

/* The line of a row (or of the header): the fixed columns cut and padded
 * to their widths, then the fields up to what the window can show. */
static void compose(const struct tn_tui_list *list, char *const *cols,
		int window_cols, GArray *line)
{
	int start = 0;

	for (int c = 0; c < TN_TUI_COL_FIELDS; c++) {
		tn_tui_text_append_fit(line, cols[c], list->widths[c]);
		tn_tui_text_append_spaces(line, 1);
		start += list->widths[c] + 1;
	}
	if (list->hscroll + window_cols > start)
		tn_tui_text_decode(line, cols[TN_TUI_COL_FIELDS], -1,
			list->hscroll + window_cols - start);
}

/* Read the rows to show; stops at a read error (on the message line). */
static GArray *read_rows(struct tn_tui *tui, int rows)
{
	struct tn_session *session = tui->session;
	struct tn_tui_list *list = &tui->list;
	GArray *texts = g_array_new(FALSE, TRUE, sizeof(struct row_text));
	int64_t top = session->top_offset;

	g_array_set_size(list->shown, 0);
	list->longest = 0;
	list->has_current_ns = false;
	for (int i = 0; i < rows; i++) {
		struct tn_error err = { { 0 } };
		const struct tn_row *row = tn_cursor_row(session->cursor,
			i - top, &err);
		struct row_text text = { .screen_row = i };
		struct shown_row shown;

		if (!row) {
			if (err.message[0]) {
				tn_tui_message_set(tui, true, err.message);
				break;
			}
			continue;	/* before the start or after the end */
		}
		shown = (struct shown_row) { row->pos, i };
		if (i == top) {
			list->has_current_ns = row->ev.has_ns;
			list->current_ns = row->ev.ns;
			text.current = true;
		}
		g_array_append_val(list->shown, shown);
		row_text_fill(tui, row, &text);
		grow_widths(list, &text);
		g_array_append_val(texts, text);
		/* Bytes for columns: close enough to bound the scrolling. */
		list->longest = MAX(list->longest,
			(int) MIN(strlen(text.cols[TN_TUI_COL_FIELDS]),
				(size_t) G_MAXINT / 2));
	}
	return texts;
}

void tn_tui_list_draw(struct tn_tui *tui)
{
	WINDOW *win = tui->list_win;
	int rows = tn_tui_list_rows(tui);
	int width = tui->layout.list.w;
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	GArray *texts;

	if (!win)
		goto out;
	werase(win);
	if (tui->session->top_offset > rows - 1)
		tui->session->top_offset = MAX(rows - 1, 0);
	if (tui->session->top_offset < 0)
		tui->session->top_offset = 0;
	texts = read_rows(tui, rows);
	for (int c = 0; c < TN_TUI_COL_FIELDS; c++)
		tui->list.longest += tui->list.widths[c] + 1;

	wattrset(win, tn_tui_attr(tui, TN_TUI_COLOR_HEADER));
	compose(&tui->list, (char **) titles, width, line);
	tn_tui_draw_wide(win, 0, 0, (wchar_t *) line->data, line->len,
		tui->list.hscroll, width);
	wattrset(win, A_NORMAL);
	if (tn_cursor_is_empty(tui->session->cursor))
		tn_tui_draw_utf8(win, 1, 0, "(the trace has no events)", width);
	for (guint i = 0; i < texts->len; i++) {
		struct row_text *text = &g_array_index(texts, struct row_text,
			i);
		attr_t attr = A_NORMAL;

		g_array_set_size(line, 0);
		compose(&tui->list, text->cols, width, line);
		if (text->notice)
			attr = tn_tui_attr(tui, TN_TUI_COLOR_NOTICE);
		if (text->current)
			attr |= A_REVERSE;
		wattrset(win, attr);
		tn_tui_draw_wide(win, 1 + text->screen_row, 0,
			(wchar_t *) line->data, line->len, tui->list.hscroll,
			width);
		row_text_clear(text);
	}
	wattrset(win, A_NORMAL);
	g_array_free(texts, TRUE);
	wnoutrefresh(win);
out:
	g_array_free(line, TRUE);
}

/* Whether the row at offset exists (a read error counts as no). */
static bool has_row(struct tn_tui *tui, int64_t offset)
{
	struct tn_error err = { { 0 } };

	if (tn_cursor_row(tui->session->cursor, offset, &err))
		return true;
	if (err.message[0])
		tn_tui_message_set(tui, true, err.message);
	return false;
}

void tn_tui_list_follow(struct tn_tui *tui, enum tn_tui_follow mode)
{
	struct tn_tui_list *list = &tui->list;
	struct tn_session *session = tui->session;
	int rows = tn_tui_list_rows(tui);
	struct tn_error err = { { 0 } };
	const struct tn_row *current;
	int64_t top = session->top_offset;
	int64_t below = 0;

	if (rows <= 0)
		return;
	current = tn_cursor_row(session->cursor, 0, &err);
	if (!current) {
		session->top_offset = 0;
		return;
	}
	if (mode != TN_TUI_FOLLOW_KEEP_ROW && list->shown->len > 0) {
		struct tn_position pos = current->pos;
		const struct shown_row *first = &g_array_index(list->shown,
			struct shown_row, 0);
		const struct shown_row *last = &g_array_index(list->shown,
			struct shown_row, list->shown->len - 1);
		bool before = tn_position_compare(&pos, &first->pos) < 0;
		bool after = tn_position_compare(&pos, &last->pos) > 0;

		if ((before || after) && mode == TN_TUI_FOLLOW_JUMP) {
			top = rows / 2;
		} else if (before) {
			top = 0;
		} else if (after) {
			top = rows - 1;
		} else {
			/* Still on screen: the view stays, the bar moves. */
			for (guint i = 0; i < list->shown->len; i++) {
				const struct shown_row *s = &g_array_index(
					list->shown, struct shown_row, i);

				if (!tn_position_compare(&pos, &s->pos))
					top = s->screen_row;
			}
		}
	}
	top = CLAMP(top, 0, rows - 1);
	/* No empty rows above the first event... */
	for (int64_t k = 1; k <= top; k++) {
		if (!has_row(tui, -k)) {
			top = k - 1;
			break;
		}
	}
	/* ...nor below the last one while earlier events could fill them
	 * (after G, or a page down that hit the end). */
	while (below < rows - 1 - top && has_row(tui, below + 1))
		below++;
	while (top + 1 + below < rows && has_row(tui, -(top + 1)))
		top++;
	session->top_offset = top;
	tui->dirty |= TN_TUI_DIRTY_LIST | TN_TUI_DIRTY_STATUS;
}

void tn_tui_list_scroll_columns(struct tn_tui *tui, int direction)
{
	int width = tui->layout.list.w;
	int step = MAX(8, width / 4);
	/* Right: until the longest line shown ends mid-screen. */
	int limit = MAX(0, tui->list.longest - width / 2);
	int hscroll = CLAMP(tui->list.hscroll + direction * step, 0,
		MAX(limit, tui->list.hscroll));

	if (direction > 0 && hscroll == tui->list.hscroll)
		tn_tui_message_set(tui, false, "(no more columns to the right)");
	tui->list.hscroll = hscroll;
	tui->dirty |= TN_TUI_DIRTY_LIST;
}

bool tn_tui_list_has_row_at(const struct tn_tui *tui, int screen_row)
{
	for (guint i = 0; i < tui->list.shown->len; i++)
		if (g_array_index(tui->list.shown, struct shown_row,
				i).screen_row == screen_row)
			return true;
	return false;
}
