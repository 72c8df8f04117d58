/* test-preparse.c - the one read of the preparse (preparse.h) gives each
 * consumer what it gives alone, on generated traces (kernel, with lost
 * events and packets, several hosts of kernel and userspace traces,
 * userspace messages, one stream) and on the shared ones:
 *   - the checkpoint index equals the index build's (of one worker:
 *     several place their checkpoints at their slices' starts), byte
 *     for byte as the cache writes it;
 *   - the state at random events, from its snapshots, equals a replay
 *     from the trace's start;
 *   - the analyses of the whole trace, kept with the snapshots, equal
 *     each analysis run alone from the trace's start;
 *   - the diagram's pages equal those of a preparse that makes them
 *     alone (with the state of its own when its loaders need one);
 *   - no consumer reads a field it did not say it wants;
 * and a cancelled preparse ends as cancelled, a new one then giving the
 * same. */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "tap.h"
#include "src/core/cache-private.h"
#include "src/core/event-record.h"
#include "tracenav/analysis.h"
#include "tracenav/core.h"
#include "tracenav/index.h"
#include "tracenav/preparse.h"
#include "tracenav/seq-pages.h"
#include "tracenav/state-history.h"

/* What one preparse made. */
struct made {
	struct tn_index *index;
	struct tn_state_snapshots *snapshots;
	struct tn_seq_pages *pages;
	enum tn_job_state state;
};

static void made_fini(struct made *m)
{
	tn_index_destroy(m->index);
	tn_state_snapshots_destroy(m->snapshots);
	tn_seq_pages_destroy(m->pages);
	memset(m, 0, sizeof(*m));
}

/* Run a preparse of trace making what the flags say ('i' index, 's'
 * state, 'a' analyses, 'p' pages), to its end. */
static struct made preparse(const struct tn_trace *trace, const char *what,
		unsigned parts)
{
	struct tn_preparse_request request = { .parts = parts };
	struct tn_state_pass_observer observer;
	struct tn_job_progress progress;
	struct made m = { NULL, NULL, NULL, TN_JOB_FAILED };
	struct tn_error err;
	struct tn_job *job;

	request.index = strchr(what, 'i') != NULL;
	if (strchr(what, 's'))
		request.snapshots = m.snapshots = tn_state_snapshots_create();
	if (strchr(what, 'a')) {
		tn_analysis_observe(&observer,
			tn_trace_get_stream_bytes(trace));
		request.observer = &observer;
	}
	if (strchr(what, 'p'))
		request.pages = m.pages = tn_seq_pages_create();
	if (tn_preparse_start(trace, &request, &job, &err)) {
		printf("# %s\n", err.message);
		return m;
	}
	tn_job_wait(job);
	tn_job_get_progress(job, &progress);
	m.state = progress.state;
	if (progress.state == TN_JOB_FAILED)
		printf("# %s\n", progress.message);
	m.index = tn_preparse_take_index(job);
	tn_job_destroy(job);
	return m;
}

static struct tn_index *build_index(const struct tn_trace *trace)
{
	struct tn_index *index;
	struct tn_job *job;
	struct tn_error err;

	if (tn_index_build_start(trace, 1, &job, &err))
		return NULL;
	tn_job_wait(job);
	index = tn_index_build_take(job);
	tn_job_destroy(job);
	return index;
}

static bool indexes_equal(const struct tn_index *a, const struct tn_index *b)
{
	GByteArray *x, *y;
	bool same;

	if (!a || !b)
		return a == b;
	x = tn_cache_encode(a, NULL);
	y = tn_cache_encode(b, NULL);
	same = x->len == y->len && memcmp(x->data, y->data, x->len) == 0;
	g_byte_array_free(x, TRUE);
	g_byte_array_free(y, TRUE);
	return same;
}

/* ---- the state ---- */

static bool results_equal(const struct tn_state_result *a,
		const struct tn_state_result *b)
{
	if (a->count != b->count)
		return false;
	for (size_t i = 0; i < a->count; i++) {
		const struct tn_state_entry *x = &a->entries[i];
		const struct tn_state_entry *y = &b->entries[i];

		if (strcmp(x->path, y->path) || x->depth != y->depth ||
		    !tn_state_value_equal(&x->value, &y->value) ||
		    x->start.ns != y->start.ns)
			return false;
	}
	return true;
}

static struct tn_state_result *query(struct tn_state_querier *querier,
		const struct tn_position *pos)
{
	struct tn_state_query_options options = { 0, NULL, NULL };
	struct tn_state_result *result = NULL;
	struct tn_error err;

	if (tn_state_querier_query(querier, pos, &options, &result, &err))
		printf("# query: %s\n", err.message);
	return result;
}

