/* test-search.c - the whole-trace search against one sequential read:
 * from many positions, forward (from the event or after it) and
 * backward, with one worker and with several slices, with and without
 * the checkpoint index, with a filter; wrapping around, nothing found,
 * matches in the time and the delta (ties at slice boundaries), smart
 * case; a trace without packet indexes and one without packet times;
 * the search as a job: its progress and a cancel. */
#include <string.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/format.h"
#include "tracenav/index.h"
#include "tracenav/search.h"

/* Every event of the trace: its position, name and --dump line. */
struct ref {
	struct tn_position pos;
	const char *name;	/* interned */
	char *line;
};

static GArray *read_reference(const struct tn_trace *trace)
{
	GArray *refs = g_array_new(FALSE, FALSE, sizeof(struct ref));
	GString *line = g_string_new(NULL);
	struct tn_walk *walk;
	struct tn_error err;
	struct tn_row row;

	if (tn_walk_open(trace, INT64_MIN, &walk, &err))
		return refs;
	while (tn_walk_next(walk, NULL, &row, &err) == 1) {
		struct tn_format_state state;
		struct ref ref;

		tn_format_state_init(&state, true);
		state.has_last = row.has_prev;
		state.last_ns = row.prev_ns;
		g_string_truncate(line, 0);
		tn_format_event_line(line, &row.ev, &state);
		ref.pos = row.pos;
		ref.name = g_intern_string(tn_event_get_name(&row.ev));
		ref.line = g_strdup(line->str);
		g_array_append_val(refs, ref);
		tn_row_release(&row);
	}
	tn_walk_destroy(walk);
	g_string_free(line, TRUE);
	return refs;
}

static void free_reference(GArray *refs)
{
	for (guint i = 0; i < refs->len; i++)
		g_free(g_array_index(refs, struct ref, i).line);
	g_array_free(refs, TRUE);
}

/* Filters that keep the sched_switch events (a field expression). */
static struct tn_filter_set *sched_filters(void)
{
	struct tn_filter_stack *stack = tn_filter_stack_create();
	struct tn_filter_set *set;
	struct tn_error err;

	if (tn_filter_stack_push(stack, TN_FILTER_EXPR,
			"name == \"sched_switch\"", &err))
		printf("# filter: %s\n", err.message);
	set = tn_filter_stack_snapshot(stack, true);
	tn_filter_stack_destroy(stack);
	return set;
}

/* Which reference events match: the regex on the line, among those
 * that pass the filters (sched_switch only, or all). */
static bool *matches_of(GArray *refs, const struct tn_regex *re,
		struct tn_filter_set *filter)
{
	struct tn_regex_matcher *m = tn_regex_matcher_new(re);
	bool *hit = g_new0(bool, refs->len + 1);

	for (guint i = 0; i < refs->len; i++) {
		const struct ref *ref = &g_array_index(refs, struct ref, i);

		hit[i] = (!filter || strcmp(ref->name, "sched_switch") == 0) &&
			tn_regex_matches(m, ref->line);
	}
	tn_regex_matcher_free(m);
	return hit;
}

/* The answer a search should give from reference event `at`. */
static void expected(const bool *hit, int64_t n, int64_t at,
		enum tn_search_direction dir, bool inclusive, int64_t *want,
		bool *wrapped)
{
	*want = -1;
	*wrapped = false;
	if (dir == TN_SEARCH_FORWARD) {
		for (int64_t i = inclusive ? at : at + 1; i < n; i++)
			if (hit[i]) {
				*want = i;
				return;
			}
		for (int64_t i = 0; i < (inclusive ? at : at + 1) && i < n; i++)
			if (hit[i]) {
				*want = i;
				*wrapped = true;
				return;
			}
		return;
	}
	for (int64_t i = at - 1; i >= 0; i--)
		if (hit[i]) {
			*want = i;
			return;
		}
	for (int64_t i = n - 1; i >= at; i--)
		if (hit[i]) {
			*want = i;
			*wrapped = true;
			return;
		}
}

struct setup {
	const char *what;
	const struct tn_trace *trace;
	const struct tn_index *index;
	GArray *refs;
};

/* Search from reference event at, in each way, with workers threads;
 * true when every answer is the reference's. */
