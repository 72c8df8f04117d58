/* message.c - the message line: what any part of the TUI says to the
 * user (an error in the error colour), the prompt while it is open, the
 * count being typed. */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "tui-private.h"

void tn_tui_message_set(struct tn_tui *tui, bool is_error, const char *text)
{
	g_string_assign(tui->message, text ? text : "");
	tui->message_is_error = is_error;
	tui->dirty |= TN_TUI_DIRTY_MESSAGE;
}

void tn_tui_message_draw(struct tn_tui *tui)
{
	WINDOW *win = tui->message_win;
	int width = tui->layout.message.w;

	if (!win)
		return;
	werase(win);
	if (tn_tui_prompt_is_open(tui->prompt)) {
		tn_tui_prompt_draw(tui->prompt, win);
	} else {
		char count[32] = "";
		int right = 0;

		if (tui->has_count) {
			snprintf(count, sizeof(count), " %ld", tui->count);
			right = (int) strlen(count);
		} else if (!tui->message->len && width > 40) {
			snprintf(count, sizeof(count), "? help  : command  q quit");
			right = (int) strlen(count);
		}
		wattrset(win, tui->message_is_error ?
			tn_tui_attr(tui, TN_TUI_COLOR_ERROR) : A_NORMAL);
		tn_tui_draw_utf8(win, 0, 0, tui->message->str,
			width - right - 1);
		wattrset(win, A_DIM);
		if (right && right < width)
			tn_tui_draw_utf8(win, 0, width - right - 1, count,
				right);
		wattrset(win, A_NORMAL);
	}
	wnoutrefresh(win);
}
