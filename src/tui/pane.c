/* pane.c - what every pane class shares (see pane.h): its cache
 * replaced, its frame and lines drawn, a move of the list asked for.
 * Below the pane classes; the registry and the focus are panes.c. */
#include <inttypes.h>
#include <stdio.h>

#include "draw.h"
#include "pane.h"

void tn_pane_set_cache(struct tn_pane *pane, void *cache)
{
	if (pane->cache && pane->cls->cache_free)
		pane->cls->cache_free(pane->cache);
	pane->cache = cache;
	pane->dirty = true;
}

int tn_pane_draw_frame(struct tn_pane *pane, WINDOW *win)
{
	bool focused = tn_pane_is_focused(pane);
	char *title;
	int h, w;

	getmaxyx(win, h, w);
	if (pane->cls->toggle_key)
		title = g_strdup_printf(" %s (%c hides)", pane->cls->title,
			pane->cls->toggle_key);
	else
		title = g_strdup_printf(" %s", pane->cls->title);
	wattrset(win, tn_pane_attr(pane, focused ? TN_TUI_COLOR_FOCUS :
		TN_TUI_COLOR_PANE));
	tn_tui_draw_utf8(win, 0, 0, title, w);
	wattrset(win, A_NORMAL);
	g_free(title);
	if (pane->rect.x > 0 && h > 1) {
		mvwvline(win, 1, 0, '|', h - 1);
		return 2;
	}
	return 1;
}

void tn_pane_draw_lines(struct tn_pane *pane, WINDOW *win,
		const char *const *lines)
{
	int h, w, x;

	getmaxyx(win, h, w);
	werase(win);
	x = tn_pane_draw_frame(pane, win);
	for (int i = 0; lines[i] && i + 2 < h; i++)
		tn_tui_draw_utf8(win, i + 2, x, lines[i], w - x);
}

void tn_pane_goto_position(struct tn_pane *pane, const struct tn_position *pos)
{
	char line[96];

	snprintf(line, sizeof(line), "goto @%" PRId64 ":%" PRIu64, pos->ns,
		pos->tie);
	tn_pane_run_line(pane, line, TN_TUI_FOLLOW_BY_COMMAND);
}

bool tn_pane_get_status(const struct tn_pane *pane,
		struct tn_pane_status *status)
{
	return pane->cls->status && pane->cls->status(pane, status);
}

int tn_pane_body_rows(const struct tn_pane *pane)
{
	return pane->win && pane->rect.h > 1 ? pane->rect.h - 1 : 0;
}
