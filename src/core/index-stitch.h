/* index-stitch.h - the checkpoint index made from what the workers of a
 * build counted in their slices (internal: not part of the public API).
 *
 * The slices follow each other in time, so their checkpoints, intervals
 * and ranks follow each other too: a worker's local ranks are offset by
 * the events of the workers before it, its own numbering of names and
 * sources is mapped to the index's (sorted) one, and the events lost at
 * the end of a slice go to the next slice's first interval (a notice
 * belongs to the slice of its time, the event after it may be in the
 * next one).
 */
#ifndef TRACENAV_CORE_INDEX_STITCH_H
#define TRACENAV_CORE_INDEX_STITCH_H

#include "tracenav/index.h"
#include "index-worker.h"

/* The index of the count workers of plan, which have all finished, in
 * slice order.  Takes the packet tables of a single worker (it reads
 * every packet); the counts stay the workers'. */
struct tn_index *tn_index_stitch(const struct tn_index_plan *plan,
		struct tn_index_worker *workers, unsigned count);

#endif
