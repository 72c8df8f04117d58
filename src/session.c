/* session.c - what the front ends share: the trace, the cursor and what
 * ties the services together (see session.h). */
#include <string.h>

#include "session.h"
#include "tracenav/analysis.h"
#include "tracenav/cache.h"

int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, struct tn_error *err)
{
	memset(session, 0, sizeof(*session));
	session->trace = trace;
	session->trace_bytes = tn_trace_get_stream_bytes(trace);
	session->view.gmt = gmt;
	/* A trace opened with its clocks corrected (--sync=FILE). */
	if (tn_trace_get_sync(trace)) {
		session->sync = tn_sync_copy(tn_trace_get_sync(trace));
		session->sync_wanted = true;
	}
	tn_marks_service_init(&session->marks);
	return tn_cursor_create(trace, NULL, &session->cursor, err);
}

/* What the filters apply to now. */
static struct tn_filter_target filter_target(struct tn_session *session)
{
	struct tn_filter_target target = {
		.trace = session->trace,
		.index = session->indexing.index,
		.cursor = session->cursor,
		.wait = session->wait_for_index,
	};

	return target;
}

/* The index about to be built reads the trace's files as they are now,
 * unless its stream files changed since it was opened (one being
 * written): what it reads is then what they were, and that index is not
 * saved (tn_index_service_stamp()). */
static void stamp_index(struct tn_session *session)
{
	tn_index_service_stamp(&session->indexing, session->trace,
		tn_trace_get_stream_bytes(session->trace) !=
		session->trace_bytes);
}

/* Give the session index (taken): the cursor's event numbers, the
 * filters' counts; the event list then starts the preparse of what is
 * still missing (the state, the diagram's pages). */
static void use_index(struct tn_session *session, struct tn_index *index)
{
	struct tn_filter_target target;

	tn_index_service_use(&session->indexing, session->trace, index);
	tn_view_drop_counts(&session->view);
	tn_cursor_set_index(session->cursor, index);
	target = filter_target(session);
	tn_filter_service_use_index(&session->filters, &target, NULL);
	/* --batch leaves the state and the diagram's pages to its index
	 * command: a script of a few commands would pay for them (a read
	 * of the trace) beside what it asked for, and end before they are
	 * done; its state and analyses replay what they need. */
	if (!session->wait_for_index)
		tn_session_start_preparse(session, TN_SESSION_PREPARSE_REST,
			NULL);
}

/* Save the index in the cache, with the snapshots once complete. */
static void save_index(struct tn_session *session, struct tn_output *out)
{
	/* Following a trace being written, that it changed since it was
	 * read is no news: follow mode reads what was added. */
	if (session->follow != TN_FOLLOW_OFF)
		session->indexing.changed_warned = true;
	tn_index_service_save(&session->indexing, session->trace,
		tn_state_service_borrow_complete(&session->state), out);
}

/* Whether an index is on its way: built alone or by the preparse. */
static bool index_coming(const struct tn_session *session)
{
	return session->indexing.build_job ||
		tn_preparse_service_builds_index(&session->preparse);
}

/* Whether the preparse reads the trace faster than the index build's
 * time slices: the slices cannot cut it (streams of a packet or two:
 * every slice would read them all) and the preparse's decoding splits
 * (several traces, or streams to deal). */
static bool index_by_preparse(const struct tn_session *session)
{
	return tn_index_build_plan_workers(session->trace, 0) < 2 &&
		tn_preparse_plan_parts(session->trace, true, 0) >= 2;
}

/* Try the cache; true if it gave the index. */
static bool load_cached_index(struct tn_session *session,
		struct tn_output *out)
{
	struct tn_state_snapshots *snapshots;
	struct tn_index *index;

	if (!tn_index_service_load_cached(&session->indexing, session->trace,
			out, &index, &snapshots))
		return false;
	tn_state_service_use_cached(&session->state, snapshots);
	use_index(session, index);
	return true;
}

