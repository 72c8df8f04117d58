/* tui.c - the full-screen UI's main loop: terminal setup and restore,
 * keys to panes and commands, and drawing only what changed.
 *
 * Keys go to the focused pane first, then to the global key map (the
 * prompt, help, focus, quit...), then to the event list.  The loop never
 * waits on the trace: commands run as jobs (run.c) and it polls them.
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../commands.h"
#include "../history.h"
#include "term-check.h"
#include "text.h"
#include "tui-private.h"
#include "tui.h"

/* How long to wait for a key before looking at the signals and the
 * background jobs again: short while a job runs, to take its result. */
#define KEY_TIMEOUT_MS 200
#define JOB_POLL_MS 10
/* Following a live session: its packets come a live-timer period apart
 * (100 ms, say); the copy is looked at this often. */
#define LIVE_POLL_MS 50
#define WHEEL_LINES 3
#define COUNT_MAX 100000000L
/* Cells a pane grows or shrinks by with + and -. */
#define RESIZE_STEP 2

/* Output of commands and of the session: TEXT lines are collected for a
 * text view opened after the command; a MESSAGE goes to the message
 * line. */
static void tui_write(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text)
{
	struct tn_tui *tui = (struct tn_tui *) out;	/* its first member */
	char **lines;

	if (kind == TN_OUTPUT_MESSAGE) {
		tn_tui_message_set(tui, false, text);
		return;
	}
	if (!tui->block_title && title)
		tui->block_title = g_strdup(title);
	if (kind == TN_OUTPUT_LINE)
		tui->block_whole = true;
	lines = g_strsplit(text ? text : "", "\n", -1);
	for (char **l = lines; *l; l++)
		g_ptr_array_add(tui->block, g_strdup(*l));
	g_strfreev(lines);
}

/* OSC 52: "set the clipboard" (c) to the base64 of text; xterm and most
 * terminals take it, through ssh too; tmux passes it on with its option
 * set-clipboard on. */
void tn_tui_copy(struct tn_tui *tui, const char *text)
{
	gchar *base64 = g_base64_encode((const guchar *) text, strlen(text));

	g_string_append_printf(tui->to_terminal, "\033]52;c;%s\a", base64);
	g_free(base64);
	tn_tui_message_set(tui, false, getenv("TMUX") ?
		"copied the event's line (OSC 52; tmux needs set-clipboard on)" :
		"copied the event's line (OSC 52: if nothing was copied, the "
		"terminal does not allow it)");
}

void tn_tui_relayout(struct tn_tui *tui)
{
	tn_tui_place_windows(tui);
	/* The panes' sizes changed: what they show is computed again. */
	tn_tui_request_update(tui);
}

/* ---- keys ---- */

static void toggle_pane(struct tn_tui *tui, struct tn_pane *pane)
{
	tn_panes_toggle(&tui->panes, pane);
	tn_tui_relayout(tui);
	if (pane->open && !pane->win)
		tn_tui_message_set(tui, true, "no room for that pane in a "
			"terminal this small");
}

static void resize_focused(struct tn_tui *tui, int step)
{
	struct tn_pane *pane = tn_panes_focused(&tui->panes);
	int total, size;

	if (pane == tn_panes_main(&tui->panes)) {
		tn_tui_message_set(tui, true, "focus a pane with Tab to "
			"resize it");
		return;
	}
	total = pane->cls->layout.place == TN_PANE_RIGHT ? getmaxx(stdscr) :
		getmaxy(stdscr) - 2;
	size = pane->rect.w && pane->cls->layout.place == TN_PANE_RIGHT ?
		pane->rect.w : pane->rect.h;
	if (!size)
		size = tn_tui_layout_pane_size(&pane->cls->layout, total);
	pane->size = MAX(size + step, 1);
	tn_tui_relayout(tui);
	if (!pane->win) {
		/* Too large to fit: back to where it was. */
		pane->size = size;
		tn_tui_relayout(tui);
	}
}

