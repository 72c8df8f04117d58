/* test-cursor.c - the event list's model: moves inside the ring read
 * nothing, moves past it read the right events, seeks land where they
 * should. */
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/cursor.h"
#include "tracenav/index.h"
#include "tracenav/job.h"

/* The time of the current row, or -1. */
static int64_t current_ns(struct tn_cursor *cursor)
{
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(cursor, 0, &err);

	return row ? row->pos.ns : -1;
}

static struct tn_index *build_index(const struct tn_trace *trace)
{
	struct tn_index *index;
	struct tn_error err;
	struct tn_job *job;

	if (tn_index_build_start(trace, 0, &job, &err))
		return NULL;
	tn_job_wait(job);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	return index;
}

/* Every event's position, from a plain read. */
static GArray *read_positions(const struct tn_trace *trace)
{
	GArray *all = g_array_new(FALSE, FALSE, sizeof(struct tn_position));
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return all;
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		g_array_append_val(all, row.pos);
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	return all;
}

/* The rows from offset `from` to `to` are the events all[at + from..]. */
static bool rows_are(struct tn_cursor *cursor, GArray *all, int64_t at,
		int64_t from, int64_t to)
{
	struct tn_error err;

	for (int64_t i = from; i <= to; i++) {
		const struct tn_row *row = tn_cursor_row(cursor, i, &err);

		if (!row || at + i < 0 || at + i >= (int64_t) all->len ||
		    tn_position_compare(&row->pos, &g_array_index(all,
				struct tn_position, at + i)) != 0)
			return false;
	}
	return true;
}

/* The index in all of the current event, or -1. */
static int64_t current_index(struct tn_cursor *cursor, GArray *all)
{
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(cursor, 0, &err);

	for (guint i = 0; row && i < all->len; i++)
		if (tn_position_compare(&row->pos, &g_array_index(all,
				struct tn_position, i)) == 0)
			return i;
	return -1;
}

struct seek_job {
	struct tn_cursor *cursor;
	int64_t ns;
	struct tn_error err;
	int status;
};

static int run_seek(struct tn_job *job, void *data, struct tn_error *err)
{
	struct seek_job *seek = data;

	(void) err;
	/* Cancelled before it starts reading: it stops at its first look
	 * at the cancel, some hundred events into its reading. */
	while (!tn_job_is_cancelled(job))
		g_usleep(100);
	seek->status = tn_cursor_seek_time(seek->cursor, seek->ns,
		&seek->err);
	return 0;
}

static const struct tn_job_class seek_class = { "seeking", run_seek,
	NULL, NULL };

/* A jump cancelled as it reads (it reads more than a few hundred
 * events) leaves the cursor where it was. */
static void check_cancel(const char *what, struct tn_cursor *cursor,
		int64_t ns)
{
	struct seek_job seek = { cursor, ns, { "" }, 0 };
	const struct tn_row *row;
	struct tn_position before;
	struct tn_error err;
	struct tn_job *job;

	row = tn_cursor_row(cursor, 0, &err);
	before = row->pos;
	if (tn_job_start(&seek_class, &seek, &job, &err))
		return (void) tap_ok(false, "%s: %s", what, err.message);
	tn_job_cancel(job);
	tn_job_destroy(job);
	row = tn_cursor_row(cursor, 0, &err);
	tap_ok(seek.status == -1 && strcmp(seek.err.message, "cancelled") == 0 &&
		row && tn_position_compare(&row->pos, &before) == 0,
		"%s: cancelled, the cursor stays (%s)", what, seek.err.message);
}

/* A jump keeps what it read before its target: moving up from there
 * reads nothing, and so does moving up from the last event. */
