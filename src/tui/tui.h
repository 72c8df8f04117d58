/* tui.h - the full-screen terminal front end (ncursesw).
 *
 * The event list and the other panes (pane.h), a status bar, a message
 * line and the command prompt, and text views for command output
 * (detail, help).  Keys run commands of the command table (commands.h),
 * so the TUI and --batch behave alike.
 */
#ifndef TRACENAV_TUI_H
#define TRACENAV_TUI_H

#include <stdbool.h>

#include "../session.h"
#include "tracenav/error.h"

/* Run the interactive view on session (its trace and cursor set) until
 * the user quits; with build_index, the checkpoint index is loaded from
 * the cache or built in the background from the start; mouse: capture
 * the mouse (wheel, clicks) rather than leave it to the terminal; ascii:
 * draw with plain ASCII even where the terminal has line-drawing
 * characters (a UTF-8 locale); first: a command line run first, as
 * if typed at the prompt (NULL: none).  Needs a
 * terminal on stdin and stdout.  The terminal is restored before it
 * returns, whatever happens.
 * Returns 0 when the user quit, -1 with err on a fatal error (no
 * terminal, unknown TERM), or 128 + the signal number (130 for SIGINT,
 * 143 for SIGTERM) with err empty when a signal stopped it: the caller
 * exits with that status. */
int tn_tui_run(struct tn_session *session, bool build_index, bool mouse,
		bool ascii, const char *first, struct tn_error *err);

#endif
