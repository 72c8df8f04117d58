/* test-timeline-summary.c - the timelines' summary (timeline-summary.h):
 * the time added is all kept (within the rounding of its 255ths of a
 * bucket: two at most per bucket), whatever the order it comes in and
 * however often the grid is widened, and the shortest time stays seen;
 * the grid of a span has the known letters; a span too fine for it is
 * refused; a damaged blob is an error at every cut, never a crash. */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>

#include "tap.h"
#include "src/core/bytes.h"
#include "src/core/timeline-summary.h"

#define STATES TN_THREAD_STATE_COUNT

/* The rounding a state's total may have: two 255ths of a bucket in
 * each bucket it has time in. */
static uint64_t slack[64][STATES];

/* Per row of kind in blob: the total ns of each state (Σ run × its
 * 255ths of width), decoded here apart from the grid's reader, and in
 * slack its rounding.  Returns the rows, or -1 when the blob does not
 * read. */
static int totals(GBytes *blob, enum tn_timeline_kind kind, int64_t *ids,
		uint64_t (*ns)[STATES], int most, uint64_t *width)
{
	gsize size;
	const uint8_t *data = g_bytes_get_data(blob, &size), *magic;
	struct tn_bytes_reader r;
	uint32_t version;
	int64_t origin;
	int found = 0;

	tn_bytes_reader_init(&r, data, size);
	if (tn_bytes_take_raw(&r, 4, &magic, "magic") ||
	    tn_bytes_take_u32(&r, &version, "version") ||
	    tn_bytes_take_i64(&r, &origin, "origin") ||
	    tn_bytes_take_u64(&r, width, "width"))
		return -1;
	for (int k = 0; k < TN_TIMELINE_KIND_COUNT; k++) {
		uint64_t rows, length;

		size_t left;

		if (tn_bytes_take_u64(&r, &length, "length"))
			return -1;
		left = r.left;
		if (tn_bytes_take_varint(&r, &rows, "rows"))
			return -1;
		for (uint64_t i = 0; i < rows; i++) {
			uint64_t cells, gap, run;
			const char *name;
			size_t len;
			int64_t id, parent;
			uint8_t mask;
			bool mine = k == (int) kind;

			/* A thread's name and parent; an irq's name. */
			if (tn_bytes_take_zigzag(&r, &id, "id") ||
			    ((k == TN_TIMELINE_THREADS || k ==
			      TN_TIMELINE_IRQS) && tn_bytes_take_string(&r,
					&name, &len, "name")) ||
			    (k == TN_TIMELINE_THREADS && tn_bytes_take_zigzag(
					&r, &parent, "parent")) ||
			    tn_bytes_take_varint(&r, &cells, "cells"))
				return -1;
			if (mine && found < most) {
				ids[found] = id;
				memset(ns[found], 0, sizeof(ns[found]));
				if (found < 64)
					memset(slack[found], 0,
						sizeof(slack[found]));
			}
			for (uint64_t c = 0; c < cells; c++) {
				if (tn_bytes_take_varint(&r, &gap, "gap") ||
				    tn_bytes_take_varint(&r, &run, "run") ||
				    tn_bytes_take_u8(&r, &mask, "mask"))
					return -1;
				for (int s = 0; s < STATES; s++) {
					uint8_t q;

					if (!(mask & (1 << s)))
						continue;
					if (tn_bytes_take_u8(&r, &q, "255ths"))
						return -1;
					if (!mine || found >= most)
						continue;
					ns[found][s] += run * q * *width / 255;
					if (found < 64)
						slack[found][s] += run * 2 *
							*width / 255 + 1;
				}
			}
			if (mine)
				found++;
		}
		/* The kind's length says where its rows end. */
		if (left - r.left != length)
			return -1;
	}
	return found;
}

/* One interval given to the builder. */
struct piece {
	enum tn_timeline_kind kind;
	int64_t id;
	unsigned state;
	int64_t from, to;
};

