/* index-build.c - the checkpoint index built by reading the trace once,
 * as a job (job.h): worker threads read disjoint time slices in
 * parallel (index-worker.h), then the job stitches their counts.
 *
 * The workers are a fan-out (job.h): the job's own thread reads the
 * first slice and a helper thread, which adopts the job, each other
 * one; the fan-out returns once their threads ended, and only then
 * does the job read their results and stitch them.  While they run,
 * progress comes from the workers' atomics.  A worker that fails makes
 * the others stop (the result is lost anyway); a cancel of the job
 * makes them all stop.
 */
#include <glib.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/index.h"
#include "tracenav/job.h"
#include "index-stitch.h"
#include "index-worker.h"
#include "slice.h"

#define MAX_WORKERS 8
/* Workers when the caller leaves it to us: each maps about 30 MB of
 * trace pages while it reads, so more cores than this would take the
 * peak RSS of a preparse past 100 MB for little gain. */
#define DEFAULT_MAX_WORKERS 3
/* Time bins over the trace: fine enough that a histogram of a range
 * finds its inner edges on bin boundaries, whose ranks the bins give
 * without a read (stats.c); 512 KiB of counts per worker. */
#define BIN_COUNT 65536
/* Below this many bytes of stream files, opening more graphs costs more
 * than it saves. */
#define TINY_TRACE_BYTES (1 << 20)

/* The job's data. */
struct build {
	struct tn_index_plan plan;
	unsigned worker_count;	/* fixed before the job starts */
	struct tn_index_worker *workers;
	struct tn_index *index;	/* the result once done, until taken */
};

/* ---- planning (on the starter's thread) ---- */

/* Slices read in parallel only if a walk can start in the middle of the
 * trace without reading what precedes (the trace has packet indexes);
 * otherwise every worker would read from the start. */
static bool can_slice_at(const struct tn_trace *trace, int64_t ns)
{
	struct tn_slice *slice;
	struct tn_error err;

	/* Not from packet tables: only a single worker collects them. */
	if (tn_slice_create(trace, ns, TN_SLICE_INDEX_FILES_ONLY, &slice,
			&err))
		return false;
	tn_slice_destroy(slice);
	return true;
}

static unsigned choose_worker_count(const struct tn_index_plan *plan,
		unsigned requested)
{
	unsigned count = requested ? requested :
		MIN(g_get_num_processors(), DEFAULT_MAX_WORKERS);
	uint64_t span;

	if (count > MAX_WORKERS)
		count = MAX_WORKERS;
	if (count <= 1 || !plan->has_range)
		return 1;
	span = (uint64_t) plan->end_ns - (uint64_t) plan->begin_ns;
	if (span < count ||
	    tn_trace_get_stream_bytes(plan->trace) < TINY_TRACE_BYTES)
		return 1;
	if (!can_slice_at(plan->trace,
			plan->begin_ns + (int64_t) (span / count)))
		return 1;
	return count;
}

void tn_index_plan_init(struct tn_index_plan *plan,
		const struct tn_trace *trace)
{
	memset(plan, 0, sizeof(*plan));
	plan->trace = trace;
	plan->has_range = tn_trace_get_time_range(trace, &plan->begin_ns,
		&plan->end_ns) && plan->begin_ns <= plan->end_ns;
	if (!plan->has_range) {
		plan->begin_ns = plan->end_ns = 0;
		return;
	}
	plan->bin_count = BIN_COUNT;
	plan->bin_width = ((uint64_t) plan->end_ns -
		(uint64_t) plan->begin_ns) / BIN_COUNT + 1;
}

unsigned tn_index_build_plan_workers(const struct tn_trace *trace,
		unsigned workers)
{
	struct tn_index_plan plan;

	tn_index_plan_init(&plan, trace);
	return choose_worker_count(&plan, workers);
}

static struct build *build_new(const struct tn_trace *trace,
		unsigned requested)
{
	struct build *b = g_new0(struct build, 1);

	tn_index_plan_init(&b->plan, trace);
	b->worker_count = choose_worker_count(&b->plan, requested);
	b->workers = g_new0(struct tn_index_worker, b->worker_count);
	for (unsigned i = 0; i < b->worker_count; i++)
		tn_index_worker_init(&b->workers[i], &b->plan, i,
			b->worker_count);
	return b;
}

static void build_free(void *data)
{
	struct build *b = data;

	for (unsigned i = 0; i < b->worker_count; i++)
		tn_index_worker_fini(&b->workers[i]);
	g_free(b->workers);
	tn_index_destroy(b->index);
	g_free(b);
}

