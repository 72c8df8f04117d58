/* test-state-history.c - the state history on generated kernel traces:
 * a snapshot and a replay give what a replay from the trace's start
 * gives, at random events and in any order; the state pass keeps its
 * budget (the share of the trace, the gaps); the snapshots' save and
 * load (round trip, every truncation, flipped bytes, bad order behind a
 * good checksum) and in the index cache; a querier that goes on forward
 * gives the same answers; where the intervals end (full and single
 * queries); globs and the sort order; errors (an unknown attribute, a
 * time out of range, past the last event, a cancel). */
#include <glib.h>
#include <inttypes.h>
#include <string.h>

#include "gen.h"
#include "src/core/bytes.h"
#include "tap.h"
#include "tracenav/cache.h"
#include "tracenav/state-history.h"
#include "tracenav/state-provider.h"

/* ---- helpers ---- */

/* The positions of every event of the trace, in order. */
static GArray *read_positions(const struct tn_trace *trace)
{
	GArray *positions = g_array_new(FALSE, FALSE,
		sizeof(struct tn_position));
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return positions;
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		g_array_append_val(positions, row.pos);
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	return positions;
}

static struct tn_position position(GArray *positions, size_t i)
{
	return g_array_index(positions, struct tn_position, i);
}

static const struct tn_position *pos_at(GArray *positions, size_t i)
{
	return &g_array_index(positions, struct tn_position, i);
}

static bool stamps_equal(const struct tn_state_stamp *a,
		const struct tn_state_stamp *b)
{
	return a->ns == b->ns && a->has_pos == b->has_pos && (!a->has_pos ||
		tn_position_compare(&a->pos, &b->pos) == 0);
}

/* Whether two results hold the same attributes, values and starts;
 * why says the first difference. */
static bool results_equal(const struct tn_state_result *a,
		const struct tn_state_result *b, char *why, size_t len)
{
	if (a->count != b->count) {
		snprintf(why, len, "%zu attributes, not %zu", a->count,
			b->count);
		return false;
	}
	for (size_t i = 0; i < a->count; i++) {
		const struct tn_state_entry *x = &a->entries[i];
		const struct tn_state_entry *y = &b->entries[i];

		if (strcmp(x->path, y->path) != 0 || x->depth != y->depth ||
		    !tn_state_value_equal(&x->value, &y->value) ||
		    !stamps_equal(&x->start, &y->start)) {
			snprintf(why, len, "entry %zu: %s vs %s", i, x->path,
				y->path);
			return false;
		}
	}
	return true;
}

static struct tn_state_result *query(struct tn_state_querier *querier,
		const struct tn_position *pos, uint64_t horizon,
		const char *glob)
{
	struct tn_state_query_options options = { horizon, glob, NULL };
	struct tn_state_result *result = NULL;
	struct tn_error err;

	if (tn_state_querier_query(querier, pos, &options, &result, &err)) {
		printf("# query at %" PRId64 ":%" PRIu64 ": %s\n", pos->ns,
			pos->tie, err.message);
		return NULL;
	}
	return result;
}

/* Run the state pass to its end. */
static struct tn_state_snapshots *run_pass(const struct tn_trace *trace,
		const struct tn_index *index, const struct tn_state_budget *budget)
{
	struct tn_state_snapshots *snapshots = tn_state_snapshots_create();
	struct tn_job_progress progress;
	struct tn_job *job;
	struct tn_error err;

	if (tn_state_pass_start(trace, index, budget, snapshots, &job, &err)) {
		printf("# %s\n", err.message);
		return snapshots;
	}
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE)
		printf("# the pass ended in state %d: %s\n", progress.state,
			progress.message);
	tn_job_destroy(job);
	return snapshots;
}

static struct tn_index *build_index(const struct tn_trace *trace)
{
	struct tn_index *index;
	struct tn_job *job;
	struct tn_error err;

	if (tn_index_build_start(trace, 1, &job, &err))
		return NULL;
	tn_job_wait(job);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	return index;
}

/* ---- tests ---- */

static void test_names_and_globs(void)
{
	static const char *const sorted[] = { "0", "2", "10", "0100", "x",
		"\xc3\xa9" };

	for (size_t i = 0; i + 1 < G_N_ELEMENTS(sorted); i++)
		tap_int_eq(tn_state_name_compare(sorted[i], sorted[i + 1]), -1,
			"name %s sorts before %s", sorted[i], sorted[i + 1]);
	tap_int_eq(tn_state_name_compare("007", "7"), 0,
		"007 and 7 are the same number");
	tap_ok(tn_state_path_match("CPUs/*/Current_thread",
		"CPUs/3/Current_thread"), "* matches a component");
	tap_ok(!tn_state_path_match("CPUs/*", "CPUs/3/Current_thread"),
		"* does not cross a '/'");
	tap_ok(tn_state_path_match("CPUs/**", "CPUs/3/Current_thread"),
		"** crosses '/'");
	tap_ok(tn_state_path_match("**/Status", "Threads/42/Status") &&
		tn_state_path_match("**Status", "CPUs/1/Status") &&
		!tn_state_path_match("**/Status", "Threads/42/Statuses"),
		"** at the start");
	tap_ok(tn_state_path_match("Threads/4?/S*s", "Threads/42/Status") &&
		!tn_state_path_match("Threads/4?/S*s", "Threads/420/Status"),
		"? is one character");
	tap_ok(tn_state_path_match("*", "CPUs") &&
		!tn_state_path_match("*", "CPUs/1") &&
		tn_state_path_match("CPUs", "CPUs") &&
		!tn_state_path_match("CPUs", "CPUs/1") &&
		tn_state_path_match("", "") && !tn_state_path_match("", "a"),
		"whole paths only");
	tap_ok(tn_state_path_match("a*b*c", "aXbYbZc") &&
		!tn_state_path_match("a*b*c", "aXb/c"),
		"backtracking over several stars");
}

