/* state-job.c - the state tree pane's queries as jobs (see state-job.h). */
#include <glib.h>
#include <string.h>

#include "state-job.h"

/* What one job works on.  While it runs, the job owns all of it, the
 * querier included (jobs->querier is NULL meanwhile). */
struct query {
	const struct tn_trace *trace;
	struct tn_state_querier *querier;	/* may be NULL: made here */
	const struct tn_state_snapshots *querier_snapshots;
	const struct tn_state_snapshots *snapshots;	/* to use */
	uint64_t end_horizon;
	const struct tn_symbols *symbols;
	struct tn_state_job_answer answer;
};

struct tn_state_jobs {
	const struct tn_trace *trace;
	const struct tn_symbols *symbols;
	/* Between queries: the querier and the snapshots it was made
	 * with. */
	struct tn_state_querier *querier;
	const struct tn_state_snapshots *querier_snapshots;
	struct tn_job *job;		/* the query that runs, or NULL */
	struct query *query;		/* its data */
};

void tn_state_job_answer_clear(struct tn_state_job_answer *answer)
{
	if (!answer)
		return;
	g_free(answer->path);
	tn_state_tree_destroy(answer->tree);
	if (answer->result)
		tn_state_result_destroy(answer->result);
	if (answer->kind == TN_STATE_JOB_END)
		tn_state_entry_fini(&answer->entry);
	memset(answer, 0, sizeof(*answer));
}

static int query_run(struct tn_job *job, void *data, struct tn_error *err)
{
	struct query *query = data;
	struct tn_state_job_answer *answer = &query->answer;
	struct tn_state_query_options options = { query->end_horizon, NULL,
		query->symbols };

	(void) job;
	/* The snapshots appeared (or changed) since the querier was made:
	 * a new one uses them. */
	if (query->querier && query->querier_snapshots != query->snapshots) {
		tn_state_querier_destroy(query->querier);
		query->querier = NULL;
	}
	if (!query->querier) {
		if (tn_state_querier_create(query->trace, query->snapshots,
				&query->querier, err))
			return -1;
		query->querier_snapshots = query->snapshots;
	}
	if (answer->kind == TN_STATE_JOB_END)
		return tn_state_querier_query_single(query->querier,
			&answer->pos, answer->path, &answer->entry, err);
	if (tn_state_querier_query(query->querier, &answer->pos, &options,
			&answer->result, err))
		return -1;
	/* Tens of milliseconds for a kernel's thousands of threads: not
	 * on the UI thread. */
	answer->tree = tn_state_tree_create(answer->result);
	return 0;
}

static void query_free(void *data)
{
	struct query *query = data;

	if (query->querier)
		tn_state_querier_destroy(query->querier);
	tn_state_job_answer_clear(&query->answer);
	g_free(query);
}

static const struct tn_job_class query_class = {
	"computing state", query_run, NULL, query_free,
};

struct tn_state_jobs *tn_state_jobs_create(const struct tn_trace *trace,
		const struct tn_symbols *symbols)
{
	struct tn_state_jobs *jobs = g_new0(struct tn_state_jobs, 1);

	jobs->trace = trace;
	jobs->symbols = symbols;
	return jobs;
}

void tn_state_jobs_destroy(struct tn_state_jobs *jobs)
{
	if (!jobs)
		return;
	/* Cancels, waits, and frees the query with its querier. */
	tn_job_destroy(jobs->job);
	if (jobs->querier)
		tn_state_querier_destroy(jobs->querier);
	g_free(jobs);
}

static int start(struct tn_state_jobs *jobs, struct query *query,
		const struct tn_state_snapshots *snapshots,
		struct tn_error *err)
{
	query->trace = jobs->trace;
	query->snapshots = snapshots;
	/* The querier goes with the job, and comes back when it ended. */
	query->querier = jobs->querier;
	query->querier_snapshots = jobs->querier_snapshots;
	jobs->querier = NULL;
	if (tn_job_start(&query_class, query, &jobs->job, err)) {
		jobs->querier = query->querier;
		query->querier = NULL;
		query_free(query);
		return -1;
	}
	jobs->query = query;
	return 0;
}

int tn_state_jobs_start_full(struct tn_state_jobs *jobs,
		const struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, uint64_t end_horizon,
		struct tn_error *err)
{
	struct query *query = g_new0(struct query, 1);

	query->end_horizon = end_horizon;
	query->symbols = jobs->symbols;
	query->answer.kind = TN_STATE_JOB_FULL;
	query->answer.pos = *pos;
	return start(jobs, query, snapshots, err);
}

int tn_state_jobs_start_end(struct tn_state_jobs *jobs,
		const struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, const char *path,
		struct tn_error *err)
{
	struct query *query = g_new0(struct query, 1);

	query->answer.kind = TN_STATE_JOB_END;
	query->answer.pos = *pos;
	query->answer.path = g_strdup(path);
	return start(jobs, query, snapshots, err);
}

bool tn_state_jobs_is_running(const struct tn_state_jobs *jobs)
{
	return jobs->job != NULL;
}

enum tn_state_job_kind tn_state_jobs_get_kind(const struct tn_state_jobs *jobs)
{
	return jobs->query ? jobs->query->answer.kind : TN_STATE_JOB_FULL;
}

bool tn_state_jobs_get_progress(const struct tn_state_jobs *jobs,
		struct tn_job_progress *progress, struct tn_position *pos)
{
	if (!jobs->job)
		return false;
	tn_job_get_progress(jobs->job, progress);
	/* The query's inputs do not change while it runs. */
	*pos = jobs->query->answer.pos;
	return true;
}

void tn_state_jobs_cancel(struct tn_state_jobs *jobs)
{
	if (jobs->job)
		tn_job_cancel(jobs->job);
}

int tn_state_jobs_finish(struct tn_state_jobs *jobs,
		struct tn_state_job_answer *answer, bool *cancelled,
		struct tn_error *err)
{
	struct tn_job_progress progress;
	struct query *query = jobs->query;
	int status;

	tn_error_clear(err);
	*cancelled = false;
	if (!jobs->job || !tn_job_has_ended(jobs->job))
		return 0;
	tn_job_get_progress(jobs->job, &progress);
	/* The querier comes back for the next query. */
	jobs->querier = query->querier;
	jobs->querier_snapshots = query->querier_snapshots;
	query->querier = NULL;
	if (progress.state == TN_JOB_DONE) {
		*answer = query->answer;
		memset(&query->answer, 0, sizeof(query->answer));
		status = 1;
	} else {
		*answer = (struct tn_state_job_answer) {
			.kind = query->answer.kind, .pos = query->answer.pos,
		};
		*cancelled = progress.state == TN_JOB_CANCELLED;
		tn_error_set(err, "%s", *cancelled ? "cancelled" :
			progress.message);
		status = -1;
	}
	tn_job_destroy(jobs->job);
	jobs->job = NULL;
	jobs->query = NULL;
	return status;
}
