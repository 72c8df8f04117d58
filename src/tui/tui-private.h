/* tui-private.h - the state of the full-screen UI, shared by the files
 * of its shell (one job each: tui.c the loop and keys, windows.c and
 * colors.c the terminal's windows and attributes, guard.c the
 * terminal's safety, run.c commands as background jobs, status.c the
 * status bar, message.c the message line, selection.c the time range
 * selected, pager.c text views, prompt.c the ':' prompt, help.c the help
 * text).  The panes (pane.h, pane-*.c and their drawing files) never
 * include it: they ask the shell through their host (pane-host.h). */
#ifndef TRACENAV_TUI_PRIVATE_H
#define TRACENAV_TUI_PRIVATE_H

#include <curses.h>
#include <glib.h>
#include <stdbool.h>

#include "../cmdq.h"
#include "../output.h"
#include "../session.h"
#include "keys.h"
#include "layout.h"
#include "pane.h"

enum tn_tui_dirty {
	TN_TUI_DIRTY_PANES = 1 << 0,
	TN_TUI_DIRTY_STATUS = 1 << 1,
	TN_TUI_DIRTY_MESSAGE = 1 << 2,
	TN_TUI_DIRTY_OVERLAY = 1 << 3,
	TN_TUI_DIRTY_ALL = (1 << 4) - 1,
};

/* What the status bar shows of the filters, copied from the session
 * when no job uses it. */
struct tn_tui_filter_status {
	size_t enabled;		/* filters enabled */
	bool counted;		/* their matches are counted: */
	uint64_t matches;	/* how many events pass */
	uint64_t serial;	/* the session's counts_serial then */
	bool counting;		/* the count pass runs */
	struct tn_job_progress progress;
};

struct tn_tui_pager;
struct tn_tui_prompt;
struct tn_tui_update;
struct tn_tui_prefetch;

struct tn_tui {
	struct tn_output out;		/* first: messages and text views */
	struct tn_session *session;
	SCREEN *screen;
	bool colors;
	struct tn_layout layout;
	struct tn_panes panes;
	struct tn_pane_host host;	/* what the panes ask of the TUI */
	WINDOW *status_win, *message_win, *overlay_win;
	unsigned dirty;
	GString *message;
	bool message_is_error;
	struct tn_tui_pager *pager;	/* the open text view, or NULL */
	struct tn_tui_prompt *prompt;
	/* The pane the open prompt's text goes to, or NULL: a command. */
	struct tn_pane *prompt_pane;
	/* TEXT output of the commands that ran, shown in a text view. */
	GPtrArray *block;		/* char * */
	char *block_title;
	bool block_whole;		/* some lines must not be wrapped */
	/* The command whose text the view shows, when it is about the
	 * current event (J and K step), or NULL. */
	const struct tn_command *view_command;
	bool mouse_off;			/* the terminal's own selection */
	bool ascii;			/* --ascii: no line drawing */
	bool build_index;		/* not --no-index */
	/* The index starts once the first screen shows its rows: before,
	 * its threads would take the cores the first page is read on. */
	bool index_after_first_screen;
	/* Digits typed before a key (a count, or NN before %). */
	bool has_count;
	long count;
	GPtrArray *help_keys;		/* the keys' help, for help */
	GString *to_terminal;		/* raw bytes to send after drawing */

	/* Background work (run.c). */
	struct tn_tui_update *update;	/* of the running command job */
	struct tn_cmdq *pending;	/* typed while it runs, or NULL */
	enum tn_tui_follow pending_follow;
	bool needs_update;		/* the panes must be computed again */
	gint64 job_started_us;
	/* How many times every command typed has run and been shown (no
	 * command job runs or waits after one ended): see
	 * tn_tui_idle_serial(). */
	unsigned idle_serial;
	/* The running job is the list's reading ahead while idle (see
	 * run.c), which is nobody's wait; wants_prefetch: the list moved
	 * since it last read ahead. */
	bool prefetching;
	bool wants_prefetch;
	struct tn_tui_prefetch *prefetch;
	struct tn_tui_index_status index;
	struct tn_tui_filter_status filters;
	/* A time range being selected with v: from anchor to the cursor
	 * (the event list's); rank: the anchor's (an event's number, or
	 * a match's with filters) when known. */
	struct {
		bool active;
		struct tn_position anchor;
		bool has_rank;
		uint64_t rank;
	} selection;
	/* Follow mode (follow-mode.c): session->follow copied between
	 * jobs, when the files were last looked at and the trace last
	 * reloaded for it, and what the status bar counts once the list
	 * left the end: the events then (base_count, when has_base), and
	 * whether the trace grew since. */
	struct tn_tui_follow_mode {
		enum tn_session_follow mode;
		gint64 checked_us, reloaded_us;
		bool reloading;		/* the reload asked for is its own */
		bool due;		/* the files changed before it began */
		bool has_base, grew;
		uint64_t base_count;
		/* The live session's copy, as last said. */
		enum tn_live_mirror_state live_state;
	} follow;
	/* The session's range (range T1 T2), copied between jobs. */
	struct {
		bool set;
		int64_t begin_ns, end_ns;
	} range;
};