/* Capture the mouse (wheel, clicks), or leave it to the terminal, whose
 * own selection then works. */
static void set_mouse(struct tn_tui *tui, bool on)
{
	mousemask(on ? BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED |
		BUTTON5_PRESSED : 0, NULL);
	tui->mouse_off = !on;
	tn_tui_message_set(tui, false, on ? "mouse on: the wheel scrolls, "
		"a click selects (M: off)" : "mouse off: the terminal selects "
		"and copies (M: on)");
}

void tn_tui_open_prompt(struct tn_tui *tui, const char *text)
{
	tui->prompt_pane = NULL;
	tn_tui_message_set(tui, false, "");
	tn_tui_prompt_open(tui->prompt);
	if (text)
		tn_tui_prompt_set_text(tui->prompt, text);
}

void tn_tui_open_prompt_for(struct tn_tui *tui, const char *leader,
		const char *command, const char *empty_command)
{
	tui->prompt_pane = NULL;
	tn_tui_message_set(tui, false, "");
	tn_tui_prompt_open_for(tui->prompt, leader, command, empty_command);
}

void tn_tui_open_prompt_for_pane(struct tn_tui *tui, struct tn_pane *pane,
		const char *leader, const char *word)
{
	tn_tui_message_set(tui, false, "");
	tn_tui_prompt_open_for(tui->prompt, leader, word, NULL);
	tui->prompt_pane = pane;
}

/* The line of a prompt opened for a pane goes to it, without the word
 * the history keeps before it. */
static void give_to_pane(struct tn_tui *tui, const char *line)
{
	struct tn_pane *pane = tui->prompt_pane;
	const char *text = strchr(line, ' ');

	tui->prompt_pane = NULL;
	if (pane->cls->prompt_done)
		pane->cls->prompt_done(pane, text ? text + 1 : "");
}

/* Esc: what runs stops first (the list's job, a pane's find), then a
 * count or a message goes. */
static void cancel(struct tn_tui *tui)
{
	bool panes;

	/* A selection going on: forget it. */
	if (tui->selection.active) {
		tn_tui_run_line(tui, "select cancel", TN_TUI_FOLLOW_BY_COMMAND);
		return;
	}
	panes = tn_panes_cancel(&tui->panes);
	if (tn_tui_cancel_jobs(tui) || panes)
		tn_tui_message_set(tui, false, "cancelling...");
	else
		tn_tui_message_set(tui, false, "");
}

static bool on_global_key(struct tn_tui *tui, const struct tn_tui_key *key)
{
	const struct tn_tui_binding *b =
		tn_tui_keymap_find(&tn_tui_global_keys, key->key);
	struct tn_pane *pane = tn_panes_find_toggle(&tui->panes, key->key);

	if (pane) {
		toggle_pane(tui, pane);
		return true;
	}
	if (!b)
		return false;
	if (b->command) {
		tn_tui_run_command(tui, b->command, key);
		return true;
	}
	switch (b->action) {
	case TN_TUI_GLOBAL_PROMPT: tn_tui_open_prompt(tui, NULL); break;
	case TN_TUI_GLOBAL_FOCUS_NEXT:
		tn_panes_move_focus(&tui->panes, 1);
		break;
	case TN_TUI_GLOBAL_FOCUS_PREVIOUS:
		tn_panes_move_focus(&tui->panes, -1);
		break;
	case TN_TUI_GLOBAL_GROW: resize_focused(tui, RESIZE_STEP); break;
	case TN_TUI_GLOBAL_SHRINK: resize_focused(tui, -RESIZE_STEP); break;
	case TN_TUI_GLOBAL_REDRAW:
		clearok(curscr, TRUE);
		tui->dirty = TN_TUI_DIRTY_ALL;
		break;
	case TN_TUI_GLOBAL_CANCEL: cancel(tui); break;
	case TN_TUI_GLOBAL_MOUSE: set_mouse(tui, tui->mouse_off); break;
	default: break;
	}
	return true;
}

