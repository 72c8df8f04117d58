/* test-slice.c - a sliced view of a trace reads, from its target on,
 * exactly what the whole trace reads from there (events and notices),
 * refuses traces it cannot slice, and leaves no files behind; a walk
 * split over parts of the streams reads what a whole walk reads. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "tap.h"
#include "src/core/reader-private.h"
#include "src/core/slice.h"
#include "src/core/trace-private.h"
#include "src/core/walk-split.h"
#include "tracenav/core.h"
#include "tracenav/format.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/reader.h"
#include "tracenav/runtime.h"
#include "tracenav/seek.h"

#define FIRST_ITEMS 200
#define NS_PER_S INT64_C(1000000000)

/* The sanitizer build looks for memory errors, not for more cases, and
 * parses metadata some 30 times slower: it checks fewer targets. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FEWER(n) ((n) / 4 > 0 ? (n) / 4 : 1)
#else
#define FEWER(n) (n)
#endif

static uint64_t prng_state = UINT64_C(0x9e3779b97f4a7c15);

/* xorshift64*: a fixed sequence of targets on every run. */
static uint64_t prng_next(void)
{
	prng_state ^= prng_state >> 12;
	prng_state ^= prng_state << 25;
	prng_state ^= prng_state >> 27;
	return prng_state * UINT64_C(2685821657736338717);
}

static int64_t prng_between(int64_t low, int64_t high)
{
	return low + (int64_t) (prng_next() % (uint64_t) (high - low + 1));
}

/* One item as text: kind, time, name and formatted fields, or the count
 * and time range of a notice. */
static char *item_text(const struct tn_event *ev)
{
	GString *text = g_string_new(NULL);
	int64_t begin, end;
	uint64_t count;

	if (ev->has_ns)
		g_string_append_printf(text, "%" PRId64 " ", ev->ns);
	else
		g_string_append(text, "- ");
	g_string_append(text, tn_event_get_name(ev));
	if (ev->kind == TN_EVENT_KIND_EVENT) {
		g_string_append(text, ": ");
		tn_format_event_fields(text, ev);
	} else {
		if (tn_event_get_discarded_count(ev, &count))
			g_string_append_printf(text, " count %" PRIu64, count);
		else
			g_string_append(text, " count unknown");
		if (tn_event_get_discarded_range(ev, &begin, &end))
			g_string_append_printf(text, " [%" PRId64 ", %" PRId64
				"]", begin, end);
	}
	return g_string_free(text, FALSE);
}

/* Read up to max items (0: all) from target_ns on, through slice if not
 * NULL.  NULL on error. */
static GPtrArray *read_items(const struct tn_trace *trace,
		const struct tn_slice *slice, bool has_begin, int64_t target_ns,
		size_t max)
{
	struct tn_reader_options options = { 0 };
	GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
	enum tn_reader_status status = TN_READER_END;
	struct tn_reader *reader;
	struct tn_error err;
	struct tn_event ev;

	options.has_begin = has_begin;
	options.begin_ns = target_ns;
	if (tn_reader_create_on_dirs(trace, &options, slice ?
			tn_slice_borrow_dirs(slice) : NULL, &reader, &err)) {
		printf("# %s\n", err.message);
		g_ptr_array_free(items, TRUE);
		return NULL;
	}
	while ((max == 0 || items->len < max) &&
	       (status = tn_reader_next(reader, &ev, &err)) == TN_READER_OK) {
		g_ptr_array_add(items, item_text(&ev));
		tn_event_release(&ev);
	}
	tn_reader_destroy(reader);
	if (status == TN_READER_ERROR) {
		printf("# %s\n", err.message);
		g_ptr_array_free(items, TRUE);
		return NULL;
	}
	return items;
}

static bool same_items(GPtrArray *got, GPtrArray *want)
{
	for (guint i = 0; i < got->len && i < want->len; i++) {
		if (strcmp(got->pdata[i], want->pdata[i]) != 0) {
			printf("# item %u differs\n#   slice: %s\n#   whole: %s\n",
				i, (char *) got->pdata[i],
				(char *) want->pdata[i]);
			return false;
		}
	}
	if (got->len != want->len) {
		printf("# slice: %u items, whole trace: %u\n", got->len,
			want->len);
		return false;
	}
	return true;
}

/* ---- jumps: what a walk keeps before its target and reads after it ---- */

/* Rows a jump keeps before its target in these checks, and rows it
 * reads after it. */
#define JUMP_KEEP 300
#define JUMP_AFTER 60

/* A row of a full read, as the event list sees it. */
struct ref_row {
	struct tn_position pos;
	char *text;
	bool has_prev;
	int64_t prev_ns;
	uint64_t lost_before;
};

/* The rows of a full read of the trace checked now (its pointer: a
 * trace is closed with close_trace(), which forgets them). */
static const struct tn_trace *ref_trace;
static GArray *ref_rows;

static void forget_reference(void)
{
	for (guint i = 0; ref_rows && i < ref_rows->len; i++)
		g_free(g_array_index(ref_rows, struct ref_row, i).text);
	if (ref_rows)
		g_array_free(ref_rows, TRUE);
	ref_rows = NULL;
	ref_trace = NULL;
}

static void close_trace(struct tn_trace *trace)
{
	if (trace == ref_trace)
		forget_reference();
	tn_trace_destroy(trace);
}

static struct ref_row ref_row_of(const struct tn_row *row)
{
	struct ref_row ref = { row->pos, item_text(&row->ev), row->has_prev,
		row->prev_ns, row->lost_before };

	return ref;
}

static GArray *reference(const struct tn_trace *trace)
{
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (ref_trace == trace)
		return ref_rows;
	forget_reference();
	ref_rows = g_array_new(FALSE, FALSE, sizeof(struct ref_row));
	ref_trace = trace;
	if (tn_walk_open(trace, INT64_MIN, &walk, &err) == 0) {
		while (tn_walk_next(walk, NULL, &row, &err) == 1) {
			struct ref_row ref = ref_row_of(&row);

			g_array_append_val(ref_rows, ref);
			tn_row_release(&row);
		}
		tn_walk_destroy(walk);
	}
	return ref_rows;
}

/* got (a row of the jump) is ref: same place, same event and, when it
 * knows the event before it, the same delta and lost events. */
static bool same_row(const struct ref_row *got, const struct ref_row *ref,
		size_t at, bool may_lack_prev)
{
	if (tn_position_compare(&got->pos, &ref->pos) != 0 ||
	    strcmp(got->text, ref->text) != 0) {
		printf("# row %zu differs\n#   jump: %" PRId64 "/%" PRIu64
			" %s\n#   full: %" PRId64 "/%" PRIu64 " %s\n", at,
			got->pos.ns, got->pos.tie, got->text, ref->pos.ns,
			ref->pos.tie, ref->text);
		return false;
	}
	if (!got->has_prev && !may_lack_prev) {
		printf("# row %zu does not know the event before it\n", at);
		return false;
	}
	if (got->has_prev && (!ref->has_prev || got->prev_ns != ref->prev_ns ||
	    got->lost_before != ref->lost_before)) {
		printf("# row %zu: event before at %" PRId64 ", %" PRIu64
			" lost; a full read: %" PRId64 ", %" PRIu64 "\n", at,
			got->prev_ns, got->lost_before, ref->prev_ns,
			ref->lost_before);
		return false;
	}
	return true;
}

