/* stats.c - the counts of a time range (see stats.h): per name, per
 * source (CPU, stream, trace), lost events and per bin, from the
 * checkpoint index and reads of the partial intervals at the edges.
 *
 * Edges far apart are read by two scans at once, a fan-out (job.h): the
 * first on the calling thread, the second on a helper thread that
 * adopts the caller's job (its cancel stops both). */
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tracenav/job.h"
#include "tracenav/seek.h"
#include "tracenav/stats.h"
#include "index-sources.h"

#define CHECK_EVERY 512
/* Up to this many events ahead, a scan reads on rather than seek. */
#define READ_ON_EVENTS (16 * TN_INDEX_INTERVAL)

/* ---- the events before a time ---- */

/* What a scan counts of the events it reads past: per class and per
 * source of the index, and their lost_before. */
struct partial {
	uint64_t *names;
	uint64_t *sources;
	uint64_t lost;
};

/* A read that answers "how many events before t" for increasing times:
 * its walk starts at checkpoint cp and has counted `read` events since
 * (and, with partial, what they are), each with a time below the last
 * one asked for; row is the first event not counted yet. */
struct scan {
	const struct tn_trace *trace;
	const struct tn_index *index;
	struct tn_walk *walk;	/* NULL: none open */
	size_t cp;
	uint64_t read;
	struct partial *partial;	/* NULL: counts nothing */
	struct tn_source_memo memo;	/* of the walk's streams */
	bool has_row, ended;
	struct tn_row row;
};

static void scan_init(struct scan *s, const struct tn_trace *trace,
		const struct tn_index *index, bool counts)
{
	memset(s, 0, sizeof(*s));
	s->trace = trace;
	s->index = index;
	if (counts) {
		s->partial = g_new0(struct partial, 1);
		s->partial->names = g_new0(uint64_t, index->class_count + 1);
		s->partial->sources = g_new0(uint64_t,
			index->source_count + 1);
	}
}

static void partial_clear(struct scan *s)
{
	if (!s->partial)
		return;
	memset(s->partial->names, 0,
		s->index->class_count * sizeof(*s->partial->names));
	memset(s->partial->sources, 0,
		s->index->source_count * sizeof(*s->partial->sources));
	s->partial->lost = 0;
}

static void scan_close(struct scan *s)
{
	if (s->has_row)
		tn_row_release(&s->row);
	s->has_row = false;
	tn_walk_destroy(s->walk);
	s->walk = NULL;
}

static void scan_fini(struct scan *s)
{
	scan_close(s);
	if (s->partial) {
		g_free(s->partial->names);
		g_free(s->partial->sources);
		g_free(s->partial);
		s->partial = NULL;
	}
}

static int compare_class_name(const void *key, const void *member)
{
	return strcmp(key, ((const struct tn_class_count *) member)->name);
}

static long find_source(void *data, const struct tn_index_source *source)
{
	return tn_index_find_source(data, source);
}

/* Count row in s->partial. */
static int count_row(struct scan *s, const struct tn_row *row,
		struct tn_error *err)
{
	const char *name = tn_event_get_name(&row->ev);
	const struct tn_class_count *class = bsearch(name,
		s->index->classes, s->index->class_count,
		sizeof(*s->index->classes), compare_class_name);
	long source = tn_source_memo_lookup(&s->memo, &row->ev, find_source,
		(void *) (uintptr_t) s->index);

	if (!class || source < 0) {
		tn_error_set(err, "event \"%s\" %s: the trace changed since "
			"it was indexed (run index again)", name, class ?
			"comes from a stream the index does not know" :
			"is not in the index");
		return -1;
	}
	s->partial->names[class - s->index->classes]++;
	s->partial->sources[source]++;
	s->partial->lost += row->lost_before;
	return 0;
}

/* Open the walk at checkpoint cp, with nothing counted. */
static int scan_open(struct scan *s, size_t cp, struct tn_error *err)
{
	bool fell_back;

	scan_close(s);
	/* The new reader's streams may take the old one's addresses. */
	tn_source_memo_clear(&s->memo);
	if (tn_walk_open_at_known(s->trace, &s->index->checkpoints[cp].pos, 0,
			&s->walk, &fell_back, err))
		return -1;
	s->cp = cp;
	s->read = 0;
	s->ended = false;
	partial_clear(s);
	return 0;
}

