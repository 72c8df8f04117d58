/* view.h - what a front end views the trace through: the time zone, the
 * range that stats and histogram take, the histogram's zoom, the
 * analysis its pane shows, a range being selected and the last search.
 * The commands' (the job's) to touch (lease.h); the front end reads it
 * to draw once the job ended.
 */
#ifndef TRACENAV_SERVICE_VIEW_H
#define TRACENAV_SERVICE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/cursor.h"
#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/regex.h"
#include "tracenav/stats.h"
#include "tracenav/trace.h"

struct tn_view {
	bool gmt;		/* times in UTC rather than local time */
	/* The last search (search, next, prev), whose matches the list
	 * highlights, or NULL. */
	struct tn_regex *search_regex;
	/* The time range that stats and histogram apply to (range):
	 * [range_begin_ns, range_end_ns], both ends inclusive, when
	 * has_range; otherwise they take the whole trace, from its first
	 * event to its last. */
	bool has_range;
	int64_t range_begin_ns, range_end_ns;
	/* The analysis the analysis pane shows (one of
	 * tn_analysis_names(); NULL: cputop), as the last analysis command
	 * chose it. */
	const char *analysis_name;
	/* The last count of the events of a range (or the whole trace),
	 * [counts_begin_ns, counts_end_ns] in the index, so that
	 * `range T1 T2; stats` seeks to each edge once; dropped when an
	 * index comes (tn_view_count()). */
	struct tn_stats_counts *counts;
	int64_t counts_begin_ns, counts_end_ns;
	/* The span the histogram strip shows when zoomed (histogram in the
	 * event list), both ends inclusive; otherwise the trace's time
	 * range. */
	bool zoomed;
	int64_t zoom_begin_ns, zoom_end_ns;
	/* The span the timeline panes show when zoomed (timeline-zoom),
	 * both ends inclusive, within the range; otherwise the range (or
	 * the whole trace). */
	bool timeline_zoomed;
	int64_t timeline_begin_ns, timeline_end_ns;
	/* A range being selected (select): from select_anchor, an event,
	 * to the event that the next select is typed at. */
	bool selecting;
	struct tn_position select_anchor;
};

/* The time range that stats and histogram take, both ends inclusive:
 * the range when one is set, else the whole trace's events (first to
 * last, from index, which may be NULL).  false without an index or
 * without events. */
bool tn_view_get_range(const struct tn_view *view,
		const struct tn_index *index, int64_t *begin_ns,
		int64_t *end_ns);

/* The counts of [begin_ns, end_ns] of trace (tn_stats_count() with
 * index), kept until the next count of another range: borrowed.
 * Returns 0 with *counts, or -1 with err. */
int tn_view_count(struct tn_view *view, struct tn_trace *trace,
		const struct tn_index *index, int64_t begin_ns,
		int64_t end_ns, const struct tn_stats_counts **counts,
		struct tn_error *err);

/* The span the timeline panes show: the zoom's within the range (or
 * the whole trace, from index).  false without events. */
bool tn_view_get_timeline_span(const struct tn_view *view,
		const struct tn_index *index, int64_t *begin_ns,
		int64_t *end_ns);

/* Drop the kept counts (another index, another trace). */
void tn_view_drop_counts(struct tn_view *view);

/* Free what the view holds. */
void tn_view_fini(struct tn_view *view);

#endif
