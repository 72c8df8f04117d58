/* timeline-grid.c - a timeline's table as a grid of letters, one row
 * per thread or CPU, made from a replay or from the preparse's summary
 * (see timeline.h). */
#include <glib.h>
#include <string.h>

#include "src/core/timeline-summary.h"
#include "tracenav/state-history.h"
#include "tracenav/timeline.h"

/* The threads' parents from table (TID PPID, by TID; the rows are by id
 * too). */
static void set_parents(struct tn_timeline_grid *grid,
		const struct tn_analysis_table *table)
{
	size_t r = 0;

	for (size_t i = 0; table && i < table->row_count; i++) {
		int64_t tid = tn_analysis_cell_at(table, i, 0)->u.i;

		while (r < grid->row_count && grid->rows[r].id < tid)
			r++;
		if (r < grid->row_count && grid->rows[r].id == tid)
			grid->rows[r].ppid = tn_analysis_cell_at(table, i,
				1)->u.i;
	}
}

/* The irq rows' names from table (IRQ NAME, by IRQ; the rows are by id
 * too). */
static void set_irq_names(struct tn_timeline_grid *grid,
		const struct tn_analysis_table *table)
{
	size_t r = 0;

	for (size_t i = 0; table && i < table->row_count; i++) {
		int64_t irq = tn_analysis_cell_at(table, i, 0)->u.i;

		while (r < grid->row_count && (grid->rows[r].kind !=
			TN_TIMELINE_IRQS || grid->rows[r].id < irq))
			r++;
		if (r < grid->row_count && grid->rows[r].kind ==
		    TN_TIMELINE_IRQS && grid->rows[r].id == irq)
			grid->rows[r].name = g_strdup(tn_analysis_cell_at(
				table, i, 1)->u.text);
	}
}

/* Append to rows a row per id of table (by id, then bucket), of kind:
 * id, [name,] bucket, the states' ns. */
static void add_rows(GArray *rows, const struct tn_analysis_table *table,
		enum tn_timeline_kind kind, unsigned buckets)
{
	bool named = kind == TN_TIMELINE_THREADS;
	size_t first = named ? 3 : 2, states = tn_timeline_state_count(kind);
	guint start = rows->len;
	int64_t ns[TN_THREAD_STATE_COUNT];

	for (size_t r = 0; table && r < table->row_count; r++) {
		int64_t id = tn_analysis_cell_at(table, r, 0)->u.i;
		int64_t k = tn_analysis_cell_at(table, r, first - 1)->u.i;
		struct tn_timeline_row *row;

		if (rows->len == start || g_array_index(rows,
				struct tn_timeline_row, rows->len - 1).id != id) {
			struct tn_timeline_row fresh = { .kind = kind,
				.id = id };

			fresh.letters = g_malloc(buckets + 1);
			memset(fresh.letters, TN_TIMELINE_NO_TIME, buckets);
			fresh.letters[buckets] = '\0';
			if (named)
				fresh.name = g_strdup(tn_analysis_cell_at(
					table, r, 1)->u.text);
			g_array_append_val(rows, fresh);
		}
		row = &g_array_index(rows, struct tn_timeline_row,
			rows->len - 1);
		for (size_t s = 0; s < states; s++)
			ns[s] = tn_analysis_cell_at(table, r, first + s)->u.i;
		if (k >= 0 && k < (int64_t) buckets)
			row->letters[k] = tn_timeline_letter(kind, ns);
		row->on_cpu_ns += tn_timeline_on_cpu(kind, ns);
	}
}

/* The shortest run of a CPU's columns that one thread holds (ran longest
 * in each) for its name to be written over them. */
#define NAME_RUN_COLUMNS 4

/* Write name over the columns [c, c + len) of names, a character a
 * column in printable ASCII (another character, or a byte of a name
 * that is not UTF-8, as '?'). */
static void write_name(char *names, unsigned c, unsigned len,
		const char *name)
{
	bool utf8 = g_utf8_validate(name, -1, NULL);

	for (unsigned i = 0; i < len && *name; i++) {
		names[c + i] = g_ascii_isprint(*name) ? *name : '?';
		name += utf8 ? g_utf8_skip[*(const guchar *) name] : 1;
	}
}

/* A CPU row's names: over each run of at least NAME_RUN_COLUMNS busy
 * columns (R) that one thread held, its name (cut before the run's last
 * column); tids: the thread of each column (0: none). */
static char *names_over(const struct tn_timeline_row *row,
		const int64_t *tids, unsigned buckets, GHashTable *names)
{
	char *text = g_malloc(buckets + 1);
	bool any = false;

	memset(text, ' ', buckets);
	text[buckets] = '\0';
	for (unsigned c = 0; c < buckets;) {
		unsigned end = c;
		const char *name;

		while (end < buckets && tids[c] && tids[end] == tids[c] &&
		       row->letters[end] == 'R')
			end++;
		name = end - c >= NAME_RUN_COLUMNS ? g_hash_table_lookup(names,
			&tids[c]) : NULL;
		/* The run's last column keeps its letter: two names
		 * never run into each other. */
		if (name && *name) {
			write_name(text, c, end - c - 1, name);
			any = true;
		}
		c = MAX(end, c + 1);
	}
	if (!any) {
		g_free(text);
		return NULL;
	}
	return text;
}

/* The CPU rows' names, from the result's "cpu_threads" (who ran longest
 * at once in each bucket) and the threads' names. */
