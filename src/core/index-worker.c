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

#include "pointer-hash.h"
#include "tracenav/index.h"
#include "tracenav/reader.h"
#include "bt-util.h"
#include "index-sources.h"
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

static void free_source(gpointer data)
{
	struct tn_index_source *source = data;

	g_free(source->trace);
	g_free(source);
}

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
	tn_index_tallies_init(&w->names, g_free);
	tn_index_tallies_init(&w->sources, free_source);
	w->interval_lost = g_array_new(FALSE, TRUE, sizeof(uint64_t));
	w->bins = g_new0(uint64_t, plan->bin_count);
	w->lost_bins = g_new0(uint64_t, plan->bin_count);
	pthread_mutex_init(&w->shown_lock, NULL);
	w->shown_bins = g_new0(uint64_t, plan->bin_count);
}

static void drop_take(struct tn_index_worker *w);

void tn_index_worker_fini(struct tn_index_worker *w)
{
	drop_take(w);
	g_array_free(w->checkpoints, TRUE);
	tn_index_tallies_fini(&w->names);
	tn_index_tallies_fini(&w->sources);
	g_array_free(w->interval_lost, TRUE);
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

/* ---- counts by event class and source ---- */

/* Keyed by the class name as libbabeltrace2 owns it (one pointer per
 * class), the worker's own copy of the name being the tally's key.  A
 * direct-mapped memo in front of the hash table spares most events the
 * hashing. */
#define CLASS_MEMO_SLOTS 64

struct class_memo {
	const char *name;	/* libbabeltrace2's */
	struct tn_index_tally *tally;
};

struct counter {
	struct tn_index_worker *w;
	GHashTable *by_pointer;	/* tn_bt_address_key(name) -> tally */
	struct class_memo memo[CLASS_MEMO_SLOTS];
	/* The sources: the memo gives a tally's id, found on a miss in
	 * by_source (struct tn_index_source * -> tally). */
	struct tn_source_memo source_memo;
	GHashTable *by_source;
};

static void count_class(struct counter *counter, const char *name)
{
	size_t slot = tn_pointer_slot(name, CLASS_MEMO_SLOTS);
	struct class_memo *memo = &counter->memo[slot];
	struct tn_index_tally *tally;

	if (memo->name != name) {
		tally = g_hash_table_lookup(counter->by_pointer,
			tn_bt_address_key(name));
		if (!tally) {
			tally = tn_index_tallies_add(&counter->w->names,
				g_strdup(name));
			g_hash_table_insert(counter->by_pointer,
				tn_bt_address_key(name), tally);
		}
		memo->name = name;
		memo->tally = tally;
	}
	tn_index_tallies_count(&counter->w->names, memo->tally);
}

static guint hash_source(gconstpointer data)
{
	const struct tn_index_source *source = data;

	return g_str_hash(source->trace) ^
		(guint) (source->stream_class_id * 31 + source->stream_id *
			1009 + (uint64_t) source->cpu * 65537);
}

static gboolean equal_sources(gconstpointer a, gconstpointer b)
{
	return tn_index_source_compare(a, b) == 0;
}

/* A source not in the memo: its tally (a new one the first time). */
static long source_tally(void *data, const struct tn_index_source *source)
{
	struct counter *counter = data;
	struct tn_index_tally *tally = g_hash_table_lookup(counter->by_source,
		source);

	if (!tally) {
		struct tn_index_source *key = g_memdup2(source,
			sizeof(*source));

		key->trace = g_strdup(source->trace);
		tally = tn_index_tallies_add(&counter->w->sources, key);
		g_hash_table_insert(counter->by_source, key, tally);
	}
	return (long) tally->id;
}

static void count_source(struct counter *counter, const struct tn_event *ev)
{
	long id = tn_source_memo_lookup(&counter->source_memo, ev,
		source_tally, counter);

	tn_index_tallies_count(&counter->w->sources,
		g_ptr_array_index(counter->w->sources.tallies, id));
}

static void counter_init(struct counter *counter, struct tn_index_worker *w)
{
	memset(counter, 0, sizeof(*counter));
	counter->w = w;
	counter->by_pointer = g_hash_table_new(g_direct_hash, g_direct_equal);
	/* Keys and tallies are the worker's. */
	counter->by_source = g_hash_table_new(hash_source, equal_sources);
}

static void counter_fini(struct counter *counter)
{
	g_hash_table_destroy(counter->by_pointer);
	g_hash_table_destroy(counter->by_source);
}

/* The current interval ends, another one begins. */
static void next_interval(struct tn_index_worker *w)
{
	uint64_t none = 0;

	tn_index_tallies_next_interval(&w->names);
	tn_index_tallies_next_interval(&w->sources);
	g_array_append_val(w->interval_lost, none);
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
		struct counter *counter, const struct tn_event *ev,
		const struct tn_position *pos)
{
	if (w->count % TN_INDEX_INTERVAL == 0) {
		struct tn_checkpoint checkpoint = { w->count, *pos };

		g_array_append_val(w->checkpoints, checkpoint);
		next_interval(w);
	}
	if (w->count == 0)
		w->first_ns = pos->ns;
	w->last_ns = pos->ns;
	count_class(counter, tn_event_get_name(ev));
	count_source(counter, ev);
	if (w->lost_pending) {
		g_array_index(w->interval_lost, uint64_t,
			w->interval_lost->len - 1) += w->lost_pending;
		w->lost_pending = 0;
	}
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
		w->lost_pending += count;
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
		struct counter *counter, const struct tn_event *ev)
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

/* What a worker keeps while it takes items: its counters and the
 * last positions. */
struct tn_index_take {
	struct counter counter;
	struct slice_read read;
};

static void drop_take(struct tn_index_worker *w)
{
	if (w->take)
		counter_fini(&w->take->counter);
	g_clear_pointer(&w->take, g_free);
}

void tn_index_worker_begin(struct tn_index_worker *w)
{
	w->take = g_new0(struct tn_index_take, 1);
	counter_init(&w->take->counter, w);
}

bool tn_index_worker_take(struct tn_index_worker *w, const struct tn_event *ev)
{
	struct tn_index_take *take = w->take;

	return take_item(w, &take->read, &take->counter, ev);
}

void tn_index_worker_end(struct tn_index_worker *w,
		struct tn_packet_tables *packets)
{
	w->packets = packets;
	tn_index_tallies_close(&w->names);
	tn_index_tallies_close(&w->sources);
	drop_take(w);
	publish_bins(w);
	atomic_store(&w->events_read, w->count);
	atomic_store(&w->finished, true);
}

int tn_index_worker_run(struct tn_index_worker *w,
		bool (*stop)(const void *stop_data), const void *stop_data,
		struct tn_error *err)
{
	struct tn_packets_collector *collector = NULL;
	struct tn_packet_tables *packets = NULL;
	enum tn_reader_status status;
	struct tn_event ev;
	uint64_t items = 0;
	bool stopped = false;

	tn_index_worker_begin(w);
	if (open_slice_read(w, &w->take->read, err)) {
		tn_index_worker_end(w, NULL);
		return -1;
	}
	/* Only a worker reading the whole trace sees every packet. */
	if (w->open_begin && w->open_end)
		collector = tn_packets_collector_create();
	while ((status = tn_packets_collector_next_item(w->take->read.reader,
			collector, &ev, err)) == TN_READER_OK) {
		bool more = tn_index_worker_take(w, &ev);

		tn_event_release(&ev);
		if (!more)
			break;
		if (++items % CHECK_EVERY == 0 && stop(stop_data)) {
			stopped = true;
			break;
		}
	}
	if (collector && status != TN_READER_ERROR && !stopped) {
		packets = tn_packets_create();
		tn_packets_collector_finish(collector, packets);
	}
	tn_packets_collector_destroy(collector);
	close_slice_read(&w->take->read);
	tn_index_worker_end(w, packets);
	return status == TN_READER_ERROR ? -1 : 0;
}
