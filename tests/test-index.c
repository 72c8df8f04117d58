/* test-index.c - the checkpoint index against a full read: counts per
 * event name, discarded events and time bins against the generator's
 * plan, and every checkpoint against the position of the event at its
 * rank, with 1, 2 and 4 workers; the build as a job: progress,
 * cancelling, failing traces. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/index.h"
#include "tracenav/job.h"
#include "tracenav/seek.h"
#include "src/core/index-sources.h"
#include "src/core/index-stitch.h"

/* What a plain read says of each event besides its position. */
struct event_source {
	struct tn_index_source source;	/* trace owned */
	uint64_t lost_before;
};

/* The position of every event of the trace, from one plain read, and
 * (when sources is not NULL) its source and lost_before. */
static GArray *read_positions(const struct tn_trace *trace, GArray **sources)
{
	GArray *positions = g_array_new(FALSE, FALSE,
		sizeof(struct tn_position));
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (sources)
		*sources = g_array_new(FALSE, FALSE,
			sizeof(struct event_source));
	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return positions;
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		g_array_append_val(positions, row.pos);
		if (sources) {
			struct event_source e = { .lost_before =
				row.lost_before };

			tn_index_source_of_event(&row.ev, &e.source);
			e.source.trace = g_strdup(e.source.trace);
			g_array_append_val(*sources, e);
		}
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	return positions;
}

static void free_sources(GArray *sources)
{
	for (guint i = 0; i < sources->len; i++)
		g_free(g_array_index(sources, struct event_source, i)
			.source.trace);
	g_array_free(sources, TRUE);
}

/* The index's sources, the sources of each interval with their counts
 * and the lost events of each interval are what a full read gives
 * (events: struct event_source, in rank order). */
static bool sources_right(const struct tn_index *index, GArray *events)
{
	uint64_t *totals = g_new0(uint64_t, index->source_count + 1);
	uint64_t *in_interval = g_new0(uint64_t, index->source_count + 1);
	bool ok = index->checkpoint_count == 0 ||
		(index->interval_source_start && index->interval_lost);

	for (size_t i = 0; ok && i < index->checkpoint_count; i++) {
		uint64_t from = index->checkpoints[i].rank;
		uint64_t to = i + 1 < index->checkpoint_count ?
			index->checkpoints[i + 1].rank : events->len;
		uint64_t lost = 0;
		size_t present = 0;

		memset(in_interval, 0, index->source_count * sizeof(uint64_t));
		for (uint64_t r = from; ok && r < to; r++) {
			const struct event_source *e = &g_array_index(events,
				struct event_source, r);
			long k = tn_index_find_source(index, &e->source);

			ok = k >= 0;
			if (ok && in_interval[k]++ == 0)
				present++;
			if (ok)
				totals[k]++;
			lost += e->lost_before;
		}
		ok = ok && lost == index->interval_lost[i] &&
			present == index->interval_source_start[i + 1] -
				index->interval_source_start[i];
		for (size_t e = index->interval_source_start[i]; ok &&
		     e < index->interval_source_start[i + 1]; e++)
			ok = in_interval[index->interval_sources[e].key] ==
				index->interval_sources[e].count;
		if (!ok)
			printf("# interval %zu: sources or lost events "
				"differ\n", i);
	}
	for (size_t k = 0; ok && k < index->source_count; k++)
		ok = totals[k] == index->sources[k].count;
	g_free(totals);
	g_free(in_interval);
	return ok;
}

/* Build the index of trace with `workers` threads; NULL if it fails. */
static struct tn_index *build_index(const struct tn_trace *trace,
		unsigned workers, unsigned *used)
{
	struct tn_job_progress progress;
	struct tn_index *index;
	struct tn_error err;
	struct tn_job *job;

	if (tn_index_build_start(trace, workers, &job, &err)) {
		printf("# start: %s\n", err.message);
		return NULL;
	}
	*used = tn_index_build_get_worker_count(job);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	if (progress.state != TN_JOB_DONE)
		printf("# not done: %s\n", progress.message);
	index = tn_index_build_take(job);
	if (index && tn_index_build_take(job))
		printf("# the index was taken twice\n");
	tn_job_destroy(job);
	return index;
}

