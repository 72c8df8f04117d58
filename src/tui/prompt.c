/* prompt.c - the ':' command line: editing, history (kept across runs
 * by history.c: Up and Down recall the lines that start with what was
 * typed, Ctrl-R searches them as readline does), and Tab completion of
 * command names and arguments (cmd/complete.c). */
#include <string.h>

#include "../commands.h"
#include "../history.h"
#include "draw.h"
#include "text.h"
#include "tui-private.h"

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
	char *hint;		/* choices listed by Tab, or NULL */
	/* The lines run before (of every kind: "search RE" after /). */
	struct tn_history *history;
	bool history_warned;	/* said once that it cannot be saved */
	char *message;		/* for the message line, or NULL */
	/* Up and Down: the line recalled (the history's count: the one
	 * being typed), and what they match (the command's prefix and what
	 * was typed before the first Up), NULL until Up. */
	long history_at;
	char *recall_prefix;
	char *typed;		/* the line typed before the first Up */
	/* Ctrl-R: the text searched for, the line found (-1: none yet),
	 * whether the last search failed, the line before Ctrl-R. */
	bool searching;
	GString *query;
	long found;
	bool failing;
	char *saved;
};

struct tn_tui_prompt *tn_tui_prompt_create(struct tn_history *history)
{
	struct tn_tui_prompt *prompt = g_new0(struct tn_tui_prompt, 1);

	prompt->text = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	prompt->history = history ? history : tn_history_create(NULL, 0);
	prompt->query = g_string_new(NULL);
	return prompt;
}

void tn_tui_prompt_destroy(struct tn_tui_prompt *prompt)
{
	if (!prompt)
		return;
	g_array_free(prompt->text, TRUE);
	tn_history_destroy(prompt->history);
	g_free(prompt->hint);
	g_free(prompt->message);
	g_free(prompt->recall_prefix);
	g_free(prompt->typed);
	g_string_free(prompt->query, TRUE);
	g_free(prompt->saved);
	g_free(prompt);
}

char *tn_tui_prompt_take_message(struct tn_tui_prompt *prompt)
{
	char *message = prompt->message;

	prompt->message = NULL;
	return message;
}

/* Forget where Up and Down were: the line was edited. */
static void stop_recall(struct tn_tui_prompt *prompt)
{
	g_clear_pointer(&prompt->recall_prefix, g_free);
	g_clear_pointer(&prompt->typed, g_free);
	prompt->history_at = (long) tn_history_count(prompt->history);
}

bool tn_tui_prompt_is_open(const struct tn_tui_prompt *prompt)
{
	return prompt && prompt->open;
}

const char *tn_tui_prompt_hint(const struct tn_tui_prompt *prompt)
{
	return prompt && prompt->open ? prompt->hint : NULL;
}

/* A byte of invalid UTF-8 (0x80 to 0xFF, from a completed event name or
 * a history line) is kept in the line as a lone surrogate, U+DC00 + the
 * byte, as Python's surrogateescape does: no character can be one, and
 * to_utf8() gives the byte back, so that the line runs with the bytes
 * it was given; it shows escaped ("\x9b"). */
#define BYTE_ESCAPE 0xDC00

