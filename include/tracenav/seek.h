/* seek.h - positions of events and the two seek helpers of the event
 * list: n events forward and n events backward, with a filter.
 *
 * The number of events between two times is unknown until the trace has
 * been read, so an event is found again by time: its position is its
 * timestamp and how many events with that same timestamp come before it
 * (the tie), in the order the reader gives them.
 */
#ifndef TRACENAV_SEEK_H
#define TRACENAV_SEEK_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/event.h"
#include "tracenav/trace.h"

struct tn_position {
	int64_t ns;
	uint64_t tie;
};

/* Which events count; match NULL means every event. */
struct tn_filter {
	bool (*match)(const struct tn_event *ev, void *data);
	void *data;
};

/* An event of the list with what its line needs. */
struct tn_row {
	struct tn_event ev;	/* owned reference */
	struct tn_position pos;
	bool has_prev;		/* the time of the event before it is known */
	int64_t prev_ns;	/* (any event, filtered or not) for the delta */
	uint64_t lost_before;	/* events the tracer discarded just before */
};

/* -1, 0 or 1 as a is before, at or after b. */
int tn_position_compare(const struct tn_position *a,
		const struct tn_position *b);

/* Drop row's reference. */
void tn_row_release(struct tn_row *row);

/* A reader that knows the positions of the events it reads.  It opens a
 * slice of the trace when it can (a cost that does not grow with the
 * trace) and a whole-trace reader otherwise. */
struct tn_walk;

/* Open a walk at the first event at or after ns (INT64_MIN: the start). */
int tn_walk_open(const struct tn_trace *trace, int64_t ns,
		struct tn_walk **out, struct tn_error *err);
void tn_walk_destroy(struct tn_walk *walk);

/* Read the next event matching filter (may be NULL) into *row.
 * Returns 1 for a row, 0 at the end, -1 on error. */
int tn_walk_next(struct tn_walk *walk, const struct tn_filter *filter,
		struct tn_row *row, struct tn_error *err);

/* Open a walk whose next event is the one at pos or the first after it
 * (when exclusive, the first after it). */
int tn_walk_open_at(const struct tn_trace *trace,
		const struct tn_position *pos, bool exclusive,
		struct tn_walk **out, struct tn_error *err);

/* Like tn_walk_open_at(pos, false) for a position known to hold an
 * event, such as a checkpoint: the first event read is checked to be at
 * pos, and when the fast (sliced) seek did not land on it, the walk reads
 * the whole trace instead and *fell_back says so.  Fails if even that
 * finds no event at pos (the trace changed). */
int tn_walk_open_at_known(const struct tn_trace *trace,
		const struct tn_position *pos, struct tn_walk **out,
		bool *fell_back, struct tn_error *err);

/* Read forward from pos (inclusive) and append to rows (a GArray of
 * struct tn_row) up to n events that match filter.  Returns the number
 * appended (less than n at the end of the trace), or -1 on error. */
int64_t tn_seek_n_events_forward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t n,
		const struct tn_filter *filter, GArray *rows,
		struct tn_error *err);

/* Find the last n events that match filter strictly before pos and
 * append them to rows in trace order.  Reads a time window before pos,
 * keeping the last n matches; while it has fewer than n and the window
 * does not reach the trace start, doubles the window and reads again.
 * window_ns is the first window's width (a guess; <= 0 picks one).
 * Returns the number appended (less than n at the trace start), or -1. */
int64_t tn_seek_n_events_backward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t n,
		const struct tn_filter *filter, int64_t window_ns, GArray *rows,
		struct tn_error *err);

#endif
