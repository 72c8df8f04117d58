/* search.c - whole-trace regex search (see search.h): the passes of a
 * search and how each is cut into slices; search-slices.c reads them.
 *
 * Forward: one pass from the start position to the trace's end, then
 * (wrapping) one from the trace's start to the start position.
 * Backward: windows before the start position, the nearest first, four
 * times wider each time, until one holds a match or the trace's start is
 * reached; then (wrapping) the same from the trace's end down to the
 * start position.  A part is cut into as many slices as workers, by
 * event numbers when the index is there (each slice then holds as many
 * events), by time otherwise, and only where the trace can be read from
 * the middle (it has packet indexes, or packet tables from the index).
 */
#include <glib.h>
#include <string.h>

#include "tracenav/search.h"
#include "search-slices.h"
#include "trace-private.h"

/* Workers when the caller leaves it to us: each reads with a graph of
 * its own (some 30 MB of trace pages mapped), as the index build. */
#define DEFAULT_MAX_WORKERS 3
/* Below this many bytes of stream files in a part, more graphs cost
 * more than they save. */
#define TINY_PART_BYTES (1 << 20)
/* Fewer events than this in a part (known from the index): one slice. */
#define TINY_PART_EVENTS 65536
/* The first backward window: events (with the index), or the share of
 * the time span before the start position (without). */
#define FIRST_WINDOW_EVENTS 65536
#define FIRST_WINDOW_SHARE 256
#define WINDOW_GROWTH 4

struct search {
	struct tn_search_shared shared;
	const struct tn_search_request *request;
	unsigned workers;	/* at most */
	uint64_t stream_bytes;	/* of the whole trace */
	/* Progress: what the passes before the running one covered, of
	 * the whole (ns); total < 0: unknown. */
	double done_ns, total_ns;
	uint64_t events;	/* matched in the passes that ended */
	struct tn_search_result *result;
};

/* ---- planning ---- */

static bool has_index(const struct search *s)
{
	return s->request->index && s->request->index->event_count > 0;
}

/* The time of a bound, within the trace's span (which stands for open
 * ends). */
static int64_t bound_ns(const struct search *s,
		const struct tn_search_bound *b, bool upper)
{
	if (b->open)
		return upper ? s->shared.end_ns : s->shared.begin_ns;
	return CLAMP(b->pos.ns, s->shared.begin_ns, s->shared.end_ns);
}

/* The rank of the checkpoint at or before a bound (an estimate of its
 * event number, short by at most one interval). */
static uint64_t bound_rank(const struct search *s,
		const struct tn_search_bound *b, bool upper)
{
	const struct tn_index *index = s->request->index;
	const struct tn_checkpoint *cp;

	if (b->open)
		return upper ? index->event_count : 0;
	cp = tn_index_checkpoint_for_position(index, &b->pos);
	return cp ? cp->rank : 0;
}

static bool bound_before(const struct tn_search_bound *a,
		const struct tn_search_bound *b)
{
	return a->open || b->open ||
		tn_position_compare(&a->pos, &b->pos) < 0;
}

/* Whether a walk opened at pos reads the trace from the middle rather
 * than from its start. */
static bool can_slice_at(const struct search *s, const struct tn_position *pos)
{
	return tn_seek_get_skipped_until(s->request->trace, pos->ns) !=
		INT64_MIN;
}

/* Cut [lo, hi) into at most s->workers slices: cuts gets count + 1
 * bounds.  Returns count. */
static unsigned plan_cuts(const struct search *s,
		const struct tn_search_bound *lo, const struct tn_search_bound *hi,
		struct tn_search_bound *cuts)
{
	unsigned wanted = s->workers, count = 1;
	/* Threads asked for are used even on a small part. */
	bool tiny_too = s->request->workers > 0;
	int64_t b = bound_ns(s, lo, false), e = bound_ns(s, hi, true);

	cuts[0] = *lo;
	if (wanted > 1 && has_index(s)) {
		uint64_t r0 = bound_rank(s, lo, false);
		uint64_t r1 = bound_rank(s, hi, true);

		if (r1 <= r0 || (r1 - r0 < TINY_PART_EVENTS && !tiny_too))
			wanted = 1;
		for (unsigned i = 1; i < wanted; i++) {
			const struct tn_checkpoint *cp =
				tn_index_checkpoint_for_rank(s->request->index,
					r0 + (r1 - r0) / wanted * i);
			struct tn_search_bound cut = { false, cp->pos };

			if (!bound_before(&cuts[count - 1], &cut) ||
			    !bound_before(&cut, hi) ||
			    !can_slice_at(s, &cut.pos))
				continue;
			cuts[count++] = cut;
		}
	} else if (wanted > 1 && s->shared.has_range && e > b &&
		   tn_trace_has_clock(s->request->trace)) {
		double share = ((double) e - (double) b) /
			((double) s->shared.end_ns -
			 (double) s->shared.begin_ns + 1);

		if ((share * (double) s->stream_bytes < TINY_PART_BYTES &&
		     !tiny_too) || (uint64_t) (e - b) < wanted)
			wanted = 1;
		for (unsigned i = 1; i < wanted; i++) {
			struct tn_search_bound cut = { false, {
				b + (int64_t) ((uint64_t) (e - b) / wanted * i),
				0 } };

			if (!bound_before(&cuts[count - 1], &cut) ||
			    !bound_before(&cut, hi) ||
			    !can_slice_at(s, &cut.pos))
				continue;
			cuts[count++] = cut;
		}
	}
	cuts[count] = *hi;
	return count;
}