/* Ranks start at 0 and grow by 1..TN_INDEX_INTERVAL, and each checkpoint
 * is where the full read has the event of that rank. */
static bool checkpoints_match(const struct tn_index *index, GArray *positions)
{
	if (index->checkpoint_count == 0)
		return positions->len == 0;
	if (index->checkpoints[0].rank != 0)
		return false;
	for (size_t i = 0; i < index->checkpoint_count; i++) {
		const struct tn_checkpoint *cp = &index->checkpoints[i];

		if (cp->rank >= positions->len ||
		    tn_position_compare(&cp->pos, &g_array_index(positions,
				struct tn_position, cp->rank)) != 0)
			return false;
		if (i > 0 && (cp->rank <= cp[-1].rank ||
			      cp->rank - cp[-1].rank > TN_INDEX_INTERVAL))
			return false;
	}
	return true;
}

static uint64_t sum_of(const uint64_t *bins, size_t count)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < count; i++)
		sum += bins[i];
	return sum;
}

/* The classes equal the plan's "event_count NAME N" lines (both sorted
 * by name). */
static bool classes_match_plan(const struct tn_index *index, const char *path)
{
	char *plan_path = g_strdup_printf("%s.plan", path), *text = NULL;
	gchar **lines;
	size_t at = 0;
	bool same = true;

	if (!g_file_get_contents(plan_path, &text, NULL, NULL)) {
		g_free(plan_path);
		return false;
	}
	lines = g_strsplit(text, "\n", -1);
	for (gchar **line = lines; *line && same; line++) {
		char name[256];
		unsigned long long count;

		if (sscanf(*line, "event_count %255s %llu", name, &count) != 2)
			continue;
		same = at < index->class_count &&
			strcmp(index->classes[at].name, name) == 0 &&
			index->classes[at].count == count;
		at++;
	}
	g_strfreev(lines);
	g_free(text);
	g_free(plan_path);
	return same && at == index->class_count;
}

static bool same_classes(const struct tn_index *a, const struct tn_index *b)
{
	if (a->class_count != b->class_count)
		return false;
	for (size_t i = 0; i < a->class_count; i++)
		if (strcmp(a->classes[i].name, b->classes[i].name) != 0 ||
		    a->classes[i].count != b->classes[i].count)
			return false;
	return true;
}

/* The lookups agree with a linear scan, at and around checkpoints. */
static bool lookups_work(const struct tn_index *index, GArray *positions)
{
	for (size_t i = 0; i < index->checkpoint_count; i++) {
		const struct tn_checkpoint *cp = &index->checkpoints[i];
		uint64_t last = i + 1 < index->checkpoint_count ?
			cp[1].rank - 1 : positions->len - 1;
		struct tn_position *last_pos = &g_array_index(positions,
			struct tn_position, last);

		if (tn_index_checkpoint_for_rank(index, cp->rank) != cp ||
		    tn_index_checkpoint_for_rank(index, last) != cp ||
		    tn_index_checkpoint_for_position(index, &cp->pos) != cp ||
		    tn_index_checkpoint_for_position(index, last_pos) != cp)
			return false;
	}
	if (index->checkpoint_count) {
		struct tn_position before = index->checkpoints[0].pos;

		before.ns--;
		if (tn_index_checkpoint_for_position(index, &before))
			return false;
	}
	return true;
}

