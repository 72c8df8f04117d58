/* index.h - the checkpoint index of a trace, built by reading it once in
 * the background ("preparse").
 *
 * With it, the event list knows how many events the trace has and the
 * rank of any event, and reaches event #k by seeking to the checkpoint
 * at or before it and reading at most one interval of events.
 */
#ifndef TRACENAV_INDEX_H
#define TRACENAV_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/job.h"
#include "tracenav/packets.h"
#include "tracenav/seek.h"
#include "tracenav/trace.h"

/* Events between two checkpoints (at most). */
#define TN_INDEX_INTERVAL 4096

/* Event number `rank` (0-based, in reader order) is at `pos`. */
struct tn_checkpoint {
	uint64_t rank;
	struct tn_position pos;
};

struct tn_class_count {
	char *name;
	uint64_t count;
};

/* The events of one key (an event name: its index in tn_index.classes;
 * a source: its index in tn_index.sources) in one checkpoint
 * interval. */
struct tn_interval_count {
	uint32_t key;
	uint32_t count;		/* > 0 */
};

/* Where events come from: one stream of one trace, on one CPU. */
struct tn_index_source {
	/* The trace's "hostname" environment entry, else libbabeltrace2's
	 * name of the trace, else (both missing or empty) "-". */
	char *trace;
	uint64_t stream_class_id, stream_id;
	int64_t cpu;		/* the packets' cpu_id; -1: they have none */
	uint64_t count;		/* its events in the trace */
};

/* What one full read of the trace found.  Immutable once built, so
 * any thread may read it (the memo inside its packet tables guards
 * itself). */
struct tn_index {
	uint64_t event_count;
	uint64_t discarded_events;	/* sum of the tracer's lost counts */
	/* The times of the first and last events (when event_count > 0;
	 * 0 for events without a timestamp): the span of NN%. */
	int64_t first_event_ns, last_event_ns;
	/* Sorted by rank; the first is rank 0; consecutive ranks differ by
	 * at most TN_INDEX_INTERVAL. */
	size_t checkpoint_count;
	struct tn_checkpoint *checkpoints;
	/* Events per event name, sorted by name. */
	size_t class_count;
	struct tn_class_count *classes;
	/* The event names of each checkpoint interval (from checkpoint i up
	 * to checkpoint i + 1, the last one to the end of the trace), with
	 * their counts: interval i has the entries from
	 * interval_class_start[i] up to interval_class_start[i + 1] of
	 * interval_classes, by increasing key (the class).
	 * checkpoint_count + 1 starts (NULL when checkpoint_count is 0).  A
	 * filter on names alone knows from them how many events of an
	 * interval pass. */
	size_t *interval_class_start;
	struct tn_interval_count *interval_classes;
	/* The sources of the events, sorted by tn_index_source_compare(),
	 * and those of each checkpoint interval with their counts, as for
	 * the names (key: the index in sources): per CPU, stream and trace
	 * counts of a range come from them. */
	size_t source_count;
	struct tn_index_source *sources;
	size_t *interval_source_start;
	struct tn_interval_count *interval_sources;
	/* The events the tracer discarded just before an event of each
	 * checkpoint interval: the sum of its events' lost_before (seek.h;
	 * checkpoint_count entries, NULL when there are none).  Notices
	 * after the trace's last event are in no interval. */
	uint64_t *interval_lost;
	/* Events per time bin: bin i covers [begin_ns + i * width, +width)
	 * with width = (end_ns - begin_ns) / bin_count + 1, over the
	 * packets' time range (no bins without one). */
	int64_t begin_ns, end_ns;
	size_t bin_count;
	uint64_t *bins;
	/* The events the tracer discarded, per bin of the time its notice
	 * gives (bin_count entries; notices without a time are left out). */
	uint64_t *lost_bins;
	/* The packets of each stream file without a packet index
	 * (index/<file>.idx), from a full read, so that a slice can
	 * synthesise one when the packets are fixed-size (packets.h).
	 * Owned; never NULL in an index built or loaded (maybe empty).
	 * Read it through tn_index_borrow_packet_tables(). */
	struct tn_packet_tables *packet_tables;
};

/* The order of the sources: by trace, stream class id, stream id, then
 * CPU. */
int tn_index_source_compare(const struct tn_index_source *a,
		const struct tn_index_source *b);

/* The index in index->sources of the source equal to key, or -1. */
long tn_index_find_source(const struct tn_index *index,
		const struct tn_index_source *key);

/* Free index and all it owns (its packet tables too: take them back
 * from the trace first).  NULL-safe. */
void tn_index_destroy(struct tn_index *index);

/* The index's packet tables, for tn_trace_set_packet_tables(); valid as
 * long as the index.  NULL when index is NULL or has none. */
const struct tn_packet_tables *tn_index_borrow_packet_tables(
		const struct tn_index *index);

/* The checkpoint with the largest rank <= rank (NULL if the index is
 * empty). */
const struct tn_checkpoint *tn_index_checkpoint_for_rank(
		const struct tn_index *index, uint64_t rank);

/* The checkpoint with the largest position <= pos, or NULL if pos is
 * before the first event. */
const struct tn_checkpoint *tn_index_checkpoint_for_position(
		const struct tn_index *index, const struct tn_position *pos);

/* Building the index: a job (job.h, class name "indexing").  Worker
 * threads, each with its own readers, read disjoint time slices of the
 * trace in parallel; the job stitches their counts when all are done.
 * Its progress: fraction = share of the time range covered, items =
 * events read.  It fails with "cannot index PATH: WHY".  Cancel it with
 * tn_job_cancel() or tn_job_destroy(). */

/* Start building the index of trace (which must outlive the job) with
 * `workers` threads (0: one per core, at most 3; at most 8 in all).
 * Returns 0 and sets *out (destroy it with tn_job_destroy()), or -1
 * with err when no thread can be started. */
int tn_index_build_start(const struct tn_trace *trace, unsigned workers,
		struct tn_job **out, struct tn_error *err);

/* How many worker threads tn_index_build_start(trace, workers) would
 * read trace with: see tn_index_build_get_worker_count().  A trace
 * whose streams hold a packet or two each cannot be cut either: every
 * slice would read every stream's first packet (a preparse reads such a
 * collection faster, preparse.h). */
unsigned tn_index_build_plan_workers(const struct tn_trace *trace,
		unsigned workers);

/* The number of worker threads (slices) the build uses: fewer than
 * asked for a tiny trace, one without a time range or one that cannot be
 * read from the middle (no packet index).  Known from the start; 0 for
 * a job that is not an index build. */
unsigned tn_index_build_get_worker_count(struct tn_job *job);

/* The events per time bin that the build has counted so far (its
 * workers publish them every few tens of thousands of events), for a
 * histogram drawn while it runs: the bins of the index to be (see
 * tn_index), into *bins (g_free() it).  Returns their number, 0 (and
 * *bins NULL) for a trace without a time range or a job that is not an
 * index build.  Any thread, while the job runs or after. */
size_t tn_index_build_get_bins(struct tn_job *job, int64_t *begin_ns,
		int64_t *end_ns, uint64_t **bins);

/* The index, once the job is DONE: ownership passes to the caller, and
 * later calls return NULL.  NULL while it runs, after a failure or a
 * cancel, and for a job that is not an index build.  The starter's
 * thread only. */
struct tn_index *tn_index_build_take(struct tn_job *job);

#endif