bool tn_session_load_cached_index(struct tn_session *session,
		struct tn_output *out)
{
	if (session->indexing.index)
		return true;
	return !index_coming(session) && load_cached_index(session, out);
}

int tn_session_start_index(struct tn_session *session, struct tn_output *out,
		struct tn_error *err)
{
	session->indexing.stopped = false;
	if (session->indexing.index || index_coming(session))
		return 0;
	if (load_cached_index(session, out))
		return 0;
	/* The index alone first, its workers reading time slices on
	 * every core at once: event numbers in a third of the time the
	 * whole preparse takes.  The event list then has the rest made in
	 * one read (use_index()); --batch's index command makes
	 * everything in one read (cmd/index.c).  A trace that cannot be
	 * cut in slices is read faster by the preparse: the event list
	 * makes everything with the index, --batch the index alone. */
	if (index_by_preparse(session) &&
	    tn_session_start_preparse(session, TN_SESSION_PREPARSE_INDEX |
			(session->wait_for_index ? 0 :
			 TN_SESSION_PREPARSE_REST), out) &&
	    tn_preparse_service_builds_index(&session->preparse))
		return 0;
	stamp_index(session);
	return tn_index_service_start_build(&session->indexing,
		session->trace, err);
}

bool tn_session_start_preparse(struct tn_session *session, unsigned what,
		struct tn_output *out)
{
	struct tn_preparse_request request = { .parts = 0 };
	struct tn_state_pass_observer observer;
	bool rest = what & TN_SESSION_PREPARSE_REST;

	if (tn_preparse_service_is_on(&session->preparse))
		return true;
	request.index = (what & TN_SESSION_PREPARSE_INDEX) &&
		!session->indexing.index && !session->indexing.build_job;
	request.known_index = session->indexing.index;
	if (rest && tn_state_service_applies(&session->state, session->trace))
		request.snapshots = tn_state_service_start_snapshots(
			&session->state);
	if (request.snapshots) {
		/* The analyses of the whole trace, kept with the snapshots. */
		tn_analysis_observe(&observer,
			tn_trace_get_stream_bytes(session->trace));
		request.observer = &observer;
	}
	if (rest) {
		request.pages = tn_seq_service_start_pages(&session->seq,
			session->trace);
		request.seq_rules = session->seq.rules;
	}
	/* The correction between hosts, in the same read (kept in the
	 * cache: the next preparse finds it there). */
	if (rest && tn_session_wants_matching(session, out))
		request.matcher = tn_sync_matcher_create(session->trace);
	if (!request.index && !request.snapshots && !request.pages &&
	    !request.matcher)
		return false;
	if (request.index)
		stamp_index(session);
	return tn_preparse_service_start(&session->preparse, session->trace,
		&request, out);
}

/* Check on the preparse; take the index it made, save what the cache
 * keeps (see tn_session_poll_index()). */
static bool poll_preparse(struct tn_session *session, struct tn_output *out)
{
	struct tn_index *index;
	bool changed, save;
	struct tn_sync *matched;

	changed = tn_preparse_service_poll(&session->preparse,
		&session->lease, out, &index, &save);
	matched = tn_preparse_service_take_sync(&session->preparse);
	if (matched)
		tn_session_keep_sync(session, matched, out);
	if (index)
		use_index(session, index);
	if (save)
		save_index(session, out);
	return changed;
}

/* Say once which stream files' times go back, when a read (the
 * index's, the list's) met them: their events are read in their own
 * order where babeltrace2 stops. */
static void say_steps(struct tn_session *session, struct tn_output *out)
{
	size_t count = tn_trace_get_step_count(session->trace);
	GString *text;
	char **lines;

	if (count <= session->steps_said)
		return;
	lines = tn_trace_describe_steps(session->trace);
	text = g_string_new("warning: ");
	for (char **line = lines; *line; line++)
		g_string_append_printf(text, "%s%s", line == lines ? "" : "; ",
			*line);
	tn_output_message(out, "%s", text->str);
	session->steps_said = g_strv_length(lines);
	g_strfreev(lines);
	g_string_free(text, TRUE);
}