#define PICKS 40

/* Random events, and the first and the last ones, and the first
 * snapshot's and the one before it. */
static void pick_positions(GArray *positions,
		const struct tn_state_snapshots *snapshots,
		struct tn_position *picks)
{
	GRand *rand = g_rand_new_with_seed(11);

	for (size_t i = 0; i < PICKS; i++)
		picks[i] = position(positions, (size_t) g_rand_int_range(rand,
			0, (gint32) positions->len));
	picks[0] = position(positions, 0);
	picks[1] = position(positions, positions->len - 1);
	if (tn_state_snapshots_get_count(snapshots) > 0) {
		struct tn_state_snapshot_info info;

		tn_state_snapshots_get(snapshots, 0, &info, NULL);
		picks[2] = info.pos;
		picks[3] = position(positions, info.rank - 1);
	}
	g_rand_free(rand);
}

/* Whether result a, of a query at pick, equals a replay from the start
 * by forward (a querier without snapshots); says why not. */
static bool equals_replay(struct tn_state_querier *forward,
		const struct tn_state_result *a, const struct tn_position *pick)
{
	struct tn_state_result *b;
	char why[256] = "";
	bool same;

	tn_state_querier_reset(forward);
	b = query(forward, pick, 0, NULL);
	same = a && b && results_equal(a, b, why, sizeof(why));
	if (!same)
		printf("# at %" PRId64 ":%" PRIu64 ": %s\n", pick->ns,
			pick->tie, why);
	tn_state_result_destroy(b);
	return same;
}

/* Snapshot + replay equals a replay from the start, at random events
 * queried in random order, with the reader at each snapshot opened on
 * open_threads threads. */
static void test_random_order(const struct tn_trace *trace,
		GArray *positions, const struct tn_state_snapshots *snapshots,
		unsigned open_threads)
{
	struct tn_state_querier *with, *forward;
	struct tn_position picks[PICKS];
	struct tn_error err;
	size_t same = 0, from_snapshot = 0, split = 0;

	tn_state_querier_create(trace, snapshots, &with, &err);
	tn_state_querier_set_open_threads(with, open_threads);
	tn_state_querier_create(trace, NULL, &forward, &err);
	pick_positions(positions, snapshots, picks);
	for (size_t i = 0; i < PICKS; i++) {
		struct tn_state_result *a = query(with, &picks[i], 0, NULL);
		struct tn_state_query_stats stats;

		tn_state_querier_get_stats(with, &stats);
		split += stats.open_parts == open_threads;
		same += equals_replay(forward, a, &picks[i]);
		from_snapshot += a && a->from_snapshot;
		tn_state_result_destroy(a);
	}
	tap_int_eq(same, PICKS, "snapshot + replay equals a replay from the "
		"start at %d random events (in random order), the reader "
		"opened on %u thread(s)", PICKS, open_threads);
	tap_ok(from_snapshot >= PICKS / 2, "most came from a snapshot (%zu)",
		from_snapshot);
	tap_ok(split >= from_snapshot / 2 && split > 0, "%zu of them opened "
		"the reader in %u part(s)", split, open_threads);
	tn_state_querier_destroy(with);
	tn_state_querier_destroy(forward);
}

/* Queriers one after the other that keep their states, each taking the
 * state the last one gave back (at another random event): every query
 * equals a replay from the start.  Then a kept state whose attributes
 * are not the pass's (given back against the precondition): the
 * restore starts again from empty, and the query is still right. */
/* Of the picks, those test_kept_states() queries (each costs a replay
 * from the start). */
#define KEPT_PICKS 16

static void test_kept_states(const struct tn_trace *trace,
		GArray *positions, const struct tn_state_snapshots *snapshots)
{
	struct tn_state_querier *forward;
	struct tn_position picks[PICKS];
	struct tn_error err;
	struct tn_state *kept, *foreign;
	size_t same = 0, reused = 0;

	tn_state_querier_create(trace, NULL, &forward, &err);
	pick_positions(positions, snapshots, picks);
	for (size_t i = 0; i < KEPT_PICKS; i++) {
		struct tn_state_querier *with;
		struct tn_state_result *a;

		/* What the last querier gave back, if anything. */
		kept = tn_state_snapshots_take_state(snapshots);
		reused += tn_state_get_attribute_count(kept) > 0;
		tn_state_snapshots_give_state(snapshots, kept);
		tn_state_querier_create(trace, snapshots, &with, &err);
		tn_state_querier_keep_states(with);
		a = query(with, &picks[i], 0, NULL);
		tn_state_querier_destroy(with);
		same += equals_replay(forward, a, &picks[i]);
		tn_state_result_destroy(a);
	}
	tap_int_eq(same, KEPT_PICKS, "queriers one after the other, each "
		"with the state the last one kept, equal a replay from the "
		"start at %d random events", KEPT_PICKS);
	tap_ok(reused >= KEPT_PICKS - 1, "%zu of them took a kept state",
		reused);

	/* Empty the kept ones, then keep one made by hand. */
	kept = tn_state_snapshots_take_state(snapshots);
	foreign = tn_state_snapshots_take_state(snapshots);
	tn_state_destroy(kept);
	tn_state_destroy(foreign);
	foreign = tn_state_create();
	for (int i = 0; i < 50; i++) {
		char path[32];

		snprintf(path, sizeof(path), "Elsewhere/%d/Name", i);
		tn_state_quark_add(foreign, TN_STATE_ROOT, path);
	}
	tn_state_snapshots_give_state(snapshots, foreign);
	{
		struct tn_state_querier *with;
		struct tn_state_result *a;

		tn_state_querier_create(trace, snapshots, &with, &err);
		tn_state_querier_keep_states(with);
		a = query(with, &picks[PICKS / 2], 0, NULL);
		tap_ok(equals_replay(forward, a, &picks[PICKS / 2]),
			"a kept state of other attributes: the query is still "
			"right");
		tn_state_result_destroy(a);
		tn_state_querier_destroy(with);
	}
	tn_state_querier_destroy(forward);
}

