/* tui.c - the full-screen UI's main loop: terminal setup and restore,
 * keys to command lines, and drawing only what changed. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../commands.h"
#include "text.h"
#include "tui-private.h"
#include "tui.h"

/* How long to wait for a key before looking at the signal flag again. */
#define KEY_TIMEOUT_MS 200
#define WHEEL_LINES 3
#define COUNT_MAX 100000000L

attr_t tn_tui_attr(const struct tn_tui *tui, enum tn_tui_color color)
{
	if (tui->colors) {
		switch (color) {
		case TN_TUI_COLOR_HEADER:
			return COLOR_PAIR(color) | A_BOLD;
		case TN_TUI_COLOR_ERROR:
			return COLOR_PAIR(color) | A_BOLD;
		default:
			return COLOR_PAIR(color);
		}
	}
	switch (color) {
	case TN_TUI_COLOR_HEADER: return A_BOLD;
	case TN_TUI_COLOR_STATUS: return A_REVERSE;
	case TN_TUI_COLOR_ERROR: return A_BOLD;
	case TN_TUI_COLOR_NOTICE: return A_BOLD;
	case TN_TUI_COLOR_PANE: return A_REVERSE;
	}
	return A_NORMAL;
}

static void init_colors(struct tn_tui *tui)
{
	const char *no_color = getenv("NO_COLOR");

	/* https://no-color.org: any non-empty NO_COLOR turns colours off. */
	if ((no_color && *no_color) || !has_colors() || start_color() != OK)
		return;
	use_default_colors();
	init_pair(TN_TUI_COLOR_HEADER, COLOR_CYAN, -1);
	init_pair(TN_TUI_COLOR_STATUS, COLOR_BLACK, COLOR_CYAN);
	init_pair(TN_TUI_COLOR_ERROR, COLOR_RED, -1);
	init_pair(TN_TUI_COLOR_NOTICE, COLOR_YELLOW, -1);
	init_pair(TN_TUI_COLOR_PANE, COLOR_BLACK, COLOR_WHITE);
	tui->colors = true;
}

/* Command output: TEXT lines are collected for a text view opened after
 * the command; a MESSAGE goes to the message line. */
static void on_output(struct tn_session *session, enum tn_output_kind kind,
		const char *title, const char *text)
{
	struct tn_tui *tui = session->frontend;

	if (kind == TN_OUTPUT_MESSAGE) {
		tn_tui_message_set(tui, false, text);
		return;
	}
	if (!tui->block_title && title)
		tui->block_title = g_strdup(title);
	char **lines = g_strsplit(text ? text : "", "\n", -1);

	for (char **l = lines; *l; l++)
		g_ptr_array_add(tui->block, g_strdup(*l));
	g_strfreev(lines);
}

static void open_pager(struct tn_tui *tui, const char *title,
		GPtrArray *lines)
{
	tn_tui_pager_destroy(tui->pager);
	tui->pager = tn_tui_pager_create(title, lines);
	tui->dirty |= TN_TUI_DIRTY_OVERLAY;
}

static void close_pager(struct tn_tui *tui)
{
	tn_tui_pager_destroy(tui->pager);
	tui->pager = NULL;
	tui->dirty = TN_TUI_DIRTY_ALL;
}

/* The command a line runs, for how the view follows it. */
static const struct tn_command *line_command(const char *line)
{
	char **words = g_strsplit_set(line, " \t", 2);
	const struct tn_command *command = NULL;

	if (words[0])
		command = tn_command_find(words[0]);
	g_strfreev(words);
	return command;
}

/* Run a command line as if typed at the prompt.  keep_row: the cursor
 * keeps its screen row (the wheel; pgdn and pgup always do). */