static GBytes *build(const struct piece *pieces, size_t count,
		int64_t origin)
{
	struct tn_timeline_summary_builder *b =
		tn_timeline_summary_builder_new(origin, UINT64_MAX);
	GBytes *blob;

	for (size_t i = 0; i < count; i++)
		tn_timeline_summary_add(b, pieces[i].kind, pieces[i].id,
			pieces[i].state, pieces[i].from, pieces[i].to);
	tn_timeline_summary_set_name(b, 7, "worker");
	tn_timeline_summary_set_parent(b, 7, 3);
	tn_timeline_summary_set_parent(b, 7, 9);
	tn_timeline_summary_set_irq_name(b, 30, "eth0");
	tn_timeline_summary_set_irq_name(b, 30, "shared");
	blob = tn_timeline_summary_save(b);
	tn_timeline_summary_builder_free(b);
	return blob;
}

/* The totals of blob's rows are the pieces' (clipped at origin), within
 * their rounding, and a state with time has some. */
static bool keeps_all(GBytes *blob, const struct piece *pieces, size_t count,
		int64_t origin)
{
	int64_t ids[64];
	uint64_t got[64][STATES], want[64][STATES] = { { 0 } }, width;
	bool ok = true;

	for (int kind = 0; kind < TN_TIMELINE_KIND_COUNT; kind++) {
		int rows = totals(blob, (enum tn_timeline_kind) kind, ids, got,
			64, &width);

		if (rows < 0)
			return false;
		memset(want, 0, sizeof(want));
		for (size_t i = 0; i < count; i++) {
			const struct piece *p = &pieces[i];
			int64_t from = p->from < origin ? origin : p->from;

			if ((int) p->kind != kind || p->to <= from)
				continue;
			for (int r = 0; r < rows; r++)
				if (ids[r] == p->id)
					want[r][p->state] += (uint64_t)
						(p->to - from);
		}
		for (int r = 0; r < rows; r++)
			for (int s = 0; s < STATES; s++)
				if (got[r][s] + slack[r][s] < want[r][s] ||
				    got[r][s] > want[r][s] + slack[r][s] ||
				    (got[r][s] == 0) != (want[r][s] == 0)) {
					printf("#   kind %d row %" PRId64 " state "
						"%d: %" PRIu64 " ns, not %"
						PRIu64 "\n", kind, ids[r], s,
						got[r][s], want[r][s]);
					ok = false;
				}
	}
	return ok;
}