static bool check_from(const struct setup *setup, const struct tn_regex *re,
		struct tn_filter_set *filter, const bool *hit, int64_t at,
		unsigned workers, unsigned *most_workers)
{
	static const struct {
		enum tn_search_direction dir;
		bool inclusive;
	} ways[] = {
		{ TN_SEARCH_FORWARD, true },
		{ TN_SEARCH_FORWARD, false },
		{ TN_SEARCH_BACKWARD, false },
	};
	int64_t n = (int64_t) setup->refs->len;
	bool all = true;

	for (size_t w = 0; w < G_N_ELEMENTS(ways); w++) {
		struct tn_search_request request = {
			.trace = setup->trace,
			.regex = re,
			.filters = filter,
			.index = setup->index,
			.from = g_array_index(setup->refs, struct ref, at).pos,
			.inclusive = ways[w].inclusive,
			.direction = ways[w].dir,
			.wrap = true,
			.gmt = true,
			.workers = workers,
		};
		struct tn_search_result result;
		struct tn_error err;
		int64_t want;
		bool wrapped, ok;

		expected(hit, n, at, ways[w].dir, ways[w].inclusive, &want,
			&wrapped);
		if (tn_search_run(&request, &result, &err)) {
			printf("# %s: /%s/ from %" G_GINT64_FORMAT
				" failed: %s\n", setup->what,
				tn_regex_get_pattern(re), at, err.message);
			all = false;
			continue;
		}
		if (result.workers > *most_workers)
			*most_workers = result.workers;
		ok = want < 0 ? !result.found : result.found &&
			tn_position_compare(&result.pos, &g_array_index(
				setup->refs, struct ref, want).pos) == 0 &&
			result.wrapped == wrapped;
		if (!ok) {
			printf("# %s: /%s/ from %" G_GINT64_FORMAT " (%s%s, "
				"%u workers): want %" G_GINT64_FORMAT
				"%s, got %s %" G_GINT64_FORMAT "/%" G_GUINT64_FORMAT
				"%s\n", setup->what, tn_regex_get_pattern(re),
				at, ways[w].dir == TN_SEARCH_FORWARD ? "forward" :
				"backward", ways[w].inclusive ? ", inclusive" :
				"", workers, want, wrapped ? " (wrapped)" : "",
				result.found ? "found" : "nothing",
				result.pos.ns, result.pos.tie,
				result.wrapped ? " (wrapped)" : "");
			all = false;
		}
	}
	return all;
}

/* Every pattern from a spread of positions, one worker and four. */
static void check_patterns(const struct setup *setup,
		const char *const *patterns, size_t pattern_count,
		struct tn_filter_set *filter, int expect_slices)
{
	int64_t n = (int64_t) setup->refs->len;
	const int64_t spots[] = { 0, n / 3, n - n / 5, n - 1 };
	unsigned most_workers = 0;

	for (size_t p = 0; p < pattern_count; p++) {
		struct tn_regex *re;
		struct tn_error err;
		bool *hit, all = true;
		int64_t hits = 0;

		if (tn_regex_compile(patterns[p], &re, &err)) {
			tap_ok(false, "%s: /%s/ compiles: %s", setup->what,
				patterns[p], err.message);
			continue;
		}
		hit = matches_of(setup->refs, re, filter);
		for (int64_t i = 0; i < n; i++)
			hits += hit[i];
		for (size_t s = 0; s < G_N_ELEMENTS(spots); s++) {
			if (spots[s] < 0 || spots[s] >= n)
				continue;
			all = check_from(setup, re, filter, hit, spots[s], 1,
				&most_workers) && all;
			all = check_from(setup, re, filter, hit, spots[s], 4,
				&most_workers) && all;
		}
		tap_ok(all, "%s: /%s/%s (%" G_GINT64_FORMAT " of %"
			G_GINT64_FORMAT " lines match): every search from 4 "
			"places, 3 ways, 1 and 4 workers, finds what a "
			"sequential read finds", setup->what, patterns[p],
			filter ? " among sched_switch" : "", hits, n);
		g_free(hit);
		tn_regex_destroy(re);
	}
	if (expect_slices > 0)
		tap_ok(most_workers > 1, "%s: searches were cut into slices "
			"(%u at most)", setup->what, most_workers);
	else if (expect_slices == 0)
		tap_int_eq(most_workers, 1, "%s: one slice (it cannot be read "
			"from the middle)", setup->what);
}

/* A pattern that only the event at 90% has: its time (ties aside). */
static char *rare_pattern(GArray *refs)
{
	const struct ref *ref = &g_array_index(refs, struct ref,
		refs->len * 9 / 10);
	char *time = g_strndup(ref->line + 1, 18);
	char *pattern = g_strdup_printf("^\\[%s\\] \\(", time);

	g_free(time);
	return pattern;
}

static struct tn_index *build_index(const struct tn_trace *trace)
{
	struct tn_job *job;
	struct tn_error err;
	struct tn_index *index = NULL;

	if (tn_index_build_start(trace, 2, &job, &err))
		return NULL;
	tn_job_wait(job);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	return index;
}

/* The patterns below, all of them on the first trace, the first three
 * and the last on the others. */
