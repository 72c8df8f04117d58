/* session.h - what the front ends (the event list and --batch) share:
 * the trace, the cursor of the event list, and the services that work
 * on them (src/service: the index, the preparse, the filters, the
 * state, the sequence diagram, the marks) with the view the front end
 * reads them through.  What is on screen (scroll offsets, open panes,
 * focus) is the front end's own.
 *
 * A service owns its data, its job and its poll, and knows nothing of
 * the others: a command that needs one takes it (&session->filters,
 * &session->marks, ...).  What needs several (the index arriving gives
 * the cursor its event numbers, the filters their counts, and starts
 * the preparse of the rest) is the session's, here.
 *
 * Threads: the cursor is used by one thread at a time.  While a command
 * job runs, the session is leased to it (service/lease.h): that job
 * alone uses the cursor and what the services mark "the commands' (the
 * job's) to touch"; the front end's thread touches them again only
 * once the job ended.  Debug builds check it (tn_lease_check()).
 */
#ifndef TRACENAV_SESSION_H
#define TRACENAV_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "output.h"
#include "service/filter-service.h"
#include "service/index-service.h"
#include "service/lease.h"
#include "service/marks-service.h"
#include "service/preparse-service.h"
#include "service/seq-service.h"
#include "service/state-service.h"
#include "tracenav/sync.h"
#include "service/view.h"
#include "tracenav/cursor.h"
#include "tracenav/error.h"
#include "tracenav/job.h"
#include "tracenav/live-mirror.h"
#include "tracenav/trace.h"

/* What follow mode does (session->follow). */
enum tn_session_follow {
	TN_FOLLOW_OFF,		/* the trace is read as it was opened */
	/* The list stays on the newest event as the trace grows. */
	TN_FOLLOW_END,
	/* The user moved away from the end: the position holds while the
	 * trace grows (the event list counts the new events below). */
	TN_FOLLOW_HOLD,
};

struct tn_session {
	struct tn_trace *trace;		/* owned when owns_trace */
	bool owns_trace;
	struct tn_cursor *cursor;
	bool quit;		/* a command asked to stop */
	/* A command asked to open the trace again (reload): the event
	 * list does it once its jobs stopped (tn_session_reload()). */
	bool reload;
	/* Its stream files' bytes when it was opened (taken before the
	 * open on a reload). */
	uint64_t trace_bytes;
	/* tn_trace_get_written_stamp() when follow mode started watching
	 * the trace, or before a reload opened it: follow mode reloads
	 * when it changed. */
	uint64_t written_stamp;
	/* Follow mode (the follow command): the event list watches the
	 * trace's files and reloads it when they grow. */
	enum tn_session_follow follow;
	/* A live session's copy that the trace is read from (not owned),
	 * and its name for the status bar; NULL: none. */
	struct tn_live_mirror *live;
	const char *live_name;
	/* --batch: commands wait for the index (and the filters' counts)
	 * instead of starting it in the background. */
	bool wait_for_index;

	/* Who may touch the cursor and the services while a command job
	 * runs for the event list. */
	struct tn_lease lease;

	/* The services, each with its data, its job and its poll.  The
	 * index comes from the cache, the index build alone or the
	 * preparse; the preparse makes the state snapshots and the
	 * diagram's pages as well. */
	struct tn_index_service indexing;
	struct tn_preparse_service preparse;
	struct tn_filter_service filters;
	struct tn_state_service state;
	struct tn_seq_service seq;
	struct tn_marks_service marks;
	/* The clock correction between hosts that `sync` computed or
	 * loaded, or NULL; whether the trace's readers are to apply it
	 * (sync on: tn_trace_set_sync()); and whether the reload asked
	 * for is only that switch (sync on, off, or another correction
	 * while on), not a new open of the trace. */
	struct tn_sync *sync;
	bool sync_wanted;
	bool resync;
	/* The stream files whose times go back that were said so far. */
	size_t steps_said;

