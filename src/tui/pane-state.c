/* pane-state.c - the state tree pane: what each CPU, thread and IRQ was
 * doing at the cursor.  Until the state system exists it says what it
 * will show. */
#include "pane.h"
#include "tui-private.h"

static const char *const text[] = {
	"The system state at the cursor",
	"will be here: CPUs, processes",
	"and threads, IRQs, from the",
	"state system (not built yet).",
	NULL,
};

static void draw_state(struct tn_pane *pane, WINDOW *win)
{
	tn_pane_draw_lines(pane, win, text);
}

const struct tn_pane_class tn_pane_state = {
	.name = "state",
	.title = "State tree",
	.toggle_key = 's',
	.toggle_help = "show or hide the state tree pane",
	.layout = { TN_PANE_RIGHT, 20, 3, 33, 0 },
	.draw = draw_state,
};
