/* test-layout.c - where the panes go (src/tui/layout.c, a pure
 * function): 80x24 with and without panes, tiny terminals, minimum
 * sizes, a size the user chose, two panes sharing the right column. */
#include "tap.h"
#include "src/tui/layout.h"

static const struct tn_layout_pane list = { TN_PANE_MAIN, 40, 8, 100, 0 };
static const struct tn_layout_pane right = { TN_PANE_RIGHT, 20, 3, 33, 0 };
static const struct tn_layout_pane bottom = { TN_PANE_BOTTOM, 20, 3, 33,
	0 };

static bool rect_is(struct tn_tui_rect r, int y, int x, int h, int w)
{
	bool same = r.y == y && r.x == x && r.h == h && r.w == w;

	if (!same)
		printf("#   got { %d, %d, %d, %d }, want { %d, %d, %d, %d }\n",
			r.y, r.x, r.h, r.w, y, x, h, w);
	return same;
}

int main(void)
{
	struct tn_layout_pane panes[4] = { list, right, bottom };
	struct tn_layout out = { 0 };

	tn_tui_layout_compute(24, 80, panes, 1, &out);
	tap_ok(!out.too_small, "80x24: not too small");
	tap_ok(rect_is(out.panes[0], 0, 0, 22, 80), "80x24: the list alone "
		"takes all but two lines");
	tap_ok(rect_is(out.status, 22, 0, 1, 80), "80x24: status on line 23");
	tap_ok(rect_is(out.message, 23, 0, 1, 80), "80x24: message on line 24");
	tap_ok(rect_is(out.overlay, 0, 0, 22, 80), "80x24: text views cover "
		"the panes");

	tn_tui_layout_compute(24, 80, panes, 3, &out);
	tap_ok(rect_is(out.panes[2], 15, 0, 7, 80), "80x24: the bottom pane "
		"takes a third of 22 lines, full width");
	tap_ok(rect_is(out.panes[1], 0, 54, 15, 26), "80x24: the right pane "
		"takes a third of the width, above the bottom pane");
	tap_ok(rect_is(out.panes[0], 0, 0, 15, 54), "80x24: the list keeps "
		"the rest");

	tn_tui_layout_compute(5, 20, panes, 3, &out);
	tap_ok(!out.too_small, "20x5: still drawn");
	tap_ok(rect_is(out.panes[0], 0, 0, 3, 20), "20x5: the list takes the "
		"3 lines above the status bar");
	tap_ok(out.panes[1].h == 0 && out.panes[2].h == 0,
		"20x5: no room for the other panes");
	tn_tui_layout_compute(3, 12, panes, 3, &out);
	tap_ok(out.too_small, "12x3: too small");
	tn_tui_layout_compute(24, 15, panes, 1, &out);
	tap_ok(out.too_small, "15 columns: too small");

	/* The right pane needs 20 columns and the list keeps 40. */
	tn_tui_layout_compute(24, 59, panes, 2, &out);
	tap_ok(out.panes[1].h == 0 && out.panes[0].w == 59,
		"59 columns: no right pane");
	tn_tui_layout_compute(24, 60, panes, 2, &out);
	tap_ok(rect_is(out.panes[1], 0, 40, 22, 20), "60 columns: a right "
		"pane of its minimum 20 columns");
	/* The bottom pane needs the list to keep 8 lines. */
	tn_tui_layout_compute(12, 80, panes, 3, &out);
	tap_ok(out.panes[2].h == 0, "12 lines: no bottom pane (the list "
		"would keep 7)");
	tn_tui_layout_compute(13, 80, panes, 3, &out);
	tap_ok(rect_is(out.panes[2], 8, 0, 3, 80), "13 lines: a bottom pane "
		"of its minimum 3 lines");

	/* A size chosen by the user, in cells. */
	panes[1].size = 30;
	tn_tui_layout_compute(24, 80, panes, 2, &out);
	tap_ok(rect_is(out.panes[1], 0, 50, 22, 30), "a right pane of 30 "
		"columns as asked");
	panes[1].size = 50;
	tn_tui_layout_compute(24, 80, panes, 2, &out);
	tap_ok(out.panes[1].h == 0, "a right pane of 50 columns does not "
		"fit beside a 40-column list");
	panes[1].size = 0;

	/* Two right panes share the column, one above the other. */
	panes[2] = right;
	panes[2].size = 24;
	tn_tui_layout_compute(24, 80, panes, 3, &out);
	tap_ok(rect_is(out.panes[1], 0, 54, 11, 26) &&
		rect_is(out.panes[2], 11, 54, 11, 26),
		"two right panes: 11 lines each, as wide as the widest");
	tap_int_eq(tn_tui_layout_pane_size(&right, 80), 26,
		"pane size: a third of 80");
	tap_int_eq(tn_tui_layout_pane_size(&right, 30), 20,
		"pane size: at least its minimum");
	tn_tui_layout_fini(&out);
	return tap_done();
}