/* Index trace (generated with a plan) with 1, 2 and 4 workers. */
static void check_generated(const char *what, const char *options,
		bool expect_parallel)
{
	char *path = gen_trace(what, options);
	struct tn_index *single = NULL;
	struct tn_trace *trace;
	struct tn_error err;
	GArray *positions, *sources;
	/* 0: one per core. */
	static const unsigned worker_counts[] = { 1, 2, 4, 0 };

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "%s: opens", what)) {
		g_free(path);
		return;
	}
	positions = read_positions(trace, &sources);
	tap_int_eq(positions->len, gen_plan_value(path, "events"),
		"%s: the full read has every event", what);
	for (size_t k = 0; k < G_N_ELEMENTS(worker_counts); k++) {
		unsigned workers = worker_counts[k], used = 0;
		unsigned want = !expect_parallel ? 1 : workers ? workers :
			MIN(g_get_num_processors(), 8);
		struct tn_index *index = build_index(trace, workers, &used);

		if (!tap_ok(index != NULL, "%s, %u workers: built", what,
				workers))
			continue;
		tap_int_eq(used, want,
			"%s, %u workers: threads used", what, workers);
		tap_int_eq(index->event_count, gen_plan_value(path, "events"),
			"%s, %u workers: event count", what, workers);
		tap_int_eq(index->discarded_events,
			gen_plan_value(path, "discarded_events"),
			"%s, %u workers: discarded events", what, workers);
		tap_ok(classes_match_plan(index, path),
			"%s, %u workers: counts per event name", what, workers);
		tap_int_eq(sum_of(index->bins, index->bin_count),
			index->event_count, "%s, %u workers: bins add up", what,
			workers);
		/* gen-trace's notices all have times. */
		tap_int_eq(sum_of(index->lost_bins, index->bin_count),
			index->discarded_events, "%s, %u workers: discarded "
			"events per bin add up", what, workers);
		tap_ok(checkpoints_match(index, positions),
			"%s, %u workers: %zu checkpoints at their ranks", what,
			workers, index->checkpoint_count);
		tap_ok(lookups_work(index, positions),
			"%s, %u workers: lookups by rank and position", what,
			workers);
		tap_ok(sources_right(index, sources),
			"%s, %u workers: %zu sources, those of each interval "
			"and its lost events", what, workers,
			index->source_count);
		if (!single) {
			single = index;
			continue;
		}
		tap_ok(index->event_count == single->event_count &&
		       index->discarded_events == single->discarded_events &&
		       same_classes(index, single) &&
		       memcmp(index->bins, single->bins, index->bin_count *
			       sizeof(*index->bins)) == 0 &&
		       memcmp(index->lost_bins, single->lost_bins,
			       index->bin_count * sizeof(*index->lost_bins)) == 0,
			"%s, %u workers: same counts as 1 worker", what,
			workers);
		tn_index_destroy(index);
	}
	tn_index_destroy(single);
	g_array_free(positions, TRUE);
	free_sources(sources);
	tn_trace_destroy(trace);
	g_free(path);
}

/* A trace of the shared corpus: the index counts what a walk reads. */
static void check_shared(const char *relative)
{
	char *path = g_strdup_printf("%s/../shared/traces/%s",
		getenv("top_srcdir") ? getenv("top_srcdir") : "..", relative);
	struct tn_trace *trace;
	struct tn_index *index;
	struct tn_error err;
	GArray *positions;
	unsigned used;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR) ||
	    tn_trace_open(path, &trace, &err)) {
		tap_ok(true, "# SKIP %s: not available", relative);
		g_free(path);
		return;
	}
	positions = read_positions(trace, NULL);
	index = build_index(trace, 2, &used);
	if (tap_ok(index != NULL, "%s: built", relative)) {
		tap_int_eq(index->event_count, positions->len,
			"%s: counts the %u events of a full read", relative,
			positions->len);
		tap_ok(checkpoints_match(index, positions),
			"%s: checkpoints at their ranks", relative);
		tn_index_destroy(index);
	}
	g_array_free(positions, TRUE);
	tn_trace_destroy(trace);
	g_free(path);
}

