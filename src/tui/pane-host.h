/* pane-host.h - what a pane may ask of the front end that holds it (the
 * TUI): a narrow interface, so that the panes (pane-*.c and their
 * drawing files) never reach into the TUI's own state (tui-private.h).
 *
 * A pane runs command lines, shows a message, opens the prompt, copies
 * text, reads the selection, the colours and whether it has the focus,
 * and sees the session (the trace, its clock's display), the index's
 * progress as the status bar has it, and whether a command job owns the
 * session (then the pane does not touch it).  The TUI fills one host
 * (tui.c) and every pane points to it.
 */
#ifndef TRACENAV_TUI_PANE_HOST_H
#define TRACENAV_TUI_PANE_HOST_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/job.h"
#include "keys.h"

struct tn_session;
struct tn_pane;
struct tn_tui;

enum tn_tui_color {
	TN_TUI_COLOR_HEADER = 1,
	TN_TUI_COLOR_STATUS,
	TN_TUI_COLOR_ERROR,
	TN_TUI_COLOR_NOTICE,
	TN_TUI_COLOR_PANE,
	TN_TUI_COLOR_FOCUS,
	/* Event names by kind, and lost events. */
	TN_TUI_COLOR_SCHED,
	TN_TUI_COLOR_SYSCALL,
	TN_TUI_COLOR_IRQ,
	TN_TUI_COLOR_USER,
	TN_TUI_COLOR_LOST,
	TN_TUI_COLOR_MATCH,	/* what the last search matches */
};

/* What the status bar shows of the index, copied from the session when
 * no job uses it. */
struct tn_tui_index_status {
	bool has_index;
	uint64_t event_count;
	bool building;
	struct tn_job_progress progress;
	/* The state computed by the preparse, with the index (the same
	 * read: one line says both) or after it. */
	bool computing_state;
	struct tn_job_progress state_progress;
	/* What the preparse makes ("index, state, diagram"), or "". */
	char preparse_what[64];
};

/* How the list follows the cursor after it moved. */
enum tn_tui_follow {
	/* As the command's flags say (lines, pages or a jump). */
	TN_TUI_FOLLOW_BY_COMMAND,
	/* Line moves: the view only scrolls when the cursor leaves it, and
	 * then just enough (as in less and vim). */
	TN_TUI_FOLLOW_SCROLL,
	/* Page moves, the wheel, a resize: the cursor keeps its row. */
	TN_TUI_FOLLOW_KEEP_ROW,
	/* Jumps: a cursor that left the view is put in its middle. */
	TN_TUI_FOLLOW_JUMP,
};

/* What the front end does for its panes; tui is the host's. */
struct tn_pane_host_ops {
	/* Run a command line, as typed at the prompt; follow: how the
	 * list follows the cursor (BY_COMMAND: as the command's flags
	 * say).  It runs as a background job once the current one ended. */
	void (*run_line)(struct tn_tui *tui, const char *line,
		enum tn_tui_follow follow);
	/* Run the command `name` (a key's binding) with the key's count. */
	void (*run_command)(struct tn_tui *tui, const char *name,
		const struct tn_tui_key *key);
	/* Show text on the message line (an error in the error colour). */
	void (*message)(struct tn_tui *tui, bool is_error, const char *text);
	/* Open the ':' prompt holding text (NULL: empty). */
	void (*open_prompt)(struct tn_tui *tui, const char *text);
	/* Open the prompt for the argument of command, leader shown
	 * instead of ':'; an empty line runs empty_command (NULL:
	 * nothing). */
	void (*open_prompt_for)(struct tn_tui *tui, const char *leader,
		const char *command, const char *empty_command);
	/* Open the prompt for pane: the text typed goes to its class's
	 * prompt_done; word names it in the prompt's history. */
	void (*open_prompt_for_pane)(struct tn_tui *tui, struct tn_pane *pane,
		const char *leader, const char *word);
	/* Put text on the terminal's clipboard and say so. */
	void (*copy)(struct tn_tui *tui, const char *text);
	/* The times of the selection going on, or else of the range set;
	 * false when neither. */
	bool (*selection)(struct tn_tui *tui, int64_t *begin_ns,
		int64_t *end_ns);
	/* The attributes of a kind of text (colours unless NO_COLOR). */
	attr_t (*attr)(const struct tn_tui *tui, enum tn_tui_color color);
	/* Whether pane has the focus. */
	bool (*is_focused)(struct tn_tui *tui, const struct tn_pane *pane);
	/* Whether a command job runs: the session is the job's meanwhile. */
	bool (*job_running)(const struct tn_tui *tui);
	/* Whether a command job that the user waits for runs (not the
	 * list's reading ahead while idle). */
	bool (*command_running)(const struct tn_tui *tui);
	/* Changes each time every command typed has run and been shown
	 * (see tn_tui_idle_serial()). */
	unsigned (*idle_serial)(const struct tn_tui *tui);
};

struct tn_pane_host {
	const struct tn_pane_host_ops *ops;
	struct tn_tui *tui;
	/* The session: its trace, symbols and clock display may be read
	 * any time; the rest only while job_running() says no. */
	struct tn_session *session;
	bool ascii;			/* --ascii: no line drawing */
	/* The index's progress, as the status bar shows it. */
	const struct tn_tui_index_status *index;
};

#endif
