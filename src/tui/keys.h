/* keys.h - the key map: which key does what, with its help line.
 *
 * A binding either runs a command line of the command table (so a key
 * and the same command typed at the ':' prompt or given to --batch do the
 * same thing) or a front-end action that only makes sense on a screen
 * (scroll sideways, toggle a pane, edit the prompt).  The help overlay and
 * the man page list these tables; nothing else decides what a key does.
 */
#ifndef TRACENAV_TUI_KEYS_H
#define TRACENAV_TUI_KEYS_H

#include <stddef.h>

/* Keys as tn_tui_key_read() returns them: a character as its code
 * point, a function key (KEY_DOWN...) with TN_TUI_KEY_FN set. */
#define TN_TUI_KEY_FN(code) (0x1000000 | (code))
#define TN_TUI_KEY_CTRL(c) ((c) & 0x1f)
#define TN_TUI_KEY_ESC 0x1b
#define TN_TUI_KEY_NONE (-1)

enum tn_tui_action {
	TN_TUI_RUN,		/* run the binding's command line */
	TN_TUI_COUNT,		/* a digit: repeat count or percentage */
	TN_TUI_PERCENT,		/* NN%: go to that fraction of the time */
	TN_TUI_PROMPT,		/* open the ':' prompt */
	TN_TUI_SCROLL_LEFT,
	TN_TUI_SCROLL_RIGHT,
	TN_TUI_TOGGLE_STATE,
	TN_TUI_TOGGLE_SEQ,
	TN_TUI_REDRAW,
	TN_TUI_CANCEL,
	TN_TUI_MOUSE,		/* wheel and click (documented, see tui.c) */
	/* In a text view (pager). */
	TN_TUI_LINE_DOWN,
	TN_TUI_LINE_UP,
	TN_TUI_PAGE_DOWN,
	TN_TUI_PAGE_UP,
	TN_TUI_FIRST,
	TN_TUI_LAST,
	TN_TUI_CLOSE,
	/* At the prompt. */
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
	TN_TUI_EDIT_RUN,
	TN_TUI_EDIT_CANCEL,
};

struct tn_tui_binding {
	int keys[6];		/* ends at the first 0 */
	const char *label;	/* shown instead of the keys' names, or NULL */
	enum tn_tui_action action;
	const char *command;	/* for TN_TUI_RUN */
	const char *help;
};

enum tn_tui_keymap {
	TN_TUI_KEYMAP_LIST,	/* the event list */
	TN_TUI_KEYMAP_PAGER,	/* a text view: detail, help, print */
	TN_TUI_KEYMAP_PROMPT,	/* the ':' prompt */
	TN_TUI_KEYMAP_COUNT_
};

/* The bindings of a key map, in the order the help lists them. */
const struct tn_tui_binding *tn_tui_keymap(enum tn_tui_keymap map,
		size_t *count);

/* The title of a key map in the help ("Event list"...). */
const char *tn_tui_keymap_title(enum tn_tui_keymap map);

/* The binding of key in map, or NULL. */
const struct tn_tui_binding *tn_tui_key_find(enum tn_tui_keymap map,
		int key);

/* The name of a key as the help shows it: "j", "Down", "Ctrl-F",
 * "Space", "PgDn"... */
void tn_tui_key_name(int key, char *buf, size_t size);

/* The names of a binding's keys ("j, Down, Ctrl-N") or its label. */
void tn_tui_binding_keys(const struct tn_tui_binding *binding, char *buf,
		size_t size);

#endif
