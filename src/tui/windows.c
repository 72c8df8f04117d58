/* windows.c - the curses windows of the panes, the status bar, the
 * message line and the overlay, made for the terminal's size and the
 * open panes (the layout: layout.c). */
#include "tui-private.h"

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

void tn_tui_drop_windows(struct tn_tui *tui)
{
	for (size_t i = 0; i < tui->panes.count; i++)
		drop_window(&tui->panes.panes[i].win);
	drop_window(&tui->status_win);
	drop_window(&tui->message_win);
	drop_window(&tui->overlay_win);
}

void tn_tui_place_windows(struct tn_tui *tui)
{
	struct tn_layout_pane *request = g_new(struct tn_layout_pane,
		MAX(tui->panes.count, 1));
	size_t *index = g_new(size_t, MAX(tui->panes.count, 1));
	size_t count = 0;
	int lines, cols;

	getmaxyx(stdscr, lines, cols);
	tn_tui_drop_windows(tui);
	for (size_t i = 0; i < tui->panes.count; i++) {
		struct tn_pane *pane = &tui->panes.panes[i];

		pane->rect = (struct tn_tui_rect) { 0 };
		if (!pane->open)
			continue;
		request[count] = pane->cls->layout;
		request[count].size = pane->size;
		index[count++] = i;
	}
	tn_tui_layout_compute(lines, cols, request, count, &tui->layout);
	if (!tui->layout.too_small) {
		for (size_t k = 0; k < count; k++) {
			struct tn_pane *pane = &tui->panes.panes[index[k]];

			pane->rect = tui->layout.panes[k];
			pane->win = make_window(&pane->rect);
			pane->dirty = true;
		}
		/* Scrolling the list by a line can then be sent as a line
		 * insert or delete, not a redrawn screen (slow links). */
		if (tn_panes_main(&tui->panes)->win)
			idlok(tn_panes_main(&tui->panes)->win, TRUE);
		tui->status_win = make_window(&tui->layout.status);
		tui->message_win = make_window(&tui->layout.message);
		tui->overlay_win = make_window(&tui->layout.overlay);
	}
	/* Start from a blank screen: nothing of the old layout may stay. */
	werase(stdscr);
	wnoutrefresh(stdscr);
	tui->dirty = TN_TUI_DIRTY_ALL;
	g_free(request);
	g_free(index);
}
