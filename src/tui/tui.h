/* tui.h - the full-screen terminal front end (ncursesw).
 *
 * The event list with its status bar, message line and command prompt,
 * a pager for command output (detail, help), and slots for the state
 * tree and sequence diagram panes.  Every key runs a command line of the
 * command table (commands.h), so the TUI and --batch behave alike.
 */
#ifndef TRACENAV_TUI_H
#define TRACENAV_TUI_H

#include "../session.h"
#include "tracenav/error.h"

/* Run the interactive view on session (its trace and cursor set) until
 * the user quits.  Needs a terminal on stdin and stdout.  The terminal is
 * restored before it returns, whatever happens.
 * Returns 0 when the user quit, -1 with err on a fatal error (no
 * terminal, unknown TERM), or 128 + the signal number (130 for SIGINT,
 * 143 for SIGTERM) with err empty when a signal stopped it: the caller
 * exits with that status. */
int tn_tui_run(struct tn_session *session, struct tn_error *err);

#endif