void tn_session_wait_preparse(struct tn_session *session,
		struct tn_output *out)
{
	if (!tn_preparse_service_is_on(&session->preparse))
		return;
	tn_preparse_service_wait(&session->preparse);
	poll_preparse(session, out);
	say_steps(session, out);
}

bool tn_session_get_state_progress(struct tn_session *session,
		struct tn_job_progress *progress)
{
	if (!tn_preparse_service_computes_state(&session->preparse))
		return false;
	return tn_preparse_service_get_progress(&session->preparse, progress,
		NULL);
}

bool tn_session_get_index_progress(struct tn_session *session,
		struct tn_job_progress *progress)
{
	if (tn_index_service_get_build_progress(&session->indexing, progress))
		return true;
	return tn_preparse_service_builds_index(&session->preparse) &&
		tn_preparse_service_get_progress(&session->preparse, progress,
			NULL);
}

size_t tn_session_get_partial_bins(struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins)
{
	if (session->indexing.build_job)
		return tn_index_service_get_build_bins(&session->indexing,
			begin_ns, end_ns, bins);
	return tn_preparse_service_get_bins(&session->preparse, begin_ns,
		end_ns, bins);
}

bool tn_session_poll_index(struct tn_session *session, struct tn_output *out)
{
	bool changed = tn_index_service_poll_save(&session->indexing, out);
	struct tn_index *built;

	if (session->indexing.build_job) {
		changed = tn_index_service_poll_build(&session->indexing,
			&session->lease, out, &built);
		if (built) {
			use_index(session, built);
			save_index(session, out);
		}
	}
	if (tn_preparse_service_is_on(&session->preparse))
		changed = poll_preparse(session, out) || changed;
	say_steps(session, out);
	return changed;
}

int tn_session_need_index(struct tn_session *session, const char *what,
		struct tn_output *out, struct tn_error *err)
{
	struct tn_job_progress progress;

	if (session->indexing.index)
		return 0;
	if (session->indexing.stopped && !session->wait_for_index) {
		tn_error_set(err, "%s needs the index, whose build was "
			"cancelled: :index builds it", what);
		return -1;
	}
	if (tn_session_start_index(session, out, err))
		return -1;
	if (session->indexing.build_job && session->wait_for_index) {
		tn_job_wait(session->indexing.build_job);
		tn_session_poll_index(session, out);
	}
	if (tn_preparse_service_builds_index(&session->preparse) &&
	    session->wait_for_index)
		tn_session_wait_preparse(session, out);
	if (session->indexing.index)
		return 0;
	if (tn_session_get_index_progress(session, &progress))
		tn_error_set(err, "%s needs the index, %d%% built: try again "
			"when the status bar shows the event count", what,
			(int) (progress.fraction * 100));
	else
		tn_error_set(err, "%s needs the index, which could not be "
			"built", what);
	return -1;
}

void tn_session_cancel_index(struct tn_session *session,
		struct tn_output *out)
{
	if (!index_coming(session))
		return;
	tn_index_service_stop_build(&session->indexing);
	/* The one read stops as a whole: the state and the diagram's
	 * pages it made so far stay. */
	if (tn_preparse_service_builds_index(&session->preparse))
		tn_preparse_service_stop(&session->preparse);
	session->indexing.stopped = true;
	tn_output_message(out, "indexing cancelled");
}

int tn_session_set_filters(struct tn_session *session,
		struct tn_filter_stack *stack, struct tn_output *out,
		struct tn_error *err)
{
	struct tn_filter_set *set = tn_filter_stack_snapshot(stack,
		session->view.gmt);
	struct tn_filter_target target;

