/* lease.h - the session leased to the command job that runs for the
 * event list.
 *
 * tn_cmdq_start() leases the session to the command job it starts
 * (tn_lease_give()); while that job runs it alone uses the cursor and
 * what the services mark "the commands' (the job's) to touch"; the
 * front end's thread touches them again once it ended the lease, having
 * taken the job's results (tn_lease_end()).  The services that poll
 * their own jobs (the index, the count pass) are handed the lease and
 * wait while it runs.
 */
#ifndef TRACENAV_SERVICE_LEASE_H
#define TRACENAV_SERVICE_LEASE_H

#include <stdbool.h>

#include "tracenav/job.h"

struct tn_lease {
	struct tn_job *job;	/* the job holding it, or NULL */
};

/* Lease to job (the front end's thread, as the job starts). */
void tn_lease_give(struct tn_lease *lease, struct tn_job *job);

/* Whether a command job holds the lease (it may have ended, its results
 * not taken yet): the front end's thread leaves the session alone. */
bool tn_lease_is_held(const struct tn_lease *lease);

/* Whether the job holding the lease still runs: once it ended, the
 * services' own polls (index, counts, preparse) may use the cursor. */
bool tn_lease_is_running(const struct tn_lease *lease);

/* End the lease (its job's results taken); returns the job (NULL when
 * none held it). */
struct tn_job *tn_lease_end(struct tn_lease *lease);

/* Debug builds (without NDEBUG): abort, naming what, when the front
 * end's thread touches what the lease covers while the job holding it
 * runs.  On a job's thread (the lease's job, or a helper that adopted
 * it) nothing is checked: the lease is the front end's to read. */
void tn_lease_check(const struct tn_lease *lease, const char *what);

#endif
