/* index-service.h - the checkpoint index of a session: the index once
 * there, its build alone (the preparse may build it instead:
 * preparse-service.h), the cache it is loaded from and saved in, and
 * the save job.
 *
 * Threads: the front end's.  The index itself, once there, does not
 * change and any thread may read it; the commands' job reads the
 * pointer, which changes only while no command job runs (lease.h).
 */
#ifndef TRACENAV_SERVICE_INDEX_SERVICE_H
#define TRACENAV_SERVICE_INDEX_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../output.h"
#include "lease.h"
#include "tracenav/error.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/state-history.h"
#include "tracenav/trace.h"

struct tn_index_service {
	struct tn_index *index;		/* once there */
	struct tn_job *build_job;	/* the index build alone, or NULL */
	struct tn_job *save_job;	/* saving it in the cache, or NULL */
	bool stopped;			/* cancelled: not again until asked */
	char *cache_dir;		/* NULL: do not persist the index */
	bool cache_warned;		/* said once that it cannot be saved */
	/* The trace's files (tn_trace_stamp()) as the index read them:
	 * an index is saved only when they are still so, never under the
	 * name of a trace that changed meanwhile (one being written);
	 * stamped false: they had changed since the trace was opened (the
	 * index is of the files as they were then), no save. */
	uint64_t stamp;
	bool stamped;
	bool changed_warned;		/* said once that it changed */
};

/* Give the service index (taken; NULL: none) for trace: the trace's
 * readers use its packet tables.  The one before is the caller's to
 * have dropped (tn_index_service_drop()). */
void tn_index_service_use(struct tn_index_service *indexing,
		struct tn_trace *trace, struct tn_index *index);

/* The index and its snapshots of trace from the cache, when it has
 * them (taken: the caller gives them to the session); a stale or
 * unreadable cache is said through out.  Returns true on a hit, with
 * *index set (*snapshots may be NULL). */
bool tn_index_service_load_cached(struct tn_index_service *indexing,
		const struct tn_trace *trace, struct tn_output *out,
		struct tn_index **index, struct tn_state_snapshots **snapshots);

/* Note that the index about to be built reads the trace's files as they
 * are now (their stamp), or, when changed (they changed since the trace
 * was opened: what it reads is what they were then), that it is not to
 * be saved. */
void tn_index_service_stamp(struct tn_index_service *indexing,
		const struct tn_trace *trace, bool changed);

/* Start the index build alone, in time slices on every core.  Returns
 * 0, or -1 with err. */
int tn_index_service_start_build(struct tn_index_service *indexing,
		struct tn_trace *trace, struct tn_error *err);

/* Check on the build alone.  Once it ended and no job holds lease (the
 * cursor is the command job's until it ends), the build goes: *built is
 * its index when it was made (taken; NULL otherwise, a failure said
 * through out).  Returns true when something changed that a status
 * line shows (always while a build runs). */
bool tn_index_service_poll_build(struct tn_index_service *indexing,
		const struct tn_lease *lease, struct tn_output *out,
		struct tn_index **built);

/* The build alone's progress: false when none runs. */
bool tn_index_service_get_build_progress(struct tn_index_service *indexing,
		struct tn_job_progress *progress);

/* While the build alone runs: the events per time bin counted so far
 * (tn_index_build_get_bins()); their number, or 0 when none runs. */
size_t tn_index_service_get_build_bins(struct tn_index_service *indexing,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins);

/* Stop the build alone (nothing when none runs). */
void tn_index_service_stop_build(struct tn_index_service *indexing);

/* Save the index of trace (with snapshots, complete ones or NULL) in
 * the cache, in the background (a job: the file is written and synced
 * while the front end goes on); a failure is said once through out,
 * when the save is polled.  A save still running is waited for first.
 * Nothing without a cache directory or an index, or when the trace's
 * files changed since it was read (said once). */
void tn_index_service_save(struct tn_index_service *indexing,
		const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		struct tn_output *out);

/* Check on the save; once it ended, say a failure.  Returns true when
 * it ended. */
bool tn_index_service_poll_save(struct tn_index_service *indexing,
		struct tn_output *out);

/* Wait for the save to end, then poll it.  Nothing when none runs. */
void tn_index_service_wait_save(struct tn_index_service *indexing,
		struct tn_output *out);

/* Drop the index (another trace, or the end): trace's readers stop
 * using its packet tables.  The build and the save must have stopped. */
void tn_index_service_drop(struct tn_index_service *indexing,
		struct tn_trace *trace);

/* Stop the build, wait for the save, drop the index and free the rest. */
void tn_index_service_fini(struct tn_index_service *indexing,
		struct tn_trace *trace);

#endif
