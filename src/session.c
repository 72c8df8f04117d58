/* session.c - what the front ends share (see session.h). */
#include <string.h>

#include "session.h"
#include "tracenav/cache.h"
#include "tracenav/preparse.h"

int tn_session_init(struct tn_session *session, struct tn_trace *trace,
		bool gmt, struct tn_error *err)
{
	memset(session, 0, sizeof(*session));
	session->trace = trace;
	session->trace_bytes = tn_trace_get_stream_bytes(trace);
	session->gmt = gmt;
	session->marks = tn_marks_create();
	return tn_cursor_create(trace, NULL, &session->cursor, err);
}

void tn_session_use_index(struct tn_session *session, struct tn_index *index)
{
	session->index = index;
	tn_stats_counts_destroy(session->counts);
	session->counts = NULL;
	tn_trace_set_packet_tables(session->trace,
		tn_index_borrow_packet_tables(index));
	tn_cursor_set_index(session->cursor, index);
	tn_session_filters_use_index(session, NULL);
	/* --batch leaves the state and the diagram's pages to its index
	 * command: a script of a few commands would pay for them (a read
	 * of the trace) beside what it asked for, and end before they are
	 * done; its state and analyses replay what they need. */
	if (!session->wait_for_index)
		tn_session_start_preparse(session, TN_SESSION_PREPARSE_REST,
			NULL);
}

/* Whether an index is on its way: built alone or by the preparse. */
static bool index_coming(const struct tn_session *session)
{
	return session->index_job || session->preparse_index;
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
	struct tn_index *index = NULL;
	struct tn_state_snapshots *snapshots = NULL;
	struct tn_error err;

	if (!session->cache_dir)
		return false;
	switch (tn_cache_load(session->trace, session->cache_dir, &index,
			&snapshots, &err)) {
	case TN_CACHE_HIT:
		/* The cache is keyed by the files as they are now. */
		session->index_stamp = tn_trace_stamp(session->trace);
		tn_session_use_cached_state(session, snapshots);
		tn_session_use_index(session, index);
		return true;
	case TN_CACHE_INVALID:
		tn_output_message(out, "%s; indexing again", err.message);
		return false;
	case TN_CACHE_ERROR:
		tn_output_message(out, "%s; the index stays in memory",
			err.message);
		session->cache_warned = true;
		return false;
	case TN_CACHE_MISS:
		return false;
	}
	return false;
}

bool tn_session_load_cached_index(struct tn_session *session,
		struct tn_output *out)
{
	if (session->index)
		return true;
	return !index_coming(session) && load_cached_index(session, out);
}

int tn_session_start_index(struct tn_session *session, struct tn_output *out,
		struct tn_error *err)
{
	session->index_stopped = false;
	if (session->index || index_coming(session))
		return 0;
	if (load_cached_index(session, out))
		return 0;
	/* The index alone first, its workers reading time slices on
	 * every core at once: event numbers in a third of the time the
	 * whole preparse takes.  The event list then has the rest made in
	 * one read (tn_session_use_index()); --batch's index command makes
	 * everything in one read (cmd/index.c).  A trace that cannot be
	 * cut in slices is read faster by the preparse: the event list
	 * makes everything with the index, --batch the index alone. */
	if (index_by_preparse(session) &&
	    tn_session_start_preparse(session, TN_SESSION_PREPARSE_INDEX |
			(session->wait_for_index ? 0 :
			 TN_SESSION_PREPARSE_REST), out) &&
	    session->preparse_index)
		return 0;
	session->index_stamp = tn_trace_stamp(session->trace);
	return tn_index_build_start(session->trace, 0, &session->index_job,
		err);
}

/* ---- saving the index in the cache, as a job ---- */

struct save {
	const struct tn_trace *trace;
	char *dir;
	const struct tn_index *index;
	const struct tn_state_snapshots *snapshots;
};

static int run_save(struct tn_job *job, void *data, struct tn_error *err)
{
	struct save *save = data;

	(void) job;
	return tn_cache_save(save->trace, save->dir, save->index,
		save->snapshots, err);
}

static void free_save(void *data)
{
	struct save *save = data;

	g_free(save->dir);
	g_free(save);
}

