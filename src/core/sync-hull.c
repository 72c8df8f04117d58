/* sync-hull.c - the hulls of the points between two hosts and the lines
 * that pass between them (see sync-hull.h). */
#include <math.h>

#include "sync-hull.h"

typedef __int128 wide;

/* > 0 when r is left of the way from p to q (above it, p.x < q.x), 0
 * when the three are on one line. */
static wide orient(const struct tn_sync_point *p, const struct tn_sync_point *q,
		const struct tn_sync_point *r)
{
	return (wide) (q->x - p->x) * (r->y - p->y) -
		(wide) (q->y - p->y) * (r->x - p->x);
}

#define AT(hull, i) (&g_array_index((hull), struct tn_sync_point, (i)))

/* The first point of hull whose x is not below x. */
static guint lower_bound(const GArray *hull, int64_t x)
{
	guint lo = 0, hi = hull->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (AT(hull, mid)->x < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Add p to a lower hull (points by x, each turn to the left), dropping
 * what it hides; nothing when p is on or over the hull. */
static void lower_hull_add(GArray *hull, struct tn_sync_point p)
{
	guint i = lower_bound(hull, p.x);

	if (i < hull->len && AT(hull, i)->x == p.x) {
		if (AT(hull, i)->y <= p.y)
			return;
		g_array_remove_index(hull, i);
	}
	if (i > 0 && i < hull->len &&
	    orient(AT(hull, i - 1), AT(hull, i), &p) >= 0)
		return;
	g_array_insert_val(hull, i, p);
	while (i >= 2 && orient(AT(hull, i - 2), AT(hull, i - 1),
			AT(hull, i)) <= 0) {
		g_array_remove_index(hull, i - 1);
		i--;
	}
	while (i + 2 < hull->len && orient(AT(hull, i), AT(hull, i + 1),
			AT(hull, i + 2)) <= 0)
		g_array_remove_index(hull, i + 1);
}

void tn_sync_pair_init(struct tn_sync_pair *pair)
{
	pair->above = g_array_new(FALSE, FALSE, sizeof(struct tn_sync_point));
	pair->below = g_array_new(FALSE, FALSE, sizeof(struct tn_sync_point));
	pair->above_count = pair->below_count = 0;
	pair->x_min = INT64_MAX;
	pair->x_max = INT64_MIN;
}

void tn_sync_pair_fini(struct tn_sync_pair *pair)
{
	g_array_free(pair->above, TRUE);
	g_array_free(pair->below, TRUE);
}

/* The points below are kept upside down (y negated): their upper hull
 * is then a lower hull. */
void tn_sync_pair_add(struct tn_sync_pair *pair, bool above, int64_t x,
		int64_t y)
{
	struct tn_sync_point p = { x, above ? y : -y };

	lower_hull_add(above ? pair->above : pair->below, p);
	if (above)
		pair->above_count++;
	else
		pair->below_count++;
	pair->x_min = MIN(pair->x_min, x);
	pair->x_max = MAX(pair->x_max, x);
}

int tn_sync_line_compare_slopes(const struct tn_sync_line *a,
		const struct tn_sync_line *b)
{
	wide left = (wide) (a->q.y - a->p.y) * (b->q.x - b->p.x);
	wide right = (wide) (b->q.y - b->p.y) * (a->q.x - a->p.x);

	return left < right ? -1 : left > right;
}

/* Point i of the hull of the points below, the right way up. */
static struct tn_sync_point below_at(const struct tn_sync_pair *pair,
		guint i)
{
	struct tn_sync_point p = *AT(pair->below, i);

	p.y = -p.y;
	return p;
}

void tn_sync_pair_bounds(const struct tn_sync_pair *pair,
		struct tn_sync_bounds *out)
{
	out->has_max = out->has_min = out->crossed = false;
	for (guint i = 0; i < pair->below->len; i++) {
		struct tn_sync_point d = below_at(pair, i);

		for (guint j = 0; j < pair->above->len; j++) {
			struct tn_sync_point u = *AT(pair->above, j);
			struct tn_sync_line line;

			if (d.x == u.x) {
				if (d.y > u.y)
					out->crossed = true;
				continue;
			}
			if (d.x < u.x) {
				line.p = d;
				line.q = u;
				if (!out->has_max || tn_sync_line_compare_slopes(
						&line, &out->max) < 0)
					out->max = line;
				out->has_max = true;
			} else {
				line.p = u;
				line.q = d;
				if (!out->has_min || tn_sync_line_compare_slopes(
						&line, &out->min) > 0)
					out->min = line;
				out->has_min = true;
			}
		}
	}
	if (out->has_max && out->has_min &&
	    tn_sync_line_compare_slopes(&out->min, &out->max) > 0)
		out->crossed = true;
}

/* ---- the line ---- */

static long double slope_of(const struct tn_sync_line *line)
{
	return (long double) (line->q.y - line->p.y) /
		(long double) (line->q.x - line->p.x);
}

/* line's value at x, less y0: small numbers, no ns lost. */
static long double value_less(const struct tn_sync_line *line, int64_t x,
		int64_t y0)
{
	return (long double) (line->p.y - y0) +
		slope_of(line) * (long double) (x - line->p.x);
}

/* The transform of the line of slope a through (x0, y0 + dy). */
static void transform_through(long double a, int64_t x0, int64_t y0,
		long double dy, struct tn_sync_transform *f)
{
	f->slope = a;
	/* offset = y0 + dy - a x0, with the large terms cancelled first */
	f->offset = (long double) (y0 - x0) + dy - (a - 1.0L) *
		(long double) x0;
}

/* The band of intercepts at slope a that the points allow, as values
 * at x0 less y0: [*low, *high]. */
static void band_at(const struct tn_sync_pair *pair, long double a,
		int64_t x0, int64_t y0, long double *low, long double *high)
{
	*low = -INFINITY;
	*high = INFINITY;
	for (guint i = 0; i < pair->below->len; i++) {
		struct tn_sync_point d = below_at(pair, i);

		*low = fmaxl(*low, (long double) (d.y - y0) +
			a * (long double) (x0 - d.x));
	}
	for (guint i = 0; i < pair->above->len; i++) {
		const struct tn_sync_point *u = AT(pair->above, i);

		*high = fminl(*high, (long double) (u->y - y0) +
			a * (long double) (x0 - u->x));
	}
}

/* Packets one way only: slope 1, the clocks as they are if they keep
 * every receipt after its send, else moved just enough. */
static void solve_one_way(const struct tn_sync_pair *pair,
		struct tn_sync_transform *f)
{
	long double low, high;

	band_at(pair, 1.0L, 0, 0, &low, &high);
	tn_sync_transform_init(f);
	if (pair->above_count && high < 0)
		f->offset = high;
	else if (pair->below_count && low > 0)
		f->offset = low;
}

enum tn_sync_quality tn_sync_pair_solve(const struct tn_sync_pair *pair,
		struct tn_sync_transform *f, long double *accuracy)
{
	struct tn_sync_bounds b;
	long double a, low, high;
	int64_t x0 = pair->x_min, y0;

	tn_sync_transform_init(f);
	*accuracy = -1;
	if (pair->above_count == 0 && pair->below_count == 0)
		return TN_SYNC_ABSENT;
	if (pair->above_count == 0 || pair->below_count == 0) {
		solve_one_way(pair, f);
		return TN_SYNC_INCOMPLETE;
	}
	tn_sync_pair_bounds(pair, &b);
	if (b.crossed)
		return TN_SYNC_FAILED;
	if (b.has_max && b.has_min) {
		y0 = b.max.p.y;
		a = (slope_of(&b.max) + slope_of(&b.min)) / 2;
		transform_through(a, x0, y0, (value_less(&b.max, x0, y0) +
			value_less(&b.min, x0, y0)) / 2, f);
		*accuracy = fmaxl(fabsl(value_less(&b.max, x0, y0) -
				value_less(&b.min, x0, y0)),
			fabsl(value_less(&b.max, pair->x_max, y0) -
				value_less(&b.min, pair->x_max, y0)));
		return TN_SYNC_ACCURATE;
	}
	/* One bound (or none, all points at one x): the slope nearest 1
	 * that fits, in the middle of the band of lines of that slope. */
	a = 1.0L;
	if (b.has_max)
		a = fminl(a, slope_of(&b.max));
	if (b.has_min)
		a = fmaxl(a, slope_of(&b.min));
	y0 = b.has_max ? b.max.p.y : b.has_min ? b.min.p.y :
		AT(pair->above, 0)->y;
	band_at(pair, a, x0, y0, &low, &high);
	transform_through(a, x0, y0, (low + high) / 2, f);
	return b.has_max || b.has_min ? TN_SYNC_APPROXIMATE :
		TN_SYNC_INCOMPLETE;
}