/* Read on to the first event at or after ns (never back: ns at least
 * the last one asked for, unless the walk is reopened).  *cp and *rank
 * get the checkpoint the counts start from (the walk's: at or before
 * the last one before ns) and the number of events before ns;
 * s->partial what the events from that checkpoint up to ns hold.  No
 * event before ns: *cp 0, *rank 0 and nothing counted. */
static int scan_to(struct scan *s, int64_t ns, size_t *cp, uint64_t *rank,
		struct tn_error *err)
{
	struct tn_position pos = { ns, 0 };
	const struct tn_checkpoint *checkpoint =
		tn_index_checkpoint_for_position(s->index, &pos);
	size_t at;

	if (!checkpoint) {
		scan_close(s);
		s->cp = 0;
		s->read = 0;
		partial_clear(s);
		*cp = 0;
		*rank = 0;
		return 0;
	}
	/* After the last event: every event is before it (the counts are
	 * the caller's to take from the index). */
	if (!s->partial && ns > s->index->last_event_ns) {
		*cp = s->cp;
		*rank = s->index->event_count;
		return 0;
	}
	at = (size_t) (checkpoint - s->index->checkpoints);
	/* Read on from where the walk is when that costs less than a
	 * seek (which reads each stream's packet from its start). */
	if ((!s->walk || at < s->cp || checkpoint->rank >
	     s->index->checkpoints[s->cp].rank + s->read + READ_ON_EVENTS) &&
	    scan_open(s, at, err))
		return -1;
	for (;;) {
		if (!s->has_row && !s->ended) {
			int status = tn_walk_next(s->walk, NULL, &s->row, err);

			if (status < 0)
				return -1;
			s->has_row = status == 1;
			s->ended = status == 0;
		}
		if (!s->has_row || s->row.pos.ns >= ns)
			break;
		if (s->partial && count_row(s, &s->row, err))
			return -1;
		tn_row_release(&s->row);
		s->has_row = false;
		if (++s->read % CHECK_EVERY == 0 &&
		    tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			return -1;
		}
	}
	*cp = s->cp;
	*rank = s->index->checkpoints[s->cp].rank + s->read;
	return 0;
}

/* The lost_before of the first event at or after the last time asked
 * for (0 when there is none). */
static uint64_t scan_next_lost(const struct scan *s)
{
	return s->has_row ? s->row.lost_before : 0;
}

/* Consecutive edges that one scan answers, on a thread of its own or
 * the caller's. */
struct edge_run {
	struct scan s;
	const int64_t *ns_list;
	size_t count;
	uint64_t *ranks;
	size_t cp;		/* the last edge's (scan_to()) */
	uint64_t next_lost;	/* the last edge's (scan_next_lost()) */
};

static void edge_run_init(struct edge_run *run, const struct tn_trace *trace,
		const struct tn_index *index, const int64_t *ns_list,
		size_t count, uint64_t *ranks, bool counts)
{
	memset(run, 0, sizeof(*run));
	scan_init(&run->s, trace, index, counts);
	run->ns_list = ns_list;
	run->count = count;
	run->ranks = ranks;
}

/* Run i of the fan-out: its edges in turn; returns 0, or -1 with err
 * (its own failure, or "cancelled" when it stopped early because the
 * other run failed or the job was cancelled). */
static int run_edges(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct edge_run *run = &((struct edge_run *) data)[i];
	int status = 0;

	for (size_t k = 0; k < run->count && !status; k++) {
		if (tn_fanout_should_stop(fanout)) {
			tn_error_set(err, "cancelled");
			status = -1;
			break;
		}
		status = scan_to(&run->s, run->ns_list[k], &run->cp,
			&run->ranks[k], err);
	}
	run->next_lost = scan_next_lost(&run->s);
	scan_close(&run->s);
	return status;
}

/* Answer the runs, the second one (if any) on a helper thread.
 * Returns 0, or -1 with the first failure in err. */
static int run_all(struct edge_run *runs, size_t count, struct tn_error *err)
{
	return tn_fanout_run((unsigned) count, run_edges, runs, err);
}

/* Whether the checkpoint before b is so far after the one before a that
 * a scan would seek to it rather than read on: then two threads answer
 * them in the time of one, on a machine with more than one core. */
