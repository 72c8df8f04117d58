/* indexer-compat.c - the tn_indexer_* API of before jobs, as thin
 * wrappers over the index build job (index.h).  Deprecated: remove this
 * file, its block in index.h and its line in Makefile.am once nothing
 * calls tn_indexer_* any more. */
#include <glib.h>
#include <string.h>

#include "tracenav/index.h"
#include "tracenav/job.h"

struct tn_indexer {
	struct tn_job *job;
};

int tn_indexer_start(const struct tn_trace *trace, unsigned workers,
		struct tn_indexer **out, struct tn_error *err)
{
	struct tn_indexer *indexer = g_new0(struct tn_indexer, 1);

	if (tn_index_build_start(trace, workers, &indexer->job, err)) {
		g_free(indexer);
		return -1;
	}
	*out = indexer;
	return 0;
}

unsigned tn_indexer_get_worker_count(const struct tn_indexer *indexer)
{
	return tn_index_build_get_worker_count(indexer->job);
}

void tn_indexer_get_progress(struct tn_indexer *indexer,
		struct tn_index_progress *progress)
{
	struct tn_job_progress job;

	tn_job_get_progress(indexer->job, &job);
	memset(progress, 0, sizeof(*progress));
	progress->done = job.state == TN_JOB_DONE;
	progress->failed = job.state == TN_JOB_FAILED;
	progress->cancelled = job.state == TN_JOB_CANCELLED;
	progress->events = job.items;
	progress->fraction = job.fraction < 0 ? 0 : job.fraction;
	progress->events_per_second = job.items_per_second;
	progress->eta_seconds = job.eta_seconds;
	memcpy(progress->message, job.message, sizeof(progress->message));
}

void tn_indexer_wait(struct tn_indexer *indexer)
{
	tn_job_wait(indexer->job);
}

void tn_indexer_cancel(struct tn_indexer *indexer)
{
	tn_job_cancel(indexer->job);
}

struct tn_index *tn_indexer_take_index(struct tn_indexer *indexer)
{
	return tn_index_build_take(indexer->job);
}

void tn_indexer_destroy(struct tn_indexer *indexer)
{
	if (!indexer)
		return;
	tn_job_destroy(indexer->job);
	g_free(indexer);
}
