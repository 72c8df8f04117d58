/* list.h - the event list pane's cache, shared by list-rows.c (which
 * computes it when the cursor moved, on the job's thread) and
 * pane-list.c (which draws it and takes the keys). */
#ifndef TRACENAV_TUI_LIST_H
#define TRACENAV_TUI_LIST_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "pane.h"
#include "tracenav/regex.h"
#include "tracenav/seek.h"

/* The columns of a row that show a piece of the event's line. */
enum list_cell {
	LIST_CELL_TIME,
	LIST_CELL_DELTA,
	LIST_CELL_HOST,
	LIST_CELL_NAME,
	LIST_CELL_PAYLOAD,
	LIST_CELL_CONTEXTS,
	LIST_CELL_COUNT,
};

/* A part of a match of the last search: bytes [start, end) of a cell's
 * text. */
struct list_match {
	enum list_cell cell;
	size_t start, end;
};

/* A row on screen, as text: a struct tn_row only lives until the cursor
 * reads again, and drawing must not read. */
struct list_row {
	struct tn_position pos;
	int screen_row;
	bool current;
	bool notice;		/* a discarded events or packets notice */
	bool marked;		/* the user marked it (m) */
	uint64_t lost_before;	/* events lost just before it */
	char *time;		/* HH:MM:SS.NNNNNNNNN */
	char *delta;		/* +S.NNNNNNNNN */
	char *host;
	char *cpu;		/* "" when the trace does not say */
	char *name;
	char *payload;		/* or a notice's text */
	char *contexts;		/* "" when none */
	GArray *matches;	/* struct list_match, or NULL: none */
};

/* What the list shows for a position of the cursor. */
struct list_cache {
	int top;		/* screen row of the current event */
	GArray *rows;		/* struct list_row, top to bottom */
	bool has_cpu;		/* some row has a CPU */
	bool empty;		/* no event to show: */
	bool filtered;		/* the filters hide them all (else the
				 * trace has none) */
	bool has_marks;		/* some event is marked: a gutter shows */
	char *error;		/* a read error, or NULL */
	bool incomplete;	/* rows left unread for the time budget:
				 * computed again, they come in */
	/* The current event. */
	bool has_current_ns;
	int64_t current_ns;
	bool has_rank;
	uint64_t rank;
	char *current_time;	/* as goto takes it */
	/* The span NN% and the time scrollbar stand for (exact: the first
	 * and last events', else the packets' time range). */
	bool has_span, span_exact;
	int64_t span_begin, span_end;
	/* The packets' range was still being found (no span yet): the list
	 * is computed again once it is (run.c). */
	bool span_pending;
	char *current_line;	/* as --dump prints it (y copies it) */
};

/* list-rows.c: the cache for where the cursor is now (pane.h's
 * cursor_moved), and its destruction. */
void *tn_list_cursor_moved(const void *old_cache,
		const struct tn_pane_view *view);
void tn_list_cache_free(void *cache);

/* list-match.c: fill text->matches with the matches of matcher (the
 * last search; NULL: none) in row's line as --dump prints it, cut into
 * the parts that fall in the cells text shows (text filled from row
 * first). */
void tn_list_find_matches(struct list_row *text, const struct tn_row *row,
		struct tn_regex_matcher *matcher, bool gmt);

#endif