/* ---- progress ---- */

static bool tick(const struct tn_search_reach *reach, void *data)
{
	struct search *s = data;
	double fraction = -1;

	if (s->total_ns > 0) {
		fraction = (s->done_ns + reach->covered_ns) / s->total_ns;
		fraction = fraction > 1 ? 1 : fraction;
	}
	tn_job_current_set_progress("searching", fraction,
		s->events + reach->events);
	return tn_job_current_is_cancelled();
}

/* The time span of [lo, hi), for the progress. */
static double span_ns(const struct search *s, const struct tn_search_bound *lo,
		const struct tn_search_bound *hi)
{
	int64_t b = bound_ns(s, lo, false), e = bound_ns(s, hi, true);

	return e > b ? (double) e - (double) b : 0;
}

/* ---- passes ---- */

/* Search [lo, hi) in mode; *found and *pos as tn_search_run_slices(). */
static int search_part(struct search *s, const struct tn_search_bound *lo,
		const struct tn_search_bound *hi, enum tn_search_mode mode,
		bool *found, struct tn_position *pos, struct tn_error *err)
{
	struct tn_search_bound cuts[TN_SEARCH_MAX_WORKERS + 1];
	unsigned count = plan_cuts(s, lo, hi, cuts);
	uint64_t events;
	int status;

	if (count > s->result->workers)
		s->result->workers = count;
	status = tn_search_run_slices(&s->shared, cuts, count, mode, found,
		pos, &events, err);
	s->events += events;
	s->result->events_read = s->events;
	s->done_ns += span_ns(s, lo, hi);
	return status;
}

/* The bound just after pos: positions are (time, tie). */
static struct tn_search_bound after(const struct tn_position *pos)
{
	struct tn_search_bound b = { false, { pos->ns, pos->tie + 1 } };

	return b;
}

static struct tn_search_bound at(const struct tn_position *pos)
{
	struct tn_search_bound b = { false, *pos };

	return b;
}

static const struct tn_search_bound open_bound = { true, { 0, 0 } };

/* The last match in [limit, hi), reading windows back from hi. */
static int search_back(struct search *s, const struct tn_search_bound *limit,
		struct tn_search_bound hi, bool *found, struct tn_position *pos,
		struct tn_error *err)
{
	const struct tn_index *index = s->request->index;
	uint64_t window_events = FIRST_WINDOW_EVENTS;
	int64_t window_ns = 0;
	bool by_time = s->shared.has_range &&
		tn_trace_has_clock(s->request->trace);

	*found = false;
	if (by_time) {
		int64_t b = bound_ns(s, limit, false), e = bound_ns(s, &hi, true);

		window_ns = e > b ? (e - b) / FIRST_WINDOW_SHARE + 1 : 1;
	}
	for (;;) {
		struct tn_search_bound lo = *limit;
		bool last = true;

		if (has_index(s)) {
			uint64_t r1 = bound_rank(s, &hi, true);
			uint64_t r0 = bound_rank(s, limit, false);

			if (r1 > r0 && r1 - r0 > window_events) {
				lo = at(&tn_index_checkpoint_for_rank(index,
					r1 - window_events)->pos);
				last = false;
			}
			window_events *= WINDOW_GROWTH;
		} else if (by_time) {
			int64_t b = bound_ns(s, limit, false);
			int64_t e = bound_ns(s, &hi, true);

			if (e - b > window_ns) {
				lo.open = false;
				lo.pos.ns = e - window_ns;
				lo.pos.tie = 0;
				last = false;
			}
			window_ns = window_ns > INT64_MAX / WINDOW_GROWTH ?
				INT64_MAX : window_ns * WINDOW_GROWTH;
		}
		/* A window that reaches below the limit stops at it. */
		if (!last && !limit->open && !bound_before(limit, &lo)) {
			lo = *limit;
			last = true;
		}
		if (bound_before(&lo, &hi) &&
		    search_part(s, &lo, &hi, TN_SEARCH_LAST, found, pos, err))
			return -1;
		if (*found || last)
			return 0;
		hi = lo;
	}
}

