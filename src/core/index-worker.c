/* index-worker.c - one worker of the index build (see index-worker.h).
 *
 * A worker reads its slice with a plain reader on a sliced view of the
 * trace (slice.h), never sharing a libbabeltrace2 object, and cuts the
 * slice itself rather than through the trimmer: the trimmer clips a
 * discarded-events notice that spans a bound and drops its count, so the
 * counts of the slices would not add up.  A notice belongs to the slice
 * holding its beginning, the time the muxer orders it by.
 */
#include <glib.h>
#include <string.h>

#include "tracenav/index.h"
#include "tracenav/reader.h"
#include "bt-util.h"
#include "index-worker.h"
#include "packets-collect.h"
#include "reader-private.h"
#include "slice.h"
#include "trace-private.h"

/* Workers publish progress and look for a stop request this often. */
#define CHECK_EVERY 256
/* How often the bins are copied for a histogram drawn meanwhile
 * (events; a multiple of CHECK_EVERY). */
#define SHOW_BINS_EVERY 65536

void tn_index_worker_init(struct tn_index_worker *w,
		const struct tn_index_plan *plan, unsigned i, unsigned count)
{
	uint64_t span = plan->has_range ?
		(uint64_t) plan->end_ns - (uint64_t) plan->begin_ns : 0;
	uint64_t step = span / count;

	memset(w, 0, sizeof(*w));
	w->plan = plan;
	w->open_begin = i == 0;
	w->open_end = i == count - 1;
	w->begin = w->open_begin ? INT64_MIN :
		(int64_t) ((uint64_t) plan->begin_ns + i * step);
	w->end = w->open_end ? INT64_MAX :
		(int64_t) ((uint64_t) plan->begin_ns + (i + 1) * step - 1);
	atomic_init(&w->events_read, 0);
	atomic_init(&w->reached_ns, w->open_begin ? plan->begin_ns : w->begin);
	atomic_init(&w->finished, false);
	w->checkpoints = g_array_new(FALSE, FALSE,
		sizeof(struct tn_checkpoint));
	w->class_counts = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	w->interval_starts = g_array_new(FALSE, FALSE, sizeof(size_t));
	w->interval_entries = g_array_new(FALSE, FALSE,
		sizeof(struct tn_interval_class));
	w->interval_names = g_ptr_array_new_with_free_func(g_free);
	w->bins = g_new0(uint64_t, plan->bin_count);
	w->lost_bins = g_new0(uint64_t, plan->bin_count);
	pthread_mutex_init(&w->shown_lock, NULL);
	w->shown_bins = g_new0(uint64_t, plan->bin_count);
}

void tn_index_worker_fini(struct tn_index_worker *w)
{
	g_array_free(w->checkpoints, TRUE);
	g_hash_table_destroy(w->class_counts);
	g_array_free(w->interval_starts, TRUE);
	g_array_free(w->interval_entries, TRUE);
	g_ptr_array_free(w->interval_names, TRUE);
	g_free(w->bins);
	g_free(w->lost_bins);
	pthread_mutex_destroy(&w->shown_lock);
	g_free(w->shown_bins);
	tn_packets_destroy(w->packets);
	w->packets = NULL;
}

/* ---- reading the slice ---- */

struct slice_read {
	struct tn_slice *slice;
	struct tn_reader *reader;
	bool has_last;		/* time and tie of the last event kept */
	int64_t last_ns;
	uint64_t last_tie;
	bool has_seen;		/* time of the last event, kept or not */
	int64_t seen_ns;
};

static int open_slice_read_once(const struct tn_index_worker *w,
		struct slice_read *read, struct tn_error *err)
{
	const struct tn_trace *trace = w->plan->trace;
	struct tn_error slice_err;

