/* state-pane.h - the state tree pane's own state, shared by its files:
 * pane-state.c (the class: keys, the queries, the cursor's position)
 * and state-draw.c (drawing). */
#ifndef TRACENAV_TUI_STATE_PANE_H
#define TRACENAV_TUI_STATE_PANE_H

#include <glib.h>
#include <stdbool.h>

#include "pane.h"
#include "state-job.h"
#include "state-tree.h"

/* The pane's cache, made by cursor_moved in the list's job: where the
 * list's cursor is, which the pane's own queries then use. */
struct state_spot {
	bool has_event;
	struct tn_position pos;
	/* The session's state history, or NULL before it exists. */
	const struct tn_state_snapshots *snapshots;
};

/* The pane's state (the UI thread's). */
struct state_view {
	struct tn_state_jobs *jobs;

	/* What the tree shows: the last full answer (the state at its
	 * result's pos), its labels, and the rows shown. */
	struct tn_state_result *result;
	struct tn_state_tree *tree;
	struct tn_state_folds *folds;
	GArray *rows;			/* struct tn_state_tree_row */
	/* The last position a full query answered or failed at, and its
	 * failure (NULL: none). */
	bool has_tried;
	struct tn_position tried;
	char *error;
	/* Where the list's cursor is, and since when (a query starts once
	 * it stays there a little). */
	bool has_wanted;
	struct tn_position wanted;
	gint64 wanted_since;

	/* The selection, kept by path across results once the user chose
	 * it (before, the first row), and the scroll. */
	long selected;			/* row, -1: none */
	char *selected_path;
	bool chosen;
	int top;			/* first row shown */

	/* The last search of the tree (NULL: none). */
	struct tn_regex *regex;
	struct tn_regex_matcher *matcher;

	/* While a query runs (after a tenth of a second): what the status
	 * line says ("computing state at 12:34:56.789012345..."), and what
	 * the query does, at the title's right ("replaying 1.2M"), or NULL;
	 * the pane is redrawn when they change. */
	char *progress_text;
	char *progress_activity;
};

/* state-draw.c: draw the pane into win. */
void tn_state_pane_draw(struct tn_pane *pane, WINDOW *win);

/* The rows of attributes that fit in the pane (between its status line
 * and its footer), for paging and keeping the selection in view. */
int tn_state_pane_tree_lines(const struct tn_pane *pane);

#endif
