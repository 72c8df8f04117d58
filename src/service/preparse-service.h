/* preparse-service.h - the session's preparse: the one read of the
 * trace that makes what is missing of the index, the state snapshots
 * (with the analyses of the whole trace) and the diagram's pages
 * (tracenav/preparse.h).  The session says what to make (the request);
 * the service runs the job and hands back what it made.
 *
 * Threads: the front end's.
 */
#ifndef TRACENAV_SERVICE_PREPARSE_SERVICE_H
#define TRACENAV_SERVICE_PREPARSE_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../output.h"
#include "lease.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/preparse.h"
#include "tracenav/sync.h"
#include "tracenav/trace.h"

struct tn_preparse_service {
	struct tn_job *job;	/* running, or ended and not polled */
	bool index;		/* it builds the index */
	bool state;		/* it fills the state snapshots */
	/* It matches the hosts' packets (the request's, taken), and the
	 * correction it computed once it ended well, until taken
	 * (tn_preparse_service_take_sync()). */
	struct tn_sync_matcher *matcher;
	struct tn_sync *matched;
};

/* Start the preparse of trace for request (its snapshots and pages
 * stay the caller's, its matcher becomes the service's).  A failure to
 * start is said through out.  Returns whether it runs. */
bool tn_preparse_service_start(struct tn_preparse_service *preparse,
		const struct tn_trace *trace,
		const struct tn_preparse_request *request,
		struct tn_output *out);

/* Whether it runs (or ended, not polled yet). */
bool tn_preparse_service_is_on(const struct tn_preparse_service *preparse);

/* Whether it builds the index / computes the state now. */
bool tn_preparse_service_builds_index(
		const struct tn_preparse_service *preparse);
bool tn_preparse_service_computes_state(
		const struct tn_preparse_service *preparse);

/* Its progress, and what it makes ("index, state, diagram"; what may be
 * NULL): false when none runs. */
bool tn_preparse_service_get_progress(struct tn_preparse_service *preparse,
		struct tn_job_progress *progress, const char **what);

/* While it builds the index: the events per time bin counted so far;
 * their number, or 0. */
size_t tn_preparse_service_get_bins(struct tn_preparse_service *preparse,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins);

/* Check on it.  Once it ended (and, when it built the index, no job
 * holds lease: the cursor is the command job's until it ends), it goes:
 * *made is the index it built (taken; NULL: none), *save whether the
 * cache should have what it made (it ended well having made the index
 * or the snapshots); a failure is said through out.  Returns true when
 * something changed that a status line shows (always while it runs). */
bool tn_preparse_service_poll(struct tn_preparse_service *preparse,
		const struct tn_lease *lease, struct tn_output *out,
		struct tn_index **made, bool *save);

/* The correction its matcher computed (the caller's), or NULL: none
 * asked for, or it did not end well. */
struct tn_sync *tn_preparse_service_take_sync(
		struct tn_preparse_service *preparse);

/* Wait for it to end (nothing when none runs). */
void tn_preparse_service_wait(struct tn_preparse_service *preparse);

/* Stop it: what it made so far stays where it put it (incomplete
 * snapshots and pages). */
void tn_preparse_service_stop(struct tn_preparse_service *preparse);

#endif