static void set_cpu_names(struct tn_timeline_grid *grid,
		struct tn_analysis_result *result)
{
	const struct tn_analysis_table *tops = tn_analysis_result_find(result,
		"cpu_threads");
	const struct tn_analysis_table *threads = tn_analysis_result_find(
		result, "threads");
	GHashTable *names;
	int64_t *tids;

	if (!tops || !threads || tops->row_count == 0)
		return;
	/* tid -> its name (the table is by tid: a thread's first row). */
	names = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
		g_free);
	for (size_t r = 0; r < threads->row_count; r++) {
		const int64_t *tid = &tn_analysis_cell_at(threads, r, 0)->u.i;

		if (r == 0 || *tid != tn_analysis_cell_at(threads, r - 1,
				0)->u.i)
			g_hash_table_insert(names, g_memdup2(tid,
				sizeof(*tid)), g_strdup(tn_analysis_cell_at(
				threads, r, 1)->u.text));
	}
	tids = g_new(int64_t, grid->buckets);
	for (size_t i = 0, r = 0; i < grid->row_count &&
	     grid->rows[i].kind == TN_TIMELINE_CPUS; i++) {
		struct tn_timeline_row *row = &grid->rows[i];

		memset(tids, 0, grid->buckets * sizeof(*tids));
		for (; r < tops->row_count &&
		       tn_analysis_cell_at(tops, r, 0)->u.i <= row->id; r++) {
			int64_t k = tn_analysis_cell_at(tops, r, 1)->u.i;

			if (tn_analysis_cell_at(tops, r, 0)->u.i == row->id &&
			    k >= 0 && k < (int64_t) grid->buckets)
				tids[k] = tn_analysis_cell_at(tops, r, 2)->u.i;
		}
		row->names = names_over(row, tids, grid->buckets, names);
	}
	g_free(tids);
	g_hash_table_destroy(names);
}

struct tn_timeline_grid *tn_timeline_grid_new(
		struct tn_analysis_result *result,
		enum tn_timeline_kind kind, unsigned buckets)
{
	struct tn_timeline_grid *grid = g_new0(struct tn_timeline_grid, 1);
	GArray *rows = g_array_new(FALSE, TRUE,
		sizeof(struct tn_timeline_row));

	grid->kind = kind;
	grid->buckets = buckets;
	if (kind == TN_TIMELINE_THREADS) {
		add_rows(rows, tn_analysis_result_find(result, "threads"),
			kind, buckets);
	} else {
		add_rows(rows, tn_analysis_result_find(result, "cpus"),
			TN_TIMELINE_CPUS, buckets);
		add_rows(rows, tn_analysis_result_find(result, "irqs"),
			TN_TIMELINE_IRQS, buckets);
		add_rows(rows, tn_analysis_result_find(result, "softirqs"),
			TN_TIMELINE_SOFTIRQS, buckets);
	}
	grid->row_count = rows->len;
	grid->rows = (struct tn_timeline_row *) g_array_free(rows, FALSE);
	if (kind == TN_TIMELINE_THREADS)
		set_parents(grid, tn_analysis_result_find(result, "parents"));
	else {
		set_cpu_names(grid, result);
		set_irq_names(grid, tn_analysis_result_find(result,
			"irq_names"));
	}
	return grid;
}

/* The events of [begin_ns, end_ns] by the index's checkpoints (within a
 * checkpoint interval at each end). */
static uint64_t span_events(const struct tn_index *index, int64_t begin_ns,
		int64_t end_ns)
{
	struct tn_position from = { begin_ns, 0 }, to = { end_ns, UINT64_MAX };
	const struct tn_checkpoint *a, *b;

	if (!index)
		return 0;
	b = tn_index_checkpoint_for_position(index, &to);
	if (!b)
		return 0;
	a = tn_index_checkpoint_for_position(index, &from);
	return b->rank - (a ? a->rank : 0);
}

/* The grid from the summary, or *out NULL when there is none fit. */
static void grid_from_summary(const struct tn_state_snapshots *snapshots,
		enum tn_timeline_kind kind, int64_t begin_ns, int64_t end_ns,
		unsigned buckets, struct tn_timeline_grid **out)
{
	GBytes *blob = snapshots ? tn_state_snapshots_get_extra(snapshots,
		"timeline/summary") : NULL;
	struct tn_error err;

	*out = NULL;
	if (!blob)
		return;
	/* A damaged one (the cache's checksum passed) is replayed around. */
	if (tn_timeline_summary_grid(blob, kind, begin_ns, end_ns, buckets,
			out, &err))
		*out = NULL;
	g_bytes_unref(blob);
}

int tn_timeline_grid_run(const struct tn_trace *trace,
		const struct tn_state_snapshots *snapshots,
		const struct tn_index *index, enum tn_timeline_kind kind,
		int64_t begin_ns, int64_t end_ns, unsigned buckets,
		unsigned threads, struct tn_timeline_grid **out,
		uint64_t *events, struct tn_error *err)
{
	uint64_t count = span_events(index, begin_ns, end_ns);
	struct tn_analysis_result *result;

	*out = NULL;
	if (count > TN_TIMELINE_REPLAY_EVENTS) {
		grid_from_summary(snapshots, kind, begin_ns, end_ns, buckets,
			out);
		if (*out) {
			*events = count;
			return 0;
		}
	}
	if (!index ? tn_timeline_run_partial(trace, begin_ns, end_ns, buckets,
			&result, err) : tn_timeline_run(trace, snapshots,
			begin_ns, end_ns, buckets, threads, &result, err))
		return -1;
	*out = tn_timeline_grid_new(result, kind, buckets);
	(*out)->partial = result->partial;
	*events = result->events;
	tn_analysis_result_destroy(result);
	return 0;
}
