/* session.h - what the front ends (TUI and batch) share: the trace, the
 * event-list cursor and the view's geometry; commands act on it. */
#ifndef TRACENAV_SESSION_H
#define TRACENAV_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/cursor.h"
#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/trace.h"

enum tn_output_kind {
	TN_OUTPUT_TEXT,		/* a line of a command's result (print, help) */
	TN_OUTPUT_MESSAGE,	/* a one-line status message */
};

struct tn_session {
	struct tn_trace *trace;
	struct tn_cursor *cursor;
	bool gmt;		/* times in UTC rather than local time */
	int64_t page_rows;	/* rows a page moves (the list's height) */
	int64_t top_offset;	/* rows shown above the current one (TUI) */
	bool quit;		/* a command asked to stop */
	/* Where commands write: batch prints TEXT on stdout and MESSAGE on
	 * stderr; the TUI shows TEXT in a pager and MESSAGE on its message
	 * line.  title names a block of TEXT lines (e.g. "help"), or NULL. */
	void (*output)(struct tn_session *session, enum tn_output_kind kind,
		const char *title, const char *text);
	void *frontend;		/* the front end's own state */

	/* The checkpoint index: built in the background, or loaded. */
	struct tn_indexer *indexer;	/* running build, or NULL */
	struct tn_index *index;		/* once built or loaded */
	char *cache_dir;		/* NULL: do not persist the index */
	bool wait_for_index;		/* batch: commands wait for it */
	bool index_on_start;		/* TUI: build it when it opens */
	bool cache_warned;		/* said once that it cannot be saved */
};

/* Set session up on trace: a cursor on its first event, the output
 * function given.  Returns 0, or -1 with err. */
int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, void (*output)(struct tn_session *session,
			enum tn_output_kind kind, const char *title,
			const char *text), struct tn_error *err);

/* Load the index from the cache or start building it in the background
 * (nothing if it is there or being built).  Says what happens through
 * output(MESSAGE).  Returns 0, or -1 with err if it cannot start. */
int tn_session_start_index(struct tn_session *session, struct tn_error *err);

/* Check on the background build; when it is done, give the index to the
 * cursor and save it in the cache.  Returns true if something changed
 * (progress or completion) that a status line should show. */
bool tn_session_poll_index(struct tn_session *session);

/* Stop the background build (the list goes on without an index). */
void tn_session_cancel_index(struct tn_session *session);

/* Free what tn_session_init() made. */
void tn_session_fini(struct tn_session *session);

#endif
