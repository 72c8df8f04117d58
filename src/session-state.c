/* session-state.c - the state history of the session: the snapshots
 * from the cache or from the state pass, which starts once the index is
 * there (see session.h). */
#include "session.h"
#include "tracenav/analysis.h"
#include "tracenav/state-provider.h"

bool tn_session_has_state(struct tn_session *session)
{
	if (!session->state_checked) {
		struct tn_state_providers *providers =
			tn_state_providers_create(session->trace);

		session->state_providers =
			tn_state_providers_get_count(providers) > 0;
		tn_state_providers_destroy(providers);
		session->state_checked = true;
	}
	return session->state_providers;
}

void tn_session_use_cached_state(struct tn_session *session,
		struct tn_state_snapshots *snapshots)
{
	if (!snapshots)
		return;
	if (session->state_snapshots || session->state_job ||
	    !tn_state_snapshots_is_complete(snapshots)) {
		tn_state_snapshots_destroy(snapshots);
		return;
	}
	session->state_snapshots = snapshots;
}

void tn_session_start_state(struct tn_session *session,
		struct tn_output *out)
{
	struct tn_state_pass_observer observer;
	struct tn_error err;

	if (session->state_job || !session->index ||
	    !tn_session_has_state(session))
		return;
	/* Complete, or left by a pass that stopped: never twice. */
	if (session->state_snapshots)
		return;
	session->state_snapshots = tn_state_snapshots_create();
	/* The pass also runs the analyses of the whole trace. */
	tn_analysis_observe(&observer);
	if (tn_state_pass_start_observed(session->trace, session->index, NULL,
			session->state_snapshots, &observer,
			&session->state_job, &err))
		tn_output_message(out, "cannot compute the state in the "
			"background: %s", err.message);
}

bool tn_session_get_state_progress(struct tn_session *session,
		struct tn_job_progress *progress)
{
	if (!session->state_job)
		return false;
	tn_job_get_progress(session->state_job, progress);
	return true;
}

bool tn_session_poll_state(struct tn_session *session, struct tn_output *out)
{
	struct tn_job_progress progress;

	if (!tn_session_get_state_progress(session, &progress))
		return false;
	if (progress.state == TN_JOB_RUNNING)
		return true;
	if (progress.state == TN_JOB_DONE)
		tn_session_save_index(session, out);
	else if (progress.state == TN_JOB_FAILED)
		tn_output_message(out, "computing the state stopped: %s",
			progress.message);
	tn_job_destroy(session->state_job);
	session->state_job = NULL;
	return true;
}

void tn_session_wait_state(struct tn_session *session, struct tn_output *out)
{
	if (!session->state_job)
		return;
	tn_job_wait(session->state_job);
	tn_session_poll_state(session, out);
}

const struct tn_state_snapshots *tn_session_borrow_saved_state(
		struct tn_session *session)
{
	return session->state_snapshots &&
		tn_state_snapshots_is_complete(session->state_snapshots) ?
		session->state_snapshots : NULL;
}

void tn_session_fini_state(struct tn_session *session)
{
	tn_job_destroy(session->state_job);
	session->state_job = NULL;
	tn_state_querier_destroy(session->state_querier);
	session->state_querier = NULL;
	tn_state_snapshots_destroy(session->state_snapshots);
	session->state_snapshots = NULL;
}
