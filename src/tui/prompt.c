/* prompt.c - the ':' command line: editing, history, and Tab completion
 * of command names and arguments (cmd/complete.c). */
#include <string.h>

#include "../commands.h"
#include "draw.h"
#include "text.h"
#include "tui-private.h"

#define HISTORY_MAX 100

struct tn_tui_prompt {
	bool open;
	/* What the line is for: shown before it (":", or "/" for a
	 * search), and the command it is the argument of (NULL: the line
	 * is a command), or the command that an empty line runs. */
	const char *leader;
	const char *command;
	const char *empty_command;
	GArray *text;		/* wchar_t */
	guint cursor;		/* index in text */
	GPtrArray *history;	/* char *, oldest first */
	guint history_at;	/* == history->len: the line being typed */
	char *hint;		/* choices listed by Tab, or NULL */
};

struct tn_tui_prompt *tn_tui_prompt_create(void)
{
	struct tn_tui_prompt *prompt = g_new0(struct tn_tui_prompt, 1);

	prompt->text = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	prompt->history = g_ptr_array_new_with_free_func(g_free);
	return prompt;
}

void tn_tui_prompt_destroy(struct tn_tui_prompt *prompt)
{
	if (!prompt)
		return;
	g_array_free(prompt->text, TRUE);
	g_ptr_array_free(prompt->history, TRUE);
	g_free(prompt->hint);
	g_free(prompt);
}

bool tn_tui_prompt_is_open(const struct tn_tui_prompt *prompt)
{
	return prompt && prompt->open;
}

const char *tn_tui_prompt_hint(const struct tn_tui_prompt *prompt)
{
	return prompt && prompt->open ? prompt->hint : NULL;
}

void tn_tui_prompt_set_text(struct tn_tui_prompt *prompt, const char *utf8)
{
	g_array_set_size(prompt->text, 0);
	for (const char *p = utf8; *p; p = p + g_utf8_skip[(guchar) *p]) {
		wchar_t wc = (wchar_t) g_utf8_get_char(p);

		g_array_append_val(prompt->text, wc);
	}
	prompt->cursor = prompt->text->len;
}

void tn_tui_prompt_open(struct tn_tui_prompt *prompt)
{
	tn_tui_prompt_open_for(prompt, ":", NULL, NULL);
}

void tn_tui_prompt_open_for(struct tn_tui_prompt *prompt, const char *leader,
		const char *command, const char *empty_command)
{
	prompt->open = true;
	prompt->leader = leader;
	prompt->command = command;
	prompt->empty_command = empty_command;
	tn_tui_prompt_set_text(prompt, "");
	prompt->history_at = prompt->history->len;
	g_clear_pointer(&prompt->hint, g_free);
}

/* What the line typed after the prompt's command starts with ("search
 * "), or "" for a command line. */
static char *command_prefix(const struct tn_tui_prompt *prompt)
{
	return prompt->command ? g_strconcat(prompt->command, " ", NULL) :
		g_strdup("");
}

static char *to_utf8(const wchar_t *s, guint n)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < n; i++)
		g_string_append_unichar(out, (gunichar) s[i]);
	return g_string_free(out, FALSE);
}

char *tn_tui_prompt_take_line(struct tn_tui_prompt *prompt)
{
	char *text = to_utf8((wchar_t *) prompt->text->data,
		prompt->text->len);
	char *prefix = command_prefix(prompt);
	bool empty = !text[strspn(text, " \t")];
	char *line = empty && prompt->empty_command ?
		g_strdup(prompt->empty_command) :
		g_strconcat(prefix, text, NULL);

	g_free(prefix);
	g_free(text);
	prompt->open = false;
	g_clear_pointer(&prompt->hint, g_free);
	if (!empty) {
		if (prompt->history->len >= HISTORY_MAX)
			g_ptr_array_remove_index(prompt->history, 0);
		g_ptr_array_add(prompt->history, g_strdup(line));
	}
	return line;
}

/* The longest common prefix of the choices. */
static char *common_prefix(GPtrArray *choices)
{
	char *common = g_strdup(choices->pdata[0]);

	for (guint i = 1; i < choices->len; i++) {
		const char *other = choices->pdata[i];
		size_t n = 0;

		while (common[n] && common[n] == other[n])
			n++;
		common[n] = 0;
	}
	return common;
}

/* Complete the word before the cursor (a command name, or what the
 * command's argument takes): a single choice is completed (with a space
 * after a name), several to their common prefix, and listed when there
 * is nothing more to add. */
