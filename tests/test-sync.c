/* test-sync.c - the clock correction between hosts: the hulls' bounds
 * against a naive reference (every pair of points, exact rationals) on
 * random point sets, known answers, the spanning tree, the transforms'
 * nanoseconds, and the text of a correction. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "tracenav/sync.h"
#include "src/core/sync-hull.h"
#include "src/core/sync-private.h"

typedef __int128 wide;

struct point_set {
	GArray *above, *below;	/* struct tn_sync_point */
};

/* The naive bounds: every pair of a point below and one above. */
static void naive_bounds(const struct point_set *set,
		struct tn_sync_bounds *out)
{
	out->has_max = out->has_min = out->crossed = false;
	for (guint i = 0; i < set->below->len; i++) {
		struct tn_sync_point d = g_array_index(set->below,
			struct tn_sync_point, i);

		for (guint j = 0; j < set->above->len; j++) {
			struct tn_sync_point u = g_array_index(set->above,
				struct tn_sync_point, j);
			struct tn_sync_line line;

			if (d.x == u.x) {
				out->crossed |= d.y > u.y;
				continue;
			}
			line.p = d.x < u.x ? d : u;
			line.q = d.x < u.x ? u : d;
			if (d.x < u.x && (!out->has_max ||
				tn_sync_line_compare_slopes(&line, &out->max) < 0)) {
				out->max = line;
				out->has_max = true;
			}
			if (d.x > u.x && (!out->has_min ||
				tn_sync_line_compare_slopes(&line, &out->min) > 0)) {
				out->min = line;
				out->has_min = true;
			}
		}
	}
	if (out->has_max && out->has_min &&
	    tn_sync_line_compare_slopes(&out->min, &out->max) > 0)
		out->crossed = true;
}

static bool same_bounds(const struct tn_sync_bounds *a,
		const struct tn_sync_bounds *b)
{
	if (a->crossed != b->crossed)
		return false;
	if (a->crossed)
		return true;	/* the slopes do not matter then */
	if (a->has_max != b->has_max || a->has_min != b->has_min)
		return false;
	if (a->has_max && tn_sync_line_compare_slopes(&a->max, &b->max))
		return false;
	if (a->has_min && tn_sync_line_compare_slopes(&a->min, &b->min))
		return false;
	return true;
}

/* A random set: points around the line y = slope x + offset (points
 * above it with a positive delay, below with a negative one), now and
 * then one on the wrong side; coordinates from base on. */
static void random_set(GRand *rand, struct point_set *set,
		struct tn_sync_pair *pair, int64_t base, bool wrong_side)
{
	int n = g_rand_int_range(rand, 1, 40);
	double slope = 1.0 + g_rand_double_range(rand, -1e-3, 1e-3);
	int64_t offset = g_rand_int_range(rand, -100000, 100000);

	for (int i = 0; i < n; i++) {
		bool above = g_rand_boolean(rand);
		int64_t x = base + g_rand_int_range(rand, 0, 1000000);
		int64_t delay = g_rand_int_range(rand, 0, 5000);
		int64_t y;
		struct tn_sync_point p;

		if (wrong_side && g_rand_int_range(rand, 0, 10) == 0)
			delay = -delay;
		y = base + offset + (int64_t) llround(slope *
			(double) (x - base)) + (above ? delay : -delay);
		p.x = x;
		p.y = y;
		g_array_append_val(above ? set->above : set->below, p);
		tn_sync_pair_add(pair, above, x, y);
	}
}

static void check_random_sets(void)
{
	GRand *rand = g_rand_new_with_seed(20261206);
	int mismatches = 0, crossed = 0, both = 0;

	for (int run = 0; run < 3000; run++) {
		struct point_set set = {
			g_array_new(FALSE, FALSE, sizeof(struct tn_sync_point)),
			g_array_new(FALSE, FALSE, sizeof(struct tn_sync_point)),
		};
		struct tn_sync_pair pair;
		struct tn_sync_bounds hull, naive;
		int64_t base = run % 2 ? INT64_C(1700000000000000000) : 0;

		tn_sync_pair_init(&pair);
		random_set(rand, &set, &pair, base, run % 3 == 0);
		tn_sync_pair_bounds(&pair, &hull);
		naive_bounds(&set, &naive);
		if (!same_bounds(&hull, &naive) && mismatches++ < 3)
			printf("# run %d: hull %d/%d/%d, naive %d/%d/%d\n", run,
				hull.has_min, hull.has_max, hull.crossed,
				naive.has_min, naive.has_max, naive.crossed);
		crossed += naive.crossed;
		both += naive.has_min && naive.has_max && !naive.crossed;
		tn_sync_pair_fini(&pair);
		g_array_free(set.above, TRUE);
		g_array_free(set.below, TRUE);
	}
	tap_int_eq(mismatches, 0, "hull bounds = every pair's, exactly, on "
		"3000 random sets (%d crossed, %d with both bounds)", crossed,
		both);
	tap_ok(crossed > 100 && both > 100, "the random sets have both "
		"kinds");
	g_rand_free(rand);
}

