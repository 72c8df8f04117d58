/* strip.h - the histogram strip's arithmetic, apart from drawing (no
 * curses): event counts per time bin made into columns of a given
 * width, the columns into bar heights, a height into the glyph of one
 * cell.
 */
#ifndef TRACENAV_TUI_STRIP_H
#define TRACENAV_TUI_STRIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The events of bins (bin_count bins of equal width, in time order) as
 * col_count columns of equal width: each column's events per bin, on
 * average, times bin_count (a column covering part of a bin takes that
 * part), so that the columns keep the bins' shape whatever the two
 * counts are.  bin_count, col_count > 0. */
void tn_strip_columns(const double *bins, size_t bin_count,
		double *columns, size_t col_count);

/* Add count events spread evenly over [from_ns, to_ns] to bins
 * (bin_count bins over [begin_ns, end_ns], binned as the index bins
 * events: bin i from begin_ns + i * width, width = (end_ns - begin_ns) /
 * bin_count + 1, what lies outside in the first or last bin). */
void tn_strip_spread(double *bins, size_t bin_count, int64_t begin_ns,
		int64_t end_ns, int64_t from_ns, int64_t to_ns, double count);

/* Bar heights in eighths of a cell, for bars of at most rows cells:
 * the highest column gets rows * 8, every column with events at least
 * 1, a column without none. */
void tn_strip_heights(const double *columns, size_t col_count, int rows,
		int *heights);

/* The same on the scale of other columns whose highest is max (> 0):
 * for a part of them (the filters' matches among the events). */
void tn_strip_heights_scaled(const double *columns, size_t col_count,
		int rows, double max, int *heights);

/* The column (0 .. col_count - 1) of time ns in [begin_ns, end_ns]
 * shown over col_count columns; -1 outside it. */
int tn_strip_column_of(int64_t ns, int64_t begin_ns, int64_t end_ns,
		size_t col_count);

/* The first time that column col of col_count stands for. */
int64_t tn_strip_time_of(size_t col, int64_t begin_ns, int64_t end_ns,
		size_t col_count);

/* A time axis over [begin_ns, end_ns] drawn in col_count columns, a
 * tick at each multiple of step (1, 2 or 5 times a power of ten ns, the
 * smallest whose ticks leave room for their labels) with a label of the
 * time of day to digits decimals of the second (0, 3, 6 or 9: as fine
 * as the step needs).  Label widths: "HH:MM:SS" plus a point and the
 * digits, then a blank. */
struct tn_strip_axis {
	int64_t step;
	int digits;
	int64_t first;		/* the first tick, at or after begin_ns */
};

void tn_strip_axis_plan(int64_t begin_ns, int64_t end_ns, size_t col_count,
		struct tn_strip_axis *axis);

/* The glyph of the cell on row `row` (0: the bottom one) of a bar of
 * height eighths: " " or one of ▁▂▃▄▅▆▇█ (UTF-8), or with ascii one of
 * " .:=#" (from nothing to a full cell). */
const char *tn_strip_glyph(int height, int row, bool ascii);

#endif