/* The state at `samples` events spread over the trace, from snapshots
 * and from a replay from the start, equal. */
static void check_state(const struct tn_trace *trace, const char *name,
		const struct tn_state_snapshots *snapshots,
		const struct tn_index *index)
{
	struct tn_state_querier *from_snapshots, *from_start;
	struct tn_error err;
	unsigned samples = 12, same = 0, asked = 0;

	if (!index || index->checkpoint_count == 0)
		return;
	if (tn_state_querier_create(trace, snapshots, &from_snapshots, &err) ||
	    tn_state_querier_create(trace, NULL, &from_start, &err)) {
		tap_ok(false, "%s: queriers (%s)", name, err.message);
		return;
	}
	for (unsigned k = 0; k < samples; k++) {
		/* Checkpoints spread over the trace, backwards (the querier
		 * from the start replays forward once). */
		size_t c = (size_t) (k + 1) * (index->checkpoint_count - 1) /
			samples;
		const struct tn_position *pos = &index->checkpoints[c].pos;
		struct tn_state_result *a = query(from_snapshots, pos);
		struct tn_state_result *b = query(from_start, pos);

		asked++;
		same += a && b && results_equal(a, b);
		tn_state_result_destroy(a);
		tn_state_result_destroy(b);
	}
	tap_int_eq(same, asked, "%s: the state at %u events from the shared "
		"read's snapshots equals a replay from the start", name, asked);
	tn_state_querier_destroy(from_snapshots);
	tn_state_querier_destroy(from_start);
}

/* ---- the analyses ---- */

static void append_table(GString *out, const struct tn_analysis_table *t)
{
	g_string_append_printf(out, "%s %zu\n", t->name, t->row_count);
	for (size_t r = 0; r < t->row_count; r++) {
		for (size_t c = 0; c < t->column_count; c++) {
			const struct tn_analysis_cell *cell =
				tn_analysis_cell_at(t, r, c);

			switch (cell->type) {
			case TN_CELL_TEXT:
				g_string_append_printf(out, " %s",
					cell->u.text);
				break;
			case TN_CELL_INT:
				g_string_append_printf(out, " %" PRId64,
					cell->u.i);
				break;
			case TN_CELL_NS:
				/* Rounded to the ns, as the kept results
				 * and the output have them. */
				g_string_append_printf(out, " %.0f",
					rint(cell->u.d));
				break;
			case TN_CELL_PERCENT:
				g_string_append_printf(out, " %.6g",
					cell->u.d);
				break;
			default:
				g_string_append(out, " -");
			}
		}
		g_string_append_c(out, '\n');
	}
}

static char *describe_result(const struct tn_analysis_result *result)
{
	GString *out = g_string_new(NULL);

	for (size_t i = 0; i < result->table_count; i++)
		append_table(out, &result->tables[i]);
	return g_string_free(out, FALSE);
}

/* Each analysis of the whole trace: the shared read's (kept with the
 * snapshots) equals one run alone from the trace's start. */
static void check_analyses(const struct tn_trace *trace, const char *name,
		const struct tn_state_snapshots *snapshots,
		const struct tn_index *index)
{
	const char *const *names = tn_analysis_names();

	if (!index || index->event_count == 0)
		return;
	for (size_t i = 0; names[i]; i++) {
		struct tn_analysis_result *shared = NULL, *alone = NULL;
		char *key = g_strdup_printf("analysis/%s", names[i]);
		GBytes *kept = tn_state_snapshots_get_extra(snapshots, key);
		struct tn_error err;
		char *a = NULL, *b = NULL;

		if (tn_analysis_run(trace, snapshots, names[i],
				index->first_event_ns, index->last_event_ns, 1,
				&shared, &err) == 0)
			a = describe_result(shared);
		if (tn_analysis_run(trace, NULL, names[i],
				index->first_event_ns, index->last_event_ns, 1,
				&alone, &err) == 0)
			b = describe_result(alone);
		tap_ok(kept && a && b && strcmp(a, b) == 0, "%s: %s of the "
			"whole trace, kept from the shared read, equals it "
			"alone", name, names[i]);
		if (a && b && strcmp(a, b))
			printf("#   shared:\n%s#   alone:\n%s", a, b);
		if (kept)
			g_bytes_unref(kept);
		g_free(key);
		g_free(a);
		g_free(b);
		tn_analysis_result_destroy(shared);
		tn_analysis_result_destroy(alone);
	}
}

