/* merge-heap.h - which stream's message the merge hands out next
 * (internal: not part of the public API).
 *
 * The merge of a trace's streams (merge-filter.c) gives the messages in
 * the order of libbabeltrace2 2.0's flt.utils.muxer, which the babeltrace2
 * CLI uses.  The muxer scans every upstream iterator for each message:
 * it takes the head with the smallest time, and among heads of equal
 * time the one its comparison of messages puts first, and among heads
 * that comparison cannot tell apart the first one in its scan order.  A
 * head without a time stands at the time of the last message handed out.
 * The scan order is the input ports' order, changed as iterators end:
 * the last one takes the place of the one that ended.
 *
 * This is the same choice, found with a binary heap ordered by (time,
 * comparison, place in the scan order): log2(n) comparisons a message
 * instead of n.  The heap's answer is the scan's when the comparison is
 * a total preorder on the heads of equal time, which it is except
 * between two discarded-items notices (the muxer compares their clock
 * values, counts and clock frequencies through differences truncated to
 * an int).  While two such heads are waiting, a tie at the smallest time
 * is settled by the scan itself, over the tied heads in scan order.
 *
 * Nothing here knows libbabeltrace2: heads are opaque items, compared by
 * the caller's function, so that tests can check the choice against a
 * plain scan on random inputs.
 */
#ifndef TRACENAV_CORE_MERGE_HEAP_H
#define TRACENAV_CORE_MERGE_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The muxer's comparison of two heads of equal time: < 0 when a goes
 * first, > 0 when b does, 0 when it cannot tell. */
typedef int (*tn_merge_compare_func)(const void *a, const void *b,
		void *data);

struct tn_merge_heap;

/* A heap for upstreams 0..count-1, all active, in that scan order, none
 * with a head.  compare is called with data. */
struct tn_merge_heap *tn_merge_heap_create(size_t count,
		tn_merge_compare_func compare, void *data);
void tn_merge_heap_destroy(struct tn_merge_heap *heap);

/* Set (or replace) the head of active upstream u: item at time ns, or,
 * when has_time is false, at the time of the last head taken (the
 * muxer's rule; such a head goes out before that time changes).
 * fragile: item is a notice whose comparison with another one may not
 * be transitive (see above). */
void tn_merge_heap_set_head(struct tn_merge_heap *heap, size_t u,
		bool has_time, int64_t ns, const void *item, bool fragile);

/* Upstream u has no head for now (none yet, or it needs more). */
void tn_merge_heap_drop_head(struct tn_merge_heap *heap, size_t u);

/* Upstream u ended: it leaves the scan order as the muxer removes it
 * (the last active one takes its place) and joins the ended ones. */
void tn_merge_heap_end(struct tn_merge_heap *heap, size_t u);

/* Choose the head that goes out next, as the muxer's scan would.
 * Returns 1 with *u and *ns (its time, as the muxer counts it; the new
 * time of the last head taken), 0 when no upstream has a head, or -1
 * with *u and *ns when the chosen head's time is before the last one
 * taken (the muxer fails then).  The head stays until set or dropped:
 * set or drop u's head before the next call. */
int tn_merge_heap_take(struct tn_merge_heap *heap, size_t *u, int64_t *ns);

/* The time of the last head taken (INT64_MIN before the first). */
int64_t tn_merge_heap_get_last_time(const struct tn_merge_heap *heap);

/* The active upstreams in scan order (i < the active count), then the
 * ended ones in the order they ended. */
size_t tn_merge_heap_get_active_count(const struct tn_merge_heap *heap);
size_t tn_merge_heap_get_upstream(const struct tn_merge_heap *heap, size_t i);

/* Start again as the muxer does after seeking its beginning: every
 * upstream active, the active ones first in their order, then the ended
 * ones in the order they ended; no heads; no last time. */
void tn_merge_heap_restart(struct tn_merge_heap *heap);

#endif
