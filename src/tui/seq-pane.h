/* seq-pane.h - the sequence diagram pane's own state, shared by its
 * files: pane-seq.c (the class: the cursor's position, the page and
 * find jobs, keys) and seq-draw.c (its sizes and drawing). */
#ifndef TRACENAV_TUI_SEQ_PANE_H
#define TRACENAV_TUI_SEQ_PANE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/seq-hide.h"
#include "tracenav/seq-window.h"
#include "pane.h"
#include "seq-view.h"

/* The pane's cache, made by cursor_moved in the list's job: where the
 * list's cursor is, the hide patterns then, and what the diagram reads
 * (the trace, the rules, the state snapshots as far as they go). */
struct seq_spot {
	uint64_t serial;		/* one more than the cache before */
	bool has_event;
	struct tn_position pos;
	struct tn_seq_hide *hide;	/* a reference, or NULL */
	struct tn_seq_source source;
};

/* The pane's state (the UI thread's). */
struct seq_pane {
	struct tn_seq_view view;
	/* What the page shown was loaded with (has_page: one was). */
	bool has_page;
	struct tn_seq_hide *page_hide;	/* a reference */
	char *loaders;			/* the page's, "" for none */
	/* Why the last load failed (not again until the cursor moves), or
	 * NULL. */
	char *error;

	uint64_t seen;			/* the serial of the cache seen */
	/* A page is wanted for this position and these patterns, since
	 * then. */
	bool wants_page;
	struct tn_position wanted;
	struct tn_seq_hide *wanted_hide;	/* a reference */
	gint64 wanted_since;

	struct tn_job *page_job;	/* the page that loads, or NULL */
	struct tn_seq_page_request *page_req;

	struct tn_job *find_job;	/* the find that runs, or NULL */
	struct tn_seq_find_job_request *find_req;
	char *pattern;			/* the last find's, or NULL */

	/* The list was sent to `sent` for message sent_message: when the
	 * cursor arrives there, that message stays selected. */
	bool has_sent;
	struct tn_position sent;
	size_t sent_message;

	char *progress;		/* at the title's right while a job runs */
};

/* seq-draw.c: the header lines shown (the box, or the names alone in a
 * low pane), and the body lines that show under the title and them. */
size_t tn_seq_pane_header_rows(const struct tn_pane *pane);
size_t tn_seq_pane_body_rows(const struct tn_pane *pane);

/* The view's width and style for the pane as it is now (its width, the
 * terminal's UTF-8 and --ascii). */
void tn_seq_pane_update_style(struct tn_pane *pane);

/* Draw the pane into win. */
void tn_seq_pane_draw(struct tn_pane *pane, WINDOW *win);

#endif
