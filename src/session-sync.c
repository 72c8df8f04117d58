/* session-sync.c - the session's clock correction between hosts: found
 * in the cache, or computed by the matching of the preparse or of the
 * sync command, and kept there (see session.h). */
#include "session.h"
#include "tracenav/cache.h"

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
