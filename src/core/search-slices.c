/* search-slices.c - one pass of a search: slices read by worker threads
 * (see search-slices.h).
 *
 * Each worker opens its own walk (seek.h: a reader on a sliced view of
 * the trace, never sharing a libbabeltrace2 object) and formats the line
 * of each event as --dump prints it, delta included: the walk gives the
 * time of the event before each row, except for the first row after the
 * part of the trace its view left out, whose predecessor the backward
 * helper finds.  The workers are a fan-out (job.h): each on a helper
 * thread that adopts the caller's job, while the calling thread waits
 * for them, calling the tick function now and then; the workers'
 * progress counters are atomics, their results are read after
 * tn_fanout_join(), and the first failure is the fan-out's.
 */
#include <glib.h>
#include <stdatomic.h>
#include <string.h>

#include "tracenav/format.h"
#include "tracenav/job.h"
#include "search-slices.h"

/* Workers publish progress and look for a stop request this often. */
#define CHECK_EVERY 256
/* The calling thread looks at the workers this often. */
#define TICK_MS 30

struct run;

struct worker {
	struct run *run;
	unsigned index;
	struct tn_search_bound lo, hi;
	int64_t begin_ns, end_ns;	/* the slice's time span */
	/* Progress: written by the worker, read by the calling thread. */
	_Atomic uint64_t events;
	_Atomic int64_t reached_ns;
	atomic_bool finished;
	/* The result, read after the fan-out ended. */
	bool found;
	struct tn_position pos;
};

struct run {
	const struct tn_search_shared *shared;
	enum tn_search_mode mode;
	unsigned count;
	struct worker workers[TN_SEARCH_MAX_WORKERS];
	/* FIRST: the smallest index of a slice that matched (count when
	 * none); LAST: the largest plus one (0 when none). */
	atomic_uint winner;
	atomic_bool cancelled;	/* the tick asked to stop */
};

/* ---- a worker ---- */

/* Whether a worker should stop: a cancel (the tick's, or the job's), a
 * failure, or a slice that wins over its own has matched. */
static bool should_stop(const struct worker *w,
		const struct tn_fanout *fanout)
{
	unsigned winner = atomic_load_explicit(&w->run->winner,
		memory_order_relaxed);

	if (atomic_load_explicit(&w->run->cancelled, memory_order_relaxed) ||
	    tn_fanout_should_stop(fanout))
		return true;
	return w->run->mode == TN_SEARCH_FIRST ? winner < w->index :
		winner > w->index + 1;
}

static void claim(struct worker *w)
{
	atomic_uint *winner = &w->run->winner;
	unsigned seen = atomic_load(winner);

	if (w->run->mode == TN_SEARCH_FIRST) {
		while (w->index < seen &&
		       !atomic_compare_exchange_weak(winner, &seen, w->index))
			;
	} else {
		while (w->index + 1 > seen &&
		       !atomic_compare_exchange_weak(winner, &seen,
				w->index + 1))
			;
	}
}

/* The time of the event before row in the trace (any event), when the
 * walk did not know it: the first row after what its view left out. */
static int fill_prev(const struct tn_trace *trace, struct tn_row *row,
		struct tn_error *err)
{
	GArray *before = g_array_new(FALSE, FALSE, sizeof(struct tn_row));
	int64_t added = tn_seek_n_events_backward(trace, &row->pos, 1, NULL, 0,
		before, err);

	if (added == 1) {
		row->has_prev = true;
		row->prev_ns = g_array_index(before, struct tn_row, 0).pos.ns;
		tn_row_release(&g_array_index(before, struct tn_row, 0));
	}
	g_array_free(before, TRUE);
	return added < 0 ? -1 : 0;
}

static bool before_hi(const struct worker *w, const struct tn_row *row)
{
	return w->hi.open || tn_position_compare(&row->pos, &w->hi.pos) < 0;
}

/* Read the slice; returns 0 (read, or stopped) or -1 with err. */
static int read_slice(struct worker *w, const struct tn_fanout *fanout,
		struct tn_error *err)
{
	const struct tn_search_request *request = w->run->shared->request;
	struct tn_regex_matcher *matcher =
		tn_regex_matcher_new(request->regex);
	GString *line = g_string_sized_new(256);
	struct tn_filter_matcher *filters = NULL;
	struct tn_filter filter = { NULL, NULL };
	struct tn_format_state state;
	struct tn_walk *walk;
	struct tn_row row;
	uint64_t events = 0;
	int status;