static void check_cancel(void)
{
	char *path = gen_trace("cancel", "--events 300000 --cpus 4");
	struct tn_job_progress progress;
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_job *job;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "cancel: opens") ||
	    !tap_ok(tn_index_build_start(trace, 2, &job, &err) == 0,
		    "cancel: starts")) {
		g_free(path);
		return;
	}
	tap_str_eq(tn_job_borrow_class(job)->name, "indexing",
		"cancel: the job's class is \"indexing\"");
	do {
		g_usleep(1000);
		tn_job_get_progress(job, &progress);
	} while (progress.items < 10000 && progress.state == TN_JOB_RUNNING);
	if (progress.state == TN_JOB_DONE) {
		/* A busy machine let the build end before the cancel. */
		tap_ok(true, "# SKIP cancel: the build ended first");
		tn_job_destroy(job);
		tn_trace_destroy(trace);
		g_free(path);
		return;
	}
	tap_ok(progress.state == TN_JOB_RUNNING && progress.fraction > 0 &&
	       progress.fraction < 1 && progress.items_per_second > 0 &&
	       progress.eta_seconds > 0,
		"cancel: progress while running (%.2f, %.0f events/s, "
		"eta %.2f s)", progress.fraction, progress.items_per_second,
		progress.eta_seconds);
	tap_ok(tn_index_build_take(job) == NULL, "cancel: no index while "
		"running");
	tn_job_cancel(job);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tap_ok(progress.state == TN_JOB_CANCELLED && progress.items > 0,
		"cancel: ends as cancelled after %" G_GUINT64_FORMAT
		" of 300000 events", progress.items);
	tap_ok(tn_index_build_take(job) == NULL, "cancel: no index");
	tn_job_destroy(job);
	tn_trace_destroy(trace);
	g_free(path);
}

/* The build of the trace at path fails, with a message naming it. */
static void check_fails(const char *what, const char *path, unsigned workers)
{
	struct tn_job_progress progress;
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_job *job;

	if (tn_trace_open(path, &trace, &err)) {
		tap_ok(true, "# SKIP %s: does not open (%s)", what,
			err.message);
		return;
	}
	if (!tap_ok(tn_index_build_start(trace, workers, &job, &err) == 0,
			"%s: starts", what)) {
		tn_trace_destroy(trace);
		return;
	}
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	printf("# %s\n", progress.message);
	tap_ok(progress.state == TN_JOB_FAILED &&
	       g_str_has_prefix(progress.message, "cannot index ") &&
	       strstr(progress.message, path),
		"%s, %u workers: fails with a message naming the trace", what,
		workers);
	tap_ok(tn_index_build_take(job) == NULL, "%s: no index", what);
	tn_job_destroy(job);
	tn_trace_destroy(trace);
}

/* Overwrite the magic of the packet at offset in a stream file. */
static bool scribble(const char *file, off_t offset)
{
	static const char junk[8] = "garbage!";
	int fd = open(file, O_WRONLY);
	bool done = fd >= 0 && pwrite(fd, junk, sizeof(junk), offset) ==
		(ssize_t) sizeof(junk);

	if (fd >= 0)
		close(fd);
	return done;
}

static void check_failures(void)
{
	char *path = gen_trace("broken", "--events 100000 --cpus 2 "
		"--packet-size 4096");
	char *stream = g_strdup_printf("%s/channel0_1", path);
	char *corrupted = g_strdup_printf("%s/../shared/traces/babeltrace2/"
		"deterministic-ordering/a-corrupted",
		getenv("top_srcdir") ? getenv("top_srcdir") : "..");

	/* The second packet of a stream of the first half: the trace opens
	 * (its first packets decode) and fails while read. */
	tap_ok(scribble(stream, 4096), "broken: packet header scribbled");
	check_fails("broken", path, 1);
	check_fails("broken", path, 2);
	if (g_file_test(corrupted, G_FILE_TEST_IS_DIR))
		check_fails("a-corrupted", corrupted, 1);
	else
		tap_ok(true, "# SKIP a-corrupted: not available");
	g_free(corrupted);
	g_free(stream);
	g_free(path);
}

/* A worker that counted `events` events of one name and one source in
 * intervals of TN_INDEX_INTERVAL events (the last one shorter), with
 * lost[k] lost before the events of interval k and pending after the
 * last one. */