	/* What the front end views the trace through (range, zoom, the
	 * last search, UTC or local times). */
	struct tn_view view;
};

/* Set session up on trace: a cursor on its first event.  Returns 0, or
 * -1 with err. */
int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, struct tn_error *err);

/* ---- the index ---- */

/* Load the index from the cache or start building it in the background
 * (nothing if it is there or being built), even after a cancel.  Says
 * what happens through out.  Returns 0, or -1 with err. */
int tn_session_start_index(struct tn_session *session, struct tn_output *out,
		struct tn_error *err);

/* The index from the cache, if it is there (nothing is built): true
 * when the session has the index then. */
bool tn_session_load_cached_index(struct tn_session *session,
		struct tn_output *out);

/* Make sure the index is there for `what` (a command): with
 * wait_for_index, build it and wait; otherwise start it unless it was
 * cancelled and fail saying how far it got.  Returns 0 with the index
 * in session->indexing.index, or -1 with err. */
int tn_session_need_index(struct tn_session *session, const char *what,
		struct tn_output *out, struct tn_error *err);

/* Check on the background build (alone or the preparse's) and the save;
 * once the build is done and no command job runs, give the index to
 * the cursor and the filters, save it in the cache and start the
 * preparse of the rest.  Returns true when something changed that a
 * status line shows. */
bool tn_session_poll_index(struct tn_session *session, struct tn_output *out);

/* The progress of the index build (alone or the preparse's): false
 * when none runs. */
bool tn_session_get_index_progress(struct tn_session *session,
		struct tn_job_progress *progress);

/* While the index is built: the events per time bin counted so far
 * (tn_index_build_get_bins()), into *bins (g_free() it); their number,
 * or 0 when no build runs. */
size_t tn_session_get_partial_bins(struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins);

/* Stop the background build; it does not start again until
 * tn_session_start_index() (the index command). */
void tn_session_cancel_index(struct tn_session *session,
		struct tn_output *out);

/* ---- the preparse ---- */

/* What tn_session_start_preparse() may make. */
enum tn_session_preparse {
	/* The index, when it is neither there nor being built. */
	TN_SESSION_PREPARSE_INDEX = 1 << 0,
	/* The state snapshots, with the analyses of the whole trace, when
	 * a provider applies and none are there (a pass that stopped does
	 * not start again: its snapshots stay); the diagram's pages when
	 * it has pages to index (tn_seq_service_has_pages()). */
	TN_SESSION_PREPARSE_REST = 1 << 1,
};

/* Start the one read that makes what is missing of what (enum
 * tn_session_preparse; preparse.h).  Nothing when nothing is missing or
 * a preparse runs.  A failure to start is said through out; returns
 * whether one runs then. */
bool tn_session_start_preparse(struct tn_session *session, unsigned what,
		struct tn_output *out);

/* Wait for the preparse to end (--batch's index command), then take
 * what it made as tn_session_poll_index() does. */
void tn_session_wait_preparse(struct tn_session *session,
		struct tn_output *out);

/* The progress of the state pass (the preparse, while it fills the
 * snapshots): false when it does not run. */
bool tn_session_get_state_progress(struct tn_session *session,
		struct tn_job_progress *progress);

/* ---- the filters ---- */

/* Make stack (taken, also on failure) the filters
 * (tn_filter_service_set()); --batch first loads an index the cache
 * has.  Returns 0, or -1 with err: filters and cursor stay as they
 * were. */
int tn_session_set_filters(struct tn_session *session,
		struct tn_filter_stack *stack, struct tn_output *out,
		struct tn_error *err);

/* Check on the filters' count pass (tn_filter_service_poll()). */
bool tn_session_poll_count(struct tn_session *session, struct tn_output *out);

/* How many events pass the filters (tn_filter_service_count()); --batch
 * first loads an index the cache has.  Returns 0, or -1 with err. */
