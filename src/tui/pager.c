/* pager.c - a scrollable text view (detail, help, print), its long
 * lines wrapped at the window's width, or kept whole and scrolled
 * sideways (the lines of print: a line copied from the screen is then
 * the event's whole line). */
#include <stdio.h>

#include "draw.h"
#include "text.h"
#include "tui-private.h"

/* One screen line: characters [start, end) of a decoded line, after
 * indent columns (the continuations of a long line are indented). */
struct wrapped {
	guint line, start, end;
	int indent;
};

struct tn_tui_pager {
	char *title;
	GPtrArray *lines;	/* GArray of wchar_t, decoded */
	GArray *wrapped;	/* struct wrapped, for wrap_width */
	int wrap_width;
	int top;		/* first screen line shown */
	int page;		/* text lines of the last drawing */
	bool whole;		/* lines not wrapped: h and l scroll */
	int hscroll;		/* columns scrolled off to the left */
	int widest;		/* columns of the widest line */
};

static void free_line(gpointer line)
{
	g_array_free(line, TRUE);
}

struct tn_tui_pager *tn_tui_pager_create(const char *title,
		GPtrArray *lines, bool whole)
{
	struct tn_tui_pager *pager = g_new0(struct tn_tui_pager, 1);

	pager->title = g_strdup(title ? title : "");
	pager->lines = g_ptr_array_new_with_free_func(free_line);
	pager->whole = whole;
	for (guint i = 0; i < lines->len; i++) {
		GArray *line = g_array_new(FALSE, FALSE, sizeof(wchar_t));
		int cols = tn_tui_text_decode(line, g_ptr_array_index(lines, i),
			-1, -1);

		pager->widest = MAX(pager->widest, cols);
		g_ptr_array_add(pager->lines, line);
	}
	pager->wrapped = g_array_new(FALSE, FALSE, sizeof(struct wrapped));
	pager->page = 1;
	return pager;
}

void tn_tui_pager_destroy(struct tn_tui_pager *pager)
{
	if (!pager)
		return;
	g_free(pager->title);
	g_ptr_array_free(pager->lines, TRUE);
	g_array_free(pager->wrapped, TRUE);
	g_free(pager);
}

/* Continuation lines hang under the text, deeper than its indent. */
static int hanging_indent(const GArray *line, int width)
{
	const wchar_t *s = (const wchar_t *) line->data;
	int lead = 0;

	while (lead < (int) line->len && s[lead] == L' ')
		lead++;
	return MIN(lead + 4, width / 2);
}

static void wrap(struct tn_tui_pager *pager, int width)
{
	g_array_set_size(pager->wrapped, 0);
	pager->wrap_width = width;
	for (guint i = 0; i < pager->lines->len; i++) {
		GArray *line = g_ptr_array_index(pager->lines, i);
		const wchar_t *s = (const wchar_t *) line->data;
		struct wrapped w = { i, 0, 0, 0 };

		if (pager->whole) {
			w.end = line->len;
			g_array_append_val(pager->wrapped, w);
			continue;
		}
		do {
			size_t n = tn_tui_text_fit_count(s + w.start,
				line->len - w.start, width - w.indent, NULL);

			/* A character wider than the window: alone. */
			w.end = w.start + (n ? n : 1);
			if (w.end > line->len)
				w.end = line->len;
			g_array_append_val(pager->wrapped, w);
			w.start = w.end;
			w.indent = hanging_indent(line, width);
		} while (w.start < line->len);
	}
}

static void clamp(struct tn_tui_pager *pager)
{
	int last = (int) pager->wrapped->len - pager->page;

	if (pager->top > last)
		pager->top = last;
	if (pager->top < 0)
		pager->top = 0;
}

void tn_tui_pager_draw(struct tn_tui_pager *pager, WINDOW *win)
{
	int h, w;
	char where[96];
	GString *title;

	getmaxyx(win, h, w);
	if (h < 1 || w < 1)
		return;
	if (w != pager->wrap_width)
		wrap(pager, w);
	pager->hscroll = CLAMP(pager->hscroll, 0, MAX(pager->widest - w / 2,
		0));
	pager->page = MAX(h - 1, 1);
	clamp(pager);
	werase(win);
	title = g_string_new(" ");
	g_string_append(title, pager->title);
	snprintf(where, sizeof(where), "  lines %d-%d of %u  (q closes%s)",
		pager->wrapped->len ? pager->top + 1 : 0,
		MIN(pager->top + pager->page, (int) pager->wrapped->len),
		pager->wrapped->len, pager->whole ?
		", h l scroll sideways" : "");
	g_string_append(title, where);
	wattrset(win, A_REVERSE);
	tn_tui_draw_utf8(win, 0, 0, title->str, w);
	wattrset(win, A_NORMAL);
	g_string_free(title, TRUE);
	for (int i = 0; i < pager->page &&
			pager->top + i < (int) pager->wrapped->len; i++) {
		const struct wrapped *line = &g_array_index(pager->wrapped,
			struct wrapped, pager->top + i);
		GArray *text = g_ptr_array_index(pager->lines, line->line);

		mvwprintw(win, 1 + i, 0, "%*s", line->indent, "");
		tn_tui_draw_wide(win, 1 + i, line->indent,
			(const wchar_t *) text->data + line->start,
			line->end - line->start, pager->hscroll,
			w - line->indent);
	}
	wnoutrefresh(win);
}

void tn_tui_pager_scroll(struct tn_tui_pager *pager, int lines)
{
	pager->top += lines;
	clamp(pager);
}

bool tn_tui_pager_key(struct tn_tui_pager *pager, int key)
{
	const struct tn_tui_binding *b =
		tn_tui_keymap_find(&tn_tui_pager_keys, key);

	if (!b)
		return true;
	switch (b->action) {
	case TN_TUI_PAGER_LINE_DOWN: tn_tui_pager_scroll(pager, 1); break;
	case TN_TUI_PAGER_LINE_UP: tn_tui_pager_scroll(pager, -1); break;
	case TN_TUI_PAGER_PAGE_DOWN:
		tn_tui_pager_scroll(pager, pager->page);
		break;
	case TN_TUI_PAGER_PAGE_UP:
		tn_tui_pager_scroll(pager, -pager->page);
		break;
	case TN_TUI_PAGER_FIRST: pager->top = 0; break;
	case TN_TUI_PAGER_LAST:
		tn_tui_pager_scroll(pager, G_MAXINT / 2);
		break;
	case TN_TUI_PAGER_LEFT:
		pager->hscroll -= pager->wrap_width / 2;
		break;
	case TN_TUI_PAGER_RIGHT:
		pager->hscroll += pager->whole ? pager->wrap_width / 2 : 0;
		break;
	case TN_TUI_PAGER_CLOSE: return false;
	default: break;
	}
	return true;
}
