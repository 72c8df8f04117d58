/* session.h - what the front ends (the event list and --batch) share:
 * the trace, the cursor of the event list, the checkpoint index and the
 * jobs that run in the background.  What is on screen (scroll offsets,
 * open panes, focus) is the front end's own.
 *
 * Threads: the cursor is used by one thread at a time.  While a command
 * job runs (command_job set), the session is leased to it: that job
 * alone uses the cursor and the fields marked "the commands' (the
 * job's) to touch"; the front end's thread touches them again only once
 * the job ended.  The lease is explicit (session-lease.c) and debug
 * builds check it (tn_session_check_lease()).
 */
#ifndef TRACENAV_SESSION_H
#define TRACENAV_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "output.h"
#include "tracenav/cursor.h"
#include "tracenav/error.h"
#include "tracenav/filter.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/marks.h"
#include "tracenav/regex.h"
#include "tracenav/seq-hide.h"
#include "tracenav/seq-window.h"
#include "tracenav/state-history.h"
#include "tracenav/stats.h"
#include "tracenav/trace.h"

struct tn_session {
	struct tn_trace *trace;		/* owned when owns_trace */
	bool owns_trace;
	struct tn_cursor *cursor;
	bool gmt;		/* times in UTC rather than local time */
	bool quit;		/* a command asked to stop */
	/* A command asked to open the trace again (reload): the event
	 * list does it once its jobs stopped (tn_session_reload()). */
	bool reload;
	uint64_t trace_bytes;	/* its stream files' when it opened */

	/* The checkpoint index: loaded from the cache or built, by the
	 * preparse (below) or, when only the index is needed (--batch's
	 * commands), by the index build alone. */
	struct tn_index *index;		/* once there */
	struct tn_job *index_job;	/* the index build alone, or NULL */
	struct tn_job *save_job;	/* saving it in the cache, or NULL */
	bool index_stopped;		/* cancelled: not again until asked */
	char *cache_dir;		/* NULL: do not persist the index */
	bool cache_warned;		/* said once that it cannot be saved */
	/* The trace's files (tn_trace_stamp()) as the index read them:
	 * an index is saved only when they are still so, never under the
	 * name of a trace that changed meanwhile (one being written). */
	uint64_t index_stamp;
	bool changed_warned;		/* said once that it changed */
	bool wait_for_index;		/* commands wait for it (--batch) */

	/* The marked events, saved in marks_path (NULL: kept in memory
	 * only, as with --no-cache); the commands' (the job's) to touch. */
	struct tn_marks *marks;
	char *marks_path;
	bool marks_warned;		/* said once that they cannot be saved */

	/* The preparse (session-preparse.c, preparse.h): the one read of
	 * the trace that makes what is missing of the index (preparse_index),
	 * the state snapshots with the analyses of the whole trace
	 * (preparse_state) and the diagram's pages. */
	struct tn_job *preparse_job;
	bool preparse_index, preparse_state;

	/* Commands running in the background for the event list: the
	 * session is leased to it (session-lease.c). */
	struct tn_job *command_job;

	/* The last search (search, next, prev), whose matches the list
	 * highlights, or NULL. */
	struct tn_regex *search_regex;

	/* The sequence diagram's hide patterns (seq-hide, seq-unhide), or
	 * NULL for none: the commands' (the job's) to replace; a set
	 * never changes, so that a pane's job may hold a reference. */
	struct tn_seq_hide *seq_hide;

	/* The user's sequence diagram rules (--seq-rules, or the default
	 * file), or NULL: set before the session starts, then only read
	 * (session-seq.c). */
	struct tn_seq_rules *seq_rules;
	/* The index of the diagram's pages (seq-pages.h), filled by the
	 * preparse; once set, the pointer stays for the session's life and
	 * any thread may read through it. */
	struct tn_seq_pages *seq_pages;
	/* --no-seq-index: no page pass, pages by windows that grow (set
	 * before the session starts). */
	bool no_seq_index;

