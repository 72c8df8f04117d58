/* test-cursor.c - the event list's model: moves inside the ring read
 * nothing, moves past it read the right events, seeks land where they
 * should. */
#include "gen.h"
#include "tap.h"
#include "tracenav/cursor.h"

/* The time of the current row, or -1. */
static int64_t current_ns(struct tn_cursor *cursor)
{
	struct tn_error err;
	const struct tn_row *row = tn_cursor_row(cursor, 0, &err);

	return row ? row->pos.ns : -1;
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
	tn_cursor_destroy(cursor);
	tn_trace_destroy(trace);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
