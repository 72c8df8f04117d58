/* stats.h - what a time range of the trace holds: its events per name,
 * per CPU, per stream and per trace, the events the tracer lost, and
 * their number in bins of time.
 *
 * A range is [begin_ns, end_ns], both ends inclusive: the events whose
 * timestamp t has begin_ns <= t <= end_ns.  The counts come from the
 * checkpoint index: whole checkpoint intervals are summed from its
 * counts, and only the events between a checkpoint and an edge of the
 * range (or of a bin) are read, at most TN_INDEX_INTERVAL for each edge,
 * so what is read does not grow with the range's length: each edge
 * costs a seek (tn_walk_open_at_known()) and a short read.  The inner
 * edges of a histogram's wide bins sit on the index's time bin
 * boundaries instead, which cost nothing.
 */
#ifndef TRACENAV_STATS_H
#define TRACENAV_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/trace.h"

/* A key (an event name, a CPU, a stream) and its events. */
struct tn_stats_entry {
	char *key;
	uint64_t count;
};

/* The events of a range. */
struct tn_stats_counts {
	uint64_t event_count;		/* in the range */
	uint64_t first_rank;		/* of its first event (if any) */
	/* Per event name, sorted by count, descending, then by name
	 * (strcmp); names without an event in the range are left out, as
	 * are the keys without one below. */
	size_t name_count;
	struct tn_stats_entry *names;
	/* Per CPU (the cpu_id of the packet context; "-" for events
	 * without one), sorted as numbers ("2" before "10"), "-" last. */
	size_t cpu_count;
	struct tn_stats_entry *cpus;
	/* Per stream, "TRACE/STREAM_CLASS_ID/STREAM_ID" (TRACE: the host
	 * name, else the trace's name), sorted by key. */
	size_t stream_count;
	struct tn_stats_entry *streams;
	/* Per trace (TRACE as above), sorted by key. */
	size_t trace_count;
	struct tn_stats_entry *traces;
	/* The events the tracer discarded, as the notices that come
	 * between the range's first and last events report them (and
	 * those before its first event when it is the trace's first). */
	uint64_t lost;
};

/* Count the events of [begin_ns, end_ns] with the trace's index.
 * Returns 0 with *out (free with tn_stats_counts_destroy()), or -1 with
 * err (a read failed, a cancel of the job that runs it: "cancelled",
 * or an event the index does not know: the trace changed). */
int tn_stats_count(const struct tn_trace *trace, const struct tn_index *index,
		int64_t begin_ns, int64_t end_ns, struct tn_stats_counts **out,
		struct tn_error *err);

void tn_stats_counts_destroy(struct tn_stats_counts *counts);

/* A copy of counts (tn_stats_counts_destroy() it). */
struct tn_stats_counts *tn_stats_counts_copy(
		const struct tn_stats_counts *counts);

/* The number of events whose timestamp is < ns, for each of the count
 * times of ns_list (which must be sorted, ascending), into ranks: the
 * rank of the first event at or after each time.  A time up to 16
 * intervals after the one before it is read on to; a farther one is
 * sought (each stream's packet decoded from its start); when the two
 * halves of the list are that far apart, a second thread answers the
 * second half.  Returns 0, or -1 with err. */
int tn_stats_ranks_at(const struct tn_trace *trace,
		const struct tn_index *index, const int64_t *ns_list,
		size_t count, uint64_t *ranks, struct tn_error *err);

/* The time of event number rank (0-based), read from the checkpoint
 * before it.  Returns 0, or -1 with err (past the last event). */
int tn_stats_time_of_rank(const struct tn_trace *trace,
		const struct tn_index *index, uint64_t rank, int64_t *ns,
		struct tn_error *err);

/* The events of [begin_ns, end_ns] in bin_count (> 0) bins of equal
 * width, ceil((end_ns - begin_ns + 1) / bin_count), the ns of the range
 * over the bins rounded up: bin i starts at begin_ns + i * width (the
 * last bin ends at end_ns, so it may be narrower), into counts[i] and
 * starts[i], for i < *used (fewer than bin_count when the range has
 * fewer ns than bins).  Exact counts: each edge is sought
 * (tn_stats_ranks_at()), except where a bin is 16 or more of the
 * index's time bins wide: then its inner edges (not begin_ns, not the
 * end) are moved back to the index bin boundary at or before them (at
 * most 1/16 of a bin), whose rank the index knows, and starts[] says
 * where each bin starts.  known (may be NULL): the range's first rank
 * and its event count, known from tn_stats_count() of the same range,
 * which saves the seeks to its ends.  Returns 0, or -1 with
 * err. */
int tn_stats_histogram(const struct tn_trace *trace,
		const struct tn_index *index, int64_t begin_ns, int64_t end_ns,
		const struct tn_stats_counts *known, size_t bin_count,
		uint64_t *counts, int64_t *starts, size_t *used,
		struct tn_error *err);

#endif