static bool worth_a_thread(const struct tn_index *index, int64_t a,
		int64_t b)
{
	struct tn_position pa = { a, 0 }, pb = { b, 0 };
	const struct tn_checkpoint *ca =
		tn_index_checkpoint_for_position(index, &pa);
	const struct tn_checkpoint *cb =
		tn_index_checkpoint_for_position(index, &pb);

	return g_get_num_processors() > 1 && cb &&
		cb->rank > (ca ? ca->rank : 0) + READ_ON_EVENTS;
}

int tn_stats_ranks_at(const struct tn_trace *trace,
		const struct tn_index *index, const int64_t *ns_list,
		size_t count, uint64_t *ranks, struct tn_error *err)
{
	struct edge_run runs[2];
	size_t half = count / 2, run_count = 1;
	int status;

	/* Two halves of the edges when they meet far apart. */
	if (count >= 2 && worth_a_thread(index, ns_list[half - 1],
			ns_list[half])) {
		edge_run_init(&runs[0], trace, index, ns_list, half, ranks,
			false);
		edge_run_init(&runs[1], trace, index, ns_list + half,
			count - half, ranks + half, false);
		run_count = 2;
	} else {
		edge_run_init(&runs[0], trace, index, ns_list, count, ranks,
			false);
	}
	status = run_all(runs, run_count, err);
	for (size_t i = 0; i < run_count; i++)
		scan_fini(&runs[i].s);
	return status;
}

/* ---- the counts of a range ---- */

/* What the index's intervals and the edges' reads add up to, per key of
 * the index (signed: an edge takes away what precedes it). */
struct sums {
	int64_t *names;
	int64_t *sources;
	int64_t lost;
};

static void sums_add_partial(struct sums *sums, const struct tn_index *index,
		const struct partial *partial, int sign)
{
	for (size_t k = 0; k < index->class_count; k++)
		sums->names[k] += sign * (int64_t) partial->names[k];
	for (size_t k = 0; k < index->source_count; k++)
		sums->sources[k] += sign * (int64_t) partial->sources[k];
	sums->lost += sign * (int64_t) partial->lost;
}

static void add_entries(const size_t *start,
		const struct tn_interval_count *entries, size_t from, size_t to,
		int64_t *sums)
{
	if (!start)
		return;
	for (size_t i = start[from]; i < start[to]; i++)
		sums[entries[i].key] += entries[i].count;
}

/* sums += what the intervals [from, to) hold. */
static void sums_add_intervals(struct sums *sums,
		const struct tn_index *index, size_t from, size_t to)
{
	add_entries(index->interval_class_start, index->interval_classes,
		from, to, sums->names);
	add_entries(index->interval_source_start, index->interval_sources,
		from, to, sums->sources);
	for (size_t i = from; index->interval_lost && i < to; i++)
		sums->lost += (int64_t) index->interval_lost[i];
}

