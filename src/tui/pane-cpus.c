/* pane-cpus.c - the CPUs pane: a row per CPU, what it did over time
 * (timeline-pane.h). */
#include "timeline-pane.h"

static void cpus_init(struct tn_pane *pane)
{
	tn_timeline_pane_init(pane, TN_TIMELINE_CPUS);
}

static void *cpus_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	return tn_timeline_pane_cursor_moved(old_cache, view,
		TN_TIMELINE_CPUS);
}

const struct tn_pane_class tn_pane_cpus = {
	.name = "cpus",
	.title = "CPUs: R busy I irq S softirq - idle; lines: I S run, W raised",
	.toggle_key = 'C',
	.toggle_help = "show or hide the CPUs pane: a row per CPU, what it "
		"did over the range (or the whole trace), a letter a column; "
		"then a row per irq and softirq vector, when it ran",
	.layout = { TN_PANE_BOTTOM, 20, 3, 25, 0 },
	.keymap = &tn_timeline_pane_keys,
	.init = cpus_init,
	.destroy = tn_timeline_pane_destroy,
	.cursor_moved = cpus_cursor_moved,
	.cache_free = tn_timeline_pane_cache_free,
	.draw = tn_timeline_pane_draw,
	.key = tn_timeline_pane_key,
	.mouse = tn_timeline_pane_mouse,
	.prompt_done = tn_timeline_pane_prompt_done,
	.poll = tn_timeline_pane_poll,
	.cancel = tn_timeline_pane_cancel,
};