/* A querier going forward agrees with fresh ones, with snapshots or
 * without. */
static void test_forward(const struct tn_trace *trace, GArray *positions,
		const struct tn_state_snapshots *snapshots)
{
	struct tn_state_querier *with, *forward, *fresh;
	struct tn_position picks[PICKS];
	struct tn_error err;
	size_t n = PICKS, same = 0, same_fresh = 0;
	size_t continued = 0, fresh_checked = 0;
	char why[256] = "";

	tn_state_querier_create(trace, snapshots, &with, &err);
	tn_state_querier_create(trace, NULL, &forward, &err);
	tn_state_querier_create(trace, NULL, &fresh, &err);
	pick_positions(positions, snapshots, picks);

	/* Forward, one querier going on from one event to the next. */
	qsort(picks, n, sizeof(picks[0]), (int (*)(const void *,
		const void *)) tn_position_compare);
	tn_state_querier_reset(forward);
	for (size_t i = 0; i < n; i++) {
		struct tn_state_result *a = query(forward, &picks[i], 0, NULL);
		struct tn_state_result *b = NULL;
		struct tn_state_query_stats stats;

		tn_state_querier_get_stats(forward, &stats);
		if (i % 8 == 0) {
			tn_state_querier_reset(fresh);
			b = query(fresh, &picks[i], 0, NULL);
			fresh_checked++;
			same_fresh += a && b && results_equal(a, b, why,
				sizeof(why));
		}
		/* The first starts from the trace's start. */
		if (i > 0 && !stats.continued)
			printf("# query %zu did not go on\n", i);
		continued += i > 0 && stats.continued;
		tn_state_result_destroy(a);
		tn_state_result_destroy(b);
	}
	tap_int_eq(same_fresh, fresh_checked, "a querier going forward gives "
		"what a fresh one gives");
	tap_int_eq(continued, n - 1, "without snapshots, every query forward "
		"goes on from the last");

	/* Forward with snapshots: going on when close, from a snapshot
	 * when far; the same answers either way. */
	same = 0;
	tn_state_querier_reset(with);
	for (size_t i = 0; i < n; i++) {
		struct tn_state_result *a = query(with, &picks[i], 0, NULL);
		struct tn_state_result *b = query(fresh, &picks[i], 0, NULL);

		same += a && b && results_equal(a, b, why, sizeof(why));
		tn_state_result_destroy(a);
		tn_state_result_destroy(b);
	}
	tap_int_eq(same, n, "with snapshots, going forward gives the same "
		"answers");
	tn_state_querier_destroy(with);
	tn_state_querier_destroy(forward);
	tn_state_querier_destroy(fresh);
}

/* With start_gap, a snapshot also comes once start_gap events passed
 * when a stream began a packet since the last one: at the first event
 * from the packet's start on. */
static void test_start_snapshots(const char *path,
		const struct tn_trace *trace, const struct tn_index *index)
{
	struct tn_state_budget starts = { 1.0, 5000, UINT64_MAX / 2, 1000 };
	struct tn_state_snapshots *snapshots = run_pass(trace, index,
		&starts);
	GArray *times = g_array_new(FALSE, FALSE, sizeof(int64_t));
	size_t count = tn_state_snapshots_get_count(snapshots);
	size_t early = 0, right = 0, next = 0;
	struct tn_position last = { INT64_MIN, 0 };
	uint64_t last_rank = 0;
	int64_t packets = 0;

	tn_seek_list_packet_starts(trace, times);
	for (guint i = 1; i < times->len; i++)
		if (g_array_index(times, int64_t, i - 1) >
		    g_array_index(times, int64_t, i))
			next = SIZE_MAX;
	/* All packets but the first of each stream (the plan's counts). */
	for (int cpu = 0; cpu < 4; cpu++) {
		char *key = g_strdup_printf("stream . channel0_%d", cpu);

		packets += gen_plan_value(path, key) - 1;
		g_free(key);
	}
	tap_ok(times->len > 10 && (int64_t) times->len == packets &&
		next == 0, "%u packet starts (the plan's packets but the "
		"first of each stream), sorted", times->len);
	for (size_t i = 0; i < count; i++) {
		struct tn_state_snapshot_info info;
		uint64_t gap;
		bool passed = false;

		tn_state_snapshots_get(snapshots, i, &info, NULL);
		gap = info.rank - last_rank;
		/* The starts passed since the last snapshot's event. */
		while (next < times->len &&
		       g_array_index(times, int64_t, next) <= info.pos.ns) {
			passed |= g_array_index(times, int64_t, next) >
				last.ns;
			next++;
		}
		if (gap >= starts.min_gap) {
			right++;
		} else if (gap >= starts.start_gap && passed) {
			right++;
			early++;
		}
		last = info.pos;
		last_rank = info.rank;
	}
	tap_ok(early > 0 && right == count, "%zu of %zu snapshots after a "
		"packet's start, start_gap events after the one before; the "
		"others min_gap", early, count);
	g_array_free(times, TRUE);
	tn_state_snapshots_destroy(snapshots);
}

