/* sync-private.h - what the matcher hands to the spanning tree
 * (internal: not part of the public API; see sync.h). */
#ifndef TRACENAV_CORE_SYNC_PRIVATE_H
#define TRACENAV_CORE_SYNC_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "tracenav/sync.h"
#include "sync-hull.h"

/* The hosts and, for each two of them i < j, the points of the packets
 * they exchanged: pairs[i * host_count + j], for the line T_j = f(T_i),
 * and how many there are (matches, same place). */
struct tn_sync_graph {
	size_t host_count;
	char **names;
	struct tn_sync_pair *pairs;
	uint64_t *matches;
};

/* The correction of each host (see sync.h): a tree over the hosts that
 * matched, rooted at the first of them, grown by the best link first
 * (accurate, then approximate, then incomplete; then the most
 * matches); a failed link is never used.  Returns the caller's. */
struct tn_sync *tn_sync_solve(const struct tn_sync_graph *graph);

#endif
