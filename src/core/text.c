/* text.c - trace strings made safe for a terminal, measured in columns
 * (see text.h). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700	/* wcwidth() */
#endif
#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "tracenav/text.h"

/* ncurses keeps at most a few combining marks per cell; more would be
 * dropped silently, so they are shown escaped instead. */
#define MAX_MARKS 4

bool tn_text_locale_is_utf8(void)
{
	const char *codeset = nl_langinfo(CODESET);

	return codeset && (!strcmp(codeset, "UTF-8") ||
		!strcmp(codeset, "utf8"));
}

static void append_ascii(GArray *out, const char *s)
{
	for (; *s; s++) {
		wchar_t wc = (unsigned char) *s;

		g_array_append_val(out, wc);
	}
}

/* The escape of one control character or bad byte: "\n", "\x1b"... */
static void escape_byte(char *buf, size_t size, unsigned byte)
{
	switch (byte) {
	case '\n': snprintf(buf, size, "\\n"); break;
	case '\t': snprintf(buf, size, "\\t"); break;
	case '\r': snprintf(buf, size, "\\r"); break;
	default: snprintf(buf, size, "\\x%02x", byte); break;
	}
}

/* Characters that print nothing but change how the terminal shows the
 * rest: bidirectional overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), which could reorder what the user reads, and the
 * other format characters (zero-width spaces and joiners, the BOM), and
 * the line and paragraph separators. */
static bool is_invisible_control(gunichar c)
{
	switch (g_unichar_type(c)) {
	case G_UNICODE_FORMAT:
	case G_UNICODE_LINE_SEPARATOR:
	case G_UNICODE_PARAGRAPH_SEPARATOR:
		return true;
	default:
		return false;
	}
}

int tn_text_decode(GArray *out, const char *s, gssize len, int max_cols,
		bool utf8)
{
	const char *p = s;
	const char *end = s + (len < 0 ? (gssize) strlen(s) : len);
	int cols = 0;
	int marks = -1;	/* marks on the last printable character; -1: none */

	while (p < end) {
		char esc[16];
		gunichar c = g_utf8_get_char_validated(p, end - p);
		int w;

		esc[0] = 0;
		if (c == (gunichar) -1 || c == (gunichar) -2) {
			/* Invalid or cut UTF-8 (a NUL byte counts as cut). */
			escape_byte(esc, sizeof(esc), (unsigned char) *p);
			p++;
		} else {
			p = p + g_utf8_skip[(guchar) *p];
			if (c < 0x20 || c == 0x7f) {
				escape_byte(esc, sizeof(esc), c);
			} else if (c >= 0x80 && (!utf8 || c < 0xa0 ||
					wcwidth((wchar_t) c) < 0 ||
					is_invisible_control(c))) {
				snprintf(esc, sizeof(esc), c > 0xffff ?
					"\\U%08X" : "\\u%04X", (unsigned) c);
			} else if (c >= 0x80 && wcwidth((wchar_t) c) == 0 &&
					(marks < 0 || marks >= MAX_MARKS)) {
				/* A mark with nothing to sit on. */
				snprintf(esc, sizeof(esc), "\\u%04X",
					(unsigned) c);
			}
		}
		if (esc[0]) {
			w = (int) strlen(esc);
			if (max_cols >= 0 && cols + w > max_cols)
				break;
			append_ascii(out, esc);
			cols += w;
			marks = -1;
			continue;
		}
		w = c < 0x80 ? 1 : wcwidth((wchar_t) c);
		if (max_cols >= 0 && cols + w > max_cols)
			break;
		wchar_t wc = (wchar_t) c;

		g_array_append_val(out, wc);
		cols += w;
		marks = w == 0 ? marks + 1 : 0;
	}
	return cols;
}

int tn_text_append_safe(GString *out, const char *s, int max_cols,
		bool utf8)
{
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int cols = tn_text_decode(chars, s, -1, max_cols, utf8);

	for (guint i = 0; i < chars->len; i++)
		g_string_append_unichar(out,
			(gunichar) g_array_index(chars, wchar_t, i));
	g_array_free(chars, TRUE);
	return cols;
}

int tn_text_char_width(wchar_t wc)
{
	int w;

	if (wc < 0x80)
		return 1;
	w = wcwidth(wc);
	return w < 0 ? 1 : w;
}

int tn_text_width(const wchar_t *s, size_t n)
{
	int cols = 0;

	for (size_t i = 0; i < n; i++)
		cols += tn_text_char_width(s[i]);
	return cols;
}

size_t tn_text_fit_count(const wchar_t *s, size_t n, int width, int *used)
{
	int cols = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int w = tn_text_char_width(s[i]);

		if (cols + w > width)
			break;
		cols += w;
	}
	if (used)
		*used = cols;
	return i;
}