static void complete(struct tn_tui_prompt *prompt,
		const struct tn_completion_source *source)
{
	char *typed = to_utf8((wchar_t *) prompt->text->data, prompt->cursor);
	char *rest = to_utf8((wchar_t *) prompt->text->data + prompt->cursor,
		prompt->text->len - prompt->cursor);
	/* After "/", what is typed is the argument of a command. */
	char *prefix = command_prefix(prompt);
	char *before = g_strconcat(prefix, typed, NULL);
	size_t skip = strlen(prefix), word_start;
	GPtrArray *choices = tn_command_complete(before, source, &word_start);
	const char *word = before + word_start;

	g_free(typed);
	g_free(prefix);
	g_clear_pointer(&prompt->hint, g_free);
	if (word_start < skip)
		g_ptr_array_set_size(choices, 0);
	if (!choices->len) {
		prompt->hint = g_strdup_printf(" nothing to complete for "
			"'%s'", word);
	} else {
		char *common = common_prefix(choices);

		if (strlen(common) > strlen(word) || choices->len == 1) {
			GString *line = g_string_new_len(before + skip,
				(gssize) (word_start - skip));
			const char *last = common + strlen(common);
			guint cursor;

			g_string_append(line, common);
			/* A complete word (not a directory) gets its blank. */
			if (choices->len == 1 && rest[0] != ' ' &&
			    (last == common || last[-1] != '/'))
				g_string_append_c(line, ' ');
			cursor = (guint) g_utf8_strlen(line->str, -1);
			g_string_append(line, rest);
			tn_tui_prompt_set_text(prompt, line->str);
			prompt->cursor = cursor;
			g_string_free(line, TRUE);
		} else {
			GString *list = g_string_new(" choices:");

			for (guint i = 0; i < choices->len; i++)
				g_string_append_printf(list, " %s",
					(char *) choices->pdata[i]);
			prompt->hint = g_string_free(list, FALSE);
		}
		g_free(common);
	}
	g_ptr_array_free(choices, TRUE);
	g_free(before);
	g_free(rest);
}

/* Step through the lines typed before; after "/", through the searches
 * (their patterns). */
static void recall(struct tn_tui_prompt *prompt, int step)
{
	char *prefix = command_prefix(prompt);
	int len = (int) prompt->history->len;
	int at = (int) prompt->history_at + step;

	while (at >= 0 && at < len && !g_str_has_prefix(
			g_ptr_array_index(prompt->history, at), prefix))
		at += step;
	if (at >= 0 && at <= len) {
		prompt->history_at = (guint) at;
		tn_tui_prompt_set_text(prompt, at == len ? "" :
			(const char *) g_ptr_array_index(prompt->history, at) +
			strlen(prefix));
	}
	g_free(prefix);
}

enum tn_tui_prompt_result tn_tui_prompt_key(struct tn_tui_prompt *prompt,
		int key, const struct tn_completion_source *source)
{
	const struct tn_tui_binding *b =
		tn_tui_keymap_find(&tn_tui_prompt_keys, key);
	GArray *text = prompt->text;

	if (!b) {
		if (key >= 0x20 && key != 0x7f && !(key & TN_TUI_KEY_FN(0)) &&
				key <= 0x10ffff) {
			wchar_t wc = (wchar_t) key;

			g_array_insert_val(text, prompt->cursor, wc);
			prompt->cursor++;
		}
		return TN_TUI_PROMPT_EDITING;
	}
	if (b->action != TN_TUI_EDIT_COMPLETE)
		g_clear_pointer(&prompt->hint, g_free);
	switch (b->action) {
	case TN_TUI_EDIT_LEFT:
		if (prompt->cursor > 0)
			prompt->cursor--;
		break;
	case TN_TUI_EDIT_RIGHT:
		if (prompt->cursor < text->len)
			prompt->cursor++;
		break;
	case TN_TUI_EDIT_HOME: prompt->cursor = 0; break;
	case TN_TUI_EDIT_END: prompt->cursor = text->len; break;
	case TN_TUI_EDIT_BACKSPACE:
		if (!text->len) {
			/* Like vim: backspace on an empty line leaves. */
			prompt->open = false;
			return TN_TUI_PROMPT_CANCELLED;
		}
		if (prompt->cursor > 0)
			g_array_remove_index(text, --prompt->cursor);
		break;
	case TN_TUI_EDIT_DELETE:
		if (prompt->cursor < text->len)
			g_array_remove_index(text, prompt->cursor);
		break;
	case TN_TUI_EDIT_KILL:
		g_array_remove_range(text, 0, prompt->cursor);
		prompt->cursor = 0;
		break;
	case TN_TUI_EDIT_COMPLETE: complete(prompt, source); break;
	case TN_TUI_EDIT_PREVIOUS: recall(prompt, -1); break;
	case TN_TUI_EDIT_NEXT: recall(prompt, 1); break;
	case TN_TUI_EDIT_RUN: return TN_TUI_PROMPT_DONE;
	case TN_TUI_EDIT_CANCEL:
		prompt->open = false;
		g_clear_pointer(&prompt->hint, g_free);
		return TN_TUI_PROMPT_CANCELLED;
	default: break;
	}
	return TN_TUI_PROMPT_EDITING;
}

void tn_tui_prompt_draw(struct tn_tui_prompt *prompt, WINDOW *win)
{
	int width = getmaxx(win) - 1;	/* never the last column */
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	char *before = to_utf8((wchar_t *) prompt->text->data, prompt->cursor);
	char *all = to_utf8((wchar_t *) prompt->text->data, prompt->text->len);
	int cursor_col, skip = 0;

	if (width < 2)
		goto out;
	cursor_col = tn_tui_text_decode(line, prompt->leader, -1, -1);
	cursor_col += tn_tui_text_decode(line, before, -1, -1);
	g_array_set_size(line, 0);
	tn_tui_text_decode(line, prompt->leader, -1, -1);
	tn_tui_text_decode(line, all, -1, -1);
	/* Scroll sideways to keep the cursor on screen. */
	if (cursor_col >= width)
		skip = cursor_col - width + 1;
	tn_tui_draw_wide(win, 0, 0, (wchar_t *) line->data, line->len, skip,
		width);
	/* The cursor: the cell under it in reverse video (the terminal's
	 * own cursor stays hidden). */
	mvwchgat(win, 0, cursor_col - skip, 1, A_REVERSE, 0, NULL);
out:
	g_free(before);
	g_free(all);
	g_array_free(line, TRUE);
}