void tn_tui_prompt_set_text(struct tn_tui_prompt *prompt, const char *utf8)
{
	const char *end = utf8 + strlen(utf8);

	g_array_set_size(prompt->text, 0);
	for (const char *p = utf8; p < end;) {
		gunichar c = g_utf8_get_char_validated(p, end - p);
		wchar_t wc;

		if (c == (gunichar) -1 || c == (gunichar) -2) {
			wc = (wchar_t) (BYTE_ESCAPE + (guchar) *p++);
		} else {
			wc = (wchar_t) c;
			p += g_utf8_skip[(guchar) *p];
		}
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
	stop_recall(prompt);
	prompt->searching = false;
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

	for (guint i = 0; i < n; i++) {
		if (s[i] >= BYTE_ESCAPE + 0x80 && s[i] <= BYTE_ESCAPE + 0xff)
			g_string_append_c(out, (char) (s[i] - BYTE_ESCAPE));
		else
			g_string_append_unichar(out, (gunichar) s[i]);
	}
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
	prompt->searching = false;
	if (!empty) {
		struct tn_error err;

		if (tn_history_add(prompt->history, line, &err) &&
		    !prompt->history_warned) {
			prompt->history_warned = true;
			g_free(prompt->message);
			prompt->message = g_strdup_printf("%s; the history of "
				"this run stays in memory", err.message);
		}
	}
	stop_recall(prompt);
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
	bool whole_word;
	GPtrArray *choices = tn_command_complete_word(before, source,
		&word_start, &whole_word);
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
			/* A complete word (not a directory, nor a name in a
			 * pattern) gets its blank. */
			if (choices->len == 1 && rest[0] != ' ' && whole_word &&
			    (last == common || last[-1] != '/'))
				g_string_append_c(line, ' ');
			/* The cursor after what was completed, counted as
			 * the line counts characters (bad bytes too). */
			tn_tui_prompt_set_text(prompt, line->str);
			cursor = prompt->text->len;
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

/* Step through the lines typed before that start with what was typed
 * before the first Up (as zsh's and fish's Up do; nothing typed: every
 * line); after "/", through the searches (their patterns).  Down past
 * the newest gives back what was typed. */
/* Whether the history's line at may come back in this prompt: after "/"
 * (whose lines the prefix picks), any; at ':', a command line, not a
 * pane's search that the history keeps under a word of its own
 * ("state-find RE"), which would not run. */
static bool recallable(const struct tn_tui_prompt *prompt, long at)
{
	const char *line = tn_history_get(prompt->history, (size_t) at);
	char *word;
	bool known;

	if (prompt->command)
		return true;
	line += strspn(line, " \t:");
	word = g_strndup(line, strcspn(line, " \t!"));
	known = tn_command_find(word) != NULL;
	g_free(word);
	return known;
}

static void recall(struct tn_tui_prompt *prompt, int step)
{
	char *prefix = command_prefix(prompt);
	long len = (long) tn_history_count(prompt->history), at;

	if (!prompt->recall_prefix) {
		prompt->typed = to_utf8((wchar_t *) prompt->text->data,
			prompt->text->len);
		prompt->recall_prefix = g_strconcat(prefix, prompt->typed,
			NULL);
		prompt->history_at = len;
	}
	at = prompt->history_at;
	do
		at = tn_history_step(prompt->history, prompt->recall_prefix,
			at, step);
	while (at >= 0 && !recallable(prompt, at));
	if (at >= 0) {
		prompt->history_at = at;
		tn_tui_prompt_set_text(prompt, tn_history_get(prompt->history,
			(size_t) at) + strlen(prefix));
	} else if (step > 0 && prompt->history_at < len) {
		prompt->history_at = len;
		tn_tui_prompt_set_text(prompt, prompt->typed);
	}
	g_free(prefix);
}

/* ---- Ctrl-R: the history searched as one types (readline's
 * reverse-i-search) ---- */

/* The line of the history shown while searching (without the prompt's
 * command), or what was typed when nothing was found. */
static const char *found_text(const struct tn_tui_prompt *prompt,
		size_t skip)
{
	if (prompt->found < 0)
		return prompt->saved;
	return tn_history_get(prompt->history, (size_t) prompt->found) + skip;
}

/* Look for the query in lines older than before (inclusive of before - 1). */
static void search_from(struct tn_tui_prompt *prompt, long before)
{
	char *prefix = command_prefix(prompt);
	long at = tn_history_search(prompt->history, prefix,
		prompt->query->str, before);

	while (at >= 0 && !recallable(prompt, at))
		at = tn_history_search(prompt->history, prefix,
			prompt->query->str, at);

	prompt->failing = at < 0;
	if (at >= 0)
		prompt->found = at;
	g_free(prefix);
}

static void start_search(struct tn_tui_prompt *prompt)
{
	prompt->searching = true;
	prompt->failing = false;
	prompt->found = -1;
	g_string_truncate(prompt->query, 0);
	g_free(prompt->saved);
	prompt->saved = to_utf8((wchar_t *) prompt->text->data,
		prompt->text->len);
}

/* Leave the search with the line found (or the one before it). */
static void end_search(struct tn_tui_prompt *prompt, bool accept)
{
	char *prefix = command_prefix(prompt);

	tn_tui_prompt_set_text(prompt, accept ?
		found_text(prompt, strlen(prefix)) : prompt->saved);
	prompt->searching = false;
	stop_recall(prompt);
	g_free(prefix);
}

/* A key while searching: characters refine the search, Ctrl-R goes to
 * an older match, Backspace takes a character off the query, Enter
 * runs the line found, Esc and Ctrl-G give back the line as it was;
 * any other key takes the line found and edits it. */
static enum tn_tui_prompt_result search_key(struct tn_tui_prompt *prompt,
		const struct tn_tui_binding *b, int key, bool *again)
{
	long len = (long) tn_history_count(prompt->history);

	*again = false;
	if (!b) {
		if (key >= 0x20 && key != 0x7f && !(key & TN_TUI_KEY_FN(0)) &&
		    key <= 0x10ffff) {
			g_string_append_unichar(prompt->query, (gunichar) key);
			/* The line shown may hold it still. */
			search_from(prompt, prompt->found >= 0 ?
				prompt->found + 1 : len);
		}
		return TN_TUI_PROMPT_EDITING;
	}
	switch (b->action) {
	case TN_TUI_EDIT_HISTORY_SEARCH:
		search_from(prompt, prompt->found >= 0 ? prompt->found : len);
		return TN_TUI_PROMPT_EDITING;
	case TN_TUI_EDIT_BACKSPACE:
		if (prompt->query->len) {
			const char *end = prompt->query->str +
				prompt->query->len;

			g_string_truncate(prompt->query, (gsize) (g_utf8_prev_char(
				end) - prompt->query->str));
			prompt->found = -1;
			search_from(prompt, len);
		}
		return TN_TUI_PROMPT_EDITING;
	case TN_TUI_EDIT_CANCEL:
		end_search(prompt, false);
		return TN_TUI_PROMPT_EDITING;
	case TN_TUI_EDIT_RUN:
		end_search(prompt, true);
		return TN_TUI_PROMPT_DONE;
	default:
		end_search(prompt, true);
		*again = true;
		return TN_TUI_PROMPT_EDITING;
	}
}

enum tn_tui_prompt_result tn_tui_prompt_key(struct tn_tui_prompt *prompt,
		int key, const struct tn_completion_source *source)
{
	const struct tn_tui_binding *b =
		tn_tui_keymap_find(&tn_tui_prompt_keys, key);
	GArray *text = prompt->text;

	if (prompt->searching) {
		bool again;
		enum tn_tui_prompt_result result = search_key(prompt, b, key,
			&again);

		if (!again)
			return result;
	}
	if (!b || (b->action != TN_TUI_EDIT_PREVIOUS &&
		   b->action != TN_TUI_EDIT_NEXT))
		stop_recall(prompt);
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
	case TN_TUI_EDIT_HISTORY_SEARCH: start_search(prompt); break;
	case TN_TUI_EDIT_RUN: return TN_TUI_PROMPT_DONE;
	case TN_TUI_EDIT_CANCEL:
		prompt->open = false;
		g_clear_pointer(&prompt->hint, g_free);
		return TN_TUI_PROMPT_CANCELLED;
	default: break;
	}
	return TN_TUI_PROMPT_EDITING;
}

/* The line while searching the history: "(reverse-i-search)'QUERY':
 * LINE FOUND", the cursor after it. */
static void draw_search(struct tn_tui_prompt *prompt, WINDOW *win, int width)
{
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	char *prefix = command_prefix(prompt);
	char *shown = g_strdup_printf("(%sreverse-i-search)'%s': %s",
		prompt->failing ? "failed " : "", prompt->query->str,
		found_text(prompt, strlen(prefix)));
	int cols = tn_tui_text_decode(line, shown, -1, -1);

	tn_tui_draw_wide(win, 0, 0, (wchar_t *) line->data, line->len, 0,
		width);
	if (cols < width)
		mvwchgat(win, 0, cols, 1, A_REVERSE, 0, NULL);
	g_array_free(line, TRUE);
	g_free(shown);
	g_free(prefix);
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
	if (prompt->searching) {
		draw_search(prompt, win, width);
		goto out;
	}
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
