/* pane-list.h - what the status bar, the prompt and the job runner read
 * of the event list (pane-list.c). */
#ifndef TRACENAV_TUI_PANE_LIST_H
#define TRACENAV_TUI_PANE_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/cursor.h"
#include "pane.h"

struct tn_list_status {
	int top;			/* screen row of the current event */
	int shown;			/* event rows shown */
	bool has_current_ns;
	int64_t current_ns;
	bool has_current_pos;		/* the current row's position */
	struct tn_position current_pos;
	bool has_rank;
	uint64_t rank;
	const char *error;		/* a read error, or NULL */
	bool incomplete;		/* rows to read still (list.h) */
	const char *current_time;	/* as goto takes it, or NULL */
	bool has_span, span_exact;	/* see tn_cursor_get_time_span() */
	int64_t span_begin, span_end;
	bool span_pending;		/* see tn_cursor_peek_time_span() */
	/* The times of the first and last events on the screen. */
	bool has_shown_span;
	int64_t shown_begin_ns, shown_end_ns;
};
/* false before the list was first computed. */
bool tn_pane_list_get_status(const struct tn_pane *pane,
		struct tn_list_status *status);
/* Rows of events the list shows (its height less the header). */
int tn_pane_list_rows(const struct tn_pane *pane);

#endif