	memset(read, 0, sizeof(*read));
	/* The reader the trace opened, when still there, saves a graph. */
	if (w->open_begin && (read->reader = tn_trace_take_start_reader(trace)))
		return 0;
	/* Without a slice (a packet index went bad since the planning) the
	 * worker reads from the start and drops what precedes its slice:
	 * slow, but right. */
	if (!w->open_begin)
		(void) tn_slice_create(trace, w->begin,
			TN_SLICE_KEEP_PREVIOUS, &read->slice, &slice_err);
	if (tn_reader_create_on_dirs(trace, NULL, read->slice ?
			tn_slice_borrow_dirs(read->slice) : NULL, &read->reader,
			err)) {
		tn_slice_destroy(read->slice);
		return -1;
	}
	return 0;
}

/* The same, again when a repaired stream file grew between the slice
 * and its reader (see open_walk() in seek.c). */
static int open_slice_read(const struct tn_index_worker *w,
		struct slice_read *read, struct tn_error *err)
{
	const struct tn_trace *trace = w->plan->trace;

	for (int tries = 1;; tries++) {
		uint64_t generation = tn_trace_get_read_generation(trace);
		int status = open_slice_read_once(w, read, err);

		if (status == 0 || tries == 3)
			return status;
		/* Did a repaired file grow meanwhile? */
		tn_trace_refresh_read_dirs(trace);
		if (tn_trace_get_read_generation(trace) == generation)
			return status;
	}
}

static void close_slice_read(struct slice_read *read)
{
	tn_reader_destroy(read->reader);
	tn_slice_destroy(read->slice);
}

static bool in_slice(const struct tn_index_worker *w, int64_t ns)
{
	return (w->open_begin || ns >= w->begin) && (w->open_end || ns <= w->end);
}

static size_t bin_of(const struct tn_index_plan *plan, int64_t ns)
{
	uint64_t offset;

	if (ns <= plan->begin_ns)
		return 0;
	if (ns >= plan->end_ns)
		return plan->bin_count - 1;
	offset = (uint64_t) ns - (uint64_t) plan->begin_ns;
	return (size_t) (offset / plan->bin_width);
}

/* ---- counts by event class ---- */

/* Keyed by the class name as libbabeltrace2 owns it (one pointer per
 * class).  Copied into the worker's table by content before the reader,
 * and the names, go.  A direct-mapped memo in front of the hash table
 * spares most events the hashing. */
#define CLASS_MEMO_SLOTS 64

struct class_tally {
	const char *name;	/* libbabeltrace2's */
	uint64_t count;
	uint32_t id;		/* in the worker's interval_names */
	uint32_t in_interval;	/* events in the current interval */
};

struct class_counter {
	struct tn_index_worker *w;
	GHashTable *by_pointer;	/* tn_bt_address_key(name) -> tally */
	struct class_tally *memo[CLASS_MEMO_SLOTS];
	GPtrArray *touched;	/* tallies seen in the current interval */
};

static void tally_event(struct class_counter *counter,
		struct class_tally *tally)
{
	tally->count++;
	if (tally->in_interval++ == 0)
		g_ptr_array_add(counter->touched, tally);
}

static void count_class(struct class_counter *counter, const char *name)
{
	size_t slot = ((uintptr_t) name >> 4) % CLASS_MEMO_SLOTS;
	struct class_tally *tally = counter->memo[slot];

	if (tally && tally->name == name) {
		tally_event(counter, tally);
		return;
	}
	tally = g_hash_table_lookup(counter->by_pointer,
		tn_bt_address_key(name));
	if (!tally) {
		tally = g_new0(struct class_tally, 1);
		tally->name = name;
		tally->id = counter->w->interval_names->len;
		g_ptr_array_add(counter->w->interval_names, g_strdup(name));
		g_hash_table_insert(counter->by_pointer,
			tn_bt_address_key(name), tally);
	}
	counter->memo[slot] = tally;
	tally_event(counter, tally);
}

