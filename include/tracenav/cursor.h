/* cursor.h - the event list's model: a current event in a trace and a
 * ring of decoded rows around it.
 *
 * Moving by a line or a page inside the ring reads nothing; past it, the
 * cursor reads forward from where it stopped, or backward with
 * tn_seek_n_events_backward().  Far moves seek by time.  Nothing here
 * needs the trace to have been read before (no preparse).
 */
#ifndef TRACENAV_CURSOR_H
#define TRACENAV_CURSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/error.h"
#include "tracenav/seek.h"
#include "tracenav/trace.h"

struct tn_cursor;

/* Create a cursor on the first event of trace (which must outlive it).
 * filter may be NULL (every event).  Returns 0 or -1 with err. */
int tn_cursor_create(const struct tn_trace *trace,
		const struct tn_filter *filter, struct tn_cursor **out,
		struct tn_error *err);
void tn_cursor_destroy(struct tn_cursor *cursor);

/* Go to the first event at or after ns (the last event if there is
 * none).  The rows read before it on the way stay (up to most of the
 * ring), so moving up from there reads nothing.  On error (or a
 * cancel) the cursor stays where it was. */
int tn_cursor_seek_time(struct tn_cursor *cursor, int64_t ns,
		struct tn_error *err);

/* Go to the event at pos, or the first one after it (the last event if
 * there is none), as tn_cursor_seek_time() does for a time: where a
 * search found its match.  On error the cursor stays where it was. */
int tn_cursor_seek_position(struct tn_cursor *cursor,
		const struct tn_position *pos, struct tn_error *err);

/* Go to the first or the last event. */
int tn_cursor_seek_first(struct tn_cursor *cursor, struct tn_error *err);
int tn_cursor_seek_last(struct tn_cursor *cursor, struct tn_error *err);

/* Go to the time at fraction (0..1) of the span that
 * tn_cursor_get_time_span() gives (0: the first event, 1: the last).
 * Fails with "time range not known yet: ..." when it gives none. */
int tn_cursor_seek_fraction(struct tn_cursor *cursor, double fraction,
		struct tn_error *err);

/* The span of time that NN% and a time scrollbar stand for: the first
 * and last events' times once known (the index knows them, or the
 * cursor read up to the last event), *exact true; before that, the
 * packets' time range, *exact false.  false when neither is known (the
 * packets carry no times, or no clock at all).  Reads nothing, from the
 * thread that owns the cursor (or between its jobs). */
bool tn_cursor_get_time_span(const struct tn_cursor *cursor,
		int64_t *begin_ns, int64_t *end_ns, bool *exact);

/* The same without waiting for the packets' range (see
 * tn_trace_peek_time_range()): false with *pending true while it is
 * still being found. */
bool tn_cursor_peek_time_span(const struct tn_cursor *cursor,
		int64_t *begin_ns, int64_t *end_ns, bool *exact, bool *pending);

/* Move by delta events (negative: back), stopping at the first or last
 * event; *moved (may be NULL) says how far it went.  Returns 0 or -1. */
int tn_cursor_move(struct tn_cursor *cursor, int64_t delta, int64_t *moved,
		struct tn_error *err);

/* The row at offset from the current event (0: the current one,
 * negative: before it), reading as needed; its has_prev is filled in.
 * NULL past either end of the trace (err empty) or on error (err set).
 * The row stays valid until the next call on the cursor (reading may
 * move the rows in memory). */
const struct tn_row *tn_cursor_row(struct tn_cursor *cursor, int64_t offset,
		struct tn_error *err);

struct tn_index;
struct tn_match_counts;

/* Give the cursor the trace's checkpoint index (NULL: none); it must
 * outlive the cursor or be replaced first.  The current event stays;
 * the match counts go (they were the old index's). */
void tn_cursor_set_index(struct tn_cursor *cursor,
		const struct tn_index *index);

/* Show the events that pass filter (NULL or no match function: every
 * event), with counts (may be NULL) its matches per interval of the
 * cursor's index.  The current event becomes the first that passes at
 * or after it, else the last one before it; while no event passes,
 * "it" stays the event that was current when the list became empty.
 * On error (or a cancel) the cursor stays as it was, filter included.
 * The filter's data and the counts must outlive the cursor or be
 * replaced first. */
int tn_cursor_set_filter(struct tn_cursor *cursor,
		const struct tn_filter *filter,
		const struct tn_match_counts *counts, struct tn_error *err);

/* Give the match counts of the cursor's filter once they are known
 * (NULL: none; ignored without a filter).  With them, ranks are match
 * numbers (tn_cursor_get_rank(), tn_cursor_seek_rank()), reading jumps
 * over the intervals without a match, and the first and last matches
 * are known without reading to the trace's ends. */
void tn_cursor_set_match_counts(struct tn_cursor *cursor,
		const struct tn_match_counts *counts);

/* The rank (0-based, in trace order) of the current event (with a
 * filter and its match counts: of the current match among the
 * matches): 1 and *rank set, 0 when unknown (no index, or a filter
 * whose matches are not counted), -1 on error.  The first call after a
 * seek reads at most TN_INDEX_INTERVAL events. */
int tn_cursor_get_rank(struct tn_cursor *cursor, uint64_t *rank,
		struct tn_error *err);

/* Go to the event of rank `rank` (the last one if rank is too large;
 * with a filter and its counts, the match of that rank).  Needs an
 * index (and, with a filter, its counts): -1 with err without. */
int tn_cursor_seek_rank(struct tn_cursor *cursor, uint64_t rank,
		struct tn_error *err);

/* Read the rows from offset -before to offset after (those the trace
 * has), each with the time of the event before it: the rows that the
 * next page down and page up will show.  A front end calls it when it
 * is idle, so that those moves read nothing.  With a filter, it reads
 * only once the filter's matches are counted (tn_cursor_set_match_counts()):
 * before that, finding the next matches may mean reading the trace to
 * its end.  A cancel of the job it runs in stops it; the rows read
 * stay.  Returns 0, or -1 with err (a cancel: "cancelled"). */
int tn_cursor_prefetch(struct tn_cursor *cursor, int64_t before,
		int64_t after, struct tn_error *err);

/* The row at offset from the current event if the cursor holds it
 * already, without reading anything (NULL otherwise): for a thread that
 * must not wait, once the rows it shows were read with tn_cursor_row().
 * Its has_prev may be false where tn_cursor_row() would read to fill it. */
const struct tn_row *tn_cursor_peek_row(const struct tn_cursor *cursor,
		int64_t offset);

/* Whether the cursor holds the row at offset from the current event,
 * without reading: 1 it does, 0 the trace has none there (past a known
 * end of the list), -1 not known until read. */
int tn_cursor_peek_has_row(const struct tn_cursor *cursor, int64_t offset);

/* The rank of the current event if known without reading: 1 and *rank
 * set, or 0. */
int tn_cursor_peek_rank(const struct tn_cursor *cursor, uint64_t *rank);

/* true if the trace has no event (at all, or matching the filter). */
bool tn_cursor_is_empty(const struct tn_cursor *cursor);

/* How many rows the cursor holds decoded, and how many times it opened a
 * reader (for tests and the status bar). */
uint64_t tn_cursor_get_ring_size(const struct tn_cursor *cursor);
uint64_t tn_cursor_get_read_count(const struct tn_cursor *cursor);

/* How many seeks to a checkpoint found the fast (sliced) view wrong and
 * read the whole trace instead; the front ends say so. */
uint64_t tn_cursor_get_fallback_count(const struct tn_cursor *cursor);

#endif
