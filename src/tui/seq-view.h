/* seq-view.h - what the sequence diagram pane shows of a page of
 * messages: the page's model, the selected message, the vertical and
 * horizontal scroll, and the page's drawing (seq-render.h) for the
 * pane's width, made again when one of them changes.
 *
 * Pure logic, without ncurses, so that it is tested on hand-built
 * models (test-seq-view): pane-seq.c owns one view, gives it the pages
 * its jobs load, and draws its lines.
 *
 * Lines: the drawing's first header_lines lines are the lifelines'
 * header, which the pane keeps on top; "body lines" are the others,
 * numbered from 0, of which the pane shows `rows` from `top`.
 */
#ifndef TRACENAV_TUI_SEQ_VIEW_H
#define TRACENAV_TUI_SEQ_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/seek.h"
#include "tracenav/seq-render.h"
#include "tracenav/seq.h"

struct tn_seq_view {
	struct tn_seq_model *model;	/* the page (owned), or NULL */
	/* No message of the trace comes before the page's first, or
	 * after its last: a move of the list's cursor beyond them needs
	 * no new page. */
	bool starts_trace, ends_trace;
	bool has_selected;
	size_t selected;		/* a message of model */
	size_t top;			/* the first body line shown */
	size_t first_lifeline;		/* the first lifeline shown */
	struct tn_seq_render_options style;	/* width, ascii, utf8, gmt */
	struct tn_seq_drawing *drawing;	/* made by tn_seq_view_drawing() */
};

/* An empty view: no page, 80 columns, plain ASCII. */
void tn_seq_view_init(struct tn_seq_view *view);
void tn_seq_view_fini(struct tn_seq_view *view);

/* Show model (taken; NULL: no page) with the message selected (when
 * has_selected); the scroll stays where it is, within the new page. */
void tn_seq_view_set_page(struct tn_seq_view *view, struct tn_seq_model *model,
		bool starts_trace, bool ends_trace, bool has_selected,
		size_t selected);

/* Draw with style's width (at least 1), ascii, utf8 and gmt from now on
 * (its first_lifeline and selection are the view's own). */
void tn_seq_view_set_style(struct tn_seq_view *view,
		const struct tn_seq_render_options *style);

/* The drawing of the page as the view shows it (NULL without a page or
 * without lifelines); valid until the view changes. */
const struct tn_seq_drawing *tn_seq_view_drawing(struct tn_seq_view *view);

/* Body lines of the drawing (0 without one). */
size_t tn_seq_view_body_lines(struct tn_seq_view *view);

/* Select message index (clamped to the page's messages), scrolling the
 * lifelines so that its ends show when they fit.  false when the page
 * has no message. */
bool tn_seq_view_select(struct tn_seq_view *view, size_t index);

/* Scroll so that the selected message's lines show among rows body
 * lines, with a line or two around them when rows allow (as vim's
 * scrolloff), and never past the last line. */
void tn_seq_view_keep_in_view(struct tn_seq_view *view, size_t rows);

/* Scroll so that the selected message shows a third of the way down
 * rows body lines (a new page: the messages before it, and more of
 * those after it). */
void tn_seq_view_center(struct tn_seq_view *view, size_t rows);

/* Scroll by lines (negative: up), within the body. */
void tn_seq_view_scroll(struct tn_seq_view *view, long lines, size_t rows);

/* Scroll the lifelines by step (negative: left): true when it moved.
 * It stops when the first one shows, or the last. */
bool tn_seq_view_scroll_lifelines(struct tn_seq_view *view, long step);

/* The message drawn on body line `line`: true with *message. */
bool tn_seq_view_message_at(struct tn_seq_view *view, size_t line,
		size_t *message);

/* The list's cursor went to pos: when the page has what is around it,
 * true with the message to select (tn_seq_model_select()'s); false when
 * a new page is needed: pos is beyond the page's first or last message
 * (and the trace has more there), or within margin messages of the
 * page's first or last. */
bool tn_seq_view_follow(const struct tn_seq_view *view,
		const struct tn_position *pos, size_t margin, size_t *message);

/* Where the list goes for message index of the page: its send (its
 * receive when it has no send), or with receive its receive (false
 * when it has none). */
bool tn_seq_view_message_end(const struct tn_seq_view *view, size_t index,
		bool receive, struct tn_position *pos);

#endif
