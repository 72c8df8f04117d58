/* text.c - safe, width-aware text for the terminal (see text.h): the
 * core's tn_text_* (tracenav/text.h) with the terminal's choice of
 * UTF-8, and the TUI's helpers to cut and pad. */
#include "text.h"
#include "tracenav/text.h"

static bool text_utf8 = true;

void tn_tui_text_set_utf8(bool utf8)
{
	text_utf8 = utf8;
}

bool tn_tui_text_locale_is_utf8(void)
{
	return tn_text_locale_is_utf8();
}

int tn_tui_text_decode(GArray *out, const char *s, gssize len, int max_cols)
{
	return tn_text_decode(out, s, len, max_cols, text_utf8);
}

int tn_tui_text_width(const wchar_t *s, size_t n)
{
	return tn_text_width(s, n);
}

size_t tn_tui_text_fit_count(const wchar_t *s, size_t n, int width,
		int *used)
{
	return tn_text_fit_count(s, n, width, used);
}

void tn_tui_text_append_spaces(GArray *out, int n)
{
	wchar_t space = L' ';

	for (int i = 0; i < n; i++)
		g_array_append_val(out, space);
}

void tn_tui_text_append_fit(GArray *out, const char *s, int width)
{
	int cols = 0;

	if (width <= 0)
		return;
	if (s)
		cols = tn_tui_text_decode(out, s, -1, width);
	tn_tui_text_append_spaces(out, width - cols);
}

void tn_tui_text_append_cut(GArray *out, const char *s, int width)
{
	GArray *whole = g_array_new(FALSE, FALSE, sizeof(wchar_t));
	int cols = tn_tui_text_decode(whole, s ? s : "", -1, -1);
	wchar_t mark = L'~';

	if (cols <= width || width < 2) {
		g_array_free(whole, TRUE);
		tn_tui_text_append_fit(out, s, width);
		return;
	}
	cols = tn_tui_text_decode(out, s, -1, width - 1);
	tn_tui_text_append_spaces(out, width - 1 - cols);
	g_array_append_val(out, mark);
	g_array_free(whole, TRUE);
}
