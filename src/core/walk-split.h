/* walk-split.h - the merge of a split walk (seek.h,
 * tn_walk_open_at_known_split(), also in walk-split.c): walks over
 * parts of a trace's streams, each read on from where it stands, merged
 * into the events of the whole trace in the whole trace's order
 * (internal: not part of the public API).
 *
 * Why: opening a walk decodes every stream from the start of its packet
 * up to the target, about as long as a replay of the same events; the
 * parts of a split walk do that on threads of their own, and this
 * merge reads on from there on the caller's thread.
 *
 * The order: by time, and at equal times as libbabeltrace2's muxer puts
 * two events of different streams (merge-compare.h): by trace, then by
 * stream class id and stream id.  The parts' streams keep their ids
 * (slice.h, tn_slice_create_part()), so that is the whole walk's order;
 * the muxer would put two events that compare equal in its scan order,
 * which only two streams with the same ids could give, and no part
 * holds a stream that another holds.  The positions' ties are numbered
 * again by the walk that reads this merge (seek.c).
 */
#ifndef TRACENAV_CORE_WALK_SPLIT_H
#define TRACENAV_CORE_WALK_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "tracenav/reader.h"
#include "tracenav/seek.h"

/* At most this many parts. */
#define TN_WALK_SPLIT_MAX 4

struct tn_walk_split;

/* A merge of parts[0 .. count - 1] (count <= TN_WALK_SPLIT_MAX), which
 * it owns from now on. */
struct tn_walk_split *tn_walk_split_create(struct tn_walk *const *parts,
		size_t count);
void tn_walk_split_destroy(struct tn_walk_split *split);

/* How many parts it merges. */
size_t tn_walk_split_get_count(const struct tn_walk_split *split);

/* The next event of the merge into *ev (its reference is the caller's),
 * adding to *lost the events discarded before it in its part.  The
 * discarded events that a part counts before an event may come, in a
 * whole read, before events of the other parts that go out first: lost
 * counts are those of the parts. */
enum tn_reader_status tn_walk_split_next(struct tn_walk_split *split,
		struct tn_event *ev, uint64_t *lost, struct tn_error *err);

/* Into how many parts tn_walk_open_near() splits a jump to pos on
 * `processors` processors: one per processor (at most
 * TN_WALK_SPLIT_MAX) when the readers decode enough before the target
 * to pay for the parts' own set-up, which parses the metadata again: at
 * least 1 MiB, and 32 times the metadata's size (measured: a jump that
 * decodes 1.5 MB before the target in 8 streams of a trace with 370 KB
 * of metadata takes 40% longer in 2 parts on 2 processors; one that
 * decodes 2.6 MB, with 5 KB of metadata, half the time).  One for a
 * view whose packets count discarded events (the merge's lost counts
 * would be its parts'), for a tie other than 0 and when the trace
 * cannot be split. */
unsigned tn_walk_near_parts(const struct tn_trace *trace,
		const struct tn_position *pos, unsigned processors);

/* tn_walk_open_near() split into parts (2 <= parts; pos->tie 0): the
 * parts opened on threads of their own, as tn_walk_open_at_known_split()
 * does, each keeping up to keep_before rows and a margin of 64, of
 * which the merged walk keeps those a whole walk keeps (fewer only when
 * more than the margin share the time where a part's rows stop).  The
 * usual walk when the trace cannot be split.  Only for views whose
 * packets count no discarded events: the merge's lost counts are its
 * parts'.  tn_walk_open_near() splits only when keep_before is at most
 * 4096: each part keeps as many. */
int tn_walk_open_near_split(const struct tn_trace *trace,
		const struct tn_position *pos, uint64_t keep_before,
		unsigned parts, struct tn_walk **out, struct tn_error *err);

#endif
