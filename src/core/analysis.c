/* analysis.c - runs an analysis over a range: cuts it into slices at
 * state snapshots when it is long and the snapshots are complete, reads
 * each slice on a thread of its own through a state querier's replay,
 * merges the slices' accumulators in time order and makes the tables
 * (see analysis.h). */
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

const struct tn_analysis_class *const tn_analysis_classes[] = {
	&tn_analysis_cputop,
	&tn_analysis_syscallstats,
	&tn_analysis_irqstats,
	&tn_analysis_schedtop,
	NULL,
};

static const char *const names[] = {
	"cputop", "syscallstats", "irqstats", "schedtop", NULL,
};

const char *const *tn_analysis_names(void)
{
	return names;
}

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
	bool has_from, has_to;
	struct tn_position from, to;
	int64_t last_ns;		/* the range's end */
	struct tn_analysis_span span;
	struct tn_alookup *look;	/* span.look: the slice's state's */
	void *acc;
	int *stop;			/* shared: non-zero stops every slice */
	uint64_t events;		/* atomic: read so far */
	int64_t reached_ns;		/* atomic */
	bool on_job_thread;		/* may look at the job's cancel */
	struct tn_aevent_memo memo;
	int done;			/* atomic: its thread ended */
	int status;
	struct tn_error err;
};

static int hook_event(void *data, const struct tn_state *state,
		const struct tn_row *row)
{
	struct slice *s = data;
	uint64_t n;

	n = __atomic_add_fetch(&s->events, 1, __ATOMIC_RELAXED);
	if (n % TICK_EVENTS == 0) {
		__atomic_store_n(&s->reached_ns, row->pos.ns, __ATOMIC_RELAXED);
		if (s->on_job_thread) {
			tn_job_current_set_progress("analysing", -1, n);
			if (tn_job_current_is_cancelled())
				return -1;
		}
		if (__atomic_load_n(s->stop, __ATOMIC_RELAXED))
			return -1;
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

static gpointer run_slice(gpointer data)
{
	static const struct tn_state_replay_hooks hooks = {
		hook_event, hook_interval, hook_end,
	};
	struct slice *s = data;
	struct tn_state_querier *querier;
	struct tn_position to;

	s->look = tn_alookup_new();
	s->span.look = s->look;
	s->acc = s->cls->create(&s->span);
	s->status = tn_state_querier_create(s->trace, s->snapshots, &querier,
		&s->err);
	if (s->status)
		return NULL;
	/* The last slice stops after the range's last ns. */
	to = s->to;
	if (!s->has_to) {
		to.ns = s->last_ns == INT64_MAX ? INT64_MAX : s->last_ns + 1;
		to.tie = 0;
	}
	s->status = tn_state_querier_replay(querier,
		s->has_from ? &s->from : NULL, &to, &hooks, s, &s->err);
	tn_state_querier_destroy(querier);
	return NULL;
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

/* Whether the kernel state provider applies to the trace (the analyses
 * read its attributes). */
static bool has_kernel_provider(const struct tn_trace *trace)
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

/* Wait for the slices' threads, publishing their progress and passing
 * a cancel on. */
static void watch(struct slice *slices, unsigned count, GThread **threads,
		int *stop, int64_t begin_ns, int64_t end_ns)
{
	for (;;) {
		bool running = false;
		uint64_t events = 0;
		double covered = 0;

		for (unsigned i = 0; i < count; i++) {
			int64_t reached = __atomic_load_n(&slices[i].reached_ns,
				__ATOMIC_RELAXED);

			events += __atomic_load_n(&slices[i].events,
				__ATOMIC_RELAXED);
			if (reached > slices[i].span.begin_ns)
				covered += (double) (reached -
					slices[i].span.begin_ns);
			if (threads[i] && !__atomic_load_n(&slices[i].done,
					__ATOMIC_ACQUIRE))
				running = true;
		}
		if (end_ns > begin_ns)
			tn_job_current_set_progress("analysing", covered /
				(double) (end_ns - begin_ns), events);
		if (tn_job_current_is_cancelled())
			__atomic_store_n(stop, 1, __ATOMIC_RELAXED);
		if (!running)
			break;
		g_usleep(20000);
	}
	for (unsigned i = 0; i < count; i++)
		if (threads[i])
			g_thread_join(threads[i]);
}

/* A slice's thread: run_slice, then say it is done. */
static gpointer run_slice_thread(gpointer data)
{
	struct slice *s = data;

	run_slice(s);
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int tn_analysis_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots, const char *name,
		int64_t begin_ns, int64_t end_ns, unsigned threads,
		struct tn_analysis_result **out, struct tn_error *err)
{
	const struct tn_analysis_class *cls = find_class(name);
	struct tn_position starts[MAX_THREADS];
	struct slice slices[MAX_THREADS];
	GThread *workers[MAX_THREADS] = { NULL };
	struct tn_analysis_result *result;
	struct tn_analysis_span range = { begin_ns, end_ns, begin_ns, true,
		NULL };
	unsigned count;
	int stop = 0, status = 0;

	if (!cls) {
		tn_error_set(err, "no analysis called \"%s\"", name);
		return -1;
	}
	if (end_ns < begin_ns) {
		tn_error_set(err, "the range ends before it begins");
		return -1;
	}
	if (saved_result(snapshots, cls, begin_ns, end_ns, out))
		return 0;
	/* Without kernel events there is nothing to read for. */
	if (!has_kernel_provider(trace))
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
		s->stop = &stop;
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
		s->span.first = i == 0;
		s->reached_ns = s->span.begin_ns;
	}
	if (count == 1) {
		slices[0].on_job_thread = true;
		run_slice(&slices[0]);
	} else if (count > 1) {
		for (unsigned i = 0; i < count; i++) {
			workers[i] = g_thread_try_new("analysis",
				run_slice_thread, &slices[i], NULL);
			if (!workers[i])
				run_slice_thread(&slices[i]);
		}
		watch(slices, count, workers, &stop, begin_ns, end_ns);
	}
	if (count == 0) {
		slices[0].acc = cls->create(&range);
		count = 1;
	}
	for (unsigned i = 0; i < count && status == 0; i++) {
		if (slices[i].status) {
			tn_error_set(err, "%s", slices[i].err.message);
			status = -1;
		}
	}
	result = tn_analysis_result_new(cls->name, begin_ns, end_ns);
	result->slices = count;
	for (unsigned i = 0; i < count; i++) {
		result->events += slices[i].events;
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
	*out = result;
	return 0;
}

struct tn_analysis_result *tn_analysis_result_new(const char *analysis,
		int64_t begin_ns, int64_t end_ns)
{
	struct tn_analysis_result *result = g_new0(struct tn_analysis_result,
		1);

	result->analysis = analysis;
	result->begin_ns = begin_ns;
	result->end_ns = end_ns;
	result->strings = g_string_chunk_new(1024);
	return result;
}

void tn_analysis_result_destroy(struct tn_analysis_result *result)
{
	if (!result)
		return;
	for (size_t i = 0; i < result->table_count; i++)
		g_free(result->tables[i].cells);
	g_free(result->tables);
	g_free(result->owned_columns);
	g_string_chunk_free(result->strings);
	g_free(result);
}

struct tn_analysis_table *tn_analysis_result_find(
		struct tn_analysis_result *result, const char *name)
{
	for (size_t i = 0; i < result->table_count; i++)
		if (strcmp(result->tables[i].name, name) == 0)
			return &result->tables[i];
	return NULL;
}