/* The snapshots are where they say, within the budget. */
static void test_budget(const struct tn_trace *trace,
		const struct tn_index *index, GArray *positions)
{
	uint64_t stream_bytes = tn_trace_get_stream_bytes(trace);
	struct tn_state_budget shared = { 0.05, 1000, UINT64_MAX, 0 };
	struct tn_state_budget dense = { 1.0, 5000, UINT64_MAX / 2, 0 };
	struct tn_state_budget forced = { 0, 1000, 20000, 0 };
	struct tn_state_snapshots *snapshots;
	struct tn_state_snapshot_info info;
	struct tn_position reached;
	uint64_t rank, last = 0;
	size_t count, placed = 0, gaps = 0;

	snapshots = run_pass(trace, index, &shared);
	count = tn_state_snapshots_get_count(snapshots);
	tap_ok(count >= 2 && tn_state_snapshots_get_bytes(snapshots) <=
		shared.trace_share * (double) stream_bytes,
		"%zu snapshots, %" PRIu64 " bytes, within 5%% of the %" PRIu64
		" bytes of the trace", count,
		tn_state_snapshots_get_bytes(snapshots), stream_bytes);
	tap_ok(tn_state_snapshots_get_bytes(snapshots) >=
		shared.trace_share * (double) stream_bytes / 2,
		"and the budget is spent (at least half of it)");
	for (size_t i = 0; i < count; i++) {
		tn_state_snapshots_get(snapshots, i, &info, NULL);
		placed += info.rank < positions->len &&
			tn_position_compare(&info.pos, pos_at(positions,
				info.rank)) == 0;
		gaps += info.rank - last >= shared.min_gap;
		last = info.rank;
	}
	tap_int_eq(placed, count, "each snapshot is at the event of its rank");
	tap_int_eq(gaps, count, "min_gap events between snapshots at least");
	tap_ok(tn_state_snapshots_is_complete(snapshots) &&
		tn_state_snapshots_get_reached_rank(snapshots, &reached,
			&rank) && rank + 1 == positions->len &&
		tn_position_compare(&reached, pos_at(positions,
			positions->len - 1)) == 0,
		"complete, reached the last event");
	tn_state_snapshots_destroy(snapshots);

	snapshots = run_pass(trace, index, &dense);
	count = tn_state_snapshots_get_count(snapshots);
	gaps = 0;
	for (size_t i = 0; i < count; i++) {
		tn_state_snapshots_get(snapshots, i, &info, NULL);
		gaps += info.rank == (i + 1) * dense.min_gap;
	}
	tap_ok(count == (positions->len - 1) / dense.min_gap && gaps == count,
		"a large budget: one every min_gap events (%zu)", count);
	tn_state_snapshots_destroy(snapshots);

	/* Without the index: the events to come from the time range. */
	snapshots = run_pass(trace, NULL, &shared);
	tap_ok(tn_state_snapshots_get_count(snapshots) >= 2 &&
		tn_state_snapshots_get_bytes(snapshots) <=
		shared.trace_share * (double) stream_bytes,
		"without the index: %zu snapshots, %" PRIu64 " bytes, within "
		"the budget", tn_state_snapshots_get_count(snapshots),
		tn_state_snapshots_get_bytes(snapshots));
	tn_state_snapshots_destroy(snapshots);

	snapshots = run_pass(trace, index, &forced);
	count = tn_state_snapshots_get_count(snapshots);
	gaps = 0;
	for (size_t i = 0; i < count; i++) {
		tn_state_snapshots_get(snapshots, i, &info, NULL);
		gaps += info.rank == (i + 1) * forced.max_gap;
	}
	tap_ok(count == (positions->len - 1) / forced.max_gap && gaps == count,
		"no budget: one every max_gap events anyway (%zu)", count);
	tn_state_snapshots_destroy(snapshots);
}

static bool snapshots_equal(const struct tn_state_snapshots *a,
		const struct tn_state_snapshots *b)
{
	struct tn_position pa = { 0, 0 }, pb = { 0, 0 };
	uint64_t ra = 0, rb = 0;
	bool ha, hb;

	if (tn_state_snapshots_get_count(a) !=
	    tn_state_snapshots_get_count(b) ||
	    tn_state_snapshots_get_bytes(a) !=
	    tn_state_snapshots_get_bytes(b) ||
	    tn_state_snapshots_is_complete(a) !=
	    tn_state_snapshots_is_complete(b))
		return false;
	ha = tn_state_snapshots_get_reached_rank(a, &pa, &ra);
	hb = tn_state_snapshots_get_reached_rank(b, &pb, &rb);
	if (ha != hb || (ha && (ra != rb || tn_position_compare(&pa, &pb))))
		return false;
	for (size_t i = 0; i < tn_state_snapshots_get_count(a); i++) {
		struct tn_state_snapshot_info x, y;
		GBytes *bx, *by;
		bool same;

		tn_state_snapshots_get(a, i, &x, &bx);
		tn_state_snapshots_get(b, i, &y, &by);
		same = x.rank == y.rank && x.bytes == y.bytes &&
			tn_position_compare(&x.pos, &y.pos) == 0 &&
			g_bytes_equal(bx, by);
		g_bytes_unref(bx);
		g_bytes_unref(by);
		if (!same)
			return false;
	}
	return true;
}