static void test_known_grid(void)
{
	const int64_t o = 1000000, ms = 1000000;
	/* Thread 7: user mode for 40 ms, then blocked for 40; CPU 0: busy
	 * then idle; thread 9 waits from before the origin to 20 ms. */
	const struct piece pieces[] = {
		{ TN_TIMELINE_THREADS, 7, TN_THREAD_USER, o, o + 40 * ms },
		{ TN_TIMELINE_THREADS, 7, TN_THREAD_BLOCKED, o + 40 * ms,
			o + 80 * ms },
		{ TN_TIMELINE_CPUS, 0, TN_CPU_BUSY, o, o + 40 * ms },
		{ TN_TIMELINE_CPUS, 0, TN_CPU_IDLE, o + 40 * ms, o + 80 * ms },
		{ TN_TIMELINE_THREADS, 9, TN_THREAD_WAIT_CPU, 0, o + 20 * ms },
		/* irq 30 runs 5 us at 50 ms; softirq 3 is raised at 10 ms,
		 * runs 1 us at 30 ms. */
		{ TN_TIMELINE_IRQS, 30, TN_IRQ_ACTIVE, o + 50 * ms,
			o + 50 * ms + 5000 },
		{ TN_TIMELINE_SOFTIRQS, 3, TN_IRQ_RAISED, o + 10 * ms,
			o + 30 * ms },
		{ TN_TIMELINE_SOFTIRQS, 3, TN_IRQ_ACTIVE, o + 30 * ms,
			o + 30 * ms + 1000 },
	};
	GBytes *blob = build(pieces, G_N_ELEMENTS(pieces), o);
	struct tn_timeline_grid *grid = NULL;
	struct tn_error err;
	int status;

	tap_ok(keeps_all(blob, pieces, G_N_ELEMENTS(pieces), o),
		"every ns added is kept, within its rounding (before the "
		"origin: left out)");
	tap_ok(tn_timeline_summary_grid(blob, TN_TIMELINE_THREADS, o,
		o + 80 * ms, 4, &grid, &err) == 0 && grid,
		"a grid of 4 columns over 80 ms");
	if (grid && grid->row_count == 2) {
		tap_int_eq(grid->rows[0].id, 7, "threads by id: 7 first");
		tap_str_eq(grid->rows[0].letters, "UUBB", "7: user, blocked");
		tap_str_eq(grid->rows[0].name, "worker", "7's name");
		tap_int_eq(grid->rows[0].ppid, 9, "7's parent: the last one");
		tap_int_eq(grid->rows[1].ppid, 0, "9's parent: not known");
		tap_str_eq(grid->rows[1].letters, "W...",
			"9: waits, then nothing");
		tap_ok(grid->rows[0].on_cpu_ns > 40 * ms - 1000 &&
			grid->rows[0].on_cpu_ns < 40 * ms + 1000,
			"7's time on a CPU: 40 ms, within a microsecond (%"
			PRId64 " ns)", grid->rows[0].on_cpu_ns);
		tap_ok(grid->summary_ns > 0 && grid->summary_ns <= ms,
			"made from the summary, its buckets said");
	} else {
		tap_ok(false, "two threads (got %zu)", grid ?
			grid->row_count : 0);
	}
	tn_timeline_grid_destroy(grid);
	/* Inside the trace, columns of 10 ms over runs of buckets that
	 * cross them. */
	tap_ok(tn_timeline_summary_grid(blob, TN_TIMELINE_THREADS, o + 30 * ms,
		o + 60 * ms, 3, &grid, &err) == 0 && grid &&
		grid->row_count == 1 && strcmp(grid->rows[0].letters,
		"UBB") == 0, "30 to 60 ms: 7 user, then blocked; 9, done at "
		"20 ms, has no row");
	tn_timeline_grid_destroy(grid);
	grid = NULL;
	/* (made before tap_ok: its message reads the grid) */
	status = tn_timeline_summary_grid(blob, TN_TIMELINE_THREADS,
		o + 35 * ms, o + 47 * ms, 6, &grid, &err);
	tap_ok(status == 0 && grid && grid->row_count >= 1 &&
		strcmp(grid->rows[0].letters, "UUUBBB") == 0, "35 to 47 ms in "
		"2 ms: user until 40, then blocked (%s)", grid &&
		grid->row_count ? grid->rows[0].letters : "-");
	tn_timeline_grid_destroy(grid);
	tap_ok(tn_timeline_summary_grid(blob, TN_TIMELINE_CPUS, o,
		o + 80 * ms, 2, &grid, &err) == 0 && grid &&
		grid->row_count == 3 && strcmp(grid->rows[0].letters,
		"R-") == 0, "the CPU: busy, then idle");
	if (grid && grid->row_count == 3) {
		tap_ok(grid->rows[1].kind == TN_TIMELINE_IRQS &&
			grid->rows[1].id == 30 &&
			strcmp(grid->rows[1].letters, ".I") == 0,
			"then irq 30: 5 us in the second half, seen (I)");
		tap_str_eq(grid->rows[1].name, "eth0",
			"irq 30's name: its handler's, the first given");
		tap_ok(grid->rows[2].kind == TN_TIMELINE_SOFTIRQS &&
			grid->rows[2].id == 3 &&
			strcmp(grid->rows[2].letters, "S.") == 0,
			"then softirq 3: running beats 20 ms raised (S)");
	}
	tn_timeline_grid_destroy(grid);
	tap_ok(tn_timeline_summary_grid(blob, TN_TIMELINE_THREADS, o,
		o + 10000, 200, &grid, &err) == 0 && !grid,
		"10 us in 200 columns: too fine for it, no grid");
	g_bytes_unref(blob);
}

