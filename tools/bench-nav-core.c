/* bench-nav-core.c - times of tracenav's core operations on one trace, for
 * tools/bench-nav and tools/bench (which run them beside babeltrace2).
 *
 *   bench-nav-core nav TRACE [SAMPLES] [PAGE]
 *       page down and page up at random places (no preparse), and the
 *       readers that one-line moves inside the ring open (none expected)
 *   bench-nav-core jump TRACE FRACTION [SAMPLES]
 *       a cursor's jump to the time at FRACTION of the range, to the
 *       first event shown
 *   bench-nav-core index TRACE WORKERS
 *       the full preparse (checkpoint index), no cache
 *   bench-nav-core goto TRACE [SAMPLES]
 *       goto #K at random K once indexed (the build is not timed)
 *   bench-nav-core last TRACE [SAMPLES]
 *       a cursor's jump to the last event (G), to the first event
 *       shown: without index, once indexed, and while the index is
 *       being built; and the last event's time (last_ns)
 *   bench-nav-core filter TRACE in|out|expr|rarest TEXT [SAMPLES] [PAGE]
 *           [SEARCH]
 *       a filter on the indexed trace (the build is not timed; rarest:
 *       name == the rarest event name, TEXT ignored): its
 *       match counts (from the index's names, or the count pass, run
 *       SAMPLES times), the
 *       first screen (the filter applied in the middle of the trace,
 *       a page of rows around the cursor and its match number), then
 *       page down and page up at random matches, and paging on (20
 *       pages down, and 20 up, from random matches: median and worst);
 *       with SEARCH, a regex, the whole-trace search for it from the
 *       first event with the index, run after each count pass (both
 *       read and format every event up to the match)
 *
 * Prints "name value" lines; times are medians in ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tracenav/core.h"
#include "tracenav/cursor.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "tracenav/runtime.h"
#include "tracenav/search.h"

#define BENCH_PROGRAM "bench-nav-core"
#include "bench-util.h"

/* Seek to fraction, then time a move by delta and the reading of the
 * page it shows. */
static double time_page(struct tn_cursor *cursor, double fraction,
		int64_t delta, int64_t page)
{
	struct tn_error err;
	double start;

	bench_check(tn_cursor_seek_fraction(cursor, fraction, &err), &err);
	start = bench_now_ms();
	bench_check(tn_cursor_move(cursor, delta, NULL, &err), &err);
	for (int64_t i = 0; i < page; i++)
		tn_cursor_row(cursor, i, &err);
	return bench_now_ms() - start;
}

static void bench_nav(struct tn_cursor *cursor, int samples, int64_t page)
{
	double *down = calloc((size_t) samples, sizeof(double));
	double *up = calloc((size_t) samples, sizeof(double));
	struct tn_error err;
	uint64_t reads;

	for (int i = 0; i < samples; i++) {
		double fraction = 0.02 + 0.96 * rand() / (double) RAND_MAX;

		down[i] = time_page(cursor, fraction, page, page);
		up[i] = time_page(cursor, fraction, -page, page);
	}
	tn_cursor_seek_fraction(cursor, 0.5, &err);
	tn_cursor_move(cursor, 200, NULL, &err);
	tn_cursor_move(cursor, -100, NULL, &err);
	reads = tn_cursor_get_read_count(cursor);
	for (int i = 0; i < 1000; i++)
		tn_cursor_move(cursor, i % 2 ? 1 : -1, NULL, &err);
	printf("page_down_ms %.2f\n", bench_median(down, samples));
	printf("page_up_ms %.2f\n", bench_median(up, samples));
	printf("ring_line_moves_reads %llu\n",
		(unsigned long long) (tn_cursor_get_read_count(cursor) - reads));
	free(down);
	free(up);
}