/* selection.c: the time range selected with v. */
/* Copy the session's selection and range (between jobs). */
void tn_tui_selection_note(struct tn_tui *tui);
/* The times [*begin_ns, *end_ns] of the selection going on, or else of
 * the range that is set; false when neither.  The list and the
 * histogram show them. */
bool tn_tui_selection_get(struct tn_tui *tui, int64_t *begin_ns,
		int64_t *end_ns);
/* The status bar's part: "  sel 1.500 ms, 42 events" or "  range ...". */
void tn_tui_selection_append_status(struct tn_tui *tui,
		GString *out);

/* status.c */
/* The damaged files of trace; following (follow mode): not those whose
 * last packet is still being written. */
size_t tn_tui_damaged_count(const struct tn_trace *trace, bool following);

/* follow-mode.c: follow mode (the follow command, F). */
/* Copy session->follow (between jobs). */
void tn_tui_follow_note(struct tn_tui *tui);
/* In follow mode, once a second when nothing waits: whether the
 * trace's files changed.  Then it asks for a reload (session->reload)
 * and returns true. */
bool tn_tui_follow_tick(struct tn_tui *tui);
/* Whether the reload asked for is follow mode's (said nothing of). */
bool tn_tui_follow_reloading(const struct tn_tui *tui);
/* After follow mode's reload: at the end, the newest event again. */
void tn_tui_follow_reloaded(struct tn_tui *tui);
/* The status bar's part: "  following", "  42 new (F)". */
void tn_tui_follow_append_status(const struct tn_tui *tui, GString *out);

/* colors.c */
/* Colour pairs for the kinds of text, unless the terminal has none or
 * NO_COLOR is set (tui->colors says which). */
void tn_tui_colors_init(struct tn_tui *tui);

/* windows.c */
/* Make the windows for the terminal's size and the open panes (the
 * panes' caches are then to be computed again: tn_tui_relayout()). */
void tn_tui_place_windows(struct tn_tui *tui);
/* Delete every window (the panes', the status bar's, ...). */
void tn_tui_drop_windows(struct tn_tui *tui);

/* tui.c */
/* Fill tui->host, the panes' interface to the TUI (before
 * tn_panes_init()). */
void tn_tui_host_init(struct tn_tui *tui);
/* The attributes of a kind of text (colours unless NO_COLOR). */
attr_t tn_tui_attr(const struct tn_tui *tui, enum tn_tui_color color);
/* (Re)create the windows for the terminal's size and the open panes,
 * and compute the panes again. */
void tn_tui_relayout(struct tn_tui *tui);
/* Open the ':' prompt, its line holding text (NULL: empty), the cursor
 * after it ("goto " for t). */
void tn_tui_open_prompt(struct tn_tui *tui, const char *text);
/* Open the prompt for the argument of command, shown after leader
 * instead of ':' ("/" and "search"); an empty line runs empty_command
 * (NULL: nothing). */
void tn_tui_open_prompt_for(struct tn_tui *tui, const char *leader,
		const char *command, const char *empty_command);
/* Open the prompt for pane, leader shown before it ("/"): the text
 * typed goes to the class's prompt_done ("" for an empty line).  The
 * prompt's history keeps it as "word TEXT" (word: a static string that
 * names what it is for, e.g. "state-find"), and Up recalls those. */
void tn_tui_open_prompt_for_pane(struct tn_tui *tui, struct tn_pane *pane,
		const char *leader, const char *word);
/* Put text on the terminal's clipboard (OSC 52, sent after the next
 * drawing) and say so. */
void tn_tui_copy(struct tn_tui *tui, const char *text);

/* run.c: commands from keys and the prompt, as background jobs. */
/* Run the command `name` (a key's binding) with the key's count. */
void tn_tui_run_command(struct tn_tui *tui, const char *name,
		const struct tn_tui_key *key);
/* Run a command line; follow: how the list follows the cursor
 * (TN_TUI_FOLLOW_BY_COMMAND: as the command's flags say). */
void tn_tui_run_line(struct tn_tui *tui, const char *line,
		enum tn_tui_follow follow);
/* Compute the panes again (after a resize, a new index), in a job. */
void tn_tui_request_update(struct tn_tui *tui);
/* Look at the running job: when it ended, take its results and start
 * what was typed meanwhile.  Returns true if the screen changed. */
bool tn_tui_poll_jobs(struct tn_tui *tui);
/* Whether a command job runs (the session is the job's meanwhile). */
bool tn_tui_job_running(const struct tn_tui *tui);
/* Whether a job that someone waits for runs: a command job, not the
 * list's reading ahead while idle. */
bool tn_tui_user_job_running(const struct tn_tui *tui);
/* A pane that builds a move from what it shows (a column, a row) keeps
 * this with the move it asked for: while it is unchanged, the moves
 * asked for have not all been shown yet, and a second key steps on from
 * the first one's target, not from what the screen shows. */