/* Random pieces, in order for each row and state (a state's time in a
 * bucket is a bucket at most), the rows' states mixed (each row's
 * states overlap, as in a damaged trace, and come back in time), some
 * long, over a span that makes the grid widen many times. */
static size_t random_pieces(GRand *rand, struct piece *pieces, size_t most,
		int64_t origin)
{
	int64_t now[TN_TIMELINE_KIND_COUNT][6][STATES];

	for (size_t k = 0; k < TN_TIMELINE_KIND_COUNT; k++)
		for (size_t id = 0; id < 6; id++)
			for (size_t s = 0; s < STATES; s++)
				now[k][id][s] = origin;
	for (size_t i = 0; i < most; i++) {
		struct piece *p = &pieces[i];
		int64_t len = g_rand_int_range(rand, 1, 5000), *at;

		if (g_rand_int_range(rand, 0, 50) == 0)
			len = g_rand_int_range(rand, 1, 1 << 24);
		p->kind = g_rand_boolean(rand) ? TN_TIMELINE_THREADS :
			TN_TIMELINE_CPUS;
		p->id = g_rand_int_range(rand, 0, 6);
		p->state = (unsigned) g_rand_int_range(rand, 0,
			p->kind == TN_TIMELINE_THREADS ? STATES :
			TN_CPU_STATE_COUNT);
		at = &now[p->kind][p->id][p->state];
		p->from = *at + g_rand_int_range(rand, 0, 3000);
		p->to = p->from + len;
		*at = p->to;
	}
	return most;
}

static void test_any_order(void)
{
	GRand *rand = g_rand_new_with_seed(29);
	enum { COUNT = 20000 };
	struct piece *pieces = g_new(struct piece, COUNT);
	struct piece *backwards = g_new(struct piece, COUNT);
	const int64_t o = INT64_C(1700000000000000000);
	GBytes *a, *b;
	uint64_t width;
	int64_t ids[8];
	uint64_t ns[8][STATES];
	int rows;

	random_pieces(rand, pieces, COUNT, o);
	for (size_t i = 0; i < COUNT; i++)
		backwards[i] = pieces[COUNT - 1 - i];
	a = build(pieces, COUNT, o);
	b = build(backwards, COUNT, o);
	tap_ok(keeps_all(a, pieces, COUNT, o), "20000 random pieces: every "
		"ns kept through the widenings, within its rounding");
	rows = totals(a, TN_TIMELINE_THREADS, ids, ns, 8, &width);
	tap_ok(rows > 0 && width > 1024, "the grid widened (buckets of %"
		PRIu64 " ns)", width);
	tap_ok(keeps_all(b, pieces, COUNT, o),
		"the same pieces from the last: every ns kept, within its "
		"rounding");
	{
		struct tn_timeline_grid *ga = NULL, *gb = NULL;
		struct tn_error err;
		bool same;

		if (tn_timeline_summary_grid(a, TN_TIMELINE_THREADS, o, o +
			(int64_t) 40000000, 20, &ga, &err))
			printf("#   %s\n", err.message);
		tn_timeline_summary_grid(b, TN_TIMELINE_THREADS, o, o +
			(int64_t) 40000000, 20, &gb, &err);
		same = ga && gb && ga->row_count == gb->row_count &&
			ga->row_count > 0;
		/* The same letters; the times on a CPU within their
		 * rounding (0.1%). */
		for (size_t r = 0; same && r < ga->row_count; r++)
			same = strcmp(ga->rows[r].letters,
				gb->rows[r].letters) == 0 &&
				llabs(ga->rows[r].on_cpu_ns -
				gb->rows[r].on_cpu_ns) <=
				ga->rows[r].on_cpu_ns / 1000;
		tap_ok(same, "in either order, the same grid");
		for (size_t r = 0; !same && ga && gb && r < ga->row_count &&
		     r < gb->row_count; r++)
			printf("#   %s %s %lld %lld\n", ga->rows[r].letters,
				gb->rows[r].letters,
				(long long) ga->rows[r].on_cpu_ns,
				(long long) gb->rows[r].on_cpu_ns);
		tn_timeline_grid_destroy(ga);
		tn_timeline_grid_destroy(gb);
	}
	g_bytes_unref(a);
	g_bytes_unref(b);
	g_free(pieces);
	g_free(backwards);
	g_rand_free(rand);
}

