/* index-tally.h - what one worker of the index build counts per key (an
 * event name, a source of events) in each of its checkpoint intervals
 * (internal: not part of the public API).
 *
 * A key gets a tally the first time it is seen, numbered in the order
 * of arrival (the worker's own numbering, which index-build.c maps to
 * the index's when it stitches the workers).  Counting an event is two
 * increments and, the first time in an interval, a note that the key
 * occurs there; closing the interval turns those notes into entries.
 */
#ifndef TRACENAV_CORE_INDEX_TALLY_H
#define TRACENAV_CORE_INDEX_TALLY_H

#include <glib.h>
#include <stdint.h>

#include "tracenav/index.h"

struct tn_index_tally {
	uint64_t count;		/* the key's events in the worker's slice */
	uint32_t id;		/* its number: its key in keys */
	uint32_t in_interval;	/* its events in the current interval */
};

struct tn_index_tallies {
	GPtrArray *keys;	/* by id, owned (freed with key_free) */
	GPtrArray *tallies;	/* struct tn_index_tally *, by id, owned */
	/* Interval k has the entries starts[k] .. starts[k + 1] - 1 (the
	 * last one: to the end) of entries, whose keys are ids. */
	GArray *starts;		/* size_t */
	GArray *entries;	/* struct tn_interval_count */
	GPtrArray *touched;	/* the tallies counted in the current one */
};

void tn_index_tallies_init(struct tn_index_tallies *t,
		GDestroyNotify key_free);
void tn_index_tallies_fini(struct tn_index_tallies *t);

/* A new tally for key (taken: freed with the set), counting nothing. */
struct tn_index_tally *tn_index_tallies_add(struct tn_index_tallies *t,
		gpointer key);

/* Count one event of tally's key in the current interval. */
static inline void tn_index_tallies_count(struct tn_index_tallies *t,
		struct tn_index_tally *tally)
{
	tally->count++;
	if (tally->in_interval++ == 0)
		g_ptr_array_add(t->touched, tally);
}

/* Close the current interval (if any) and open the next one. */
void tn_index_tallies_next_interval(struct tn_index_tallies *t);

/* Close the current interval: at the end of the slice. */
void tn_index_tallies_close(struct tn_index_tallies *t);

/* The number of intervals, and the entries of interval k. */
guint tn_index_tallies_get_interval_count(const struct tn_index_tallies *t);
const struct tn_interval_count *tn_index_tallies_borrow_interval(
		const struct tn_index_tallies *t, guint k, size_t *count);

#endif