static void bench_jump(struct tn_cursor *cursor, double fraction, int samples)
{
	double *times = calloc((size_t) samples, sizeof(double));
	struct tn_error err;

	for (int i = 0; i < samples; i++) {
		double start;

		/* Start elsewhere so that every jump really seeks. */
		bench_check(tn_cursor_seek_first(cursor, &err), &err);
		start = bench_now_ms();
		bench_check(tn_cursor_seek_fraction(cursor, fraction, &err),
			&err);
		tn_cursor_row(cursor, 0, &err);
		times[i] = bench_now_ms() - start;
	}
	printf("jump_ms %.2f\n", bench_median(times, samples));
	free(times);
}

static struct tn_index *build_index(struct tn_trace *trace, unsigned workers,
		double *ms)
{
	struct tn_job_progress progress;
	struct tn_index *index;
	struct tn_error err;
	struct tn_job *job;
	double start = bench_now_ms();

	bench_check(tn_index_build_start(trace, workers, &job, &err), &err);
	tn_job_wait(job);
	*ms = bench_now_ms() - start;
	tn_job_get_progress(job, &progress);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	if (!index) {
		fprintf(stderr, "bench-nav-core: indexing failed: %s\n",
			progress.message);
		exit(1);
	}
	return index;
}

static void bench_goto(struct tn_trace *trace, struct tn_cursor *cursor,
		int samples)
{
	double *times = calloc((size_t) samples, sizeof(double)), ms;
	struct tn_index *index = build_index(trace, 0, &ms);
	struct tn_error err;

	tn_cursor_set_index(cursor, index);
	for (int i = 0; i < samples; i++) {
		uint64_t rank = (uint64_t) (rand() / (double) RAND_MAX *
			(double) (index->event_count - 1));
		double start = bench_now_ms();

		bench_check(tn_cursor_seek_rank(cursor, rank, &err), &err);
		tn_cursor_row(cursor, 0, &err);
		times[i] = bench_now_ms() - start;
	}
	printf("goto_rank_ms %.2f\n", bench_median(times, samples));
	tn_cursor_set_index(cursor, NULL);
	tn_index_destroy(index);
	free(times);
}

/* Time seek_last (and the row it shows) `samples` times, starting from
 * the first event each time. */
static double time_last(struct tn_cursor *cursor, int samples)
{
	double *times = calloc((size_t) samples, sizeof(double)), ms;
	struct tn_error err;

	for (int i = 0; i < samples; i++) {
		double start;

		bench_check(tn_cursor_seek_first(cursor, &err), &err);
		start = bench_now_ms();
		bench_check(tn_cursor_seek_last(cursor, &err), &err);
		tn_cursor_row(cursor, 0, &err);
		times[i] = bench_now_ms() - start;
	}
	ms = bench_median(times, samples);
	free(times);
	return ms;
}

static void bench_last(struct tn_trace *trace, struct tn_cursor *cursor,
		int samples)
{
	double *times = calloc((size_t) samples, sizeof(double)), ms;
	struct tn_index *index;
	struct tn_error err;
	const struct tn_row *row;

	printf("last_ms %.2f\n", time_last(cursor, samples));
	row = tn_cursor_row(cursor, 0, &err);
	if (row)
		printf("last_ns %lld\n", (long long) row->pos.ns);
	for (int i = 0; i < samples; i++) {
		struct tn_job *job;
		double start;

		bench_check(tn_index_build_start(trace, 0, &job, &err), &err);
		bench_check(tn_cursor_seek_first(cursor, &err), &err);
		start = bench_now_ms();
		bench_check(tn_cursor_seek_last(cursor, &err), &err);
		tn_cursor_row(cursor, 0, &err);
		times[i] = bench_now_ms() - start;
		tn_job_destroy(job);
	}
	printf("last_while_indexing_ms %.2f\n", bench_median(times, samples));
	index = build_index(trace, 0, &ms);
	tn_cursor_set_index(cursor, index);
	printf("last_indexed_ms %.2f\n", time_last(cursor, samples));
	tn_cursor_set_index(cursor, NULL);
	tn_index_destroy(index);
	free(times);
}

