/* filter-count.c - how many events pass a filter set in each checkpoint
 * interval: from the index's names per interval (a filter on names
 * alone), or by the count pass, a job whose threads read runs of
 * intervals in parallel, each with its own walk and matcher (see
 * filter.h): a fan-out (job.h), the first run on the job's thread and
 * each other on a helper that adopts the job. */
#include <glib.h>
#include <stdatomic.h>
#include <stdio.h>

#include "tracenav/filter.h"
#include "tracenav/format.h"
#include "tracenav/job.h"

#define MAX_WORKERS 8
/* As many as the index build uses by default. */
#define DEFAULT_MAX_WORKERS 3
/* Fewer intervals than this a worker are not worth a thread (and a
 * seek). */
#define MIN_INTERVALS_PER_WORKER 16
/* Workers publish progress and look for a stop this often (events). */
#define CHECK_EVERY 256

void tn_match_counts_destroy(struct tn_match_counts *counts)
{
	if (!counts)
		return;
	g_free(counts->before);
	g_free(counts);
}

size_t tn_match_counts_interval_of(const struct tn_match_counts *counts,
		uint64_t rank)
{
	size_t low = 0, high = counts->interval_count;

	/* The first interval whose before[] is > rank is at low. */
	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (counts->before[mid] <= rank)
			low = mid + 1;
		else
			high = mid;
	}
	return low ? low - 1 : 0;
}

/* Counts with before[] summed from matches per interval. */
static struct tn_match_counts *counts_from(const uint64_t *matches,
		size_t interval_count)
{
	struct tn_match_counts *counts = g_new0(struct tn_match_counts, 1);

	counts->interval_count = interval_count;
	counts->before = g_new0(uint64_t, interval_count + 1);
	for (size_t i = 0; i < interval_count; i++)
		counts->before[i + 1] = counts->before[i] + matches[i];
	return counts;
}

struct tn_match_counts *tn_match_counts_from_names(
		const struct tn_index *index, struct tn_filter_set *set)
{
	struct tn_filter_matcher *matcher;
	struct tn_match_counts *counts;
	uint64_t *matches;
	bool *passes;

	if (!index->interval_class_start || !tn_filter_set_is_name_only(set))
		return NULL;
	matcher = tn_filter_matcher_new(set);
	passes = g_new0(bool, index->class_count + 1);
	for (size_t c = 0; c < index->class_count; c++)
		passes[c] = tn_filter_matcher_match_name(matcher,
			index->classes[c].name);
	tn_filter_matcher_free(matcher);
	matches = g_new0(uint64_t, index->checkpoint_count + 1);
	for (size_t i = 0; i < index->checkpoint_count; i++)
		for (size_t e = index->interval_class_start[i];
				e < index->interval_class_start[i + 1]; e++)
			if (passes[index->interval_classes[e].key])
				matches[i] += index->interval_classes[e].count;
	counts = counts_from(matches, index->checkpoint_count);
	g_free(matches);
	g_free(passes);
	return counts;
}

/* ---- the count pass ---- */

struct count_worker {
	size_t first, end;	/* its intervals: [first, end) */
	_Atomic uint64_t events_read;
};

struct count_pass {
	const struct tn_trace *trace;
	const struct tn_index *index;
	struct tn_filter_set *set;
	unsigned worker_count;
	struct count_worker *workers;
	/* Per interval; each worker writes its own intervals only, and
	 * the job reads them once the fan-out of the workers ended. */
	uint64_t *matches;
	struct tn_match_counts *result;
};

/* Read worker i's intervals, counting the matches of each; stops early
 * when the fan-out says so (a worker failed, or a cancel). */
static int run_worker(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct count_pass *pass = data;
	struct count_worker *w = &pass->workers[i];
	const struct tn_checkpoint *cps = pass->index->checkpoints;
	size_t count = pass->index->checkpoint_count, k = w->first;
	struct tn_filter_matcher *matcher;
	struct tn_walk *walk;
	struct tn_row row;
	GHashTable *memo;
	uint64_t read = 0;
	bool fell_back;
	int status;

	if (w->first >= w->end)
		return 0;
	if (tn_walk_open_at_known(pass->trace, &cps[w->first].pos, 0, &walk,
			&fell_back, err))
		return -1;
	matcher = tn_filter_matcher_new(pass->set);
	/* The walk's reader outlives the memo. */
	memo = tn_format_host_memo_new();
	tn_filter_matcher_set_host_memo(matcher, memo);
	while ((status = tn_walk_next(walk, NULL, &row, err)) == 1) {
		/* Into the interval the event is in: the next checkpoint
		 * is the first event of the next one. */
		while (k + 1 < count &&
		       tn_position_compare(&row.pos, &cps[k + 1].pos) >= 0)
			k++;
		if (k >= w->end) {
			tn_row_release(&row);
			break;
		}
		if (tn_filter_matcher_match(matcher, &row.ev))
			pass->matches[k]++;
		tn_row_release(&row);
		if (++read % CHECK_EVERY == 0) {
			atomic_store(&w->events_read, read);
			if (tn_fanout_should_stop(fanout))
				break;
		}
	}
	atomic_store(&w->events_read, read);
	tn_filter_matcher_free(matcher);
	g_hash_table_destroy(memo);
	tn_walk_destroy(walk);
	return status < 0 ? -1 : 0;
}