/* ---- the pages ---- */

static bool pages_equal(const struct tn_seq_pages *a,
		const struct tn_seq_pages *b)
{
	uint64_t ma = 0, mb = 0;

	if (tn_seq_pages_get_count(a) != tn_seq_pages_get_count(b) ||
	    tn_seq_pages_is_complete(a, &ma) != tn_seq_pages_is_complete(b,
		&mb) || ma != mb)
		return false;
	for (size_t i = 0; i < tn_seq_pages_get_count(a); i++) {
		struct tn_seq_page_entry x, y;

		tn_seq_pages_get(a, i, &x);
		tn_seq_pages_get(b, i, &y);
		if (x.first != y.first ||
		    tn_position_compare(&x.start, &y.start) ||
		    tn_position_compare(&x.prime, &y.prime))
			return false;
	}
	return true;
}

/* ---- a trace ---- */

static void check_trace(const char *path, const char *name)
{
	uint64_t misses = tn_event_record_get_misses();
	struct made all, pages;
	struct tn_index *alone;
	struct tn_trace *trace;
	struct tn_error err;

	if (tn_trace_open(path, &trace, &err)) {
		printf("# %s: %s\n", name, err.message);
		return;
	}
	alone = build_index(trace);
	all = preparse(trace, "isap", 0);
	/* A trace that cannot be read to its end (damaged) is not indexed
	 * by either. */
	if (!alone) {
		tap_ok(all.state == TN_JOB_FAILED, "%s: the preparse fails as "
			"the index build does", name);
		made_fini(&all);
		tn_trace_destroy(trace);
		return;
	}
	if (!tap_ok(all.state == TN_JOB_DONE, "%s: the preparse of "
			"everything ends", name)) {
		made_fini(&all);
		tn_index_destroy(alone);
		tn_trace_destroy(trace);
		return;
	}
	tap_ok(indexes_equal(all.index, alone), "%s: its index equals the "
		"index build's", name);
	/* Slices now find their packets as they do with an index. */
	if (alone)
		tn_trace_set_packet_tables(trace,
			tn_index_borrow_packet_tables(alone));
	tap_ok(tn_state_snapshots_is_complete(all.snapshots),
		"%s: its snapshots are complete", name);
	check_state(trace, name, all.snapshots, all.index);
	check_analyses(trace, name, all.snapshots, all.index);
	pages = preparse(trace, "p", 0);
	tap_ok(pages.state == TN_JOB_DONE && pages_equal(all.pages,
		pages.pages), "%s: its diagram's pages (%zu) equal those of a "
		"preparse of the pages alone", name,
		tn_seq_pages_get_count(all.pages));
	tap_int_eq(tn_event_record_get_misses() - misses, 0, "%s: no field "
		"read that was not wanted", name);
	made_fini(&pages);
	made_fini(&all);
	tn_trace_set_packet_tables(trace, NULL);
	tn_index_destroy(alone);
	tn_trace_destroy(trace);
}

static void check_generated(const char *name, const char *options)
{
	char *path = gen_trace(name, options);

	check_trace(path, name);
	g_free(path);
}

/* A preparse cancelled half way ends as cancelled; a new one gives what
 * an uncancelled one gives. */
static void check_cancel(void)
{
	char *path = gen_trace("cancel", "--events 300000 --cpus 4 "
		"--packet-size 65536");
	struct tn_preparse_request request = { .index = true };
	struct tn_job_progress progress;
	struct tn_trace *trace;
	struct tn_error err;
	struct tn_job *job;
	struct made again;
	struct tn_index *alone;

	if (tn_trace_open(path, &trace, &err)) {
		tap_ok(false, "cancel: opens (%s)", err.message);
		g_free(path);
		return;
	}
	request.snapshots = tn_state_snapshots_create();
	if (tn_preparse_start(trace, &request, &job, &err) == 0) {
		do {
			g_usleep(2000);
			tn_job_get_progress(job, &progress);
		} while (progress.state == TN_JOB_RUNNING &&
			 progress.items < 20000);
		tn_job_cancel(job);
		tn_job_wait(job);
		tn_job_get_progress(job, &progress);
		tap_ok(progress.state == TN_JOB_CANCELLED &&
			!tn_preparse_take_index(job) &&
			!tn_state_snapshots_is_complete(request.snapshots),
			"cancel: a cancelled preparse ends cancelled, without "
			"index, its snapshots incomplete (state %d)",
			progress.state);
		tn_job_destroy(job);
	}
	tn_state_snapshots_destroy(request.snapshots);
	again = preparse(trace, "is", 0);
	alone = build_index(trace);
	tap_ok(again.state == TN_JOB_DONE && indexes_equal(again.index,
		alone) && tn_state_snapshots_is_complete(again.snapshots),
		"cancel: a new preparse then gives the index and the state");
	tn_index_destroy(alone);
	made_fini(&again);
	tn_trace_destroy(trace);
	g_free(path);
}

