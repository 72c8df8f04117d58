/* bench-state-core.c - the state history's times on one trace, for
 * tools/bench-state.
 *
 *   bench-state-core TRACE CACHE_DIR [SAMPLES]
 *
 * Uses the index and snapshots of CACHE_DIR (the state pass of
 * `tracenav --batch index` saved them), building them first when they
 * are not there (the build then prints its time and the peak RSS).
 * Then, at SAMPLES (default 51) random events in random order, one
 * querier (as the state pane keeps one) answers the full state, then
 * the state of the CPUs alone (the glob "CPUs" and everything under
 * it), then a fresh querier each time the same: medians and p90 of the
 * whole query and of its
 * parts (restoring the snapshot, opening the reader at it, replaying
 * the events after it, making the result) and its CPU time; the
 * query 40 events after each (a page down: the querier goes on); the
 * full state from a fresh querier with the reader opened on one thread
 * and split over the processors, in turn; and beside them a replay
 * from the trace's start to the same events (one sequential replay
 * timed at each of them: what a query without snapshots costs).
 *
 * Prints "name value" lines; times in ms. */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "tracenav/cache.h"
#include "tracenav/index.h"
#include "tracenav/state-history.h"

#define BENCH_PROGRAM "bench-state"
#include "bench-util.h"

static long peak_rss_kb(void)
{
	struct rusage usage;

	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_maxrss;
}

/* Build the index and the snapshots, and save them. */
static void build(const struct tn_trace *trace, const char *dir,
		struct tn_index **index, struct tn_state_snapshots **snapshots)
{
	struct tn_job_progress progress;
	struct tn_error err;
	struct tn_job *job;
	double t0 = bench_now_ms();

	bench_check(tn_index_build_start(trace, 0, &job, &err), &err);
	tn_job_wait(job);
	*index = tn_index_build_take(job);
	tn_job_destroy(job);
	if (!*index) {
		fprintf(stderr, "bench-state: the index could not be built\n");
		exit(1);
	}
	tn_trace_set_packet_tables(trace,
		tn_index_borrow_packet_tables(*index));
	printf("index_build_ms %.0f\n", bench_now_ms() - t0);
	t0 = bench_now_ms();
	*snapshots = tn_state_snapshots_create();
	bench_check(tn_state_pass_start(trace, *index, NULL, *snapshots, &job,
		&err), &err);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tn_job_destroy(job);
	if (progress.state != TN_JOB_DONE) {
		fprintf(stderr, "bench-state: the state pass: %s\n",
			progress.message);
		exit(1);
	}
	printf("state_pass_ms %.0f\n", bench_now_ms() - t0);
	printf("build_peak_rss_mb %.1f\n", peak_rss_kb() / 1024.0);
	if (tn_cache_save(trace, dir, *index, *snapshots, &err))
		fprintf(stderr, "bench-state: %s\n", err.message);
}

