/* keys.h - key maps: which key does what, with its help line.
 *
 * A binding either runs a command of the command table (so a key and the
 * same command typed at the ':' prompt or given to --batch do the same
 * thing; a count typed before the key goes to the command) or an action
 * of the key map's owner: the main loop for the global map, a pane for
 * its own map, the text view, the prompt.  The help view and the man
 * page list these tables (a test holds the man page to them); nothing
 * else decides what a key does.
 */
#ifndef TRACENAV_TUI_KEYS_H
#define TRACENAV_TUI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

/* Keys as the main loop reads them: a character as its code point, a
 * function key (KEY_DOWN...) with TN_TUI_KEY_FN set. */
#define TN_TUI_KEY_FN(code) (0x1000000 | (code))
#define TN_TUI_KEY_CTRL(c) ((c) & 0x1f)
#define TN_TUI_KEY_ESC 0x1b
#define TN_TUI_KEY_NONE (-1)

/* A key as a key map's owner gets it: with the count typed before it. */
struct tn_tui_key {
	int key;
	bool has_count;
	long count;
};

struct tn_tui_binding {
	int keys[6];		/* ends at the first 0 */
	const char *label;	/* shown instead of the keys' names, or NULL */
	int action;		/* the owner's action (its own enum) */
	const char *command;	/* or a command of the table to run */
	const char *help;
};

struct tn_tui_keymap {
	const char *title;	/* the help's and the man page's section */
	const struct tn_tui_binding *bindings;
	size_t count;
};

/* Actions of the global key map (main loop). */
enum tn_tui_global_action {
	TN_TUI_GLOBAL_NONE,
	TN_TUI_GLOBAL_PROMPT,		/* open the ':' prompt */
	TN_TUI_GLOBAL_FOCUS_NEXT,
	TN_TUI_GLOBAL_FOCUS_PREVIOUS,
	TN_TUI_GLOBAL_GROW,		/* the focused pane */
	TN_TUI_GLOBAL_SHRINK,
	TN_TUI_GLOBAL_REDRAW,
	TN_TUI_GLOBAL_CANCEL,		/* a count, a message, a job */
	TN_TUI_GLOBAL_MOUSE,		/* mouse capture off and on */
};

/* Actions of a text view. */
enum tn_tui_pager_action {
	TN_TUI_PAGER_NONE,
	TN_TUI_PAGER_LINE_DOWN,
	TN_TUI_PAGER_LINE_UP,
	TN_TUI_PAGER_PAGE_DOWN,
	TN_TUI_PAGER_PAGE_UP,
	TN_TUI_PAGER_FIRST,
	TN_TUI_PAGER_LAST,
	TN_TUI_PAGER_LEFT,		/* lines kept whole (print) */
	TN_TUI_PAGER_RIGHT,
	TN_TUI_PAGER_STEP,		/* run the binding's command, then the
					 * view's own again (detail) */
	TN_TUI_PAGER_REDRAW,
	TN_TUI_PAGER_CLOSE,
	TN_TUI_PAGER_MOUSE,		/* documented; see tui.c */
};

/* Actions of the ':' prompt. */
enum tn_tui_prompt_action {
	TN_TUI_EDIT_NONE,
	TN_TUI_EDIT_LEFT,
	TN_TUI_EDIT_RIGHT,
	TN_TUI_EDIT_HOME,
	TN_TUI_EDIT_END,
	TN_TUI_EDIT_BACKSPACE,
	TN_TUI_EDIT_DELETE,
	TN_TUI_EDIT_KILL,
	TN_TUI_EDIT_COMPLETE,
	TN_TUI_EDIT_PREVIOUS,
	TN_TUI_EDIT_NEXT,
	TN_TUI_EDIT_HISTORY_SEARCH,	/* Ctrl-R */
	TN_TUI_EDIT_RUN,
	TN_TUI_EDIT_CANCEL,
};

extern const struct tn_tui_keymap tn_tui_global_keys;
extern const struct tn_tui_keymap tn_tui_pager_keys;
extern const struct tn_tui_keymap tn_tui_prompt_keys;

/* The binding of key in map, or NULL. */
const struct tn_tui_binding *tn_tui_keymap_find(
		const struct tn_tui_keymap *map, int key);

/* The name of a key as the help shows it: "j", "Down", "Ctrl-F",
 * "Space", "PgDn"... */
void tn_tui_key_name(int key, char *buf, size_t size);

/* The names of a binding's keys ("j, Down, Ctrl-N") or its label. */
void tn_tui_binding_keys(const struct tn_tui_binding *binding, char *buf,
		size_t size);

#endif
