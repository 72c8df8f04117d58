/* draw.h - putting decoded text (text.h) into ncurses windows. */
#ifndef TRACENAV_TUI_DRAW_H
#define TRACENAV_TUI_DRAW_H

#include <curses.h>
#include <glib.h>
#include <wchar.h>

/* Draw the n characters of s at (y, x) of win, skipping its first skip
 * columns (horizontal scroll) and filling exactly width columns: a wide
 * character cut by either edge shows as spaces, the rest is padded.
 * Uses the window's current attributes. */
void tn_tui_draw_wide(WINDOW *win, int y, int x, const wchar_t *s,
		size_t n, int skip, int width);

/* The same for a UTF-8 string (decoded and escaped as text.h says). */
void tn_tui_draw_utf8(WINDOW *win, int y, int x, const char *s, int width);

#endif
