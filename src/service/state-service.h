/* state-service.h - the state history of a session: the snapshots from
 * the cache or from the preparse, whether a state provider applies to
 * the trace, the state command's querier and the user's symbols.
 *
 * Threads: once set, the snapshots' pointer stays the same for the
 * session's life (until a reload), and any thread may read through it
 * (the snapshots guard themselves); the preparse appends to them while
 * it runs.  The querier is the commands' (the job's) to touch
 * (lease.h).
 */
#ifndef TRACENAV_SERVICE_STATE_SERVICE_H
#define TRACENAV_SERVICE_STATE_SERVICE_H

#include <stdbool.h>

#include "tracenav/state-history.h"
#include "tracenav/symbols.h"
#include "tracenav/trace.h"

struct tn_state_service {
	struct tn_state_snapshots *snapshots;	/* or NULL */
	bool checked;		/* providers is known: */
	bool providers;		/* some provider applies */
	struct tn_state_querier *querier;	/* the state command's */
	/* The user's symbols (--symbols), or NULL: borrowed (they outlive
	 * the session), set before the session starts, then only read.
	 * The state's results (state, the state pane) show the functions
	 * of call stacks by name with them. */
	const struct tn_symbols *symbols;
};

/* Whether a state provider applies to trace (its events are those of a
 * kernel scheduler or of userspace contexts); asked once. */
bool tn_state_service_applies(struct tn_state_service *state,
		const struct tn_trace *trace);

/* Take snapshots loaded from the cache with the index (taken; NULL:
 * none), unless the service has some or they are not complete (then
 * they go). */
void tn_state_service_use_cached(struct tn_state_service *state,
		struct tn_state_snapshots *snapshots);

/* Empty snapshots for the preparse to fill, kept by the service; NULL
 * when it has some already. */
struct tn_state_snapshots *tn_state_service_start_snapshots(
		struct tn_state_service *state);

/* The snapshots to save with the index: complete ones, or NULL. */
const struct tn_state_snapshots *tn_state_service_borrow_complete(
		const struct tn_state_service *state);

/* Drop what belongs to the trace (snapshots, querier, whether a
 * provider applies): another trace comes.  The preparse must have
 * stopped.  The symbols stay. */
void tn_state_service_reset(struct tn_state_service *state);

#endif