/* Read the rows a page around the current one shows, and the match
 * number the status bar shows. */
static void read_screen(struct tn_cursor *cursor, int64_t page)
{
	struct tn_error err;
	uint64_t rank;

	for (int64_t i = -page / 2; i < page - page / 2; i++)
		tn_cursor_row(cursor, i, &err);
	tn_cursor_get_rank(cursor, &rank, &err);
}

/* One count pass of set over the indexed trace, timed into *ms. */
static struct tn_match_counts *count_pass(struct tn_trace *trace,
		const struct tn_index *index, struct tn_filter_set *set,
		double *ms)
{
	struct tn_match_counts *counts;
	struct tn_error err;
	struct tn_job *job;
	double start = bench_now_ms();

	bench_check(tn_match_counts_start(trace, index, set, 0, &job, &err),
		&err);
	tn_job_wait(job);
	counts = tn_match_counts_take(job);
	tn_job_destroy(job);
	*ms = bench_now_ms() - start;
	if (!counts) {
		fprintf(stderr, "bench-nav-core: the count pass failed\n");
		exit(1);
	}
	return counts;
}

/* A whole-trace search for re from the first event, as the list's
 * search runs it with the index; returns its time in ms. */
static double time_search(struct tn_trace *trace, const struct tn_index *index,
		const struct tn_regex *re)
{
	struct tn_search_request request = { 0 };
	struct tn_search_result result;
	struct tn_error err;
	double start = bench_now_ms();

	request.trace = trace;
	request.regex = re;
	request.index = index;
	request.from = index->checkpoints[0].pos;
	request.inclusive = true;
	request.direction = TN_SEARCH_FORWARD;
	bench_check(tn_search_run(&request, &result, &err), &err);
	return bench_now_ms() - start;
}

/* Paging with pauses, as a person reads: after each page (and after the
 * jump to a random match), the list reads the rows of the next and
 * previous pages while idle (tn_cursor_prefetch(), as the event list
 * does); up to 20 pages down and 20 up (fewer at an end of the filtered
 * list), timed (median, worst and how many), and the reading in the
 * pauses (median and worst: how long a pause must be). */
static void bench_paused(struct tn_cursor *cursor, uint64_t total,
		int64_t page)
{
	int64_t top = page / 2;	/* read_screen() centres the current row */
	double moves[20], pauses[21];
	int64_t moved;
	struct tn_error err;

	for (int dir = 1; dir >= -1; dir -= 2) {
		double worst = 0, worst_pause = 0, start;
		int n = 0;	/* moves of a whole page (not at an end) */

		bench_check(tn_cursor_seek_rank(cursor, (uint64_t) (rand() /
			(double) RAND_MAX * (double) (total - 1)), &err),
			&err);
		read_screen(cursor, page);
		for (int i = 0; i <= 20; i++) {
			start = bench_now_ms();
			if (tn_cursor_prefetch(cursor, top + page,
					2 * page - 1 - top, &err))
				bench_check(-1, &err);
			pauses[i] = bench_now_ms() - start;
			worst_pause = MAX(worst_pause, pauses[i]);
			if (i == 20)
				break;
			start = bench_now_ms();
			bench_check(tn_cursor_move(cursor, dir * page, &moved,
				&err), &err);
			read_screen(cursor, page);
			if (moved != dir * page)
				break;	/* an end of the filtered list */
			moves[n] = bench_now_ms() - start;
			worst = MAX(worst, moves[n]);
			n++;
		}
		printf("filtered_%s_paused_ms %.2f %.2f %d\n", dir > 0 ?
			"page_down" : "page_up", n ? bench_median(moves, n) : 0,
			worst, n);
		printf("filtered_%s_pause_reading_ms %.2f %.2f\n", dir > 0 ?
			"page_down" : "page_up", bench_median(pauses, n + 1),
			worst_pause);
	}
}

