/* rows.h - a selection in a pane's list of rows (the statistics and the
 * analysis panes): which row is selected, which one is at the top, and
 * the moves of the keys j k PgDn PgUp g G, of the wheel and of a click. */
#ifndef TRACENAV_TUI_ROWS_H
#define TRACENAV_TUI_ROWS_H

#include <stdbool.h>

struct tn_tui_rows {
	long selected;		/* 0-based */
	long top;		/* the first row shown */
};

enum tn_tui_rows_move {
	TN_ROWS_DOWN = 1,
	TN_ROWS_UP,
	TN_ROWS_PAGE_DOWN,
	TN_ROWS_PAGE_UP,
	TN_ROWS_FIRST,
	TN_ROWS_LAST,
};

/* Select row (clamped to the count rows), scrolling so that it is among
 * the lines shown. */
void tn_tui_rows_select(struct tn_tui_rows *rows, long row, long count,
		int lines);

/* Move the selection (n times for DOWN and UP).  False for a move that
 * is not one of enum tn_tui_rows_move. */
bool tn_tui_rows_move(struct tn_tui_rows *rows, int move, long n, long count,
		int lines);

/* The wheel (wheel != 0: that many rows) or a click on line y of the
 * rows (0: the first one shown). */
void tn_tui_rows_mouse(struct tn_tui_rows *rows, int y, int wheel, long count,
		int lines);

#endif
