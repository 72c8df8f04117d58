/* layout.c - where the open panes go for a terminal size (see layout.h):
 * a pure function of the sizes, with no ncurses. */
#include <glib.h>
#include <string.h>

#include "layout.h"

int tn_tui_layout_pane_size(const struct tn_layout_pane *pane, int total)
{
	int min = pane->place == TN_PANE_RIGHT ? pane->min_cols :
		pane->min_lines;
	int size = pane->size > 0 ? pane->size : total * pane->share / 100;

	return size < min ? min : size;
}

void tn_tui_layout_compute(int lines, int cols,
		const struct tn_layout_pane *panes, size_t count,
		struct tn_layout *out)
{
	const struct tn_layout_pane *main_pane = &panes[0];
	int *heights;
	size_t *right;
	size_t right_count = 0;
	int area, main_h, right_w = 0, y;
	struct tn_tui_rect *rects = out->panes;
	size_t cap = out->pane_cap;

	if (count > cap) {
		cap = count;
		rects = g_renew(struct tn_tui_rect, rects, cap);
	}
	memset(out, 0, sizeof(*out));
	out->panes = rects;
	out->pane_cap = cap;
	if (cap)
		memset(rects, 0, cap * sizeof(*rects));
	if (lines < TN_LAYOUT_MIN_LINES || cols < TN_LAYOUT_MIN_COLS ||
	    count == 0) {
		out->too_small = true;
		return;
	}
	heights = g_new0(int, count);
	right = g_new(size_t, count);
	out->message = (struct tn_tui_rect) { lines - 1, 0, 1, cols };
	out->status = (struct tn_tui_rect) { lines - 2, 0, 1, cols };
	area = lines - 2;
	out->overlay = (struct tn_tui_rect) { 0, 0, area, cols };

	/* Bottom panes, in order, while the main pane keeps its lines. */
	main_h = area;
	for (size_t i = 1; i < count; i++) {
		int h;

		if (panes[i].place != TN_PANE_BOTTOM)
			continue;
		h = tn_tui_layout_pane_size(&panes[i], area);
		if (main_h - h < main_pane->min_lines)
			continue;
		heights[i] = h;
		main_h -= h;
	}
	/* Right panes share one column, as wide as the widest. */
	for (size_t i = 1; i < count; i++) {
		int w;

		if (panes[i].place != TN_PANE_RIGHT)
			continue;
		w = tn_tui_layout_pane_size(&panes[i], cols);
		if (cols - (w > right_w ? w : right_w) < main_pane->min_cols ||
		    (int) right_count + 1 > main_h)
			continue;
		if (w > right_w)
			right_w = w;
		right[right_count++] = i;
	}
	out->panes[0] = (struct tn_tui_rect) { 0, 0, main_h, cols - right_w };
	for (size_t k = 0, top = 0; k < right_count; k++) {
		/* Equal shares of the main pane's height, the first ones
		 * taking the lines left over. */
		int h = main_h / (int) right_count +
			((int) k < main_h % (int) right_count ? 1 : 0);

		out->panes[right[k]] = (struct tn_tui_rect) { (int) top,
			cols - right_w, h, right_w };
		top += (size_t) h;
	}
	y = main_h;
	for (size_t i = 1; i < count; i++) {
		if (!heights[i])
			continue;
		out->panes[i] = (struct tn_tui_rect) { y, 0, heights[i], cols };
		y += heights[i];
	}
	g_free(heights);
	g_free(right);
}

void tn_tui_layout_fini(struct tn_layout *out)
{
	g_free(out->panes);
	out->panes = NULL;
	out->pane_cap = 0;
}
