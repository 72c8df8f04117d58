/* state-draw.c - drawing the state tree pane: a status line (the event
 * the state is at, or that it is being computed), the tree's rows
 * (folds, labels, values, and on a wide pane since when each value
 * holds and for how long), and a footer about the selected attribute:
 * its path and value, since when, until when.
 *
 * A thread that runs on a CPU is marked with a * and drawn bold, as is
 * each CPU's row, which names the thread it runs. */
#include <string.h>

#include "tracenav/time.h"
#include "draw.h"
#include "state-pane.h"
#include "text.h"

/* Lines of the footer (a rule, then three lines), shown in a pane of
 * at least FOOTER_MIN_LINES. */
#define FOOTER_LINES 4
#define FOOTER_MIN_LINES 12
/* The since and duration columns, in a pane at least this wide. */
#define TIMES_MIN_COLS 64
#define SINCE_COLS 18		/* HH:MM:SS.NNNNNNNNN */
#define DURATION_COLS 10	/* "> 123.4 ms" */
#define LABEL_MIN_COLS 8

static int footer_lines(int h)
{
	return h >= FOOTER_MIN_LINES ? FOOTER_LINES : 0;
}

int tn_state_pane_tree_lines(const struct tn_pane *pane)
{
	int h = pane->rect.h;

	return MAX(h - 2 - footer_lines(h), 0);
}

static int columns(const char *s)
{
	GArray *tmp = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int w = tn_tui_text_decode(tmp, s, -1, -1);

	g_array_free(tmp, TRUE);
	return w;
}

static void append_time(GString *out, const struct tn_pane *pane,
		int64_t ns)
{
	tn_time_format_wall(out, ns, pane->host->session->view.gmt, false);
}

/* "1.50 ms", "> 2.00 ms" when the end is beyond what was read, or "". */
static void append_duration(GString *out, const struct tn_state_entry *e)
{
	if (!e->start.has_pos)
		return;
	if (e->has_end) {
		tn_state_tree_append_duration(out, e->end.ns - e->start.ns);
	} else if (e->end_after.has_pos) {
		g_string_append(out, "> ");
		tn_state_tree_append_duration(out,
			e->end_after.ns - e->start.ns);
	}
}

/* ---- the title and the status line ---- */

/* What a long query does ("replaying 1.2M"), at the title's right. */
static void draw_activity(struct tn_pane *pane, WINDOW *win, int w)
{
	const struct state_view *v = pane->data;
	int cols, title;

	if (!v->progress_activity)
		return;
	cols = columns(v->progress_activity);
	title = columns(pane->cls->title) + 12;	/* " Title (s hides)" */
	if (w - cols - 1 < title)
		return;
	/* The title bar's colours, as the frame drew them. */
	wattrset(win, tn_pane_attr(pane,
		tn_pane_is_focused(pane) ?
		TN_TUI_COLOR_FOCUS : TN_TUI_COLOR_PANE));
	tn_tui_draw_utf8(win, 0, w - cols - 1, v->progress_activity, cols);
	wattrset(win, A_NORMAL);
}

static void draw_status(struct tn_pane *pane, WINDOW *win, int x, int w)
{
	const struct state_view *v = pane->data;
	const struct state_spot *spot = pane->cache;
	GString *text = g_string_new(NULL);
	attr_t attr = A_NORMAL;

	if (v->progress_text) {
		g_string_assign(text, v->progress_text);
		attr = tn_pane_attr(pane, TN_TUI_COLOR_NOTICE);
	} else if (v->error && v->has_tried && spot &&
		   !tn_position_compare(&v->tried, &spot->pos)) {
		g_string_assign(text, v->error);
		attr = tn_pane_attr(pane, TN_TUI_COLOR_ERROR);
	} else if (v->result) {
		g_string_append(text, "at ");
		append_time(text, pane, v->result->pos.ns);
		if (v->result->providers && v->result->providers[0])
			g_string_append_printf(text, "  (%s)",
				v->result->providers);
		attr = A_BOLD;
	} else if (spot && !spot->has_event) {
		g_string_assign(text, "(no event: no state)");
	} else {
		g_string_assign(text, "computing state...");
		attr = tn_pane_attr(pane, TN_TUI_COLOR_NOTICE);
	}
	wattrset(win, attr);
	tn_tui_draw_utf8(win, 1, x, text->str, w);
	wattrset(win, A_NORMAL);
	g_string_free(text, TRUE);
}

