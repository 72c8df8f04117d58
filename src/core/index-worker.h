/* index-worker.h - one worker of the index build: reads one time slice
 * of the trace and counts what it holds (internal: not part of the
 * public API).
 *
 * The trace's time range is cut into contiguous slices [t_i, t_{i+1} - 1].
 * Every event with timestamp t_i falls in slice i, so a read of a slice
 * numbers ties exactly as a full read does, and the rank of an event is
 * the number of events of the earlier slices plus its rank in its slice.
 * A worker keeps only counts, bins and a checkpoint every
 * TN_INDEX_INTERVAL events (ranks local to its slice); index-build.c
 * stitches the workers' results.
 */
#ifndef TRACENAV_CORE_INDEX_WORKER_H
#define TRACENAV_CORE_INDEX_WORKER_H

#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/packets.h"
#include "tracenav/trace.h"
#include "index-tally.h"

struct tn_index_take;

/* What every worker of one build reads: set before they start, never
 * changed after. */
struct tn_index_plan {
	const struct tn_trace *trace;
	bool has_range;		/* the trace's time range, if it has one */
	int64_t begin_ns, end_ns;
	size_t bin_count;	/* 0 without a time range */
	uint64_t bin_width;
};

/* The plan of a build of trace: its time range and time bins. */
void tn_index_plan_init(struct tn_index_plan *plan,
		const struct tn_trace *trace);

struct tn_index_worker {
	const struct tn_index_plan *plan;
	/* The slice: [begin, end]; open ends read from the trace's start
	 * or to its end. */
	int64_t begin, end;
	bool open_begin, open_end;
	/* Progress, written by the worker, read by any thread. */
	_Atomic uint64_t events_read;
	_Atomic int64_t reached_ns;
	atomic_bool finished;
	/* Results, touched by the worker's thread only until it finished
	 * (the build joins the thread before it reads them). */
	uint64_t count;
	uint64_t discarded;
	int64_t first_ns, last_ns;	/* of its events, when count > 0 */
	GArray *checkpoints;	/* struct tn_checkpoint, local ranks */
	/* Per checkpoint interval: the event names (keys: char *) and the
	 * sources (keys: struct tn_index_source *, trace owned) of its
	 * events, with their counts, and the events the tracer discarded
	 * just before its events (uint64_t).  lost_pending: discarded
	 * since the last event (after the slice's last one at its end: the
	 * next slice's first event's, index-build.c hands it on). */
	struct tn_index_tallies names;
	struct tn_index_tallies sources;
	GArray *interval_lost;
	uint64_t lost_pending;
	uint64_t *bins;		/* plan->bin_count */
	uint64_t *lost_bins;	/* plan->bin_count: discarded events */
	/* A copy of bins made now and then, for a histogram drawn while
	 * the build runs: any thread may read it under shown_lock. */
	pthread_mutex_t shown_lock;
	uint64_t *shown_bins;
	/* The packets of the stream files without a packet index, when the
	 * worker reads the whole trace (one worker) to its end. */
	struct tn_packet_tables *packets;
	/* Its counters while it takes items (index-worker.c's). */
	struct tn_index_take *take;
};

/* Set worker i of count up for plan (which must outlive it): slice i
 * starts at begin_ns + i * (span / count). */
void tn_index_worker_init(struct tn_index_worker *w,
		const struct tn_index_plan *plan, unsigned i, unsigned count);

/* Add the worker's bins as it last published them (every few thousand
 * events, and at its end) to bins (plan->bin_count); any thread. */
void tn_index_worker_add_shown_bins(struct tn_index_worker *w,
		uint64_t *bins);

/* Read the worker's slice, calling stop(stop_data) every few hundred
 * events and stopping early when it returns true; sets finished at the
 * end.  On the worker's own thread (it opens its own readers).  Returns
 * 0 (read to the slice's end, or stopped), or -1 with err. */
int tn_index_worker_run(struct tn_index_worker *w,
		bool (*stop)(const void *stop_data), const void *stop_data,
		struct tn_error *err);

/* The same, with the items read elsewhere (the preparse's feed): begin,
 * take every item of the slice in the order of a full read (false once
 * past the slice), end with the packet tables gathered meanwhile (the
 * worker takes them; NULL: none).  One thread at a time. */
void tn_index_worker_begin(struct tn_index_worker *w);
bool tn_index_worker_take(struct tn_index_worker *w,
		const struct tn_event *ev);
void tn_index_worker_end(struct tn_index_worker *w,
		struct tn_packet_tables *packets);

/* Free the worker's results.  Not while it runs. */
void tn_index_worker_fini(struct tn_index_worker *w);

#endif