static bool pane_key(struct tn_pane *pane, const struct tn_tui_key *key)
{
	return pane->cls->key && pane->cls->key(pane, key);
}

/* A key of the main screen: the focused pane, the global keys, the list. */
static void on_screen_key(struct tn_tui *tui, int code)
{
	struct tn_pane *focused = tn_panes_focused(&tui->panes);
	struct tn_pane *list = tn_panes_main(&tui->panes);
	struct tn_tui_key key = { code, tui->has_count, tui->count };
	char name[32], text[64];

	if (code >= '0' && code <= '9') {
		tui->count = MIN(tui->count * 10 + (code - '0'), COUNT_MAX);
		tui->has_count = true;
		tui->dirty |= TN_TUI_DIRTY_MESSAGE;
		return;
	}
	tui->has_count = false;
	tui->count = 0;
	tui->dirty |= TN_TUI_DIRTY_MESSAGE;
	if (pane_key(focused, &key) || on_global_key(tui, &key) ||
	    (focused != list && pane_key(list, &key)))
		return;
	tn_tui_key_name(code, name, sizeof(name));
	snprintf(text, sizeof(text), "%s: no such key (? for help)", name);
	tn_tui_message_set(tui, true, text);
}

static void on_prompt_key(struct tn_tui *tui, int key)
{
	struct tn_pane_status list;
	struct tn_completion_source source = { 0 };

	/* What Tab may offer: the trace's event and field names (from its
	 * metadata) and the current event's time. */
	source.event_names = tn_trace_get_event_names(tui->session->trace);
	source.field_names = tn_trace_get_field_names(tui->session->trace);
	if (tn_pane_get_status(tn_panes_main(&tui->panes), &list))
		source.current_time = list.current_time;
	switch (tn_tui_prompt_key(tui->prompt, key, &source)) {
	case TN_TUI_PROMPT_DONE: {
		char *line = tn_tui_prompt_take_line(tui->prompt);
		char *message = tn_tui_prompt_take_message(tui->prompt);

		if (tui->prompt_pane)
			give_to_pane(tui, line);
		else
			tn_tui_run_line(tui, line, TN_TUI_FOLLOW_BY_COMMAND);
		/* After the command's own message, unless it has one. */
		if (message && !tui->message->len)
			tn_tui_message_set(tui, true, message);
		g_free(message);
		g_free(line);
		break;
	}
	case TN_TUI_PROMPT_CANCELLED:
		tui->prompt_pane = NULL;
		tn_tui_message_set(tui, false, "");
		break;
	case TN_TUI_PROMPT_EDITING:
		break;
	}
	tui->dirty |= TN_TUI_DIRTY_MESSAGE | TN_TUI_DIRTY_STATUS;
}

static void on_pager_key(struct tn_tui *tui, int key)
{
	const struct tn_tui_binding *b =
		tn_tui_keymap_find(&tn_tui_pager_keys, key);

	if (b && b->action == TN_TUI_PAGER_STEP) {
		/* The cursor moves, then the view's command shows it. */
		if (!tui->view_command) {
			tn_tui_message_set(tui, true, "J and K step in a view "
				"of the current event (Enter's detail)");
			return;
		}
		tn_tui_run_command(tui, b->command, NULL);
		tn_tui_run_command(tui, tui->view_command->name, NULL);
	} else if (b && b->action == TN_TUI_PAGER_REDRAW) {
		clearok(curscr, TRUE);
		tui->dirty = TN_TUI_DIRTY_ALL;
	} else if (!tn_tui_pager_key(tui->pager, key)) {
		tn_tui_pager_destroy(tui->pager);
		tui->pager = NULL;
		tui->dirty = TN_TUI_DIRTY_ALL;
		for (size_t i = 0; i < tui->panes.count; i++)
			tui->panes.panes[i].dirty = true;
	}
	tui->dirty |= TN_TUI_DIRTY_OVERLAY;
}