/* A jump to target (a walk opened near it, as the event list opens it,
 * or split into `parts` parts when parts > 1) keeping up to keep rows
 * gives the rows of a full read from the target on and, before it, the
 * rows of a full read after the slice's bound: every row but the first
 * knows the event before it, with a full read's delta and lost count. */
static void check_jump_as(const struct tn_trace *trace, const char *what,
		const char *label, int64_t target, uint64_t keep,
		unsigned parts)
{
	GArray *ref = reference(trace);
	struct tn_position pos = { target, 0 };
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	int64_t bound = INT64_MIN;
	struct tn_slice *slice;
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;
	size_t first = 0, want_before = 0, before;
	bool at_start, ok = true;

	if (tn_slice_create(trace, target, 0, &slice, &err) == 0) {
		bound = tn_slice_get_complete_after(slice);
		tn_slice_destroy(slice);
	}
	while (first < ref->len && tn_position_compare(&g_array_index(ref,
			struct ref_row, first).pos, &pos) < 0)
		first++;
	for (size_t i = first; i > 0 && want_before < keep &&
	     (bound == INT64_MIN ||
	      g_array_index(ref, struct ref_row, i - 1).pos.ns > bound); i--)
		want_before++;
	if (parts > 1 ? tn_walk_open_near_split(trace, &pos, keep, parts,
			&walk, &err) : tn_walk_open_near(trace, &pos, keep,
			&walk, &err)) {
		tap_ok(false, "%s: jump to %s: %s", what, label, err.message);
		g_array_free(rows, TRUE);
		return;
	}
	before = (size_t) tn_walk_take_before(walk, NULL, rows, &at_start);
	while (rows->len < before + JUMP_AFTER &&
	       tn_walk_next(walk, NULL, &row, &err) == 1)
		g_array_append_val(rows, row);
	tn_walk_destroy(walk);
	if (before != want_before) {
		printf("# %zu rows kept before the target, %zu expected "
			"(bound %" PRId64 ")\n", before, want_before, bound);
		ok = false;
	}
	if (at_start != (first - before == 0 && bound == INT64_MIN)) {
		printf("# at_start %d with %zu rows before\n", at_start,
			first - before);
		ok = false;
	}
	if (rows->len != before + MIN(JUMP_AFTER, ref->len - first)) {
		printf("# %u rows, %zu expected\n", rows->len,
			before + MIN(JUMP_AFTER, ref->len - first));
		ok = false;
	}
	for (guint i = 0; ok && i < rows->len; i++) {
		struct ref_row got = ref_row_of(&g_array_index(rows,
			struct tn_row, i));

		ok = same_row(&got, &g_array_index(ref, struct ref_row,
			first - before + i), i, i == 0);
		g_free(got.text);
	}
	tap_ok(ok, "%s: jump to %s (%" PRId64 ") %s%.0u, %" PRIu64 " kept: "
		"a full read's rows, %zu of them kept from before", what,
		label, target, parts ? "in parts: " : "as the list opens it",
		parts, keep, before);
	for (guint i = 0; i < rows->len; i++)
		tn_row_release(&g_array_index(rows, struct tn_row, i));
	g_array_free(rows, TRUE);
}

/* Jumps split into parts (as tn_walk_open_near() opens them on several
 * processors when the target's packets are long) read what a whole
 * walk reads, with the rows before the target a whole walk keeps: their
 * ties and the events before them come from the parts' rings (a small
 * ring overflows: its rows at the oldest time kept are not all there).
 * Only for views without discarded events, as tn_walk_near_parts()
 * decides (the parts count their own). */
static void check_jump(const struct tn_trace *trace, const char *what,
		const char *label, int64_t target)
{
	struct tn_position pos = { target, 0 };
	struct tn_slice_split_plan plan;
	struct tn_error err;

	check_jump_as(trace, what, label, target, JUMP_KEEP, 0);
	if (tn_trace_get_dir_count(trace) != 1 || !tn_trace_has_clock(trace) ||
	    tn_slice_plan_split(trace, target, &plan, &err))
		return;
	if (plan.has_discarded) {
		tap_ok(tn_walk_near_parts(trace, &pos, 4) == 1,
			"%s: a jump to %s with discarded events in view is "
			"not split", what, label);
		return;
	}
	check_jump_as(trace, what, label, target, JUMP_KEEP, 2);
	check_jump_as(trace, what, label, target, 7, 2);
	check_jump_as(trace, what, label, target, 0, 2);
	if (FEWER(4) == 4)
		check_jump_as(trace, what, label, target, 5, 3);
}

/* Split walks that did split (for the checks that some did). */
static int splits_opened;

/* A split walk (tn_walk_open_at_known_split()) opened at the first
 * event at or after target reads a full read's rows from there: same
 * positions, same events, and, where a row says it knows it, the same
 * event before it.  It reads `parts` parts exactly when the slice can be
 * split there (else it is the usual walk). */
static void check_split_walk(const struct tn_trace *trace, const char *what,
		const char *label, int64_t target, unsigned parts)
{
	GArray *ref = reference(trace);
	const struct ref_row *want;
	struct tn_slice *probe = NULL;
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;
	size_t first = 0, count = 0;
	bool fell_back, can_split, ok = true;
	unsigned got_parts;

	while (first < ref->len && g_array_index(ref, struct ref_row,
			first).pos.ns < target)
		first++;
	if (first == ref->len)
		return;
	want = &g_array_index(ref, struct ref_row, first);
	can_split = tn_slice_create_part(trace, want->pos.ns, 0, 0, parts,
		&probe, &err) == 0;
	tn_slice_destroy(probe);
	if (tn_walk_open_at_known_split(trace, &want->pos, parts, &walk,
			&fell_back, &err)) {
		tap_ok(false, "%s: split walk at %s: %s", what, label,
			err.message);
		return;
	}
	got_parts = tn_walk_get_part_count(walk);
	splits_opened += got_parts > 1;
	while (ok && count < FIRST_ITEMS && first + count < ref->len &&
	       tn_walk_next(walk, NULL, &row, &err) == 1) {
		struct ref_row got = ref_row_of(&row);

		want = &g_array_index(ref, struct ref_row, first + count);
		/* Lost counts are the parts' own (seek.h). */
		got.lost_before = want->lost_before;
		ok = same_row(&got, want, count, count == 0);
		g_free(got.text);
		tn_row_release(&row);
		count++;
	}
	tn_walk_destroy(walk);
	tap_ok(ok && count == MIN(FIRST_ITEMS, ref->len - first) &&
		got_parts == (can_split ? parts : 1) && !fell_back,
		"%s: split walk in %u parts at %s: %u part(s), a full read's "
		"%zu rows", what, parts, label, got_parts, count);
}

struct split_cancel {
	const struct tn_trace *trace;
	struct tn_position pos;
	int status;
	struct tn_error err;
};

static int run_cancelled_split(struct tn_job *job, void *data,
		struct tn_error *err)
{
	struct split_cancel *cancel = data;
	struct tn_walk *walk = NULL;
	bool fell_back;

	(void) err;
	while (!tn_job_is_cancelled(job))
		g_usleep(1000);
	cancel->status = tn_walk_open_at_known_split(cancel->trace,
		&cancel->pos, 2, &walk, &fell_back, &cancel->err);
	tn_walk_destroy(walk);
	return 0;
}