static void check_jumps(void)
{
	char *path = gen_trace("jumps", "--events 20000 --cpus 3 "
		"--packet-size 65536 --lost-every 3 --seed 8");
	int64_t first = gen_plan_value(path, "first_ns");
	int64_t last = gen_plan_value(path, "last_ns");
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_error err;
	int64_t at, begin, end;
	uint64_t reads;
	GArray *all;
	bool exact;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0 &&
			tn_cursor_create(trace, NULL, &cursor, &err) == 0,
			"jumps: opens"))
		return;
	all = read_positions(trace);
	tap_ok(tn_cursor_get_time_span(cursor, &begin, &end, &exact) &&
		!exact && begin <= first && end >= last,
		"before the end was read: the packets' time range, not exact");
	check_cancel("a jump", cursor, first + (last - first) / 2);
	tap_ok(tn_cursor_seek_time(cursor, first + (last - first) / 2,
		&err) == 0, "jump to the middle");
	at = current_index(cursor, all);
	reads = tn_cursor_get_read_count(cursor);
	tap_ok(at > 0 && rows_are(cursor, all, at, -100, 40),
		"the 100 rows before and 40 after are the trace's");
	tn_cursor_move(cursor, -22, NULL, &err);
	tn_cursor_move(cursor, -22, NULL, &err);
	tap_int_eq(tn_cursor_get_read_count(cursor), reads,
		"page up twice right after a jump reads nothing");
	tap_int_eq(current_index(cursor, all), at - 44, "and lands 44 up");
	tap_ok(tn_cursor_seek_last(cursor, &err) == 0, "seek to the last");
	reads = tn_cursor_get_read_count(cursor);
	tap_ok(rows_are(cursor, all, (int64_t) all->len - 1, -200, 0),
		"the last 201 rows are the trace's, read at once");
	tap_int_eq(tn_cursor_get_read_count(cursor), reads,
		"moving up from the last event reads nothing");
	tap_ok(tn_cursor_get_time_span(cursor, &begin, &end, &exact) &&
		exact && begin == first && end == last,
		"once the last event was read: the events' span, exact");
	tap_ok(tn_cursor_seek_first(cursor, &err) == 0 &&
		tn_cursor_seek_time(cursor, first + (last - first) / 10, &err)
		== 0, "a jump forward near the start");
	tap_ok(rows_are(cursor, all, current_index(cursor, all), -50, 10),
		"lands among the trace's rows");
	g_array_free(all, TRUE);
	tn_cursor_destroy(cursor);
	tn_trace_destroy(trace);
	g_free(path);
}

/* Packets without times: NN% needs the events' span, which the index
 * gives; a jump ahead reads on from where the cursor is. */
static void check_no_packet_times(void)
{
	char *path = gen_trace("no-times", "--events 20000 --cpus 3 "
		"--packet-size 4096 --no-packet-times --seed 4");
	int64_t first = gen_plan_value(path, "first_ns");
	int64_t last = gen_plan_value(path, "last_ns");
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_index *index;
	struct tn_error err;
	int64_t begin, end;
	bool exact;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0 &&
			tn_cursor_create(trace, NULL, &cursor, &err) == 0,
			"no-times: opens"))
		return;
	tap_ok(!tn_cursor_get_time_span(cursor, &begin, &end, &exact),
		"no-times: no span before the index");
	tap_ok(tn_cursor_seek_fraction(cursor, 0.5, &err) == -1 &&
		strstr(err.message, "time range not known yet"),
		"no-times: NN%% says the time range is not known yet (%s)",
		err.message);
	tap_int_eq(current_ns(cursor), first, "and the cursor stays");
	check_cancel("no-times: a jump reading on", cursor,
		first + (last - first) / 2);
	tap_ok(tn_cursor_seek_time(cursor, last, &err) == 0 &&
		current_ns(cursor) == last, "no-times: goto the last time");
	index = build_index(trace);
	tn_cursor_set_index(cursor, index);
	tap_ok(index && tn_cursor_get_time_span(cursor, &begin, &end,
		&exact) && exact && begin == first && end == last,
		"no-times: the index gives the events' span");
	tap_ok(tn_cursor_seek_fraction(cursor, 0.5, &err) == 0 &&
		current_ns(cursor) >= first + (last - first) / 2,
		"no-times: NN%% once indexed");
	tn_cursor_destroy(cursor);
	tn_index_destroy(index);
	tn_trace_destroy(trace);
	g_free(path);
}

static bool match_nothing(const struct tn_event *ev, void *data)
{
	(void) ev;
	(void) data;
	return false;
}

/* Events of one CPU (data: the cpu_id, as an int). */
static bool match_cpu(const struct tn_event *ev, void *data)
{
	return tn_event_get_cpu(ev) == *(const int *) data;
}

/* A filter that leaves no event, then another one: the list comes back
 * where it was (the same event without a filter; the next that passes
 * with one), not on the first event. */
