/* tui-private.h - the state of the full-screen UI, shared by the files
 * of src/tui (one job each: tui.c the loop, guard.c the terminal's
 * safety, layout.c the geometry, list.c the event list, status.c the
 * status and message lines, pager.c text views, prompt.c the ':' prompt,
 * help.c the help text; keys.c the key maps, text.c and draw.c safe,
 * width-aware text). */
#ifndef TRACENAV_TUI_PRIVATE_H
#define TRACENAV_TUI_PRIVATE_H

#include <curses.h>
#include <glib.h>
#include <stdbool.h>

#include "../session.h"
#include "tracenav/seek.h"
#include "keys.h"

/* A rectangle of the screen; h == 0 means absent. */
struct tn_tui_rect {
	int y, x, h, w;
};

/* Where each part goes, from the terminal's size and the panes shown. */
struct tn_tui_layout {
	bool too_small;
	struct tn_tui_rect list;	/* header line, then the rows */
	struct tn_tui_rect state;	/* state tree pane (right side) */
	struct tn_tui_rect seq;		/* sequence diagram pane (below) */
	struct tn_tui_rect status;	/* status bar */
	struct tn_tui_rect message;	/* message line and prompt */
	struct tn_tui_rect overlay;	/* text views: all above the status */
};

enum tn_tui_dirty {
	TN_TUI_DIRTY_LIST = 1 << 0,
	TN_TUI_DIRTY_PANES = 1 << 1,
	TN_TUI_DIRTY_STATUS = 1 << 2,
	TN_TUI_DIRTY_MESSAGE = 1 << 3,
	TN_TUI_DIRTY_OVERLAY = 1 << 4,
	TN_TUI_DIRTY_ALL = (1 << 5) - 1,
};

/* The list's columns, left to right; the last one takes the rest. */
enum tn_tui_column {
	TN_TUI_COL_TIME,
	TN_TUI_COL_DELTA,
	TN_TUI_COL_HOST,
	TN_TUI_COL_CPU,
	TN_TUI_COL_NAME,
	TN_TUI_COL_FIELDS,
	TN_TUI_COL_COUNT_
};

struct tn_tui_list {
	int hscroll;			/* columns scrolled off to the left */
	int widths[TN_TUI_COL_COUNT_];	/* grow with what was shown */
	/* The positions and screen rows of the events of the last
	 * drawing, top to bottom: where the cursor went after a command
	 * (tn_tui_list_follow), which row a click hit. */
	GArray *shown;
	int64_t current_ns;		/* time of the current row, for the */
	bool has_current_ns;		/* status bar */
	int longest;			/* columns of the longest line shown */
};

struct tn_tui_pager;
struct tn_tui_prompt;

enum tn_tui_color {
	TN_TUI_COLOR_HEADER = 1,
	TN_TUI_COLOR_STATUS,
	TN_TUI_COLOR_ERROR,
	TN_TUI_COLOR_NOTICE,
	TN_TUI_COLOR_PANE,
};

struct tn_tui {
	struct tn_session *session;
	SCREEN *screen;
	bool colors;
	struct tn_tui_layout layout;
	WINDOW *list_win, *state_win, *seq_win, *status_win, *message_win;
	WINDOW *overlay_win;
	unsigned dirty;
	bool show_state, show_seq;
	struct tn_tui_list list;
	GString *message;
	bool message_is_error;
	struct tn_tui_pager *pager;	/* the open text view, or NULL */
	struct tn_tui_prompt *prompt;
	/* TEXT output of the running command, shown in a pager after it. */
	GPtrArray *block;		/* char * */
	char *block_title;
	/* Digits typed before a key (a count, or NN before %). */
	bool has_count;
	long count;
};

/* guard.c: the terminal is restored whatever happens. */
/* Catch SIGINT, SIGTERM, SIGHUP (a flag) and crashes; before newterm(). */
void tn_tui_guard_begin(void);
/* Say whether the screen is set up (then stderr is captured until
 * tn_tui_guard_end(), and a crash calls endwin()). */
void tn_tui_guard_screen(bool up);
/* The signal that asked to stop, or 0. */
int tn_tui_guard_caught(void);
/* Give stderr back (with what was written on it) and the handlers. */
void tn_tui_guard_end(void);

