/* timeline-job.h - the timeline panes' grids, made in the background as
 * jobs of the pane's own (job.h), never in the event list's job: a
 * narrow zoom replays its span (a fifth of a second on a 10 M-event
 * kernel trace), which must not hold up a move of the list nor a key.
 *
 * One grid is made at a time.  The pane says what it wants (a request:
 * the span, the columns, the index and snapshots it has), starts a job
 * for it, polls it from the input loop, cancels it when it wants
 * another, and takes the grid once the job ended.
 *
 * No ncurses here: the core's timelines and jobs only.
 */
#ifndef TRACENAV_TUI_TIMELINE_JOB_H
#define TRACENAV_TUI_TIMELINE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/job.h"
#include "tracenav/timeline.h"

/* What a grid is made of: equal requests make equal grids.  The index
 * and the snapshots are the session's, which live until the panes are
 * destroyed (a reload destroys them first). */
struct tn_timeline_request {
	enum tn_timeline_kind kind;
	const struct tn_index *index;	/* NULL: read partially */
	const struct tn_state_snapshots *snapshots;	/* NULL: none yet */
	int64_t begin_ns, end_ns;
	unsigned buckets;
};

bool tn_timeline_request_equal(const struct tn_timeline_request *a,
		const struct tn_timeline_request *b);

/* A grid made for request, or why it could not be. */
struct tn_timeline_made {
	struct tn_timeline_request request;
	struct tn_timeline_grid *grid;	/* NULL when error is set */
	char *error;
};

/* Free made and what it holds (NULL-safe). */
void tn_timeline_made_free(struct tn_timeline_made *made);

struct tn_timeline_maker;

/* The maker of trace's grids (trace must outlive it).  Never fails. */
struct tn_timeline_maker *tn_timeline_maker_create(
		const struct tn_trace *trace);
/* Cancel the job that runs, wait for it, free everything (NULL-safe). */
void tn_timeline_maker_destroy(struct tn_timeline_maker *maker);

/* Start making request's grid; none may run
 * (tn_timeline_maker_running() NULL).  Returns 0, or -1 with err (no
 * thread). */
int tn_timeline_maker_start(struct tn_timeline_maker *maker,
		const struct tn_timeline_request *request,
		struct tn_error *err);

/* What the job that runs (or ended, not taken yet) was asked, or NULL
 * when none; its progress in *progress when not NULL. */
const struct tn_timeline_request *tn_timeline_maker_running(
		const struct tn_timeline_maker *maker,
		struct tn_job_progress *progress);

/* Ask the job that runs to stop (harmless when none runs). */
void tn_timeline_maker_cancel(struct tn_timeline_maker *maker);

/* Take the job's outcome once it ended, without waiting: 1 and *out (a
 * grid, or the error that stopped it: tn_timeline_made_free() it), 0
 * while it runs or when none was started, -1 when it was cancelled (the
 * next one may start). */
int tn_timeline_maker_finish(struct tn_timeline_maker *maker,
		struct tn_timeline_made **out);

#endif