/* The position of event number rank: from the checkpoint before it. */
static struct tn_position position_of(const struct tn_trace *trace,
		const struct tn_index *index, uint64_t rank)
{
	const struct tn_checkpoint *cp = tn_index_checkpoint_for_rank(index,
		rank);
	struct tn_position pos = cp->pos;
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;
	bool fell_back;

	bench_check(tn_walk_open_at_known(trace, &cp->pos, 0, &walk, &fell_back,
		&err), &err);
	for (uint64_t r = cp->rank; r <= rank; r++) {
		if (tn_walk_next(walk, NULL, &row, &err) != 1)
			break;
		pos = row.pos;
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	return pos;
}

struct sample {
	uint64_t rank;
	struct tn_position pos;
	struct tn_position next_page;	/* 40 events later */
};

static int compare_samples(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static void print_times(const char *name, double *values, int count)
{
	double *copy = g_memdup2(values, sizeof(*values) * (size_t) count);

	printf("%s_median_ms %.2f\n", name, bench_median(copy, count));
	printf("%s_p90_ms %.2f\n", name, bench_quantile(copy, count, 0.9));
	g_free(copy);
}

int main(int argc, char **argv)
{
	int samples = argc > 3 ? atoi(argv[3]) : 51;
	struct tn_state_snapshots *snapshots = NULL;
	struct tn_state_querier *querier;
	struct tn_index *index = NULL;
	struct tn_trace *trace;
	struct tn_error err;
	struct sample *picks;
	double *total, *restore, *open, *replay, *result, *cpus, *cold;
	double *cpu, *page, *one, *ratio;
	size_t entries = 0;
	GRand *rand;
	int continued = 0;

	if (argc < 3 || samples < 1) {
		fprintf(stderr, "usage: bench-state-core TRACE CACHE_DIR "
			"[SAMPLES]\n");
		return 2;
	}
	bench_check(tn_trace_open(argv[1], &trace, &err), &err);
	if (tn_cache_load(trace, argv[2], &index, &snapshots, &err) !=
	    TN_CACHE_HIT || !snapshots ||
	    !tn_state_snapshots_is_complete(snapshots)) {
		tn_index_destroy(index);
		tn_state_snapshots_destroy(snapshots);
		build(trace, argv[2], &index, &snapshots);
	} else {
		tn_trace_set_packet_tables(trace,
			tn_index_borrow_packet_tables(index));
	}
	{
		uint64_t bytes = tn_trace_get_stream_bytes(trace);
		size_t count = tn_state_snapshots_get_count(snapshots), full = 0;

		for (size_t i = 0; i < count; i++) {
			struct tn_state_snapshot_info info;

			tn_state_snapshots_get(snapshots, i, &info, NULL);
			full += info.full;
		}
		printf("events %" PRIu64 "\n", index->event_count);
		printf("stream_bytes %" PRIu64 "\n", bytes);
		printf("snapshots %zu\n", count);
		printf("snapshots_full %zu\n", full);
		printf("snapshot_bytes %" PRIu64 "\n",
			tn_state_snapshots_get_bytes(snapshots));
		printf("snapshot_share_percent %.2f\n", 100.0 *
			(double) tn_state_snapshots_get_bytes(snapshots) /
			(double) bytes);
	}

	rand = g_rand_new_with_seed(42);
	picks = g_new(struct sample, samples);
	for (int i = 0; i < samples; i++) {
		picks[i].rank = (uint64_t) g_rand_double_range(rand, 0,
			(double) index->event_count - 40);
		picks[i].pos = position_of(trace, index, picks[i].rank);
		picks[i].next_page = position_of(trace, index,
			picks[i].rank + 40);
	}
	total = g_new(double, samples);
	restore = g_new(double, samples);
	open = g_new(double, samples);
	replay = g_new(double, samples);
	result = g_new(double, samples);
	cpus = g_new(double, samples);
	cold = g_new(double, samples);
	cpu = g_new(double, samples);
	page = g_new(double, samples);
	one = g_new(double, samples);
	ratio = g_new(double, samples);

	bench_check(tn_state_querier_create(trace, snapshots, &querier, &err),
		&err);
	for (int i = 0; i < samples; i++) {
		struct tn_state_query_options options = { 0, NULL, NULL };
		struct tn_state_query_stats stats;
		struct tn_state_result *out;
		double t0 = bench_now_ms(), c0 = bench_cpu_ms();

		bench_check(tn_state_querier_query(querier, &picks[i].pos,
			&options, &out, &err), &err);
		total[i] = bench_now_ms() - t0;
		cpu[i] = bench_cpu_ms() - c0;
		tn_state_querier_get_stats(querier, &stats);
		restore[i] = stats.restore_seconds * 1e3;
		open[i] = stats.open_seconds * 1e3;
		replay[i] = stats.replay_seconds * 1e3;
		result[i] = stats.result_seconds * 1e3;
		continued += stats.continued;
		entries += out->count;
		tn_state_result_destroy(out);
		t0 = bench_now_ms();
		bench_check(tn_state_querier_query(querier, &picks[i].next_page,
			&options, &out, &err), &err);
		page[i] = bench_now_ms() - t0;
		tn_state_result_destroy(out);
	}
	print_times("query", total, samples);
	print_times("query_cpu", cpu, samples);
	print_times("query_next_page", page, samples);
	print_times("query_restore", restore, samples);
	print_times("query_open", open, samples);
	print_times("query_replay", replay, samples);
	print_times("query_result", result, samples);
	printf("query_went_on %d\n", continued);
	printf("query_mean_attributes %zu\n", entries / (size_t) samples);

	/* The same events, the state of the CPUs only (a small result),
	 * with the same querier: the query without the cost of a result of
	 * every attribute. */
	tn_state_querier_reset(querier);
	for (int i = 0; i < samples; i++) {
		struct tn_state_query_options options = { 0, "CPUs/**",
			NULL };
		struct tn_state_result *out;
		double t0 = bench_now_ms(), c0 = bench_cpu_ms();

		bench_check(tn_state_querier_query(querier, &picks[i].pos,
			&options, &out, &err), &err);
		cpus[i] = bench_now_ms() - t0;
		cpu[i] = bench_cpu_ms() - c0;
		tn_state_result_destroy(out);
	}
	print_times("query_cpus", cpus, samples);
	print_times("query_cpus_cpu", cpu, samples);

	/* And from a fresh querier each time (no state to reuse). */
	for (int i = 0; i < samples; i++) {
		struct tn_state_query_options options = { 0, "CPUs/**",
			NULL };
		struct tn_state_result *out;
		double t0;

		tn_state_querier_reset(querier);
		t0 = bench_now_ms();
		bench_check(tn_state_querier_query(querier, &picks[i].pos,
			&options, &out, &err), &err);
		cpus[i] = bench_now_ms() - t0;
		tn_state_result_destroy(out);
	}
	print_times("query_cpus_cold", cpus, samples);

	/* The reader opened on one thread beside split over the
	 * processors (the default), from a fresh querier each time, in
	 * turn (which goes first alternates): the pairs share the
	 * machine's moods. */
	for (int i = 0; i < samples; i++) {
		for (int k = 0; k < 2; k++) {
			bool alone = (k ^ (i & 1)) != 0;
			struct tn_state_query_options options = { 0, NULL,
				NULL };
			struct tn_state_result *out;
			double t0;

			tn_state_querier_set_open_threads(querier,
				alone ? 1 : 0);
			tn_state_querier_reset(querier);
			t0 = bench_now_ms();
			bench_check(tn_state_querier_query(querier,
				&picks[i].pos, &options, &out, &err), &err);
			(alone ? one : cold)[i] = bench_now_ms() - t0;
			tn_state_result_destroy(out);
		}
		ratio[i] = cold[i] / one[i];
	}
	printf("open_threads %d\n", (int) CLAMP(g_get_num_processors(), 1,
		4));
	print_times("query_fresh_split", cold, samples);
	print_times("query_fresh_one_thread", one, samples);
	printf("query_fresh_ratio_median %.2f\n", bench_median(ratio,
		samples));
	tn_state_querier_set_open_threads(querier, 0);
	tn_state_querier_destroy(querier);

	/* A replay from the start to each event: one sequential replay,
	 * timed (without the results) up to each of them in order. */
	qsort(picks, (size_t) samples, sizeof(*picks), compare_samples);
	bench_check(tn_state_querier_create(trace, NULL, &querier, &err), &err);
	{
		double elapsed = 0;

		for (int i = 0; i < samples; i++) {
			struct tn_state_query_options options = { 0, "CPUs",
				NULL };
			struct tn_state_query_stats stats;
			struct tn_state_result *out;

			bench_check(tn_state_querier_query(querier,
				&picks[i].pos, &options, &out, &err), &err);
			tn_state_querier_get_stats(querier, &stats);
			elapsed += (stats.seek_seconds + stats.replay_seconds) *
				1e3;
			cold[i] = elapsed;
			tn_state_result_destroy(out);
		}
	}
	print_times("replay_from_start", cold, samples);
	printf("peak_rss_mb %.1f\n", peak_rss_kb() / 1024.0);
	tn_state_querier_destroy(querier);

	g_free(one);
	g_free(ratio);
	g_free(total);
	g_free(restore);
	g_free(open);
	g_free(replay);
	g_free(result);
	g_free(cpus);
	g_free(cold);
	g_free(cpu);
	g_free(page);
	g_free(picks);
	g_rand_free(rand);
	tn_state_snapshots_destroy(snapshots);
	tn_trace_set_packet_tables(trace, NULL);
	tn_index_destroy(index);
	tn_trace_destroy(trace);
	return 0;
}