/* The mouse: the wheel scrolls the text view or the pane under it, a
 * click goes to the pane clicked. */
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
	if (!wheel && !(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
		return;
	for (size_t i = 0; i < tui->panes.count; i++) {
		struct tn_pane *pane = &tui->panes.panes[i];

		if (!pane->win || !wenclose(pane->win, ev.y, ev.x) ||
		    !pane->cls->mouse)
			continue;
		pane->cls->mouse(pane, ev.y - pane->rect.y,
			ev.x - pane->rect.x, wheel);
	}
}

static void on_key(struct tn_tui *tui, int key)
{
	if (key == TN_TUI_KEY_FN(KEY_RESIZE)) {
		tn_tui_relayout(tui);
		return;
	}
	if (key == TN_TUI_KEY_FN(KEY_MOUSE)) {
		on_mouse(tui);
		return;
	}
	if (tui->layout.too_small) {
		if (key == 'q' || key == 'Q')
			tn_tui_run_line(tui, "quit", TN_TUI_FOLLOW_BY_COMMAND);
		return;
	}
	if (tn_tui_prompt_is_open(tui->prompt))
		on_prompt_key(tui, key);
	else if (tui->pager)
		on_pager_key(tui, key);
	else
		on_screen_key(tui, key);
}

/* ---- drawing ---- */

/* Draw what changed; ncurses then sends only the cells that differ. */
static void draw(struct tn_tui *tui)
{
	if (!tui->dirty && !tui->pager) {
		bool any = false;

		for (size_t i = 0; i < tui->panes.count; i++)
			any = any || tui->panes.panes[i].dirty;
		if (!any)
			return;
	}
	if (tui->layout.too_small) {
		tn_tui_too_small_draw(tui);
	} else if (tui->pager) {
		if (tui->dirty & (TN_TUI_DIRTY_OVERLAY | TN_TUI_DIRTY_PANES) &&
		    tui->overlay_win)
			tn_tui_pager_draw(tui->pager, tui->overlay_win);
	} else {
		for (size_t i = 0; i < tui->panes.count; i++) {
			struct tn_pane *pane = &tui->panes.panes[i];

			if (!pane->win || (!pane->dirty &&
			    !(tui->dirty & TN_TUI_DIRTY_PANES)))
				continue;
			pane->cls->draw(pane, pane->win);
			wnoutrefresh(pane->win);
			pane->dirty = false;
		}
	}
	if (!tui->layout.too_small) {
		if (tui->dirty & TN_TUI_DIRTY_STATUS)
			tn_tui_status_draw(tui);
		if (tui->dirty & TN_TUI_DIRTY_MESSAGE)
			tn_tui_message_draw(tui);
	}
	tui->dirty = 0;
	doupdate();
	/* Raw sequences go out once the screen is drawn, between two
	 * updates: they move nothing. */
	if (tui->to_terminal->len) {
		fwrite(tui->to_terminal->str, 1, tui->to_terminal->len, stdout);
		fflush(stdout);
		g_string_truncate(tui->to_terminal, 0);
	}
}

/* Whether the terminal went away (an ssh connection that dropped):
 * the session's leader got the SIGHUP, and may have ignored it or not
 * passed it on, while every read of ours now ends at once and the loop
 * would spin. */
static bool terminal_hung_up(void)
{
	struct pollfd fd = { .fd = STDIN_FILENO, .events = POLLIN };

	return poll(&fd, 1, 0) == 1 &&
		(fd.revents & (POLLHUP | POLLERR | POLLNVAL));
}

static int read_key(WINDOW *input)
{
	wint_t wc;
	int r = wget_wch(input, &wc);

	if (r == ERR) {
		if (terminal_hung_up())
			tn_tui_guard_hangup();
		return TN_TUI_KEY_NONE;
	}
	if (r == KEY_CODE_YES)
		return TN_TUI_KEY_FN((int) wc);
	return (int) wc;
}

/* The next key, or TN_TUI_KEY_NONE after timeout_ms, or as soon as a
 * job ends (its result is then drawn without waiting for the
 * timeout: the first screen comes from a job).  A key ncurses holds
 * already is taken at once; the terminal and the jobs' end pipe are
 * waited on together. */
static int wait_key(WINDOW *input, int timeout_ms)
{
	struct pollfd fds[2] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = tn_job_get_end_fd(), .events = POLLIN },
	};
	int key;

	if (fds[1].fd < 0) {
		wtimeout(input, timeout_ms);
		return read_key(input);
	}
	wtimeout(input, 0);
	key = read_key(input);
	if (key != TN_TUI_KEY_NONE)
		return key;
	/* A signal (a resize, Ctrl-C) ends the wait: the loop looks. */
	if (poll(fds, 2, timeout_ms) <= 0)
		return TN_TUI_KEY_NONE;
	if (fds[1].revents)
		tn_job_drain_end_fd();
	return fds[0].revents ? read_key(input) : TN_TUI_KEY_NONE;
}

