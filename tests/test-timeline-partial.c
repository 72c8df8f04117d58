/* test-timeline-partial.c - the timelines without the index
 * (tn_timeline_run_partial(): a span read from an empty state at its
 * start): each thread's time on a CPU per bucket is the exact replay's
 * (it comes from the CPUs' switches, the first one of each CPU in the
 * span saying who ran before it), the result and the grid say partial,
 * a waiting state learnt late makes figures smaller, never larger (and
 * smaller somewhere: what came before is not read); a
 * span with no event is empty, not an error. */
#include <glib.h>
#include <inttypes.h>

#include "gen.h"
#include "tap.h"
#include "tracenav/analysis.h"
#include "tracenav/timeline.h"
#include "tracenav/trace.h"

/* tid -> bucket -> the ns of the states of table "threads" (on a CPU:
 * the first three; waiting: the last two) summed into on[] and wait[]. */
struct sums {
	GHashTable *on, *wait;	/* "tid/bucket" -> int64 ns */
};

static void add_to(GHashTable *table, char *key, int64_t ns)
{
	int64_t *v = g_hash_table_lookup(table, key);

	if (!v) {
		v = g_new0(int64_t, 1);
		g_hash_table_insert(table, g_strdup(key), v);
	}
	*v += ns;
}

static void sum_threads(struct tn_analysis_result *result,
		struct sums *s)
{
	const struct tn_analysis_table *t =
		tn_analysis_result_find(result, "threads");

	s->on = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	s->wait = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		g_free);
	for (size_t r = 0; t && r < t->row_count; r++) {
		char *key = g_strdup_printf("%" PRId64 "/%" PRId64,
			tn_analysis_cell_at(t, r, 0)->u.i,
			tn_analysis_cell_at(t, r, 2)->u.i);
		int64_t on = 0, wait = 0;

		for (size_t c = 3; c < 6; c++)
			on += tn_analysis_cell_at(t, r, c)->u.i;
		for (size_t c = 6; c < 8; c++)
			wait += tn_analysis_cell_at(t, r, c)->u.i;
		if (on)
			add_to(s->on, key, on);
		if (wait)
			add_to(s->wait, key, wait);
		g_free(key);
	}
}

static void sums_fini(struct sums *s)
{
	g_hash_table_destroy(s->on);
	g_hash_table_destroy(s->wait);
}

/* The keys of a whose values differ from b's (missing: 0); with
 * at_most, only those where a's is larger. */
static unsigned differ(GHashTable *a, GHashTable *b, bool at_most)
{
	GHashTableIter iter;
	gpointer key, value;
	unsigned bad = 0;

	g_hash_table_iter_init(&iter, a);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		int64_t *other = g_hash_table_lookup(b, key);
		int64_t x = *(int64_t *) value, y = other ? *other : 0;

		if (at_most ? x > y : x != y) {
			if (bad++ < 3)
				printf("#   %s: %" PRId64 " ns, not %" PRId64 "\n",
					(char *) key, x, y);
		}
	}
	return bad;
}

int main(void)
{
	char *path = gen_trace("partial", "--events 60000 --cpus 4");
	struct tn_analysis_result *exact = NULL, *partial = NULL;
	struct tn_timeline_grid *grid = NULL;
	struct tn_trace *trace = NULL;
	int64_t begin, end, mid;
	struct tn_error err;
	struct sums e, p;

	if (tn_trace_open(path, &trace, &err) ||
	    !tn_trace_get_time_range(trace, &begin, &end)) {
		tap_ok(false, "open the trace: %s", err.message);
		return tap_done();
	}
	mid = begin + (end - begin) / 2;
	tap_ok(tn_timeline_run(trace, NULL, mid, end, 17, 1, &exact,
		&err) == 0, "the exact timeline of the second half");
	tap_ok(tn_timeline_run_partial(trace, mid, end, 17, &partial,
		&err) == 0, "the partial one (from an empty state)");
	if (!exact || !partial)
		return tap_done();
	tap_ok(partial->partial && !exact->partial,
		"the partial result says so");
	sum_threads(exact, &e);
	sum_threads(partial, &p);
	tap_ok(g_hash_table_size(e.on) > 100 &&
		differ(e.on, p.on, false) == 0 && differ(p.on, e.on, false) == 0,
		"each thread's time on a CPU per bucket: the exact one's "
		"(%u cells)", g_hash_table_size(e.on));
	tap_ok(differ(p.wait, e.wait, true) == 0 &&
		g_hash_table_size(p.wait) > 0,
		"waiting times: never more than the exact ones");
	printf("# the cells where the exact replay knew a wait the partial "
		"one had not learnt yet:\n");
	tap_ok(differ(e.wait, p.wait, true) > 0,
		"... and less where a thread waited since before the span "
		"(what came before was not replayed)");
	sums_fini(&e);
	sums_fini(&p);
	tap_ok(tn_timeline_grid_run(trace, NULL, NULL, TN_TIMELINE_CPUS, mid,
		end, 40, 1, &grid, &(uint64_t) { 0 }, &err) == 0 && grid &&
		grid->partial && grid->row_count >= 4 &&
		grid->rows[0].kind == TN_TIMELINE_CPUS,
		"without the index, the CPUs' grid is partial");
	tn_timeline_grid_destroy(grid);
	grid = NULL;
	tn_analysis_result_destroy(partial);
	partial = NULL;
	tap_ok(tn_timeline_run_partial(trace, end + 1000, end + 2000, 5,
		&partial, &err) == 0 && partial->events == 0,
		"a span after the last event: empty, no error");
	tn_analysis_result_destroy(partial);
	tn_analysis_result_destroy(exact);
	tn_trace_destroy(trace);
	g_free(path);
	gen_cleanup();
	return tap_done();
}
