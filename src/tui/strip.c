/* strip.c - the histogram strip's arithmetic (see strip.h). */
#include <glib.h>

#include "strip.h"

/* b - a (b >= a) as a double, without overflow or the loss of
 * precision of subtracting two large doubles. */
static double distance(int64_t a, int64_t b)
{
	return (double) ((uint64_t) b - (uint64_t) a);
}

void tn_strip_columns(const double *bins, size_t bin_count,
		double *columns, size_t col_count)
{
	/* Column c covers [c, c + 1) * bin_count / col_count in units of
	 * bins: add each bin's share of it. */
	for (size_t c = 0; c < col_count; c++) {
		double from = (double) c * bin_count / col_count;
		double to = (double) (c + 1) * bin_count / col_count;
		double sum = 0;

		for (size_t b = (size_t) from; b < bin_count && b < to; b++) {
			double lo = from > b ? from : (double) b;
			double hi = to < b + 1 ? to : (double) (b + 1);

			sum += bins[b] * (hi - lo);
		}
		columns[c] = sum / (to - from);
	}
}

/* The bin of ns, as the index bins it. */
static size_t bin_of(int64_t ns, int64_t begin_ns, int64_t end_ns,
		uint64_t width, size_t bin_count)
{
	if (ns <= begin_ns)
		return 0;
	if (ns >= end_ns)
		return bin_count - 1;
	return MIN((size_t) (((uint64_t) ns - (uint64_t) begin_ns) / width),
		bin_count - 1);
}

void tn_strip_spread(double *bins, size_t bin_count, int64_t begin_ns,
		int64_t end_ns, int64_t from_ns, int64_t to_ns, double count)
{
	uint64_t width = ((uint64_t) end_ns - (uint64_t) begin_ns) /
		bin_count + 1;
	size_t first = bin_of(from_ns, begin_ns, end_ns, width, bin_count);
	size_t last = bin_of(to_ns, begin_ns, end_ns, width, bin_count);
	double span;

	if (first == last || to_ns <= from_ns) {
		bins[first] += count;
		return;
	}
	span = distance(from_ns, to_ns) + 1;
	for (size_t b = first; b <= last; b++) {
		int64_t lo = b == first ? from_ns : (int64_t) ((uint64_t)
			begin_ns + b * width);
		int64_t hi = b == last ? to_ns : (int64_t) ((uint64_t)
			begin_ns + (b + 1) * width - 1);

		bins[b] += count * (distance(lo, hi) + 1) / span;
	}
}

void tn_strip_heights_scaled(const double *columns, size_t col_count,
		int rows, double max, int *heights)
{
	int top = rows * 8;

	for (size_t c = 0; c < col_count; c++) {
		int h = max > 0 ? (int) (columns[c] / max * top + 0.5) : 0;

		if (h > top)
			h = top;
		if (h == 0 && columns[c] > 0)
			h = 1;
		heights[c] = h;
	}
}

void tn_strip_heights(const double *columns, size_t col_count, int rows,
		int *heights)
{
	double max = 0;

	for (size_t c = 0; c < col_count; c++) {
		if (columns[c] > max)
			max = columns[c];
	}
	tn_strip_heights_scaled(columns, col_count, rows, max, heights);
}

int tn_strip_column_of(int64_t ns, int64_t begin_ns, int64_t end_ns,
		size_t col_count)
{
	double span = distance(begin_ns, end_ns) + 1;
	int c;

	if (ns < begin_ns || ns > end_ns || col_count == 0)
		return -1;
	c = (int) (distance(begin_ns, ns) / span * col_count);
	return c < (int) col_count ? c : (int) col_count - 1;
}

int64_t tn_strip_time_of(size_t col, int64_t begin_ns, int64_t end_ns,
		size_t col_count)
{
	double span = distance(begin_ns, end_ns) + 1;

	if (col_count == 0)
		return begin_ns;
	return (int64_t) ((uint64_t) begin_ns +
		(uint64_t) (span * col / col_count));
}

const char *tn_strip_glyph(int height, int row, bool ascii)
{
	static const char *const blocks[] = { " ", "\u2581", "\u2582",
		"\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588" };
	static const char *const plain[] = { " ", ".", ".", ":", ":", "=",
		"=", "#", "#" };
	int eighths = height - row * 8;

	if (eighths < 0)
		eighths = 0;
	if (eighths > 8)
		eighths = 8;
	return ascii ? plain[eighths] : blocks[eighths];
}

/* The decimals of a second that ticks step ns apart need. */
static int digits_for(int64_t step)
{
	return step >= 1000000000 ? 0 : step >= 1000000 ? 3 :
		step >= 1000 ? 6 : 9;
}

/* The columns a label takes: the time, its decimals, a blank. */
static int label_cols(int digits)
{
	return 8 + (digits ? digits + 1 : 0) + 1;
}

void tn_strip_axis_plan(int64_t begin_ns, int64_t end_ns, size_t col_count,
		struct tn_strip_axis *axis)
{
	static const int64_t mantissas[] = { 1, 2, 5 };
	double span = distance(begin_ns, end_ns) + 1;
	int64_t step = 1;

	/* The smallest step whose ticks are a label (and the tick
	 * itself) apart: from 1 ns up to a day. */
	for (int64_t power = 1; power <= INT64_C(100000000000000); power *= 10) {
		for (size_t m = 0; m < G_N_ELEMENTS(mantissas); m++) {
			step = mantissas[m] * power;
			if ((double) step / span * (double) col_count >=
			    label_cols(digits_for(step)) + 1)
				goto found;
		}
	}
found:
	axis->step = step;
	axis->digits = digits_for(step);
	/* The first multiple of step at or after begin_ns (floor division
	 * for negative times too). */
	axis->first = begin_ns / step * step;
	if (axis->first < begin_ns)
		axis->first += step;
}
