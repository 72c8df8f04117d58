/* fuzz.h - what the libFuzzer harnesses of tests/fuzz share: the entry
 * point, which times each input and prints the slowest one at exit,
 * and a check that aborts with a message when an invariant fails.
 *
 * Two times are kept for each input, in CPU time: the answer's, the
 * time spent in tracenav's entry points on the input itself (a harness
 * puts fuzz_clock_start() and fuzz_clock_stop() around them), and the
 * whole call's, its checks included (round trips, references).
 *
 * A harness includes this file once and defines fuzz_one(): parse the
 * input with tracenav's own entry points and check what comes out.
 * libFuzzer reports an abort, a sanitizer's report, a leak, an input
 * slower than -timeout and an allocation beyond -malloc_limit_mb as a
 * crash, with the input that caused it.
 */
#ifndef TRACENAV_TESTS_FUZZ_H
#define TRACENAV_TESTS_FUZZ_H

#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Parse data (size bytes, borrowed) and check what comes out. */
static void fuzz_one(const uint8_t *data, size_t size);

/* libFuzzer's entry point: one input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort, with where and why, when cond does not hold. */
#define FUZZ_CHECK(cond, ...) do { \
	if (!(cond)) { \
		fprintf(stderr, "fuzz check failed (%s:%d): %s: ", __FILE__, \
			__LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
		abort(); \
	} \
} while (0)

static double fuzz_slowest_ms;		/* a whole call */
static size_t fuzz_slowest_size;
static double fuzz_answer_ms;		/* of the input being run */
static double fuzz_slowest_answer_ms;
static size_t fuzz_slowest_answer_size;
static unsigned long long fuzz_inputs;

/* The CPU time of the calling thread: what an input costs, whatever
 * else the machine runs meanwhile (wall time is noise on a busy one;
 * libFuzzer's -timeout bounds that). */
static double fuzz_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec / 1e6;
}

/* Around a call of tracenav's on the input: its time counts in the
 * answer's. */
static inline double fuzz_clock_start(void)
{
	return fuzz_now_ms();
}

static inline void fuzz_clock_stop(double started)
{
	fuzz_answer_ms += fuzz_now_ms() - started;
}

/* At exit (libFuzzer exits after -runs or -max_total_time): the line
 * tools/fuzz reports.  The times are those of this instrumented build
 * (AddressSanitizer, UBSan, coverage), slower than a normal one. */
__attribute__((destructor))
static void fuzz_report(void)
{
	if (fuzz_inputs)
		fprintf(stderr, "tracenav-fuzz: %llu inputs, the slowest "
			"answered in %.3f ms of CPU (%zu bytes), the slowest "
			"checked in %.3f ms (%zu bytes)\n", fuzz_inputs,
			fuzz_slowest_answer_ms, fuzz_slowest_answer_size,
			fuzz_slowest_ms, fuzz_slowest_size);
}

/* Run the input: the CPU time of the whole call, and the answer's in
 * *answer_ms. */
static double fuzz_timed(const uint8_t *data, size_t size,
		double *answer_ms)
{
	double started = fuzz_now_ms();

	fuzz_answer_ms = 0;
	fuzz_one(data, size);
	*answer_ms = fuzz_answer_ms;
	return fuzz_now_ms() - started;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double answer, took = fuzz_timed(data, size, &answer);

	/* The first input (libFuzzer's empty one) pays for one-time
	 * set-up (time zone, regex JIT, GLib): not the parsers'. */
	if (fuzz_inputs++ == 0)
		return 0;
	/* A slower one than all before is run twice more, its least
	 * times kept: the allocator's work now and then (AddressSanitizer
	 * mapping memory, recycling its quarantine) costs tens of ms of
	 * CPU inside a call that takes microseconds. */
	for (int again = 0; again < 2 && (took > fuzz_slowest_ms ||
	     answer > fuzz_slowest_answer_ms); again++) {
		double answer2, took2 = fuzz_timed(data, size, &answer2);

		took = MIN(took, took2);
		answer = MIN(answer, answer2);
	}
	if (took > fuzz_slowest_ms) {
		fuzz_slowest_ms = took;
		fuzz_slowest_size = size;
	}
	if (answer > fuzz_slowest_answer_ms) {
		fuzz_slowest_answer_ms = answer;
		fuzz_slowest_answer_size = size;
	}
	return 0;
}

/* The input as a C string, as a command line or an option gives text:
 * its bytes up to the first NUL (g_free it). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	return g_strndup((const char *) data, size);
}

/* How many characters text has (its bytes when it is not UTF-8): the
 * largest column an error message may name is one more. */
static inline long fuzz_chars(const char *text)
{
	return g_utf8_validate(text, -1, NULL) ? g_utf8_strlen(text, -1) :
		(long) strlen(text);
}

#endif
