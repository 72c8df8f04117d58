/* layout.h - where the open panes, the status bar and the message line
 * go for a terminal size: a pure function, tested without a terminal.
 *
 *   +--------------------------------+-------------+
 *   | main pane (the event list)     | right panes |  stacked
 *   +--------------------------------+-------------+
 *   | bottom panes (stacked)                       |
 *   +----------------------------------------------+
 *   | status bar                                   |
 *   | message line / : prompt                      |
 *   +----------------------------------------------+
 *
 * Text views (detail, help) cover everything above the status bar.
 */
#ifndef TRACENAV_TUI_LAYOUT_H
#define TRACENAV_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/* Below this the screen shows only "terminal too small": a header, one
 * event row, the status bar and the message line need 4 lines. */
#define TN_LAYOUT_MIN_LINES 4
#define TN_LAYOUT_MIN_COLS 16

/* A rectangle of the screen; h == 0 means absent. */
struct tn_tui_rect {
	int y, x, h, w;
};

enum tn_pane_place {
	TN_PANE_MAIN,		/* the rest of the screen */
	TN_PANE_RIGHT,		/* a column at the right of the main pane */
	TN_PANE_BOTTOM,		/* rows below the main and right panes */
};

/* What the layout needs to know of an open pane. */
struct tn_layout_pane {
	enum tn_pane_place place;
	int min_cols, min_lines;	/* the least it is shown with; the
					 * MAIN pane keeps at least this */
	int share;		/* default size, percent of the screen's
				 * width (RIGHT) or height (BOTTOM) */
	int size;		/* the user's size in cells; 0: the share */
};

struct tn_layout {
	bool too_small;
	/* One a pane, in the order given (tn_tui_layout_compute() sizes
	 * it; tn_tui_layout_fini() frees it). */
	struct tn_tui_rect *panes;
	size_t pane_cap;
	struct tn_tui_rect status;	/* status bar */
	struct tn_tui_rect message;	/* message line and prompt */
	struct tn_tui_rect overlay;	/* text views */
};

/* Place count panes (the first one MAIN; any number) on a lines x cols
 * screen, into out (zeroed at first, then reused).  A pane that does
 * not fit while the main pane keeps its minimum gets an absent
 * rectangle (h == 0). */
void tn_tui_layout_compute(int lines, int cols,
		const struct tn_layout_pane *panes, size_t count,
		struct tn_layout *out);

/* Free what out holds. */
void tn_tui_layout_fini(struct tn_layout *out);

/* The size a side pane would take in cells (columns for RIGHT, lines for
 * BOTTOM): its size, or its share of total, and at least its minimum. */
int tn_tui_layout_pane_size(const struct tn_layout_pane *pane, int total);

#endif