/* Who reads an index alone faster: the index build's time slices on a
 * trace of many packets a stream; the preparse's parts on a collection
 * whose streams hold one packet each (a slice would read them all), and
 * its index is the same. */
static void check_plan(void)
{
	char *deep = gen_trace("plan-deep", "--events 200000 --cpus 2 "
		"--packet-size 4096");
	char *wide = gen_trace("plan-wide", "--events 20000 --cpus 8 "
		"--traces 4 --packet-size 65536");
	struct tn_trace *trace;
	struct tn_error err;

	if (tn_trace_open(deep, &trace, &err) == 0) {
		tap_int_eq(tn_index_build_plan_workers(trace, 2), 2,
			"plan: a trace of many packets a stream is cut in "
			"time slices");
		tap_int_eq(tn_preparse_plan_parts(trace, true, 2), 2,
			"plan: its decoding splits too");
		tn_trace_destroy(trace);
	} else {
		tap_ok(false, "plan: opens (%s)", err.message);
	}
	if (tn_trace_open(wide, &trace, &err) == 0) {
		struct made made;
		struct tn_index *alone;

		tap_int_eq(tn_index_build_plan_workers(trace, 2), 1,
			"plan: a collection of streams of one packet cannot "
			"be cut in time slices");
		tap_int_eq(tn_preparse_plan_parts(trace, true, 2), 2,
			"plan: its traces are dealt to the preparse's parts");
		made = preparse(trace, "i", 2);
		alone = build_index(trace);
		tap_ok(made.state == TN_JOB_DONE &&
			indexes_equal(made.index, alone),
			"plan: the preparse's index is the index build's");
		tn_index_destroy(alone);
		made_fini(&made);
		tn_trace_destroy(trace);
	} else {
		tap_ok(false, "plan: opens (%s)", err.message);
	}
	g_free(deep);
	g_free(wide);
}

static void check_shared(void)
{
	const char *env = getenv("TRACENAV_SHARED_TRACES");
	const char *top = getenv("top_srcdir");
	char *root = env ? g_strdup(env) :
		g_strdup_printf("%s/../shared/traces", top ? top : ".");
	const char *suites[] = { "babeltrace2/succeed", "tracecompass" };
	int tried = 0;
	unsigned seen = 0;

	for (size_t s = 0; s < G_N_ELEMENTS(suites); s++) {
		char *suite = g_strdup_printf("%s/%s", root, suites[s]);
		GDir *listing = g_dir_open(suite, 0, NULL);
		const char *name;

		while (listing && (name = g_dir_read_name(listing))) {
			char *path, *what;

			if (!gen_corpus_share(seen++, 1))
				continue;
			path = g_strdup_printf("%s/%s", suite, name);
			what = g_strdup_printf("%s/%s", suites[s], name);
			check_trace(path, what);
			tried++;
			g_free(what);
			g_free(path);
		}
		if (listing)
			g_dir_close(listing);
		g_free(suite);
	}
	if (tried == 0)
		printf("ok %d # SKIP no shared traces under %s\n",
			++tap_count, root);
	g_free(root);
}

int main(void)
{
	char *runtime = g_strdup_printf("%s/runtime", gen_tmpdir());

	/* Keep the user's runtime directory out of the tests. */
	mkdir(runtime, 0700);
	setenv("XDG_RUNTIME_DIR", runtime, 1);
	g_free(runtime);

	check_generated("kernel", "--events 60000 --cpus 4 "
		"--packet-size 8192 --seed 3");
	check_generated("lost", "--events 40000 --cpus 4 --packet-size 4096 "
		"--lost-every 3 --lost-packets-every 5 --seed 5");
	check_generated("hosts", "--events 40000 --traces 3 --domain both "
		"--cpus 2 --packet-size 4096 --lost-every 4 --ties 2 --seed 6");
	check_generated("ust", "--events 30000 --domain ust --cpus 3 "
		"--packet-size 4096 --seed 8");
	check_generated("one-stream", "--events 8000 --cpus 1 "
		"--packet-size 4096");
	check_cancel();
	check_plan();
	check_shared();
	tn_core_thread_cleanup();
	gen_cleanup();
	return tap_done();
}
