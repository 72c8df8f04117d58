/* session-filter.c - the session's filters: the stack the commands
 * change, the set the cursor shows, its match counts (from the index's
 * names, or the count pass) and the count of matching events (see
 * session.h). */
#include <inttypes.h>

#include "session.h"

/* The count pass is polled this often while a command waits for it. */
#define COUNT_WAIT_MS 50

static void take_counts(struct tn_session *session, struct tn_output *out);

/* Start the count pass of the current set when it needs one: the index
 * is there, the set is not on names alone, its counts are not known. */
static void start_count(struct tn_session *session, struct tn_output *out)
{
	struct tn_error err;

	if (!session->filter_set || !session->index || session->match_counts ||
	    session->count_job)
		return;
	if (tn_match_counts_start(session->trace, session->index,
			session->filter_set, 0, &session->count_job, &err)) {
		tn_output_message(out, "%s", err.message);
		return;
	}
	/* --batch: what follows sees the counts, as it sees the index. */
	if (session->wait_for_index) {
		tn_job_wait(session->count_job);
		take_counts(session, out);
	}
}

/* The counts the index's names give, if the set is on names alone. */
static void counts_from_names(struct tn_session *session)
{
	if (!session->filter_set || !session->index || session->match_counts)
		return;
	session->match_counts = tn_match_counts_from_names(session->index,
		session->filter_set);
	session->counts_serial++;
	if (session->match_counts)
		tn_cursor_set_match_counts(session->cursor,
			session->match_counts);
}

static void drop_count(struct tn_session *session)
{
	tn_job_destroy(session->count_job);
	session->count_job = NULL;
}

void tn_session_stop_count(struct tn_session *session)
{
	drop_count(session);
}

/* --batch: count the matches of set before the cursor uses it (the
 * pass reads in parallel, where a cursor without counts may read the
 * whole trace forward and back to find none).  NULL if it fails. */
static struct tn_match_counts *count_first(struct tn_session *session,
		struct tn_filter_set *set, struct tn_output *out)
{
	struct tn_match_counts *counts;
	struct tn_job_progress progress;
	struct tn_error err;
	struct tn_job *job;

