/* test-strip.c - the histogram strip's arithmetic (src/tui/strip.c). */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tap.h"
#include "src/tui/strip.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (fabs(a) + fabs(b) + 1);
}

static void test_columns(void)
{
	double bins[8] = { 8, 0, 4, 4, 1, 1, 1, 1 };
	double cols[16];
	double total = 0;

	/* Fewer columns: each the average of its bins, times nothing. */
	tn_strip_columns(bins, 8, cols, 4);
	tap_ok(near(cols[0], 4) && near(cols[1], 4) && near(cols[2], 1) &&
		near(cols[3], 1), "8 bins in 4 columns: the averages "
		"(%g %g %g %g)", cols[0], cols[1], cols[2], cols[3]);
	/* More columns: each bin over two columns, the same height. */
	tn_strip_columns(bins, 8, cols, 16);
	tap_ok(near(cols[0], 8) && near(cols[1], 8) && near(cols[2], 0) &&
		near(cols[15], 1), "8 bins in 16 columns: each bin twice");
	/* Columns across bin edges take their parts. */
	tn_strip_columns(bins, 8, cols, 3);
	for (int i = 0; i < 3; i++)
		total += cols[i] * 8.0 / 3;
	tap_ok(near(total, 20), "8 bins in 3 columns keep the 20 events "
		"(%g)", total);
	tap_ok(near(cols[0], (8 + 0 + 4 * (2.0 / 3)) / (8.0 / 3)),
		"the first of 3 columns: bins 0, 1 and 2/3 of bin 2 (%g)",
		cols[0]);
	tn_strip_columns(bins, 8, cols, 1);
	tap_ok(near(cols[0], 20.0 / 8), "one column: the mean");
}

static void test_spread(void)
{
	double bins[10] = { 0 };
	double sum = 0;

	/* 10 bins over [0, 999]: width 100. */
	tn_strip_spread(bins, 10, 0, 999, 250, 250, 3);
	tap_ok(bins[2] == 3, "one time: all in its bin");
	memset(bins, 0, sizeof(bins));
	tn_strip_spread(bins, 10, 0, 999, 150, 349, 200);
	tap_ok(near(bins[1], 50) && near(bins[2], 100) && near(bins[3], 50),
		"[150, 349]: half a bin, a bin, half a bin (%g %g %g)",
		bins[1], bins[2], bins[3]);
	memset(bins, 0, sizeof(bins));
	tn_strip_spread(bins, 10, 0, 999, -500, 2000, 7);
	for (int i = 0; i < 10; i++)
		sum += bins[i];
	tap_ok(near(sum, 7), "beyond both ends: the count is kept (%g)", sum);
}

static void test_heights(void)
{
	double cols[5] = { 0, 1, 50, 100, 99.9 };
	int h[5];

	tn_strip_heights(cols, 5, 2, h);
	tap_ok(h[0] == 0 && h[1] == 1 && h[2] == 8 && h[3] == 16 &&
		h[4] == 16, "heights in eighths of 2 rows: %d %d %d %d %d",
		h[0], h[1], h[2], h[3], h[4]);
	memset(cols, 0, sizeof(cols));
	tn_strip_heights(cols, 5, 3, h);
	tap_ok(h[0] == 0 && h[4] == 0, "no events: no bars");
	cols[0] = 0.01;
	cols[1] = 50;
	tn_strip_heights_scaled(cols, 2, 2, 100, h);
	tap_ok(h[0] == 1 && h[1] == 8, "on another scale: a sliver at "
		"least, half of 16 (%d %d)", h[0], h[1]);
}