static void check_empty_filter(struct tn_trace *trace)
{
	struct tn_filter none = { match_nothing, NULL };
	struct tn_filter one_cpu;
	struct tn_cursor *cursor;
	struct tn_error err;
	GArray *all = read_positions(trace);
	int64_t at;
	int cpu = 1;

	one_cpu.match = match_cpu;
	one_cpu.data = &cpu;
	if (!tap_ok(tn_cursor_create(trace, NULL, &cursor, &err) == 0,
			"empty filter: cursor"))
		return;
	tn_cursor_move(cursor, 2500, NULL, &err);
	at = current_index(cursor, all);
	tap_ok(tn_cursor_set_filter(cursor, &none, NULL, &err) == 0 &&
		tn_cursor_is_empty(cursor), "a filter that passes nothing: "
		"an empty list");
	tap_ok(tn_cursor_set_filter(cursor, &none, NULL, &err) == 0 &&
		tn_cursor_is_empty(cursor), "and another one on top");
	tap_ok(tn_cursor_set_filter(cursor, NULL, NULL, &err) == 0,
		"the filters removed");
	tap_int_eq(current_index(cursor, all), at,
		"the cursor is back on the event it was on");
	tn_cursor_set_filter(cursor, &none, NULL, &err);
	tap_ok(tn_cursor_set_filter(cursor, &one_cpu, NULL, &err) == 0 &&
		!tn_cursor_is_empty(cursor), "then a filter on one CPU");
	{
		const struct tn_row *row = tn_cursor_row(cursor, 0, &err);
		const struct tn_row *before = tn_cursor_row(cursor, -1, &err);
		const struct tn_position *from = &g_array_index(all,
			struct tn_position, at);

		tap_ok(row && tn_event_get_cpu(&row->ev) == 1 &&
			tn_position_compare(&row->pos, from) >= 0 &&
			(!before ||
			 tn_position_compare(&before->pos, from) < 0),
			"on the first event of that CPU from there");
	}
	g_array_free(all, TRUE);
	tn_cursor_destroy(cursor);
}

int main(void)
{
	char *path = gen_trace("cursor", "--events 5000 --cpus 3 "
		"--packet-size 4096 --seed 5");
	int64_t first = gen_plan_value(path, "first_ns");
	int64_t last = gen_plan_value(path, "last_ns");
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_error err;
	int64_t moved, at_100;
	uint64_t reads;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "opens") ||
	    !tap_ok(tn_cursor_create(trace, NULL, &cursor, &err) == 0,
			"cursor created"))
		return tap_done();
	tap_int_eq(current_ns(cursor), first, "starts on the first event");
	tap_ok(tn_cursor_row(cursor, -1, &err) == NULL && !err.message[0],
		"nothing before the first event");

	tn_cursor_move(cursor, 100, &moved, &err);
	tap_int_eq(moved, 100, "moves down 100");
	at_100 = current_ns(cursor);
	reads = tn_cursor_get_read_count(cursor);
	for (int i = 0; i < 50; i++) {
		tn_cursor_move(cursor, -1, NULL, &err);
		tn_cursor_move(cursor, 1, NULL, &err);
		tn_cursor_row(cursor, -20, &err);
		tn_cursor_row(cursor, 20, &err);
	}
	tap_int_eq(tn_cursor_get_read_count(cursor), reads,
		"line moves inside the ring open no reader");
	tap_int_eq(current_ns(cursor), at_100, "and end where they started");

	tn_cursor_move(cursor, -1000, &moved, &err);
	tap_int_eq(moved, -100, "moving up stops at the first event");
	tap_int_eq(current_ns(cursor), first, "back on the first event");

	tap_ok(tn_cursor_seek_last(cursor, &err) == 0, "seek to the last");
	tap_int_eq(current_ns(cursor), last, "on the last event");
	tn_cursor_move(cursor, 10, &moved, &err);
	tap_int_eq(moved, 0, "nothing after the last event");
	tn_cursor_move(cursor, -4999, &moved, &err);
	tap_int_eq(moved, -4999, "moves up through the whole trace");
	tap_int_eq(current_ns(cursor), first, "from the last to the first");
	tap_ok(tn_cursor_get_ring_size(cursor) <= 4096,
		"the ring stays bounded");

	tap_ok(tn_cursor_seek_time(cursor, at_100, &err) == 0, "seek by time");
	tap_int_eq(current_ns(cursor), at_100, "lands on that time");
	tap_ok(tn_cursor_seek_time(cursor, last + 1000, &err) == 0,
		"seek past the end");
	tap_int_eq(current_ns(cursor), last, "lands on the last event");
	tap_ok(tn_cursor_seek_fraction(cursor, 0.5, &err) == 0, "seek to 50%%");
	tap_ok(current_ns(cursor) >= first + (last - first) / 2 - 1 &&
		current_ns(cursor) <= last, "lands at or after the middle");
	{
		const struct tn_row *row = tn_cursor_row(cursor, 0, &err);

		tap_ok(row && row->has_prev && row->prev_ns <= row->pos.ns,
			"the delta of a row after a seek is known");
	}
	check_empty_filter(trace);
	tn_cursor_destroy(cursor);
	tn_trace_destroy(trace);
	g_free(path);
	check_jumps();
	check_no_packet_times();
	gen_cleanup();
	return tap_done();
}
