/* state-job.h - the state tree pane's queries, run in the background as
 * jobs of the pane's own (job.h), never in the event list's job: a
 * query that takes long (a replay before the state pass got there) must
 * not hold up a move of the list.
 *
 * One query runs at a time.  The tn_state_querier is kept from one to
 * the next (a query just after the last one replays only the events in
 * between); it is made again when the session's snapshots appear.  The
 * pane starts a query, polls it from the input loop, cancels it when
 * the cursor moved on, and takes its result once it ended.
 *
 * A full query's answer comes with its tree (state-tree.h), made on the
 * job's thread: for thousands of threads that takes tens of
 * milliseconds, which the input loop must not spend.
 *
 * No ncurses here: the core's state queries and jobs, and the model.
 */
#ifndef TRACENAV_TUI_STATE_JOB_H
#define TRACENAV_TUI_STATE_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/job.h"
#include "tracenav/seek.h"
#include "tracenav/state-history.h"
#include "tracenav/trace.h"
#include "state-tree.h"

enum tn_state_job_kind {
	TN_STATE_JOB_FULL,	/* every attribute at an event */
	TN_STATE_JOB_END,	/* where one attribute's value ends */
};

/* What a query was asked, and what it answered. */
struct tn_state_job_answer {
	enum tn_state_job_kind kind;
	struct tn_position pos;		/* the event queried */
	char *path;			/* END: the attribute */
	struct tn_state_result *result;	/* FULL: the state (taken) */
	struct tn_state_tree *tree;	/* FULL: its labels, made on the
					 * job's thread (taken) */
	struct tn_state_entry entry;	/* END: the attribute's interval */
};

/* Free what an answer holds (NULL-safe). */
void tn_state_job_answer_clear(struct tn_state_job_answer *answer);

struct tn_state_jobs;

/* The queries on trace (which must outlive them); symbols (NULL: none;
 * must outlive them too) name the functions of call stacks in the
 * results.  Never fails. */
struct tn_state_jobs *tn_state_jobs_create(const struct tn_trace *trace,
		const struct tn_symbols *symbols);
/* Cancel the query that runs, wait for it, free everything. */
void tn_state_jobs_destroy(struct tn_state_jobs *jobs);

/* Start a query; none may run (tn_state_jobs_is_running() false).
 * snapshots: the session's (NULL: none yet; a query then replays from
 * the trace's start).  FULL looks up to end_horizon events after pos
 * for where the values end; END reads on until the value of path
 * changes or the trace ends.  Returns 0, or -1 with err (no thread). */
int tn_state_jobs_start_full(struct tn_state_jobs *jobs,
		const struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, uint64_t end_horizon,
		struct tn_error *err);
int tn_state_jobs_start_end(struct tn_state_jobs *jobs,
		const struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, const char *path,
		struct tn_error *err);

/* Whether a query was started and not finished yet (it may have ended:
 * see tn_state_jobs_finish()); its kind. */
bool tn_state_jobs_is_running(const struct tn_state_jobs *jobs);
enum tn_state_job_kind tn_state_jobs_get_kind(
		const struct tn_state_jobs *jobs);

/* Its progress (what the querier says it does, e.g. "replaying"), and
 * the event it is about.  false when none runs. */
bool tn_state_jobs_get_progress(const struct tn_state_jobs *jobs,
		struct tn_job_progress *progress, struct tn_position *pos);

/* Ask the query that runs to stop (harmless when none runs). */
void tn_state_jobs_cancel(struct tn_state_jobs *jobs);

/* Take the query's answer once it ended, without waiting: 1 with
 * *answer filled (tn_state_job_answer_clear() it), 0 when it still
 * runs or none was started, -1 with err when it failed or was
 * cancelled (*cancelled says which; answer's kind and pos say which
 * query, and it holds nothing else; the next query may start). */
int tn_state_jobs_finish(struct tn_state_jobs *jobs,
		struct tn_state_job_answer *answer, bool *cancelled,
		struct tn_error *err);

#endif