static int search_forward(struct search *s, bool *found,
		struct tn_position *pos, struct tn_error *err)
{
	const struct tn_search_request *request = s->request;
	struct tn_search_bound lo = request->inclusive ? at(&request->from) :
		after(&request->from);
	struct tn_search_bound hi;

	s->total_ns = span_ns(s, &lo, &open_bound);
	if (search_part(s, &lo, &open_bound, TN_SEARCH_FIRST, found, pos, err))
		return -1;
	if (*found || !request->wrap)
		return 0;
	/* From the top, up to where it started (the event at `from` was
	 * searched already when inclusive). */
	hi = request->inclusive ? at(&request->from) : after(&request->from);
	s->done_ns = 0;
	s->total_ns = span_ns(s, &open_bound, &hi);
	if (search_part(s, &open_bound, &hi, TN_SEARCH_FIRST, found, pos, err))
		return -1;
	s->result->wrapped = *found;
	return 0;
}

static int search_backward(struct search *s, bool *found,
		struct tn_position *pos, struct tn_error *err)
{
	const struct tn_search_request *request = s->request;
	struct tn_search_bound from = at(&request->from);

	s->total_ns = span_ns(s, &open_bound, &from);
	if (search_back(s, &open_bound, from, found, pos, err))
		return -1;
	if (*found || !request->wrap)
		return 0;
	/* From the bottom, down to where it started (the event at `from`
	 * included: it may be the only match). */
	s->done_ns = 0;
	s->total_ns = span_ns(s, &from, &open_bound);
	if (search_back(s, &from, open_bound, found, pos, err))
		return -1;
	s->result->wrapped = *found;
	return 0;
}

/* The trace's time span: the index's first and last events, or the
 * packets' range, or the first event to the packets' end. */
static void find_span(struct search *s)
{
	const struct tn_search_request *request = s->request;
	int64_t begin, end;

	if (has_index(s)) {
		s->shared.has_range = true;
		s->shared.begin_ns = request->index->first_event_ns;
		s->shared.end_ns = request->index->last_event_ns;
	} else if (tn_trace_get_time_range(request->trace, &begin, &end) &&
		   begin <= end) {
		s->shared.has_range = true;
		s->shared.begin_ns = begin;
		s->shared.end_ns = end;
	}
}

int tn_search_run(const struct tn_search_request *request,
		struct tn_search_result *result, struct tn_error *err)
{
	struct search s = { 0 };
	bool found = false;
	struct tn_position pos = { 0, 0 };
	int status;

	tn_error_clear(err);
	memset(result, 0, sizeof(*result));
	s.request = request;
	s.result = result;
	s.shared.request = request;
	s.shared.tick = tick;
	s.shared.tick_data = &s;
	s.workers = request->workers ? request->workers :
		MIN(g_get_num_processors(), DEFAULT_MAX_WORKERS);
	s.workers = CLAMP(s.workers, 1, TN_SEARCH_MAX_WORKERS);
	find_span(&s);
	if (s.workers > 1 && !has_index(&s) && !request->workers)
		s.stream_bytes = tn_trace_get_stream_bytes(request->trace);
	status = request->direction == TN_SEARCH_FORWARD ?
		search_forward(&s, &found, &pos, err) :
		search_backward(&s, &found, &pos, err);
	/* The job that ran it shows no search any more. */
	tn_job_current_set_progress(NULL, -1, s.events);
	if (status)
		return -1;
	result->found = found;
	result->pos = pos;
	if (!found)
		result->wrapped = false;
	return 0;
}

/* ---- as a job of its own ---- */

struct search_job {
	struct tn_search_request request;
	struct tn_search_result result;
};

static int run_job(struct tn_job *job, void *data, struct tn_error *err)
{
	struct search_job *sj = data;

	(void) job;
	return tn_search_run(&sj->request, &sj->result, err);
}

static void free_job(void *data)
{
	g_free(data);
}

static const struct tn_job_class search_class = {
	.name = "searching",
	.run = run_job,
	.free = free_job,
};

int tn_search_start(const struct tn_search_request *request,
		struct tn_job **out, struct tn_error *err)
{
	struct search_job *sj = g_new0(struct search_job, 1);

	sj->request = *request;
	if (tn_job_start(&search_class, sj, out, err)) {
		g_free(sj);
		return -1;
	}
	return 0;
}

int tn_search_get_result(struct tn_job *job, struct tn_search_result *result)
{
	struct tn_job_progress progress;
	const struct search_job *sj;

	if (tn_job_borrow_class(job) != &search_class)
		return -1;
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE)
		return -1;
	sj = tn_job_borrow_data(job);
	*result = sj->result;
	return 0;
}
