/* layout.c - where the panes go for a terminal size, and their windows.
 *
 *   +--------------------------------+-------------+
 *   | event list (header + rows)     | state tree  |  (s)
 *   +--------------------------------+-------------+
 *   | sequence diagram                             |  (d)
 *   +----------------------------------------------+
 *   | status bar                                   |
 *   | message line / : prompt                      |
 *   +----------------------------------------------+
 *
 * Text views (detail, help) cover everything above the status bar.
 */
#include "tui-private.h"

/* Below this the screen shows only "terminal too small": a header, one
 * event row, the status bar and the message line need 4 lines. */
#define MIN_LINES 4
#define MIN_COLS 16
/* A pane is only shown if the list keeps at least this much room. */
#define STATE_MIN_COLS 60
#define SEQ_MIN_LINES 12

void tn_tui_layout_compute(struct tn_tui_layout *layout, int lines,
		int cols, bool show_state, bool show_seq)
{
	int area;

	*layout = (struct tn_tui_layout) { 0 };
	if (lines < MIN_LINES || cols < MIN_COLS) {
		layout->too_small = true;
		return;
	}
	layout->message = (struct tn_tui_rect) { lines - 1, 0, 1, cols };
	layout->status = (struct tn_tui_rect) { lines - 2, 0, 1, cols };
	area = lines - 2;
	layout->overlay = (struct tn_tui_rect) { 0, 0, area, cols };
	if (show_seq && area >= SEQ_MIN_LINES) {
		int h = area / 3;

		layout->seq = (struct tn_tui_rect) { area - h, 0, h, cols };
		area -= h;
	}
	layout->list = (struct tn_tui_rect) { 0, 0, area, cols };
	if (show_state && cols >= STATE_MIN_COLS) {
		int w = cols / 3;

		layout->state = (struct tn_tui_rect) { 0, cols - w, area, w };
		layout->list.w -= w;
	}
}

static WINDOW *make_window(const struct tn_tui_rect *rect)
{
	WINDOW *win;

	/* newwin() takes a size of 0 to mean "up to the screen's edge". */
	if (rect->h <= 0 || rect->w <= 0)
		return NULL;
	win = newwin(rect->h, rect->w, rect->y, rect->x);
	if (win)
		leaveok(win, TRUE);
	return win;
}

static void drop_window(WINDOW **win)
{
	if (*win)
		delwin(*win);
	*win = NULL;
}

void tn_tui_layout_destroy(struct tn_tui *tui)
{
	drop_window(&tui->list_win);
	drop_window(&tui->state_win);
	drop_window(&tui->seq_win);
	drop_window(&tui->status_win);
	drop_window(&tui->message_win);
	drop_window(&tui->overlay_win);
}

void tn_tui_layout_apply(struct tn_tui *tui)
{
	int lines, cols;

	getmaxyx(stdscr, lines, cols);
	tn_tui_layout_destroy(tui);
	tn_tui_layout_compute(&tui->layout, lines, cols, tui->show_state,
		tui->show_seq);
	if (!tui->layout.too_small) {
		tui->list_win = make_window(&tui->layout.list);
		/* Scrolling the list by a line can then be sent as a line
		 * insert or delete, not a redrawn screen (slow links). */
		if (tui->list_win)
			idlok(tui->list_win, TRUE);
		tui->state_win = make_window(&tui->layout.state);
		tui->seq_win = make_window(&tui->layout.seq);
		tui->status_win = make_window(&tui->layout.status);
		tui->message_win = make_window(&tui->layout.message);
		tui->overlay_win = make_window(&tui->layout.overlay);
	}
	/* Start from a blank screen: nothing of the old layout may stay. */
	werase(stdscr);
	wnoutrefresh(stdscr);
	tui->dirty = TN_TUI_DIRTY_ALL;
}

int tn_tui_list_rows(const struct tn_tui *tui)
{
	if (tui->layout.too_small || tui->layout.list.h < 2)
		return 0;
	return tui->layout.list.h - 1;
}
