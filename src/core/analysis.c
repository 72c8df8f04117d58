/* analysis.c - runs an analysis over a range: cuts it into slices at
 * state snapshots when it is long and the snapshots are complete, reads
 * each slice on a thread of its own through a state querier's replay,
 * merges the slices' accumulators in time order and makes the tables
 * (see analysis.h).
 *
 * A single slice is read on the calling thread (a job's: it publishes
 * its progress there).  Several are a fan-out (job.h): each on a helper
 * thread that adopts the caller's job, while the calling thread
 * publishes their progress from their atomics; their accumulators are
 * read after tn_fanout_join().
 */
#include <stdatomic.h>
#include <string.h>

#include "src/core/analysis-private.h"
#include "tracenav/job.h"
#include "tracenav/state-provider.h"

#define MAX_THREADS 8
/* Slices only for ranges of at least this many snapshots per thread:
 * each slice costs a seek and a restore. */
#define SNAPSHOTS_PER_SLICE 4
/* How often a slice publishes how far it got and looks for a stop. */
#define TICK_EVENTS 4096
/* How often the calling thread publishes the slices' progress. */
#define WATCH_MS 20

const struct tn_analysis_class *const tn_analysis_classes[] = {
	&tn_analysis_cputop,
	&tn_analysis_syscallstats,
	&tn_analysis_irqstats,
	&tn_analysis_schedtop,
	NULL,
};

static const struct tn_analysis_class *find_class(const char *name)
{
	for (size_t i = 0; tn_analysis_classes[i]; i++)
		if (strcmp(tn_analysis_classes[i]->name, name) == 0)
			return tn_analysis_classes[i];
	return NULL;
}

bool tn_analysis_exists(const char *name)
{
	return find_class(name) != NULL;
}

const char *tn_analysis_describe(const char *name)
{
	const struct tn_analysis_class *cls = find_class(name);

	return cls ? cls->description : NULL;
}

/* One slice: [from, to) in positions, and what its thread found. */
struct slice {
	const struct tn_analysis_class *cls;
	const struct tn_trace *trace;
	const struct tn_state_snapshots *snapshots;
	bool unknown_before;		/* from an empty state at from */
	bool has_from, has_to;
	struct tn_position from, to;
	int64_t last_ns;		/* the range's end */
	struct tn_analysis_span span;
	struct tn_alookup *look;	/* span.look: the slice's state's */
	void *acc;
	/* The fan-out whose helper reads it; NULL: it is read on the
	 * calling thread, which publishes its progress. */
	struct tn_fanout *fanout;
	_Atomic uint64_t events;	/* read so far */
	_Atomic int64_t reached_ns;
	struct tn_aevent_memo memo;
};

static int hook_event(void *data, const struct tn_state *state,
		const struct tn_row *row)
{
	struct slice *s = data;
	uint64_t n;

	n = atomic_fetch_add_explicit(&s->events, 1,
		memory_order_relaxed) + 1;
	if (n % TICK_EVENTS == 0) {
		atomic_store_explicit(&s->reached_ns, row->pos.ns,
			memory_order_relaxed);
		if (!s->fanout) {
			tn_job_current_set_progress("analysing", -1, n);
			if (tn_job_current_is_cancelled())
				return -1;
		} else if (tn_fanout_should_stop(s->fanout)) {
			/* Another slice failed, or a cancel. */
			return -1;
		}
	}
	if (s->cls->event)
		s->cls->event(s->acc, state, row, tn_aevent_memo_of(&s->memo,
			tn_event_get_name(&row->ev)));
	return 0;
}

static void hook_interval(void *data, const struct tn_state *state,
		int quark, const struct tn_state_value *value,
		const struct tn_state_stamp *start,
		const struct tn_state_stamp *end)
{
	struct slice *s = data;

	s->cls->interval(s->acc, state, quark, value, start, end);
}

static void hook_end(void *data, const struct tn_state *state)
{
	struct slice *s = data;

	if (s->cls->end)
		s->cls->end(s->acc, state, s->span.end_ns);
}