/* ---- progress (any thread) ---- */

/* The part of the time range the workers have covered, 0..1. */
static double covered_fraction(const struct build *b)
{
	const struct tn_index_plan *plan = &b->plan;
	double span, covered = 0;

	if (!plan->has_range)
		return 0;
	span = (double) ((uint64_t) plan->end_ns -
		(uint64_t) plan->begin_ns) + 1;
	for (unsigned i = 0; i < b->worker_count; i++) {
		const struct tn_index_worker *w = &b->workers[i];
		int64_t first = w->open_begin ? plan->begin_ns : w->begin;
		int64_t last = w->open_end ? plan->end_ns : w->end;
		int64_t reached = atomic_load(&w->reached_ns);
		bool finished = atomic_load(&w->finished);

		if (finished || reached > last)
			reached = last;
		if (reached > first)
			covered += (double) ((uint64_t) reached -
				(uint64_t) first);
		if (finished)
			covered += 1;
	}
	return covered >= span ? 1 : covered / span;
}

static uint64_t events_read(const struct build *b)
{
	uint64_t events = 0;

	for (unsigned i = 0; i < b->worker_count; i++)
		events += atomic_load(&b->workers[i].events_read);
	return events;
}

static void build_progress(void *data, struct tn_job_progress *progress)
{
	const struct build *b = data;

	progress->fraction = covered_fraction(b);
	progress->items = events_read(b);
}

/* ---- the run (the job's thread and the workers' threads) ---- */

/* The fan-out's cue (a worker failed, or the job was cancelled), as
 * tn_index_worker_run() asks for it. */
static bool should_stop(const void *fanout)
{
	return tn_fanout_should_stop(fanout);
}

static int run_worker(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct build *b = data;

	return tn_index_worker_run(&b->workers[i], should_stop, fanout, err);
}

static int run_build(struct tn_job *job, void *data, struct tn_error *err)
{
	struct build *b = data;
	struct tn_error cause;
	int status;

	/* Worker 0 on this thread, each other one on a helper. */
	status = tn_fanout_run(b->worker_count, run_worker, b, &cause);
	/* The final counts, for the snapshots taken once it ended. */
	tn_job_set_progress(job, covered_fraction(b), events_read(b));
	if (status) {
		tn_error_set(err, "cannot index %s: %s",
			tn_trace_get_path(b->plan.trace), cause.message);
		return -1;
	}
	if (!tn_job_is_cancelled(job))
		b->index = tn_index_stitch(&b->plan, b->workers,
			b->worker_count);
	return 0;
}

static const struct tn_job_class build_class = {
	.name = "indexing",
	.run = run_build,
	.progress = build_progress,
	.free = build_free,
};

/* ---- the API ---- */

int tn_index_build_start(const struct tn_trace *trace, unsigned workers,
		struct tn_job **out, struct tn_error *err)
{
	struct build *b = build_new(trace, workers);

	if (tn_job_start(&build_class, b, out, err)) {
		build_free(b);
		return -1;
	}
	return 0;
}

unsigned tn_index_build_get_worker_count(struct tn_job *job)
{
	const struct build *b;

	if (tn_job_borrow_class(job) != &build_class)
		return 0;
	/* Fixed before the job started: safe while it runs. */
	b = tn_job_borrow_data(job);
	return b->worker_count;
}

size_t tn_index_build_get_bins(struct tn_job *job, int64_t *begin_ns,
		int64_t *end_ns, uint64_t **bins)
{
	struct build *b;
	uint64_t *sum;

	*bins = NULL;
	if (tn_job_borrow_class(job) != &build_class)
		return 0;
	/* The plan and the workers are fixed before the job started. */
	b = tn_job_borrow_data(job);
	if (b->plan.bin_count == 0)
		return 0;
	sum = g_new0(uint64_t, b->plan.bin_count);
	for (unsigned i = 0; i < b->worker_count; i++)
		tn_index_worker_add_shown_bins(&b->workers[i], sum);
	*begin_ns = b->plan.begin_ns;
	*end_ns = b->plan.end_ns;
	*bins = sum;
	return b->plan.bin_count;
}

struct tn_index *tn_index_build_take(struct tn_job *job)
{
	struct tn_job_progress progress;
	struct tn_index *index;
	struct build *b;

	if (tn_job_borrow_class(job) != &build_class)
		return NULL;
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE)
		return NULL;
	b = tn_job_borrow_data(job);
	index = b->index;
	b->index = NULL;
	return index;
}