	/* The filters (session-filter.c): the stack the commands change
	 * (NULL: none yet), the set of its enabled filters that the cursor
	 * shows and the cursor's matcher of it (NULL: no filter), the
	 * matches per interval of the index once known (from the index's
	 * names, or the count pass count_job).  The commands' (the job's)
	 * to touch, as the cursor. */
	struct tn_filter_stack *filters;
	struct tn_filter_set *filter_set;
	struct tn_filter_matcher *filter_matcher;
	struct tn_match_counts *match_counts;
	uint64_t counts_serial;		/* changes with match_counts */
	struct tn_job *count_job;
	struct tn_filter shared_filter;	/* tn_session_borrow_filter() */

	/* The state history (session-state.c): the snapshots, from the
	 * cache or filled by the preparse.  Once set, the pointer stays the
	 * same for the session's life, and any thread may read through it
	 * (the snapshots guard themselves); the preparse appends to them
	 * while it runs.  The state command's querier is the commands'
	 * (the job's) to touch. */
	struct tn_state_snapshots *state_snapshots;
	bool state_checked;		/* state_providers is known: */
	bool state_providers;		/* some provider applies */
	struct tn_state_querier *state_querier;
	/* The user's symbols (--symbols), or NULL: borrowed (it outlives
	 * the session), set before the session starts, then only read.
	 * The state's results (state, the state pane) show the functions
	 * of call stacks by name with them. */
	const struct tn_symbols *symbols;

	/* The time range that stats and histogram apply to (range):
	 * [range_begin_ns, range_end_ns], both ends inclusive, when
	 * has_range; otherwise they take the whole trace, from its first
	 * event to its last.  The commands' (the job's) to touch. */
	bool has_range;
	int64_t range_begin_ns, range_end_ns;
	/* The analysis the analysis pane shows (one of
	 * tn_analysis_names(); NULL: cputop), as the last analysis command
	 * chose it.  The commands' (the job's) to touch. */
	const char *analysis_name;
	/* The last count of the events of a range (or the whole trace),
	 * [counts_begin_ns, counts_end_ns] in the index, so that
	 * `range T1 T2; stats` seeks to each edge once; dropped when an
	 * index comes.  The commands' (the job's) to touch
	 * (tn_session_count()). */
	struct tn_stats_counts *counts;
	int64_t counts_begin_ns, counts_end_ns;
	/* The span the histogram strip shows when zoomed (histogram in the
	 * event list), both ends inclusive; otherwise the trace's time
	 * range.  The commands' (the job's) to touch. */
	bool zoomed;
	int64_t zoom_begin_ns, zoom_end_ns;
	/* A range being selected (select): from select_anchor, an event,
	 * to the event that the next select is typed at. */
	bool selecting;
	struct tn_position select_anchor;
};

/* Set session up on trace: a cursor on its first event.  Returns 0, or
 * -1 with err. */
int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, struct tn_error *err);

/* Load the index from the cache or start building it in the background
 * (nothing if it is there or being built), even after a cancel.  Says
 * what happens through out.  Returns 0, or -1 with err. */
int tn_session_start_index(struct tn_session *session, struct tn_output *out,
		struct tn_error *err);

/* Give the session index (taken): the cursor's event numbers, the
 * filters' counts; the event list then starts the preparse of what is
 * still missing (the state, the diagram's pages). */
void tn_session_use_index(struct tn_session *session, struct tn_index *index);

/* The index from the cache, if it is there (nothing is built): true
 * when the session has the index then. */
bool tn_session_load_cached_index(struct tn_session *session,
		struct tn_output *out);

/* Make sure the index is there for `what` (a command): with
 * wait_for_index, build it and wait; otherwise start it unless it was
 * cancelled and fail saying how far it got.  Returns 0 with the index
 * in session->index, or -1 with err. */
int tn_session_need_index(struct tn_session *session, const char *what,
		struct tn_output *out, struct tn_error *err);

/* Check on the background build (alone or the preparse's); once it is
 * done and no command job runs, give the index to the cursor and save
 * it in the cache.  Returns true when something changed that a status
 * line shows. */
bool tn_session_poll_index(struct tn_session *session, struct tn_output *out);

/* Save the index in the cache (with the snapshots once complete), in
 * the background (a job: the file is written and synced while the
 * front end goes on); a failure is said once through out, when the save
 * is polled.  A save still running is waited for first. */
