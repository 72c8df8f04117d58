/* test-seek.c - the seek helpers against a full read: forward and
 * backward n events from many positions, across packet and stream
 * boundaries, at the trace start, with equal timestamps on several
 * streams and with a filter that rarely matches. */
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/reader.h"
#include "tracenav/seek.h"

struct ref {
	struct tn_position pos;
	const char *name;	/* interned */
	uint64_t lost_before;
};

/* Every event of the trace with its position, from one plain read. */
static GArray *read_reference(const struct tn_trace *trace)
{
	GArray *refs = g_array_new(FALSE, FALSE, sizeof(struct ref));
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return refs;
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		struct ref ref = { row.pos,
			g_intern_string(tn_event_get_name(&row.ev)),
			row.lost_before };

		g_array_append_val(refs, ref);
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	return refs;
}

static bool is_rare(const struct tn_event *ev, void *data)
{
	return strcmp(tn_event_get_name(ev), (const char *) data) == 0;
}

/* rows equal refs[index..] restricted to the filter, count of them. */
static bool rows_match(GArray *rows, GArray *refs, const int64_t *indexes,
		int64_t count)
{
	if ((int64_t) rows->len != count)
		return false;
	for (int64_t i = 0; i < count; i++) {
		struct tn_row *row = &g_array_index(rows, struct tn_row, i);
		struct ref *ref = &g_array_index(refs, struct ref, indexes[i]);

		if (tn_position_compare(&row->pos, &ref->pos) != 0 ||
		    strcmp(tn_event_get_name(&row->ev), ref->name) != 0)
			return false;
	}
	return true;
}

static void release_rows(GArray *rows)
{
	for (guint i = 0; i < rows->len; i++)
		tn_row_release(&g_array_index(rows, struct tn_row, i));
	g_array_set_size(rows, 0);
}

/* Check both helpers from reference index `at`, n events, filter. */
static void check_at(const struct tn_trace *trace, GArray *refs, int64_t at,
		uint64_t n, const struct tn_filter *filter, const char *what)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	int64_t *want = g_new(int64_t, n), count = 0, got;
	struct ref *ref = &g_array_index(refs, struct ref, at);
	struct tn_error err;

	/* Backward: the last n matches strictly before refs[at]. */
	for (int64_t i = at - 1; i >= 0 && (uint64_t) count < n; i--)
		if (!filter || strcmp(g_array_index(refs, struct ref, i).name,
				(const char *) filter->data) == 0)
			want[count++] = i;
	for (int64_t i = 0; i < count / 2; i++) {
		int64_t t = want[i];

		want[i] = want[count - 1 - i];
		want[count - 1 - i] = t;
	}
	got = tn_seek_n_events_backward(trace, &ref->pos, n, filter, 1000,
		rows, &err);
	tap_ok(got == count && rows_match(rows, refs, want, count),
		"backward %" G_GUINT64_FORMAT " from #%" G_GINT64_FORMAT
		" (%s): %" G_GINT64_FORMAT " events", n, at, what, count);
	release_rows(rows);

	/* Forward: n matches from refs[at] on. */
	count = 0;
	for (int64_t i = at; i < (int64_t) refs->len && (uint64_t) count < n; i++)
		if (!filter || strcmp(g_array_index(refs, struct ref, i).name,
				(const char *) filter->data) == 0)
			want[count++] = i;
	got = tn_seek_n_events_forward(trace, &ref->pos, n, filter, rows, &err);
	tap_ok(got == count && rows_match(rows, refs, want, count),
		"forward %" G_GUINT64_FORMAT " from #%" G_GINT64_FORMAT
		" (%s): %" G_GINT64_FORMAT " events", n, at, what, count);
	release_rows(rows);
	g_array_free(rows, TRUE);
	g_free(want);
}

/* The backward helper keeps at least `least` and up to `most` rows, the
 * last ones before pos, and tells what a full read has just before
 * pos. */
static void check_least_most(const struct tn_trace *trace, GArray *refs,
		int64_t at)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	struct ref *ref = &g_array_index(refs, struct ref, at);
	struct tn_seek_info info;
	struct tn_error err;
	int64_t got, *want;
	bool ok;

	got = tn_seek_events_backward(trace, &ref->pos, 5, 400, NULL, 1000,
		rows, &info, &err);
	want = g_new(int64_t, got > 0 ? got : 1);
	for (int64_t i = 0; i < got; i++)
		want[i] = at - got + i;
	ok = got >= (at < 5 ? at : 5) && got <= 400 && got <= at &&
		rows_match(rows, refs, want, got);
	tap_ok(ok, "backward from #%" G_GINT64_FORMAT ", 5 to 400 events: "
		"the last %" G_GINT64_FORMAT " before it", at, got);
	tap_ok(info.at_start == (got == at) &&
		(!info.has_next || info.next_lost == ref->lost_before),
		"backward from #%" G_GINT64_FORMAT ": at_start %d, the events "
		"lost before it %" G_GUINT64_FORMAT " (%s)", at, info.at_start,
		ref->lost_before, info.has_next ? "known" : "unknown");
	release_rows(rows);
	g_array_free(rows, TRUE);
	g_free(want);
}

