/* index-service.c - the checkpoint index of a session: its build alone,
 * the cache and the save job (see index-service.h). */
#include <glib.h>

#include "index-service.h"
#include "tracenav/cache.h"

void tn_index_service_use(struct tn_index_service *indexing,
		struct tn_trace *trace, struct tn_index *index)
{
	indexing->index = index;
	tn_trace_set_packet_tables(trace, index ?
		tn_index_borrow_packet_tables(index) : NULL);
}

bool tn_index_service_load_cached(struct tn_index_service *indexing,
		const struct tn_trace *trace, struct tn_output *out,
		struct tn_index **index, struct tn_state_snapshots **snapshots)
{
	struct tn_error err;

	*index = NULL;
	*snapshots = NULL;
	if (!indexing->cache_dir)
		return false;
	switch (tn_cache_load(trace, indexing->cache_dir, index, snapshots,
			&err)) {
	case TN_CACHE_HIT:
		/* The cache is keyed by the files as they are now. */
		tn_index_service_stamp(indexing, trace, false);
		return true;
	case TN_CACHE_INVALID:
		tn_output_message(out, "%s; indexing again", err.message);
		return false;
	case TN_CACHE_ERROR:
		tn_output_message(out, "%s; the index stays in memory",
			err.message);
		indexing->cache_warned = true;
		return false;
	case TN_CACHE_MISS:
		return false;
	}
	return false;
}

void tn_index_service_stamp(struct tn_index_service *indexing,
		const struct tn_trace *trace, bool changed)
{
	indexing->stamped = !changed;
	indexing->stamp = changed ? 0 : tn_trace_stamp(trace);
}

int tn_index_service_start_build(struct tn_index_service *indexing,
		struct tn_trace *trace, struct tn_error *err)
{
	return tn_index_build_start(trace, 0, &indexing->build_job, err);
}

bool tn_index_service_poll_build(struct tn_index_service *indexing,
		const struct tn_lease *lease, struct tn_output *out,
		struct tn_index **built)
{
	struct tn_job_progress progress;

	*built = NULL;
	if (!indexing->build_job)
		return false;
	tn_job_get_progress(indexing->build_job, &progress);
	if (progress.state == TN_JOB_RUNNING)
		return true;
	/* The cursor is the command job's until it ends. */
	if (tn_lease_is_running(lease))
		return true;
	if (progress.state == TN_JOB_DONE)
		*built = tn_index_build_take(indexing->build_job);
	else if (progress.state == TN_JOB_FAILED)
		tn_output_message(out, "indexing stopped: %s",
			progress.message);
	tn_index_service_stop_build(indexing);
	return true;
}

bool tn_index_service_get_build_progress(struct tn_index_service *indexing,
		struct tn_job_progress *progress)
{
	if (!indexing->build_job)
		return false;
	tn_job_get_progress(indexing->build_job, progress);
	return true;
}

size_t tn_index_service_get_build_bins(struct tn_index_service *indexing,
		int64_t *begin_ns, int64_t *end_ns, uint64_t **bins)
{
	*bins = NULL;
	if (!indexing->build_job)
		return 0;
	return tn_index_build_get_bins(indexing->build_job, begin_ns, end_ns,
		bins);
}

void tn_index_service_stop_build(struct tn_index_service *indexing)
{
	tn_job_destroy(indexing->build_job);
	indexing->build_job = NULL;
}

/* ---- saving the index in the cache, as a job ---- */

struct save {
	const struct tn_trace *trace;
	char *dir;
	const struct tn_index *index;
	const struct tn_state_snapshots *snapshots;
};

static int run_save(struct tn_job *job, void *data, struct tn_error *err)
{
	struct save *save = data;

	(void) job;
	return tn_cache_save(save->trace, save->dir, save->index,
		save->snapshots, err);
}

static void free_save(void *data)
{
	struct save *save = data;

	g_free(save->dir);
	g_free(save);
}

static const struct tn_job_class save_class = {
	.name = "saving the index",
	.run = run_save,
	.free = free_save,
};

bool tn_index_service_poll_save(struct tn_index_service *indexing,
		struct tn_output *out)
{
	struct tn_job_progress progress;

	if (!indexing->save_job)
		return false;
	tn_job_get_progress(indexing->save_job, &progress);
	if (progress.state == TN_JOB_RUNNING)
		return false;
	if (progress.state == TN_JOB_FAILED) {
		indexing->cache_warned = true;
		tn_output_message(out, "%s; the index stays in memory",
			progress.message);
	}
	tn_job_destroy(indexing->save_job);
	indexing->save_job = NULL;
	return true;
}

void tn_index_service_wait_save(struct tn_index_service *indexing,
		struct tn_output *out)
{
	if (!indexing->save_job)
		return;
	tn_job_wait(indexing->save_job);
	tn_index_service_poll_save(indexing, out);
}

void tn_index_service_save(struct tn_index_service *indexing,
		const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		struct tn_output *out)
{
	struct tn_error err;
	struct save *save;

	/* One save at a time: a newer one (the index, then the snapshots
	 * too) waits for the one before, which holds the file's name. */
	tn_index_service_wait_save(indexing, out);
	if (!indexing->cache_dir || indexing->cache_warned || !indexing->index)
		return;
	/* Saved under the name of the files as they are now: not an index
	 * of what they were (a trace still being written). */
	if (!indexing->stamped || tn_trace_stamp(trace) != indexing->stamp) {
		if (!indexing->changed_warned)
			tn_output_message(out, "the trace changed while it was "
				"indexed (it is still being written?): its index "
				"is not saved; reload reads what was added");
		indexing->changed_warned = true;
		return;
	}
	/* The index and complete snapshots do not change: the job may
	 * read them while the session goes on. */
	save = g_new0(struct save, 1);
	save->trace = trace;
	save->dir = g_strdup(indexing->cache_dir);
	save->index = indexing->index;
	save->snapshots = snapshots;
	if (tn_job_start(&save_class, save, &indexing->save_job, &err) == 0)
		return;
	free_save(save);
	indexing->cache_warned = true;
	tn_output_message(out, "%s; the index stays in memory", err.message);
}

void tn_index_service_drop(struct tn_index_service *indexing,
		struct tn_trace *trace)
{
	/* The trace may outlive the index: it must not see a freed one. */
	if (trace)
		tn_trace_set_packet_tables(trace, NULL);
	tn_index_destroy(indexing->index);
	indexing->index = NULL;
}

void tn_index_service_fini(struct tn_index_service *indexing,
		struct tn_trace *trace)
{
	tn_index_service_stop_build(indexing);
	tn_index_service_wait_save(indexing, NULL);
	tn_index_service_drop(indexing, trace);
	g_free(indexing->cache_dir);
	indexing->cache_dir = NULL;
}
