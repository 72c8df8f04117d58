/* colors.c - the attributes of each kind of text: colour pairs, or
 * bold, reverse and underline when the terminal has no colours or the
 * user set NO_COLOR. */
#include <stdlib.h>

#include "tui-private.h"

attr_t tn_tui_attr(const struct tn_tui *tui, enum tn_tui_color color)
{
	if (tui->colors) {
		switch (color) {
		case TN_TUI_COLOR_HEADER:
		case TN_TUI_COLOR_ERROR:
		case TN_TUI_COLOR_FOCUS:
		case TN_TUI_COLOR_LOST:
		case TN_TUI_COLOR_MATCH:
			return COLOR_PAIR(color) | A_BOLD;
		default:
			return COLOR_PAIR(color);
		}
	}
	switch (color) {
	case TN_TUI_COLOR_HEADER: return A_BOLD;
	case TN_TUI_COLOR_STATUS: return A_REVERSE;
	case TN_TUI_COLOR_ERROR: return A_BOLD;
	case TN_TUI_COLOR_NOTICE: return A_BOLD;
	case TN_TUI_COLOR_PANE: return A_REVERSE;
	case TN_TUI_COLOR_FOCUS: return A_REVERSE | A_BOLD;
	case TN_TUI_COLOR_LOST: return A_BOLD;
	case TN_TUI_COLOR_MATCH: return A_BOLD | A_UNDERLINE;
	case TN_TUI_COLOR_SCHED:
	case TN_TUI_COLOR_SYSCALL:
	case TN_TUI_COLOR_IRQ:
	case TN_TUI_COLOR_USER:
		break;
	}
	return A_NORMAL;
}

void tn_tui_colors_init(struct tn_tui *tui)
{
	const char *no_color = getenv("NO_COLOR");

	/* https://no-color.org: any non-empty NO_COLOR turns colours off. */
	if ((no_color && *no_color) || !has_colors() || start_color() != OK)
		return;
	use_default_colors();
	init_pair(TN_TUI_COLOR_HEADER, COLOR_CYAN, -1);
	init_pair(TN_TUI_COLOR_STATUS, COLOR_BLACK, COLOR_CYAN);
	init_pair(TN_TUI_COLOR_ERROR, COLOR_RED, -1);
	init_pair(TN_TUI_COLOR_NOTICE, COLOR_YELLOW, -1);
	init_pair(TN_TUI_COLOR_PANE, COLOR_BLACK, COLOR_WHITE);
	init_pair(TN_TUI_COLOR_FOCUS, COLOR_BLACK, COLOR_CYAN);
	init_pair(TN_TUI_COLOR_SCHED, COLOR_GREEN, -1);
	init_pair(TN_TUI_COLOR_SYSCALL, COLOR_BLUE, -1);
	init_pair(TN_TUI_COLOR_IRQ, COLOR_MAGENTA, -1);
	init_pair(TN_TUI_COLOR_USER, COLOR_CYAN, -1);
	init_pair(TN_TUI_COLOR_LOST, COLOR_RED, -1);
	init_pair(TN_TUI_COLOR_MATCH, COLOR_BLACK, COLOR_YELLOW);
	tui->colors = true;
}