/* A cancelled job's split walk fails as cancelled, and opens no whole
 * walk instead: at the middle of big packets, the parts read hundreds
 * of events before their position (the parts on threads of their own
 * see the cancel through the job they adopt: test-job). */
static void check_split_cancel(const struct tn_trace *trace)
{
	static const struct tn_job_class cls = { "split", run_cancelled_split,
		NULL, NULL };
	GArray *ref = reference(trace);
	struct split_cancel cancel = { trace, g_array_index(ref,
		struct ref_row, ref->len / 2).pos, 0, { "" } };
	struct tn_job *job;
	struct tn_error err;

	if (!tap_ok(tn_job_start(&cls, &cancel, &job, &err) == 0,
			"a job starts"))
		return;
	tn_job_cancel(job);
	tn_job_wait(job);
	tn_job_destroy(job);
	tap_ok(cancel.status == -1 && strcmp(cancel.err.message,
		"cancelled") == 0, "a cancelled job's split walk stops: %s",
		cancel.err.message);
}

/* The check itself: the first items (all of them if all) read through a
 * slice at target equal those of the whole trace from target. */
static void check_target(const struct tn_trace *trace, const char *what,
		const char *label, int64_t target, bool all)
{
	size_t max = all ? 0 : FIRST_ITEMS;
	struct tn_slice *slice;
	struct tn_error err;
	GPtrArray *got = NULL, *want = NULL;
	bool ok = false;

	if (tn_slice_create(trace, target, TN_SLICE_KEEP_PREVIOUS, &slice,
			&err)) {
		int64_t bound = 0;

		/* Refused only when it would keep every packet: then the
		 * reader reads the trace itself. */
		tap_ok(strstr(err.message, "nothing to skip") &&
			tn_slice_plan(trace, target, TN_SLICE_KEEP_PREVIOUS,
				&bound, &err) == 0 && bound == INT64_MIN,
			"%s: slice at %s (%" PRId64 "): %s", what, label,
			target, err.message);
		check_jump(trace, what, label, target);
		check_split_walk(trace, what, label, target, 2);
		return;
	}
	got = read_items(trace, slice, true, target, max);
	want = read_items(trace, NULL, true, target, max);
	if (got && want)
		ok = same_items(got, want);
	tap_ok(ok, "%s: slice at %s (%" PRId64 ") reads the %s %u items",
		what, label, target, all ? "same" : "same first",
		want ? want->len : 0);
	if (got)
		g_ptr_array_free(got, TRUE);
	if (want)
		g_ptr_array_free(want, TRUE);
	tn_slice_destroy(slice);
	check_jump(trace, what, label, target);
	check_split_walk(trace, what, label, target, 2);
	if (FEWER(4) == 4)
		check_split_walk(trace, what, label, target, 3);
}

/* Packet boundaries, from the indexes: times of the timestamp_begin and
 * timestamp_end of every packet (exact conversion; the slice's is
 * its own). */
static void add_index_bounds(const char *dir, const struct tn_clock_info *clock,
		GArray *bounds)
{
	GDir *listing = g_dir_open(dir, 0, NULL);
	char *index_dir = g_strdup_printf("%s/index", dir);
	const char *name;

	if (!listing) {
		g_free(index_dir);
		return;
	}
	while ((name = g_dir_read_name(listing))) {
		char *path = g_strdup_printf("%s/%s.idx", index_dir, name);
		guchar *data;
		gsize size;

		if (g_file_get_contents(path, (gchar **) &data, &size, NULL) &&
		    size >= 16) {
			size_t entry_size = (size_t) data[12] << 24 |
				data[13] << 16 | data[14] << 8 | data[15];

			for (size_t at = 16; entry_size >= 56 &&
			     at + entry_size <= size; at += entry_size) {
				for (int field = 3; field <= 4; field++) {
					unsigned __int128 cycles = 0;
					int64_t ns;

					for (int b = 0; b < 8; b++)
						cycles = cycles << 8 |
							data[at + field * 8 + b];
					cycles += clock->offset_cycles;
					ns = clock->offset_seconds * NS_PER_S +
						(int64_t) (cycles * NS_PER_S /
						clock->frequency);
					g_array_append_val(bounds, ns);
				}
			}
			g_free(data);
		}
		g_free(path);
	}
	g_dir_close(listing);
	g_free(index_dir);
}

static GArray *packet_bounds(const struct tn_trace *trace)
{
	GArray *bounds = g_array_new(FALSE, FALSE, sizeof(int64_t));

	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++) {
		struct tn_clock_info clock;

		if (tn_trace_get_dir_clock(trace, i, &clock))
			add_index_bounds(tn_trace_get_dir(trace, i), &clock,
				bounds);
	}
	return bounds;
}

/* Times of events that share their time with the previous one. */
static GArray *tie_times(const struct tn_trace *trace)
{
	GArray *ties = g_array_new(FALSE, FALSE, sizeof(int64_t));
	struct tn_reader *reader;
	struct tn_error err;
	struct tn_event ev;
	int64_t last = INT64_MIN;

	if (tn_reader_create(trace, NULL, &reader, &err))
		return ties;
	while (ties->len < 50 && tn_reader_next(reader, &ev, &err) ==
			TN_READER_OK) {
		if (ev.kind == TN_EVENT_KIND_EVENT && ev.has_ns &&
		    ev.ns == last && (ties->len == 0 || g_array_index(ties,
				int64_t, ties->len - 1) != ev.ns))
			g_array_append_val(ties, ev.ns);
		last = ev.ns;
		tn_event_release(&ev);
	}
	tn_reader_destroy(reader);
	return ties;
}

static int64_t pick(GArray *times)
{
	return g_array_index(times, int64_t, prng_next() % times->len);
}

/* Every kind of target on one trace: random ones, packet boundaries,
 * ties, before the beginning and after the end. */
static void check_trace(const struct tn_trace *trace, const char *what,
		int random_targets)
{
	int64_t begin, end, span;
	GArray *bounds = packet_bounds(trace);
	GArray *ties = tie_times(trace);

	if (!tap_ok(tn_trace_get_time_range(trace, &begin, &end),
			"%s: has a time range", what))
		goto end;
	span = end - begin + 1;
	check_target(trace, what, "before the beginning", begin - NS_PER_S,
		false);
	check_target(trace, what, "the beginning", begin, false);
	check_target(trace, what, "the middle", begin + span / 2, true);
	for (int i = 0; i < FEWER(random_targets); i++)
		check_target(trace, what, "a random time",
			prng_between(begin - span / 20, end + span / 20),
			false);
	for (int i = 0; bounds->len > 0 && i < FEWER(3); i++) {
		int64_t bound = pick(bounds);

		check_target(trace, what, "a packet boundary", bound, false);
		check_target(trace, what, "a packet boundary - 1 ns",
			bound - 1, false);
		check_target(trace, what, "a packet boundary + 1 ns",
			bound + 1, false);
	}
	for (int i = 0; ties->len > 0 && i < FEWER(2); i++)
		check_target(trace, what, "an event with ties", pick(ties),
			false);
	check_target(trace, what, "the end", end, false);
	check_target(trace, what, "after the end", end + 1, true);
end:
	g_array_free(bounds, TRUE);
	g_array_free(ties, TRUE);
}

static struct tn_trace *open_trace(const char *path)
{
	struct tn_trace *trace;
	struct tn_error err;