	/* --batch uses an index the cache has (the event list has it
	 * from the start). */
	if (set && session->wait_for_index)
		tn_session_load_cached_index(session, out);
	target = filter_target(session);
	return tn_filter_service_set(&session->filters, &target, stack, set,
		out, err);
}

bool tn_session_poll_count(struct tn_session *session, struct tn_output *out)
{
	return tn_filter_service_poll(&session->filters, session->cursor,
		&session->lease, out);
}

int tn_session_count_matches(struct tn_session *session,
		struct tn_output *out, uint64_t *count, struct tn_error *err)
{
	struct tn_filter_target target;

	if (session->wait_for_index)
		tn_session_load_cached_index(session, out);
	target = filter_target(session);
	return tn_filter_service_count(&session->filters, &target, out, count,
		err);
}

struct tn_seq_source tn_session_get_seq_source(struct tn_session *session)
{
	return tn_seq_service_get_source(&session->seq, session->trace,
		session->state.snapshots);
}

bool tn_session_get_range(const struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns)
{
	return tn_view_get_range(&session->view, session->indexing.index,
		begin_ns, end_ns);
}

int tn_session_count(struct tn_session *session, int64_t begin_ns,
		int64_t end_ns, const struct tn_stats_counts **counts,
		struct tn_error *err)
{
	return tn_view_count(&session->view, session->trace,
		session->indexing.index, begin_ns, end_ns, counts, err);
}

void tn_session_open_marks(struct tn_session *session, struct tn_output *out)
{
	tn_marks_service_open(&session->marks, session->trace,
		session->indexing.cache_dir, out);
}

void tn_session_fini(struct tn_session *session)
{
	tn_view_fini(&session->view);
	tn_sync_destroy(session->sync);
	session->sync = NULL;
	tn_marks_service_fini(&session->marks);
	tn_job_destroy(tn_lease_end(&session->lease));
	tn_index_service_stop_build(&session->indexing);
	/* A save reads the index and the snapshots: it ends first. */
	tn_index_service_wait_save(&session->indexing, NULL);
	/* The preparse fills the snapshots and the pages: it stops
	 * first. */
	tn_preparse_service_stop(&session->preparse);
	tn_seq_service_fini(&session->seq);
	tn_state_service_reset(&session->state);
	tn_cursor_destroy(session->cursor);
	session->cursor = NULL;
	tn_filter_service_fini(&session->filters);
	tn_index_service_fini(&session->indexing, session->trace);
	if (session->owns_trace)
		tn_trace_destroy(session->trace);
	session->trace = NULL;
}

/* ---- the clock correction ---- */

bool tn_session_load_cached_sync(struct tn_session *session,
		struct tn_output *out)
{
	struct tn_sync *sync;
	struct tn_error err;

	if (session->sync)
		return true;
	if (!session->indexing.cache_dir)
		return false;
	switch (tn_cache_load_sync(session->trace, session->indexing.cache_dir,
			&sync, &err)) {
	case TN_CACHE_HIT:
		session->sync = sync;
		return true;
	case TN_CACHE_MISS:
		return false;
	default:
		tn_output_message(out, "%s", err.message);
		return false;
	}
}

void tn_session_keep_sync(struct tn_session *session, struct tn_sync *sync,
		struct tn_output *out)
{
	struct tn_error err;

	if (session->sync) {
		tn_sync_destroy(sync);
		return;
	}
	session->sync = sync;
	if (session->indexing.cache_dir &&
	    tn_cache_save_sync(session->trace, session->indexing.cache_dir,
			sync, &err))
		tn_output_message(out, "%s", err.message);
}

bool tn_session_wants_matching(struct tn_session *session,
		struct tn_output *out)
{
	return !session->sync && !tn_trace_get_sync(session->trace) &&
		tn_sync_matcher_applies(session->trace) &&
		!tn_session_load_cached_sync(session, out);
}