/* Make the section's checksum right again, to reach the checks behind
 * it. */
static void reseal(uint8_t *data, size_t size)
{
	tn_bytes_set_le(data + size - 8, tn_bytes_hash64(data, size - 8), 8);
}

static bool load_fails(const uint8_t *data, size_t size, const char *why)
{
	struct tn_state_snapshots *out = NULL;
	struct tn_error err = { "" };

	if (tn_state_snapshots_load(data, size, &out, &err) == 0) {
		tn_state_snapshots_destroy(out);
		printf("# loaded\n");
		return false;
	}
	if (!strstr(err.message, "state snapshots damaged") ||
	    !strstr(err.message, why)) {
		printf("# %s\n", err.message);
		return false;
	}
	return true;
}

static void test_save_load(const struct tn_state_snapshots *snapshots)
{
	GByteArray *buf = g_byte_array_new();
	struct tn_state_snapshots *loaded = NULL, *empty;
	struct tn_error err;
	size_t cut, flips = 0, tried = 0;
	uint8_t *bad;
	/* The first snapshot's entry: after the 52-byte header. */
	size_t entry0 = 52;

	tn_state_snapshots_save(snapshots, buf);
	tap_ok(tn_state_snapshots_load(buf->data, buf->len, &loaded,
		&err) == 0 && snapshots_equal(snapshots, loaded),
		"save then load: the same %zu snapshots",
		tn_state_snapshots_get_count(snapshots));
	tn_state_snapshots_destroy(loaded);

	empty = tn_state_snapshots_create();
	g_byte_array_set_size(buf, 0);
	tn_state_snapshots_save(empty, buf);
	loaded = NULL;
	tap_ok(tn_state_snapshots_load(buf->data, buf->len, &loaded,
		&err) == 0 && snapshots_equal(empty, loaded),
		"an empty set round trips");
	tn_state_snapshots_destroy(loaded);
	tn_state_snapshots_destroy(empty);

	g_byte_array_set_size(buf, 0);
	tn_state_snapshots_save(snapshots, buf);
	for (cut = 0; cut < buf->len; cut += cut < 256 ? 1 : 997)
		if (!load_fails(buf->data, cut, ""))
			break;
	tap_ok(cut >= buf->len, "truncations are refused");
	bad = g_memdup2(buf->data, buf->len);
	for (size_t at = 0; at < buf->len; at += 1 + at / 3) {
		bad[at] ^= 0x20;
		flips += load_fails(bad, buf->len, "");
		tried++;
		bad[at] ^= 0x20;
	}
	tap_int_eq(flips, tried, "a flipped byte anywhere is refused (%zu "
		"places)", tried);
	bad[0] = 'X';
	tap_ok(load_fails(bad, buf->len, "bad magic"), "bad magic");
	bad[0] = buf->data[0];

	/* Behind a good checksum: the order of the snapshots, and sizes. */
	if (tn_state_snapshots_get_count(snapshots) >= 2) {
		tn_bytes_set_le(bad + entry0 + 16, UINT64_MAX - 1, 8);
		reseal(bad, buf->len);
		tap_ok(load_fails(bad, buf->len, "beyond the events reached") ||
			load_fails(bad, buf->len, "not after"),
			"a rank out of order, behind a good checksum");
		memcpy(bad, buf->data, buf->len);
		tn_bytes_set_le(bad + entry0 + 25, UINT64_MAX / 2, 8);
		reseal(bad, buf->len);
		tap_ok(load_fails(bad, buf->len, "bytes"),
			"a size beyond the section, behind a good checksum");
		memcpy(bad, buf->data, buf->len);
		tn_bytes_set_le(bad + 12, UINT64_MAX / 2, 8);
		reseal(bad, buf->len);
		tap_ok(load_fails(bad, buf->len, "snapshots in"),
			"a huge count: refused, not allocated");
	}
	g_free(bad);
	g_byte_array_free(buf, TRUE);

	/* A damaged change set, behind the section's checks: the restore
	 * fails and leaves the state empty. */
	if (tn_state_snapshots_get_count(snapshots) >= 2) {
		struct tn_state_snapshots *broken = tn_state_snapshots_create();
		struct tn_state *state = tn_state_create();
		struct tn_state_snapshot_info info;
		GBytes *blob, *flipped;
		uint8_t *bytes;
		gsize size;

		for (size_t i = 0; i < 2; i++) {
			tn_state_snapshots_get(snapshots, i, &info, &blob);
			if (i == 1) {
				bytes = g_bytes_unref_to_data(blob, &size);
				bytes[size / 2] ^= 0x40;
				blob = g_bytes_new_take(bytes, size);
			}
			flipped = blob;
			tn_state_snapshots_add(broken, &info.pos, info.rank,
				info.full, flipped);
			g_bytes_unref(flipped);
		}
		tap_ok(tn_state_snapshots_restore(broken, 0, -1, state,
			&err) == 0 && tn_state_get_attribute_count(state) > 0,
			"the first snapshot restores");
		tap_ok(tn_state_snapshots_restore(broken, 1, -1, state,
			&err) == -1 && strstr(err.message, "state delta damaged") &&
			tn_state_get_attribute_count(state) == 0,
			"a damaged change set fails, the state is empty: %s",
			err.message);
		tn_state_destroy(state);
		tn_state_snapshots_destroy(broken);
	}

	/* A blob whose count of attributes says 2^31 - 1: room was made
	 * for them before its checksum was checked, hundreds of GB (found
	 * by tests/fuzz/fuzz-state). */
	if (tn_state_snapshots_get_count(snapshots) >= 1) {
		struct tn_state_snapshots *broken = tn_state_snapshots_create();
		struct tn_state *state = tn_state_create();
		struct tn_state_snapshot_info info;
		GBytes *blob;
		uint8_t *bytes;
		gsize size;

		tn_state_snapshots_get(snapshots, 0, &info, &blob);
		bytes = g_bytes_unref_to_data(blob, &size);
		tn_bytes_set_le(bytes + 12, INT32_MAX, 4);
		blob = g_bytes_new_take(bytes, size);
		tn_state_snapshots_add(broken, &info.pos, info.rank, info.full,
			blob);
		g_bytes_unref(blob);
		tap_ok(tn_state_snapshots_restore(broken, 0, -1, state,
			&err) == -1 && strstr(err.message, "damaged") &&
			tn_state_get_attribute_count(state) == 0,
			"a blob claiming 2^31 attributes fails, without making "
			"room for them: %s", err.message);
		tn_state_destroy(state);
		tn_state_snapshots_destroy(broken);
	}
}