	if (tn_trace_open(path, &trace, &err)) {
		printf("# %s\n", err.message);
		return NULL;
	}
	return trace;
}

/* splits: whether some split walks are expected to split (1: a trace
 * of one directory, with packets to skip at the middle), or none (0:
 * several directories); -1: not checked. */
static void check_generated(const char *name, const char *options,
		int random_targets, int splits)
{
	char *path = gen_trace(name, options);
	struct tn_trace *trace = open_trace(path);
	int before = splits_opened;

	if (tap_ok(trace != NULL, "%s: opens", name))
		check_trace(trace, name, random_targets);
	if (splits >= 0)
		tap_ok((splits_opened > before) == (splits == 1), "%s: %d "
			"split walks split (%s expected)", name,
			splits_opened - before, splits ? "some" : "none");
	close_trace(trace);
	g_free(path);
}

/* When a jump splits: a jump into the middle of 1 MiB packets decodes
 * about 2 MiB before its target in 4 streams (a few KB of metadata): in
 * 2 parts on 2 processors, 4 on 4, never more than TN_WALK_SPLIT_MAX,
 * and none on 1; a jump to the start, or one decoding little (the first
 * packets' start), is not split.  The jump reads a full read's rows
 * either way (check_jump()). */
static void check_near_parts(void)
{
	char *path = gen_trace("near-parts", "--events 150000 --cpus 4 "
		"--packet-size 1048576 --seed 13");
	struct tn_trace *trace = open_trace(path);
	struct tn_position start = { INT64_MIN, 0 }, pos;
	int64_t begin, end;

	if (!tap_ok(trace && tn_trace_get_time_range(trace, &begin, &end),
			"near-parts: opens, with a range")) {
		close_trace(trace);
		g_free(path);
		return;
	}
	pos.ns = begin + (end - begin) / 4 * 3;
	pos.tie = 0;
	tap_ok(tn_walk_near_parts(trace, &pos, 2) == 2 &&
		tn_walk_near_parts(trace, &pos, 4) == 4 &&
		tn_walk_near_parts(trace, &pos, 64) == TN_WALK_SPLIT_MAX &&
		tn_walk_near_parts(trace, &pos, 1) == 1,
		"near-parts: a jump into long packets splits over the "
		"processors");
	pos.tie = 1;
	tap_ok(tn_walk_near_parts(trace, &pos, 2) == 1,
		"near-parts: a position of tie 1 is not split");
	pos.ns = begin + 1000;
	pos.tie = 0;
	tap_ok(tn_walk_near_parts(trace, &start, 2) == 1 &&
		tn_walk_near_parts(trace, &pos, 2) == 1,
		"near-parts: a jump to the start or near it is not split");
	check_jump(trace, "near-parts", "three quarters",
		begin + (end - begin) / 4 * 3);
	close_trace(trace);
	g_free(path);
}

__attribute__((format(printf, 1, 2)))
static void run(const char *fmt, ...)
{
	va_list args;
	char *command;

	va_start(args, fmt);
	command = g_strdup_vprintf(fmt, args);
	va_end(args);
	if (system(command) != 0) {
		fprintf(stderr, "failed: %s\n", command);
		exit(99);
	}
	g_free(command);
}

/* A generated trace whose clock is not 1 GHz and has an offset in cycles
 * as well as in seconds: the metadata is text, so rewrite it. */
static void check_odd_clock(const char *name, const char *freq,
		const char *offset)
{
	char *path = gen_trace(name, "--events 6000 --cpus 3 "
		"--packet-size 4096 --lost-every 2 --seed 11");
	char *metadata = g_strdup_printf("%s/metadata", path);
	char *text, *edited;
	char **parts;
	char *what = g_strdup_printf("%s (freq %s, offset %s)", name, freq,
		offset);
	struct tn_trace *trace;
	GString *line = g_string_new(NULL);

	if (!g_file_get_contents(metadata, &text, NULL, NULL))
		exit(99);
	g_string_printf(line, "freq = %s;", freq);
	parts = g_strsplit(text, "freq = 1000000000;", -1);
	g_free(text);
	text = g_strjoinv(line->str, parts);
	g_strfreev(parts);
	g_string_printf(line, "offset = %s;", offset);
	parts = g_strsplit(text, "offset = 0;", -1);
	edited = g_strjoinv(line->str, parts);
	g_strfreev(parts);
	if (!g_file_set_contents(metadata, edited, -1, NULL))
		exit(99);
	trace = open_trace(path);
	if (tap_ok(trace != NULL, "%s: opens", what))
		check_trace(trace, what, 4);
	close_trace(trace);
	g_string_free(line, TRUE);
	g_free(text);
	g_free(edited);
	g_free(metadata);
	g_free(what);
	g_free(path);
}

static guchar *read_whole_file(const char *path, gsize *size)
{
	gchar *data;

	if (!g_file_get_contents(path, &data, size, NULL)) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(99);
	}
	return (guchar *) data;
}

static void write_whole_file(const char *path, const guchar *data, gsize size)
{
	if (!g_file_set_contents(path, (const gchar *) data, size, NULL)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(99);
	}
}

static uint64_t be64_at(const guchar *p)
{
	uint64_t value = 0;

	for (int i = 0; i < 8; i++)
		value = value << 8 | p[i];
	return value;
}

static void set_be64_at(guchar *p, uint64_t value)
{
	for (int i = 7; i >= 0; i--, value >>= 8)
		p[i] = value & 0xff;
}

/* Write packets [from, to) of stream file dir/name (72-byte index
 * entries) as out_dir/out_name with its index, offsets rebased. */
static void write_stream_part(const char *dir, const char *name, size_t from,
		size_t to, const char *out_dir, const char *out_name)
{
	char *path = g_strdup_printf("%s/%s", dir, name);
	char *idx_path = g_strdup_printf("%s/index/%s.idx", dir, name);
	gsize size, idx_size;
	guchar *data = read_whole_file(path, &size);
	guchar *idx = read_whole_file(idx_path, &idx_size);
	guchar *part_idx = g_malloc(16 + (to - from) * 72);
	uint64_t begin = be64_at(idx + 16 + from * 72);
	uint64_t end = to * 72 + 16 < idx_size ?
		be64_at(idx + 16 + to * 72) : size;

	memcpy(part_idx, idx, 16);
	memcpy(part_idx + 16, idx + 16 + from * 72, (to - from) * 72);
	for (size_t i = 0; i < to - from; i++)
		set_be64_at(part_idx + 16 + i * 72,
			be64_at(part_idx + 16 + i * 72) - begin);
	g_free(path);
	g_free(idx_path);
	path = g_strdup_printf("%s/%s", out_dir, out_name);
	idx_path = g_strdup_printf("%s/index/%s.idx", out_dir, out_name);
	write_whole_file(path, data + begin, end - begin);
	write_whole_file(idx_path, part_idx, 16 + (to - from) * 72);
	g_free(path);
	g_free(idx_path);
	g_free(data);
	g_free(idx);
	g_free(part_idx);
}

/* A trace whose streams go on from one file to the next: every stream
 * file of a generated trace (1 GHz clock, offset_s 1700000000) cut in
 * two, in one directory (tracefile rotation) or in two directories with
 * the same metadata (session rotation chunks).  Times in and around the
 * packets on both sides of each cut go to cut_times. */
