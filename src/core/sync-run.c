/* sync-run.c - a correction computed by one read of the trace (see
 * tn_sync_compute() in sync.h). */
#include "tracenav/job.h"
#include "tracenav/preparse.h"
#include "tracenav/sync.h"

#define POLL_MS 100

int tn_sync_compute(const struct tn_trace *trace, unsigned parts,
		struct tn_sync **out, struct tn_error *err)
{
	struct tn_sync_matcher *matcher = tn_sync_matcher_create(trace);
	struct tn_preparse_request request = { .matcher = matcher,
		.parts = parts };
	struct tn_job_progress progress;
	struct tn_job *job;
	int status = 0;

	if (tn_preparse_start(trace, &request, &job, err)) {
		tn_sync_matcher_destroy(matcher);
		return -1;
	}
	while (!tn_job_wait_for(job, POLL_MS)) {
		if (tn_job_current_is_cancelled())
			tn_job_cancel(job);
		tn_job_get_progress(job, &progress);
		tn_job_current_set_progress("matching packets",
			progress.fraction, progress.items);
	}
	tn_job_get_progress(job, &progress);
	tn_job_current_set_progress(NULL, -1, 0);
	if (progress.state != TN_JOB_DONE) {
		tn_error_set(err, "%s", progress.message[0] ?
			progress.message : "cancelled");
		status = -1;
	} else {
		*out = tn_sync_matcher_finish(matcher);
	}
	tn_job_destroy(job);
	tn_sync_matcher_destroy(matcher);
	return status;
}