static const struct tn_job_class save_class = {
	.name = "saving the index",
	.run = run_save,
	.free = free_save,
};

bool tn_session_poll_save(struct tn_session *session, struct tn_output *out)
{
	struct tn_job_progress progress;

	if (!session->save_job)
		return false;
	tn_job_get_progress(session->save_job, &progress);
	if (progress.state == TN_JOB_RUNNING)
		return false;
	if (progress.state == TN_JOB_FAILED) {
		session->cache_warned = true;
		tn_output_message(out, "%s; the index stays in memory",
			progress.message);
	}
	tn_job_destroy(session->save_job);
	session->save_job = NULL;
	return true;
}

void tn_session_wait_save(struct tn_session *session, struct tn_output *out)
{
	if (!session->save_job)
		return;
	tn_job_wait(session->save_job);
	tn_session_poll_save(session, out);
}

void tn_session_save_index(struct tn_session *session, struct tn_output *out)
{
	struct tn_error err;
	struct save *save;

	/* One save at a time: a newer one (the index, then the snapshots
	 * too) waits for the one before, which holds the file's name. */
	tn_session_wait_save(session, out);
	if (!session->cache_dir || session->cache_warned || !session->index)
		return;
	/* Saved under the name of the files as they are now: not an index
	 * of what they were (a trace still being written). */
	if (tn_trace_stamp(session->trace) != session->index_stamp) {
		if (!session->changed_warned)
			tn_output_message(out, "the trace changed while it was "
				"indexed (it is still being written?): its index "
				"is not saved; reload reads what was added");
		session->changed_warned = true;
		return;
	}
	/* The index and complete snapshots do not change: the job may
	 * read them while the session goes on. */
	save = g_new0(struct save, 1);
	save->trace = session->trace;
	save->dir = g_strdup(session->cache_dir);
	save->index = session->index;
	save->snapshots = tn_session_borrow_saved_state(session);
	if (tn_job_start(&save_class, save, &session->save_job, &err) == 0)
		return;
	free_save(save);
	session->cache_warned = true;
	tn_output_message(out, "%s; the index stays in memory", err.message);
}

bool tn_session_get_index_progress(struct tn_session *session,
		struct tn_job_progress *progress)
{
	if (session->index_job) {
		tn_job_get_progress(session->index_job, progress);
		return true;
	}
	return session->preparse_index && tn_session_get_preparse_progress(
		session, progress, NULL);
}

size_t tn_session_get_partial_bins(struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins)
{
	*bins = NULL;
	if (session->index_job)
		return tn_index_build_get_bins(session->index_job, begin_ns,
			end_ns, bins);
	if (session->preparse_index)
		return tn_preparse_get_bins(session->preparse_job, begin_ns,
			end_ns, bins);
	return 0;
}

/* The index build alone (see tn_session_poll_index()). */
static bool poll_index_build(struct tn_session *session,
		struct tn_output *out)
{
	struct tn_job_progress progress;

	tn_job_get_progress(session->index_job, &progress);
	if (progress.state == TN_JOB_RUNNING)
		return true;
	/* The cursor is the command job's until it ends. */
	if (tn_session_lease_running(session))
		return true;
	if (progress.state == TN_JOB_DONE) {
		tn_session_use_index(session,
			tn_index_build_take(session->index_job));
		tn_session_save_index(session, out);
	} else if (progress.state == TN_JOB_FAILED) {
		tn_output_message(out, "indexing stopped: %s",
			progress.message);
	}
	tn_job_destroy(session->index_job);
	session->index_job = NULL;
	return true;
}

bool tn_session_poll_index(struct tn_session *session, struct tn_output *out)
{
	bool changed = tn_session_poll_save(session, out);

	if (session->index_job)
		changed = poll_index_build(session, out);
	if (session->preparse_job)
		changed = tn_session_poll_preparse(session, out) || changed;
	return changed;
}

int tn_session_need_index(struct tn_session *session, const char *what,
		struct tn_output *out, struct tn_error *err)
{
	struct tn_job_progress progress;

