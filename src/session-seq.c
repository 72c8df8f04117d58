/* session-seq.c - what the sequence diagram of the session reads: the
 * trace, the user's rules, the state snapshots and the index of pages,
 * which the preparse makes (see session.h). */
#include "session.h"
#include "tracenav/seq-loader.h"
#include "tracenav/seq-pages.h"
#include "tracenav/seq-rules.h"

struct tn_seq_source tn_session_get_seq_source(struct tn_session *session)
{
	struct tn_seq_source source = {
		.trace = session->trace,
		.rules = session->seq_rules,
		.snapshots = session->state_snapshots,
		.pages = session->seq_pages,
	};

	return source;
}

bool tn_session_has_seq_pages(struct tn_session *session)
{
	struct tn_seq_loaders *loaders;
	bool some;

	if (session->no_seq_index)
		return false;
	loaders = tn_seq_loaders_create_with_rules(session->trace,
		session->seq_rules);
	some = tn_seq_loaders_get_count(loaders) > 0;
	tn_seq_loaders_destroy(loaders);
	return some;
}

void tn_session_reset_seq(struct tn_session *session)
{
	tn_seq_pages_destroy(session->seq_pages);
	session->seq_pages = NULL;
}

void tn_session_fini_seq(struct tn_session *session)
{
	tn_session_reset_seq(session);
	tn_seq_rules_destroy(session->seq_rules);
	session->seq_rules = NULL;
}
