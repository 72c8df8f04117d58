/* test-filter-index.c - filters with the checkpoint index: the index's
 * event names per interval and the matches per interval (from the names,
 * and from the count pass with one and several threads) against a full
 * read, and the cursor with a filter, with and without its match counts:
 * paging forward and back from random places, match numbers, the N-th
 * match, the ends, and changing the filter, all against the filtered
 * full read. */
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/cursor.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "tracenav/job.h"

struct event_info {
	struct tn_position pos;
	char *name;
};

/* Every event: position and name. */
static GArray *read_events(const struct tn_trace *trace)
{
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct event_info));
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return all;
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		struct event_info info = { row.pos,
			g_strdup(tn_event_get_name(&row.ev)) };

		g_array_append_val(all, info);
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	return all;
}

static void free_events(GArray *all)
{
	for (guint i = 0; i < all->len; i++)
		g_free(g_array_index(all, struct event_info, i).name);
	g_array_free(all, TRUE);
}

/* The positions of the events that pass set, from a full read. */
static GArray *read_matches(const struct tn_trace *trace,
		struct tn_filter_set *set)
{
	GArray *matches = g_array_new(FALSE, FALSE,
		sizeof(struct tn_position));
	struct tn_filter_matcher *matcher = tn_filter_matcher_new(set);
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err) == 0) {
		while (tn_walk_next(walk, NULL, &row, &err) == 1) {
			if (tn_filter_matcher_match(matcher, &row.ev))
				g_array_append_val(matches, row.pos);
			tn_row_release(&row);
		}
		tn_walk_destroy(walk);
	}
	tn_filter_matcher_free(matcher);
	return matches;
}

static struct tn_index *build_index(const struct tn_trace *trace,
		unsigned workers)
{
	struct tn_index *index;
	struct tn_error err;
	struct tn_job *job;

	if (tn_index_build_start(trace, workers, &job, &err))
		return NULL;
	tn_job_wait(job);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	return index;
}

static struct tn_filter_set *make_set(enum tn_filter_kind kind,
		const char *text)
{
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_set *set = NULL;
	struct tn_error err;

	if (tn_filter_stack_push(stack, kind, text, &err) == 0)
		set = tn_filter_stack_snapshot(stack, true);
	else
		printf("# %s\n", err.message);
	tn_filter_stack_destroy(stack);
	return set;
}

/* The interval of pos: the last checkpoint at or before it. */
static size_t interval_of(const struct tn_index *index,
		const struct tn_position *pos)
{
	const struct tn_checkpoint *cp =
		tn_index_checkpoint_for_position(index, pos);

	return cp ? (size_t) (cp - index->checkpoints) : 0;
}

/* The index's names per interval are those of a full read. */
static bool intervals_right(const struct tn_index *index, GArray *all)
{
	GHashTable *counts = g_hash_table_new(g_str_hash, g_str_equal);
	size_t interval = 0;
	bool ok = index->interval_class_start != NULL;

	for (guint i = 0; ok && i <= all->len; i++) {
		const struct event_info *info = i < all->len ?
			&g_array_index(all, struct event_info, i) : NULL;
		size_t at = info ? interval_of(index, &info->pos) :
			index->checkpoint_count;

		if (at != interval) {
			/* Interval `interval` is complete: compare. */
			size_t from = index->interval_class_start[interval];
			size_t to = index->interval_class_start[interval + 1];

			ok = g_hash_table_size(counts) == to - from;
			for (size_t e = from; ok && e < to; e++) {
				const struct tn_interval_count *entry =
					&index->interval_classes[e];

				ok = GPOINTER_TO_UINT(g_hash_table_lookup(counts,
					index->classes[entry->key].name)) ==
					entry->count;
			}
			if (!ok)
				printf("# interval %zu differs\n", interval);
			g_hash_table_remove_all(counts);
			interval = at;
		}
		if (info)
			g_hash_table_insert(counts, info->name, GUINT_TO_POINTER(
				GPOINTER_TO_UINT(g_hash_table_lookup(counts,
					info->name)) + 1));
	}
	g_hash_table_destroy(counts);
	return ok;
}

