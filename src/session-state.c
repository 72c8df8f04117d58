/* session-state.c - the state history of the session: the snapshots
 * from the cache or from the preparse (see session.h). */
#include "session.h"
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
	if (session->state_snapshots || tn_session_computes_state(session) ||
	    !tn_state_snapshots_is_complete(snapshots)) {
		tn_state_snapshots_destroy(snapshots);
		return;
	}
	session->state_snapshots = snapshots;
}

bool tn_session_computes_state(struct tn_session *session)
{
	return session->preparse_job && session->preparse_state;
}

bool tn_session_get_state_progress(struct tn_session *session,
		struct tn_job_progress *progress)
{
	if (!tn_session_computes_state(session))
		return false;
	tn_job_get_progress(session->preparse_job, progress);
	return true;
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
	tn_state_querier_destroy(session->state_querier);
	session->state_querier = NULL;
	tn_state_snapshots_destroy(session->state_snapshots);
	session->state_snapshots = NULL;
}
