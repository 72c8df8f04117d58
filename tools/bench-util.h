/* bench-util.h - what the benchmark programs (tools/bench-*-core.c)
 * share: clocks in milliseconds, quantiles of their samples, and
 * leaving on a tracenav error. */
#ifndef TOOLS_BENCH_UTIL_H
#define TOOLS_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tracenav/error.h"

/* The time of clock (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID...) in
 * milliseconds. */
static inline double bench_clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline double bench_now_ms(void)
{
	return bench_clock_ms(CLOCK_MONOTONIC);
}

/* The CPU time of this process, in milliseconds. */
static inline double bench_cpu_ms(void)
{
	return bench_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static inline int bench_compare_doubles(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* The q-quantile (0.5: the median) of count values, count > 0 (sorted
 * here). */
static inline double bench_quantile(double *values, int count, double q)
{
	qsort(values, (size_t) count, sizeof(*values), bench_compare_doubles);
	return values[(int) (q * (count - 1) + 0.5)];
}

static inline double bench_median(double *values, int count)
{
	return bench_quantile(values, count, 0.5);
}

/* The program's name, for its errors (BENCH_PROGRAM, defined before
 * this header is included). */
static const char bench_program[] = BENCH_PROGRAM;

/* Print err's message after the program's name and exit 1 when status
 * is not 0. */
static inline void bench_check(int status, const struct tn_error *err)
{
	if (status) {
		fprintf(stderr, "%s: %s\n", bench_program, err->message);
		exit(1);
	}
}

#endif
