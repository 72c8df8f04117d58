/* timeline-job.c - the timeline panes' grids as jobs (see
 * timeline-job.h). */
#include <glib.h>

#include "timeline-job.h"

struct making {
	const struct tn_trace *trace;
	struct tn_timeline_made made;
};

struct tn_timeline_maker {
	const struct tn_trace *trace;
	struct tn_job *job;		/* the one that runs, or NULL */
	struct making *making;		/* its data */
};

bool tn_timeline_request_equal(const struct tn_timeline_request *a,
		const struct tn_timeline_request *b)
{
	return a->kind == b->kind && a->index == b->index &&
		a->snapshots == b->snapshots && a->begin_ns == b->begin_ns &&
		a->end_ns == b->end_ns && a->buckets == b->buckets;
}

void tn_timeline_made_free(struct tn_timeline_made *made)
{
	if (!made)
		return;
	tn_timeline_grid_destroy(made->grid);
	g_free(made->error);
	g_free(made);
}

static int making_run(struct tn_job *job, void *data, struct tn_error *err)
{
	struct making *making = data;
	const struct tn_timeline_request *r = &making->made.request;
	uint64_t events;

	(void) job;
	/* Both cores: the list's job, when one runs meanwhile, is short. */
	return tn_timeline_grid_run(making->trace, r->snapshots, r->index,
		r->kind, r->begin_ns, r->end_ns, r->buckets,
		g_get_num_processors(), &making->made.grid, &events, err);
}

static void making_free(void *data)
{
	struct making *making = data;

	/* The grid, when it was not taken (the error is set when taken). */
	tn_timeline_grid_destroy(making->made.grid);
	g_free(making);
}

static const struct tn_job_class making_class = {
	"making the timeline", making_run, NULL, making_free,
};

struct tn_timeline_maker *tn_timeline_maker_create(
		const struct tn_trace *trace)
{
	struct tn_timeline_maker *maker = g_new0(struct tn_timeline_maker, 1);

	maker->trace = trace;
	return maker;
}

void tn_timeline_maker_destroy(struct tn_timeline_maker *maker)
{
	if (!maker)
		return;
	/* Cancels, waits, and frees its data. */
	tn_job_destroy(maker->job);
	g_free(maker);
}

int tn_timeline_maker_start(struct tn_timeline_maker *maker,
		const struct tn_timeline_request *request,
		struct tn_error *err)
{
	struct making *making = g_new0(struct making, 1);

	making->trace = maker->trace;
	making->made.request = *request;
	if (tn_job_start(&making_class, making, &maker->job, err)) {
		making_free(making);
		maker->job = NULL;
		return -1;
	}
	maker->making = making;
	return 0;
}

const struct tn_timeline_request *tn_timeline_maker_running(
		const struct tn_timeline_maker *maker,
		struct tn_job_progress *progress)
{
	if (!maker->job)
		return NULL;
	if (progress)
		tn_job_get_progress(maker->job, progress);
	/* The request does not change while the job runs. */
	return &maker->making->made.request;
}

void tn_timeline_maker_cancel(struct tn_timeline_maker *maker)
{
	if (maker->job)
		tn_job_cancel(maker->job);
}

int tn_timeline_maker_finish(struct tn_timeline_maker *maker,
		struct tn_timeline_made **out)
{
	struct tn_job_progress progress;
	struct making *making = maker->making;
	int status = -1;

	*out = NULL;
	if (!maker->job || !tn_job_has_ended(maker->job))
		return 0;
	tn_job_get_progress(maker->job, &progress);
	if (progress.state != TN_JOB_CANCELLED) {
		/* A failed run made no grid (tn_timeline_grid_run()). */
		*out = g_memdup2(&making->made, sizeof(making->made));
		if (progress.state != TN_JOB_DONE)
			(*out)->error = g_strdup(progress.message);
		making->made.grid = NULL;
		status = 1;
	}
	tn_job_destroy(maker->job);
	maker->job = NULL;
	maker->making = NULL;
	return status;
}
