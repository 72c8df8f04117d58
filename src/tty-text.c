/* tty-text.c - line output made safe on a terminal (see tty-text.h). */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700	/* newlocale(), uselocale() */
#endif
#include <locale.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "tracenav/text.h"
#include "tty-text.h"

/* Set once by tn_tty_text_setup(), read-only after.  The terminal's
 * character type (the environment's LC_CTYPE) is used by the escaping
 * alone, on the thread that escapes (uselocale()): the process's locale
 * stays, so that nothing else (libbabeltrace2's metadata parser, the
 * text format) depends on it. */
static bool stdout_is_tty, stderr_is_tty, tty_utf8;
static locale_t tty_locale = (locale_t) 0;

void tn_tty_text_setup(void)
{
	stdout_is_tty = isatty(STDOUT_FILENO) == 1;
	stderr_is_tty = isatty(STDERR_FILENO) == 1;
	if (!stdout_is_tty && !stderr_is_tty)
		return;
	tty_locale = newlocale(LC_CTYPE_MASK, "", (locale_t) 0);
	if (tty_locale) {
		locale_t old = uselocale(tty_locale);

		tty_utf8 = tn_text_locale_is_utf8();
		uselocale(old);
	}
}

void tn_tty_text_init(struct tn_tty_text *out, FILE *stream)
{
	out->stream = stream;
	out->escape = (stream == stdout && stdout_is_tty) ||
		(stream == stderr && stderr_is_tty);
	out->utf8 = tty_utf8;
	out->buf = g_string_new(NULL);
}

void tn_tty_text_escape(GString *out, const char *text, gssize len,
		bool utf8)
{
	const char *end = text + (len < 0 ? (gssize) strlen(text) : len);
	GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	locale_t old = tty_locale ? uselocale(tty_locale) : (locale_t) 0;

	/* A tab only moves the cursor: kept, so that tab-separated
	 * output (seqdiag-list) still lines up. */
	while (text < end) {
		const char *tab = memchr(text, '\t', (size_t) (end - text));
		const char *stop = tab ? tab : end;

		g_array_set_size(chars, 0);
		tn_text_decode(chars, text, stop - text, -1, utf8);
		for (guint i = 0; i < chars->len; i++)
			g_string_append_unichar(out, (gunichar)
				g_array_index(chars, wchar_t, i));
		if (tab)
			g_string_append_c(out, '\t');
		text = tab ? tab + 1 : end;
	}
	if (tty_locale)
		uselocale(old);
	g_array_free(chars, TRUE);
}

void tn_tty_text_line(struct tn_tty_text *out, const char *text, gssize len)
{
	size_t n = len < 0 ? strlen(text) : (size_t) len;

	if (!out->escape) {
		fwrite(text, 1, n, out->stream);
	} else {
		g_string_truncate(out->buf, 0);
		tn_tty_text_escape(out->buf, text, (gssize) n, out->utf8);
		fwrite(out->buf->str, 1, out->buf->len, out->stream);
	}
	putc('\n', out->stream);
}

void tn_tty_text_printf(struct tn_tty_text *out, const char *fmt, ...)
{
	va_list args;
	char *text;

	va_start(args, fmt);
	text = g_strdup_vprintf(fmt, args);
	va_end(args);
	tn_tty_text_line(out, text, -1);
	g_free(text);
}

void tn_tty_text_fini(struct tn_tty_text *out)
{
	if (out->buf)
		g_string_free(out->buf, TRUE);
	out->buf = NULL;
}

void tn_tty_text_error(const char *fmt, ...)
{
	struct tn_tty_text err;
	va_list args;
	char *text;

	va_start(args, fmt);
	text = g_strdup_vprintf(fmt, args);
	va_end(args);
	tn_tty_text_init(&err, stderr);
	fputs("tracenav: ", stderr);
	tn_tty_text_line(&err, text, -1);
	tn_tty_text_fini(&err);
	g_free(text);
}