/* Read the slice into its accumulator; returns 0 or -1 with err. */
static int run_slice(struct slice *s, struct tn_error *err)
{
	static const struct tn_state_replay_hooks hooks = {
		hook_event, hook_interval, hook_end,
	};
	struct tn_state_querier *querier;
	struct tn_position to;
	int status;

	s->look = tn_alookup_new();
	s->span.look = s->look;
	s->acc = s->cls->create(&s->span);
	if (tn_state_querier_create(s->trace, s->snapshots, &querier, err))
		return -1;
	/* The snapshots live as long as the run: restore in place. */
	tn_state_querier_keep_states(querier);
	/* The last slice stops after the range's last ns. */
	to = s->to;
	if (!s->has_to) {
		to.ns = s->last_ns == INT64_MAX ? INT64_MAX : s->last_ns + 1;
		to.tie = 0;
	}
	if (s->unknown_before)
		status = tn_state_querier_replay_unknown(querier, s->from.ns,
			&to, &hooks, s, err);
	else
		status = tn_state_querier_replay(querier,
			s->has_from ? &s->from : NULL, &to, &hooks, s, err);
	tn_state_querier_destroy(querier);
	return status;
}

/* Where the slices start: positions of complete snapshots inside the
 * range, evenly spread; returns how many slices (1 when the range is
 * short or the snapshots are not complete). */
static unsigned plan_slices(const struct tn_state_snapshots *snapshots,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		struct tn_position *starts)
{
	size_t count, first = 0, last = 0, inside;
	struct tn_state_snapshot_info info;
	unsigned slices;

	if (threads < 2 || !snapshots ||
	    !tn_state_snapshots_is_complete(snapshots))
		return 1;
	count = tn_state_snapshots_get_count(snapshots);
	/* The snapshots strictly inside the range: [first, last). */
	while (first < count) {
		tn_state_snapshots_get(snapshots, first, &info, NULL);
		if (info.pos.ns > begin_ns)
			break;
		first++;
	}
	last = first;
	while (last < count) {
		tn_state_snapshots_get(snapshots, last, &info, NULL);
		if (info.pos.ns > end_ns)
			break;
		last++;
	}
	inside = last - first;
	slices = threads;
	while (slices > 1 && inside < (size_t) slices * SNAPSHOTS_PER_SLICE)
		slices--;
	for (unsigned i = 1; i < slices; i++) {
		tn_state_snapshots_get(snapshots, first + inside * i / slices,
			&info, NULL);
		starts[i] = info.pos;
	}
	return slices;
}

bool tn_analysis_applies(const struct tn_trace *trace)
{
	struct tn_state_providers *providers = tn_state_providers_create(trace);
	bool kernel = strstr(tn_state_providers_get_names(providers),
		"kernel") != NULL;

	tn_state_providers_destroy(providers);
	return kernel;
}

/* The result the state pass kept for the whole trace, when the range is
 * the whole trace. */
static bool saved_result(const struct tn_state_snapshots *snapshots,
		const struct tn_analysis_class *cls, int64_t begin_ns,
		int64_t end_ns, struct tn_analysis_result **out)
{
	struct tn_analysis_result *result;
	struct tn_error err;
	char name[64];
	GBytes *blob;
	gsize size;
	const void *data;
	int status;

	if (!snapshots)
		return false;
	g_snprintf(name, sizeof(name), "analysis/%s", cls->name);
	if (!(blob = tn_state_snapshots_get_extra(snapshots, name)))
		return false;
	data = g_bytes_get_data(blob, &size);
	status = tn_analysis_result_load(data, size, &result, &err);
	g_bytes_unref(blob);
	if (status)
		return false;	/* damaged: computed again */
	if (strcmp(result->analysis, cls->name) || result->begin_ns !=
	    begin_ns || result->end_ns != end_ns) {
		tn_analysis_result_destroy(result);
		return false;
	}
	result->analysis = cls->name;
	*out = result;
	return true;
}

/* Slice i, on a helper thread of the fan-out. */
static int run_slice_helper(struct tn_fanout *fanout, void *data,
		unsigned i, struct tn_error *err)
{
	struct slice *s = &((struct slice *) data)[i];

	s->fanout = fanout;
	return run_slice(s, err);
}

/* Wait for the slices' helpers, publishing their progress (they see
 * the job's cancel themselves: they adopted it). */
static void watch(struct tn_fanout *fanout, const struct slice *slices,
		unsigned count, int64_t begin_ns, int64_t end_ns)
{
	bool ended;

	do {
		uint64_t events = 0;
		double covered = 0;

		ended = tn_fanout_wait_for(fanout, WATCH_MS);
		for (unsigned i = 0; i < count; i++) {
			int64_t reached = atomic_load_explicit(
				&slices[i].reached_ns, memory_order_relaxed);

			events += atomic_load_explicit(&slices[i].events,
				memory_order_relaxed);
			if (reached > slices[i].span.begin_ns)
				covered += (double) (reached -
					slices[i].span.begin_ns);
		}
		if (end_ns > begin_ns)
			tn_job_current_set_progress("analysing", covered /
				(double) (end_ns - begin_ns), events);
	} while (!ended);
}