static int run_pass(struct tn_job *job, void *data, struct tn_error *err)
{
	struct count_pass *pass = data;
	struct tn_error cause;

	/* Worker 0 on this thread, each other one on a helper. */
	if (tn_fanout_run(pass->worker_count, run_worker, pass, &cause)) {
		tn_error_set(err, "cannot count the matches: %s",
			cause.message);
		return -1;
	}
	if (!tn_job_is_cancelled(job))
		pass->result = counts_from(pass->matches,
			pass->index->checkpoint_count);
	return 0;
}

static void pass_progress(void *data, struct tn_job_progress *progress)
{
	const struct count_pass *pass = data;
	uint64_t read = 0;

	for (unsigned i = 0; i < pass->worker_count; i++)
		read += atomic_load(&pass->workers[i].events_read);
	progress->items = read;
	progress->fraction = pass->index->event_count ?
		MIN(1.0, (double) read / (double) pass->index->event_count) : 1;
}

static void pass_free(void *data)
{
	struct count_pass *pass = data;

	tn_filter_set_unref(pass->set);
	g_free(pass->workers);
	g_free(pass->matches);
	tn_match_counts_destroy(pass->result);
	g_free(pass);
}

static const struct tn_job_class pass_class = {
	.name = "counting",
	.run = run_pass,
	.progress = pass_progress,
	.free = pass_free,
};

/* Threads only where a walk can start in the middle without reading
 * what precedes (packet indexes), and enough intervals for each. */
static unsigned choose_workers(const struct tn_trace *trace,
		const struct tn_index *index, unsigned requested)
{
	unsigned count = requested ? requested :
		MIN(g_get_num_processors(), DEFAULT_MAX_WORKERS);
	size_t intervals = index->checkpoint_count;

	count = MIN(count, MAX_WORKERS);
	if (intervals / MIN_INTERVALS_PER_WORKER < count)
		count = (unsigned) (intervals / MIN_INTERVALS_PER_WORKER);
	if (count <= 1)
		return 1;
	if (tn_seek_get_skipped_until(trace,
			index->checkpoints[intervals / 2].pos.ns) == INT64_MIN)
		return 1;
	return count;
}

int tn_match_counts_start(const struct tn_trace *trace,
		const struct tn_index *index, struct tn_filter_set *set,
		unsigned workers, struct tn_job **out, struct tn_error *err)
{
	struct count_pass *pass = g_new0(struct count_pass, 1);
	size_t intervals = index->checkpoint_count;

	pass->trace = trace;
	pass->index = index;
	pass->set = tn_filter_set_ref(set);
	pass->worker_count = choose_workers(trace, index, workers);
	pass->workers = g_new0(struct count_worker, pass->worker_count);
	pass->matches = g_new0(uint64_t, intervals + 1);
	for (unsigned i = 0; i < pass->worker_count; i++) {
		struct count_worker *w = &pass->workers[i];

		w->first = intervals * i / pass->worker_count;
		w->end = intervals * (i + 1) / pass->worker_count;
		atomic_init(&w->events_read, 0);
	}
	if (tn_job_start(&pass_class, pass, out, err)) {
		pass_free(pass);
		return -1;
	}
	return 0;
}

struct tn_match_counts *tn_match_counts_take(struct tn_job *job)
{
	struct tn_job_progress progress;
	struct tn_match_counts *counts;
	struct count_pass *pass;

	if (tn_job_borrow_class(job) != &pass_class)
		return NULL;
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE)
		return NULL;
	pass = tn_job_borrow_data(job);
	counts = pass->result;
	pass->result = NULL;
	return counts;
}

int64_t tn_filter_count_all(const struct tn_trace *trace,
		struct tn_filter_matcher *matcher, struct tn_error *err)
{
	int64_t begin = 0, end = 0, count = 0;
	bool has_range = tn_trace_get_time_range(trace, &begin, &end) &&
		end > begin;
	struct tn_walk *walk;
	struct tn_row row;
	uint64_t read = 0;
	int status;

	GHashTable *memo;

	if (tn_walk_open(trace, INT64_MIN, &walk, err))
		return -1;
	/* The walk's reader outlives the memo. */
	memo = tn_format_host_memo_new();
	tn_filter_matcher_set_host_memo(matcher, memo);
	while ((status = tn_walk_next(walk, NULL, &row, err)) == 1) {
		count += tn_filter_matcher_match(matcher, &row.ev);
		/* How far, on the job that runs this (if any). */
		if (++read % (CHECK_EVERY * 16) == 0)
			tn_job_current_set_progress("counting", has_range ?
				CLAMP((double) (row.pos.ns - begin) /
					(double) (end - begin), 0.0, 1.0) : -1,
				read);
		tn_row_release(&row);
	}
	tn_filter_matcher_set_host_memo(matcher, NULL);
	g_hash_table_destroy(memo);
	tn_walk_destroy(walk);
	return status < 0 ? -1 : count;
}