static char *split_trace(const char *name, bool chunks, GArray *cut_times)
{
	char *src_name = g_strdup_printf("%s-whole", name);
	char *src = gen_trace(src_name, "--events 8000 --cpus 3 "
		"--packet-size 4096 --lost-every 2 --lost-packets-every 7 "
		"--seed 9");
	char *path = g_strdup_printf("%s/%s", gen_tmpdir(), name);
	char *first = chunks ? g_strdup_printf("%s/1", path) : g_strdup(path);
	char *second = chunks ? g_strdup_printf("%s/2", path) : g_strdup(path);

	run("mkdir -p '%s/index' '%s/index' && cp '%s/metadata' '%s' && "
		"cp '%s/metadata' '%s'", first, second, src, first, src,
		second);
	for (int cpu = 0; cpu < 3; cpu++) {
		char *stream = g_strdup_printf("channel0_%d", cpu);
		char *idx_path = g_strdup_printf("%s/index/%s.idx", src,
			stream);
		char *second_name = chunks ? g_strdup(stream) :
			g_strdup_printf("%s_1", stream);
		gsize idx_size;
		guchar *idx = read_whole_file(idx_path, &idx_size);
		size_t count = (idx_size - 16) / 72;
		size_t cut = count * (cpu + 1) / 4;

		for (size_t i = cut - 1; i <= cut; i++) {
			int64_t begin = 1700000000 * NS_PER_S + (int64_t)
				be64_at(idx + 16 + i * 72 + 24);
			int64_t end = 1700000000 * NS_PER_S + (int64_t)
				be64_at(idx + 16 + i * 72 + 32);
			int64_t times[] = { begin - 1, begin,
				begin + (end - begin) / 2, end };

			g_array_append_vals(cut_times, times, 4);
		}
		write_stream_part(src, stream, 0, cut, first, stream);
		write_stream_part(src, stream, cut, count, second,
			second_name);
		g_free(idx);
		g_free(idx_path);
		g_free(stream);
		g_free(second_name);
	}
	g_free(src_name);
	g_free(src);
	g_free(first);
	g_free(second);
	return path;
}

static void check_split(const char *name, bool chunks)
{
	GArray *cut_times = g_array_new(FALSE, FALSE, sizeof(int64_t));
	char *path = split_trace(name, chunks, cut_times);
	struct tn_trace *trace = open_trace(path);
	int before = splits_opened;

	if (tap_ok(trace != NULL, "%s: opens", name)) {
		for (guint i = 0; i < cut_times->len; i++)
			check_target(trace, name, "a packet around a cut",
				g_array_index(cut_times, int64_t, i), i == 0);
		check_trace(trace, name, 3);
	}
	/* A stream that goes on in another file stays in one part; the
	 * directories of chunks are several traces to src.ctf.fs. */
	tap_ok((splits_opened > before) == !chunks, "%s: %d split walks "
		"split (%s expected)", name, splits_opened - before,
		chunks ? "none" : "some");
	close_trace(trace);
	g_array_free(cut_times, TRUE);
	g_free(path);
}

/* A shared trace worth slicing: a directory with index/ somewhere
 * under it. */
static bool has_index_below(const char *path, int depth)
{
	GDir *listing;
	const char *name;
	bool found = false;

	if (depth > 8 || !(listing = g_dir_open(path, 0, NULL)))
		return false;
	while (!found && (name = g_dir_read_name(listing))) {
		char *child = g_strdup_printf("%s/%s", path, name);

		if (g_file_test(child, G_FILE_TEST_IS_DIR))
			found = strcmp(name, "index") == 0 ||
				has_index_below(child, depth + 1);
		g_free(child);
	}
	g_dir_close(listing);
	return found;
}

/* Each trace of the shared corpus (suite/name) holding packet indexes. */
static void check_shared(void)
{
	const char *env = getenv("TRACENAV_SHARED_TRACES");
	const char *top = getenv("top_srcdir");
	char *root = env ? g_strdup(env) :
		g_strdup_printf("%s/../shared/traces", top ? top : ".");
	const char *suites[] = { "babeltrace2/succeed", "tracecompass" };
	int tried = 0;
	unsigned seen = 0;

	for (size_t s = 0; s < G_N_ELEMENTS(suites); s++) {
		char *suite = g_strdup_printf("%s/%s", root, suites[s]);
		GDir *listing = g_dir_open(suite, 0, NULL);
		const char *name;

		while (listing && (name = g_dir_read_name(listing))) {
			char *path = g_strdup_printf("%s/%s", suite, name);
			char *what = g_strdup_printf("%s/%s", suites[s], name);
			struct tn_trace *trace;

			if (gen_corpus_share(seen++, 2) &&
			    has_index_below(path, 0) &&
			    (trace = open_trace(path))) {
				check_trace(trace, what, 3);
				close_trace(trace);
				tried++;
			}
			g_free(what);
			g_free(path);
		}
		if (listing)
			g_dir_close(listing);
		g_free(suite);
	}
	if (tried == 0)
		printf("ok %d # SKIP no shared traces with indexes under %s\n",
			++tap_count, root);
	g_free(root);
}

static void expect_refusal(const struct tn_trace *trace, const char *what,
		const char *word)
{
	struct tn_slice *slice = NULL;
	struct tn_error err = { "" };
	int64_t begin, end;
	int status;

	tn_trace_get_time_range(trace, &begin, &end);
	status = tn_slice_create(trace, begin + (end - begin) / 2, 0, &slice,
		&err);
	tap_ok(status == -1 && slice == NULL && strstr(err.message, word),
		"%s: cannot slice (\"%s\")", what, err.message);
	tn_slice_destroy(slice);
}

static void write_be64_at(const char *path, long at, uint64_t value)
{
	FILE *f = fopen(path, "r+b");
	unsigned char bytes[8];

	for (int i = 7; i >= 0; i--, value >>= 8)
		bytes[i] = value & 0xff;
	if (!f || fseek(f, at, SEEK_SET) || fwrite(bytes, 8, 1, f) != 1 ||
	    fclose(f)) {
		fprintf(stderr, "cannot write %s\n", path);
		exit(99);
	}
}

/* Traces without an index or with a damaged one are refused, with a
 * message naming the file, never a crash. */
static void check_refusals(void)
{
	char *plain = gen_trace("noindex", "--events 2000 --no-index");
	char *path = gen_trace("damaged", "--events 3000 --cpus 2 "
		"--packet-size 4096");
	char *idx = g_strdup_printf("%s/index/channel0_0.idx", path);
	char *saved = g_strdup_printf("%s.saved", idx);
	struct tn_trace *trace = open_trace(plain);

	if (tap_ok(trace != NULL, "noindex: opens"))
		expect_refusal(trace, "a trace without index", "no packet index");
	close_trace(trace);

	/* Open while the index is sound, then damage it. */
	trace = open_trace(path);
	if (!tap_ok(trace != NULL, "damaged: opens"))
		goto end;
	run("cp '%s' '%s'", idx, saved);

	run("truncate -s 100 '%s'", idx);
	expect_refusal(trace, "a truncated index", "channel0_0.idx: truncated");
	run("truncate -s 10 '%s'", idx);
	expect_refusal(trace, "an index shorter than its header",
		"truncated header");

	run("cp '%s' '%s'", saved, idx);
	write_be64_at(idx, 16 + 72 + 0, 4095);	/* packet 1's offset */
	expect_refusal(trace, "an index with a wrong offset",
		"packet 1 is at byte 4095");

	run("cp '%s' '%s'", saved, idx);
	write_be64_at(idx, 16 + 8, 8 * 4096 + 8 * 8);	/* packet 0's size */
	expect_refusal(trace, "an index whose sizes do not add up",
		"not right after");

	run("cp '%s' '%s'", saved, idx);
	write_be64_at(idx, 0, 0);	/* magic and major */
	expect_refusal(trace, "an index with a bad magic", "magic");

	run("cp '%s' '%s'", saved, idx);
	run("head -c 16 '%s' > '%s'", saved, idx);
	expect_refusal(trace, "an index without entries",
		"no entries after the header");

	run("rm '%s'", idx);
	expect_refusal(trace, "a stream without its index", "channel0_0");
end:
	close_trace(trace);
	g_free(idx);
	g_free(saved);
	g_free(plain);
	g_free(path);
}

