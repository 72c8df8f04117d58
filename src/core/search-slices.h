/* search-slices.h - one pass of a search over a part of the trace, cut
 * into slices read by worker threads (internal: not part of the public
 * API; search.c plans the passes).
 *
 * A part is [lo, hi) in positions (either end may be open: the trace's
 * start or end).  It is cut into contiguous slices; each worker opens a
 * walk of its own at its slice's first position and matches the line of
 * every event up to the next slice's first position.  In FIRST mode a
 * worker stops at its first match and the first match of the earliest
 * slice wins (later slices stop once an earlier one matched); in LAST
 * mode a worker reads its whole slice and keeps its last match, and the
 * latest slice with a match wins (earlier slices stop once a later one
 * matched).
 */
#ifndef TRACENAV_CORE_SEARCH_SLICES_H
#define TRACENAV_CORE_SEARCH_SLICES_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/search.h"

#define TN_SEARCH_MAX_WORKERS 8

/* One end of a part of the trace: open (the trace's start or end) or a
 * position (a lower bound is inclusive, an upper one exclusive). */
struct tn_search_bound {
	bool open;
	struct tn_position pos;
};

enum tn_search_mode {
	TN_SEARCH_FIRST,	/* the first match of the part */
	TN_SEARCH_LAST,		/* the last match of the part */
};

/* How far a pass got, for the progress line: the share of the pass's
 * time span covered (< 0: unknown) and the events matched so far. */
struct tn_search_reach {
	double covered_ns;	/* of the slices' time spans, in ns */
	uint64_t events;
};

/* What every pass of one search shares: set before the workers start. */
struct tn_search_shared {
	const struct tn_search_request *request;
	bool has_range;		/* the trace's time span, when known */
	int64_t begin_ns, end_ns;
	/* Called on the calling thread every few tens of ms while the
	 * workers run, with how far they got; returns true to stop them
	 * (a cancel). */
	bool (*tick)(const struct tn_search_reach *reach, void *data);
	void *tick_data;
};

/* Read the slices [cuts[i], cuts[i + 1]) for i < count (cuts has
 * count + 1 bounds; only cuts[0] may be open at the start and
 * cuts[count] at the end), one worker thread each, in mode.  On a
 * match, *found is true and *pos its position.  *events gets the events
 * matched.  Returns 0, or -1 with err (a read error; "cancelled" when
 * tick asked to stop). */
int tn_search_run_slices(const struct tn_search_shared *shared,
		const struct tn_search_bound *cuts, unsigned count,
		enum tn_search_mode mode, bool *found,
		struct tn_position *pos, uint64_t *events,
		struct tn_error *err);

#endif