void tn_session_save_index(struct tn_session *session, struct tn_output *out);

/* Check on the save; once it ended, say a failure.  Returns true when
 * it ended. */
bool tn_session_poll_save(struct tn_session *session, struct tn_output *out);

/* Wait for the save to end, then poll it (--batch before it exits, a
 * reload before the index goes).  Nothing when none runs. */
void tn_session_wait_save(struct tn_session *session, struct tn_output *out);

/* The progress of the index build: false when none runs. */
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

/* Load the trace's marks from their file next to the cache (none
 * without a cache directory); a damaged or unreadable file is said
 * through out (and moved aside), and the session starts without marks.
 * Call it once cache_dir is set. */
void tn_session_open_marks(struct tn_session *session, struct tn_output *out);

/* Save the marks after a change; a failure is said once through out
 * (the marks stay in memory). */
void tn_session_save_marks(struct tn_session *session, struct tn_output *out);

/* ---- the lease (session-lease.c) ----
 * tn_cmdq_start() leases the session to the command job it starts (it
 * sets command_job); the front end ends the lease once it took the
 * job's results. */

/* Whether a command job holds the lease (it may have ended, its results
 * not taken yet): the front end's thread leaves the session alone. */
bool tn_session_is_leased(const struct tn_session *session);

/* Whether the job holding the lease still runs: once it ended, the
 * session's own polls (index, counts, preparse) may use the cursor. */
bool tn_session_lease_running(const struct tn_session *session);

/* End the lease (its job's results taken); returns the job. */
struct tn_job *tn_session_end_lease(struct tn_session *session);

/* Debug builds (without NDEBUG): abort, naming what, when the front
 * end's thread touches what the lease covers while the job holding it
 * runs.  On a job's thread (the lease's job, or a helper that adopted
 * it) nothing is checked: command_job is the front end's to read. */
void tn_session_check_lease(const struct tn_session *session,
		const char *what);

/* ---- filters (session-filter.c) ---- */

/* Make stack (taken, also on failure) the filters: the cursor shows the
 * events that pass its enabled filters, from the first one at or after
 * the current event (else the last before it).  Their matches per
 * interval come from the index's names when the filters are on names
 * alone, else from a count pass started in the background (once the
 * index is there).  Returns 0, or -1 with err: filters and cursor stay
 * as they were. */
int tn_session_set_filters(struct tn_session *session,
		struct tn_filter_stack *stack, struct tn_output *out,
		struct tn_error *err);

/* The index arrived (or changed): count the filters' matches again. */
void tn_session_filters_use_index(struct tn_session *session,
		struct tn_output *out);

/* Check on the count pass; once it is done and no command job runs,
 * give the counts to the cursor.  Returns true when something changed
 * that the status bar shows. */
bool tn_session_poll_count(struct tn_session *session, struct tn_output *out);

/* The progress of the count pass: false when none runs. */
bool tn_session_get_count_progress(struct tn_session *session,
		struct tn_job_progress *progress);

/* How many events pass the filters (every event without filters): from
 * the counts; with the index, after the count pass (waiting for it,
 * until the job that runs this is cancelled); without, by reading the
 * trace.  Returns 0, or -1 with err. */
int tn_session_count_matches(struct tn_session *session,
		struct tn_output *out, uint64_t *count, struct tn_error *err);

/* The filters as a struct tn_filter that several threads may match
 * with at once (a search's workers), or NULL without filters; valid
 * until the filters change (commands run one at a time). */
const struct tn_filter *tn_session_borrow_filter(struct tn_session *session);

/* Drop what the filters hold of the trace (their matcher, the set bound
 * to its metadata, the match counts); the filters themselves stay.
 * The count pass must be stopped first (tn_session_stop_count()). */
void tn_session_unbind_filters(struct tn_session *session);

/* Free the filters and stop the count pass (tn_session_fini()). */
void tn_session_fini_filters(struct tn_session *session);

/* ---- the state history (session-state.c) ---- */

/* Whether a state provider applies to the trace (its events are those
 * of a kernel scheduler or of userspace contexts). */
bool tn_session_has_state(struct tn_session *session);