/* The rows a walk keeps before its position, with a filter: the
 * matching ones among those it keeps without. */
static void check_take_before(const struct tn_trace *trace, GArray *refs,
		int64_t at, const struct tn_filter *filter)
{
	struct ref *ref = &g_array_index(refs, struct ref, at);
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	GArray *some = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	struct tn_walk *walk;
	struct tn_error err;
	bool at_start, ok = true;
	guint j = 0;

	if (tn_walk_open_near(trace, &ref->pos, 500, &walk, &err) == 0) {
		tn_walk_take_before(walk, NULL, all, &at_start);
		tn_walk_destroy(walk);
	}
	if (tn_walk_open_near(trace, &ref->pos, 500, &walk, &err) == 0) {
		tn_walk_take_before(walk, filter, some, &at_start);
		tn_walk_destroy(walk);
	}
	for (guint i = 0; i < all->len; i++) {
		struct tn_row *row = &g_array_index(all, struct tn_row, i);

		if (!filter->match(&row->ev, filter->data))
			continue;
		ok = ok && j < some->len && tn_position_compare(&row->pos,
			&g_array_index(some, struct tn_row, j).pos) == 0;
		j++;
	}
	tap_ok(ok && j == some->len && all->len > 0,
		"the rows kept before #%" G_GINT64_FORMAT " with a filter: the "
		"%u matching among the %u kept without", at, some->len,
		all->len);
	release_rows(all);
	release_rows(some);
	g_array_free(all, TRUE);
	g_array_free(some, TRUE);
}

/* An index whose event shares its time with the one before it. */
static int64_t find_tie(GArray *refs)
{
	for (guint i = 1; i < refs->len; i++)
		if (g_array_index(refs, struct ref, i).pos.tie > 0)
			return i;
	return -1;
}

int main(void)
{
	char *path = gen_trace("seek", "--events 20000 --cpus 4 "
		"--packet-size 4096 --lost-every 6 --seed 21");
	struct tn_filter rare = { is_rare, (void *) "sched_process_exec" };
	struct tn_trace *trace;
	struct tn_error err;
	GArray *refs;
	GRand *rand = g_rand_new_with_seed(42);
	int64_t tie;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "opens"))
		return tap_done();
	refs = read_reference(trace);
	tap_int_eq(refs->len, gen_plan_value(path, "events"),
		"reference read has every event");
	tie = find_tie(refs);
	tap_ok(tie > 0, "the trace has equal timestamps on several streams");

	check_at(trace, refs, 0, 10, NULL, "trace start");
	check_at(trace, refs, 5, 10, NULL, "near the start");
	check_at(trace, refs, refs->len - 1, 50, NULL, "last event");
	if (tie > 0) {
		check_at(trace, refs, tie, 3, NULL, "at a tie");
		check_at(trace, refs, tie - 1, 3, NULL, "just before a tie");
	}
	/* 4096-byte packets hold ~100 events: 300 events cross several
	 * packets of every stream. */
	for (int i = 0; i < 12; i++)
		check_at(trace, refs, g_rand_int_range(rand, 1, refs->len),
			(uint64_t) g_rand_int_range(rand, 1, 300), NULL,
			"random");
	for (int i = 0; i < 4; i++)
		check_at(trace, refs, g_rand_int_range(rand, 1, refs->len), 3,
			&rare, "rare filter");
	check_at(trace, refs, refs->len - 1, 1000000, &rare,
		"rare filter, more than there are");
	check_least_most(trace, refs, 3);
	for (int i = 0; i < 6; i++)
		check_least_most(trace, refs, g_rand_int_range(rand, 1,
			refs->len));
	/* Where the tracer lost events: the count comes too. */
	for (guint i = refs->len / 3, found = 0; i < refs->len && found < 3;
			i++) {
		if (g_array_index(refs, struct ref, i).lost_before == 0)
			continue;
		check_least_most(trace, refs, i);
		found++;
	}
	for (int i = 0; i < 3; i++)
		check_take_before(trace, refs, g_rand_int_range(rand,
			refs->len / 10, refs->len), &rare);

	g_array_free(refs, TRUE);
	g_rand_free(rand);
	tn_trace_destroy(trace);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