/* The current interval ends: keep its names and counts. */
static void close_interval(struct tn_index_worker *w,
		struct class_counter *counter)
{
	for (guint i = 0; i < counter->touched->len; i++) {
		struct class_tally *tally = g_ptr_array_index(counter->touched,
			i);
		struct tn_interval_class entry = { tally->id,
			tally->in_interval };

		g_array_append_val(w->interval_entries, entry);
		tally->in_interval = 0;
	}
	g_ptr_array_set_size(counter->touched, 0);
}

static void add_class_count(GHashTable *by_name, const char *name,
		uint64_t count)
{
	uint64_t *total = g_hash_table_lookup(by_name, name);

	if (!total) {
		total = g_new0(uint64_t, 1);
		g_hash_table_insert(by_name, g_strdup(name), total);
	}
	*total += count;
}

static void keep_class_counts(struct tn_index_worker *w,
		struct class_counter *counter)
{
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, counter->by_pointer);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		const struct class_tally *tally = value;

		add_class_count(w->class_counts, tally->name, tally->count);
	}
}

void tn_index_worker_add_class_counts(const struct tn_index_worker *w,
		GHashTable *totals)
{
	GHashTableIter iter;
	gpointer name, count;

	g_hash_table_iter_init(&iter, w->class_counts);
	while (g_hash_table_iter_next(&iter, &name, &count))
		add_class_count(totals, name, *(const uint64_t *) count);
}

/* ---- one item ---- */

/* The position of an event kept in the slice: ties are numbered as in a
 * full read since every event at the slice's first time is in it. */
static struct tn_position next_position(struct slice_read *read, int64_t ns)
{
	struct tn_position pos = { ns, 0 };

	if (read->has_last && read->last_ns == ns)
		pos.tie = read->last_tie + 1;
	read->has_last = true;
	read->last_ns = ns;
	read->last_tie = pos.tie;
	return pos;
}

static void record_event(struct tn_index_worker *w,
		struct class_counter *counter, const struct tn_event *ev,
		const struct tn_position *pos)
{
	if (w->count % TN_INDEX_INTERVAL == 0) {
		struct tn_checkpoint checkpoint = { w->count, *pos };
		size_t start;

		g_array_append_val(w->checkpoints, checkpoint);
		close_interval(w, counter);
		start = w->interval_entries->len;
		g_array_append_val(w->interval_starts, start);
	}
	if (w->count == 0)
		w->first_ns = pos->ns;
	w->last_ns = pos->ns;
	count_class(counter, tn_event_get_name(ev));
	if (w->plan->bin_count)
		w->bins[bin_of(w->plan, pos->ns)]++;
	w->count++;
}

/* A discarded-events notice counts in the slice holding its beginning;
 * one without a time, in the slice of the event read before it (before
 * any, it comes from the packets read ahead of the slice). */
static void record_notice(struct tn_index_worker *w,
		const struct slice_read *read, const struct tn_event *ev)
{
	uint64_t count;
	int64_t ns = ev->has_ns ? ev->ns : read->has_seen ? read->seen_ns :
		w->open_begin ? INT64_MIN : w->begin - 1;

	if (ev->kind == TN_EVENT_KIND_DISCARDED_EVENTS && in_slice(w, ns) &&
	    tn_event_get_discarded_count(ev, &count)) {
		w->discarded += count;
		if (ev->has_ns && w->plan->bin_count)
			w->lost_bins[bin_of(w->plan, ev->ns)] += count;
	}
}

static void publish_bins(struct tn_index_worker *w)
{
	if (!w->plan->bin_count)
		return;		/* no bins: both are NULL */
	pthread_mutex_lock(&w->shown_lock);
	memcpy(w->shown_bins, w->bins, w->plan->bin_count * sizeof(*w->bins));
	pthread_mutex_unlock(&w->shown_lock);
}

void tn_index_worker_add_shown_bins(struct tn_index_worker *w,
		uint64_t *bins)
{
	pthread_mutex_lock(&w->shown_lock);
	for (size_t k = 0; k < w->plan->bin_count; k++)
		bins[k] += w->shown_bins[k];
	pthread_mutex_unlock(&w->shown_lock);
}