/* counts holds, per interval, the matches a full read found. */
static bool counts_right(const struct tn_match_counts *counts,
		const struct tn_index *index, GArray *matches)
{
	uint64_t *per = g_new0(uint64_t, index->checkpoint_count + 1);
	bool ok = counts && counts->interval_count == index->checkpoint_count;

	for (guint i = 0; ok && i < matches->len; i++)
		per[interval_of(index, &g_array_index(matches,
			struct tn_position, i))]++;
	for (size_t i = 0; ok && i < index->checkpoint_count; i++)
		ok = counts->before[i + 1] - counts->before[i] == per[i];
	ok = ok && counts->before[index->checkpoint_count] == matches->len;
	g_free(per);
	return ok;
}

static struct tn_match_counts *count_pass(const struct tn_trace *trace,
		const struct tn_index *index, struct tn_filter_set *set,
		unsigned workers)
{
	struct tn_match_counts *counts;
	struct tn_error err;
	struct tn_job *job;

	if (tn_match_counts_start(trace, index, set, workers, &job, &err))
		return NULL;
	tn_job_wait(job);
	counts = tn_match_counts_take(job);
	tn_job_destroy(job);
	return counts;
}

/* The index in matches of the cursor's row at offset, or -1. */
static int64_t row_index(struct tn_cursor *cursor, GArray *matches,
		int64_t offset)
{
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(cursor, offset, &err);
	guint low = 0, high = matches->len;

	if (!row)
		return -1;
	while (low < high) {
		guint mid = low + (high - low) / 2;
		int cmp = tn_position_compare(&g_array_index(matches,
			struct tn_position, mid), &row->pos);

		if (cmp == 0)
			return mid;
		if (cmp < 0)
			low = mid + 1;
		else
			high = mid;
	}
	return -1;
}

/* Rows first..last around the current one are matches at + first..
 * (none past either end), each with its previous time when need_prev. */
static bool rows_right(struct tn_cursor *cursor, GArray *matches,
		int64_t at, int64_t first, int64_t last, bool need_prev)
{
	struct tn_error err;

	for (int64_t i = first; i <= last; i++) {
		int64_t want = at + i;
		const struct tn_row *row = tn_cursor_row(cursor, i, &err);

		if (want < 0 || want >= (int64_t) matches->len) {
			if (row)
				return false;
			continue;
		}
		if (!row || (need_prev && !row->has_prev) ||
		    tn_position_compare(&row->pos, &g_array_index(matches,
				struct tn_position, want)) != 0)
			return false;
	}
	return true;
}

/* Rows -page..page around the current one are matches at..: the
 * filtered list's slice. */
static bool page_right(struct tn_cursor *cursor, GArray *matches,
		int64_t at, int64_t page)
{
	return rows_right(cursor, matches, at, -page, page, false);
}

/* Paging from random places: each move lands where the filtered full
 * read says, with the rows around it. */