	if (tn_match_counts_start(session->trace, session->index, set, 0,
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

int tn_session_set_filters(struct tn_session *session,
		struct tn_filter_stack *stack, struct tn_output *out,
		struct tn_error *err)
{
	struct tn_filter_set *set = tn_filter_stack_snapshot(stack,
		session->gmt);
	struct tn_filter_matcher *matcher = set ? tn_filter_matcher_new(set) :
		NULL;
	struct tn_match_counts *counts;
	struct tn_filter filter = { NULL, NULL };

	/* --batch uses an index the cache has (the event list has it
	 * from the start). */
	if (set && session->wait_for_index)
		tn_session_load_cached_index(session, out);
	counts = set && session->index ?
		tn_match_counts_from_names(session->index, set) : NULL;

	if (set && !counts && session->index && session->wait_for_index)
		counts = count_first(session, set, out);
	if (matcher)
		tn_filter_matcher_bind(matcher, &filter);
	if (tn_cursor_set_filter(session->cursor, &filter, counts, err)) {
		tn_match_counts_destroy(counts);
		tn_filter_matcher_free(matcher);
		tn_filter_set_unref(set);
		tn_filter_stack_destroy(stack);
		return -1;
	}
	/* The cursor holds the new filter: the old one can go. */
	drop_count(session);
	tn_match_counts_destroy(session->match_counts);
	tn_filter_matcher_free(session->filter_matcher);
	tn_filter_set_unref(session->filter_set);
	tn_filter_stack_destroy(session->filters);
	session->filters = stack;
	session->filter_set = set;
	session->filter_matcher = matcher;
	session->match_counts = counts;
	session->counts_serial++;
	start_count(session, out);
	return 0;
}

void tn_session_filters_use_index(struct tn_session *session,
		struct tn_output *out)
{
	tn_match_counts_destroy(session->match_counts);
	session->match_counts = NULL;
	session->counts_serial++;
	drop_count(session);
	counts_from_names(session);
	start_count(session, out);
}

/* Give the counts of a count pass that ended to the cursor (the caller
 * owns the session). */
static void take_counts(struct tn_session *session, struct tn_output *out)
{
	struct tn_job_progress progress;

	tn_job_get_progress(session->count_job, &progress);
	if (progress.state == TN_JOB_DONE) {
		session->match_counts = tn_match_counts_take(
			session->count_job);
		session->counts_serial++;
		tn_cursor_set_match_counts(session->cursor,
			session->match_counts);
	} else if (progress.state == TN_JOB_FAILED) {
		tn_output_message(out, "%s", progress.message);
	}
	drop_count(session);
}

bool tn_session_poll_count(struct tn_session *session, struct tn_output *out)
{
	if (!session->count_job)
		return false;
	if (!tn_job_has_ended(session->count_job))
		return true;
	/* The cursor is the command job's until it ends. */
	if (tn_session_lease_running(session))
		return true;
	take_counts(session, out);
	return true;
}

bool tn_session_get_count_progress(struct tn_session *session,
		struct tn_job_progress *progress)
{
	if (!session->count_job)
		return false;
	tn_job_get_progress(session->count_job, progress);
	return true;
}

/* Wait for the count pass, showing its progress on the job that runs
 * this (the command queue's); a cancel of that job stops waiting. */
static int wait_for_count(struct tn_session *session, struct tn_output *out,
		struct tn_error *err)
{
	while (!tn_job_wait_for(session->count_job, COUNT_WAIT_MS)) {
		struct tn_job_progress progress;

		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled: the matches are still "
				"being counted (the status bar shows how far)");
			return -1;
		}
		tn_job_get_progress(session->count_job, &progress);
		tn_job_current_set_progress("counting", progress.fraction,
			progress.items);
	}
	take_counts(session, out);
	return 0;
}

/* Count by reading the whole trace (no index): the events that pass
 * the filters, or every event. */
static int64_t count_by_reading(struct tn_session *session,
		struct tn_error *err)
{
	struct tn_walk *walk;
	struct tn_row row;
	int64_t count = 0;
	int status;

	if (session->filter_matcher)
		return tn_filter_count_all(session->trace,
			session->filter_matcher, err);
	if (tn_walk_open(session->trace, INT64_MIN, &walk, err))
		return -1;
	while ((status = tn_walk_next(walk, NULL, &row, err)) == 1) {
		tn_row_release(&row);
		count++;
	}
	tn_walk_destroy(walk);
	return status < 0 ? -1 : count;
}

int tn_session_count_matches(struct tn_session *session,
		struct tn_output *out, uint64_t *count, struct tn_error *err)
{
	int64_t read;

	if (session->wait_for_index)
		tn_session_load_cached_index(session, out);
	if (!session->filter_set && session->index) {
		*count = session->index->event_count;
		return 0;
	}
	if (session->filter_set && !session->match_counts &&
	    session->index) {
		start_count(session, out);
		if (session->count_job && wait_for_count(session, out, err))
			return -1;
	}
	if (session->match_counts) {
		*count = session->match_counts->before[
			session->match_counts->interval_count];
		return 0;
	}
	/* No index (or the pass failed): one read of the whole trace. */
	read = count_by_reading(session, err);
	if (read < 0)
		return -1;
	*count = (uint64_t) read;
	return 0;
}

const struct tn_filter *tn_session_borrow_filter(struct tn_session *session)
{
	if (!session->filter_set)
		return NULL;
	tn_filter_set_bind(session->filter_set, &session->shared_filter);
	return &session->shared_filter;
}

void tn_session_unbind_filters(struct tn_session *session)
{
	tn_match_counts_destroy(session->match_counts);
	session->match_counts = NULL;
	tn_filter_matcher_free(session->filter_matcher);
	session->filter_matcher = NULL;
	tn_filter_set_unref(session->filter_set);
	session->filter_set = NULL;
}

void tn_session_fini_filters(struct tn_session *session)
{
	drop_count(session);
	tn_session_unbind_filters(session);
	tn_filter_stack_destroy(session->filters);
	session->filters = NULL;
}
