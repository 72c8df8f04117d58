/* filter-service.c - the filters of a session: the stack the commands
 * change, the set the cursor shows, its match counts (from the index's
 * names, or the count pass) and the count of matching events (see
 * filter-service.h). */
#include <inttypes.h>

#include "filter-service.h"

/* The count pass is polled this often while a command waits for it. */
#define COUNT_WAIT_MS 50

static void take_counts(struct tn_filter_service *filters,
		struct tn_cursor *cursor, struct tn_output *out);

/* Start the count pass of the current set when it needs one: the index
 * is there, the set is not on names alone, its counts are not known. */
static void start_count(struct tn_filter_service *filters,
		const struct tn_filter_target *target, struct tn_output *out)
{
	struct tn_error err;

	if (!filters->set || !target->index || filters->counts ||
	    filters->count_job)
		return;
	if (tn_match_counts_start(target->trace, target->index, filters->set,
			0, &filters->count_job, &err)) {
		tn_output_message(out, "%s", err.message);
		return;
	}
	if (target->wait) {
		tn_job_wait(filters->count_job);
		take_counts(filters, target->cursor, out);
	}
}

/* The counts the index's names give, if the set is on names alone. */
static void counts_from_names(struct tn_filter_service *filters,
		const struct tn_filter_target *target)
{
	if (!filters->set || !target->index || filters->counts)
		return;
	filters->counts = tn_match_counts_from_names(target->index,
		filters->set);
	filters->serial++;
	if (filters->counts)
		tn_cursor_set_match_counts(target->cursor, filters->counts);
}

void tn_filter_service_stop_count(struct tn_filter_service *filters)
{
	tn_job_destroy(filters->count_job);
	filters->count_job = NULL;
}

/* --batch: count the matches of set before the cursor uses it (the
 * pass reads in parallel, where a cursor without counts may read the
 * whole trace forward and back to find none).  NULL if it fails. */
static struct tn_match_counts *count_first(
		const struct tn_filter_target *target,
		struct tn_filter_set *set, struct tn_output *out)
{
	struct tn_match_counts *counts;
	struct tn_job_progress progress;
	struct tn_error err;
	struct tn_job *job;

	if (tn_match_counts_start(target->trace, target->index, set, 0,
			&job, &err)) {
		tn_output_message(out, "%s", err.message);
		return NULL;
	}
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	if (progress.state == TN_JOB_FAILED)
		tn_output_message(out, "%s", progress.message);
	counts = tn_match_counts_take(job);
	tn_job_destroy(job);
	return counts;
}

int tn_filter_service_set(struct tn_filter_service *filters,
		const struct tn_filter_target *target,
		struct tn_filter_stack *stack, struct tn_filter_set *set,
		struct tn_output *out, struct tn_error *err)
{
	struct tn_filter_matcher *matcher = set ? tn_filter_matcher_new(set) :
		NULL;
	struct tn_match_counts *counts;
	struct tn_filter filter = { NULL, NULL };

	counts = set && target->index ?
		tn_match_counts_from_names(target->index, set) : NULL;
	if (set && !counts && target->index && target->wait)
		counts = count_first(target, set, out);
	if (matcher)
		tn_filter_matcher_bind(matcher, &filter);
	if (tn_cursor_set_filter(target->cursor, &filter, counts, err)) {
		tn_match_counts_destroy(counts);
		tn_filter_matcher_free(matcher);
		tn_filter_set_unref(set);
		tn_filter_stack_destroy(stack);
		return -1;
	}
	/* The cursor holds the new filter: the old one can go. */
	tn_filter_service_stop_count(filters);
	tn_match_counts_destroy(filters->counts);
	tn_filter_matcher_free(filters->matcher);
	tn_filter_set_unref(filters->set);
	tn_filter_stack_destroy(filters->stack);
	filters->stack = stack;
	filters->set = set;
	filters->matcher = matcher;
	filters->counts = counts;
	filters->serial++;
	start_count(filters, target, out);
	return 0;
}

void tn_filter_service_use_index(struct tn_filter_service *filters,
		const struct tn_filter_target *target, struct tn_output *out)
{
	tn_match_counts_destroy(filters->counts);
	filters->counts = NULL;
	filters->serial++;
	tn_filter_service_stop_count(filters);
	counts_from_names(filters, target);
	start_count(filters, target, out);
}

