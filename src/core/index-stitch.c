/* index-stitch.c - the index made from its workers' counts (see
 * index-stitch.h). */
#include <glib.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "index-stitch.h"

static void stitch_checkpoints(const struct tn_index_worker *workers,
		unsigned worker_count, struct tn_index *index)
{
	uint64_t base = 0;
	size_t total = 0, at = 0;

	for (unsigned i = 0; i < worker_count; i++)
		total += workers[i].checkpoints->len;
	index->checkpoints = g_new(struct tn_checkpoint, total);
	index->checkpoint_count = total;
	/* Slices are in trace order, so appending keeps ranks sorted. */
	for (unsigned i = 0; i < worker_count; i++) {
		const struct tn_index_worker *w = &workers[i];

		for (guint k = 0; k < w->checkpoints->len; k++) {
			struct tn_checkpoint checkpoint = g_array_index(
				w->checkpoints, struct tn_checkpoint, k);

			checkpoint.rank += base;
			index->checkpoints[at++] = checkpoint;
		}
		base += w->count;
	}
}

static int compare_class_names(const void *a, const void *b)
{
	return strcmp(((const struct tn_class_count *) a)->name,
		((const struct tn_class_count *) b)->name);
}

/* Add the counts of a worker's tallies to totals (key -> uint64_t *,
 * keys borrowed from the workers). */
static void add_totals(const struct tn_index_tallies *t, GHashTable *totals)
{
	for (guint k = 0; k < t->keys->len; k++) {
		gpointer key = g_ptr_array_index(t->keys, k);
		const struct tn_index_tally *tally =
			g_ptr_array_index(t->tallies, k);
		uint64_t *total = g_hash_table_lookup(totals, key);

		if (!total) {
			total = g_new0(uint64_t, 1);
			g_hash_table_insert(totals, key, total);
		}
		*total += tally->count;
	}
}

static void stitch_classes(const struct tn_index_worker *workers,
		unsigned worker_count, struct tn_index *index)
{
	GHashTable *totals = g_hash_table_new_full(g_str_hash, g_str_equal,
		NULL, g_free);
	GHashTableIter iter;
	gpointer name, count;
	size_t at = 0;

	for (unsigned i = 0; i < worker_count; i++)
		add_totals(&workers[i].names, totals);
	index->class_count = g_hash_table_size(totals);
	index->classes = g_new0(struct tn_class_count, index->class_count);
	g_hash_table_iter_init(&iter, totals);
	while (g_hash_table_iter_next(&iter, &name, &count)) {
		index->classes[at].name = g_strdup(name);
		index->classes[at].count = *(const uint64_t *) count;
		at++;
	}
	if (index->class_count)	/* else classes is NULL */
		qsort(index->classes, index->class_count,
			sizeof(*index->classes), compare_class_names);
	g_hash_table_destroy(totals);
}

static guint hash_source(gconstpointer data)
{
	const struct tn_index_source *source = data;

	return g_str_hash(source->trace) ^ (guint) (source->stream_id * 1009 +
		(uint64_t) source->cpu * 65537);
}

static gboolean equal_sources(gconstpointer a, gconstpointer b)
{
	return tn_index_source_compare(a, b) == 0;
}

static int compare_sources(const void *a, const void *b)
{
	return tn_index_source_compare(a, b);
}

static void stitch_sources(const struct tn_index_worker *workers,
		unsigned worker_count, struct tn_index *index)
{
	GHashTable *totals = g_hash_table_new_full(hash_source, equal_sources,
		NULL, g_free);
	GHashTableIter iter;
	gpointer key, count;
	size_t at = 0;

	for (unsigned i = 0; i < worker_count; i++)
		add_totals(&workers[i].sources, totals);
	index->source_count = g_hash_table_size(totals);
	index->sources = g_new0(struct tn_index_source, index->source_count);
	g_hash_table_iter_init(&iter, totals);
	while (g_hash_table_iter_next(&iter, &key, &count)) {
		index->sources[at] = *(const struct tn_index_source *) key;
		index->sources[at].trace = g_strdup(index->sources[at].trace);
		index->sources[at].count = *(const uint64_t *) count;
		at++;
	}
	if (index->source_count)
		qsort(index->sources, index->source_count,
			sizeof(*index->sources), compare_sources);
	g_hash_table_destroy(totals);
}

static int compare_interval_counts(const void *a, const void *b)
{
	uint32_t x = ((const struct tn_interval_count *) a)->key;
	uint32_t y = ((const struct tn_interval_count *) b)->key;

	return (x > y) - (x < y);
}

/* The entries of one interval from first on, sorted by key: one per
 * key.  Traces of a collection each have their own event classes, so
 * that one name can come from several of them (sched_switch of two
 * hosts): their counts add up. */
static void merge_same_keys(GArray *entries, guint first)
{
	struct tn_interval_count *e = (struct tn_interval_count *)
		(void *) entries->data;
	guint kept = first;

	for (guint i = first; i < entries->len; i++) {
		if (kept > first && e[kept - 1].key == e[i].key)
			e[kept - 1].count += e[i].count;
		else
			e[kept++] = e[i];
	}
	g_array_set_size(entries, kept);
}

