/* keys.c - the key map (see keys.h). */
#include <curses.h>
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "keys.h"

#define FN TN_TUI_KEY_FN
#define CTRL TN_TUI_KEY_CTRL
#define ESC TN_TUI_KEY_ESC

static const struct tn_tui_binding global_keys[] = {
	{ { ':' }, NULL, TN_TUI_GLOBAL_PROMPT, NULL,
		"type a command (see Commands below)" },
	{ { '?', FN(KEY_F(1)) }, NULL, 0, "help", "this help" },
	{ { '\t' }, NULL, TN_TUI_GLOBAL_FOCUS_NEXT, NULL,
		"move the focus to the next open pane (it gets keys first)" },
	{ { FN(KEY_BTAB) }, NULL, TN_TUI_GLOBAL_FOCUS_PREVIOUS, NULL,
		"move the focus to the previous open pane" },
	{ { '+' }, NULL, TN_TUI_GLOBAL_GROW, NULL,
		"make the focused pane larger" },
	{ { '-' }, NULL, TN_TUI_GLOBAL_SHRINK, NULL,
		"make the focused pane smaller" },
	{ { CTRL('l') }, NULL, TN_TUI_GLOBAL_REDRAW, NULL,
		"redraw the screen" },
	{ { 'M' }, NULL, TN_TUI_GLOBAL_MOUSE, NULL,
		"mouse capture off (the terminal's own selection and copy "
		"work) or on again" },
	{ { ESC }, NULL, TN_TUI_GLOBAL_CANCEL, NULL,
		"cancel what runs (a seek: the cursor stays), forget a count, "
		"clear the message" },
	{ { 'q', 'Q' }, NULL, 0, "quit", "quit (also :q)" },
};

static const struct tn_tui_binding pager_keys[] = {
	{ { 'j', FN(KEY_DOWN), '\n', '\r', CTRL('n'), CTRL('e') }, NULL,
		TN_TUI_PAGER_LINE_DOWN, NULL, "next line" },
	{ { 'k', FN(KEY_UP), CTRL('p'), CTRL('y') }, NULL,
		TN_TUI_PAGER_LINE_UP, NULL, "previous line" },
	{ { ' ', FN(KEY_NPAGE), 'f', CTRL('f') }, NULL,
		TN_TUI_PAGER_PAGE_DOWN, NULL, "next page" },
	{ { 'b', FN(KEY_PPAGE), CTRL('b') }, NULL,
		TN_TUI_PAGER_PAGE_UP, NULL, "previous page" },
	{ { 'g', FN(KEY_HOME), '<' }, NULL, TN_TUI_PAGER_FIRST, NULL,
		"first line" },
	{ { 'G', FN(KEY_END), '>' }, NULL, TN_TUI_PAGER_LAST, NULL,
		"last page" },
	{ { 'h', FN(KEY_LEFT) }, NULL, TN_TUI_PAGER_LEFT, NULL,
		"scroll left (print's lines are not wrapped)" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, TN_TUI_PAGER_RIGHT, NULL,
		"scroll right" },
	{ { 'J' }, NULL, TN_TUI_PAGER_STEP, "down",
		"in the detail view: the next event's" },
	{ { 'K' }, NULL, TN_TUI_PAGER_STEP, "up",
		"in the detail view: the previous event's" },
	{ { 0 }, "wheel", TN_TUI_PAGER_MOUSE, NULL, "scroll 3 lines" },
	{ { CTRL('l') }, NULL, TN_TUI_PAGER_REDRAW, NULL,
		"redraw the screen" },
	{ { 'q', 'Q', ESC }, NULL, TN_TUI_PAGER_CLOSE, NULL,
		"close the text view" },
};

