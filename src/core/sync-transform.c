/* sync-transform.c - a host's clock correction applied, inverted and
 * composed without losing nanoseconds (see sync.h). */
#include <math.h>

#include "tracenav/sync.h"

void tn_sync_transform_init(struct tn_sync_transform *tr)
{
	tr->slope = 1.0L;
	tr->offset = 0.0L;
}

/* What tr adds to ns: (slope - 1) ns + offset, a small number when the
 * clocks are near each other (slope - 1 is exact in long double). */
static long double shift_of(const struct tn_sync_transform *tr, int64_t ns)
{
	return (tr->slope - 1.0L) * (long double) ns + tr->offset;
}

int64_t tn_sync_transform_apply(const struct tn_sync_transform *tr,
		int64_t ns)
{
	return ns + (int64_t) llroundl(shift_of(tr, ns));
}

int64_t tn_sync_transform_invert(const struct tn_sync_transform *tr,
		int64_t ns)
{
	/* ns = t + shift(t): t = ns - shift(ns) / slope, near enough;
	 * then the neighbour that applies to ns exactly, if one does. */
	int64_t t = ns - (int64_t) llroundl(shift_of(tr, ns) / tr->slope);

	for (int64_t d = 0; d <= 1; d++) {
		if (tn_sync_transform_apply(tr, t + d) == ns)
			return t + d;
		if (d && tn_sync_transform_apply(tr, t - d) == ns)
			return t - d;
	}
	return t;
}

void tn_sync_transform_compose(const struct tn_sync_transform *outer,
		const struct tn_sync_transform *inner,
		struct tn_sync_transform *out)
{
	struct tn_sync_transform r;

	r.slope = outer->slope * inner->slope;
	r.offset = outer->slope * inner->offset + outer->offset;
	*out = r;
}

void tn_sync_transform_inverse(const struct tn_sync_transform *tr,
		struct tn_sync_transform *out)
{
	struct tn_sync_transform r;

	r.slope = 1.0L / tr->slope;
	r.offset = -tr->offset / tr->slope;
	*out = r;
}
