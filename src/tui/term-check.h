/* term-check.h - whether the terminal can show the full-screen view.
 * Its own header: term-check.c includes <term.h>, whose short macros
 * (lines, columns, tab...) would break the TUI's other headers. */
#ifndef TRACENAV_TUI_TERM_CHECK_H
#define TRACENAV_TUI_TERM_CHECK_H

#include "tracenav/error.h"

/* 0 if TERM names a terminal that terminfo knows and that can address
 * the cursor; else -1 with err (what to set TERM to).  Writes nothing on
 * the terminal.  Before newterm(). */
int tn_tui_term_check(struct tn_error *err);

#endif
