/* lease.c - the session leased to a command job (see lease.h). */
#include <glib.h>

#include "lease.h"

void tn_lease_give(struct tn_lease *lease, struct tn_job *job)
{
	lease->job = job;
}

bool tn_lease_is_held(const struct tn_lease *lease)
{
	return lease->job != NULL;
}

bool tn_lease_is_running(const struct tn_lease *lease)
{
	return lease->job && !tn_job_has_ended(lease->job);
}

struct tn_job *tn_lease_end(struct tn_lease *lease)
{
	struct tn_job *job = lease->job;

	lease->job = NULL;
	return job;
}

void tn_lease_check(const struct tn_lease *lease, const char *what)
{
#ifndef NDEBUG
	/* On a job's thread (the lease's own job, or a helper of it)
	 * nothing is checked: the front end's thread sets the lease while
	 * the job may run already, so reading it here would race.  What
	 * the check catches is the front end's thread (which alone writes
	 * the lease) touching the session during the job. */
	if (tn_job_current())
		return;
	if (tn_lease_is_running(lease))
		g_error("%s: the session is leased to a running command job",
			what);
#else
	(void) lease;
	(void) what;
#endif
}
