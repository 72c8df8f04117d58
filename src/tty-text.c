/* tty-text.c - line output made safe on a terminal (see tty-text.h). */
#include <locale.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "tracenav/text.h"
#include "tty-text.h"

/* Set once by tn_tty_text_setup(), read-only after. */
static bool stdout_is_tty, stderr_is_tty, tty_utf8;

void tn_tty_text_setup(void)
{
	stdout_is_tty = isatty(STDOUT_FILENO) == 1;
	stderr_is_tty = isatty(STDERR_FILENO) == 1;
	if (stdout_is_tty || stderr_is_tty) {
		/* Only the character type: numbers and times stay as
		 * babeltrace2 prints them. */
		setlocale(LC_CTYPE, "");
		tty_utf8 = tn_text_locale_is_utf8();
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

	/* A tab only moves the cursor: kept, so that tab-separated
	 * output (seqdiag-list) still lines up. */
	while (text < end) {
		const char *tab = memchr(text, '\t', (size_t) (end - text));
		const char *stop = tab ? tab : end;
		GArray *chars = g_array_new(FALSE, FALSE, sizeof(wchar_t));

		tn_text_decode(chars, text, stop - text, -1, utf8);
		for (guint i = 0; i < chars->len; i++)
			g_string_append_unichar(out, (gunichar)
				g_array_index(chars, wchar_t, i));
		g_array_free(chars, TRUE);
		if (tab)
			g_string_append_c(out, '\t');
		text = tab ? tab + 1 : end;
	}
}

size_t tn_tty_text_line(struct tn_tty_text *out, const char *text,
		gssize len)
{
	size_t n = len < 0 ? strlen(text) : (size_t) len;
	size_t put;

	if (!out->escape) {
		put = fwrite(text, 1, n, out->stream);
	} else {
		g_string_truncate(out->buf, 0);
		tn_tty_text_escape(out->buf, text, (gssize) n, out->utf8);
		put = fwrite(out->buf->str, 1, out->buf->len, out->stream) ==
			out->buf->len ? n : 0;
	}
	putc('\n', out->stream);
	return put;
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
