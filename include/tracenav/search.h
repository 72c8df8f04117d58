/* search.h - whole-trace regex search: the next (or previous) event
 * whose line, as --dump prints it (time, delta, host, name, fields),
 * matches a regex.
 *
 * The part of the trace to search is cut into slices, as the index build
 * cuts it (by event numbers when the checkpoint index is there, by time
 * otherwise), and each slice is read by a worker thread with readers of
 * its own.  Forward, the first match of the earliest slice that has one
 * wins: a worker stops at its first match, and the workers of later
 * slices stop as soon as an earlier one matched.  Backward, windows
 * before the start are read from the nearest one back, each cut into
 * slices whose last match counts, the latest slice winning.  When
 * nothing matches up to the end (or the start), the search wraps
 * around, and says so.
 *
 * A search runs on the calling thread, which waits for its workers: a
 * command of the event list runs it inside its job, and the search then
 * publishes its progress on that job (activity "searching") and stops
 * when it is cancelled (tn_job_current_is_cancelled()).
 * tn_search_start() runs one as a job of its own.
 */
#ifndef TRACENAV_SEARCH_H
#define TRACENAV_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/regex.h"
#include "tracenav/seek.h"
#include "tracenav/trace.h"

enum tn_search_direction {
	TN_SEARCH_FORWARD,
	TN_SEARCH_BACKWARD,
};

/* What to search, from where. */
struct tn_search_request {
	const struct tn_trace *trace;
	const struct tn_regex *regex;
	/* Only the events that pass these filters (the list's) are
	 * searched; NULL: every event.  Each worker thread matches with a
	 * matcher of its own. */
	struct tn_filter_set *filters;
	/* The checkpoint index, or NULL: with it, slices hold as many
	 * events each. */
	const struct tn_index *index;
	struct tn_position from;
	/* Forward: the event at `from` may be the match (search); when
	 * false, the search starts after it (next).  Backward always starts
	 * before it. */
	bool inclusive;
	enum tn_search_direction direction;
	bool wrap;		/* go on from the other end */
	bool gmt;		/* the lines' times in UTC (as --gmt) */
	/* Threads: 0 is one per core, at most 3, and one for a part of
	 * the trace too small to gain by it; more than 0 are used as far
	 * as the trace can be cut (at most 8). */
	unsigned workers;
};

struct tn_search_result {
	bool found;
	struct tn_position pos;	/* of the match */
	/* The match is on the other side of `from`: the search went past
	 * the end (forward) or the start (backward) and on from the other
	 * end. */
	bool wrapped;
	uint64_t events_read;	/* lines formatted and matched */
	unsigned workers;	/* the most threads it read with at once */
};

/* Search as request says, on the calling thread (and worker threads it
 * starts and joins).  Returns 0 with *result filled (found false: no
 * event matches), or -1 with err (a read error, or "cancelled" when the
 * job running it was cancelled). */
int tn_search_run(const struct tn_search_request *request,
		struct tn_search_result *result, struct tn_error *err);

/* The same as a job of its own (class name "searching"), for a caller
 * that must not wait: request's trace, regex, filters and index must
 * outlive the job.  Returns 0 and sets *out, or -1 with err. */
int tn_search_start(const struct tn_search_request *request,
		struct tn_job **out, struct tn_error *err);

/* The result of a search job once it is DONE: 0 with *result, or -1
 * while it runs, after a failure or a cancel, or for another job. */
int tn_search_get_result(struct tn_job *job, struct tn_search_result *result);

#endif
