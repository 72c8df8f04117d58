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

static const struct tn_tui_binding list_keys[] = {
	{ { 'j', FN(KEY_DOWN), CTRL('n'), CTRL('e') }, NULL, TN_TUI_RUN,
		"down 1", "next event" },
	{ { 'k', FN(KEY_UP), CTRL('p'), CTRL('y') }, NULL, TN_TUI_RUN,
		"up 1", "previous event" },
	{ { 0 }, "N j, N k", TN_TUI_COUNT, "down N, up N",
		"digits before j, k, Down or Up: move N events" },
	{ { FN(KEY_NPAGE), ' ', 'f', CTRL('f') }, NULL, TN_TUI_RUN,
		"pgdn", "next page (the cursor keeps its screen row)" },
	{ { FN(KEY_PPAGE), 'b', CTRL('b') }, NULL, TN_TUI_RUN,
		"pgup", "previous page" },
	{ { 'g', FN(KEY_HOME), '<' }, NULL, TN_TUI_RUN,
		"top", "first event" },
	{ { 'G', FN(KEY_END), '>' }, NULL, TN_TUI_RUN,
		"bottom", "last event" },
	{ { 0 }, "N G", TN_TUI_COUNT, "goto #N",
		"digits then G: go to event number N (once indexed)" },
	{ { '%' }, "NN%", TN_TUI_PERCENT, "goto NN%",
		"digits then %: go to NN% of the time range (50% the middle)" },
	{ { '\n', '\r', FN(KEY_ENTER) }, NULL, TN_TUI_RUN,
		"detail", "every field of the selected event" },
	{ { 'h', FN(KEY_LEFT) }, NULL, TN_TUI_SCROLL_LEFT,
		NULL, "scroll the columns left" },
	{ { 'l', FN(KEY_RIGHT) }, NULL, TN_TUI_SCROLL_RIGHT,
		NULL, "scroll the columns right" },
	{ { 's' }, NULL, TN_TUI_TOGGLE_STATE,
		NULL, "show or hide the state tree pane" },
	{ { 'd' }, NULL, TN_TUI_TOGGLE_SEQ,
		NULL, "show or hide the sequence diagram pane" },
	{ { ':' }, NULL, TN_TUI_PROMPT,
		NULL, "type a command (see Commands below)" },
	{ { '?', FN(KEY_F(1)) }, NULL, TN_TUI_RUN,
		"help", "this help" },
	{ { CTRL('l') }, NULL, TN_TUI_REDRAW,
		NULL, "redraw the screen" },
	{ { ESC }, NULL, TN_TUI_CANCEL,
		NULL, "forget a count, clear the message" },
	{ { 0 }, "wheel", TN_TUI_MOUSE, "down 3, up 3",
		"mouse wheel: scroll 3 events" },
	{ { 0 }, "click", TN_TUI_MOUSE, NULL,
		"mouse click on a row: select it" },
	{ { 'q', 'Q' }, NULL, TN_TUI_RUN,
		"quit", "quit (also :q)" },
};

static const struct tn_tui_binding pager_keys[] = {
	{ { 'j', FN(KEY_DOWN), '\n', '\r', CTRL('n'), CTRL('e') }, NULL,
		TN_TUI_LINE_DOWN, NULL, "next line" },
	{ { 'k', FN(KEY_UP), CTRL('p'), CTRL('y') }, NULL,
		TN_TUI_LINE_UP, NULL, "previous line" },
	{ { ' ', FN(KEY_NPAGE), 'f', CTRL('f') }, NULL,
		TN_TUI_PAGE_DOWN, NULL, "next page" },
	{ { 'b', FN(KEY_PPAGE), CTRL('b') }, NULL,
		TN_TUI_PAGE_UP, NULL, "previous page" },
	{ { 'g', FN(KEY_HOME), '<' }, NULL, TN_TUI_FIRST, NULL, "first line" },
	{ { 'G', FN(KEY_END), '>' }, NULL, TN_TUI_LAST, NULL, "last page" },
	{ { 0 }, "wheel", TN_TUI_MOUSE, NULL, "scroll 3 lines" },
	{ { CTRL('l') }, NULL, TN_TUI_REDRAW, NULL, "redraw the screen" },
	{ { 'q', 'Q', ESC }, NULL, TN_TUI_CLOSE, NULL,
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
		"complete the command name (again: list the choices)" },
	{ { FN(KEY_UP), CTRL('p') }, NULL, TN_TUI_EDIT_PREVIOUS, NULL,
		"previous command line (history)" },
	{ { FN(KEY_DOWN), CTRL('n') }, NULL, TN_TUI_EDIT_NEXT, NULL,
		"next command line (history)" },
	{ { '\n', '\r', FN(KEY_ENTER) }, NULL, TN_TUI_EDIT_RUN, NULL,
		"run the command; an error shows on the message line" },
	{ { ESC, CTRL('g') }, NULL, TN_TUI_EDIT_CANCEL, NULL, "cancel" },
};

static const struct {
	const struct tn_tui_binding *bindings;
	size_t count;
	const char *title;
} keymaps[TN_TUI_KEYMAP_COUNT_] = {
	[TN_TUI_KEYMAP_LIST] = { list_keys, G_N_ELEMENTS(list_keys),
		"Event list" },
	[TN_TUI_KEYMAP_PAGER] = { pager_keys, G_N_ELEMENTS(pager_keys),
		"Text views (detail, help, print)" },
	[TN_TUI_KEYMAP_PROMPT] = { prompt_keys, G_N_ELEMENTS(prompt_keys),
		"Command prompt (after :)" },
};

const struct tn_tui_binding *tn_tui_keymap(enum tn_tui_keymap map,
		size_t *count)
{
	*count = keymaps[map].count;
	return keymaps[map].bindings;
}

const char *tn_tui_keymap_title(enum tn_tui_keymap map)
{
	return keymaps[map].title;
}

const struct tn_tui_binding *tn_tui_key_find(enum tn_tui_keymap map,
		int key)
{
	for (size_t i = 0; i < keymaps[map].count; i++) {
		const struct tn_tui_binding *b = &keymaps[map].bindings[i];

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
