/* draw.c - decoded text into ncurses windows (see draw.h). */
#include "draw.h"
#include "text.h"

void tn_tui_draw_wide(WINDOW *win, int y, int x, const wchar_t *s,
		size_t n, int skip, int width)
{
	GArray *visible;
	int col = 0;	/* column of s[i] in the whole line */
	size_t i = 0;

	if (width <= 0)
		return;
	visible = g_array_sized_new(FALSE, FALSE, sizeof(wchar_t), width + 8);
	/* Skip the characters scrolled off to the left, with their marks
	 * (zero-width characters belong to the one before them). */
	while (i < n) {
		int w = tn_tui_text_width(&s[i], 1);

		if (w > 0 && col + w > skip)
			break;
		col += w;
		i++;
	}
	if (col < skip && i < n) {
		/* A wide character straddles the left edge. */
		col += tn_tui_text_width(&s[i], 1);
		tn_tui_text_append_spaces(visible, col - skip);
		for (i++; i < n && tn_tui_text_width(&s[i], 1) == 0; i++)
			;
	}
	int used = col - skip;
	size_t count = tn_tui_text_fit_count(&s[i], n - i, width - used, NULL);

	used += tn_tui_text_width(&s[i], count);
	g_array_append_vals(visible, &s[i], count);
	tn_tui_text_append_spaces(visible, width - used);
	mvwaddnwstr(win, y, x, (const wchar_t *) visible->data,
		(int) visible->len);
	g_array_free(visible, TRUE);
}

void tn_tui_draw_utf8(WINDOW *win, int y, int x, const char *s, int width)
{
	GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));

	if (width > 0) {
		tn_tui_text_decode(line, s ? s : "", -1, width);
		tn_tui_draw_wide(win, y, x, (const wchar_t *) line->data,
			line->len, 0, width);
	}
	g_array_free(line, TRUE);
}
