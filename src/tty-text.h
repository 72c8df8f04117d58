/* tty-text.h - what the line-oriented front ends (--dump, --info,
 * --batch and the command line's errors) print, made safe when it goes
 * to a terminal.
 *
 * Piped or redirected, their output keeps the trace's bytes as they are
 * (--dump is byte for byte babeltrace2's).  On a terminal, trace content
 * could drive it: an escape sequence in an event name, a hostname or a
 * string field would set the window title, answer as typed input or
 * clear the screen.  There every line is escaped as the event list
 * shows it (tracenav/text.h: "\x1b", "\xNN", "\u202E"; every non-ASCII
 * character in a locale that is not UTF-8), tabs kept.
 */
#ifndef TRACENAV_TTY_TEXT_H
#define TRACENAV_TTY_TEXT_H

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>

/* Look, once, whether stdout and stderr are terminals; if one is, take
 * the environment's LC_CTYPE (its character set: UTF-8 or not) for the
 * escaping only (the process's locale is left alone).  Call in main(),
 * before any thread starts. */
void tn_tty_text_setup(void);

/* Lines written to one stream. */
struct tn_tty_text {
	FILE *stream;
	bool escape;		/* the stream is a terminal */
	bool utf8;		/* ... that takes UTF-8 (the locale's) */
	GString *buf;
};

/* Lines to stream: escaped if it is stdout or stderr and
 * tn_tty_text_setup() found it a terminal. */
void tn_tty_text_init(struct tn_tty_text *out, FILE *stream);

/* Write the len bytes of text (len < 0: up to the NUL) and a newline,
 * escaped when the stream is a terminal.  Write errors show in the
 * stream's error flag (ferror()), as with stdio. */
void tn_tty_text_line(struct tn_tty_text *out, const char *text,
		gssize len);

/* printf into one line (a trailing newline is written by it). */
void tn_tty_text_printf(struct tn_tty_text *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void tn_tty_text_fini(struct tn_tty_text *out);

/* Append to out the len bytes of text (len < 0: up to the NUL)
 * escaped for a terminal (utf8: one that takes UTF-8): what
 * tn_tty_text_line() writes there.  Tabs are kept. */
void tn_tty_text_escape(GString *out, const char *text, gssize len,
		bool utf8);

/* One message on stderr, "tracenav: " and the text, escaped when
 * stderr is a terminal.  For the errors that may quote trace content
 * (metadata, names, paths). */
void tn_tty_text_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
