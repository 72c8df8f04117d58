/* rows.c - a selection in a pane's list of rows (see rows.h). */
#include <glib.h>

#include "rows.h"

void tn_tui_rows_select(struct tn_tui_rows *rows, long row, long count,
		int lines)
{
	rows->selected = count ? CLAMP(row, 0, count - 1) : 0;
	if (rows->selected < rows->top)
		rows->top = rows->selected;
	if (rows->selected >= rows->top + lines)
		rows->top = rows->selected - lines + 1;
}

bool tn_tui_rows_move(struct tn_tui_rows *rows, int move, long n, long count,
		int lines)
{
	long to;

	switch (move) {
	case TN_ROWS_DOWN: to = rows->selected + n; break;
	case TN_ROWS_UP: to = rows->selected - n; break;
	case TN_ROWS_PAGE_DOWN: to = rows->selected + lines; break;
	case TN_ROWS_PAGE_UP: to = rows->selected - lines; break;
	case TN_ROWS_FIRST: to = 0; break;
	case TN_ROWS_LAST: to = count - 1; break;
	default: return false;
	}
	tn_tui_rows_select(rows, to, count, lines);
	return true;
}

void tn_tui_rows_mouse(struct tn_tui_rows *rows, int y, int wheel, long count,
		int lines)
{
	if (wheel)
		tn_tui_rows_select(rows, rows->selected + wheel, count, lines);
	else if (y >= 0)
		tn_tui_rows_select(rows, rows->top + y, count, lines);
}