static void run_line(struct tn_tui *tui, const char *line, bool keep_row)
{
	struct tn_session *session = tui->session;
	enum tn_tui_follow follow = TN_TUI_FOLLOW_JUMP;
	const struct tn_command *command;
	struct tn_error err;

	line += strspn(line, " \t:");
	if (!*line)
		return;
	command = line_command(line);
	if (command && (!strcmp(command->name, "down") ||
			!strcmp(command->name, "up")))
		follow = TN_TUI_FOLLOW_SCROLL;
	if (keep_row || (command && (!strcmp(command->name, "pgdn") ||
			!strcmp(command->name, "pgup"))))
		follow = TN_TUI_FOLLOW_KEEP_ROW;
	tn_tui_message_set(tui, false, "");
	session->page_rows = MAX(tn_tui_list_rows(tui), 1);
	g_ptr_array_set_size(tui->block, 0);
	g_clear_pointer(&tui->block_title, g_free);
	tn_error_clear(&err);
	if (tn_command_run(session, line, &err))
		tn_tui_message_set(tui, true, err.message);
	tn_tui_list_follow(tui, follow);
	if (tui->block_title && !strcmp(tui->block_title, "help")) {
		/* The keys too, not only the commands. */
		GPtrArray *help = tn_tui_help_lines();

		open_pager(tui, "help", help);
		g_ptr_array_free(help, TRUE);
	} else if (tui->block->len) {
		open_pager(tui, tui->block_title ? tui->block_title : line,
			tui->block);
	}
	g_ptr_array_set_size(tui->block, 0);
	tui->dirty |= TN_TUI_DIRTY_LIST | TN_TUI_DIRTY_STATUS |
		TN_TUI_DIRTY_MESSAGE;
}

static void run_move(struct tn_tui *tui, int64_t delta, bool keep_row)
{
	char line[64];

	if (!delta)
		return;
	snprintf(line, sizeof(line), "%s %" G_GINT64_FORMAT,
		delta > 0 ? "down" : "up", delta > 0 ? delta : -delta);
	run_line(tui, line, keep_row);
}

static void relayout(struct tn_tui *tui)
{
	tn_tui_layout_apply(tui);
	tn_tui_list_follow(tui, TN_TUI_FOLLOW_KEEP_ROW);
	tui->dirty = TN_TUI_DIRTY_ALL;
}

static void on_mouse(struct tn_tui *tui)
{
	MEVENT ev;
	int wheel = 0;

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED)
		wheel = -WHEEL_LINES;
	else if (ev.bstate & BUTTON5_PRESSED)
		wheel = WHEEL_LINES;
	if (tui->pager) {
		tn_tui_pager_scroll(tui->pager, wheel);
		tui->dirty |= TN_TUI_DIRTY_OVERLAY;
		return;
	}
	if (tn_tui_prompt_is_open(tui->prompt))
		return;
	if (wheel) {
		run_move(tui, wheel, true);
		return;
	}
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)) ||
			!tui->list_win ||
			!wenclose(tui->list_win, ev.y, ev.x))
		return;
	/* A click on a row selects it: a move of the difference. */
	int row = ev.y - tui->layout.list.y - 1;

	if (tn_tui_list_has_row_at(tui, row))
		run_move(tui, row - tui->session->top_offset, false);
}

static void on_prompt_key(struct tn_tui *tui, int key)
{
	switch (tn_tui_prompt_key(tui->prompt, key)) {
	case TN_TUI_PROMPT_DONE: {
		char *line = tn_tui_prompt_take_line(tui->prompt);

		run_line(tui, line, false);
		g_free(line);
		break;
	}
	case TN_TUI_PROMPT_CANCELLED:
		tn_tui_message_set(tui, false, "");
		break;
	case TN_TUI_PROMPT_EDITING:
		break;
	}
	tui->dirty |= TN_TUI_DIRTY_MESSAGE | TN_TUI_DIRTY_STATUS;
}