static void fake_worker(struct tn_index_worker *w,
		const struct tn_index_plan *plan, unsigned i, unsigned count,
		uint64_t events, const uint64_t *lost, uint64_t pending)
{
	struct tn_index_source *source = g_new0(struct tn_index_source, 1);
	struct tn_index_tally *name_tally, *source_tally;

	tn_index_worker_init(w, plan, i, count);
	source->trace = g_strdup("host");
	name_tally = tn_index_tallies_add(&w->names, g_strdup("ev"));
	source_tally = tn_index_tallies_add(&w->sources, source);
	for (uint64_t e = 0; e < events; e++) {
		if (e % TN_INDEX_INTERVAL == 0) {
			struct tn_checkpoint cp = { e, { (int64_t) e, 0 } };
			uint64_t before = lost[e / TN_INDEX_INTERVAL];

			g_array_append_val(w->checkpoints, cp);
			tn_index_tallies_next_interval(&w->names);
			tn_index_tallies_next_interval(&w->sources);
			g_array_append_val(w->interval_lost, before);
		}
		tn_index_tallies_count(&w->names, name_tally);
		tn_index_tallies_count(&w->sources, source_tally);
	}
	tn_index_tallies_close(&w->names);
	tn_index_tallies_close(&w->sources);
	w->count = events;
	w->lost_pending = pending;
}

/* What a slice lost after its last event goes to the first interval of
 * the next slice with events; what the last one lost after the trace's
 * last event, nowhere. */
static void check_stitched_lost(void)
{
	static const uint64_t lost0[] = { 1, 2 }, lost2[] = { 3, 4 };
	struct tn_index_plan plan = { 0 };
	struct tn_index_worker workers[3];
	struct tn_index *index;

	fake_worker(&workers[0], &plan, 0, 3, TN_INDEX_INTERVAL + 10, lost0,
		7);
	fake_worker(&workers[1], &plan, 1, 3, 0, NULL, 2);
	fake_worker(&workers[2], &plan, 2, 3, TN_INDEX_INTERVAL + 20, lost2,
		5);
	index = tn_index_stitch(&plan, workers, 3);
	tap_ok(index->checkpoint_count == 4 && index->interval_lost &&
	       index->interval_lost[0] == 1 && index->interval_lost[1] == 2 &&
	       index->interval_lost[2] == 3 + 7 + 2 &&
	       index->interval_lost[3] == 4,
		"stitching: the events lost after a slice's last event go to "
		"the next slice's first interval, those after the trace's last "
		"event to none");
	tap_ok(index->source_count == 1 &&
	       index->sources[0].count == 2 * TN_INDEX_INTERVAL + 30 &&
	       index->interval_source_start[4] == 4 &&
	       index->interval_sources[2].count == TN_INDEX_INTERVAL,
		"stitching: one source, counted in each interval");
	tn_index_destroy(index);
	for (unsigned i = 0; i < 3; i++)
		tn_index_worker_fini(&workers[i]);
}

int main(void)
{
	check_stitched_lost();
	/* Several streams and hosts, kernel and UST, ~100 events per
	 * packet, lost events, equal timestamps across streams. */
	check_generated("hosts", "--events 60000 --cpus 4 --packet-size 4096 "
		"--lost-every 3 --traces 3 --domain both --seed 7", true);
	check_generated("lost", "--events 40000 --cpus 3 --packet-size 4096 "
		"--lost-every 1 --seed 11", true);
	/* Too small to be worth threads. */
	check_generated("tiny", "--events 300 --cpus 2 --lost-every 1", false);
	/* No packet index: the slices could not start in the middle. */
	check_generated("no-index", "--events 30000 --cpus 2 "
		"--packet-size 4096 --no-index", false);
	check_shared("babeltrace2/succeed/multi-domains");
	check_shared("tracecompass/bug446190");
	check_cancel();
	check_failures();
	gen_cleanup();
	return tap_done();
}