static void bench_filter(struct tn_trace *trace, struct tn_cursor *cursor,
		int argc, char **argv)
{
	const char *kind = argc > 3 ? argv[3] : "expr";
	const char *text = argc > 4 ? argv[4] : "name == \"sched_switch\"";
	int samples = argc > 5 ? atoi(argv[5]) : 15;
	int64_t page = argc > 6 ? atoll(argv[6]) : 22;
	const char *search = argc > 7 ? argv[7] : NULL;
	double *down = calloc((size_t) samples, sizeof(double));
	double *up = calloc((size_t) samples, sizeof(double));
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_matcher *matcher;
	struct tn_match_counts *counts;
	struct tn_filter_set *set;
	struct tn_filter filter;
	struct tn_index *index;
	struct tn_error err;
	uint64_t total;
	double start, ms;

	char *rarest = NULL;

	index = build_index(trace, 0, &ms);
	tn_trace_set_packet_tables(trace, tn_index_borrow_packet_tables(index));
	tn_cursor_set_index(cursor, index);
	if (strcmp(kind, "rarest") == 0 && index->class_count > 0) {
		size_t least = 0;

		for (size_t i = 1; i < index->class_count; i++)
			if (index->classes[i].count <
			    index->classes[least].count)
				least = i;
		rarest = g_strdup_printf("name == \"%s\"",
			index->classes[least].name);
		text = rarest;
		printf("filter %s\n", text);
	}
	bench_check(tn_filter_stack_push(stack, strcmp(kind, "in") == 0 ?
		TN_FILTER_IN : strcmp(kind, "out") == 0 ? TN_FILTER_OUT :
		TN_FILTER_EXPR, text, &err), &err);
	set = tn_filter_stack_snapshot(stack, false);
	start = bench_now_ms();
	counts = tn_match_counts_from_names(index, set);
	if (counts) {
		printf("names_counts_ms %.2f\n", bench_now_ms() - start);
	} else {
		int runs = MAX(samples, 1);
		double *passes = calloc((size_t) runs, sizeof(double));
		double *searches = calloc((size_t) runs, sizeof(double));
		struct tn_regex *re = NULL;

		if (search)
			bench_check(tn_regex_compile(search, &re, &err), &err);
		/* In turns, so that both see the same machine. */
		for (int i = 0; i < runs; i++) {
			tn_match_counts_destroy(counts);
			counts = count_pass(trace, index, set, &passes[i]);
			if (re)
				searches[i] = time_search(trace, index, re);
		}
		printf("count_pass_ms %.1f\n", bench_median(passes, runs));
		if (re)
			printf("search_ms %.1f\n",
				bench_median(searches, runs));
		tn_regex_destroy(re);
		free(passes);
		free(searches);
	}
	total = counts->before[counts->interval_count];
	printf("matches %llu\n", (unsigned long long) total);
	matcher = tn_filter_matcher_new(set);
	tn_filter_matcher_bind(matcher, &filter);
	bench_check(tn_cursor_seek_fraction(cursor, 0.5, &err), &err);
	tn_cursor_row(cursor, 0, &err);
	start = bench_now_ms();
	bench_check(tn_cursor_set_filter(cursor, &filter, counts, &err), &err);
	read_screen(cursor, page);
	printf("first_screen_ms %.2f\n", bench_now_ms() - start);
	for (int i = 0; i < samples && total > 0; i++) {
		uint64_t rank = (uint64_t) (rand() / (double) RAND_MAX *
			(double) (total - 1));

		bench_check(tn_cursor_seek_rank(cursor, rank, &err), &err);
		read_screen(cursor, page);
		start = bench_now_ms();
		bench_check(tn_cursor_move(cursor, page, NULL, &err), &err);
		read_screen(cursor, page);
		down[i] = bench_now_ms() - start;
		bench_check(tn_cursor_seek_rank(cursor, rank, &err), &err);
		read_screen(cursor, page);
		start = bench_now_ms();
		bench_check(tn_cursor_move(cursor, -page, NULL, &err), &err);
		read_screen(cursor, page);
		up[i] = bench_now_ms() - start;
	}
	printf("filtered_page_down_ms %.2f\n", bench_median(down, samples));
	printf("filtered_page_up_ms %.2f\n", bench_median(up, samples));
	/* Paging on: 20 pages down from a random match, and 20 up from
	 * another. */
	if (total > 0) {
		double seq[20], worst = 0;
		int n = 0;

		for (int dir = 1; dir >= -1; dir -= 2) {
			bench_check(tn_cursor_seek_rank(cursor,
				(uint64_t) (rand() / (double) RAND_MAX *
				(double) (total - 1)),
				&err), &err);
			read_screen(cursor, page);
			n = 0;
			worst = 0;
			for (int i = 0; i < 20; i++) {
				start = bench_now_ms();
				bench_check(tn_cursor_move(cursor, dir * page,
					NULL, &err), &err);
				read_screen(cursor, page);
				seq[n] = bench_now_ms() - start;
				worst = MAX(worst, seq[n]);
				n++;
			}
			printf("filtered_%s_on_ms %.2f %.2f\n", dir > 0 ?
				"page_down" : "page_up", bench_median(seq, n),
				worst);
		}
		bench_paused(cursor, total, page);
	}
	tn_cursor_set_filter(cursor, NULL, NULL, &err);
	tn_filter_matcher_free(matcher);
	tn_match_counts_destroy(counts);
	tn_filter_set_unref(set);
	tn_filter_stack_destroy(stack);
	tn_cursor_set_index(cursor, NULL);
	tn_trace_set_packet_tables(trace, NULL);
	tn_index_destroy(index);
	g_free(rarest);
	free(down);
	free(up);
}