/* Read the slices on helper threads, the calling thread publishing
 * their progress; returns 0, or -1 with the first failure in err. */
static int run_slices(struct slice *slices, unsigned count,
		int64_t begin_ns, int64_t end_ns, struct tn_error *err)
{
	struct tn_fanout *fanout;

	if (tn_fanout_start(count, run_slice_helper, slices, &fanout, err))
		return -1;
	watch(fanout, slices, count, begin_ns, end_ns);
	return tn_fanout_join(fanout, err);
}

int tn_analysis_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots, const char *name,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err)
{
	const struct tn_analysis_class *cls = find_class(name);

	if (!cls) {
		tn_error_set(err, "no analysis called \"%s\"", name);
		return -1;
	}
	return tn_analysis_run_class(trace, snapshots, cls, 0, begin_ns,
		end_ns, threads, out, err);
}

/* tn_analysis_run_class(), or with unknown_before its partial form. */
static int run_class(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		const struct tn_analysis_class *cls, unsigned buckets,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		bool unknown_before, struct tn_analysis_result **out,
		struct tn_error *err)
{
	struct tn_position starts[MAX_THREADS];
	struct slice slices[MAX_THREADS];
	struct tn_analysis_result *result;
	struct tn_analysis_span range = { begin_ns, end_ns, begin_ns, true,
		NULL, end_ns, buckets, 0 };
	unsigned count;
	int status = 0;

	if (end_ns < begin_ns) {
		tn_error_set(err, "the range ends before it begins");
		return -1;
	}
	if (!unknown_before && saved_result(snapshots, cls, begin_ns, end_ns,
			out))
		return 0;
	/* Without kernel events there is nothing to read for. */
	if (!tn_analysis_applies(trace))
		threads = 0;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	count = threads ? plan_slices(snapshots, begin_ns, end_ns, threads,
		starts) : 0;
	memset(slices, 0, sizeof(slices));
	for (unsigned i = 0; i < count; i++) {
		struct slice *s = &slices[i];

		s->cls = cls;
		s->trace = trace;
		s->snapshots = snapshots;
		s->unknown_before = unknown_before;
		s->last_ns = end_ns;
		s->has_from = true;
		if (i == 0) {
			s->from.ns = begin_ns;
			s->from.tie = 0;
		} else {
			s->from = starts[i];
		}
		s->has_to = i + 1 < count;
		if (s->has_to)
			s->to = starts[i + 1];
		s->span.begin_ns = s->from.ns;
		s->span.end_ns = s->has_to ? s->to.ns : end_ns;
		s->span.range_begin_ns = begin_ns;
		s->span.range_end_ns = end_ns;
		s->span.buckets = buckets;
		s->span.first = i == 0;
		atomic_init(&s->events, 0);
		atomic_init(&s->reached_ns, s->span.begin_ns);
	}
	if (count == 1)
		status = run_slice(&slices[0], err);
	else if (count > 1)
		status = run_slices(slices, count, begin_ns, end_ns, err);
	if (count == 0) {
		slices[0].acc = cls->create(&range);
		count = 1;
	}
	result = tn_analysis_result_new(cls->name, begin_ns, end_ns);
	result->slices = count;
	for (unsigned i = 0; i < count; i++) {
		result->events += atomic_load(&slices[i].events);
		if (i > 0 && slices[0].acc && slices[i].acc)
			cls->merge(slices[0].acc, slices[i].acc);
	}
	if (status == 0)
		cls->report(slices[0].acc, &range, result);
	for (unsigned i = 0; i < count; i++) {
		if (slices[i].acc)
			cls->destroy(slices[i].acc);
		tn_alookup_free(slices[i].look);
	}
	if (status) {
		tn_analysis_result_destroy(result);
		return -1;
	}
	result->partial = unknown_before;
	*out = result;
	return 0;
}

int tn_analysis_run_class(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		const struct tn_analysis_class *cls, unsigned buckets,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err)
{
	return run_class(trace, snapshots, cls, buckets, begin_ns, end_ns,
		threads, false, out, err);
}

int tn_analysis_run_class_partial(const struct tn_trace *trace,
		const struct tn_analysis_class *cls, unsigned buckets,
		int64_t begin_ns, int64_t end_ns, struct tn_analysis_result **out,
		struct tn_error *err)
{
	return run_class(trace, NULL, cls, buckets, begin_ns, end_ns, 1,
		true, out, err);
}