static void test_cell_bound(void)
{
	/* A trace of 12.8 MB: 100,000 cells. */
	struct tn_timeline_summary_builder *b =
		tn_timeline_summary_builder_new(0, 12800000);
	GBytes *blob;
	enum { ROWS = 20 };
	uint64_t width, sum = 0, rounding = 0;
	int64_t ids[ROWS];
	uint64_t ns[ROWS][STATES];
	int rows;

	/* 20 rows with a piece in each of 60000 first buckets: more cells
	 * than the bound, which widens the grid. */
	for (int64_t t = 0; t < 60000; t++)
		for (int r = 0; r < ROWS; r++)
			tn_timeline_summary_add(b, TN_TIMELINE_CPUS, r,
				TN_CPU_IRQ, t * 1024 + r * 10,
				t * 1024 + r * 10 + 5);
	blob = tn_timeline_summary_save(b);
	rows = totals(blob, TN_TIMELINE_CPUS, ids, ns, ROWS, &width);
	for (int r = 0; r < rows; r++) {
		sum += ns[r][TN_CPU_IRQ];
		rounding += slack[r][TN_CPU_IRQ];
	}
	tap_ok(rows == ROWS && sum + rounding >= (uint64_t) 60000 * ROWS * 5 &&
		sum <= (uint64_t) 60000 * ROWS * 5 + rounding,
		"1.2 M short pieces: all their time kept, within its rounding "
		"(%" PRIu64 " ns)", sum);
	tap_ok(width >= 2048 && g_bytes_get_size(blob) < (gsize) 8 * 100000,
		"the trace's share (100,000 cells) widened the grid (buckets "
		"of %" PRIu64 " ns, %zu bytes)", width, (size_t)
		g_bytes_get_size(blob));
	g_bytes_unref(blob);
	tn_timeline_summary_builder_free(b);
}

/* The edges of a span (the buckets that hold its begin and its end
 * count) and the shortest times: seen, after widenings too. */