static void publish_progress(struct tn_index_worker *w, int64_t ns)
{
	atomic_store(&w->events_read, w->count);
	atomic_store(&w->reached_ns, ns);
	if (w->count % SHOW_BINS_EVERY == 0)
		publish_bins(w);
}

/* Handle one item of the slice's reader.  Returns false once past the
 * slice: the muxer gives items in time order, so no later one is in it. */
static bool take_item(struct tn_index_worker *w, struct slice_read *read,
		struct class_counter *counter, const struct tn_event *ev)
{
	struct tn_position pos;

	if (ev->kind != TN_EVENT_KIND_EVENT) {
		record_notice(w, read, ev);
		return true;
	}
	read->has_seen = true;
	read->seen_ns = ev->ns;
	if (!w->open_end && ev->ns > w->end)
		return false;
	if (!w->open_begin && ev->ns < w->begin)
		return true;
	pos = next_position(read, ev->ns);
	record_event(w, counter, ev, &pos);
	if (w->count % CHECK_EVERY == 0)
		publish_progress(w, ev->ns);
	return true;
}

/* A message tn_reader_next() gives: it would skip what follows one
 * that it does not give, packet bounds included. */
static bool is_item(const bt_message *msg)
{
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		return true;
	default:
		return false;
	}
}

/* The next item, giving the packet bounds (and the events) on the way
 * to collector when it is not NULL. */
static enum tn_reader_status next_item(struct tn_reader *reader,
		struct tn_packets_collector *collector, struct tn_event *ev,
		struct tn_error *err)
{
	const bt_message *msg;
	enum tn_reader_status status;

	if (!collector)
		return tn_reader_next(reader, ev, err);
	while ((status = tn_reader_next_message(reader, &msg, err)) ==
			TN_READER_OK) {
		if (is_item(msg)) {
			if (bt_message_get_type(msg) == BT_MESSAGE_TYPE_EVENT)
				tn_packets_collector_add(collector, msg);
			tn_reader_push_back(reader, msg);
			return tn_reader_next(reader, ev, err);
		}
		tn_packets_collector_add(collector, msg);
		bt_message_put_ref(msg);
	}
	return status;
}

int tn_index_worker_run(struct tn_index_worker *w,
		bool (*stop)(const void *stop_data), const void *stop_data,
		struct tn_error *err)
{
	struct class_counter counter = { w, NULL, { NULL }, NULL };
	struct tn_packets_collector *collector = NULL;
	struct slice_read read;
	enum tn_reader_status status;
	struct tn_event ev;
	uint64_t items = 0;
	bool stopped = false;

	if (open_slice_read(w, &read, err)) {
		atomic_store(&w->finished, true);
		return -1;
	}
	/* Only a worker reading the whole trace sees every packet. */
	if (w->open_begin && w->open_end)
		collector = tn_packets_collector_create();
	counter.by_pointer = g_hash_table_new_full(g_direct_hash,
		g_direct_equal, NULL, g_free);
	counter.touched = g_ptr_array_new();
	while ((status = next_item(read.reader, collector, &ev, err)) ==
			TN_READER_OK) {
		bool more = take_item(w, &read, &counter, &ev);

		tn_event_release(&ev);
		if (!more)
			break;
		if (++items % CHECK_EVERY == 0 && stop(stop_data)) {
			stopped = true;
			break;
		}
	}
	if (collector && status != TN_READER_ERROR && !stopped) {
		w->packets = tn_packets_create();
		tn_packets_collector_finish(collector, w->packets);
	}
	tn_packets_collector_destroy(collector);
	close_interval(w, &counter);
	keep_class_counts(w, &counter);
	g_ptr_array_free(counter.touched, TRUE);
	g_hash_table_destroy(counter.by_pointer);
	close_slice_read(&read);
	publish_bins(w);
	atomic_store(&w->events_read, w->count);
	atomic_store(&w->finished, true);
	return status == TN_READER_ERROR ? -1 : 0;
}