/* The index cache keeps the snapshots, and refuses a damaged section. */
/* The snapshots' section in a cache file of size bytes: its magic,
 * after its length, which takes it to the file's checksum. */
static char *find_section(char *data, size_t size)
{
	for (size_t at = 8; at + 4 + 8 <= size; at++)
		if (memcmp(data + at, "TNSH", 4) == 0 &&
		    tn_bytes_get_le((const uint8_t *) data + at - 8, 8) ==
		    size - 8 - at)
			return data + at;
	return NULL;
}

static void test_cache(const struct tn_trace *trace,
		const struct tn_index *index,
		const struct tn_state_snapshots *snapshots)
{
	char *dir = g_build_filename(gen_tmpdir(), "cache", NULL);
	struct tn_state_snapshots *loaded = NULL;
	struct tn_index *back = NULL;
	struct tn_error err = { "" };
	GDir *listing;
	const char *name;
	char *path = NULL, *section;
	gchar *data = NULL;
	gsize size = 0;

	tap_ok(tn_cache_save(trace, dir, index, snapshots, &err) == 0,
		"the index saved with the snapshots %s", err.message);
	tap_int_eq(tn_cache_load(trace, dir, &back, &loaded, &err),
		TN_CACHE_HIT, "and loaded %s", err.message);
	tap_ok(loaded && snapshots_equal(snapshots, loaded) && back &&
		back->event_count == index->event_count,
		"the same index and snapshots come back");
	/* They are slices of the file's mapping: a save, which renames a
	 * new file over it, leaves them whole. */
	tn_cache_save(trace, dir, index, NULL, &err);
	tap_ok(loaded && snapshots_equal(snapshots, loaded),
		"and stay the same once another save replaced the file");
	tn_index_destroy(back);
	tn_state_snapshots_destroy(loaded);
	back = NULL;
	tap_int_eq(tn_cache_load(trace, dir, &back, NULL, &err), TN_CACHE_HIT,
		"loaded without asking for the snapshots");
	tn_index_destroy(back);

	tn_cache_save(trace, dir, index, NULL, &err);
	{
		/* A load sets *snapshots even when there are none. */
		struct tn_state_snapshots *sentinel =
			tn_state_snapshots_create();

		loaded = sentinel;
		back = NULL;
		tap_ok(tn_cache_load(trace, dir, &back, &loaded, &err) ==
			TN_CACHE_HIT && !loaded, "saved without: none come "
			"back");
		tn_index_destroy(back);
		tn_state_snapshots_destroy(sentinel);
	}

	/* Damage the section behind a good file checksum: its own checksum
	 * is not computed again (the file's covers it), its fields are
	 * checked. */
	tn_cache_save(trace, dir, index, snapshots, &err);
	listing = g_dir_open(dir, 0, NULL);
	while (listing && (name = g_dir_read_name(listing)))
		if (g_str_has_suffix(name, ".index"))
			path = g_build_filename(dir, name, NULL);
	if (listing)
		g_dir_close(listing);
	if (path && g_file_get_contents(path, &data, &size, NULL) &&
	    (section = find_section(data, size))) {
		/* Its version, after its magic. */
		section[4] ^= 0x40;
		tn_bytes_set_le((uint8_t *) data + size - 8,
			tn_bytes_checksum64(data, size - 8), 8);
		g_file_set_contents(path, data, (gssize) size, NULL);
		back = NULL;
		loaded = NULL;
		tap_ok(tn_cache_load(trace, dir, &back, &loaded, &err) ==
			TN_CACHE_INVALID && !back && !loaded &&
			strstr(err.message, "state snapshots damaged"),
			"a damaged section makes the file invalid: %s",
			err.message);
	} else {
		tap_ok(false, "a cache file in %s", dir);
	}
	g_free(data);
	g_free(path);
	g_free(dir);
}