/* The index in index->classes of a name that is there. */
static uint32_t class_of(const struct tn_index *index, gconstpointer key)
{
	const char *name = key;
	size_t low = 0, high = index->class_count;

	while (high - low > 1) {
		size_t mid = low + (high - low) / 2;

		if (strcmp(index->classes[mid].name, name) <= 0)
			low = mid;
		else
			high = mid;
	}
	return (uint32_t) low;
}

/* The index in index->sources of a source that is there. */
static uint32_t source_of(const struct tn_index *index, gconstpointer key)
{
	return (uint32_t) tn_index_find_source(index, key);
}

/* One kind of the workers' tallies per interval (the one at `offset` in
 * a worker), their keys numbered as the index numbers them (global_of);
 * the intervals follow each other as the checkpoints do. */
static void stitch_intervals(const struct tn_index_worker *workers,
		unsigned worker_count, size_t offset,
		uint32_t (*global_of)(const struct tn_index *, gconstpointer),
		const struct tn_index *index, size_t **starts_out,
		struct tn_interval_count **entries_out)
{
	GArray *entries = g_array_new(FALSE, FALSE,
		sizeof(struct tn_interval_count));
	size_t *starts = g_new0(size_t, index->checkpoint_count + 1);
	size_t at = 0;

	for (unsigned i = 0; i < worker_count; i++) {
		const struct tn_index_tallies *t = (const void *)
			((const char *) &workers[i] + offset);
		uint32_t *global = g_new(uint32_t, t->keys->len + 1);

		for (guint k = 0; k < t->keys->len; k++)
			global[k] = global_of(index,
				g_ptr_array_index(t->keys, k));
		for (guint k = 0; k < tn_index_tallies_get_interval_count(t);
		     k++) {
			size_t count;
			const struct tn_interval_count *from =
				tn_index_tallies_borrow_interval(t, k, &count);
			guint first = entries->len;

			starts[at++] = first;
			for (size_t e = 0; e < count; e++) {
				struct tn_interval_count entry = from[e];

				entry.key = global[entry.key];
				g_array_append_val(entries, entry);
			}
			if (entries->len > first)
				qsort(&g_array_index(entries,
					struct tn_interval_count, first),
					entries->len - first,
					sizeof(struct tn_interval_count),
					compare_interval_counts);
			merge_same_keys(entries, first);
		}
		g_free(global);
	}
	starts[at] = entries->len;
	*starts_out = starts;
	*entries_out = (struct tn_interval_count *) g_array_free(entries,
		FALSE);
}

/* The events lost before each interval's events.  What a slice lost
 * after its last event was lost just before the next slice's first
 * event (a notice belongs to the slice of its time, the event after it
 * may be in the next one); after the trace's last event, before none. */
static void stitch_lost(const struct tn_index_worker *workers,
		unsigned worker_count, struct tn_index *index)
{
	uint64_t carried = 0;
	size_t at = 0;

	index->interval_lost = g_new0(uint64_t, index->checkpoint_count);
	for (unsigned i = 0; i < worker_count; i++) {
		const struct tn_index_worker *w = &workers[i];

		for (guint k = 0; k < w->interval_lost->len; k++)
			index->interval_lost[at + k] = g_array_index(
				w->interval_lost, uint64_t, k);
		if (w->interval_lost->len > 0) {
			index->interval_lost[at] += carried;
			carried = 0;
		}
		at += w->interval_lost->len;
		carried += w->lost_pending;
	}
}

struct tn_index *tn_index_stitch(const struct tn_index_plan *plan,
		struct tn_index_worker *workers, unsigned worker_count)
{
	struct tn_index *index = g_new0(struct tn_index, 1);

	index->begin_ns = plan->begin_ns;
	index->end_ns = plan->end_ns;
	index->bin_count = plan->bin_count;
	index->bins = g_new0(uint64_t, plan->bin_count);
	index->lost_bins = g_new0(uint64_t, plan->bin_count);
	for (unsigned i = 0; i < worker_count; i++) {
		const struct tn_index_worker *w = &workers[i];

		if (w->count > 0 && index->event_count == 0)
			index->first_event_ns = w->first_ns;
		if (w->count > 0)
			index->last_event_ns = w->last_ns;
		index->event_count += w->count;
		index->discarded_events += w->discarded;
		for (size_t k = 0; k < plan->bin_count; k++) {
			index->bins[k] += w->bins[k];
			index->lost_bins[k] += w->lost_bins[k];
		}
	}
	stitch_checkpoints(workers, worker_count, index);
	stitch_classes(workers, worker_count, index);
	stitch_sources(workers, worker_count, index);
	if (index->checkpoint_count > 0) {
		stitch_intervals(workers, worker_count,
			offsetof(struct tn_index_worker, names), class_of,
			index, &index->interval_class_start,
			&index->interval_classes);
		stitch_intervals(workers, worker_count,
			offsetof(struct tn_index_worker, sources), source_of,
			index, &index->interval_source_start,
			&index->interval_sources);
		stitch_lost(workers, worker_count, index);
	}
	/* Only a single worker reads every packet of the trace. */
	if (worker_count == 1 && workers[0].packets) {
		index->packet_tables = workers[0].packets;
		workers[0].packets = NULL;
	} else {
		index->packet_tables = tn_packets_create();
	}
	return index;
}