/* Take the snapshots loaded from the cache with the index (complete
 * ones; others are dropped).  Before the state pass ever started. */
void tn_session_use_cached_state(struct tn_session *session,
		struct tn_state_snapshots *snapshots);

/* Whether the preparse computes the state now (its snapshots are not
 * complete yet), and its progress then. */
bool tn_session_computes_state(struct tn_session *session);
bool tn_session_get_state_progress(struct tn_session *session,
		struct tn_job_progress *progress);

/* The snapshots to save with the index: complete ones, or NULL. */
const struct tn_state_snapshots *tn_session_borrow_saved_state(
		struct tn_session *session);

/* Free the state history (tn_session_fini(), once the preparse
 * stopped). */
void tn_session_fini_state(struct tn_session *session);

/* ---- the preparse (session-preparse.c) ---- */

/* What tn_session_start_preparse() may make. */
enum tn_session_preparse {
	/* The index, when it is neither there nor being built. */
	TN_SESSION_PREPARSE_INDEX = 1 << 0,
	/* The state snapshots, with the analyses of the whole trace, when
	 * a provider applies and none are there (a pass that stopped does
	 * not start again: its snapshots stay); the diagram's pages when
	 * tn_session_has_seq_pages(). */
	TN_SESSION_PREPARSE_REST = 1 << 1,
};

/* Start the one read that makes what is missing of what (enum
 * tn_session_preparse; preparse.h).  Nothing when nothing is missing or
 * a preparse runs.  A failure to start is said through out; returns
 * whether one runs then. */
bool tn_session_start_preparse(struct tn_session *session, unsigned what,
		struct tn_output *out);

/* Check on the preparse; once it ended (and no command job runs when it
 * built the index), take its index, save the index in the cache (with
 * the snapshots once complete), or say why it stopped.  Returns true
 * when something changed that a status line shows (always while it
 * runs). */
bool tn_session_poll_preparse(struct tn_session *session,
		struct tn_output *out);

/* Its progress, and what it makes ("index, state, diagram"; may be
 * NULL): false when none runs. */
bool tn_session_get_preparse_progress(struct tn_session *session,
		struct tn_job_progress *progress, const char **what);

/* Wait for it to end (--batch's index command), then poll it. */
void tn_session_wait_preparse(struct tn_session *session,
		struct tn_output *out);

/* Stop it (reload, fini, a cancelled index): what it made so far stays
 * (incomplete snapshots and pages are not made again). */
void tn_session_stop_preparse(struct tn_session *session);

/* ---- the sequence diagram (session-seq.c) ---- */

/* What the sequence diagram reads now: the trace, the rules and the
 * state snapshots (as far as the state pass took them).  A copy that
 * a job may keep: what it points to lives as long as the session. */
struct tn_seq_source tn_session_get_seq_source(struct tn_session *session);

/* Whether the diagram has pages to index: a loader applies to the
 * trace, and no_seq_index is not set. */
bool tn_session_has_seq_pages(struct tn_session *session);

/* Free the pages and the rules (tn_session_fini(), once the preparse
 * stopped). */
void tn_session_fini_seq(struct tn_session *session);

/* The time range that stats and histogram take, both ends inclusive:
 * the range when one is set, else the whole trace's events (first to
 * last, from the index).  false without an index or without events. */
bool tn_session_get_range(const struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns);

/* The counts of [begin_ns, end_ns] (tn_stats_count()), kept by the
 * session until the next count of another range: borrowed.  The
 * commands' (the job's) to call.  Returns 0 with *counts, or -1 with
 * err. */
int tn_session_count(struct tn_session *session, int64_t begin_ns,
		int64_t end_ns, const struct tn_stats_counts **counts,
		struct tn_error *err);

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

/* Stop the filters' count pass (it starts again when the index comes). */
void tn_session_stop_count(struct tn_session *session);

/* Free the pages, keeping the rules (once the preparse stopped). */
void tn_session_reset_seq(struct tn_session *session);

/* Free what tn_session_init() made (cancelling the jobs), and the trace
 * when the session owns it. */
void tn_session_fini(struct tn_session *session);

#endif