	status = w->lo.open ?
		tn_walk_open(request->trace, INT64_MIN, &walk, err) :
		tn_walk_open_at(request->trace, &w->lo.pos, false, &walk, err);
	if (status) {
		tn_regex_matcher_free(matcher);
		g_string_free(line, TRUE);
		return -1;
	}
	if (request->filters) {
		filters = tn_filter_matcher_new(request->filters);
		tn_filter_matcher_bind(filters, &filter);
	}
	/* The walk's reader outlives the memo: its trace objects stay. */
	tn_format_state_init(&state, request->gmt);
	state.host_memo = tn_format_host_memo_new();
	while ((status = tn_walk_next(walk, &filter, &row, err)) == 1) {
		if (!before_hi(w, &row)) {
			tn_row_release(&row);
			break;
		}
		if (!row.has_prev && fill_prev(request->trace, &row, err)) {
			tn_row_release(&row);
			status = -1;
			break;
		}
		state.has_last = row.has_prev;
		state.last_ns = row.prev_ns;
		g_string_truncate(line, 0);
		tn_format_event_line(line, &row.ev, &state);
		events++;
		if (tn_regex_find(matcher, line->str, line->len, 0, NULL,
				NULL)) {
			w->found = true;
			w->pos = row.pos;
			claim(w);
			if (w->run->mode == TN_SEARCH_FIRST) {
				tn_row_release(&row);
				break;
			}
		}
		if (events % CHECK_EVERY == 0) {
			atomic_store(&w->events, events);
			atomic_store(&w->reached_ns, row.pos.ns);
			if (should_stop(w, fanout)) {
				tn_row_release(&row);
				break;
			}
		}
		tn_row_release(&row);
	}
	atomic_store(&w->events, events);
	g_hash_table_destroy(state.host_memo);
	tn_filter_matcher_free(filters);
	tn_walk_destroy(walk);
	tn_regex_matcher_free(matcher);
	g_string_free(line, TRUE);
	return status < 0 ? -1 : 0;
}

/* Worker i of the run, on a helper thread of the fan-out. */
static int run_worker(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct run *run = data;
	struct worker *w = &run->workers[i];
	int status = 0;

	if (!should_stop(w, fanout))
		status = read_slice(w, fanout, err);
	atomic_store(&w->finished, true);
	return status;
}

/* ---- the calling thread ---- */

static void worker_init(struct worker *w, struct run *run, unsigned index,
		const struct tn_search_bound *lo,
		const struct tn_search_bound *hi)
{
	const struct tn_search_shared *shared = run->shared;

	memset(w, 0, sizeof(*w));
	w->run = run;
	w->index = index;
	w->lo = *lo;
	w->hi = *hi;
	w->begin_ns = lo->open ? shared->begin_ns : lo->pos.ns;
	w->end_ns = hi->open ? shared->end_ns : hi->pos.ns;
	if (w->end_ns < w->begin_ns)
		w->end_ns = w->begin_ns;
	atomic_init(&w->events, 0);
	atomic_init(&w->reached_ns, w->begin_ns);
	atomic_init(&w->finished, false);
}

static void reach_of(const struct run *run, struct tn_search_reach *reach)
{
	reach->covered_ns = 0;
	reach->events = 0;
	for (unsigned i = 0; i < run->count; i++) {
		const struct worker *w = &run->workers[i];
		int64_t reached = atomic_load(&w->reached_ns);

		if (atomic_load(&w->finished) || reached > w->end_ns)
			reached = w->end_ns;
		if (reached > w->begin_ns)
			reach->covered_ns += (double) ((uint64_t) reached -
				(uint64_t) w->begin_ns);
		reach->events += atomic_load(&w->events);
	}
}

/* Wait for the workers, ticking; the tick may stop them. */
static void wait_workers(struct run *run, struct tn_fanout *fanout)
{
	const struct tn_search_shared *shared = run->shared;

	while (!tn_fanout_wait_for(fanout, TICK_MS)) {
		struct tn_search_reach reach;

		if (!shared->tick)
			continue;
		reach_of(run, &reach);
		if (shared->tick(&reach, shared->tick_data))
			atomic_store(&run->cancelled, true);
	}
}

int tn_search_run_slices(const struct tn_search_shared *shared,
		const struct tn_search_bound *cuts, unsigned count,
		enum tn_search_mode mode, bool *found,
		struct tn_position *pos, uint64_t *events,
		struct tn_error *err)
{
	struct run *run = g_new0(struct run, 1);
	struct tn_fanout *fanout;
	struct tn_search_reach reach;
	int status;

	*found = false;
	*events = 0;
	if (count > TN_SEARCH_MAX_WORKERS)
		count = TN_SEARCH_MAX_WORKERS;
	run->shared = shared;
	run->mode = mode;
	run->count = count;
	atomic_init(&run->winner, mode == TN_SEARCH_FIRST ? count : 0);
	atomic_init(&run->cancelled, false);
	for (unsigned i = 0; i < count; i++)
		worker_init(&run->workers[i], run, i, &cuts[i], &cuts[i + 1]);
	if (tn_fanout_start(count, run_worker, run, &fanout, err)) {
		g_free(run);
		return -1;
	}
	wait_workers(run, fanout);
	status = tn_fanout_join(fanout, err);
	reach_of(run, &reach);
	*events = reach.events;
	/* After a cancel, the workers stopped without failing: what they
	 * found is not the pass's answer. */
	if (status == 0 && (atomic_load(&run->cancelled) ||
			tn_job_current_is_cancelled())) {
		tn_error_set(err, "cancelled");
		status = -1;
	}
	if (status == 0) {
		unsigned winner = atomic_load(&run->winner);

		if (mode == TN_SEARCH_FIRST && winner < count) {
			*found = true;
			*pos = run->workers[winner].pos;
		} else if (mode == TN_SEARCH_LAST && winner > 0) {
			*found = true;
			*pos = run->workers[winner - 1].pos;
		}
	}
	g_free(run);
	return status;
}