/* ---- known answers (the fully incremental algorithm's own test
 * sequence, t1 on x and t2 on y) ---- */

struct step {
	bool from_t1;		/* sent by t1 (a point above) */
	int64_t send, receive;
	enum tn_sync_quality quality;
	double slope, offset;
};

static void check_known_answers(void)
{
	static const struct step steps[] = {
		{ false, 1, 1, TN_SYNC_INCOMPLETE, 1, 0 },
		/* Both ways at one x: no bound; the middle of the band
		 * (the incremental algorithm keeps the clocks here). */
		{ true, 1, 3, TN_SYNC_INCOMPLETE, 1, 1 },
		{ false, 2, 3, TN_SYNC_APPROXIMATE, 1, 1 },
		{ true, 3, 5, TN_SYNC_ACCURATE, 0.75, 1.25 },
		{ true, 4, 8, TN_SYNC_ACCURATE, 0.75, 1.25 },
		{ false, 4, 5, TN_SYNC_ACCURATE, 1.125, 0.875 },
		{ false, 4, 6, TN_SYNC_ACCURATE, 1.125, 0.875 },
		{ true, 6, 7, TN_SYNC_ACCURATE, 0.725, 1.275 },
		/* Sent at 7, received at 4, while t2's 4 reached t1 at 5:
		 * no line keeps both (its slope would be <= 0 and >= 1/4). */
		{ true, 7, 4, TN_SYNC_FAILED, 1, 0 },
	};
	struct tn_sync_pair pair;

	tn_sync_pair_init(&pair);
	for (size_t i = 0; i < G_N_ELEMENTS(steps); i++) {
		const struct step *s = &steps[i];
		struct tn_sync_transform f;
		long double accuracy;
		enum tn_sync_quality q;

		if (s->from_t1)
			tn_sync_pair_add(&pair, true, s->send, s->receive);
		else
			tn_sync_pair_add(&pair, false, s->receive, s->send);
		q = tn_sync_pair_solve(&pair, &f, &accuracy);
		tap_ok(q == s->quality && fabsl(f.slope - s->slope) < 1e-15 &&
			fabsl(f.offset - s->offset) < 1e-12,
			"match %zu (%s %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT
			"): %s, slope %Lg offset %Lg", i + 1,
			s->from_t1 ? "t1" : "t2", s->send, s->receive,
			tn_sync_quality_name(q), f.slope, f.offset);
	}
	tn_sync_pair_fini(&pair);
}

/* ---- the transforms ---- */

static void check_transforms(void)
{
	GRand *rand = g_rand_new_with_seed(7);
	int bad_apply = 0, bad_invert = 0, tried = 0;

	for (int i = 0; i < 20000; i++) {
		struct tn_sync_transform tr = {
			1.0L + (long double) g_rand_double_range(rand, 0, 1e-4),
			(long double) g_rand_double_range(rand, -2e14, 2e14),
		};
		int64_t t = INT64_C(1700000000000000000) +
			(int64_t) g_rand_int_range(rand, 0, 1 << 30) * 1000;
		int64_t y = tn_sync_transform_apply(&tr, t);
		/* The exact value, with the slope's own digits. */
		long double exact = (long double) t + (tr.slope - 1) *
			(long double) t + tr.offset;

		if (fabsl((long double) y - exact) > 0.5L + 1e-3L)
			bad_apply++;
		if (tn_sync_transform_invert(&tr, y) != t)
			bad_invert++;
		tr.slope = 2.0L - tr.slope;	/* below 1: not every ns */
		y = tn_sync_transform_apply(&tr, t);
		if (tn_sync_transform_apply(&tr,
				tn_sync_transform_invert(&tr, y)) != y)
			bad_invert++;
		tried++;
	}
	tap_int_eq(bad_apply, 0, "applied to the nearest ns (%d times "
		"about 1.7e18 ns)", tried);
	tap_int_eq(bad_invert, 0, "inverted: the same nanosecond back, for "
		"slopes above and below 1");
	g_rand_free(rand);
}

/* ---- the tree: three hosts, known clocks ---- */

/* Host h's clock reads clock_of(h, t) at true time t. */
static const double slopes[] = { 1.0, 1.00005, 0.99992 };
static const int64_t offsets[] = { 0, 2500000000, -1200000000 };

static int64_t clock_of(int h, int64_t t)
{
	return (int64_t) llround(slopes[h] * (double) (t - INT64_C(1700000000000000000))) +
		INT64_C(1700000000000000000) + offsets[h];
}

