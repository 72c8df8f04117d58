/* filter-service.h - the filters of a session: the stack the commands
 * change, the set of its enabled filters that the cursor shows and the
 * cursor's matcher of it, and the matches per interval of the index
 * once known (from the index's names, or a count pass in the
 * background).
 *
 * Threads: the commands' (the job's) to touch, as the cursor
 * (lease.h); the front end polls the count pass.
 */
#ifndef TRACENAV_SERVICE_FILTER_SERVICE_H
#define TRACENAV_SERVICE_FILTER_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "../output.h"
#include "lease.h"
#include "tracenav/cursor.h"
#include "tracenav/error.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/trace.h"

struct tn_filter_service {
	struct tn_filter_stack *stack;		/* NULL: none yet */
	struct tn_filter_set *set;		/* NULL: no filter */
	struct tn_filter_matcher *matcher;	/* the cursor's, of set */
	struct tn_match_counts *counts;		/* once known, or NULL */
	uint64_t serial;			/* changes with counts */
	struct tn_job *count_job;		/* the count pass, or NULL */
	struct tn_filter shared;		/* tn_filter_service_borrow() */
};

/* What the filters apply to, at the time of a call: the session's. */
struct tn_filter_target {
	struct tn_trace *trace;
	const struct tn_index *index;		/* NULL: not there yet */
	struct tn_cursor *cursor;
	/* --batch: wait for a count pass (what follows sees the counts,
	 * as it sees the index). */
	bool wait;
};

/* Make stack (taken, also on failure) the filters, set its snapshot
 * (tn_filter_stack_snapshot(); NULL when none is enabled; taken too):
 * the cursor shows the
 * events that pass its enabled filters, from the first one at or after
 * the current event (else the last before it).  Their matches per
 * interval come from the index's names when the filters are on names
 * alone, else from a count pass.  Returns 0, or -1 with err: filters
 * and cursor stay as they were. */
int tn_filter_service_set(struct tn_filter_service *filters,
		const struct tn_filter_target *target,
		struct tn_filter_stack *stack, struct tn_filter_set *set,
		struct tn_output *out, struct tn_error *err);

/* The index arrived (or changed): count the matches again. */
void tn_filter_service_use_index(struct tn_filter_service *filters,
		const struct tn_filter_target *target, struct tn_output *out);

/* Check on the count pass; once it is done and no job holds lease, give
 * the counts to cursor.  Returns true when something changed that the
 * status bar shows. */
bool tn_filter_service_poll(struct tn_filter_service *filters,
		struct tn_cursor *cursor, const struct tn_lease *lease,
		struct tn_output *out);

/* The progress of the count pass: false when none runs. */
bool tn_filter_service_get_progress(struct tn_filter_service *filters,
		struct tn_job_progress *progress);

/* How many events pass the filters (every event without filters): from
 * the counts; with the index, after the count pass (waiting for it,
 * until the job that runs this is cancelled); without, by reading the
 * trace.  Returns 0, or -1 with err. */
int tn_filter_service_count(struct tn_filter_service *filters,
		const struct tn_filter_target *target, struct tn_output *out,
		uint64_t *count, struct tn_error *err);

/* The filters as a struct tn_filter that several threads may match
 * with at once (a search's workers), or NULL without filters; valid
 * until the filters change (commands run one at a time). */
const struct tn_filter *tn_filter_service_borrow(
		struct tn_filter_service *filters);

/* Stop the count pass (it starts again when the index comes). */
void tn_filter_service_stop_count(struct tn_filter_service *filters);

/* Drop what the filters hold of the trace (their matcher, the set bound
 * to its metadata, the match counts); the stack stays.  The count pass
 * must have stopped. */
void tn_filter_service_unbind(struct tn_filter_service *filters);

/* Stop the count pass and free everything. */
void tn_filter_service_fini(struct tn_filter_service *filters);

#endif