static void on_list_key(struct tn_tui *tui, int key)
{
	const struct tn_tui_binding *b;
	bool has_count = tui->has_count;
	long count = tui->count;
	char line[64];

	if (key >= '0' && key <= '9') {
		tui->count = MIN(tui->count * 10 + (key - '0'), COUNT_MAX);
		tui->has_count = true;
		tui->dirty |= TN_TUI_DIRTY_MESSAGE;
		return;
	}
	tui->has_count = false;
	tui->count = 0;
	tui->dirty |= TN_TUI_DIRTY_MESSAGE;
	b = tn_tui_key_find(TN_TUI_KEYMAP_LIST, key);
	if (!b) {
		char name[32];

		tn_tui_key_name(key, name, sizeof(name));
		snprintf(line, sizeof(line), "%s: no such key (? for help)",
			name);
		tn_tui_message_set(tui, true, line);
		return;
	}
	switch (b->action) {
	case TN_TUI_RUN:
		/* A count repeats a line move: 5j is "down 5"; before G
		 * it is an event number, as a line number in vim. */
		if (has_count && (!strcmp(b->command, "down 1") ||
				!strcmp(b->command, "up 1"))) {
			snprintf(line, sizeof(line), "%s %ld",
				b->command[0] == 'd' ? "down" : "up", count);
			run_line(tui, line, false);
		} else if (has_count && !strcmp(b->command, "bottom")) {
			snprintf(line, sizeof(line), "goto #%ld", count);
			run_line(tui, line, false);
		} else {
			run_line(tui, b->command, false);
		}
		break;
	case TN_TUI_PERCENT:
		if (!has_count) {
			tn_tui_message_set(tui, true, "type the digits first, "
				"then %: 50% goes to the middle");
			break;
		}
		snprintf(line, sizeof(line), "goto %ld%%", count);
		run_line(tui, line, false);
		break;
	case TN_TUI_PROMPT:
		tn_tui_message_set(tui, false, "");
		tn_tui_prompt_open(tui->prompt);
		break;
	case TN_TUI_SCROLL_LEFT: tn_tui_list_scroll_columns(tui, -1); break;
	case TN_TUI_SCROLL_RIGHT: tn_tui_list_scroll_columns(tui, 1); break;
	case TN_TUI_TOGGLE_STATE:
	case TN_TUI_TOGGLE_SEQ:
		if (b->action == TN_TUI_TOGGLE_STATE)
			tui->show_state = !tui->show_state;
		else
			tui->show_seq = !tui->show_seq;
		relayout(tui);
		if ((tui->show_state && !tui->state_win) ||
				(tui->show_seq && !tui->seq_win))
			tn_tui_message_set(tui, true, "no room for that pane "
				"in a terminal this small");
		break;
	case TN_TUI_REDRAW:
		clearok(curscr, TRUE);
		tui->dirty = TN_TUI_DIRTY_ALL;
		break;
	case TN_TUI_CANCEL:
		tn_tui_message_set(tui, false, "");
		break;
	default:
		break;
	}
}

static void on_key(struct tn_tui *tui, int key)
{
	if (key == TN_TUI_KEY_FN(KEY_RESIZE)) {
		relayout(tui);
		return;
	}
	if (key == TN_TUI_KEY_FN(KEY_MOUSE)) {
		on_mouse(tui);
		return;
	}
	if (tui->layout.too_small) {
		if (key == 'q' || key == 'Q')
			run_line(tui, "quit", false);
		return;
	}
	if (tn_tui_prompt_is_open(tui->prompt)) {
		on_prompt_key(tui, key);
	} else if (tui->pager) {
		const struct tn_tui_binding *b =
			tn_tui_key_find(TN_TUI_KEYMAP_PAGER, key);

		if (b && b->action == TN_TUI_REDRAW) {
			clearok(curscr, TRUE);
			tui->dirty = TN_TUI_DIRTY_ALL;
		} else if (!tn_tui_pager_key(tui->pager, key)) {
			close_pager(tui);
		}
		tui->dirty |= TN_TUI_DIRTY_OVERLAY;
	} else {
		on_list_key(tui, key);
	}
}

/* Draw what changed; ncurses then sends only the cells that differ. */
static void draw(struct tn_tui *tui)
{
	if (!tui->dirty)
		return;
	if (tui->layout.too_small) {
		tn_tui_too_small_draw(tui);
	} else if (tui->pager) {
		if (tui->dirty & (TN_TUI_DIRTY_OVERLAY | TN_TUI_DIRTY_LIST |
				TN_TUI_DIRTY_PANES) && tui->overlay_win)
			tn_tui_pager_draw(tui->pager, tui->overlay_win);
	} else {
		if (tui->dirty & TN_TUI_DIRTY_LIST) {
			tn_tui_list_draw(tui);
			tui->dirty |= TN_TUI_DIRTY_STATUS;
		}
		if (tui->dirty & TN_TUI_DIRTY_PANES)
			tn_tui_panes_draw(tui);
	}
	if (!tui->layout.too_small) {
		if (tui->dirty & TN_TUI_DIRTY_STATUS)
			tn_tui_status_draw(tui);
		if (tui->dirty & TN_TUI_DIRTY_MESSAGE)
			tn_tui_message_draw(tui);
	}
	tui->dirty = 0;
	doupdate();
}