static void check_paging(struct tn_cursor *cursor, GArray *matches,
		const struct tn_trace *trace, const char *what)
{
	GRand *rand = g_rand_new_with_seed(7);
	bool ok = true;
	struct tn_error err;
	int64_t first, last;

	tn_trace_get_time_range(trace, &first, &last);
	for (int sample = 0; sample < 12 && ok; sample++) {
		int64_t ns = first + (int64_t) (g_rand_double(rand) *
			(double) (last - first));
		struct tn_position pos = { ns, 0 };
		int64_t at = 0, moved;

		/* The first match at or after ns, else the last one. */
		while (at < (int64_t) matches->len && tn_position_compare(
				&g_array_index(matches, struct tn_position, at),
				&pos) < 0)
			at++;
		if (at == (int64_t) matches->len)
			at--;
		ok = tn_cursor_seek_time(cursor, ns, &err) == 0 &&
			row_index(cursor, matches, 0) == at &&
			page_right(cursor, matches, at, 20);
		for (int step = 0; step < 3 && ok; step++) {
			int64_t delta = g_rand_int_range(rand, -90, 90);
			int64_t want = CLAMP(at + delta, 0,
				(int64_t) matches->len - 1);

			ok = tn_cursor_move(cursor, delta, &moved, &err) == 0 &&
				moved == want - at;
			at = want;
			ok = ok && row_index(cursor, matches, 0) == at &&
				page_right(cursor, matches, at, 20);
		}
		if (!ok)
			printf("# sample %d near %lld differs (%s)\n", sample,
				(long long) at, err.message);
	}
	tap_ok(ok, "%s: paging from random places gives the filtered "
		"list's slices", what);
	g_rand_free(rand);
}

static void check_ranks(struct tn_cursor *cursor, GArray *matches,
		const char *what)
{
	struct tn_error err;
	uint64_t rank = 0;
	bool ok = true;

	for (uint64_t n = 0; n < matches->len && ok;
			n += matches->len / 7 + 1) {
		ok = tn_cursor_seek_rank(cursor, n, &err) == 0 &&
			row_index(cursor, matches, 0) == (int64_t) n &&
			tn_cursor_get_rank(cursor, &rank, &err) == 1 &&
			rank == n && page_right(cursor, matches, (int64_t) n,
				10);
	}
	tap_ok(ok, "%s: match N is the N-th match, and its number is N",
		what);
	ok = tn_cursor_seek_time(cursor, g_array_index(matches,
		struct tn_position, matches->len / 2).ns, &err) == 0 &&
		tn_cursor_get_rank(cursor, &rank, &err) == 1 &&
		(int64_t) rank == row_index(cursor, matches, 0);
	tap_ok(ok, "%s: after a jump by time, the match number is known", what);
	tap_ok(tn_cursor_seek_last(cursor, &err) == 0 &&
		row_index(cursor, matches, 0) == (int64_t) matches->len - 1 &&
		page_right(cursor, matches, matches->len - 1, 20),
		"%s: the last match, with those before it", what);
	tap_ok(tn_cursor_seek_first(cursor, &err) == 0 &&
		row_index(cursor, matches, 0) == 0 &&
		page_right(cursor, matches, 0, 20),
		"%s: the first match", what);
}

/* A screen of the filtered list with the current row on line top:
 * rows -top..page-1-top are matches at - top.., with their previous
 * times. */
static bool screen_right(struct tn_cursor *cursor, GArray *matches,
		int64_t at, int64_t page, int64_t top)
{
	return rows_right(cursor, matches, at, -top, page - 1 - top, true);
}

/* Reading ahead while idle (tn_cursor_prefetch(), as the event list
 * does): with counts, the next page down and the page up after it read
 * nothing, and show the filtered list's slices; without counts, it
 * reads nothing at all. */