/* tui.c */
/* The attributes of a kind of text (colours unless NO_COLOR). */
attr_t tn_tui_attr(const struct tn_tui *tui, enum tn_tui_color color);

/* layout.c */
void tn_tui_layout_compute(struct tn_tui_layout *layout, int lines,
		int cols, bool show_state, bool show_seq);
/* (Re)create the windows for the terminal's current size. */
void tn_tui_layout_apply(struct tn_tui *tui);
void tn_tui_layout_destroy(struct tn_tui *tui);
/* Rows of events the list shows (its height less the header). */
int tn_tui_list_rows(const struct tn_tui *tui);

/* list.c */
void tn_tui_list_init(struct tn_tui *tui);
void tn_tui_list_fini(struct tn_tui *tui);
void tn_tui_list_draw(struct tn_tui *tui);
/* How the view follows the cursor after a command moved it. */
enum tn_tui_follow {
	/* Line moves: the view only scrolls when the cursor leaves it, and
	 * then just enough (as in less and vim). */
	TN_TUI_FOLLOW_SCROLL,
	/* Page moves and the wheel: the cursor keeps its screen row. */
	TN_TUI_FOLLOW_KEEP_ROW,
	/* Jumps (goto, top, bottom): a cursor that left the view is put in
	 * its middle, with what comes before and after it in sight. */
	TN_TUI_FOLLOW_JUMP,
};
/* Set session->top_offset after a command so that the current row is
 * on screen, as mode says; then leave no empty rows above the trace's
 * start, nor below its end while earlier rows could fill them. */
void tn_tui_list_follow(struct tn_tui *tui, enum tn_tui_follow mode);
void tn_tui_list_scroll_columns(struct tn_tui *tui, int direction);
/* Whether the last drawing showed an event at this row of the list
 * (0: the first row under the header). */
bool tn_tui_list_has_row_at(const struct tn_tui *tui, int screen_row);

/* status.c */
void tn_tui_status_draw(struct tn_tui *tui);
void tn_tui_message_draw(struct tn_tui *tui);
void tn_tui_panes_draw(struct tn_tui *tui);
void tn_tui_too_small_draw(struct tn_tui *tui);
/* Show text on the message line (an error in the error colour). */
void tn_tui_message_set(struct tn_tui *tui, bool is_error, const char *text);

/* pager.c: a scrollable text view over the list. */
struct tn_tui_pager *tn_tui_pager_create(const char *title,
		GPtrArray *lines);
void tn_tui_pager_destroy(struct tn_tui_pager *pager);
void tn_tui_pager_draw(struct tn_tui_pager *pager, WINDOW *win);
/* Handle a key; returns false when the pager is to be closed. */
bool tn_tui_pager_key(struct tn_tui_pager *pager, int key);
void tn_tui_pager_scroll(struct tn_tui_pager *pager, int lines);

/* help.c: the help text, built from the key maps and the commands. */
GPtrArray *tn_tui_help_lines(void);

/* prompt.c: the ':' command line. */
struct tn_tui_prompt *tn_tui_prompt_create(void);
void tn_tui_prompt_destroy(struct tn_tui_prompt *prompt);
bool tn_tui_prompt_is_open(const struct tn_tui_prompt *prompt);
void tn_tui_prompt_open(struct tn_tui_prompt *prompt);
enum tn_tui_prompt_result {
	TN_TUI_PROMPT_EDITING,
	TN_TUI_PROMPT_DONE,	/* run the line (tn_tui_prompt_take_line) */
	TN_TUI_PROMPT_CANCELLED,
};
enum tn_tui_prompt_result tn_tui_prompt_key(struct tn_tui_prompt *prompt,
		int key);
/* The line typed (UTF-8, caller frees); closes the prompt. */
char *tn_tui_prompt_take_line(struct tn_tui_prompt *prompt);
void tn_tui_prompt_draw(struct tn_tui_prompt *prompt, WINDOW *win);
/* Choices listed by a second Tab, or NULL. */
const char *tn_tui_prompt_hint(const struct tn_tui_prompt *prompt);

#endif
