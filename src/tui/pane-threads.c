/* pane-threads.c - the threads pane: a row per thread, its state over
 * time (timeline-pane.h). */
#include "timeline-pane.h"

static void threads_init(struct tn_pane *pane)
{
	tn_timeline_pane_init(pane, TN_TIMELINE_THREADS);
}

static void *threads_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view)
{
	return tn_timeline_pane_cursor_moved(old_cache, view,
		TN_TIMELINE_THREADS);
}

const struct tn_pane_class tn_pane_threads = {
	.name = "threads",
	.title = "Threads: U user S syscall I interrupted W wait CPU "
		"B blocked",
	.toggle_key = 'T',
	.toggle_help = "show or hide the threads pane: a row per thread, "
		"its state over the range (or the whole trace), a letter a "
		"column",
	.layout = { TN_PANE_BOTTOM, 30, 4, 40, 0 },
	.keymap = &tn_timeline_pane_keys,
	.init = threads_init,
	.destroy = tn_timeline_pane_destroy,
	.cursor_moved = threads_cursor_moved,
	.cache_free = tn_timeline_pane_cache_free,
	.draw = tn_timeline_pane_draw,
	.key = tn_timeline_pane_key,
	.mouse = tn_timeline_pane_mouse,
	.prompt_done = tn_timeline_pane_prompt_done,
	.poll = tn_timeline_pane_poll,
	.cancel = tn_timeline_pane_cancel,
};
