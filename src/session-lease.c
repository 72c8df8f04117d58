/* session-lease.c - the session leased to the command job that runs for
 * the event list (see session.h). */
#include <glib.h>

#include "session.h"

bool tn_session_is_leased(const struct tn_session *session)
{
	return session->command_job != NULL;
}

bool tn_session_lease_running(const struct tn_session *session)
{
	return session->command_job && !tn_job_has_ended(session->command_job);
}

struct tn_job *tn_session_end_lease(struct tn_session *session)
{
	struct tn_job *job = session->command_job;

	session->command_job = NULL;
	return job;
}

void tn_session_check_lease(const struct tn_session *session,
		const char *what)
{
#ifndef NDEBUG
	/* On a job's thread (the lease's own job, or a helper of it)
	 * nothing is checked: the front end's thread sets command_job
	 * while the job may run already, so reading it here would race.
	 * What the check catches is the front end's thread (which alone
	 * writes command_job) touching the session during the job. */
	if (tn_job_current())
		return;
	if (tn_session_lease_running(session))
		g_error("%s: the session is leased to a running command job",
			what);
#else
	(void) session;
	(void) what;
#endif
}
