/* seq-draw.c - drawing the sequence diagram pane: its title (and at
 * its right what a job does, or which lifelines show), the lifelines'
 * header kept on top, then the body lines from the view's scroll; the
 * selected message in reverse video (bold and underlined when the pane
 * has not the focus), the marks of missing ends in the error colour;
 * the old page dimmed while the next one loads. */
#include <string.h>

#include "draw.h"
#include "seq-pane.h"
#include "text.h"

/* Under this many rows, the header is the names alone (no box). */
#define BOX_MIN_ROWS 7

/* ---- sizes ---- */

/* The first column of the pane's text (tn_pane_draw_frame()'s). */
static int text_x(const struct tn_pane *pane)
{
	return pane->rect.x > 0 ? 2 : 1;
}

size_t tn_seq_pane_header_rows(const struct tn_pane *pane)
{
	return pane->rect.h - 1 >= BOX_MIN_ROWS ? 3 : 1;
}

size_t tn_seq_pane_body_rows(const struct tn_pane *pane)
{
	int rows = pane->rect.h - 1 - (int) tn_seq_pane_header_rows(pane);

	return (size_t) MAX(rows, 1);
}

void tn_seq_pane_update_style(struct tn_pane *pane)
{
	struct seq_pane *p = pane->data;
	bool utf8 = tn_tui_text_locale_is_utf8();
	struct tn_seq_render_options style = {
		.width = MAX(pane->rect.w - text_x(pane), 1),
		.ascii = pane->host->ascii || !utf8,
		.utf8 = utf8,
		.gmt = pane->host->session->view.gmt,
	};

	tn_seq_view_set_style(&p->view, &style);
}

/* ---- drawing ---- */

/* Draw a line of the drawing at (y, x), width columns: its bytes take
 * base, then each span's attributes over it, in the spans' order. */
static void draw_line(struct tn_pane *pane, WINDOW *win, int y, int x,
		int width, const struct tn_seq_line *line, attr_t base)
{
	bool focused = tn_pane_is_focused(pane);
	size_t len = strlen(line->text);
	attr_t *attrs = g_new(attr_t, len + 1);
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int col = 0;

	for (size_t i = 0; i < len; i++)
		attrs[i] = base;
	for (size_t s = 0; s < line->span_count; s++) {
		const struct tn_seq_span *span = &line->spans[s];
		attr_t attr = span->kind == TN_SEQ_SPAN_SELECTED ?
			(focused ? A_REVERSE : A_BOLD | A_UNDERLINE) :
			tn_pane_attr(pane, TN_TUI_COLOR_ERROR);

		for (size_t i = span->start; i < span->end && i < len; i++)
			attrs[i] = span->kind == TN_SEQ_SPAN_SELECTED ?
				base | attr : attr | (attrs[i] & A_REVERSE);
	}
	for (size_t start = 0; start < len && col < width;) {
		size_t end = start + 1;
		int cols;

		while (end < len && attrs[end] == attrs[start])
			end++;
		g_array_set_size(chars, 0);
		cols = tn_tui_text_decode(chars, line->text + start,
			(gssize) (end - start), width - col);
		wattrset(win, attrs[start]);
		tn_tui_draw_wide(win, y, x + col, (const wchar_t *) chars->data,
			chars->len, 0, cols);
		col += cols;
		start = end;
	}
	wattrset(win, base);
	if (col < width)
		tn_tui_draw_utf8(win, y, x + col, "", width - col);
	wattrset(win, A_NORMAL);
	g_array_free(chars, TRUE);
	g_free(attrs);
}

/* What the title says at its right: a job's progress, or which
 * lifelines show. */
static void draw_title_note(struct tn_pane *pane, WINDOW *win, int w,
		const struct tn_seq_drawing *d)
{
	struct seq_pane *p = pane->data;
	char *text = p->progress ? g_strdup(p->progress) : NULL;
	GArray *tmp;
	int cols, title;

	if (!text && d && d->shown_lifelines < d->lifeline_count)
		text = g_strdup_printf("lifelines %zu-%zu of %zu (h, l)",
			d->first_lifeline + 1, d->first_lifeline +
			d->shown_lifelines, d->lifeline_count);
	if (!text)
		return;
	tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	cols = tn_tui_text_decode(tmp, text, -1, -1);
	g_array_free(tmp, TRUE);
	title = (int) strlen(pane->cls->title) + 12;	/* " Title (d hides)" */
	if (w - cols - 1 >= title) {
		wattrset(win, tn_pane_attr(pane,
			tn_pane_is_focused(pane) ?
			TN_TUI_COLOR_FOCUS : TN_TUI_COLOR_PANE));
		tn_tui_draw_utf8(win, 0, w - cols - 1, text, cols);
		wattrset(win, A_NORMAL);
	}
	g_free(text);
}

/* The line that says why there is no drawing. */
static const char *empty_text(const struct tn_pane *pane, attr_t *attr)
{
	const struct seq_pane *p = pane->data;
	const struct seq_spot *spot = pane->cache;

	*attr = tn_pane_attr(pane, TN_TUI_COLOR_NOTICE);
	if (p->error) {
		*attr = tn_pane_attr(pane, TN_TUI_COLOR_ERROR);
		return p->error;
	}
	if (spot && !spot->has_event)
		return "(the trace has no events)";
	if (!p->has_page || p->page_job || p->wants_page)
		return "loading messages...";
	*attr = A_NORMAL;
	if (!p->loaders || !p->loaders[0])
		return "no event of this trace makes a message (events named "
			"*send* or *receive* with sender, receiver and signal "
			"fields do, kernel wake-ups do, and so do the events of "
			"--seq-rules)";
	if (p->page_hide)
		return "no message around the cursor that the hide patterns "
			"leave (:seq-hidden lists them)";
	return "no message around the cursor";
}

void tn_seq_pane_draw(struct tn_pane *pane, WINDOW *win)
{
	struct seq_pane *p = pane->data;
	const struct tn_seq_drawing *d;
	size_t header = tn_seq_pane_header_rows(pane);
	size_t rows = tn_seq_pane_body_rows(pane);
	attr_t base = A_NORMAL;
	int h, w, x;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	tn_seq_pane_update_style(pane);
	d = tn_seq_view_drawing(&p->view);
	draw_title_note(pane, win, w, d);
	if (!d || d->line_count == 0) {
		attr_t attr;
		const char *text = empty_text(pane, &attr);

		wattrset(win, attr);
		if (h > 1)
			tn_tui_draw_utf8(win, 1, x, text, w - x);
		wattrset(win, A_NORMAL);
		return;
	}
	/* The old page stays while the next one loads, dimmed. */
	if (p->page_job && p->progress)
		base = A_DIM;
	tn_seq_view_scroll(&p->view, 0, rows);
	for (size_t i = 0; i < header && 1 + (int) i < h; i++) {
		size_t line = header == 3 ? i : 1;

		if (line < d->header_lines)
			draw_line(pane, win, 1 + (int) i, x, w - x,
				&d->lines[line], base);
	}
	for (size_t i = 0; i < rows && 1 + (int) (header + i) < h; i++) {
		size_t line = d->header_lines + p->view.top + i;

		if (line >= d->line_count)
			break;
		draw_line(pane, win, 1 + (int) (header + i), x, w - x,
			&d->lines[line], base);
	}
}
