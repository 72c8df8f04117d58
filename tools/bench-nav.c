/* bench-nav.c - times of the event list's moves, through the core API:
 * page down and page up at random places of a trace (no preparse), and
 * the readers that one-line moves inside the ring open (none expected).
 *
 *   bench-nav TRACE [SAMPLES] [PAGE]
 *
 * Prints medians in ms.  tools/bench-nav runs it beside babeltrace2. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tracenav/core.h"
#include "tracenav/cursor.h"
#include "tracenav/runtime.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static double median(double *values, int count)
{
	qsort(values, (size_t) count, sizeof(*values), compare_doubles);
	return values[count / 2];
}

/* Seek to fraction, then time a move by delta and the reading of the
 * page it shows. */
static double time_page(struct tn_cursor *cursor, double fraction,
		int64_t delta, int64_t page)
{
	struct tn_error err;
	double start;

	if (tn_cursor_seek_fraction(cursor, fraction, &err)) {
		fprintf(stderr, "bench-nav: %s\n", err.message);
		exit(1);
	}
	start = now_ms();
	if (tn_cursor_move(cursor, delta, NULL, &err)) {
		fprintf(stderr, "bench-nav: %s\n", err.message);
		exit(1);
	}
	for (int64_t i = 0; i < page; i++)
		tn_cursor_row(cursor, i, &err);
	return now_ms() - start;
}

int main(int argc, char **argv)
{
	int samples = argc > 2 ? atoi(argv[2]) : 20;
	int64_t page = argc > 3 ? atoll(argv[3]) : 22;
	double *down = calloc((size_t) samples, sizeof(double));
	double *up = calloc((size_t) samples, sizeof(double));
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_error err;
	uint64_t reads;

	if (argc < 2 || samples < 1 || !down || !up) {
		fprintf(stderr, "usage: bench-nav TRACE [SAMPLES] [PAGE]\n");
		return 2;
	}
	atexit(tn_runtime_cleanup);
	if (tn_trace_open(argv[1], &trace, &err) ||
	    tn_cursor_create(trace, NULL, &cursor, &err)) {
		fprintf(stderr, "bench-nav: %s\n", err.message);
		return 1;
	}
	srand(1);
	for (int i = 0; i < samples; i++) {
		double fraction = 0.02 + 0.96 * rand() / (double) RAND_MAX;

		down[i] = time_page(cursor, fraction, page, page);
		up[i] = time_page(cursor, fraction, -page, page);
	}
	/* One-line moves inside the ring. */
	tn_cursor_seek_fraction(cursor, 0.5, &err);
	tn_cursor_move(cursor, 200, NULL, &err);
	tn_cursor_move(cursor, -100, NULL, &err);
	reads = tn_cursor_get_read_count(cursor);
	for (int i = 0; i < 1000; i++)
		tn_cursor_move(cursor, i % 2 ? 1 : -1, NULL, &err);
	printf("page_down_ms %.2f\n", median(down, samples));
	printf("page_up_ms %.2f\n", median(up, samples));
	printf("ring_line_moves_reads %llu\n",
		(unsigned long long) (tn_cursor_get_read_count(cursor) - reads));
	tn_cursor_destroy(cursor);
	tn_trace_destroy(trace);
	free(down);
	free(up);
	return 0;
}
