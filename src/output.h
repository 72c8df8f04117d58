/* output.h - where commands and the session write what they have to
 * say: lines of a result (print, detail, help) and one-line messages.
 *
 * --batch writes results on stdout and messages on stderr; the event
 * list shows results in a text view and messages on its message line.
 * A command that runs as a background job writes into a buffer that the
 * front end replays on its own thread once the job ended.
 */
#ifndef TRACENAV_OUTPUT_H
#define TRACENAV_OUTPUT_H

#include <glib.h>

enum tn_output_kind {
	TN_OUTPUT_TEXT,		/* a line of a command's result */
	TN_OUTPUT_LINE,		/* the same, to show whole (never wrapped):
				 * an event's line, as --dump prints it */
	TN_OUTPUT_MESSAGE,	/* a one-line status message */
};

struct tn_output {
	/* title names a block of TEXT lines ("help", "detail"), or NULL. */
	void (*write)(struct tn_output *out, enum tn_output_kind kind,
		const char *title, const char *text);
};

/* Write through out (NULL-safe: nothing is written). */
void tn_output_text(struct tn_output *out, const char *title,
		const char *text);
void tn_output_line(struct tn_output *out, const char *title,
		const char *text);
void tn_output_message(struct tn_output *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* An output that keeps what is written, to replay it elsewhere later. */
struct tn_output_buffer {
	struct tn_output output;	/* write through this */
	GArray *items;			/* private */
};

void tn_output_buffer_init(struct tn_output_buffer *buffer);
/* Write everything kept to out, in order, and forget it. */
void tn_output_buffer_replay(struct tn_output_buffer *buffer,
		struct tn_output *out);
void tn_output_buffer_fini(struct tn_output_buffer *buffer);

#endif
