/* text.h - trace strings made safe for a terminal, measured in columns.
 *
 * Trace strings can hold anything: control characters (an escape
 * sequence would drive the user's terminal), invalid UTF-8, wide CJK
 * characters and emoji (two columns each), combining marks.  What a
 * front end shows of them goes through tn_text_decode(), which turns a
 * byte string into characters that are all printable, with the rest
 * escaped: "\n", "\t", "\r", "\x1b" for control characters, "\xNN" for
 * each byte of invalid UTF-8, "\uNNNN" for unprintable code points and
 * for invisible ones that act on the display (bidirectional overrides
 * such as U+202E, zero-width characters, separators).  Without UTF-8
 * (a terminal that does not take it, or output meant to be plain
 * ASCII), every non-ASCII character is escaped too.
 *
 * Columns are counted as the terminal counts them: wcwidth() of the
 * current locale (LC_CTYPE), which is what ncurses uses.  In a locale
 * that is not UTF-8 wcwidth() knows no non-ASCII character: decode
 * with utf8 false there.  Used by the TUI (src/tui/text.c) and by the
 * core's text drawings (the sequence diagram); no ncurses here.
 */
#ifndef TRACENAV_TEXT_H
#define TRACENAV_TEXT_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

/* Whether the current locale (LC_CTYPE) is UTF-8. */
bool tn_text_locale_is_utf8(void);

/* Append to out (a GArray of wchar_t) the printable form of the first
 * len bytes of s (len < 0: up to the NUL), stopping before the column
 * limit max_cols would be passed (max_cols < 0: no limit).  Without
 * utf8 every non-ASCII character is escaped.  Returns the number of
 * columns appended. */
int tn_text_decode(GArray *out, const char *s, gssize len, int max_cols,
		bool utf8);

/* Append to out the same printable form as UTF-8 text.  Returns the
 * number of columns appended. */
int tn_text_append_safe(GString *out, const char *s, int max_cols,
		bool utf8);

/* Columns of one decoded character: 0 for a combining mark, 2 for a
 * wide one, else 1. */
int tn_text_char_width(wchar_t wc);

/* Columns taken by n decoded characters. */
int tn_text_width(const wchar_t *s, size_t n);

/* How many of the n decoded characters of s fit in width columns (a
 * wide character that would straddle the edge is left out; the
 * zero-width marks after the last character kept are kept).  *used
 * (may be NULL) gets the columns they take. */
size_t tn_text_fit_count(const wchar_t *s, size_t n, int width, int *used);

#endif
