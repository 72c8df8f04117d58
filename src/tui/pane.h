/* pane.h - the interface every pane implements, and the registry.
 *
 * A pane (the event list, the state tree, the sequence diagram, ...) is
 * one file that defines one struct tn_pane_class, and one line in the
 * registry (panes.c).  The layout places the open panes from their
 * class's place and sizes without knowing what they are; Tab moves the
 * focus among them and the focused pane gets keys first.
 *
 * What a pane shows is computed when the cursor moved, by cursor_moved,
 * on the thread that owns the session at that time (a background job's:
 * it may read the trace), into a new cache that replaces the pane's once
 * the job ended.  draw reads only that cache and the pane's own state:
 * drawing never reads the trace.
 */
#ifndef TRACENAV_TUI_PANE_H
#define TRACENAV_TUI_PANE_H

#include <curses.h>
#include <stdbool.h>

#include "../session.h"
#include "tracenav/cursor.h"
#include "keys.h"
#include "layout.h"
#include "pane-host.h"

struct tn_pane;

/* What cursor_moved works from: a copy made before the job started, so
 * that the front end may change its own state meanwhile. */
struct tn_pane_view {
	struct tn_session *session;	/* the cursor and the index */
	bool may_read;		/* false: only what the cursor holds already
				 * (after a cancel), never the trace */
	int lines, cols;	/* the pane's size */
	enum tn_tui_follow follow;
	/* How long it may read before it shows what it has and says the
	 * rest is to come (0: no limit); the list's (list-rows.c). */
	gint64 read_budget_us;
};

/* The read budget of the views the event list's jobs compute: a screen
 * shows within about this (plus one read), its rows coming in after. */
#define TN_PANE_READ_BUDGET_US 60000

/* What a pane publishes of itself for the shell (its class's status):
 * the main pane's (the event list's) current event, its screen rows,
 * its span; the status bar, the prompt and the job runner read it. */
struct tn_pane_status {
	int top;			/* screen row of the current event */
	int shown;			/* event rows shown */
	bool has_current_ns;
	int64_t current_ns;
	bool has_current_pos;		/* the current row's position */
	struct tn_position current_pos;
	bool has_rank;
	uint64_t rank;
	const char *error;		/* a read error, or NULL */
	bool incomplete;		/* rows to read still (list.h) */
	const char *current_time;	/* as goto takes it, or NULL */
	bool has_span, span_exact;	/* see tn_cursor_get_time_span() */
	int64_t span_begin, span_end;
	bool span_pending;		/* see tn_cursor_peek_time_span() */
	/* The times of the first and last events on the screen. */
	bool has_shown_span;
	int64_t shown_begin_ns, shown_end_ns;
};

struct tn_pane_class {
	const char *name;	/* "list", "state", "seq" */
	const char *title;	/* its title bar */
	int toggle_key;		/* shows and hides it; 0: always open */
	const char *toggle_help;
	struct tn_layout_pane layout;	/* where it goes (size: 0) */
	const struct tn_tui_keymap *keymap;	/* NULL: takes no keys */
	/* Commands with one of these flags (commands.h) show what they
	 * did in this pane: the event list opens it when it runs one. */
	unsigned shown_by;

	/* Set pane->data up; called once, when the TUI starts. */
	void (*init)(struct tn_pane *pane);
	void (*destroy)(struct tn_pane *pane);
	/* The new cache for the cursor where it is now (see above); must
	 * not touch the pane itself, only old_cache (the current cache,
	 * read-only, NULL at first) and view.  Returns a cache that
	 * cache_free frees. */
	void *(*cursor_moved)(const void *old_cache,
		const struct tn_pane_view *view);
	void (*cache_free)(void *cache);
	/* Draw into win (the pane's size) from pane->cache (NULL until the
	 * first cursor_moved) and pane->data. */
	void (*draw)(struct tn_pane *pane, WINDOW *win);
	/* Handle key; false when the pane does not take it. */
	bool (*key)(struct tn_pane *pane, const struct tn_tui_key *key);
	/* Optional: a click at (y, x) in the pane's window, or the wheel
	 * (wheel: lines, negative up; 0 for a click). */
	void (*mouse)(struct tn_pane *pane, int y, int x, int wheel);
	/* Optional: look, without waiting, at background work of the
	 * pane's own (a job it started itself, beside the command job),
	 * from the input loop, every turn, for every pane (open or not:
	 * a closed pane stops its work).  Returns true while such work
	 * runs, so that the loop looks again soon; marks the pane dirty
	 * when what it shows changed. */
	bool (*poll)(struct tn_pane *pane);
	/* Optional: the text typed at a prompt the pane opened with
	 * tn_tui_open_prompt_for_pane() (e.g. its own search). */
	void (*prompt_done)(struct tn_pane *pane, const char *text);
	/* Optional: Esc: stop the work of the pane's own that the user
	 * waits for (e.g. its find); true when there was some. */
	bool (*cancel)(struct tn_pane *pane);
	/* Optional: fill status from the pane's cache; false before the
	 * first cursor_moved. */
	bool (*status)(const struct tn_pane *pane,
		struct tn_pane_status *status);
};