int tn_session_count_matches(struct tn_session *session,
		struct tn_output *out, uint64_t *count, struct tn_error *err);

/* ---- what reads several services ---- */

/* What the sequence diagram reads now: the trace, the rules and the
 * state snapshots (as far as the state pass took them), the pages.  A
 * copy that a job may keep: what it points to lives as long as the
 * session. */
struct tn_seq_source tn_session_get_seq_source(struct tn_session *session);

/* The time range that stats and histogram take (tn_view_get_range()
 * with the session's index). */
bool tn_session_get_range(const struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns);

/* The counts of [begin_ns, end_ns] (tn_view_count() on the session's
 * trace and index): borrowed.  The commands' (the job's) to call.
 * Returns 0 with *counts, or -1 with err. */
int tn_session_count(struct tn_session *session, int64_t begin_ns,
		int64_t end_ns, const struct tn_stats_counts **counts,
		struct tn_error *err);

/* Load the trace's marks from their file next to the cache
 * (tn_marks_service_open()).  Call it once the cache directory is
 * set. */
void tn_session_open_marks(struct tn_session *session, struct tn_output *out);

/* ---- the clock correction ---- */

/* session->sync from the cache, unless it is there already: true when
 * the session has a correction then.  A damaged file is said through
 * out. */
bool tn_session_load_cached_sync(struct tn_session *session,
		struct tn_output *out);

/* Make sync (taken) the session's correction, kept in the cache, unless
 * it has one already (then sync is dropped).  A failure to keep it is
 * said through out. */
void tn_session_keep_sync(struct tn_session *session, struct tn_sync *sync,
		struct tn_output *out);

/* Whether the preparse should match the hosts' packets: the trace has
 * packets to match, read on its recorded clocks, and no correction is
 * known (the session's, or the cache's: then it becomes the
 * session's). */
bool tn_session_wants_matching(struct tn_session *session,
		struct tn_output *out);

/* Ask the front end to switch the trace's clocks (session->resync: a
 * reload of the clocks alone, see below): to session->sync corrected
 * (on) or to the recorded ones.  A command job may ask: it does not
 * touch session->reload, which the event list reads meanwhile; the
 * event list looks at resync once the job ended. */
void tn_session_ask_sync(struct tn_session *session, bool on);

/* Whether a command asked for a reload (reload or resync): for the
 * front ends, between commands (in the event list, once no command
 * job runs). */
bool tn_session_wants_reload(const struct tn_session *session);

/* Open the session's trace again, from its path (reload), with what
 * was written to it since: the new trace replaces the old one, the
 * cursor goes to the same event (its time and rank among the events of
 * that time), the filters, marks, hide patterns, range and the last
 * search stay, and what belonged to the old trace (index, counts, state
 * snapshots, the diagram's pages) goes; the index is to be built again
 * (tn_session_start_index(), or when a command needs it), or comes from
 * the cache when the trace did not change.  What the new trace has
 * damaged or left out is said through out.  Needs the session alone: no
 * command job, nothing of the front end's reading through it (its
 * panes' jobs stopped), and no other thread using GLib (the trace
 * opens in a child process, as in main()).  Returns 0, or -1 with err
 * and the session on the trace as it was (its index to be started
 * again). */
int tn_session_reload(struct tn_session *session, struct tn_output *out,
		struct tn_error *err);

/* The same for a switch of the clocks (session->resync): the trace
 * stays open; its readers apply session->sync when
 * session->sync_wanted, else read the recorded times; the cursor goes
 * to the time of its event on the new clocks; the rest as for a
 * reload.  tn_session_reload() calls it when session->resync. */
int tn_session_switch_sync(struct tn_session *session,
		struct tn_output *out, struct tn_error *err);

/* Free what tn_session_init() made (cancelling the jobs), and the trace
 * when the session owns it. */
void tn_session_fini(struct tn_session *session);

#endif
