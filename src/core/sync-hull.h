/* sync-hull.h - the bounds of the clock lines between two hosts
 * (internal: not part of the public API; see sync.h).
 *
 * Hosts A and B, a line T_B = f(T_A) to find.  A packet from A to B
 * gives a point (send time on A, receipt on B) that lies above the
 * line; one from B to A, a point (receipt on A, send on B) below it.
 * Only the lower convex hull of the points above and the upper hull of
 * those below can bind a line, so each set keeps just its hull, updated
 * point by point (in any order of x).
 *
 * The slopes of the lines that pass between both sets form an interval
 * [min, max]: max is the least slope from a point below to a point
 * above on its right, min the greatest from a point above to a point
 * below on its right (the constraint of every pair of points, which is
 * all there is: for a slope, the line fits when every point below is
 * under every point above once the slope's tilt is taken out).  Both
 * come from hull points alone, with exact integer arithmetic.
 */
#ifndef TRACENAV_CORE_SYNC_HULL_H
#define TRACENAV_CORE_SYNC_HULL_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "tracenav/sync.h"

struct tn_sync_point {
	int64_t x, y;
};

/* A line through two points, p.x < q.x: its slope is (q.y - p.y) /
 * (q.x - p.x), exactly. */
struct tn_sync_line {
	struct tn_sync_point p, q;
};

/* The points between two hosts and their hulls. */
struct tn_sync_pair {
	GArray *above;		/* lower hull of the points above, by x */
	GArray *below;		/* upper hull of the points below, by x */
	uint64_t above_count, below_count;	/* points given */
	int64_t x_min, x_max;	/* over all points given */
};

/* The bounding lines of a pair. */
struct tn_sync_bounds {
	bool has_max, has_min;
	struct tn_sync_line max;	/* the steepest line that fits */
	struct tn_sync_line min;	/* the flattest */
	bool crossed;	/* no line fits: the bounds cross, or a point below
			 * is over a point above at the same x */
};

void tn_sync_pair_init(struct tn_sync_pair *pair);
void tn_sync_pair_fini(struct tn_sync_pair *pair);

/* A point above the line (a packet from A to B) or below it. */
void tn_sync_pair_add(struct tn_sync_pair *pair, bool above, int64_t x,
		int64_t y);

/* The bounds of what was added. */
void tn_sync_pair_bounds(const struct tn_sync_pair *pair,
		struct tn_sync_bounds *out);

/* a's slope compared with b's: < 0, 0, > 0. */
int tn_sync_line_compare_slopes(const struct tn_sync_line *a,
		const struct tn_sync_line *b);

/* The line T_B = f(T_A) that the pair's points give, its quality
 * (ABSENT, INCOMPLETE, APPROXIMATE, ACCURATE or FAILED) and accuracy
 * (the largest distance in ns between the bounds over the points' x;
 * -1 without both bounds).  See sync.h for what each quality means and
 * how the line is chosen. */
enum tn_sync_quality tn_sync_pair_solve(const struct tn_sync_pair *pair,
		struct tn_sync_transform *f, long double *accuracy);

#endif