/* Give the counts of a count pass that ended to the cursor (the caller
 * owns the cursor). */
static void take_counts(struct tn_filter_service *filters,
		struct tn_cursor *cursor, struct tn_output *out)
{
	struct tn_job_progress progress;

	tn_job_get_progress(filters->count_job, &progress);
	if (progress.state == TN_JOB_DONE) {
		filters->counts = tn_match_counts_take(filters->count_job);
		filters->serial++;
		tn_cursor_set_match_counts(cursor, filters->counts);
	} else if (progress.state == TN_JOB_FAILED) {
		tn_output_message(out, "%s", progress.message);
	}
	tn_filter_service_stop_count(filters);
}

bool tn_filter_service_poll(struct tn_filter_service *filters,
		struct tn_cursor *cursor, const struct tn_lease *lease,
		struct tn_output *out)
{
	if (!filters->count_job)
		return false;
	if (!tn_job_has_ended(filters->count_job))
		return true;
	/* The cursor is the command job's until it ends. */
	if (tn_lease_is_running(lease))
		return true;
	take_counts(filters, cursor, out);
	return true;
}

bool tn_filter_service_get_progress(struct tn_filter_service *filters,
		struct tn_job_progress *progress)
{
	if (!filters->count_job)
		return false;
	tn_job_get_progress(filters->count_job, progress);
	return true;
}

/* Wait for the count pass, showing its progress on the job that runs
 * this (the command queue's); a cancel of that job stops waiting. */
static int wait_for_count(struct tn_filter_service *filters,
		struct tn_cursor *cursor, struct tn_output *out,
		struct tn_error *err)
{
	while (!tn_job_wait_for(filters->count_job, COUNT_WAIT_MS)) {
		struct tn_job_progress progress;

		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled: the matches are still "
				"being counted (the status bar shows how far)");
			return -1;
		}
		tn_job_get_progress(filters->count_job, &progress);
		tn_job_current_set_progress("counting", progress.fraction,
			progress.items);
	}
	take_counts(filters, cursor, out);
	return 0;
}

/* Count by reading the whole trace (no index): the events that pass
 * the filters, or every event. */
static int64_t count_by_reading(struct tn_filter_service *filters,
		struct tn_trace *trace, struct tn_error *err)
{
	struct tn_walk *walk;
	struct tn_row row;
	int64_t count = 0;
	int status;

	if (filters->matcher)
		return tn_filter_count_all(trace, filters->matcher, err);
	if (tn_walk_open(trace, INT64_MIN, &walk, err))
		return -1;
	while ((status = tn_walk_next(walk, NULL, &row, err)) == 1) {
		tn_row_release(&row);
		count++;
	}
	tn_walk_destroy(walk);
	return status < 0 ? -1 : count;
}

int tn_filter_service_count(struct tn_filter_service *filters,
		const struct tn_filter_target *target, struct tn_output *out,
		uint64_t *count, struct tn_error *err)
{
	int64_t read;

	if (!filters->set && target->index) {
		*count = target->index->event_count;
		return 0;
	}
	if (filters->set && !filters->counts && target->index) {
		start_count(filters, target, out);
		if (filters->count_job &&
		    wait_for_count(filters, target->cursor, out, err))
			return -1;
	}
	if (filters->counts) {
		*count = filters->counts->before[
			filters->counts->interval_count];
		return 0;
	}
	/* No index (or the pass failed): one read of the whole trace. */
	read = count_by_reading(filters, target->trace, err);
	if (read < 0)
		return -1;
	*count = (uint64_t) read;
	return 0;
}

const struct tn_filter *tn_filter_service_borrow(
		struct tn_filter_service *filters)
{
	if (!filters->set)
		return NULL;
	tn_filter_set_bind(filters->set, &filters->shared);
	return &filters->shared;
}

void tn_filter_service_unbind(struct tn_filter_service *filters)
{
	tn_match_counts_destroy(filters->counts);
	filters->counts = NULL;
	tn_filter_matcher_free(filters->matcher);
	filters->matcher = NULL;
	tn_filter_set_unref(filters->set);
	filters->set = NULL;
}

void tn_filter_service_fini(struct tn_filter_service *filters)
{
	tn_filter_service_stop_count(filters);
	tn_filter_service_unbind(filters);
	tn_filter_stack_destroy(filters->stack);
	filters->stack = NULL;
}