static int compare_by_count(const void *a, const void *b)
{
	const struct tn_stats_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Numbers by value ("2" before "10"), other keys after them by strcmp. */
static int compare_keys(const void *a, const void *b)
{
	const struct tn_stats_entry *x = a, *y = b;
	char *x_end, *y_end;
	long long xn = strtoll(x->key, &x_end, 10);
	long long yn = strtoll(y->key, &y_end, 10);
	bool x_number = *x->key && !*x_end, y_number = *y->key && !*y_end;

	if (x_number && y_number && xn != yn)
		return xn < yn ? -1 : 1;
	if (x_number != y_number)
		return x_number ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The time just after end_ns (saturated). */
static int64_t after(int64_t end_ns)
{
	return end_ns == INT64_MAX ? INT64_MAX : end_ns + 1;
}

static void tally(GHashTable *table, char *key, uint64_t count)
{
	uint64_t *total = g_hash_table_lookup(table, key);

	if (!total) {
		total = g_new0(uint64_t, 1);
		g_hash_table_insert(table, key, total);
	} else {
		g_free(key);
	}
	*total += count;
}

/* The table's keys and counts (taken), sorted by compare. */
static struct tn_stats_entry *take_entries(GHashTable *table, size_t *count,
		int (*compare)(const void *, const void *))
{
	struct tn_stats_entry *entries = g_new0(struct tn_stats_entry,
		g_hash_table_size(table) + 1);
	GHashTableIter iter;
	gpointer key, value;
	size_t n = 0;

	g_hash_table_iter_init(&iter, table);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		entries[n].key = key;
		entries[n++].count = *(uint64_t *) value;
		g_hash_table_iter_steal(&iter);
		g_free(value);
	}
	if (n)
		qsort(entries, n, sizeof(*entries), compare);
	*count = n;
	return entries;
}

static GHashTable *new_table(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

/* The counts of sums as entries of out. */
static void fill_counts(struct tn_stats_counts *out,
		const struct tn_index *index, const struct sums *sums)
{
	GHashTable *names = new_table(), *cpus = new_table(),
		*streams = new_table(), *traces = new_table();

	for (size_t k = 0; k < index->class_count; k++)
		if (sums->names[k] > 0)
			tally(names, g_strdup(index->classes[k].name),
				(uint64_t) sums->names[k]);
	for (size_t k = 0; k < index->source_count; k++) {
		const struct tn_index_source *source = &index->sources[k];
		uint64_t n = sums->sources[k] > 0 ?
			(uint64_t) sums->sources[k] : 0;

		if (!n)
			continue;
		tally(cpus, source->cpu < 0 ? g_strdup("-") :
			g_strdup_printf("%" PRId64, source->cpu), n);
		tally(streams, g_strdup_printf("%s/%" PRIu64 "/%" PRIu64,
			source->trace, source->stream_class_id,
			source->stream_id), n);
		tally(traces, g_strdup(source->trace), n);
	}
	out->names = take_entries(names, &out->name_count, compare_by_count);
	out->cpus = take_entries(cpus, &out->cpu_count, compare_keys);
	out->streams = take_entries(streams, &out->stream_count, compare_keys);
	out->traces = take_entries(traces, &out->trace_count, compare_keys);
	out->lost = sums->lost > 0 ? (uint64_t) sums->lost : 0;
	g_hash_table_destroy(names);
	g_hash_table_destroy(cpus);
	g_hash_table_destroy(streams);
	g_hash_table_destroy(traces);
}

/* The counts of [begin_ns, end_ns] into sums, its first rank and the
 * rank after its last event. */
static int count_range(const struct tn_trace *trace,
		const struct tn_index *index, int64_t begin_ns, int64_t end_ns,
		struct sums *sums, uint64_t *rank_begin, uint64_t *rank_end,
		struct tn_error *err)
{
	int64_t edges[2] = { begin_ns, after(end_ns) };
	struct edge_run runs[2];
	size_t run_count = 1;
	uint64_t ranks[2] = { 0, 0 }, first_lost;
	size_t cp_begin, cp_end;
	int status;

	*rank_begin = *rank_end = 0;
	if (begin_ns <= index->first_event_ns &&
	    end_ns >= index->last_event_ns) {
		/* Every event: the index's counts. */
		sums_add_intervals(sums, index, 0, index->checkpoint_count);
		*rank_end = index->event_count;
		return 0;
	}
	if (begin_ns > end_ns)
		return 0;
	if (worth_a_thread(index, edges[0], edges[1])) {
		/* Each end on a thread of its own, with counts of its own. */
		edge_run_init(&runs[0], trace, index, edges, 1, ranks, true);
		edge_run_init(&runs[1], trace, index, edges + 1, 1, ranks + 1,
			true);
		run_count = 2;
		status = run_all(runs, 2, err);
		if (!status) {
			sums_add_partial(sums, index, runs[1].s.partial, 1);
			sums_add_partial(sums, index, runs[0].s.partial, -1);
		}
		cp_begin = runs[0].cp;
		cp_end = runs[1].cp;
		first_lost = runs[0].next_lost;
	} else {
		struct scan *s = &runs[0].s;

		edge_run_init(&runs[0], trace, index, edges, 0, ranks, true);
		status = scan_to(s, edges[0], &cp_begin, &ranks[0], err);
		first_lost = scan_next_lost(s);
		if (!status)
			sums_add_partial(sums, index, s->partial, -1);
		if (!status)
			status = scan_to(s, edges[1], &cp_end, &ranks[1], err);
		/* The same walk counted on from the first edge: its
		 * partial counts hold the first one's. */
		if (!status)
			sums_add_partial(sums, index, s->partial, 1);
	}
	for (size_t i = 0; i < run_count; i++)
		scan_fini(&runs[i].s);
	if (status)
		return -1;
	if (cp_end > cp_begin)
		sums_add_intervals(sums, index, cp_begin, cp_end);
	/* What was lost before the range's first event is the range's
	 * only when it is the trace's first event. */
	if (ranks[0] > 0 && ranks[1] > ranks[0])
		sums->lost -= (int64_t) first_lost;
	*rank_begin = ranks[0];
	*rank_end = ranks[1];
	return 0;
}

int tn_stats_count(const struct tn_trace *trace, const struct tn_index *index,
		int64_t begin_ns, int64_t end_ns, struct tn_stats_counts **out,
		struct tn_error *err)
{
	struct sums sums = { g_new0(int64_t, index->class_count + 1),
		g_new0(int64_t, index->source_count + 1), 0 };
	uint64_t rank_begin, rank_end;
	struct tn_stats_counts *counts;
	int status = count_range(trace, index, begin_ns, end_ns, &sums,
		&rank_begin, &rank_end, err);

	if (!status) {
		counts = g_new0(struct tn_stats_counts, 1);
		counts->event_count = rank_end > rank_begin ?
			rank_end - rank_begin : 0;
		counts->first_rank = rank_begin;
		fill_counts(counts, index, &sums);
		*out = counts;
	}
	g_free(sums.names);
	g_free(sums.sources);
	return status;
}

static void free_entries(struct tn_stats_entry *entries, size_t count)
{
	for (size_t i = 0; i < count; i++)
		g_free(entries[i].key);
	g_free(entries);
}

static struct tn_stats_entry *copy_entries(const struct tn_stats_entry *from,
		size_t count)
{
	struct tn_stats_entry *entries = g_new0(struct tn_stats_entry,
		count + 1);

	for (size_t i = 0; i < count; i++) {
		entries[i].key = g_strdup(from[i].key);
		entries[i].count = from[i].count;
	}
	return entries;
}

struct tn_stats_counts *tn_stats_counts_copy(
		const struct tn_stats_counts *counts)
{
	struct tn_stats_counts *copy = g_memdup2(counts, sizeof(*counts));

	copy->names = copy_entries(counts->names, counts->name_count);
	copy->cpus = copy_entries(counts->cpus, counts->cpu_count);
	copy->streams = copy_entries(counts->streams, counts->stream_count);
	copy->traces = copy_entries(counts->traces, counts->trace_count);
	return copy;
}

void tn_stats_counts_destroy(struct tn_stats_counts *counts)
{
	if (!counts)
		return;
	free_entries(counts->names, counts->name_count);
	free_entries(counts->cpus, counts->cpu_count);
	free_entries(counts->streams, counts->stream_count);
	free_entries(counts->traces, counts->trace_count);
	g_free(counts);
}

/* ---- per bin ---- */

/* A bin of the histogram this many of the index's time bins wide (or
 * wider) has its inner edges moved back to the index bin boundary at or
 * before them: a shift of at most 1/GRID_SNAP of its width, which saves
 * a seek an edge (the index's bins count the events before a boundary
 * exactly). */
#define GRID_SNAP 16

/* The index's time bins: bin k holds the events of [begin_ns + k *
 * width, + width) (index.h); events outside [begin_ns, end_ns] are in
 * the first or last bin, so the counts before the inner boundaries,
 * 1 to count - 1, are exact. */
struct grid {
	int64_t begin_ns;
	uint64_t width;
	size_t count;
	uint64_t *before;	/* before[k]: events before boundary k */
};

static bool grid_init(struct grid *g, const struct tn_index *index)
{
	memset(g, 0, sizeof(*g));
	if (index->bin_count < 2 || index->end_ns < index->begin_ns)
		return false;
	g->begin_ns = index->begin_ns;
	g->width = ((uint64_t) index->end_ns - (uint64_t) index->begin_ns) /
		index->bin_count + 1;
	g->count = index->bin_count;
	g->before = g_new(uint64_t, g->count + 1);
	g->before[0] = 0;
	for (size_t k = 0; k < g->count; k++)
		g->before[k + 1] = g->before[k] + index->bins[k];
	return true;
}

/* The inner boundary at or before ns: its number (0 when there is
 * none inside the grid). */
static size_t grid_boundary(const struct grid *g, int64_t ns)
{
	uint64_t k;

	if (ns <= g->begin_ns)
		return 0;
	k = ((uint64_t) ns - (uint64_t) g->begin_ns) / g->width;
	return k < g->count ? (size_t) k : 0;
}

int tn_stats_histogram(const struct tn_trace *trace,
		const struct tn_index *index, int64_t begin_ns, int64_t end_ns,
		const struct tn_stats_counts *known, size_t bin_count,
		uint64_t *counts, int64_t *starts, size_t *used_out,
		struct tn_error *err)
{
	uint64_t span, width;
	int64_t *edges, *sought;
	uint64_t *ranks, *sought_ranks;
	size_t used = 0, sought_count = 0;
	bool *on_grid;
	struct grid g;
	bool snap;
	int status;

	if (bin_count == 0 || end_ns < begin_ns) {
		tn_error_set(err, "no bins: the range is empty or no bins were "
			"asked for");
		return -1;
	}
	/* ns in the range, minus one (it has at least one): the width is
	 * ceil((span + 1) / bin_count), which is this, without overflow. */
	span = (uint64_t) end_ns - (uint64_t) begin_ns;
	width = span / bin_count + 1;
	snap = grid_init(&g, index) && width / GRID_SNAP >= g.width;
	edges = g_new(int64_t, bin_count + 1);
	on_grid = g_new0(bool, bin_count + 1);
	ranks = g_new(uint64_t, bin_count + 1);
	sought = g_new(int64_t, bin_count + 1);
	sought_ranks = g_new(uint64_t, bin_count + 1);
	/* Bins that would start past the range's end (fewer ns than
	 * bins) are left out. */
	while (used < bin_count && (uint64_t) used * width <= span) {
		edges[used] = (int64_t) ((uint64_t) begin_ns +
			(uint64_t) used * width);
		if (snap && used > 0) {
			size_t k = grid_boundary(&g, edges[used]);

			if (k > 0 && g.begin_ns + (int64_t) (k * g.width) >
					edges[used - 1]) {
				edges[used] = g.begin_ns +
					(int64_t) (k * g.width);
				on_grid[used] = true;
				ranks[used] = g.before[k];
			}
		}
		used++;
	}
	edges[used] = after(end_ns);
	if (known) {
		/* The ends' ranks: no seek to them either. */
		on_grid[0] = on_grid[used] = true;
		ranks[0] = known->first_rank;
		ranks[used] = known->first_rank + known->event_count;
	}
	for (size_t i = 0; i <= used; i++)
		if (!on_grid[i])
			sought[sought_count++] = edges[i];
	status = tn_stats_ranks_at(trace, index, sought, sought_count,
		sought_ranks, err);
	for (size_t i = 0, j = 0; i <= used && !status; i++)
		if (!on_grid[i])
			ranks[i] = sought_ranks[j++];
	for (size_t i = 0; i < used && !status; i++) {
		counts[i] = ranks[i + 1] - ranks[i];
		starts[i] = edges[i];
	}
	*used_out = status ? 0 : used;
	g_free(g.before);
	g_free(edges);
	g_free(on_grid);
	g_free(ranks);
	g_free(sought);
	g_free(sought_ranks);
	return status;
}

int tn_stats_time_of_rank(const struct tn_trace *trace,
		const struct tn_index *index, uint64_t rank, int64_t *ns,
		struct tn_error *err)
{
	const struct tn_checkpoint *checkpoint;
	struct tn_walk *walk;
	struct tn_row row;
	uint64_t at;
	bool fell_back;
	int status;

	if (rank >= index->event_count) {
		tn_error_set(err, "there is no event number %" PRIu64 ": the "
			"trace has %" PRIu64, rank + 1, index->event_count);
		return -1;
	}
	checkpoint = tn_index_checkpoint_for_rank(index, rank);
	if (tn_walk_open_at_known(trace, &checkpoint->pos, 0, &walk,
			&fell_back, err))
		return -1;
	for (at = checkpoint->rank;
	     (status = tn_walk_next(walk, NULL, &row, err)) == 1; at++) {
		bool found = at == rank;

		if (found)
			*ns = row.pos.ns;
		tn_row_release(&row);
		if (found)
			break;
	}
	tn_walk_destroy(walk);
	if (status == 0)
		tn_error_set(err, "event number %" PRIu64 " is past the end "
			"of the trace: it changed since it was indexed (run "
			"index again)", rank + 1);
	return status == 1 ? 0 : -1;
}