/* A caught signal: Ctrl-C stops what runs, if anything; otherwise (and
 * for the others) the loop ends.  Returns true to go on. */
static bool on_signal(struct tn_tui *tui)
{
	int signo = tn_tui_guard_caught();

	if (signo == SIGINT && tn_tui_user_job_running(tui)) {
		tn_tui_guard_forget();
		cancel(tui);
		return true;
	}
	return signo == 0;
}

/* The index of the session's trace: from the cache or built in the
 * background (unless --no-index); a failure said on the message line. */
static void start_index(struct tn_tui *tui)
{
	struct tn_error err;

	if (tui->build_index &&
	    tn_session_start_index(tui->session, &tui->out, &err))
		tn_tui_message_set(tui, true, err.message);
	tn_tui_poll_jobs(tui);
}

/* Whether to leave the loop for a reload: at once when a command of
 * the loop's thread asked (reload), once the command job ended when
 * one asked for other clocks (resync: read only then, the job writes
 * it). */
static bool reload_asked(struct tn_tui *tui)
{
	if (tui->session->reload)
		return true;
	return !tn_tui_job_running(tui) && tui->session->resync;
}

static void loop(struct tn_tui *tui, WINDOW *input)
{
	while (on_signal(tui) && !tui->session->quit && !reload_asked(tui)) {
		bool panes_busy;
		int key;

		if (tn_tui_poll_jobs(tui))
			tui->dirty |= TN_TUI_DIRTY_STATUS;
		/* The panes' own jobs (a state query). */
		panes_busy = tn_panes_poll(&tui->panes);
		/* The status bar says how long a job has been running. */
		if (tn_tui_user_job_running(tui))
			tui->dirty |= TN_TUI_DIRTY_STATUS;
		/* Follow mode: what the commands made of it (between
		 * jobs), and a reload once the files grew. */
		if (!tn_tui_job_running(tui))
			tn_tui_follow_note(tui);
		if (tn_tui_follow_tick(tui))
			break;
		/* Idle: the list reads its next and previous pages. */
		tn_tui_prefetch(tui, panes_busy);
		draw(tui);
		/* The range's query waited until the first screen. */
		if (!tui->index_after_first_screen)
			tn_trace_want_time_range(tui->session->trace);
		if (tui->index_after_first_screen && !tui->needs_update &&
		    !tui->pending && !tn_tui_job_running(tui)) {
			tui->index_after_first_screen = false;
			start_index(tui);
		}
		key = wait_key(input, tn_tui_job_running(tui) || panes_busy ?
			JOB_POLL_MS : tui->session->live &&
			tui->follow.mode != TN_FOLLOW_OFF ? LIVE_POLL_MS :
			KEY_TIMEOUT_MS);
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
	if (tn_tui_term_check(err))
		return -1;
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
	mouseinterval(0);
	tn_tui_colors_init(tui);
	return 0;
}

/* The traces of the collection that could not be read: said once on
 * the message line (the status bar says it as long as it runs). */
static void say_left_out(struct tn_tui *tui)
{
	const struct tn_trace *trace = tui->session->trace;
	size_t count = tn_trace_get_left_out_count(trace);
	char *text;

	if (count == 0)
		return;
	if (count == 1)
		text = g_strdup_printf("1 trace left out (:traces lists it): "
			"%s: %s", tn_trace_get_left_out_dir(trace, 0),
			tn_trace_get_left_out_reason(trace, 0));
	else
		text = g_strdup_printf("%zu traces left out (:traces lists "
			"them), the first: %s: %s", count,
			tn_trace_get_left_out_dir(trace, 0),
			tn_trace_get_left_out_reason(trace, 0));
	tn_tui_message_set(tui, true, text);
	g_free(text);
}

/* The damaged stream files, read in part or skipped: said once on the
 * message line (the status bar says how many as long as it runs),
 * unless traces were left out, which say more; else packet indexes
 * not used, which miss no event (not an error). */
static void say_damage(struct tn_tui *tui)
{
	const struct tn_trace *trace = tui->session->trace;
	/* --follow: a last packet still being written is no damage. */
	bool following = tui->session->follow != TN_FOLLOW_OFF;
	size_t count = tn_tui_damaged_count(trace, following);
	size_t notices = tn_trace_get_notice_count(trace);
	size_t first = 0;
	char *text;

	if (count == 0 && notices > 0 &&
	    tn_trace_get_left_out_count(trace) == 0) {
		text = g_strdup_printf("%s%s", tn_trace_get_notice(trace, 0),
			notices > 1 ? " (:traces lists the others)" : "");
		tn_tui_message_set(tui, false, text);
		g_free(text);
		return;
	}
	if (count == 0 || tn_trace_get_left_out_count(trace) > 0)
		return;
	while (following && tn_trace_get_damage_is_incomplete(trace, first))
		first++;
	text = g_strdup_printf("%s (:traces lists %s): %s: %s", count == 1 ?
		"1 damaged file" : "damaged files", count == 1 ? "it" : "them",
		tn_trace_get_damage_file(trace, first),
		tn_trace_get_damage_text(trace, first));
	tn_tui_message_set(tui, true, text);
	g_free(text);
}

static bool host_is_focused(struct tn_tui *tui, const struct tn_pane *pane)
{
	return tn_panes_focused(&tui->panes) == pane;
}

static const struct tn_pane_host_ops host_ops = {
	.run_line = tn_tui_run_line,
	.run_command = tn_tui_run_command,
	.message = tn_tui_message_set,
	.open_prompt = tn_tui_open_prompt,
	.open_prompt_for = tn_tui_open_prompt_for,
	.open_prompt_for_pane = tn_tui_open_prompt_for_pane,
	.copy = tn_tui_copy,
	.selection = tn_tui_selection_get,
	.attr = tn_tui_attr,
	.is_focused = host_is_focused,
	.job_running = tn_tui_job_running,
	.command_running = tn_tui_user_job_running,
	.idle_serial = tn_tui_idle_serial,
};

void tn_tui_host_init(struct tn_tui *tui)
{
	tui->host = (struct tn_pane_host) {
		.ops = &host_ops,
		.tui = tui,
		.session = tui->session,
		.ascii = tui->ascii,
		.index = &tui->index,
	};
}

/* :reload.  The panes' jobs and the list's read the trace, and no other
 * thread may run while it opens again (session.h): they stop, with the
 * panes, which start again on the new trace, those open before open
 * again; the list goes to the same event once its update ran. */
static void reload(struct tn_tui *tui)
{
	size_t count = tui->panes.count;
	bool *open = g_new0(bool, MAX(count, 1));
	struct tn_error err;

	for (size_t i = 0; i < count; i++)
		open[i] = tui->panes.panes[i].open;
	tn_tui_run_fini(tui);
	tn_tui_drop_windows(tui);
	tn_panes_fini(&tui->panes);
	/* Follow mode's reloads say nothing: the list shows it. */
	if (tn_session_reload(tui->session, tn_tui_follow_reloading(tui) ?
			NULL : &tui->out, &err))
		tn_tui_message_set(tui, true, err.message);
	tn_panes_init(&tui->panes, &tui->host);
	for (size_t i = 0; i < count && i < tui->panes.count; i++)
		tui->panes.panes[i].open = open[i];
	g_free(open);
	tui->prompt_pane = NULL;
	tui->selection.active = false;
	tui->index = (struct tn_tui_index_status) { 0 };
	tui->filters = (struct tn_tui_filter_status) { 0 };
	start_index(tui);
	tn_tui_relayout(tui);
	tn_tui_request_update(tui);
	tn_tui_follow_reloaded(tui);
}

/* The prompt's history, kept across runs; a file that cannot be read
 * is said on the message line (the history is then not saved). */
static struct tn_history *open_history(struct tn_tui *tui)
{
	char *path = tn_history_default_path("history");
	struct tn_history *history = tn_history_create(path, 0);
	struct tn_error err;

	if (tn_history_load(history, &err)) {
		char *text = g_strdup_printf("%s; the history is not saved",
			err.message);

		tn_tui_message_set(tui, true, text);
		g_free(text);
	}
	g_free(path);
	return history;
}

int tn_tui_run(struct tn_session *session, bool build_index, bool mouse,
		bool ascii, const char *first, struct tn_error *err)
{
	struct tn_tui tui = { .session = session, .out = { tui_write },
		.ascii = ascii };
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
	/* Made before the first job starts, so that every end is told
	 * (wait_key()). */
	tn_job_get_end_fd();

	session->quit = false;
	tui.message = g_string_new(NULL);
	tui.to_terminal = g_string_new(NULL);
	tui.block = g_ptr_array_new_with_free_func(g_free);
	tui.prompt = tn_tui_prompt_create(open_history(&tui));
	tui.help_keys = tn_tui_help_key_lines();
	tn_tui_host_init(&tui);
	tn_panes_init(&tui.panes, &tui.host);
	if (mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED |
			BUTTON5_PRESSED, NULL);
	tui.mouse_off = !mouse;
	tn_session_open_marks(session, &tui.out);
	tui.build_index = build_index;
	tui.index_after_first_screen = true;
	say_left_out(&tui);
	say_damage(&tui);
	tn_tui_relayout(&tui);
	if (first)
		tn_tui_run_line(&tui, first, TN_TUI_FOLLOW_BY_COMMAND);
	/* --follow: the last event, watched. */
	if (session->follow != TN_FOLLOW_OFF)
		tn_tui_run_line(&tui, "follow", TN_TUI_FOLLOW_BY_COMMAND);

	loop(&tui, input);
	while (!session->quit && reload_asked(&tui) &&
	       !tn_tui_guard_caught()) {
		reload(&tui);
		loop(&tui, input);
	}
	if (tn_tui_guard_caught())
		status = 128 + tn_tui_guard_caught();

	tn_tui_run_fini(&tui);
	tn_tui_drop_windows(&tui);
	tn_tui_layout_fini(&tui.layout);
	delwin(input);
	tn_tui_guard_screen(false);
	endwin();
	delscreen(tui.screen);
	tn_tui_guard_end();
	tn_panes_fini(&tui.panes);
	tn_tui_pager_destroy(tui.pager);
	tn_tui_prompt_destroy(tui.prompt);
	g_ptr_array_free(tui.block, TRUE);
	g_ptr_array_free(tui.help_keys, TRUE);
	g_free(tui.block_title);
	g_string_free(tui.message, TRUE);
	g_string_free(tui.to_terminal, TRUE);
	return status;
}
