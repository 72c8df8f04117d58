/* text.h - text that is safe to put on the terminal, measured in
 * columns.
 *
 * Trace strings can hold anything: control characters (an escape
 * sequence would drive the user's terminal), invalid UTF-8, wide CJK
 * characters and emoji (two columns each), combining marks.  Everything
 * the TUI shows goes through tn_tui_text_decode(), which turns a byte
 * string into wide characters that are all printable, with the rest
 * escaped: "\n", "\t", "\r", "\x1b" for control characters, "\xNN" for
 * each byte of invalid UTF-8, "\uNNNN" for unprintable code points and
 * for invisible ones that act on the display (bidirectional overrides
 * such as U+202E, zero-width characters, separators).  The
 * other functions measure, cut (never inside a character) and pad.
 * The decoding and the widths are the core's (tracenav/text.h), which
 * the sequence diagram's drawing shares; here they take the terminal's
 * choice of UTF-8.
 */
#ifndef TRACENAV_TUI_TEXT_H
#define TRACENAV_TUI_TEXT_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

/* Say whether the terminal takes UTF-8 (the locale's codeset).  If not,
 * every non-ASCII character is escaped.  Call once, after setlocale(). */
void tn_tui_text_set_utf8(bool utf8);

/* Whether the current locale (LC_CTYPE) is UTF-8. */
bool tn_tui_text_locale_is_utf8(void);

/* Append to out (a GArray of wchar_t) the printable form of the first
 * len bytes of s (len < 0: up to the NUL), stopping before the column
 * limit max_cols would be passed (max_cols < 0: no limit).  Returns the
 * number of columns appended. */
int tn_tui_text_decode(GArray *out, const char *s, gssize len, int max_cols);

/* Columns taken by n decoded characters. */
int tn_tui_text_width(const wchar_t *s, size_t n);

/* How many of the n decoded characters of s fit in width columns (a
 * wide character that would straddle the edge is left out; the
 * zero-width marks after the last character kept are kept).  *used
 * (may be NULL) gets the columns they take. */
size_t tn_tui_text_fit_count(const wchar_t *s, size_t n, int width,
		int *used);

/* Append s (UTF-8, decoded as above) to out cut to width columns and
 * padded with spaces to exactly width columns. */
void tn_tui_text_append_fit(GArray *out, const char *s, int width);

/* Like tn_tui_text_append_fit(), but a text cut short ends with '~'. */
void tn_tui_text_append_cut(GArray *out, const char *s, int width);

/* Append n spaces to out. */
void tn_tui_text_append_spaces(GArray *out, int n);

#endif
