/* session-seq.c - what the sequence diagram of the session reads: the
 * trace, the user's rules, the state snapshots (see session.h). */
#include "session.h"
#include "tracenav/seq-rules.h"

struct tn_seq_source tn_session_get_seq_source(struct tn_session *session)
{
	struct tn_seq_source source = {
		.trace = session->trace,
		.rules = session->seq_rules,
		.snapshots = session->state_snapshots,
	};

	return source;
}

void tn_session_fini_seq(struct tn_session *session)
{
	tn_seq_rules_destroy(session->seq_rules);
	session->seq_rules = NULL;
}