int main(int argc, char **argv)
{
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_error err;
	const char *mode = argc > 1 ? argv[1] : "";

	if (argc < 3) {
		fprintf(stderr, "usage: bench-nav-core nav|jump|index|goto|"
			"last|filter TRACE [ARGS]\n");
		return 2;
	}
	atexit(tn_runtime_cleanup);
	bench_check(tn_trace_open(argv[2], &trace, &err), &err);
	srand(1);
	if (strcmp(mode, "index") == 0) {
		double ms;
		struct tn_index *index = build_index(trace,
			argc > 3 ? (unsigned) atoi(argv[3]) : 0, &ms);

		printf("index_ms %.1f\nevents %llu\nevents_per_s %.0f\n", ms,
			(unsigned long long) index->event_count,
			index->event_count / (ms / 1e3));
		tn_index_destroy(index);
		tn_trace_destroy(trace);
		return 0;
	}
	bench_check(tn_cursor_create(trace, NULL, &cursor, &err), &err);
	if (strcmp(mode, "nav") == 0)
		bench_nav(cursor, argc > 3 ? atoi(argv[3]) : 20,
			argc > 4 ? atoll(argv[4]) : 22);
	else if (strcmp(mode, "jump") == 0)
		bench_jump(cursor, argc > 3 ? atof(argv[3]) : 0.5,
			argc > 4 ? atoi(argv[4]) : 5);
	else if (strcmp(mode, "goto") == 0)
		bench_goto(trace, cursor, argc > 3 ? atoi(argv[3]) : 25);
	else if (strcmp(mode, "last") == 0)
		bench_last(trace, cursor, argc > 3 ? atoi(argv[3]) : 5);
	else if (strcmp(mode, "filter") == 0)
		bench_filter(trace, cursor, argc, argv);
	else
		fprintf(stderr, "bench-nav-core: unknown mode %s\n", mode);
	tn_cursor_destroy(cursor);
	tn_trace_destroy(trace);
	return 0;
}
