/* tap.h - a tiny Test Anything Protocol helper for the unit tests.
 *
 * Each check prints "ok N - what" or "not ok N - what"; tap_done() prints
 * the plan and returns the exit status.  The automake TAP driver counts
 * every check as one test.
 */
#ifndef TRACENAV_TESTS_TAP_H
#define TRACENAV_TESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

__attribute__((format(printf, 2, 3), unused))
static bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list args;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_count);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	printf("\n");
	fflush(stdout);
	return cond;
}

/* Compare two strings; on mismatch print both as a TAP diagnostic. */
#define tap_str_eq(got, want, ...) \
	(tap_ok(strcmp((got), (want)) == 0, __VA_ARGS__) ? true : \
	 (printf("#   got:  \"%s\"\n#   want: \"%s\"\n", (got), (want)), false))

/* Compare two integers; on mismatch print both as a TAP diagnostic. */
#define tap_int_eq(got, want, ...) \
	(tap_ok((long long) (got) == (long long) (want), __VA_ARGS__) ? true : \
	 (printf("#   got:  %lld\n#   want: %lld\n", (long long) (got), \
		 (long long) (want)), false))

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