unsigned tn_tui_idle_serial(const struct tn_tui *tui);
/* When nothing runs and nothing waits (panes_busy: a pane's job runs or
 * waits for the cursor to settle), read the rows of the list's next and
 * previous pages in a job, so that paging reads nothing; any key that
 * needs the session stops it. */
void tn_tui_prefetch(struct tn_tui *tui, bool panes_busy);
/* Cancel the running job and forget what was typed meanwhile; true if
 * a command job (not the reading ahead) was cancelled. */
bool tn_tui_cancel_jobs(struct tn_tui *tui);
/* Cancel and wait for the jobs, then free what run.c holds. */
void tn_tui_run_fini(struct tn_tui *tui);

/* guard.c: the terminal is restored whatever happens. */
/* Catch SIGINT, SIGTERM, SIGHUP (a flag) and crashes; before newterm(). */
void tn_tui_guard_begin(void);
/* Say whether the screen is set up (then stderr is captured until
 * tn_tui_guard_end(), and a crash calls endwin()). */
void tn_tui_guard_screen(bool up);
/* The signal that asked to stop, or 0. */
int tn_tui_guard_caught(void);
/* Forget a caught SIGINT (it cancelled a job instead of quitting). */
void tn_tui_guard_forget(void);
/* The terminal hung up: as if SIGHUP had come (unless a signal did). */
void tn_tui_guard_hangup(void);
/* Give stderr back (with what was written on it) and the handlers. */
void tn_tui_guard_end(void);

/* status.c */
void tn_tui_status_draw(struct tn_tui *tui);
void tn_tui_too_small_draw(struct tn_tui *tui);

/* message.c */
void tn_tui_message_draw(struct tn_tui *tui);
/* Show text on the message line (an error in the error colour). */
void tn_tui_message_set(struct tn_tui *tui, bool is_error, const char *text);

/* pager.c: a scrollable text view over the panes. */
/* whole: lines are not wrapped but scrolled sideways (h, l). */
struct tn_tui_pager *tn_tui_pager_create(const char *title,
		GPtrArray *lines, bool whole);
void tn_tui_pager_destroy(struct tn_tui_pager *pager);
void tn_tui_pager_draw(struct tn_tui_pager *pager, WINDOW *win);
/* Handle a key; returns false when the pager is to be closed. */
bool tn_tui_pager_key(struct tn_tui_pager *pager, int key);
void tn_tui_pager_scroll(struct tn_tui_pager *pager, int lines);

/* help.c: the keys' help lines (every key map of the TUI and the panes'
 * toggles), which the help command shows before the commands. */
GPtrArray *tn_tui_help_key_lines(void);
/* The key maps in the order the help lists them (for the tests). */
const struct tn_tui_keymap *const *tn_tui_help_keymaps(size_t *count);

/* prompt.c: the ':' command line. */
struct tn_history;
/* A prompt whose lines go to history (taken; NULL: in memory only). */
struct tn_tui_prompt *tn_tui_prompt_create(struct tn_history *history);
/* A message about the history (it cannot be saved) to show once, or
 * NULL (g_free it). */
char *tn_tui_prompt_take_message(struct tn_tui_prompt *prompt);
void tn_tui_prompt_destroy(struct tn_tui_prompt *prompt);
bool tn_tui_prompt_is_open(const struct tn_tui_prompt *prompt);
void tn_tui_prompt_open(struct tn_tui_prompt *prompt);
/* Open it for the argument of command (the line runs as "command
 * TEXT"; an empty one as empty_command, if not NULL), leader shown
 * instead of ':' ("/").  Up and Down then step through the earlier
 * lines of that command.  The strings must be static. */
void tn_tui_prompt_open_for(struct tn_tui_prompt *prompt, const char *leader,
		const char *command, const char *empty_command);
/* Replace the line being typed by utf8, the cursor at its end. */
void tn_tui_prompt_set_text(struct tn_tui_prompt *prompt, const char *utf8);
enum tn_tui_prompt_result {
	TN_TUI_PROMPT_EDITING,
	TN_TUI_PROMPT_DONE,	/* run the line (tn_tui_prompt_take_line) */
	TN_TUI_PROMPT_CANCELLED,
};
/* Handle key; source gives what Tab may complete besides the commands
 * (may be NULL). */
enum tn_tui_prompt_result tn_tui_prompt_key(struct tn_tui_prompt *prompt,
		int key, const struct tn_completion_source *source);
/* The line typed (UTF-8, caller frees); closes the prompt. */
char *tn_tui_prompt_take_line(struct tn_tui_prompt *prompt);
void tn_tui_prompt_draw(struct tn_tui_prompt *prompt, WINDOW *win);
/* Choices listed by a second Tab, or NULL. */
const char *tn_tui_prompt_hint(const struct tn_tui_prompt *prompt);

#endif