/* Where the intervals end, in a full query and in a single one. */
static void test_ends(const struct tn_trace *trace, GArray *positions,
		const struct tn_state_snapshots *snapshots)
{
	struct tn_state_querier *querier, *other;
	struct tn_position pos = position(positions, positions->len / 3);
	struct tn_state_result *result, *plain;
	size_t with_end = 0, checked = 0, agree = 0, looked = 0;
	struct tn_error err;
	char why[256] = "";

	tn_state_querier_create(trace, snapshots, &querier, &err);
	tn_state_querier_create(trace, snapshots, &other, &err);
	result = query(querier, &pos, 3000, NULL);
	plain = query(other, &pos, 0, NULL);
	tap_ok(result && plain && results_equal(result, plain, why,
		sizeof(why)), "reading on leaves the state at the event as it "
		"was %s", why);
	for (size_t i = 0; result && i < result->count; i++) {
		const struct tn_state_entry *e = &result->entries[i];
		struct tn_state_entry single;

		if (!e->has_end) {
			looked += e->end_after.has_pos &&
				tn_position_compare(&e->end_after.pos, &pos) > 0;
			continue;
		}
		with_end++;
		if (checked >= 25 || e->value.type == TN_STATE_NULL)
			continue;
		checked++;
		/* The single query finds the same end, and at the end the
		 * attribute starts anew: with another value, or null (then
		 * out of the result, unless something under it lives). */
		if (tn_state_querier_query_single(other, &pos, e->path,
				&single, &err) == 0) {
			struct tn_state_result *at = query(other, &e->end.pos,
				0, e->path);
			const struct tn_state_entry *after = at ?
				tn_state_result_find(at, e->path) : NULL;
			struct tn_state_entry gone = { 0 };

			if (at && !after && tn_state_querier_query_single(
					other, &e->end.pos, e->path, &gone,
					&err) == 0 &&
			    gone.value.type == TN_STATE_NULL)
				after = &gone;
			agree += single.has_end && stamps_equal(&single.end,
				&e->end) && tn_state_value_equal(&single.value,
				&e->value) && after && stamps_equal(&after->start,
				&e->end) && !tn_state_value_equal(&after->value,
				&e->value);
			tn_state_entry_fini(&gone);
			tn_state_result_destroy(at);
			tn_state_entry_fini(&single);
		} else {
			printf("# %s\n", err.message);
		}
	}
	tap_ok(with_end > 0 && looked + with_end == result->count,
		"%zu of %zu attributes end within 3000 events, the others say "
		"how far it looked", with_end, result ? result->count : 0);
	tap_int_eq(agree, checked, "the single query finds the same ends, "
		"where the value changes");
	tn_state_result_destroy(result);
	tn_state_result_destroy(plain);

	/* The next query forward uses the events read on: same answers. */
	{
		struct tn_position next = position(positions,
			positions->len / 3 + 1000);
		struct tn_state_result *a, *b;
		struct tn_state_query_stats stats;

		a = query(querier, &next, 0, NULL);
		tn_state_querier_get_stats(querier, &stats);
		tn_state_querier_reset(other);
		b = query(other, &next, 0, NULL);
		tap_ok(a && b && stats.continued && results_equal(a, b, why,
			sizeof(why)), "the next query goes on through the "
			"events read on %s", why);
		tn_state_result_destroy(a);
		tn_state_result_destroy(b);
	}
	tn_state_querier_destroy(querier);
	tn_state_querier_destroy(other);
}

static void test_glob_and_order(const struct tn_trace *trace,
		GArray *positions, const struct tn_state_snapshots *snapshots)
{
	struct tn_position pos = position(positions, positions->len / 2);
	struct tn_state_querier *querier;
	struct tn_state_result *all, *cpus;
	struct tn_error err;
	size_t want = 0, ordered = 0, parents = 0;

	tn_state_querier_create(trace, snapshots, &querier, &err);
	all = query(querier, &pos, 0, NULL);
	cpus = query(querier, &pos, 0, "CPUs/*/Current_thread");
	for (size_t i = 0; all && i < all->count; i++) {
		const struct tn_state_entry *e = &all->entries[i];

		want += tn_state_path_match("CPUs/*/Current_thread", e->path);
		if (i > 0) {
			/* Parents before children, siblings in order. */
			const struct tn_state_entry *p = &all->entries[i - 1];

			ordered += e->depth <= p->depth + 1;
		}
		if (e->parent == TN_STATE_ROOT) {
			parents += e->depth == 0;
		} else {
			char *parent = g_strndup(e->path,
				(gsize) (strrchr(e->path, '/') - e->path));
			const struct tn_state_entry *p =
				tn_state_result_find(all, parent);

			parents += p && p < e && p->quark == e->parent &&
				p->depth + 1 == e->depth;
			g_free(parent);
		}
	}
	tap_ok(all && all->count > 10 && ordered == all->count - 1 &&
		parents == all->count, "%zu attributes in tree order",
		all ? all->count : 0);
	tap_ok(cpus && cpus->count == want && want >= 1,
		"the glob keeps the %zu CPUs/*/Current_thread", want);
	if (cpus && cpus->count >= 2) {
		size_t increasing = 0;

		for (size_t i = 1; i < cpus->count; i++)
			increasing += atoi(cpus->entries[i - 1].path + 5) <
				atoi(cpus->entries[i].path + 5);
		tap_int_eq(increasing, cpus->count - 1,
			"CPUs in the order of their numbers");
	}
	if (all && all->count > 0) {
		const struct tn_state_entry *e = &all->entries[all->count / 2];

		tap_ok(tn_state_result_find(all, e->path) == e &&
			!tn_state_result_find(all, "No/Such"),
			"find by path");
	}
	tap_str_eq(all ? all->providers : "", "kernel",
		"the kernel provider answered");
	tn_state_result_destroy(all);
	tn_state_result_destroy(cpus);
	tn_state_querier_destroy(querier);
}

