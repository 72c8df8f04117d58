/* timeline-pane.h - what the two timeline panes share (the threads pane,
 * pane-threads.c, and the CPUs pane, pane-cpus.c): a row per thread or
 * CPU, a column per equal bucket of the span shown (the range or the
 * whole trace, or the zoom of timeline-zoom), a letter per cell for the
 * state that took most of it (timeline.h), the list's current event a
 * line across the rows.
 *
 * The list's job only notes the span wanted (cursor_moved); the grid is
 * made by a job of the pane's own (timeline-job.h) when the span, the
 * index or the pane's width changed, which the input loop polls: a
 * replay of a narrow span never holds up the list.  Meanwhile the last
 * grid stays shown, the summary saying that another is being made; Esc
 * stops it.  A move only moves the line.
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
bool tn_timeline_pane_poll(struct tn_pane *pane);
bool tn_timeline_pane_cancel(struct tn_pane *pane);

/* The keys of both panes. */
extern const struct tn_tui_keymap tn_timeline_pane_keys;

#endif
