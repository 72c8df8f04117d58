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

/* The packets of one stream file, in file order. */
struct tn_packet_table {
	char *file;		/* the stream file's real path */
	uint64_t count;		/* at least 1 */
	int64_t *begin_ns, *end_ns;	/* count of each */
	/* Memo of the slices (not saved): 0 before the packet magics were
	 * checked, 1 when every boundary had one, -1 when not, for the file
	 * as it was at magics_mtime_ns.  A check reads one word per packet,
	 * so it is done once per version of the file, not per seek. */
	int magics_checked;
	int64_t magics_mtime_ns;
};

/* What one full read of the trace found.  Immutable once built. */
struct tn_index {
	uint64_t event_count;
	uint64_t discarded_events;	/* sum of the tracer's lost counts */
	/* Sorted by rank; the first is rank 0; consecutive ranks differ by
	 * at most TN_INDEX_INTERVAL. */
	size_t checkpoint_count;
	struct tn_checkpoint *checkpoints;
	/* Events per event name, sorted by name. */
	size_t class_count;
	struct tn_class_count *classes;
	/* Events per time bin: bin i covers [begin_ns + i * width, +width)
	 * with width = (end_ns - begin_ns) / bin_count + 1. */
	int64_t begin_ns, end_ns;
	size_t bin_count;
	uint64_t *bins;
	/* The packets of each stream file without a packet index
	 * (index/<file>.idx), from a full read, so that a slice can
	 * synthesise one when the packets are fixed-size. */
	size_t packet_table_count;
	struct tn_packet_table *packet_tables;
};

void tn_index_destroy(struct tn_index *index);

/* The checkpoint with the largest rank <= rank (NULL if the index is
 * empty). */
const struct tn_checkpoint *tn_index_checkpoint_for_rank(
		const struct tn_index *index, uint64_t rank);

/* The checkpoint with the largest position <= pos, or NULL if pos is
 * before the first event. */
const struct tn_checkpoint *tn_index_checkpoint_for_position(
		const struct tn_index *index, const struct tn_position *pos);

/* A background build of the index: worker threads, each with its own
 * readers, read disjoint time slices of the trace in parallel; their
 * counts are stitched when all are done. */
struct tn_indexer;

struct tn_index_progress {
	bool done;		/* finished (result ready) */
	bool failed;		/* stopped on an error; message says why */
	bool cancelled;
	uint64_t events;	/* read so far, all workers */
	double fraction;	/* of the time range covered, 0..1 */
	double events_per_second;
	double eta_seconds;	/* < 0 when unknown */
	char message[TN_ERROR_MAX];
};

/* Start building the index of trace (which must outlive the indexer) with
 * `workers` threads (0: one per core, at most 3; at most 8 in all).  Returns 0 or -1. */
int tn_indexer_start(const struct tn_trace *trace, unsigned workers,
		struct tn_indexer **out, struct tn_error *err);

/* The number of worker threads (slices) the build uses: fewer than
 * asked for a tiny trace, one without a time range or one that cannot be
 * read from the middle (no packet index). */
unsigned tn_indexer_get_worker_count(const struct tn_indexer *indexer);

/* A snapshot of the progress; cheap, callable from any thread. */
void tn_indexer_get_progress(struct tn_indexer *indexer,
		struct tn_index_progress *progress);

/* Block until the build ends (done, failed or cancelled). */
void tn_indexer_wait(struct tn_indexer *indexer);

/* Ask the workers to stop soon; the build ends as cancelled. */
void tn_indexer_cancel(struct tn_indexer *indexer);

/* The index once done (ownership passes to the caller; NULL before, or
 * if it failed or was cancelled). */
struct tn_index *tn_indexer_take_index(struct tn_indexer *indexer);

/* Cancel if running, wait for the workers and free everything. */
void tn_indexer_destroy(struct tn_indexer *indexer);

#endif