static void test_edges(void)
{
	const int64_t w = 16384;	/* the first buckets' width */
	const struct piece pieces[] = {
		/* 3 waits until 100 ns into bucket 5, where a span begins;
		 * 4 runs 10 ns in bucket 13, where it ends. */
		{ TN_TIMELINE_THREADS, 3, TN_THREAD_WAIT_CPU, 0, 5 * w + 100 },
		{ TN_TIMELINE_THREADS, 4, TN_THREAD_USER, 13 * w + 50,
			13 * w + 60 },
		{ TN_TIMELINE_THREADS, 4, TN_THREAD_BLOCKED, 2 * w, 3 * w },
	};
	GBytes *blob = build(pieces, G_N_ELEMENTS(pieces), 0);
	struct tn_timeline_summary_builder *b;
	struct tn_timeline_grid *grid = NULL;
	struct tn_error err;
	int status;

	status = tn_timeline_summary_grid(blob, TN_TIMELINE_THREADS, 5 * w,
		13 * w + 1000, 4, &grid, &err);
	tap_ok(status == 0 && grid &&
		grid->row_count == 2 && strcmp(grid->rows[0].letters,
		"W...") == 0 && strcmp(grid->rows[1].letters, "...U") == 0,
		"the bucket that holds a span's begin is in its first column, "
		"the one that holds its end in its last, 10 ns seen (%s, %s)",
		grid && grid->row_count > 0 ? grid->rows[0].letters : "-",
		grid && grid->row_count > 1 ? grid->rows[1].letters : "-");
	tn_timeline_grid_destroy(grid);
	g_bytes_unref(blob);
	/* 10 ns of irq 5 in an odd bucket, then more cells than a trace
	 * of no bytes has: the grid widens. */
	b = tn_timeline_summary_builder_new(0, 0);
	tn_timeline_summary_add(b, TN_TIMELINE_IRQS, 5, TN_IRQ_ACTIVE,
		3 * w + 7, 3 * w + 17);
	/* (the next one puts it in its cell before the widenings) */
	tn_timeline_summary_add(b, TN_TIMELINE_IRQS, 5, TN_IRQ_ACTIVE,
		30000 * w, 30000 * w + 10);
	for (int64_t t = 0; t < 40000; t++)
		tn_timeline_summary_add(b, TN_TIMELINE_CPUS, t % 4, TN_CPU_IRQ,
			t * w + 10, t * w + 20);
	blob = tn_timeline_summary_save(b);
	tn_timeline_summary_builder_free(b);
	grid = NULL;
	status = tn_timeline_summary_grid(blob, TN_TIMELINE_CPUS, 0,
		40000 * w, 4, &grid, &err);
	tap_ok(status == 0 && grid && grid->row_count == 5 &&
		grid->summary_ns > w && strcmp(grid->rows[4].letters,
		"I..I") == 0, "widened (buckets of %" PRId64 " ns): 10 ns of "
		"an irq still seen (%s)", grid ? grid->summary_ns : 0,
		grid && grid->row_count == 5 ? grid->rows[4].letters : "-");
	tn_timeline_grid_destroy(grid);
	g_bytes_unref(blob);
}

static void test_damaged(void)
{
	const struct piece pieces[] = {
		{ TN_TIMELINE_THREADS, 7, TN_THREAD_USER, 0, 5000000 },
		{ TN_TIMELINE_THREADS, 8, TN_THREAD_BLOCKED, 1000, 9000000 },
		{ TN_TIMELINE_CPUS, 1, TN_CPU_BUSY, 0, 9000000 },
	};
	GBytes *blob = build(pieces, G_N_ELEMENTS(pieces), 0);
	gsize size;
	const uint8_t *data = g_bytes_get_data(blob, &size);
	int cpus_refused = 0, threads_wrong = 0;

	for (gsize cut = 0; cut < size; cut++) {
		GBytes *part = g_bytes_new(data, cut);
		struct tn_timeline_grid *grid = NULL;
		struct tn_error err;

		if (tn_timeline_summary_grid(part, TN_TIMELINE_CPUS, 0,
				9000000, 4, &grid, &err) != 0 && !grid)
			cpus_refused++;
		tn_timeline_grid_destroy(grid);
		grid = NULL;
		/* The threads come first: a cut after them still has them
		 * all. */
		if (tn_timeline_summary_grid(part, TN_TIMELINE_THREADS, 0,
				9000000, 4, &grid, &err) == 0 &&
		    (!grid || grid->row_count != 2))
			threads_wrong++;
		tn_timeline_grid_destroy(grid);
		g_bytes_unref(part);
	}
	tap_int_eq(cpus_refused, (int) size,
		"every cut of the blob: the CPUs' grid refused");
	tap_int_eq(threads_wrong, 0, "every cut: the threads' grid refused "
		"or whole");
	g_bytes_unref(blob);
}

int main(void)
{
	test_known_grid();
	test_any_order();
	test_cell_bound();
	test_edges();
	test_damaged();
	return tap_done();
}