static void test_glyphs(void)
{
	tap_str_eq(tn_strip_glyph(0, 0, false), " ", "height 0: blank");
	tap_str_eq(tn_strip_glyph(1, 0, false), "\u2581", "1/8: lowest block");
	tap_str_eq(tn_strip_glyph(8, 0, false), "\u2588", "8/8: full block");
	tap_str_eq(tn_strip_glyph(12, 0, false), "\u2588",
		"12/8, bottom row: full");
	tap_str_eq(tn_strip_glyph(12, 1, false), "\u2584",
		"12/8, second row: half");
	tap_str_eq(tn_strip_glyph(12, 2, false), " ", "12/8, third row: blank");
	tap_str_eq(tn_strip_glyph(8, 0, true), "#", "ascii: full is #");
	tap_str_eq(tn_strip_glyph(1, 0, true), ".", "ascii: a little is .");
	tap_str_eq(tn_strip_glyph(4, 0, true), ":", "ascii: half is :");
}

static void test_times(void)
{
	tap_int_eq(tn_strip_column_of(1000, 1000, 1999, 10), 0,
		"the first ns: column 0");
	tap_int_eq(tn_strip_column_of(1999, 1000, 1999, 10), 9,
		"the last ns: the last column");
	tap_int_eq(tn_strip_column_of(1500, 1000, 1999, 10), 5,
		"the middle: column 5");
	tap_int_eq(tn_strip_column_of(999, 1000, 1999, 10), -1,
		"before the range: -1");
	tap_int_eq(tn_strip_column_of(2000, 1000, 1999, 10), -1,
		"after it: -1");
	tap_ok(tn_strip_time_of(5, 1000, 1999, 10) == 1500,
		"column 5 starts at 1500");
	for (size_t c = 0; c < 10; c++) {
		if (tn_strip_column_of(tn_strip_time_of(c, 1000, 1999, 10),
				1000, 1999, 10) != (int) c) {
			tap_ok(false, "column %zu: its time is in it", c);
			return;
		}
	}
	tap_ok(true, "each column's time is in that column");
	tap_int_eq(tn_strip_column_of(INT64_MAX, INT64_MIN, INT64_MAX, 80),
		79, "the widest range: the end in the last column");
}

/* The axis: ticks a label apart, at round multiples, as fine as the
 * span allows. */
static void test_axis(void)
{
	struct tn_strip_axis axis;

	/* 200 ms over 80 columns: labels HH:MM:SS.mmm take 13 columns, so
	 * 14 columns between ticks at least, 35 ms: the step is 50 ms. */
	tn_strip_axis_plan(INT64_C(1700000000000000000) + 123456789,
		INT64_C(1700000000000000000) + 323456788, 80, &axis);
	tap_int_eq(axis.step, 50000000, "axis: 200 ms in 80 columns, a "
		"tick every 50 ms");
	tap_int_eq(axis.digits, 3, "... labels to the ms");
	tap_int_eq(axis.first, INT64_C(1700000000000000000) + 150000000,
		"... the first at the first multiple of 50 ms");
	/* 1 us in 200 columns: 9 decimals (19 columns a label): 100 ns. */
	tn_strip_axis_plan(1000, 1999, 200, &axis);
	tap_int_eq(axis.step, 100, "axis: 1 us in 200 columns, every 100 ns");
	tap_int_eq(axis.digits, 9, "... labels to the ns");
	tap_int_eq(axis.first, 1000, "... the first at the span's start");
	/* A whole minute in 40 columns: HH:MM:SS (9 columns): 20 s. */
	tn_strip_axis_plan(0, 59999999999, 40, &axis);
	tap_int_eq(axis.step, 20000000000, "axis: 60 s in 40 columns, every "
		"20 s");
	tap_int_eq(axis.digits, 0, "... labels to the second");
	/* Ticks never closer than a label: 80 columns, any span. */
	for (int64_t span = 1; span < INT64_C(1000000000000); span *= 7) {
		tn_strip_axis_plan(0, span - 1, 80, &axis);
		if (!tap_ok((double) axis.step / (double) span * 80 >=
				8 + (axis.digits ? axis.digits + 1 : 0) + 2,
				"axis: %" PRId64 " ns in 80 columns: ticks %" PRId64
				" ns apart leave room for labels", span, axis.step))
			break;
	}
}

int main(void)
{
	test_axis();
	test_columns();
	test_spread();
	test_heights();
	test_glyphs();
	test_times();
	return tap_done();
}
