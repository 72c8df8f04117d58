/* test-tui-text.c - the TUI's safe, width-aware text (src/tui/text.c):
 * escapes of control characters and bad UTF-8, widths of CJK and emoji,
 * cutting at column boundaries. */
#include <glib.h>
#include <locale.h>
#include <stdlib.h>
#include <wchar.h>

#include "src/tui/text.h"
#include "tap.h"

/* Decode s (len bytes, -1: to the NUL) with a column limit and return
 * the result as UTF-8 (g_free it); *cols gets the columns. */
static char *decode(const char *s, gssize len, int max_cols, int *cols)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	GString *utf8 = g_string_new(NULL);
	int w = tn_tui_text_decode(out, s, len, max_cols);

	for (guint i = 0; i < out->len; i++)
		g_string_append_unichar(utf8,
			(gunichar) g_array_index(out, wchar_t, i));
	if (cols)
		*cols = w;
	g_array_free(out, TRUE);
	return g_string_free(utf8, FALSE);
}

static void check(const char *s, gssize len, int max_cols, const char *want,
		int want_cols, const char *what)
{
	int cols;
	char *got = decode(s, len, max_cols, &cols);

	tap_str_eq(got, want, "%s: text", what);
	tap_int_eq(cols, want_cols, "%s: columns", what);
	g_free(got);
}

static void check_fit(const char *s, int width, const char *want,
		const char *what)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	GString *utf8 = g_string_new(NULL);

	tn_tui_text_append_fit(out, s, width);
	for (guint i = 0; i < out->len; i++)
		g_string_append_unichar(utf8,
			(gunichar) g_array_index(out, wchar_t, i));
	tap_str_eq(utf8->str, want, "%s", what);
	tap_int_eq(tn_tui_text_width((wchar_t *) out->data, out->len),
		width, "%s: exactly %d columns", what, width);
	g_string_free(utf8, TRUE);
	g_array_free(out, TRUE);
}

int main(void)
{
	if (!setlocale(LC_CTYPE, "C.UTF-8") || !tn_tui_text_locale_is_utf8()) {
		printf("1..0 # SKIP no C.UTF-8 locale\n");
		return 0;
	}
	tn_tui_text_set_utf8(true);

	check("sched_switch", -1, -1, "sched_switch", 12, "plain ASCII");
	check("a\x1b[2Jb", -1, -1, "a\\x1b[2Jb", 9,
		"an escape sequence is shown escaped");
	check("l1\nl2\tx\r", -1, -1, "l1\\nl2\\tx\\r", 11,
		"newline, tab, carriage return");
	check("del\x7f", -1, -1, "del\\x7f", 7, "DEL");
	check("bad\xff\xfe!", -1, -1, "bad\\xff\\xfe!", 12,
		"invalid UTF-8 bytes as \\xNN");
	check("cut\xe8\x8a", -1, -1, "cut\\xe8\\x8a", 11,
		"a truncated UTF-8 sequence");
	check("nul\0after", 9, -1, "nul\\x00after", 12,
		"a NUL byte inside a counted string");
	check("c1\xc2\x9b", -1, -1, "c1\\u009B", 8,
		"a C1 control (CSI) is escaped");
	check("节点", -1, -1, "节点", 4, "CJK: two columns each");
	check("node😀", -1, -1, "node😀", 6, "emoji: two columns");
	check("e\xcc\x81t\xc3\xa9", -1, -1, "e\xcc\x81t\xc3\xa9", 3,
		"a combining mark takes no column");
	check("\xcc\x81x", -1, -1, "\\u0301x", 7,
		"a combining mark with nothing before it is escaped");
	check("节点节点", -1, 5, "节点", 4,
		"the limit never splits a wide character");
	check("ab\x1b", -1, 4, "ab", 2,
		"the limit never splits an escape");

	check_fit("sched_switch", 8, "sched_sw", "cut to the width");
	check_fit("cpu", 6, "cpu   ", "padded to the width");
	check_fit("节点-2", 4, "节点", "wide characters fit exactly");
	check_fit("节点-2", 3, "节 ", "a wide character that does not fit "
		"leaves a pad");
	check_fit("x\x1b", 3, "x  ", "an escape is never cut");
	check_fit(NULL, 2, "  ", "NULL is empty");

	{
		const wchar_t s[] = L"a节b";
		int used;
		size_t n = tn_tui_text_fit_count(s, 3, 2, &used);

		tap_int_eq(n, 1, "fit_count stops before a straddling wide "
			"character");
		tap_int_eq(used, 1, "fit_count reports the columns used");
		n = tn_tui_text_fit_count(s, 3, 3, &used);
		tap_int_eq(n, 2, "fit_count takes a wide character that fits");
	}

	/* Invisible characters that act on the display are escaped: a
	 * right-to-left override would reorder what follows it. */
	check("a\xe2\x80\xae" "b", -1, -1, "a\\u202Eb", 8,
		"U+202E (right-to-left override) escaped");
	check("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad", -1, -1,
		"\\u202A\\u202B\\u202C\\u202D", 24,
		"U+202A-U+202D (embeddings, overrides) escaped");
	check("\xe2\x81\xa6x\xe2\x81\xa9", -1, -1, "\\u2066x\\u2069", 13,
		"U+2066, U+2069 (isolates) escaped");
	check("a\xe2\x80\x8b" "b\xef\xbb\xbf", -1, -1, "a\\u200Bb\\uFEFF", 14,
		"zero-width space and BOM escaped");
	check("a\xe2\x80\xa8" "b", -1, -1, "a\\u2028b", 8,
		"line separator escaped");

	/* Without a UTF-8 terminal, everything outside ASCII is escaped. */
	tn_tui_text_set_utf8(false);
	check("节x", -1, -1, "\\u8282x", 7,
		"non-UTF-8 locale: non-ASCII escaped");
	check("😀", -1, -1, "\\U0001F600", 10,
		"non-UTF-8 locale: astral escaped");
	return tap_done();
}