/* ---- the rows ---- */

struct layout {
	int x, w;		/* the pane's text */
	int label_w;		/* marker, indent, fold and label */
	int value_x, value_w;
	int since_x, duration_x;	/* 0: not shown */
};

static void plan(const struct tn_pane *pane, int x, int w,
		struct layout *l)
{
	const struct state_view *v = pane->data;
	int lines = tn_state_pane_tree_lines(pane);
	int widest = LABEL_MIN_COLS;
	bool times = w >= TIMES_MIN_COLS;
	int rest;

	/* The widest label shown, leaving the values a third of the width
	 * (up to 12 columns). */
	for (int i = 0; i < lines && v->top + i < (int) v->rows->len; i++) {
		const struct tn_state_tree_row *row = &g_array_index(v->rows,
			struct tn_state_tree_row, v->top + i);

		widest = MAX(widest, 1 + 2 * row->depth + 2 + columns(
			tn_state_tree_get_label(v->tree, row->entry)));
	}
	*l = (struct layout) { x, w, 0, 0, 0, 0, 0 };
	rest = times ? w - SINCE_COLS - DURATION_COLS - 2 : w;
	l->label_w = MIN(widest, rest - MIN(12, rest / 3));
	l->value_x = x + l->label_w + 1;
	l->value_w = MAX(rest - l->label_w - 1, 0);
	if (times) {
		l->since_x = l->value_x + l->value_w + 1;
		l->duration_x = l->since_x + SINCE_COLS + 1;
	}
}

static bool matches(const struct state_view *v, size_t entry)
{
	return v->matcher && (tn_regex_matches(v->matcher,
		tn_state_tree_get_label(v->tree, entry)) ||
		tn_regex_matches(v->matcher,
			tn_state_tree_get_value(v->tree, entry)));
}

static void draw_row(struct tn_pane *pane, WINDOW *win, int y,
		const struct layout *l, long index, attr_t base)
{
	const struct state_view *v = pane->data;
	const struct tn_state_tree_row *row = &g_array_index(v->rows,
		struct tn_state_tree_row, index);
	const struct tn_state_entry *e = tn_state_tree_borrow_entry(v->tree,
		row->entry);
	bool running = tn_state_tree_get_running_on(v->tree, row->entry) >= 0;
	bool cpu = e->depth == 1 && e->parent != TN_STATE_ROOT &&
		g_str_has_prefix(e->path, "CPUs/");
	GString *text = g_string_new(NULL);
	int indent = 2 * row->depth, label_x;

	if (index == v->selected)
		base |= tn_pane_is_focused(pane) ? A_REVERSE :
			A_BOLD | A_UNDERLINE;
	if (running || cpu)
		base |= A_BOLD;
	/* The marker, the indent and the fold. */
	g_string_append(text, running ? "*" : " ");
	g_string_append_printf(text, "%*s%s", indent, "", !row->has_children ?
		"  " : row->open ? "- " : "+ ");
	wattrset(win, base);
	tn_tui_draw_utf8(win, y, l->x, text->str, MIN(l->label_w, l->w));
	if (running)
		mvwchgat(win, y, l->x, 1, (base | tn_pane_attr(pane,
			TN_TUI_COLOR_NOTICE)) & ~A_COLOR, (short) PAIR_NUMBER(
			tn_pane_attr(pane, TN_TUI_COLOR_NOTICE)), NULL);
	label_x = l->x + 1 + indent + 2;
	if (label_x < l->x + l->label_w) {
		attr_t attr = matches(v, row->entry) ? base | tn_pane_attr(pane,
			TN_TUI_COLOR_MATCH) : base;

		wattrset(win, attr);
		g_string_assign(text, tn_state_tree_get_label(v->tree,
			row->entry));
		tn_tui_draw_utf8(win, y, label_x, text->str,
			l->x + l->label_w - label_x);
	}
	wattrset(win, base);
	if (l->label_w < l->w)
		tn_tui_draw_utf8(win, y, l->x + l->label_w, " ", 1);
	if (l->value_w > 0) {
		/* A folded node shows its status beside its label. */
		const char *value = row->has_children && !row->open ?
			tn_state_tree_get_summary(v->tree, row->entry) :
			tn_state_tree_get_value(v->tree, row->entry);

		tn_tui_draw_utf8(win, y, l->value_x, value, l->value_w);
	}
	if (l->since_x) {
		g_string_truncate(text, 0);
		if (e->start.has_pos)
			append_time(text, pane, e->start.ns);
		tn_tui_draw_utf8(win, y, l->since_x - 1, "", 1);
		tn_tui_draw_utf8(win, y, l->since_x, text->str, SINCE_COLS);
		g_string_truncate(text, 0);
		append_duration(text, e);
		tn_tui_draw_utf8(win, y, l->duration_x - 1, "", 1);
		tn_tui_draw_utf8(win, y, l->duration_x, text->str,
			l->x + l->w - l->duration_x);
	}
	wattrset(win, A_NORMAL);
	g_string_free(text, TRUE);
}

