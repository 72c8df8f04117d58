/* session-preparse.c - the session's preparse: the one read that makes
 * what is missing of the index, the state snapshots (with the analyses
 * of the whole trace) and the diagram's pages (see session.h). */
#include "session.h"
#include "tracenav/analysis.h"
#include "tracenav/preparse.h"
#include "tracenav/seq-pages.h"

bool tn_session_start_preparse(struct tn_session *session, unsigned what,
		struct tn_output *out)
{
	struct tn_preparse_request request = { .parts = 0 };
	struct tn_state_pass_observer observer;
	bool rest = what & TN_SESSION_PREPARSE_REST;
	struct tn_error err;

	if (session->preparse_job)
		return true;
	request.index = (what & TN_SESSION_PREPARSE_INDEX) &&
		!session->index && !session->index_job;
	request.known_index = session->index;
	if (rest && !session->state_snapshots &&
	    tn_session_has_state(session)) {
		session->state_snapshots = tn_state_snapshots_create();
		request.snapshots = session->state_snapshots;
		/* The analyses of the whole trace, kept with the snapshots. */
		tn_analysis_observe(&observer);
		request.observer = &observer;
	}
	if (rest && !session->seq_pages && tn_session_has_seq_pages(session)) {
		session->seq_pages = tn_seq_pages_create();
		request.pages = session->seq_pages;
		request.seq_rules = session->seq_rules;
	}
	if (!request.index && !request.snapshots && !request.pages)
		return false;
	if (request.index)
		session->index_stamp = tn_trace_stamp(session->trace);
	if (tn_preparse_start(session->trace, &request,
			&session->preparse_job, &err)) {
		tn_output_message(out, "cannot read the trace in the "
			"background: %s", err.message);
		session->preparse_job = NULL;
		return false;
	}
	session->preparse_index = request.index;
	session->preparse_state = request.snapshots != NULL;
	return true;
}

bool tn_session_get_preparse_progress(struct tn_session *session,
		struct tn_job_progress *progress, const char **what)
{
	if (!session->preparse_job)
		return false;
	tn_job_get_progress(session->preparse_job, progress);
	if (what)
		*what = tn_preparse_get_what(session->preparse_job);
	return true;
}

void tn_session_stop_preparse(struct tn_session *session)
{
	tn_job_destroy(session->preparse_job);
	session->preparse_job = NULL;
	session->preparse_index = session->preparse_state = false;
}

bool tn_session_poll_preparse(struct tn_session *session,
		struct tn_output *out)
{
	struct tn_job_progress progress;
	struct tn_index *index;
	bool saves;

	if (!tn_session_get_preparse_progress(session, &progress, NULL))
		return false;
	if (progress.state == TN_JOB_RUNNING)
		return true;
	/* The cursor is the command job's until it ends. */
	if (session->preparse_index && tn_session_lease_running(session))
		return true;
	index = tn_preparse_take_index(session->preparse_job);
	/* The cache holds the index and the snapshots, not the pages. */
	saves = session->preparse_index || session->preparse_state;
	if (progress.state == TN_JOB_FAILED)
		tn_output_message(out, "%s stopped: %s",
			session->preparse_index ? "indexing" :
			"computing the state", progress.message);
	tn_session_stop_preparse(session);
	if (index)
		tn_session_use_index(session, index);
	if (progress.state == TN_JOB_DONE && saves)
		tn_session_save_index(session, out);
	return true;
}

void tn_session_wait_preparse(struct tn_session *session,
		struct tn_output *out)
{
	if (!session->preparse_job)
		return;
	tn_job_wait(session->preparse_job);
	tn_session_poll_preparse(session, out);
}
