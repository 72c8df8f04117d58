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
	/* The event before it (any event, filtered or not) is known: its
	 * time is prev_ns, for the delta, and lost_before is what a full
	 * read gives.  When false, prev_ns means nothing and lost_before
	 * may miss notices that came before the part of the trace read. */
	bool has_prev;
	int64_t prev_ns;
	/* Events (not packets) the tracer discarded just before (and
	 * before the skipped events since the previous matching row, with
	 * a filter). */
	uint64_t lost_before;
};

/* -1, 0 or 1 as a is before, at or after b. */
int tn_position_compare(const struct tn_position *a,
		const struct tn_position *b);

/* Drop row's reference. */
void tn_row_release(struct tn_row *row);

/* A reader that knows the positions of the events it reads.  It opens a
 * slice of the trace when it can (a cost that does not grow with the
 * trace: at most the target's packet of each stream is read before the
 * target) and a whole-trace reader otherwise.  It drops what precedes
 * its position itself, never through libbabeltrace2's trimmer. */
struct tn_walk;

/* Open a walk at the first event at or after ns (INT64_MIN: the start). */
int tn_walk_open(const struct tn_trace *trace, int64_t ns,
		struct tn_walk **out, struct tn_error *err);
void tn_walk_destroy(struct tn_walk *walk);

/* The time up to which a walk opened at ns skips the trace: it reads
 * every event after it, and nothing of the packets that end by then.
 * INT64_MIN when it reads the trace from its start (no packet index,
 * or ns in the first packets).  Reads the packet indexes only: for a
 * caller that holds a walk already, to tell whether reading on with it
 * costs less. */
int64_t tn_seek_get_skipped_until(const struct tn_trace *trace, int64_t ns);

/* Append to starts_ns (a GArray of int64_t), sorted, the times at which
 * a walk opened there begins a stream with a packet of its own, none of
 * it read for nothing: one for every packet but the first of each
 * stream (the times its packet index gives, as a walk's slice reads
 * them).  Appends nothing for a trace that walks read from its start
 * (no clock, no packet index).  Reads the packet indexes only. */
void tn_seek_list_packet_starts(const struct tn_trace *trace,
		GArray *starts_ns);

/* Read the next event matching filter (may be NULL) into *row.
 * Returns 1 for a row, 0 at the end, -1 on error. */
int tn_walk_next(struct tn_walk *walk, const struct tn_filter *filter,
		struct tn_row *row, struct tn_error *err);

/* Open a walk whose next event is the one at pos or the first after it
 * (when exclusive, the first after it). */
int tn_walk_open_at(const struct tn_trace *trace,
		const struct tn_position *pos, bool exclusive,
		struct tn_walk **out, struct tn_error *err);

/* Like tn_walk_open_at(pos, false), keeping up to keep_before of the
 * rows read on the way to pos that a full read has too (same position,
 * same event before them): take them with tn_walk_take_before().  A
 * jump reads them anyway (from the start of the target's packet in
 * each stream), so the list can show them without reading again.  On a
 * machine of several processors, a jump whose packets hold much to
 * decode before the target is split over them as
 * tn_walk_open_at_known_split() does (the rows are the same: only when
 * no packet in view counts discarded events).  Any thread; a job's
 * cancel stops it. */
int tn_walk_open_near(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t keep_before,
		struct tn_walk **out, struct tn_error *err);

/* Like tn_walk_open_near() for a position known to hold an event, such
 * as a checkpoint: the first event read is checked to be at pos, and
 * when the fast (sliced) seek did not land on it, the walk reads the
 * whole trace instead and *fell_back says so.  Fails if even that finds
 * no event at pos (the trace changed). */
int tn_walk_open_at_known(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t keep_before,
		struct tn_walk **out, bool *fell_back, struct tn_error *err);

/* Like tn_walk_open_at_known() without rows kept before, opened in
 * `parts` parts (at most 4) on as many threads: each reads a share of
 * the trace's streams up to pos, the longest part of an open (every
 * stream decoded from the start of its packet), and the walk reads on
 * by merging them in the trace's order, on the caller's thread.  For a
 * caller whose threads wait on the open, such as a state query.  Its
 * rows have the positions, events and previous times of a whole walk;
 * their lost counts come from their own part (the events discarded
 * before a row may be counted at a later row of its part).  Opens the
 * usual walk instead for parts < 2 and for a trace that cannot be split
 * (several trace directories, packet indexes that do not name their
 * streams, fewer streams than parts), or when the parts did not land
 * on pos.  A job's cancel stops every part.  Any thread; the trace is
 * read by the parts' threads meanwhile. */
int tn_walk_open_at_known_split(const struct tn_trace *trace,
		const struct tn_position *pos, unsigned parts,
		struct tn_walk **out, bool *fell_back, struct tn_error *err);

/* How many parts a walk reads: those of a split walk, else 1. */
unsigned tn_walk_get_part_count(const struct tn_walk *walk);

/* Append to rows (struct tn_row) the rows kept before the walk's first
 * event that match filter (may be NULL), in trace order, and give them
 * up; call it before the first tn_walk_next().  The first may lack
 * has_prev (what came before it was not read).  *at_start is true when
 * they are every row from the trace's first event on.  Returns how many
 * were appended. */
int64_t tn_walk_take_before(struct tn_walk *walk,
		const struct tn_filter *filter, GArray *rows, bool *at_start);

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

/* What tn_seek_events_backward() learnt besides the rows. */
struct tn_seek_info {
	bool at_start;		/* no matching event before the rows */
	bool has_next;		/* the event at pos was read after them, */
	uint64_t next_lost;	/* with this lost_before (a full read's) */
};

/* Like tn_seek_n_events_backward(), but doubling the window only while
 * it has fewer than `least` rows, and keeping up to `most` (>= least) of
 * those it read, the last ones: a window reads whole packets, so more
 * rows than asked usually come for free.  info may be NULL.  Returns
 * the number appended, or -1. */
int64_t tn_seek_events_backward(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t least, uint64_t most,
		const struct tn_filter *filter, int64_t window_ns, GArray *rows,
		struct tn_seek_info *info, struct tn_error *err);

#endif