/* ---- traces without index files, sliced from packet tables ---- */

static struct tn_index *build_index(const struct tn_trace *trace)
{
	struct tn_index *index;
	struct tn_error err;
	struct tn_job *job;

	if (tn_index_build_start(trace, 0, &job, &err)) {
		printf("# %s\n", err.message);
		return NULL;
	}
	tn_job_wait(job);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	return index;
}

/* Packet bounds from the tables, as targets. */
static void check_table_bounds(const struct tn_trace *trace, const char *what,
		const struct tn_index *index)
{
	for (int i = 0; i < FEWER(4); i++) {
		const struct tn_packet_tables *tables =
			tn_index_borrow_packet_tables(index);
		size_t table = prng_next() %
			tn_packets_get_table_count(tables);
		uint64_t k = prng_next() %
			tn_packets_get_packet_count(tables, table);
		int64_t begin = tn_packets_borrow_begin_ns(tables, table)[k];
		int64_t end = tn_packets_borrow_end_ns(tables, table)[k];

		check_target(trace, what, "a packet begin", begin, false);
		check_target(trace, what, "a packet end", end, false);
		check_target(trace, what, "a packet end + 1 ns", end + 1,
			false);
	}
}

/* A copy of stream file path, to restore it. */
static char *save_copy(const char *path)
{
	char *saved = g_strdup_printf("%s/saved-stream", gen_tmpdir());

	run("cp '%s' '%s'", path, saved);
	return saved;
}

/* Restore path from saved, and free saved. */
static void restore_copy(char *saved, const char *path)
{
	run("cp '%s' '%s'", saved, path);
	g_free(saved);
}

/* A stream file that does not look like fixed-size packets any more
 * (after the preparse) is refused, never sliced wrong. */
static void check_synthesis_refusals(const struct tn_trace *trace,
		const char *path)
{
	char *stream = g_strdup_printf("%s/host1/channel0_1", path);
	char *saved = save_copy(stream);

	run("printf x >> '%s'", stream);
	expect_refusal(trace, "a stream file grown by a byte", "not a multiple");
	restore_copy(saved, stream);

	saved = save_copy(stream);
	run("printf 'abcd' | dd of='%s' bs=1 seek=4096 conv=notrunc "
		"status=none", stream);
	expect_refusal(trace, "a packet without its magic", "no CTF packet "
		"magic at byte 4096");
	restore_copy(saved, stream);
	g_free(stream);
}

/* ---- several threads slicing and reading at once ---- */

#define SLICING_THREADS 4

struct slicing {
	const struct tn_trace *trace;
	int64_t target;
	GPtrArray *want;	/* the whole trace's first items from target */
	bool same;		/* every read through a slice matched */
};

static void *slice_and_read(void *data)
{
	struct slicing *slicing = data;

	slicing->same = true;
	for (int round = 0; round < 3 && slicing->same; round++) {
		struct tn_slice *slice;
		struct tn_error err;
		GPtrArray *got = NULL;

		if (tn_slice_create(slicing->trace, slicing->target,
				TN_SLICE_KEEP_PREVIOUS, &slice, &err)) {
			printf("# %s\n", err.message);
			slicing->same = false;
			break;
		}
		got = read_items(slicing->trace, slice, true, slicing->target,
			FIRST_ITEMS);
		slicing->same = got && got->len == slicing->want->len &&
			same_items(got, slicing->want);
		if (got)
			g_ptr_array_free(got, TRUE);
		tn_slice_destroy(slice);
	}
	tn_core_thread_cleanup();
	return NULL;
}

/* Threads slice the trace at once, from the same packet tables (their
 * magic-check memo fills while they race) and open readers at once (the
 * component classes they share): each reads what the whole trace has. */
static void check_concurrent_slices(const struct tn_trace *trace,
		const char *what, int64_t begin, int64_t end)
{
	struct slicing slicings[SLICING_THREADS];
	pthread_t threads[SLICING_THREADS];
	int started = 0;
	bool same = true;

	for (int i = 0; i < SLICING_THREADS; i++) {
		int64_t target = begin + (end - begin) / (SLICING_THREADS + 1) *
			(i + 1);

		slicings[i] = (struct slicing) {
			.trace = trace,
			.target = target,
			.want = read_items(trace, NULL, true, target,
				FIRST_ITEMS),
		};
	}
	for (; started < SLICING_THREADS; started++)
		if (!slicings[started].want ||
		    pthread_create(&threads[started], NULL, slice_and_read,
				&slicings[started]))
			break;
	for (int i = 0; i < started; i++) {
		pthread_join(threads[i], NULL);
		same = same && slicings[i].same;
	}
	tap_ok(started == SLICING_THREADS && same,
		"%s: %d threads slicing and reading at once read what the "
		"whole trace has", what, SLICING_THREADS);
	for (int i = 0; i < SLICING_THREADS; i++)
		if (slicings[i].want)
			g_ptr_array_free(slicings[i].want, TRUE);
}

static void check_synthesised(void)
{
	char *path = gen_trace("noidx", "--events 8000 --cpus 3 --traces 2 "
		"--packet-size 4096 --lost-every 5 --no-index --seed 9");
	struct tn_trace *trace = open_trace(path);
	struct tn_index *index = NULL;

	if (!tap_ok(trace != NULL, "noidx: opens"))
		goto end;
	expect_refusal(trace, "noidx, no packet tables given",
		"no packet index");
	index = build_index(trace);
	if (!tap_ok(index && tn_packets_get_table_count(
			tn_index_borrow_packet_tables(index)) == 6,
			"noidx: the preparse keeps the packets of its 6 "
			"stream files (%zu)", index ? tn_packets_get_table_count(
			tn_index_borrow_packet_tables(index)) : 0))
		goto end;
	tn_trace_set_packet_tables(trace,
		tn_index_borrow_packet_tables(index));
	check_concurrent_slices(trace, "noidx", index->begin_ns,
		index->end_ns);
	check_trace(trace, "noidx", 14);
	check_table_bounds(trace, "noidx", index);
	check_synthesis_refusals(trace, path);
	check_target(trace, "noidx restored", "the middle", index->begin_ns +
		(index->end_ns - index->begin_ns) / 2, true);
	tn_trace_set_packet_tables(trace, NULL);
	expect_refusal(trace, "noidx, packet tables taken back",
		"no packet index");
end:
	close_trace(trace);
	tn_index_destroy(index);
	g_free(path);
}