static int read_key(WINDOW *input)
{
	wint_t wc;
	int r = wget_wch(input, &wc);

	if (r == ERR)
		return TN_TUI_KEY_NONE;
	if (r == KEY_CODE_YES)
		return TN_TUI_KEY_FN((int) wc);
	return (int) wc;
}

static void loop(struct tn_tui *tui, WINDOW *input)
{
	while (!tn_tui_guard_caught() && !tui->session->quit) {
		int key;

		/* The index builds in the background: show its progress,
		 * then the event numbers (the cursor does not move). */
		if (tn_session_poll_index(tui->session))
			tui->dirty |= TN_TUI_DIRTY_STATUS;
		draw(tui);
		key = read_key(input);
		if (key != TN_TUI_KEY_NONE && !tn_tui_guard_caught())
			on_key(tui, key);
	}
}

static int start_terminal(struct tn_tui *tui, struct tn_error *err)
{
	const char *term = getenv("TERM");

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		tn_error_set(err, "the event list needs a terminal on standard "
			"input and output; use --dump or --batch to print "
			"events");
		return -1;
	}
	tui->screen = newterm(NULL, stdout, stdin);
	if (!tui->screen) {
		tn_error_set(err, "cannot use the terminal type '%s' (TERM): "
			"set TERM to one that terminfo knows, e.g. xterm-256color "
			"or vt100", term ? term : "");
		return -1;
	}
	set_term(tui->screen);
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED |
		BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	init_colors(tui);
	return 0;
}

int tn_tui_run(struct tn_session *session, struct tn_error *err)
{
	struct tn_tui tui = { .session = session };
	void (*saved_output)(struct tn_session *, enum tn_output_kind,
		const char *, const char *) = session->output;
	void *saved_frontend = session->frontend;
	WINDOW *input;
	int status = 0;

	tn_error_clear(err);
	/* Wide characters need the user's locale; only the character
	 * type, so that nothing else (numbers, times) changes. */
	setlocale(LC_CTYPE, "");
	tn_tui_text_set_utf8(tn_tui_text_locale_is_utf8());
	tn_tui_guard_begin();
	if (start_terminal(&tui, err)) {
		tn_tui_guard_end();
		return -1;
	}
	tn_tui_guard_screen(true);
	/* Keys are read from a pad: wgetch() on a window would first
	 * refresh it over the panes. */
	input = newpad(1, 1);
	keypad(input, TRUE);
	wtimeout(input, KEY_TIMEOUT_MS);

	session->output = on_output;
	session->frontend = &tui;
	session->quit = false;
	tui.message = g_string_new(NULL);
	tui.block = g_ptr_array_new_with_free_func(g_free);
	tui.prompt = tn_tui_prompt_create();
	tn_tui_list_init(&tui);
	tn_tui_layout_apply(&tui);
	if (session->index_on_start && tn_session_start_index(session, err)) {
		tn_tui_message_set(&tui, true, err->message);
		tn_error_clear(err);
	}

	loop(&tui, input);
	if (tn_tui_guard_caught())
		status = 128 + tn_tui_guard_caught();

	tn_tui_layout_destroy(&tui);
	delwin(input);
	tn_tui_guard_screen(false);
	endwin();
	delscreen(tui.screen);
	tn_tui_guard_end();
	tn_tui_pager_destroy(tui.pager);
	tn_tui_prompt_destroy(tui.prompt);
	tn_tui_list_fini(&tui);
	g_ptr_array_free(tui.block, TRUE);
	g_free(tui.block_title);
	g_string_free(tui.message, TRUE);
	session->output = saved_output;
	session->frontend = saved_frontend;
	return status;
}
