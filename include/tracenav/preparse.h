/* preparse.h - the preparse: one read of the whole trace, in order,
 * that feeds every whole-trace consumer.
 *
 * Decoding is the cost that everything pays (a few seconds per 10 M
 * events and core), so no whole-trace feature opens a read of its own.
 * The preparse reads the trace once (its decoding spread over helper
 * threads, merged in the order of a full read: src/core/feed.h) and
 * hands each event, on its own thread, to the consumers it was asked
 * for:
 *   - the checkpoint index (event numbers, counts, bins: index.h),
 *   - the state snapshots (state-history.h) and whoever observes the
 *     state pass (the analyses of the whole trace: analysis.h),
 *   - the index of the sequence diagram's pages (seq-pages.h),
 *   - the matching of network packets between hosts (sync.h),
 * with the state providers run once for all those that need the state
 * (the snapshots, the kernel's wake-ups of the diagram).  Each event
 * goes to the index, then to the snapshots' pass and its observer and
 * to the diagram's loaders (the state before the event), then to the
 * providers.
 *
 * An index alone is better built by tn_index_build_start(), whose
 * workers read time slices on every core at once (nothing there needs
 * the trace's order), unless the trace cannot be cut in slices
 * (tn_index_build_plan_workers() says 1) while the preparse splits its
 * decoding (tn_preparse_plan_parts() says more): a collection of many
 * small streams.
 */
#ifndef TRACENAV_PREPARSE_H
#define TRACENAV_PREPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/seq-pages.h"
#include "tracenav/seq-rules.h"
#include "tracenav/state-history.h"
#include "tracenav/sync.h"
#include "tracenav/trace.h"

/* What one preparse makes.  Everything it points to outlives the job. */
struct tn_preparse_request {
	/* Build the checkpoint index (tn_preparse_take_index()). */
	bool index;
	/* An index already there, or NULL: the snapshots' budget then
	 * knows the events to come. */
	const struct tn_index *known_index;
	/* Fill these snapshots (empty, as created; NULL: no state pass),
	 * within budget (NULL: the default), with observer (NULL: none;
	 * the preparse takes it, even when it fails to start). */
	struct tn_state_snapshots *snapshots;
	const struct tn_state_budget *budget;
	struct tn_state_pass_observer *observer;
	/* Fill these pages (empty, as created; NULL: no page pass), with
	 * the user's rules (NULL: none). */
	struct tn_seq_pages *pages;
	const struct tn_seq_rules *seq_rules;
	/* Give every event to this matcher (NULL: none; the caller's,
	 * read with tn_sync_matcher_finish() once the job ended). */
	struct tn_sync_matcher *matcher;
	/* Decoding threads: 0 for one more than the processors
	 * (feed.h). */
	unsigned parts;
};

/* Start the preparse of trace as a job (class name "preparsing").
 * Progress: the share of the events (or of the time range, before the
 * event count is known) read, and the events read.  Returns 0 and
 * *out, or -1 with err. */
int tn_preparse_start(const struct tn_trace *trace,
		const struct tn_preparse_request *request, struct tn_job **out,
		struct tn_error *err);

/* How many threads a preparse of trace would decode on (parts as in
 * the request; index: whether it builds the index, which may need a
 * read of one part).  Reads the packet index files. */
unsigned tn_preparse_plan_parts(const struct tn_trace *trace, bool index,
		unsigned parts);

/* What the preparse of job makes, for progress lines: "index, state,
 * diagram" (those asked for that apply to the trace).  NULL for a job
 * of another class. */
const char *tn_preparse_get_what(struct tn_job *job);

/* Once the job is done: the index it built (the caller's), or NULL
 * (not asked for, not done, or a job of another class). */
struct tn_index *tn_preparse_take_index(struct tn_job *job);

/* While it runs: the events per time bin counted so far, as
 * tn_index_build_get_bins() gives them; 0 when it builds no index. */
size_t tn_preparse_get_bins(struct tn_job *job, int64_t *begin_ns,
		int64_t *end_ns, uint64_t **bins);

/* How many threads decode for it (once it started reading; 0 before,
 * or for a job of another class). */
unsigned tn_preparse_get_part_count(struct tn_job *job);

/* Once the job ended, what its threads cost: the CPU seconds of the
 * decoding threads and of the thread that ran the consumers (both 0
 * for a job of another class).  For benchmarks: the consumers' thread
 * is the one that bounds the preparse when it is busier. */
void tn_preparse_get_cpu(struct tn_job *job, double *decoding,
		double *consuming);

#endif