/* Packets without times (DPDK): no slice before the preparse; after it,
 * slices from packet tables made of the events' times, and jumps that
 * read what a full read has.  The trimmer is never involved. */
static void check_no_packet_times(void)
{
	char *path = gen_trace("no-times", "--events 8000 --cpus 3 "
		"--packet-size 4096 --lost-every 4 --no-packet-times --seed 12");
	struct tn_trace *trace = open_trace(path);
	struct tn_index *index = NULL;
	struct tn_slice *slice = NULL;
	struct tn_error err = { "" };
	int64_t begin, end, first, last;
	GPtrArray *sliced, *whole;

	if (!tap_ok(trace != NULL, "no-times: opens"))
		goto end;
	tap_ok(!tn_trace_get_time_range(trace, &begin, &end) &&
		tn_trace_get_first_event_time(trace, &first) &&
		first == gen_plan_value(path, "first_ns"),
		"no-times: no packet time range, the first event's time read "
		"at open");
	expect_refusal(trace, "no-times, not indexed", "no packet index");
	index = build_index(trace);
	if (!tap_ok(index && index->event_count == 8000 &&
			index->first_event_ns == first &&
			index->last_event_ns == gen_plan_value(path, "last_ns") &&
			tn_packets_get_table_count(
				tn_index_borrow_packet_tables(index)) == 3,
			"no-times: the index knows the first and last events "
			"and the packets of the 3 stream files"))
		goto end;
	tn_trace_set_packet_tables(trace,
		tn_index_borrow_packet_tables(index));
	first = index->first_event_ns;
	last = index->last_event_ns;
	if (tap_ok(tn_slice_create(trace, first + (last - first) / 2, 0,
			&slice, &err) == 0, "no-times: sliced from the packet "
			"tables (%s)", err.message)) {
		sliced = read_items(trace, slice, false, 0, 0);
		whole = read_items(trace, NULL, false, 0, 0);
		tap_ok(sliced && whole && sliced->len > 0 &&
			sliced->len < whole->len * 2 / 3,
			"no-times: a slice of the middle starts near the middle "
			"(%u of %u items)", sliced ? sliced->len : 0,
			whole ? whole->len : 0);
		if (sliced)
			g_ptr_array_free(sliced, TRUE);
		if (whole)
			g_ptr_array_free(whole, TRUE);
		tn_slice_destroy(slice);
	}
	check_jump(trace, "no-times", "the first event", first);
	check_jump(trace, "no-times", "the middle", first + (last - first) / 2);
	for (int i = 0; i < FEWER(10); i++)
		check_jump(trace, "no-times", "a random time",
			prng_between(first, last));
	check_jump(trace, "no-times", "the last event", last);
	check_jump(trace, "no-times", "after the last event", last + 1);
	tn_trace_set_packet_tables(trace, NULL);
end:
	close_trace(trace);
	tn_index_destroy(index);
	g_free(path);
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* The private directory of a slice (the parent of its views), or NULL
 * when nothing is kept. */
static char *slice_root(const struct tn_trace *trace,
		const struct tn_slice *slice)
{
	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++) {
		const char *view = tn_slice_map_dir(slice,
			tn_trace_get_dir(trace, i));

		if (view)
			return g_path_get_dirname(view);
	}
	return NULL;
}

/* A slice of the middle reads less than the whole trace without bounds
 * (src.ctf.fs used the sliced index), and nothing after the end. */
static void check_really_sliced(const struct tn_trace *trace)
{
	struct tn_slice *slice;
	struct tn_error err;
	int64_t begin, end;
	GPtrArray *sliced, *whole;
	bool none = true;

	tn_trace_get_time_range(trace, &begin, &end);
	if (tn_slice_create(trace, begin + (end - begin) / 2, 0, &slice,
			&err))
		return (void) tap_ok(false, "slices the middle: %s",
			err.message);
	sliced = read_items(trace, slice, false, 0, 0);
	whole = read_items(trace, NULL, false, 0, 0);
	tap_ok(sliced && whole && sliced->len > 0 &&
		sliced->len < whole->len * 2 / 3,
		"a slice of the middle starts near the middle (%u of %u items)",
		sliced ? sliced->len : 0, whole ? whole->len : 0);
	if (sliced)
		g_ptr_array_free(sliced, TRUE);
	if (whole)
		g_ptr_array_free(whole, TRUE);
	tn_slice_destroy(slice);

	if (tn_slice_create(trace, end + 1, 0, &slice, &err))
		return (void) tap_ok(false, "slices after the end: %s",
			err.message);
	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++)
		none &= tn_slice_map_dir(slice, tn_trace_get_dir(trace, i)) ==
			NULL;
	tap_ok(none, "after the end, no directory is left in the slice");
	sliced = read_items(trace, slice, true, end + 1, 0);
	tap_ok(sliced && sliced->len == 0, "after the end, a slice reads "
		"nothing");
	if (sliced)
		g_ptr_array_free(sliced, TRUE);
	tn_slice_destroy(slice);
}

/* A slice that would keep every packet is refused: the reader reads the
 * trace itself. */
static void check_nothing_to_skip(const struct tn_trace *trace)
{
	struct tn_slice *slice = NULL;
	struct tn_error err;
	int64_t begin, end;

	tn_trace_get_time_range(trace, &begin, &end);
	tap_ok(tn_slice_create(trace, begin, 0, &slice, &err) == -1 &&
		slice == NULL && strstr(err.message, "nothing to skip"),
		"a slice at the start is refused (\"%s\")", err.message);
	tap_ok(tn_slice_create(trace, begin, TN_SLICE_KEEP_PREVIOUS, &slice,
		&err) == -1 && strstr(err.message, "nothing to skip"),
		"so is one keeping the packet before");
}

/* A collection of two hosts, the second recorded after the first: a
 * slice in the first host's time keeps the second's directory whole,
 * and that directory is its own view (nothing written for its
 * streams); the slice reads what the whole collection has. */
static void check_whole_dirs(void)
{
	char *first = gen_trace("later/early", "--events 6000 --cpus 8 "
		"--packet-size 4096 --hostname early --seed 31");
	char *second = gen_trace("later/late", "--events 6000 --cpus 8 "
		"--packet-size 4096 --hostname late --seed 32 "
		"--start 1700000100");
	char *path = g_path_get_dirname(first);
	int64_t target = gen_plan_value(first, "first_ns") +
		(gen_plan_value(first, "last_ns") -
		 gen_plan_value(first, "first_ns")) / 2;
	struct tn_trace *trace = open_trace(path);
	struct tn_slice *slice;
	struct tn_error err = { "" };
	GPtrArray *got, *want;
	const char *view;
	char *written;

	if (!tap_ok(trace != NULL, "later: opens"))
		goto end;
	if (!tap_ok(tn_slice_create(trace, target, 0, &slice, &err) == 0,
			"later: slices the first host's middle (%s)",
			err.message))
		goto end;
	view = tn_slice_map_dir(slice, second);
	tap_ok(view && strcmp(view, second) == 0,
		"later: the second host's directory stands for itself");
	view = tn_slice_map_dir(slice, first);
	written = view ? g_strdup_printf("%s/index", view) : NULL;
	tap_ok(view && strcmp(view, first) != 0 && written &&
		g_file_test(written, G_FILE_TEST_IS_DIR),
		"later: the first host's has a view of its own");
	got = read_items(trace, slice, true, target, 0);
	want = read_items(trace, NULL, true, target, 0);
	tap_ok(got && want && want->len > 6000 && same_items(got, want),
		"later: the slice reads the %u items of a full read from the "
		"target", want ? want->len : 0);
	if (got)
		g_ptr_array_free(got, TRUE);
	if (want)
		g_ptr_array_free(want, TRUE);
	tn_slice_destroy(slice);
	tap_ok(g_file_test(second, G_FILE_TEST_IS_DIR) && written &&
		!g_file_test(written, G_FILE_TEST_EXISTS),
		"later: destroying the slice removes its view, not the trace");
	g_free(written);
end:
	close_trace(trace);
	g_free(path);
	g_free(first);
	g_free(second);
}