static void check_prefetch(struct tn_cursor *cursor, GArray *matches,
		bool counted, const char *what)
{
	/* Pages that fit twice on each side of the middle match. */
	const int64_t page = CLAMP((int64_t) matches->len / 5, 1, 20);
	const int64_t top = page / 3;
	int64_t at = (int64_t) matches->len / 2;
	struct tn_error err;
	uint64_t reads, ring;

	if (!tap_ok(tn_cursor_seek_position(cursor, &g_array_index(matches,
			struct tn_position, at), &err) == 0 &&
			screen_right(cursor, matches, at, page, top),
			"%s: a screen in the middle", what))
		return;
	reads = tn_cursor_get_read_count(cursor);
	ring = tn_cursor_get_ring_size(cursor);
	tap_ok(tn_cursor_prefetch(cursor, top + page, 2 * page - 1 - top,
		&err) == 0, "%s: reading ahead", what);
	if (!counted) {
		tap_ok(tn_cursor_get_read_count(cursor) == reads &&
			tn_cursor_get_ring_size(cursor) == ring,
			"%s: not counted: reading ahead reads nothing", what);
		return;
	}
	reads = tn_cursor_get_read_count(cursor);
	tap_ok(tn_cursor_move(cursor, page, NULL, &err) == 0 &&
		screen_right(cursor, matches, at + page, page, top) &&
		tn_cursor_move(cursor, -2 * page, NULL, &err) == 0 &&
		screen_right(cursor, matches, at - page, page, top) &&
		tn_cursor_get_read_count(cursor) == reads,
		"%s: read ahead, a page down and two up read nothing", what);
	/* At the last match: nothing after it, the pages before it. */
	tap_ok(tn_cursor_seek_last(cursor, &err) == 0 &&
		tn_cursor_prefetch(cursor, top + page, 2 * page - 1 - top,
			&err) == 0 &&
		screen_right(cursor, matches, (int64_t) matches->len - 1,
			page, top) &&
		tn_cursor_row(cursor, 1, &err) == NULL && !err.message[0],
		"%s: reading ahead at the last match", what);
}

/* The cursor with set's filter, counts or not. */
static void check_cursor(const struct tn_trace *trace,
		const struct tn_index *index, struct tn_filter_set *set,
		const struct tn_match_counts *counts, GArray *matches,
		const char *what)
{
	struct tn_filter_matcher *matcher = tn_filter_matcher_new(set);
	struct tn_cursor *cursor;
	struct tn_filter filter;
	struct tn_error err;
	uint64_t reads;
	char *label = g_strdup_printf("%s, %s", what, counts ? "counted" :
		"not counted");

	tn_filter_matcher_bind(matcher, &filter);
	if (!tap_ok(tn_cursor_create(trace, NULL, &cursor, &err) == 0,
			"%s: cursor", label))
		goto out;
	tn_cursor_set_index(cursor, index);
	tn_cursor_move(cursor, 30, NULL, &err);
	tap_ok(tn_cursor_set_filter(cursor, &filter, counts, &err) == 0,
		"%s: filter set", label);
	if (matches->len == 0) {
		tap_ok(tn_cursor_is_empty(cursor), "%s: nothing matches: the "
			"list is empty", label);
		tn_cursor_destroy(cursor);
		goto out;
	}
	check_paging(cursor, matches, trace, label);
	if (counts)
		check_ranks(cursor, matches, label);
	check_prefetch(cursor, matches, counts != NULL, label);
	/* Moves inside the ring read nothing. */
	tn_cursor_seek_first(cursor, &err);
	tn_cursor_move(cursor, 5, NULL, &err);
	tn_cursor_row(cursor, 10, &err);
	reads = tn_cursor_get_read_count(cursor);
	tn_cursor_move(cursor, 3, NULL, &err);
	tn_cursor_move(cursor, -3, NULL, &err);
	tap_int_eq(tn_cursor_get_read_count(cursor), reads,
		"%s: moves inside the ring read nothing", label);
	/* Back to every event: the position stays. */
	tn_cursor_seek_rank(cursor, matches->len / 3, &err);
	{
		int64_t at = row_index(cursor, matches, 0);
		struct tn_position pos = { 0, 0 };
		const struct tn_row *row = tn_cursor_row(cursor, 0, &err);

		if (row)
			pos = row->pos;
		tap_ok(at >= 0 && tn_cursor_set_filter(cursor, NULL, NULL,
			&err) == 0 && (row = tn_cursor_row(cursor, 0, &err)) &&
			tn_position_compare(&row->pos, &pos) == 0,
			"%s: the filter removed, the cursor stays on its event",
			label);
	}
	tn_cursor_destroy(cursor);
out:
	tn_filter_matcher_free(matcher);
	g_free(label);
}

