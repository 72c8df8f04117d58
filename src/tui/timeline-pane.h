/* timeline-pane.h - what the two timeline panes share (the threads pane,
 * pane-threads.c, and the CPUs pane, pane-cpus.c): a row per thread or
 * CPU, a column per equal bucket of the span shown (the range or the
 * whole trace, or the zoom of timeline-zoom), a letter per cell for the
 * state that took most of it (timeline.h), the list's current event a
 * line across the rows.
 *
 * The timeline is computed in the list's job (tn_timeline_run(), a
 * replay of the span) when the span, the index or the pane's width
 * changed; a move only moves the line.
 */
#ifndef TRACENAV_TUI_TIMELINE_PANE_H
#define TRACENAV_TUI_TIMELINE_PANE_H

#include "pane.h"
#include "tracenav/timeline.h"

/* The class hooks; kind says which pane. */
void tn_timeline_pane_init(struct tn_pane *pane, enum tn_timeline_kind kind);
void tn_timeline_pane_destroy(struct tn_pane *pane);
void *tn_timeline_pane_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view, enum tn_timeline_kind kind);
void tn_timeline_pane_cache_free(void *cache);
void tn_timeline_pane_draw(struct tn_pane *pane, WINDOW *win);
bool tn_timeline_pane_key(struct tn_pane *pane, const struct tn_tui_key *key);
void tn_timeline_pane_mouse(struct tn_pane *pane, int y, int x, int wheel);
void tn_timeline_pane_prompt_done(struct tn_pane *pane, const char *text);

/* The keys of both panes. */
extern const struct tn_tui_keymap tn_timeline_pane_keys;

#endif