struct cancel_data {
	const struct tn_trace *trace;
	struct tn_position pos;
	int status;
	struct tn_error err;
};

static int run_cancelled_query(struct tn_job *job, void *data,
		struct tn_error *err)
{
	struct cancel_data *cancel = data;
	struct tn_state_querier *querier;
	struct tn_state_result *result = NULL;

	(void) err;
	while (!tn_job_is_cancelled(job))
		g_usleep(1000);
	tn_state_querier_create(cancel->trace, NULL, &querier, &cancel->err);
	cancel->status = tn_state_querier_query(querier, &cancel->pos, NULL,
		&result, &cancel->err);
	tn_state_result_destroy(result);
	tn_state_querier_destroy(querier);
	return cancel->status;
}

static void test_errors(const struct tn_trace *trace, GArray *positions,
		const struct tn_state_snapshots *snapshots)
{
	static const struct tn_job_class cancel_class = {
		"query", run_cancelled_query, NULL, NULL };
	struct tn_state_querier *querier;
	struct tn_position first = position(positions, 0);
	struct tn_position last = position(positions, positions->len - 1);
	struct tn_position before = { first.ns - 1, 0 };
	struct tn_position past = { last.ns + 1, 0 };
	struct tn_position middle = position(positions, positions->len / 2);
	struct tn_state_result *result = NULL;
	struct tn_state_entry entry;
	struct cancel_data cancel = { trace, last, 0, { "" } };
	struct tn_job_progress progress;
	struct tn_error err = { "" };
	struct tn_job *job;

	tn_state_querier_create(trace, snapshots, &querier, &err);
	tap_ok(tn_state_querier_query(querier, &before, NULL, &result,
		&err) == -1 && strstr(err.message, "out of range"),
		"before the first event: %s", err.message);
	tap_ok(tn_state_querier_query(querier, &past, NULL, &result,
		&err) == -1 && strstr(err.message, "no event at"),
		"past the last event: %s", err.message);
	tap_ok(tn_state_querier_query_single(querier, &middle, "CPUs/999/X",
		&entry, &err) == -1 && strstr(err.message,
		"no attribute CPUs/999/X in the state at"),
		"an unknown attribute: %s", err.message);
	result = query(querier, &middle, 0, NULL);
	tap_ok(result != NULL, "and the querier still answers after errors");
	tn_state_result_destroy(result);
	tn_state_querier_destroy(querier);

	tn_job_start(&cancel_class, &cancel, &job, &err);
	tn_job_cancel(job);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tap_ok(cancel.status == -1 && strcmp(cancel.err.message,
		"cancelled") == 0 && progress.state == TN_JOB_CANCELLED,
		"a query in a cancelled job stops: %s", cancel.err.message);
	tn_job_destroy(job);
}

int main(void)
{
	char *path = gen_trace("kernel", "--events 100000 --cpus 4 "
		"--packet-size 16384");
	struct tn_state_budget budget = { 1.0, 2000, 8000, 1000 };
	struct tn_state_snapshots *snapshots;
	struct tn_trace *trace;
	struct tn_index *index;
	struct tn_error err;
	GArray *positions;

	test_names_and_globs();
	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "trace opens")) {
		gen_cleanup();
		return tap_done();
	}
	positions = read_positions(trace);
	index = build_index(trace);
	tap_ok(index && positions->len == 100000 &&
		index->event_count == positions->len, "100000 events, indexed");
	tn_trace_set_packet_tables(trace, tn_index_borrow_packet_tables(index));
	snapshots = run_pass(trace, index, &budget);
	tap_ok(tn_state_snapshots_get_count(snapshots) >= 10 &&
		tn_state_snapshots_is_complete(snapshots),
		"the state pass took %zu snapshots",
		tn_state_snapshots_get_count(snapshots));
	{
		size_t full = 0, count = tn_state_snapshots_get_count(snapshots);

		for (size_t i = 0; i < count; i++) {
			struct tn_state_snapshot_info info;

			tn_state_snapshots_get(snapshots, i, &info, NULL);
			full += info.full;
		}
		tap_ok(full >= 1 && full <= count / 3, "%zu of them full, the "
			"others changes since the one before", full);
	}

	test_random_order(trace, positions, snapshots, 1);
	test_random_order(trace, positions, snapshots, 2);
	test_random_order(trace, positions, snapshots, 3);
	test_forward(trace, positions, snapshots);
	test_kept_states(trace, positions, snapshots);
	test_budget(trace, index, positions);
	test_start_snapshots(path, trace, index);
	test_save_load(snapshots);
	test_cache(trace, index, snapshots);
	test_ends(trace, positions, snapshots);
	test_glob_and_order(trace, positions, snapshots);
	test_errors(trace, positions, snapshots);

	tn_state_snapshots_destroy(snapshots);
	tn_trace_set_packet_tables(trace, NULL);
	tn_index_destroy(index);
	g_array_free(positions, TRUE);
	tn_trace_destroy(trace);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