static void exchange(struct tn_sync_graph *graph, GRand *rand, int a, int b)
{
	size_t n = graph->host_count;

	for (int k = 0; k < 200; k++) {
		int64_t t = INT64_C(1700000000000000000) +
			(int64_t) g_rand_int_range(rand, 0, 2000000000) * 10;
		int64_t delay = 20000 + g_rand_int_range(rand, 0, 300000);
		bool forward = g_rand_boolean(rand);
		int from = forward ? a : b, to = forward ? b : a;
		int64_t send = clock_of(from, t), receive = clock_of(to,
			t + delay);
		int i = MIN(a, b), j = MAX(a, b);

		if (from == i)
			tn_sync_pair_add(&graph->pairs[i * n + j], true, send,
				receive);
		else
			tn_sync_pair_add(&graph->pairs[i * n + j], false,
				receive, send);
		graph->matches[i * n + j]++;
	}
}

static void check_tree(void)
{
	char *names[] = { "a", "b", "c", "d" };
	struct tn_sync_graph graph = { 4, names, g_new0(struct tn_sync_pair,
		16), g_new0(uint64_t, 16) };
	GRand *rand = g_rand_new_with_seed(3);
	struct tn_sync *sync;
	bool inside = true;

	for (int i = 0; i < 16; i++)
		tn_sync_pair_init(&graph.pairs[i]);
	exchange(&graph, rand, 0, 1);	/* a-b, b-c; d talks to nobody */
	exchange(&graph, rand, 1, 2);
	sync = tn_sync_solve(&graph);
	tap_ok(sync->hosts[0].quality == TN_SYNC_REFERENCE &&
		sync->hosts[0].matches == 200 &&
		sync->hosts[1].quality == TN_SYNC_ACCURATE &&
		sync->hosts[1].parent == 0 &&
		sync->hosts[2].quality == TN_SYNC_ACCURATE &&
		sync->hosts[2].parent == 1 && sync->hosts[2].matches == 200 &&
		sync->hosts[3].quality == TN_SYNC_ABSENT &&
		sync->hosts[3].parent == -1,
		"tree: a the reference, b under a, c under b, d kept");
	/* Each host's corrected clock is the reference's, within the
	 * packets' delays. */
	for (int h = 1; h < 3; h++)
		for (int k = 0; k <= 10; k++) {
			int64_t t = INT64_C(1700000000000000000) + k *
				INT64_C(2000000000);
			int64_t got = tn_sync_transform_apply(
				&sync->hosts[h].transform, clock_of(h, t));

			if (llabs(got - clock_of(0, t)) > 40000)
				inside = false;
		}
	tap_ok(inside, "b's and c's corrected clocks within 40 us of a's "
		"over 20 s (slopes differing by 130 ppm)");
	tn_sync_destroy(sync);
	for (int i = 0; i < 16; i++)
		tn_sync_pair_fini(&graph.pairs[i]);
	g_free(graph.pairs);
	g_free(graph.matches);
	g_rand_free(rand);
}

/* ---- the text ---- */

static void check_text(void)
{
	struct tn_sync *sync, *back;
	struct tn_error err;
	GString *a = g_string_new(NULL), *b = g_string_new(NULL);

	tap_ok(tn_sync_parse("# comment\n"
		"VM3\t1.00000000000000000000\t0.000\treference\t0.000\t46\n"
		"VM1\t0.99994137837031390104\t79796507913179.403\taccurate\t"
		"337816.889\t46\n\n", &sync, &err) == 0 &&
		sync->host_count == 2, "parse two hosts");
	tn_sync_format(sync, a);
	tap_ok(tn_sync_parse(a->str, &back, &err) == 0, "parse what it "
		"printed");
	tn_sync_format(back, b);
	tn_sync_destroy(back);
	tap_str_eq(b->str, a->str, "printed again: the same text");
	tap_str_eq(a->str, "VM3\t1.00000000000000000000\t0.000\treference\t"
		"0.000\t46\nVM1\t0.99994137837031390104\t79796507913179.403\t"
		"accurate\t337816.889\t46\n", "the columns");
	tap_ok(tn_sync_parse("VM1\t1\t0\taccurate\t-\n", &back, &err) &&
		strstr(err.message, "line 1: expected 6 columns"),
		"five columns: %s", err.message);
	tap_ok(tn_sync_parse("VM1\t-1\t0\taccurate\t-\t3\n", &back, &err) &&
		strstr(err.message, "SLOPE"), "slope -1: %s", err.message);
	tap_ok(tn_sync_parse("a\t1\t0\treference\t0\t1\na\t1\t0\tabsent\t-\t"
		"0\n", &back, &err) && strstr(err.message, "line 2") &&
		strstr(err.message, "twice"), "a host twice: %s", err.message);
	tap_ok(tn_sync_parse("# nothing\n", &back, &err) &&
		strstr(err.message, "no host"), "no host: %s", err.message);
	tn_sync_destroy(sync);
	g_string_free(a, TRUE);
	g_string_free(b, TRUE);
}

int main(void)
{
	check_random_sets();
	check_known_answers();
	check_transforms();
	check_tree();
	check_text();
	return tap_done();
}
