/* session-seq.c - what the sequence diagram of the session reads: the
 * trace, the user's rules, the state snapshots and the index of pages,
 * which the page pass makes once the checkpoint index is there (see
 * session.h). */
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

void tn_session_start_seq(struct tn_session *session, struct tn_output *out)
{
	struct tn_seq_source source = tn_session_get_seq_source(session);
	struct tn_seq_loaders *loaders;
	struct tn_error err;
	bool none;

	if (session->seq_pages || !session->index || session->no_seq_index)
		return;
	loaders = tn_seq_loaders_create_with_rules(session->trace,
		session->seq_rules);
	none = tn_seq_loaders_get_count(loaders) == 0;
	tn_seq_loaders_destroy(loaders);
	if (none)
		return;
	session->seq_pages = tn_seq_pages_create();
	if (tn_seq_pages_pass_start(&source, session->seq_pages,
			&session->seq_job, &err))
		tn_output_message(out, "cannot index the sequence diagram in "
			"the background: %s", err.message);
}

void tn_session_wait_seq(struct tn_session *session)
{
	if (session->seq_job)
		tn_job_wait(session->seq_job);
}

void tn_session_reset_seq(struct tn_session *session)
{
	tn_job_destroy(session->seq_job);
	session->seq_job = NULL;
	tn_seq_pages_destroy(session->seq_pages);
	session->seq_pages = NULL;
}

void tn_session_fini_seq(struct tn_session *session)
{
	tn_session_reset_seq(session);
	tn_seq_rules_destroy(session->seq_rules);
	session->seq_rules = NULL;
}
