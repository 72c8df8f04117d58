/* preparse-service.c - the session's one read of the trace, as a job
 * (see preparse-service.h). */
#include "preparse-service.h"

bool tn_preparse_service_start(struct tn_preparse_service *preparse,
		const struct tn_trace *trace,
		const struct tn_preparse_request *request,
		struct tn_output *out)
{
	struct tn_error err;

	preparse->matcher = request->matcher;
	if (tn_preparse_start(trace, request, &preparse->job, &err)) {
		tn_output_message(out, "cannot read the trace in the "
			"background: %s", err.message);
		preparse->job = NULL;
		tn_sync_matcher_destroy(preparse->matcher);
		preparse->matcher = NULL;
		return false;
	}
	preparse->index = request->index;
	preparse->state = request->snapshots != NULL;
	return true;
}

bool tn_preparse_service_is_on(const struct tn_preparse_service *preparse)
{
	return preparse->job != NULL;
}

bool tn_preparse_service_builds_index(
		const struct tn_preparse_service *preparse)
{
	return preparse->job && preparse->index;
}

bool tn_preparse_service_computes_state(
		const struct tn_preparse_service *preparse)
{
	return preparse->job && preparse->state;
}

bool tn_preparse_service_get_progress(struct tn_preparse_service *preparse,
		struct tn_job_progress *progress, const char **what)
{
	if (!preparse->job)
		return false;
	tn_job_get_progress(preparse->job, progress);
	if (what)
		*what = tn_preparse_get_what(preparse->job);
	return true;
}

size_t tn_preparse_service_get_bins(struct tn_preparse_service *preparse,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins)
{
	*bins = NULL;
	if (!tn_preparse_service_builds_index(preparse))
		return 0;
	return tn_preparse_get_bins(preparse->job, begin_ns, end_ns, bins);
}

void tn_preparse_service_stop(struct tn_preparse_service *preparse)
{
	tn_job_destroy(preparse->job);
	preparse->job = NULL;
	preparse->index = preparse->state = false;
	/* After the job: it gives the matcher every event. */
	tn_sync_matcher_destroy(preparse->matcher);
	preparse->matcher = NULL;
}

struct tn_sync *tn_preparse_service_take_sync(
		struct tn_preparse_service *preparse)
{
	struct tn_sync *sync = preparse->matched;

	preparse->matched = NULL;
	return sync;
}

bool tn_preparse_service_poll(struct tn_preparse_service *preparse,
		const struct tn_lease *lease, struct tn_output *out,
		struct tn_index **made, bool *save)
{
	struct tn_job_progress progress;

	*made = NULL;
	*save = false;
	if (!tn_preparse_service_get_progress(preparse, &progress, NULL))
		return false;
	if (progress.state == TN_JOB_RUNNING)
		return true;
	/* The cursor is the command job's until it ends. */
	if (preparse->index && tn_lease_is_running(lease))
		return true;
	*made = tn_preparse_take_index(preparse->job);
	/* The cache holds the index and the snapshots, not the pages. */
	*save = progress.state == TN_JOB_DONE &&
		(preparse->index || preparse->state);
	if (progress.state == TN_JOB_DONE && preparse->matcher) {
		tn_sync_destroy(preparse->matched);
		preparse->matched = tn_sync_matcher_finish(preparse->matcher);
	}
	if (progress.state == TN_JOB_FAILED)
		tn_output_message(out, "%s stopped: %s",
			preparse->index ? "indexing" : "computing the state",
			progress.message);
	tn_preparse_service_stop(preparse);
	return true;
}

void tn_preparse_service_wait(struct tn_preparse_service *preparse)
{
	if (preparse->job)
		tn_job_wait(preparse->job);
}