	if (session->index)
		return 0;
	if (session->index_stopped && !session->wait_for_index) {
		tn_error_set(err, "%s needs the index, whose build was "
			"cancelled: :index builds it", what);
		return -1;
	}
	if (tn_session_start_index(session, out, err))
		return -1;
	if (session->index_job && session->wait_for_index) {
		tn_job_wait(session->index_job);
		tn_session_poll_index(session, out);
	}
	if (session->preparse_index && session->wait_for_index)
		tn_session_wait_preparse(session, out);
	if (session->index)
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
	tn_job_destroy(session->index_job);
	session->index_job = NULL;
	/* The one read stops as a whole: the state and the diagram's
	 * pages it made so far stay. */
	if (session->preparse_index)
		tn_session_stop_preparse(session);
	session->index_stopped = true;
	tn_output_message(out, "indexing cancelled");
}

void tn_session_open_marks(struct tn_session *session, struct tn_output *out)
{
	struct tn_error err;

	g_clear_pointer(&session->marks_path, g_free);
	if (!session->cache_dir)
		return;
	if (tn_marks_path(session->trace, session->cache_dir,
			&session->marks_path, &err)) {
		tn_output_message(out, "%s", err.message);
		return;
	}
	if (tn_marks_load(session->marks, session->marks_path, &err) == 0)
		return;
	tn_output_message(out, "%s", err.message);
	/* A file that stayed (unreadable, or not moved aside) is never
	 * overwritten: the marks stay in memory. */
	if (g_file_test(session->marks_path, G_FILE_TEST_EXISTS))
		g_clear_pointer(&session->marks_path, g_free);
}

void tn_session_save_marks(struct tn_session *session, struct tn_output *out)
{
	struct tn_error err;

	if (!session->marks_path || session->marks_warned)
		return;
	if (tn_marks_save(session->marks, session->marks_path,
			tn_trace_get_path(session->trace), &err) == 0)
		return;
	session->marks_warned = true;
	tn_output_message(out, "%s; the marks stay in memory", err.message);
}

bool tn_session_get_range(const struct tn_session *session,
		int64_t *begin_ns, int64_t *end_ns)
{
	if (session->has_range) {
		*begin_ns = session->range_begin_ns;
		*end_ns = session->range_end_ns;
		return true;
	}
	if (!session->index || session->index->event_count == 0)
		return false;
	*begin_ns = session->index->first_event_ns;
	*end_ns = session->index->last_event_ns;
	return true;
}

int tn_session_count(struct tn_session *session, int64_t begin_ns,
		int64_t end_ns, const struct tn_stats_counts **counts,
		struct tn_error *err)
{
	struct tn_stats_counts *counted;

	if (!session->counts || session->counts_begin_ns != begin_ns ||
	    session->counts_end_ns != end_ns) {
		if (tn_stats_count(session->trace, session->index, begin_ns,
				end_ns, &counted, err))
			return -1;
		tn_stats_counts_destroy(session->counts);
		session->counts = counted;
		session->counts_begin_ns = begin_ns;
		session->counts_end_ns = end_ns;
	}
	*counts = session->counts;
	return 0;
}

void tn_session_fini(struct tn_session *session)
{
	tn_stats_counts_destroy(session->counts);
	session->counts = NULL;
	tn_marks_destroy(session->marks);
	session->marks = NULL;
	g_clear_pointer(&session->marks_path, g_free);
	tn_job_destroy(session->command_job);
	session->command_job = NULL;
	tn_job_destroy(session->index_job);
	session->index_job = NULL;
	/* A save reads the index and the snapshots: it ends first. */
	tn_session_wait_save(session, NULL);
	/* The preparse fills the snapshots and the pages: it stops
	 * first. */
	tn_session_stop_preparse(session);
	tn_session_fini_seq(session);
	tn_session_fini_state(session);
	tn_cursor_destroy(session->cursor);
	session->cursor = NULL;
	tn_session_fini_filters(session);
	/* The trace may outlive the session: it must not see a freed index. */
	if (session->trace)
		tn_trace_set_packet_tables(session->trace, NULL);
	tn_index_destroy(session->index);
	session->index = NULL;
	g_free(session->cache_dir);
	session->cache_dir = NULL;
	tn_regex_destroy(session->search_regex);
	session->search_regex = NULL;
	tn_seq_hide_unref(session->seq_hide);
	session->seq_hide = NULL;
	if (session->owns_trace)
		tn_trace_destroy(session->trace);
	session->trace = NULL;
}
