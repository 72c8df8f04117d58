/* pane-seq.c - the sequence diagram pane: the messages between
 * lifelines around the cursor.  Until the sequence-diagram model exists
 * it says what it will show. */
#include "pane.h"
#include "tui-private.h"

static const char *const text[] = {
	"The messages between lifelines around the cursor will be drawn here",
	"as a sequence diagram (not built yet).",
	NULL,
};

static void draw_seq(struct tn_pane *pane, WINDOW *win)
{
	tn_pane_draw_lines(pane, win, text);
}

const struct tn_pane_class tn_pane_seq = {
	.name = "seq",
	.title = "Sequence diagram",
	.toggle_key = 'd',
	.toggle_help = "show or hide the sequence diagram pane",
	.layout = { TN_PANE_BOTTOM, 20, 3, 33, 0 },
	.draw = draw_seq,
};