static void check_filter(const struct tn_trace *trace,
		const struct tn_index *index, enum tn_filter_kind kind,
		const char *text, bool name_only)
{
	struct tn_filter_set *set = make_set(kind, text);
	struct tn_match_counts *counts, *pass;
	GArray *matches;
	char *what;

	if (!tap_ok(set != NULL, "%s parses", text))
		return;
	what = g_strdup_printf("%s %s", tn_filter_kind_name(kind), text);
	matches = read_matches(trace, set);
	tap_ok(tn_filter_set_is_name_only(set) == name_only, "%s: name-only "
		"is %d", what, name_only);
	counts = tn_match_counts_from_names(index, set);
	if (name_only)
		tap_ok(counts_right(counts, index, matches), "%s: the matches "
			"per interval from the index's names", what);
	else
		tap_ok(counts == NULL, "%s: none from the names", what);
	pass = count_pass(trace, index, set, 1);
	tap_ok(counts_right(pass, index, matches), "%s: the count pass, one "
		"thread", what);
	tn_match_counts_destroy(pass);
	pass = count_pass(trace, index, set, 3);
	tap_ok(counts_right(pass, index, matches), "%s: the count pass, three "
		"threads", what);
	check_cursor(trace, index, set, NULL, matches, what);
	check_cursor(trace, index, set, pass, matches, what);
	tn_match_counts_destroy(pass);
	tn_match_counts_destroy(counts);
	g_array_free(matches, TRUE);
	tn_filter_set_unref(set);
	g_free(what);
}

static void test_count_all(const struct tn_trace *trace)
{
	struct tn_filter_set *set = make_set(TN_FILTER_IN, "sched_wakeup");
	struct tn_filter_matcher *matcher = tn_filter_matcher_new(set);
	GArray *matches = read_matches(trace, set);
	struct tn_error err;

	tap_int_eq(tn_filter_count_all(trace, matcher, &err), matches->len,
		"counting without the index: a full read's count");
	g_array_free(matches, TRUE);
	tn_filter_matcher_free(matcher);
	tn_filter_set_unref(set);
}

int main(void)
{
	/* Small packets: seeks slice; a rare event every 2000. */
	char *path = gen_trace("filters", "--events 200000 --cpus 4 "
		"--packet-size 16384 --seed 21 --hang-every 5000");
	struct tn_trace *trace;
	struct tn_index *index;
	struct tn_error err;
	GArray *all;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "opens"))
		return tap_done();
	all = read_events(trace);
	index = build_index(trace, 3);
	if (!tap_ok(index != NULL, "indexed with three workers"))
		return tap_done();
	tap_ok(intervals_right(index, all), "the names of each interval, "
		"with their counts, are a full read's");
	tn_index_destroy(index);
	index = build_index(trace, 1);
	tap_ok(intervals_right(index, all), "one worker: the same");
	tn_trace_set_packet_tables(trace, tn_index_borrow_packet_tables(index));

	check_filter(trace, index, TN_FILTER_EXPR,
		"name == \"sched_process_hang\"", true);
	check_filter(trace, index, TN_FILTER_EXPR, "name =~ \"^sched_\" && "
		"name != \"sched_switch\"", true);
	check_filter(trace, index, TN_FILTER_EXPR, "name == \"nothing\"", true);
	check_filter(trace, index, TN_FILTER_IN, "prev_tid = 1[0-9]{3},",
		false);
	check_filter(trace, index, TN_FILTER_EXPR, "cpu == 2 && name =~ "
		"\"^irq\"", false);
	check_filter(trace, index, TN_FILTER_OUT, "sched|irq", false);
	test_count_all(trace);

	tn_trace_set_packet_tables(trace, NULL);
	tn_index_destroy(index);
	free_events(all);
	tn_trace_destroy(trace);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