static void draw_rows(struct tn_pane *pane, WINDOW *win, int x, int w)
{
	const struct state_view *v = pane->data;
	int lines = tn_state_pane_tree_lines(pane);
	/* An old tree shows dimmed while the new one is computed. */
	attr_t base = v->progress_text ? A_DIM : A_NORMAL;
	struct layout l;

	if (!v->result)
		return;
	if (!v->rows->len) {
		tn_tui_draw_utf8(win, 2, x, v->result->providers &&
			v->result->providers[0] ? "(no attribute has a value "
			"yet)" : "(no state: no provider knows this trace's "
			"events)", w);
		return;
	}
	plan(pane, x, w, &l);
	if (l.since_x && lines > 0 && !v->progress_text) {
		/* The times' titles, over the status line's end. */
		wattrset(win, A_DIM);
		tn_tui_draw_utf8(win, 1, l.since_x, "since", SINCE_COLS);
		tn_tui_draw_utf8(win, 1, l.duration_x, "for",
			x + w - l.duration_x);
		wattrset(win, A_NORMAL);
	}
	for (int i = 0; i < lines && v->top + i < (int) v->rows->len; i++)
		draw_row(pane, win, 2 + i, &l, v->top + i, base);
}

/* ---- the footer: the selected attribute ---- */

static void draw_footer(struct tn_pane *pane, WINDOW *win, int x, int w,
		int y)
{
	const struct state_view *v = pane->data;
	const struct tn_state_tree_row *row;
	const struct tn_state_entry *e;
	GString *text = g_string_new(NULL);
	long running;

	if (!v->result || v->selected < 0 ||
	    v->selected >= (long) v->rows->len) {
		g_string_free(text, TRUE);
		return;
	}
	row = &g_array_index(v->rows, struct tn_state_tree_row, v->selected);
	e = tn_state_tree_borrow_entry(v->tree, row->entry);
	mvwhline(win, y, x, '-', w);
	g_string_printf(text, "%s = ", e->path);
	tn_state_value_append(text, &e->value);
	running = tn_state_tree_get_running_on(v->tree, row->entry);
	if (running >= 0)
		g_string_append_printf(text, "  (runs on CPU %ld)", running);
	wattrset(win, A_BOLD);
	tn_tui_draw_utf8(win, y + 1, x, text->str, w);
	wattrset(win, A_NORMAL);
	g_string_assign(text, "since ");
	if (e->start.has_pos) {
		append_time(text, pane, e->start.ns);
		g_string_append(text, "  [ goes there");
	} else {
		g_string_append(text, "before the first event");
	}
	tn_tui_draw_utf8(win, y + 2, x, text->str, w);
	g_string_assign(text, "");
	if (e->has_end) {
		g_string_append(text, "until ");
		append_time(text, pane, e->end.ns);
		g_string_append(text, ", for ");
		append_duration(text, e);
		g_string_append(text, "  ] goes there");
	} else if (e->end_after.has_pos) {
		g_string_append(text, "until after ");
		append_time(text, pane, e->end_after.ns);
		if (e->start.has_pos) {
			g_string_append(text, ", for ");
			append_duration(text, e);
		}
		g_string_append(text, "  ] looks further");
	} else {
		g_string_append(text, "until: ] looks");
	}
	tn_tui_draw_utf8(win, y + 3, x, text->str, w);
	g_string_free(text, TRUE);
}

void tn_state_pane_draw(struct tn_pane *pane, WINDOW *win)
{
	int h, w, x, footer;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	draw_activity(pane, win, w);
	if (h < 2)
		return;
	draw_status(pane, win, x, w - x);
	draw_rows(pane, win, x, w - x);
	footer = footer_lines(h);
	if (footer)
		draw_footer(pane, win, x, w - x, h - footer);
}