static const struct tn_tui_binding prompt_keys[] = {
	{ { FN(KEY_LEFT), CTRL('b') }, NULL, TN_TUI_EDIT_LEFT, NULL,
		"move left" },
	{ { FN(KEY_RIGHT), CTRL('f') }, NULL, TN_TUI_EDIT_RIGHT, NULL,
		"move right" },
	{ { FN(KEY_HOME), CTRL('a') }, NULL, TN_TUI_EDIT_HOME, NULL,
		"go to the start of the line" },
	{ { FN(KEY_END), CTRL('e') }, NULL, TN_TUI_EDIT_END, NULL,
		"go to the end of the line" },
	{ { FN(KEY_BACKSPACE), 0x7f, CTRL('h') }, NULL,
		TN_TUI_EDIT_BACKSPACE, NULL,
		"delete the character before the cursor (on an empty line: "
		"cancel)" },
	{ { FN(KEY_DC), CTRL('d') }, NULL, TN_TUI_EDIT_DELETE, NULL,
		"delete the character under the cursor" },
	{ { CTRL('u') }, NULL, TN_TUI_EDIT_KILL, NULL,
		"delete everything before the cursor" },
	{ { '\t' }, NULL, TN_TUI_EDIT_COMPLETE, NULL,
		"complete the command name or argument (again: list the "
		"choices)" },
	{ { FN(KEY_UP), CTRL('p') }, NULL, TN_TUI_EDIT_PREVIOUS, NULL,
		"previous line of the history that starts with what was "
		"typed (kept across runs)" },
	{ { FN(KEY_DOWN), CTRL('n') }, NULL, TN_TUI_EDIT_NEXT, NULL,
		"next such line (past the newest: what was typed)" },
	{ { CTRL('r') }, NULL, TN_TUI_EDIT_HISTORY_SEARCH, NULL,
		"search the history as you type (again: an older match; "
		"Enter runs it, Esc gives the line back, other keys edit "
		"it)" },
	{ { '\n', '\r', FN(KEY_ENTER) }, NULL, TN_TUI_EDIT_RUN, NULL,
		"run the command; an error shows on the message line" },
	{ { ESC, CTRL('g') }, NULL, TN_TUI_EDIT_CANCEL, NULL, "cancel" },
};

const struct tn_tui_keymap tn_tui_global_keys = {
	"Everywhere", global_keys, G_N_ELEMENTS(global_keys),
};

const struct tn_tui_keymap tn_tui_pager_keys = {
	"Text views (detail, help, print)", pager_keys,
	G_N_ELEMENTS(pager_keys),
};

const struct tn_tui_keymap tn_tui_prompt_keys = {
	"Command prompt (after :)", prompt_keys, G_N_ELEMENTS(prompt_keys),
};

const struct tn_tui_binding *tn_tui_keymap_find(
		const struct tn_tui_keymap *map, int key)
{
	for (size_t i = 0; map && i < map->count; i++) {
		const struct tn_tui_binding *b = &map->bindings[i];

		for (size_t k = 0; k < G_N_ELEMENTS(b->keys) && b->keys[k];
				k++)
			if (b->keys[k] == key)
				return b;
	}
	return NULL;
}

void tn_tui_key_name(int key, char *buf, size_t size)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
		{ FN(KEY_DOWN), "Down" }, { FN(KEY_UP), "Up" },
		{ FN(KEY_LEFT), "Left" }, { FN(KEY_RIGHT), "Right" },
		{ FN(KEY_NPAGE), "PgDn" }, { FN(KEY_PPAGE), "PgUp" },
		{ FN(KEY_HOME), "Home" }, { FN(KEY_END), "End" },
		{ FN(KEY_ENTER), "Enter" }, { FN(KEY_BACKSPACE), "Backspace" },
		{ FN(KEY_DC), "Delete" }, { '\n', "Enter" }, { '\r', "Enter" },
		{ ' ', "Space" }, { '\t', "Tab" }, { ESC, "Esc" },
		{ FN(KEY_BTAB), "Shift-Tab" },
		{ 0x7f, "Backspace" },
	};

	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		if (names[i].key == key) {
			snprintf(buf, size, "%s", names[i].name);
			return;
		}
	}
	if (key >= FN(KEY_F(1)) && key <= FN(KEY_F(63)))
		snprintf(buf, size, "F%d", key - FN(KEY_F(0)));
	else if (key & FN(0))
		snprintf(buf, size, "%s", keyname(key & ~FN(0)));
	else if (key < 0x20)
		snprintf(buf, size, "Ctrl-%c", '@' + key);
	else {
		char utf8[8] = { 0 };

		g_unichar_to_utf8((gunichar) key, utf8);
		snprintf(buf, size, "%s", utf8);
	}
}

void tn_tui_binding_keys(const struct tn_tui_binding *binding, char *buf,
		size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	if (binding->label) {
		snprintf(buf, size, "%s", binding->label);
		return;
	}
	for (size_t k = 0; k < G_N_ELEMENTS(binding->keys) &&
			binding->keys[k]; k++) {
		char name[32];

		bool seen = false;

		tn_tui_key_name(binding->keys[k], name, sizeof(name));
		/* Enter and Backspace have several codes: name them once. */
		for (size_t j = 0; j < k; j++) {
			char other[32];

			tn_tui_key_name(binding->keys[j], other, sizeof(other));
			seen = seen || !strcmp(name, other);
		}
		if (seen)
			continue;
		len += snprintf(buf + len, size > len ? size - len : 0,
			"%s%s", len ? ", " : "", name);
		if (len >= size)
			break;
	}
}
