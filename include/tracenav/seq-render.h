/* seq-render.h - a sequence diagram's model (seq.h) drawn as lines of
 * text, for the diagram pane and for seqdiag in --batch.
 *
 * The drawing: a box with the name of each lifeline on top (the header,
 * which a front end keeps visible while the rest scrolls), the
 * lifelines below as vertical lines, and one line per message in the
 * order of their first ends, with its time on the left (here a request,
 * the return that ends the server's activation, a message never
 * received):
 *
 *                       +---------+ +---------+
 *                       | client  | | server  |
 *                       +----+----+ +----+----+
 *    22:13:20.000001332      |--REQUEST->|
 *   >22:13:20.000004210      |<..REPLY...#
 *    22:13:20.000007000      |---lost--?>|
 *
 * An asynchronous message is drawn "--SIG-->" (line-drawing characters:
 * "──SIG──>"), a synchronous one "==SIG==>" ("──SIG──▶"), a return
 * "..SIG..>" ("┄┄SIG┄┄>"); a message to itself is a loop over two
 * lines.  A '?' stands at the missing end of an unpaired message: "?"
 * beside the sender when its send was not seen, beside the head when
 * its receive was not.  A lifeline created in the page starts with '*'
 * on the line of its creation, one stopped ends with 'X'; while it is
 * active (an activation) it is drawn '#' ('┃').  The selected message's
 * line starts with '>'.  The first header line says which lifelines
 * are shown when they do not all fit ("3-5 of 9").
 *
 * Names and signals are made terminal-safe (text.h) and counted in
 * terminal columns; a name too long for its column is cut and ends
 * with '~'.
 */
#ifndef TRACENAV_SEQ_RENDER_H
#define TRACENAV_SEQ_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "tracenav/seq.h"

struct tn_seq_render_options {
	int width;		/* columns of every line (at least 1) */
	/* The first lifeline shown (the horizontal scroll); one past the
	 * last shows the last one alone. */
	size_t first_lifeline;
	bool ascii;		/* plain ASCII rather than line drawing */
	/* Names and signals keep their printable non-ASCII characters;
	 * false: they are escaped ("\u8282"), as a terminal that does
	 * not take UTF-8 needs. */
	bool utf8;
	bool gmt;		/* times in UTC rather than local time */
	bool has_selected;	/* the selected message, highlighted */
	size_t selected;
};

/* What a front end highlights on a line: a range of its bytes. */
enum tn_seq_span_kind {
	TN_SEQ_SPAN_SELECTED,	/* the selected message */
	TN_SEQ_SPAN_UNPAIRED,	/* the mark of a missing end */
};

struct tn_seq_span {
	size_t start, end;	/* bytes [start, end) of the line's text */
	enum tn_seq_span_kind kind;
};

struct tn_seq_line {
	char *text;		/* UTF-8, no trailing blank, no newline */
	size_t span_count;	/* spans in the order they go on: a later */
	struct tn_seq_span *spans;	/* one over an earlier one */
	bool has_message;	/* a message is drawn on the line: */
	size_t message;		/* its index in the model */
};

struct tn_seq_drawing {
	size_t header_lines;	/* the first lines are the header */
	size_t line_count;
	struct tn_seq_line *lines;
	bool has_selected_line;	/* the first line of the selected message */
	size_t selected_line;
	size_t lifeline_count;	/* in the model */
	size_t first_lifeline;	/* the first one shown */
	size_t shown_lifelines;	/* how many are shown */
	int column_width;	/* columns of each lifeline */
};

/* Draw model with options.  A model without lifelines gives no line.
 * Never fails. */
struct tn_seq_drawing *tn_seq_render(const struct tn_seq_model *model,
		const struct tn_seq_render_options *options);
void tn_seq_drawing_destroy(struct tn_seq_drawing *drawing);

#endif