static void check_trace(const char *name, const char *options,
		bool slices, bool all_patterns)
{
	char *path = gen_trace(name, options);
	struct tn_trace *trace;
	struct tn_error err;
	struct setup setup = { name, NULL, NULL, NULL };
	struct tn_index *index = NULL;
	struct tn_filter_set *filter = sched_filters();
	char *rare;
	char *with_index = g_strdup_printf("%s, indexed", name);

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "%s opens",
			name)) {
		g_free(path);
		g_free(with_index);
		return;
	}
	setup.trace = trace;
	setup.refs = read_reference(trace);
	rare = rare_pattern(setup.refs);
	{
		const char *patterns[] = {
			"sched_switch",		/* often */
			rare,			/* once, near the end */
			"\\(\\+0\\.000000000\\)",	/* ties: in the delta */
			"no such text",
			"Sched_switch",		/* upper case: no match */
			"syscall_exit_read: \\{ cpu_id = 1 \\}",
			"(?:prev_tid = 4[0-9]{4}, |ret = -11)",
		};

		check_patterns(&setup, patterns, all_patterns ?
			G_N_ELEMENTS(patterns) : 4, NULL, slices);
		check_patterns(&setup, patterns, 3, filter, -1);
		index = build_index(trace);
		setup.index = index;
		setup.what = with_index;
		if (tap_ok(setup.index != NULL, "%s: indexed", name)) {
			tn_trace_set_packet_tables(trace,
				tn_index_borrow_packet_tables(setup.index));
			/* Packet tables may make a trace without packet
			 * indexes readable from the middle. */
			check_patterns(&setup, patterns, 3, NULL,
				slices ? 1 : -1);
			tn_trace_set_packet_tables(trace, NULL);
		}
	}
	tn_filter_set_unref(filter);
	tn_index_destroy(index);
	free_reference(setup.refs);
	g_free(rare);
	g_free(with_index);
	tn_trace_destroy(trace);
	g_free(path);
}

/* ---- as a job: progress and cancel ---- */

static void check_job(void)
{
	char *path = gen_trace("job", "--events 400000 --cpus 4");
	struct tn_search_request request = { 0 };
	struct tn_job_progress progress;
	struct tn_search_result result;
	struct tn_trace *trace;
	struct tn_regex *re;
	struct tn_job *job;
	struct tn_error err;
	bool saw_activity = false;

	if (!tap_ok(tn_trace_open(path, &trace, &err) == 0, "job trace opens")) {
		g_free(path);
		return;
	}
	tn_regex_compile("never matches", &re, &err);
	request.trace = trace;
	request.regex = re;
	request.from.ns = INT64_MIN;
	request.inclusive = true;
	request.wrap = true;
	request.workers = 2;
	tap_ok(tn_search_start(&request, &job, &err) == 0, "a search job "
		"starts");
	for (int i = 0; i < 5000 && !saw_activity; i++) {
		tn_job_get_progress(job, &progress);
		saw_activity = progress.items > 0 &&
			strcmp(progress.activity, "searching") == 0;
		if (progress.state != TN_JOB_RUNNING)
			break;
		g_usleep(1000);
	}
	tap_ok(saw_activity, "while it runs, its progress says \"searching\" "
		"and counts events (%" G_GUINT64_FORMAT ")", progress.items);
	tn_job_cancel(job);
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	tap_int_eq(progress.state, TN_JOB_CANCELLED, "a cancel stops it");
	tap_ok(tn_search_get_result(job, &result) == -1, "a cancelled search "
		"has no result");
	tn_job_destroy(job);

	/* To its end: not found, after the whole trace. */
	tn_regex_destroy(re);
	tn_regex_compile("irq_handler_exit: .*irq = 25, ret = 1", &re, &err);
	request.regex = re;
	request.direction = TN_SEARCH_BACKWARD;
	tn_search_start(&request, &job, &err);
	tn_job_wait(job);
	tap_ok(tn_search_get_result(job, &result) == 0 && result.found &&
		result.wrapped, "a backward search from the start wraps to "
		"the last match");
	tn_job_destroy(job);
	tn_regex_destroy(re);
	tn_trace_destroy(trace);
	g_free(path);
}

int main(void)
{
	check_trace("sliced", "--events 20000 --cpus 4 --packet-size 4096 "
		"--ties 5", true, true);
	check_trace("hosts", "--events 10000 --cpus 2 --traces 2 "
		"--packet-size 4096", true, false);
	check_trace("no-index", "--events 8000 --cpus 3 --no-index", false,
		false);
	check_trace("no-times", "--events 8000 --cpus 3 --no-packet-times",
		false, false);
	check_job();
	gen_cleanup();
	return tap_done();
}