struct tn_pane {
	const struct tn_pane_class *cls;
	const struct tn_pane_host *host;	/* the front end's */
	void *data;		/* the class's own state */
	void *cache;		/* what cursor_moved computed last */
	bool open;
	bool dirty;		/* to be drawn again */
	int size;		/* the user's size in cells; 0: the share */
	struct tn_tui_rect rect;	/* where the layout put it */
	WINDOW *win;		/* NULL when it did not fit */
};

/* The registry: every pane class, the event list first. */
const struct tn_pane_class *const *tn_pane_classes(size_t *count);

/* The panes of a TUI (panes.c). */
struct tn_panes {
	size_t count;
	struct tn_pane *panes;	/* count of them, one a class */
	size_t focus;		/* index of the focused pane */
};

void tn_panes_init(struct tn_panes *panes, const struct tn_pane_host *host);
void tn_panes_fini(struct tn_panes *panes);

/* The main pane (the event list). */
struct tn_pane *tn_panes_main(struct tn_panes *panes);

/* The pane whose class toggles with key, or NULL. */
struct tn_pane *tn_panes_find_toggle(struct tn_panes *panes, int key);

/* Show or hide pane (not the main pane); the focus leaves a closed pane. */
void tn_panes_toggle(struct tn_panes *panes, struct tn_pane *pane);

/* The focused pane, and moving the focus among the open panes that are
 * on screen (step 1: next, -1: previous). */
struct tn_pane *tn_panes_focused(struct tn_panes *panes);
void tn_panes_move_focus(struct tn_panes *panes, int step);

/* Poll every pane's own background work (the class's poll); true while
 * some pane's runs. */
bool tn_panes_poll(struct tn_panes *panes);

/* Esc: every pane's cancel; true when one stopped something. */
bool tn_panes_cancel(struct tn_panes *panes);

/* Move the list's cursor to the event at pos (a pane's selection: its
 * interval's start, a message's send), through the command queue as a
 * key would (goto @NS:TIE). */
void tn_pane_goto_position(struct tn_pane *pane, const struct tn_position *pos);

/* What pane publishes (its class's status); false when it publishes
 * nothing (yet). */
bool tn_pane_get_status(const struct tn_pane *pane,
		struct tn_pane_status *status);

/* The rows of pane's window below its header line (0 when it has no
 * window). */
int tn_pane_body_rows(const struct tn_pane *pane);

/* Replace pane's cache (freeing the old one) and mark it dirty. */
void tn_pane_set_cache(struct tn_pane *pane, void *cache);

/* Draw a pane's title bar on line 0 of its window ("Title (s hides)",
 * highlighted when focused) and, for a pane at the right, the line that
 * parts it from the list; returns the first column of its text. */
int tn_pane_draw_frame(struct tn_pane *pane, WINDOW *win);

/* Clear win, draw the frame, then lines (NULL-terminated) from line 2. */
void tn_pane_draw_lines(struct tn_pane *pane, WINDOW *win,
		const char *const *lines);

/* ---- what a pane asks of its host (pane-host.h) ---- */

static inline void tn_pane_run_line(struct tn_pane *pane, const char *line,
		enum tn_tui_follow follow)
{
	pane->host->ops->run_line(pane->host->tui, line, follow);
}

static inline void tn_pane_run_command(struct tn_pane *pane,
		const char *name, const struct tn_tui_key *key)
{
	pane->host->ops->run_command(pane->host->tui, name, key);
}

static inline void tn_pane_message(struct tn_pane *pane, bool is_error,
		const char *text)
{
	pane->host->ops->message(pane->host->tui, is_error, text);
}

static inline void tn_pane_open_prompt(struct tn_pane *pane, const char *text)
{
	pane->host->ops->open_prompt(pane->host->tui, text);
}

static inline void tn_pane_open_prompt_for(struct tn_pane *pane,
		const char *leader, const char *command, const char *empty_command)
{
	pane->host->ops->open_prompt_for(pane->host->tui, leader, command,
		empty_command);
}

/* The prompt for the pane itself (its class's prompt_done). */
static inline void tn_pane_open_own_prompt(struct tn_pane *pane,
		const char *leader, const char *word)
{
	pane->host->ops->open_prompt_for_pane(pane->host->tui, pane, leader,
		word);
}

static inline void tn_pane_copy(struct tn_pane *pane, const char *text)
{
	pane->host->ops->copy(pane->host->tui, text);
}

static inline bool tn_pane_selection(const struct tn_pane *pane,
		int64_t *begin_ns, int64_t *end_ns)
{
	return pane->host->ops->selection(pane->host->tui, begin_ns, end_ns);
}

static inline attr_t tn_pane_attr(const struct tn_pane *pane,
		enum tn_tui_color color)
{
	return pane->host->ops->attr(pane->host->tui, color);
}

static inline bool tn_pane_is_focused(const struct tn_pane *pane)
{
	return pane->host->ops->is_focused(pane->host->tui, pane);
}

static inline bool tn_pane_job_running(const struct tn_pane *pane)
{
	return pane->host->ops->job_running(pane->host->tui);
}

static inline bool tn_pane_command_running(const struct tn_pane *pane)
{
	return pane->host->ops->command_running(pane->host->tui);
}

static inline unsigned tn_pane_idle_serial(const struct tn_pane *pane)
{
	return pane->host->ops->idle_serial(pane->host->tui);
}

#endif