static volatile sig_atomic_t hangups;

static void count_hangup(int signo)
{
	(void) signo;
	hangups++;
}

/* A signal that runs the cleanup, arriving on a thread while it makes
 * private files (a slice's tree), waits until they are made and
 * registered: a handler run in between could not wait for the making it
 * interrupted, and would leave the files behind. */
static void check_signal_while_making(void)
{
	struct sigaction count = { .sa_handler = count_hangup }, before;

	sigemptyset(&count.sa_mask);
	sigaction(SIGHUP, &count, &before);
	hangups = 0;
	if (tap_ok(tn_runtime_create_begin(), "making: begins")) {
		raise(SIGHUP);
		tap_ok(hangups == 0, "making: a SIGHUP is held back");
		if (tn_runtime_create_begin()) {	/* nested */
			tn_runtime_create_end();
			tap_ok(hangups == 0,
				"making: still held after a nested pair");
		}
		tn_runtime_create_end();
		tap_ok(hangups == 1, "making ended: the SIGHUP arrives");
	}
	raise(SIGHUP);
	tap_ok(hangups == 2, "not making: a SIGHUP arrives at once");
	sigaction(SIGHUP, &before, NULL);
}

/* Slice directories go away on destroy and on tn_runtime_cleanup(),
 * after which none is made (the last check of the process). */
static void check_cleanup(const struct tn_trace *trace)
{
	struct tn_slice *a, *b;
	struct tn_error err;
	int64_t begin, end;
	char *root_a, *root_b;

	tn_trace_get_time_range(trace, &begin, &end);
	/* Slices that skip something (at the start, one is refused). */
	begin += (end - begin) / 2;
	if (!tap_ok(tn_slice_create(trace, begin, 0, &a, &err) == 0 &&
			tn_slice_create(trace, end, 0, &b, &err) == 0,
			"two slices at once"))
		return;
	root_a = slice_root(trace, a);
	root_b = slice_root(trace, b);
	tap_ok(root_a && root_b && exists(root_a) && exists(root_b) &&
		strcmp(root_a, root_b) != 0, "each has its own directory");
	tn_slice_destroy(a);
	tap_ok(!exists(root_a) && exists(root_b),
		"destroy removes its directory, and only its own");
	tn_runtime_cleanup();
	tap_ok(!exists(root_b), "tn_runtime_cleanup() removes the others");
	tn_runtime_cleanup();
	tn_slice_destroy(b);
	tap_ok(true, "destroying a slice after the cleanup is harmless");
	g_free(root_a);
	g_free(root_b);
	/* The cleanup is the process's end: a slice made after it (by a
	 * thread still running) would stay behind. */
	a = NULL;
	tap_ok(tn_slice_create(trace, begin, 0, &a, &err) == -1 && !a &&
		strstr(err.message, "tracenav is ending"),
		"after the cleanup, no slice is made (it would be left behind)");
	tn_slice_destroy(a);
}

/* The runtime directory must be a directory of ours, mode 0700. */
static void check_runtime_dir(const struct tn_trace *trace)
{
	char *xdg = g_strdup_printf("%s/xdg", gen_tmpdir());
	char *dir = g_strdup_printf("%s/tracenav", xdg);
	struct tn_slice *slice = NULL;
	struct tn_error err;
	struct stat st;
	int64_t begin, end;

	tn_trace_get_time_range(trace, &begin, &end);
	begin += (end - begin) / 2;
	mkdir(xdg, 0700);
	setenv("XDG_RUNTIME_DIR", xdg, 1);
	if (symlink("/tmp", dir) != 0)
		exit(99);
	tap_ok(tn_slice_create(trace, begin, 0, &slice, &err) == -1 &&
		strstr(err.message, "not a directory"),
		"refuses a symlink as runtime directory (\"%s\")", err.message);
	unlink(dir);
	mkdir(dir, 0755);
	chmod(dir, 0755);
	tap_ok(tn_slice_create(trace, begin, 0, &slice, &err) == -1 &&
		strstr(err.message, "mode 0755"),
		"refuses a runtime directory others can enter (\"%s\")",
		err.message);
	rmdir(dir);
	tap_ok(tn_slice_create(trace, begin, 0, &slice, &err) == 0 &&
		lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
		(st.st_mode & 07777) == 0700,
		"creates $XDG_RUNTIME_DIR/tracenav with mode 0700");
	tn_slice_destroy(slice);
	rmdir(dir);
	g_free(dir);
	g_free(xdg);
}

int main(void)
{
	char *runtime = g_strdup_printf("%s/runtime", gen_tmpdir());
	struct tn_trace *trace;
	char *path;

	/* Keep the user's runtime directory out of the tests. */
	mkdir(runtime, 0700);
	setenv("XDG_RUNTIME_DIR", runtime, 1);
	g_free(runtime);

	check_generated("lost", "--events 8000 --cpus 4 --packet-size 4096 "
		"--lost-every 3 --lost-packets-every 5 --seed 5", 14, 1);
	check_generated("hosts", "--events 8000 --traces 3 --domain both "
		"--cpus 2 --packet-size 4096 --lost-every 4 --seed 6", 12, 0);
	/* Every stream needs its first packet at the middle: whether a
	 * target splits depends on the targets drawn. */
	check_generated("big-packets", "--events 8000 --cpus 3 --seed 7", 8,
		-1);
	path = gen_trace("cancel", "--events 8000 --cpus 3 --seed 7");
	trace = open_trace(path);
	if (trace)
		check_split_cancel(trace);
	close_trace(trace);
	g_free(path);
	/* Runs of equal times across streams: the parts' merge must order
	 * them as a whole read does. */
	check_generated("ties", "--events 6000 --cpus 5 --packet-size 4096 "
		"--ties 2 --seed 11", 8, 1);
	check_near_parts();
	check_odd_clock("clock-fast", "2500000000", "1234567891");
	check_odd_clock("clock-slow", "33333333", "777");
	check_split("rotated", false);
	check_split("chunks", true);
	check_shared();
	check_refusals();
	check_synthesised();
	check_no_packet_times();
	check_whole_dirs();

	path = gen_trace("small", "--events 3000 --cpus 2 --packet-size 4096");
	trace = open_trace(path);
	if (tap_ok(trace != NULL, "small: opens")) {
		check_really_sliced(trace);
		check_nothing_to_skip(trace);
		check_runtime_dir(trace);
		check_signal_while_making();
		check_cleanup(trace);
	}
	close_trace(trace);
	g_free(path);
	forget_reference();
	gen_cleanup();
	return tap_done();
}
