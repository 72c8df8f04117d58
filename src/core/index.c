/* index.c - the checkpoint index, built by reading the trace once with
 * worker threads that each read one time slice.
 *
 * The trace's time range is cut into contiguous slices [t_i, t_{i+1} - 1].
 * Every event with timestamp t_i falls in slice i, so a read of a slice
 * numbers ties exactly as a full read does, and the rank of an event is
 * the number of events of the earlier slices plus its rank in its slice.
 * Each worker opens its own reader (its own libbabeltrace2 graph) on a
 * sliced view of the trace (slice.h) and keeps only counts, bins and a
 * checkpoint every TN_INDEX_INTERVAL events; the last worker to finish
 * stitches them into the index.
 */
#include <dirent.h>
#include <glib.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader-private.h"
#include "slice.h"
#include "trace-private.h"
#include "tracenav/reader.h"
#include "tracenav/index.h"

#define MAX_WORKERS 8
/* Workers when the caller leaves it to us: each maps about 30 MB of
 * trace pages while it reads, so more cores than this would take the
 * peak RSS of a preparse past 100 MB for little gain. */
#define DEFAULT_MAX_WORKERS 3
#define BIN_COUNT 1024
/* Workers publish progress and look for a cancel request this often. */
#define CHECK_EVERY 256
/* Below this many bytes of stream files, opening more graphs costs more
 * than it saves. */
#define TINY_TRACE_BYTES (1 << 20)

enum indexer_state {
	STATE_RUNNING,
	STATE_DONE,
	STATE_FAILED,
	STATE_CANCELLED,
};

struct worker {
	struct tn_indexer *indexer;
	GThread *thread;
	/* The slice: [begin, end]; open ends read from the trace's start
	 * or to its end. */
	int64_t begin, end;
	bool open_begin, open_end;
	/* Progress, read by any thread. */
	_Atomic uint64_t events_read;
	_Atomic int64_t reached_ns;
	atomic_bool finished;
	/* Results, touched by the worker only until it finishes. */
	uint64_t count;
	uint64_t discarded;
	GArray *checkpoints;	/* struct tn_checkpoint, local ranks */
	GHashTable *class_counts;	/* copied name -> uint64_t * */
	uint64_t *bins;
	/* Packets of the stream files without a packet index, when the
	 * worker reads the whole trace: struct tn_packet_table. */
	GArray *packet_tables;
};

struct tn_indexer {
	const struct tn_trace *trace;
	bool has_range;
	int64_t begin_ns, end_ns;
	size_t bin_count;
	uint64_t bin_width;
	unsigned worker_count;
	struct worker *workers;
	atomic_bool stop;	/* cancel requested, or a worker failed */
	atomic_uint remaining;	/* workers still reading */
	gint64 start_us;

	GMutex lock;		/* guards what follows */
	GCond ended;
	enum indexer_state state;
	gint64 end_us;
	char message[TN_ERROR_MAX];	/* the first failure */
	struct tn_index *index;	/* until taken */
};

/* ---- the index ---- */

void tn_index_destroy(struct tn_index *index)
{
	if (!index)
		return;
	for (size_t i = 0; i < index->class_count; i++)
		g_free(index->classes[i].name);
	g_free(index->classes);
	g_free(index->checkpoints);
	g_free(index->bins);
	for (size_t i = 0; i < index->packet_table_count; i++) {
		g_free(index->packet_tables[i].file);
		g_free(index->packet_tables[i].begin_ns);
		g_free(index->packet_tables[i].end_ns);
	}
	g_free(index->packet_tables);
	g_free(index);
}

const struct tn_checkpoint *tn_index_checkpoint_for_rank(
		const struct tn_index *index, uint64_t rank)
{
	size_t low = 0, high = index->checkpoint_count;

	/* The first checkpoint whose rank is > rank is at `low`. */
	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (index->checkpoints[mid].rank <= rank)
			low = mid + 1;
		else
			high = mid;
	}
	return low ? &index->checkpoints[low - 1] : NULL;
}

const struct tn_checkpoint *tn_index_checkpoint_for_position(
		const struct tn_index *index, const struct tn_position *pos)
{
	size_t low = 0, high = index->checkpoint_count;

	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (tn_position_compare(&index->checkpoints[mid].pos, pos) <= 0)
			low = mid + 1;
		else
			high = mid;
	}
	return low ? &index->checkpoints[low - 1] : NULL;
}

/* ---- planning the slices ---- */

/* Bytes of the stream files of the trace (every file of its directories
 * but the metadata), to tell a tiny trace. */
static uint64_t stream_bytes(const struct tn_trace *trace)
{
	uint64_t total = 0;

	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++) {
		const char *dir_path = tn_trace_get_dir(trace, i);
		DIR *dir = opendir(dir_path);
		struct dirent *entry;

		while (dir && (entry = readdir(dir))) {
			struct stat st;

			if (strcmp(entry->d_name, "metadata") == 0 ||
			    fstatat(dirfd(dir), entry->d_name, &st, 0) ||
			    !S_ISREG(st.st_mode))
				continue;
			total += (uint64_t) st.st_size;
		}
		if (dir)
			closedir(dir);
	}
	return total;
}

/* Slices read in parallel only if a walk can start in the middle of the
 * trace without reading what precedes (the trace has packet indexes);
 * otherwise every worker would read from the start. */
static bool can_slice_at(const struct tn_trace *trace, int64_t ns)
{
	struct tn_slice *slice;
	struct tn_error err;

	/* Not from packet tables: only a single worker collects them. */
	if (tn_slice_create_from_index_files(trace, ns, &slice, &err))
		return false;
	tn_slice_destroy(slice);
	return true;
}

static unsigned choose_worker_count(const struct tn_indexer *indexer,
		unsigned requested)
{
	unsigned count = requested ? requested :
		MIN(g_get_num_processors(), DEFAULT_MAX_WORKERS);
	uint64_t span;

	if (count > MAX_WORKERS)
		count = MAX_WORKERS;
	if (count <= 1 || !indexer->has_range)
		return 1;
	span = (uint64_t) indexer->end_ns - (uint64_t) indexer->begin_ns;
	if (span < count || stream_bytes(indexer->trace) < TINY_TRACE_BYTES)
		return 1;
	if (!can_slice_at(indexer->trace,
			indexer->begin_ns + (int64_t) (span / count)))
		return 1;
	return count;
}

/* Slice i starts at begin + i * (span / count): every slice holds at
 * least one nanosecond since span >= count. */
static void plan_slices(struct tn_indexer *indexer)
{
	unsigned count = indexer->worker_count;
	uint64_t span = indexer->has_range ?
		(uint64_t) indexer->end_ns - (uint64_t) indexer->begin_ns : 0;
	uint64_t step = span / count;

	for (unsigned i = 0; i < count; i++) {
		struct worker *w = &indexer->workers[i];

		w->indexer = indexer;
		w->open_begin = i == 0;
		w->open_end = i == count - 1;
		w->begin = w->open_begin ? INT64_MIN :
			(int64_t) ((uint64_t) indexer->begin_ns + i * step);
		w->end = w->open_end ? INT64_MAX :
			(int64_t) ((uint64_t) indexer->begin_ns +
				(i + 1) * step - 1);
		atomic_init(&w->events_read, 0);
		atomic_init(&w->reached_ns, w->open_begin ?
			indexer->begin_ns : w->begin);
		atomic_init(&w->finished, false);
		w->checkpoints = g_array_new(FALSE, FALSE,
			sizeof(struct tn_checkpoint));
		w->class_counts = g_hash_table_new_full(g_str_hash,
			g_str_equal, g_free, g_free);
		w->bins = g_new0(uint64_t, indexer->bin_count);
		w->packet_tables = g_array_new(FALSE, TRUE,
			sizeof(struct tn_packet_table));
	}
}

/* ---- the workers ---- */

/* A worker reads its slice with a plain reader and cuts the slice itself
 * rather than through the walk's trimmer: the trimmer clips a
 * discarded-events notice that spans a bound and drops its count, so
 * the counts of the slices would not add up.  A notice belongs to the
 * slice holding its beginning, the time the muxer orders it by. */
struct slice_read {
	struct tn_slice *slice;
	struct tn_reader *reader;
	bool has_last;		/* time and tie of the last event kept */
	int64_t last_ns;
	uint64_t last_tie;
	bool has_seen;		/* time of the last event, kept or not */
	int64_t seen_ns;
};

static int open_slice_read(const struct worker *w, struct slice_read *read,
		struct tn_error *err)
{
	const struct tn_trace *trace = w->indexer->trace;
	struct tn_reader_options options = { 0 };
	struct tn_error slice_err;

	memset(read, 0, sizeof(*read));
	/* The reader the trace opened, when still there, saves a graph. */
	if (w->open_begin && (read->reader = tn_trace_take_start_reader(trace)))
		return 0;
	/* Without a slice (a packet index went bad since the planning) the
	 * worker reads from the start and drops what precedes its slice:
	 * slow, but right. */
	if (!w->open_begin &&
	    tn_slice_create(trace, w->begin, &read->slice, &slice_err) == 0)
		options.slice = read->slice;
	if (tn_reader_create(trace, &options, &read->reader, err)) {
		tn_slice_destroy(read->slice);
		return -1;
	}
	return 0;
}

static void close_slice_read(struct slice_read *read)
{
	tn_reader_destroy(read->reader);
	tn_slice_destroy(read->slice);
}

static bool in_slice(const struct worker *w, int64_t ns)
{
	return (w->open_begin || ns >= w->begin) && (w->open_end || ns <= w->end);
}

static size_t bin_of(const struct tn_indexer *indexer, int64_t ns)
{
	uint64_t offset;

	if (ns <= indexer->begin_ns)
		return 0;
	if (ns >= indexer->end_ns)
		return indexer->bin_count - 1;
	offset = (uint64_t) ns - (uint64_t) indexer->begin_ns;
	return (size_t) (offset / indexer->bin_width);
}

/* Counts by event class, keyed by the class name as libbabeltrace2 owns
 * it (one pointer per class).  Copied into the worker's table by content
 * before the reader, and the names, go.  A direct-mapped memo in front
 * of the hash table spares most events the hashing. */
#define CLASS_MEMO_SLOTS 64

struct class_counter {
	GHashTable *by_pointer;	/* name -> uint64_t * */
	struct {
		const char *name;
		uint64_t *count;
	} memo[CLASS_MEMO_SLOTS];
};

static void count_class(struct class_counter *counter, const char *name)
{
	size_t slot = ((uintptr_t) name >> 4) % CLASS_MEMO_SLOTS;
	uint64_t *count;

	if (counter->memo[slot].name == name) {
		(*counter->memo[slot].count)++;
		return;
	}
	count = g_hash_table_lookup(counter->by_pointer, name);
	if (!count) {
		count = g_new0(uint64_t, 1);
		g_hash_table_insert(counter->by_pointer, (gpointer) name,
			count);
	}
	counter->memo[slot].name = name;
	counter->memo[slot].count = count;
	(*count)++;
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

static void copy_class_counts(GHashTable *by_pointer, GHashTable *by_name)
{
	GHashTableIter iter;
	gpointer name, count;

	g_hash_table_iter_init(&iter, by_pointer);
	while (g_hash_table_iter_next(&iter, &name, &count))
		add_class_count(by_name, name, *(uint64_t *) count);
}

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

static void record_event(struct worker *w, struct class_counter *counter,
		const struct tn_event *ev, const struct tn_position *pos)
{
	struct tn_indexer *indexer = w->indexer;

	if (w->count % TN_INDEX_INTERVAL == 0) {
		struct tn_checkpoint checkpoint = { w->count, *pos };

		g_array_append_val(w->checkpoints, checkpoint);
	}
	count_class(counter, tn_event_get_name(ev));
	if (indexer->bin_count)
		w->bins[bin_of(indexer, pos->ns)]++;
	w->count++;
}

/* A discarded-events notice counts in the slice holding its beginning;
 * one without a time, in the slice of the event read before it (before
 * any, it comes from the packets read ahead of the slice). */
static void record_notice(struct worker *w, const struct slice_read *read,
		const struct tn_event *ev)
{
	uint64_t count;
	int64_t ns = ev->has_ns ? ev->ns : read->has_seen ? read->seen_ns :
		w->open_begin ? INT64_MIN : w->begin - 1;

	if (ev->kind == TN_EVENT_KIND_DISCARDED_EVENTS && in_slice(w, ns) &&
	    tn_event_get_discarded_count(ev, &count))
		w->discarded += count;
}

static void publish_progress(struct worker *w, int64_t ns)
{
	atomic_store(&w->events_read, w->count);
	atomic_store(&w->reached_ns, ns);
}

/* Handle one item of the slice's reader.  Returns false once past the
 * slice: the muxer gives items in time order, so no later one is in it. */
static bool take_item(struct worker *w, struct slice_read *read,
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

/* ---- packet tables ---- */

/* The packets of one stream as the worker reads them. */
struct stream_packets {
	char *file;		/* real path; NULL: not collected */
	GArray *begin_ns, *end_ns;	/* int64_t */
};

static void stream_packets_free(gpointer data)
{
	struct stream_packets *packets = data;

	g_free(packets->file);
	g_array_free(packets->begin_ns, TRUE);
	g_array_free(packets->end_ns, TRUE);
	g_free(packets);
}

static bool has_index_file(const char *file)
{
	char *dir = g_path_get_dirname(file);
	char *base = g_path_get_basename(file);
	char *idx = g_strdup_printf("%s/index/%s.idx", dir, base);
	bool exists = g_file_test(idx, G_FILE_TEST_EXISTS);

	g_free(dir);
	g_free(base);
	g_free(idx);
	return exists;
}

/* A stream's packets are worth collecting when both packet bounds have
 * a time and its file (src.ctf.fs names a stream after it) has no
 * packet index. */
static char *collectable_file(const bt_stream *stream)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(stream);
	const char *name = bt_stream_get_name(stream);
	char *file;

	if (!name || !bt_stream_class_borrow_default_clock_class_const(sc) ||
	    !bt_stream_class_packets_have_beginning_default_clock_snapshot(sc) ||
	    !bt_stream_class_packets_have_end_default_clock_snapshot(sc))
		return NULL;
	file = realpath(name, NULL);
	if (file && has_index_file(file)) {
		free(file);
		return NULL;
	}
	return file;
}

static struct stream_packets *packets_of(GHashTable *streams,
		const bt_stream *stream)
{
	struct stream_packets *packets = g_hash_table_lookup(streams, stream);
	char *file;

	if (packets)
		return packets;
	packets = g_new0(struct stream_packets, 1);
	packets->begin_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
	packets->end_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
	if ((file = collectable_file(stream))) {
		packets->file = g_strdup(file);
		free(file);
	}
	g_hash_table_insert(streams, (gpointer) stream, packets);
	return packets;
}

static void add_packet_time(struct stream_packets *packets, GArray *times,
		const bt_clock_snapshot *snapshot)
{
	int64_t ns;

	if (!packets->file)
		return;
	if (bt_clock_snapshot_get_ns_from_origin(snapshot, &ns) !=
			BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK) {
		g_clear_pointer(&packets->file, g_free);	/* give up */
		return;
	}
	g_array_append_val(times, ns);
}

/* Record msg if it begins or ends a packet. */
static void collect_packet(GHashTable *streams, const bt_message *msg)
{
	struct stream_packets *packets;
	const bt_packet *packet;

	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		packet = bt_message_packet_beginning_borrow_packet_const(msg);
		packets = packets_of(streams,
			bt_packet_borrow_stream_const(packet));
		if (packets->file)
			add_packet_time(packets, packets->begin_ns,
				bt_message_packet_beginning_borrow_default_clock_snapshot_const(
					msg));
		break;
	case BT_MESSAGE_TYPE_PACKET_END:
		packet = bt_message_packet_end_borrow_packet_const(msg);
		packets = packets_of(streams,
			bt_packet_borrow_stream_const(packet));
		if (packets->file)
			add_packet_time(packets, packets->end_ns,
				bt_message_packet_end_borrow_default_clock_snapshot_const(
					msg));
		break;
	default:
		break;
	}
}

/* The complete tables (every packet begun has ended) into the worker's. */
static void keep_packet_tables(struct worker *w, GHashTable *streams)
{
	GHashTableIter iter;
	gpointer key, value;

	g_hash_table_iter_init(&iter, streams);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		struct stream_packets *packets = value;
		struct tn_packet_table table;

		if (!packets->file || packets->begin_ns->len == 0 ||
		    packets->begin_ns->len != packets->end_ns->len)
			continue;
		table.file = g_steal_pointer(&packets->file);
		table.count = packets->begin_ns->len;
		table.begin_ns = (int64_t *) g_array_free(packets->begin_ns,
			FALSE);
		table.end_ns = (int64_t *) g_array_free(packets->end_ns,
			FALSE);
		packets->begin_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
		packets->end_ns = g_array_new(FALSE, FALSE, sizeof(int64_t));
		g_array_append_val(w->packet_tables, table);
	}
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

/* The next item, recording packet bounds on the way when streams is
 * not NULL. */
static enum tn_reader_status next_item(struct tn_reader *reader,
		GHashTable *streams, struct tn_event *ev, struct tn_error *err)
{
	const bt_message *msg;
	enum tn_reader_status status;

	if (!streams)
		return tn_reader_next(reader, ev, err);
	while ((status = tn_reader_next_message(reader, &msg, err)) ==
			TN_READER_OK) {
		if (is_item(msg)) {
			tn_reader_push_back(reader, msg);
			return tn_reader_next(reader, ev, err);
		}
		collect_packet(streams, msg);
		bt_message_put_ref(msg);
	}
	return status;
}

/* Read the worker's slice to its end.  Returns 1 when read, 0 when
 * stopped early, -1 on error. */
static int read_slice(struct worker *w, struct tn_error *err)
{
	struct class_counter counter = { 0 };
	struct slice_read read;
	enum tn_reader_status status;
	struct tn_event ev;
	uint64_t items = 0;
	int result = 1;
	GHashTable *streams = NULL;

	if (open_slice_read(w, &read, err))
		return -1;
	/* Only a worker reading the whole trace sees every packet. */
	if (w->open_begin && w->open_end)
		streams = g_hash_table_new_full(g_direct_hash, g_direct_equal,
			NULL, stream_packets_free);
	counter.by_pointer = g_hash_table_new_full(g_direct_hash,
		g_direct_equal, NULL, g_free);
	while ((status = next_item(read.reader, streams, &ev, err)) ==
			TN_READER_OK) {
		bool more = take_item(w, &read, &counter, &ev);

		tn_event_release(&ev);
		if (!more)
			break;
		if (++items % CHECK_EVERY == 0 &&
		    atomic_load(&w->indexer->stop)) {
			result = 0;
			break;
		}
	}
	if (status == TN_READER_ERROR)
		result = -1;
	if (streams) {
		if (result == 1)
			keep_packet_tables(w, streams);
		g_hash_table_destroy(streams);
	}
	copy_class_counts(counter.by_pointer, w->class_counts);
	g_hash_table_destroy(counter.by_pointer);
	close_slice_read(&read);
	atomic_store(&w->events_read, w->count);
	return result;
}

static void record_failure(struct tn_indexer *indexer,
		const struct tn_error *err)
{
	char *message = g_strdup_printf("cannot index %s: %s",
		tn_trace_get_path(indexer->trace), err->message);

	g_mutex_lock(&indexer->lock);
	if (!indexer->message[0])
		g_strlcpy(indexer->message, message, sizeof(indexer->message));
	g_mutex_unlock(&indexer->lock);
	g_free(message);
	/* The result is lost anyway: the other workers may stop. */
	atomic_store(&indexer->stop, true);
}

static struct tn_index *stitch(struct tn_indexer *indexer);

/* The last worker out decides how the build ended. */
static void conclude(struct tn_indexer *indexer)
{
	enum indexer_state state;
	struct tn_index *index = NULL;
	bool failed;

	g_mutex_lock(&indexer->lock);
	failed = indexer->message[0] != '\0';
	g_mutex_unlock(&indexer->lock);
	if (failed)
		state = STATE_FAILED;
	else if (atomic_load(&indexer->stop))
		state = STATE_CANCELLED;
	else {
		index = stitch(indexer);
		state = STATE_DONE;
	}
	g_mutex_lock(&indexer->lock);
	indexer->state = state;
	indexer->index = index;
	indexer->end_us = g_get_monotonic_time();
	g_cond_broadcast(&indexer->ended);
	g_mutex_unlock(&indexer->lock);
}

static gpointer run_worker(gpointer data)
{
	struct worker *w = data;
	struct tn_error err;

	tn_error_clear(&err);
	if (read_slice(w, &err) < 0)
		record_failure(w->indexer, &err);
	atomic_store(&w->finished, true);
	if (atomic_fetch_sub(&w->indexer->remaining, 1) == 1)
		conclude(w->indexer);
	return NULL;
}

/* ---- stitching ---- */

static void stitch_checkpoints(struct tn_indexer *indexer,
		struct tn_index *index)
{
	uint64_t base = 0;
	size_t total = 0, at = 0;

	for (unsigned i = 0; i < indexer->worker_count; i++)
		total += indexer->workers[i].checkpoints->len;
	index->checkpoints = g_new(struct tn_checkpoint, total);
	index->checkpoint_count = total;
	/* Slices are in trace order, so appending keeps ranks sorted. */
	for (unsigned i = 0; i < indexer->worker_count; i++) {
		struct worker *w = &indexer->workers[i];

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

static void stitch_classes(struct tn_indexer *indexer, struct tn_index *index)
{
	GHashTable *totals = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	GHashTableIter iter;
	gpointer name, count;
	size_t at = 0;

	for (unsigned i = 0; i < indexer->worker_count; i++)
		copy_class_counts(indexer->workers[i].class_counts, totals);
	index->class_count = g_hash_table_size(totals);
	index->classes = g_new0(struct tn_class_count, index->class_count);
	g_hash_table_iter_init(&iter, totals);
	while (g_hash_table_iter_next(&iter, &name, &count)) {
		index->classes[at].name = g_strdup(name);
		index->classes[at].count = *(uint64_t *) count;
		at++;
	}
	qsort(index->classes, index->class_count, sizeof(*index->classes),
		compare_class_names);
	g_hash_table_destroy(totals);
}

static struct tn_index *stitch(struct tn_indexer *indexer)
{
	struct tn_index *index = g_new0(struct tn_index, 1);

	index->begin_ns = indexer->begin_ns;
	index->end_ns = indexer->end_ns;
	index->bin_count = indexer->bin_count;
	index->bins = g_new0(uint64_t, indexer->bin_count);
	for (unsigned i = 0; i < indexer->worker_count; i++) {
		struct worker *w = &indexer->workers[i];

		index->event_count += w->count;
		index->discarded_events += w->discarded;
		for (size_t b = 0; b < indexer->bin_count; b++)
			index->bins[b] += w->bins[b];
	}
	stitch_checkpoints(indexer, index);
	stitch_classes(indexer, index);
	if (indexer->worker_count == 1) {
		GArray *tables = indexer->workers[0].packet_tables;

		index->packet_table_count = tables->len;
		index->packet_tables = (struct tn_packet_table *)
			g_array_free(tables, FALSE);
		indexer->workers[0].packet_tables = NULL;
	}
	return index;
}

/* ---- the indexer ---- */

static void free_packet_tables(GArray *tables)
{
	if (!tables)
		return;
	for (guint i = 0; i < tables->len; i++) {
		struct tn_packet_table *table = &g_array_index(tables,
			struct tn_packet_table, i);

		g_free(table->file);
		g_free(table->begin_ns);
		g_free(table->end_ns);
	}
	g_array_free(tables, TRUE);
}

static void plan_bins(struct tn_indexer *indexer)
{
	if (!indexer->has_range) {
		indexer->begin_ns = indexer->end_ns = 0;
		return;
	}
	indexer->bin_count = BIN_COUNT;
	indexer->bin_width = ((uint64_t) indexer->end_ns -
		(uint64_t) indexer->begin_ns) / BIN_COUNT + 1;
}

int tn_indexer_start(const struct tn_trace *trace, unsigned workers,
		struct tn_indexer **out, struct tn_error *err)
{
	struct tn_indexer *indexer = g_new0(struct tn_indexer, 1);

	indexer->trace = trace;
	indexer->has_range = tn_trace_get_time_range(trace,
		&indexer->begin_ns, &indexer->end_ns) &&
		indexer->begin_ns <= indexer->end_ns;
	plan_bins(indexer);
	indexer->worker_count = choose_worker_count(indexer, workers);
	indexer->workers = g_new0(struct worker, indexer->worker_count);
	plan_slices(indexer);
	atomic_init(&indexer->stop, false);
	atomic_init(&indexer->remaining, indexer->worker_count);
	g_mutex_init(&indexer->lock);
	g_cond_init(&indexer->ended);
	indexer->state = STATE_RUNNING;
	indexer->start_us = g_get_monotonic_time();
	for (unsigned i = 0; i < indexer->worker_count; i++) {
		GError *error = NULL;
		struct worker *w = &indexer->workers[i];

		w->thread = g_thread_try_new("tn-index", run_worker, w, &error);
		if (!w->thread) {
			struct tn_error cause;

			tn_error_set(&cause, "cannot start a thread: %s",
				error->message);
			g_error_free(error);
			record_failure(indexer, &cause);
			tn_error_set(err, "%s", indexer->message);
			/* The threads not started will not count down. */
			atomic_fetch_sub(&indexer->remaining,
				indexer->worker_count - i - 1);
			if (atomic_fetch_sub(&indexer->remaining, 1) == 1)
				conclude(indexer);
			tn_indexer_destroy(indexer);
			return -1;
		}
	}
	*out = indexer;
	return 0;
}

unsigned tn_indexer_get_worker_count(const struct tn_indexer *indexer)
{
	return indexer->worker_count;
}

/* The part of the time range the workers have covered, 0..1. */
static double covered_fraction(struct tn_indexer *indexer)
{
	double span, covered = 0;

	if (!indexer->has_range)
		return 0;
	span = (double) ((uint64_t) indexer->end_ns -
		(uint64_t) indexer->begin_ns) + 1;
	for (unsigned i = 0; i < indexer->worker_count; i++) {
		struct worker *w = &indexer->workers[i];
		int64_t first = w->open_begin ? indexer->begin_ns : w->begin;
		int64_t last = w->open_end ? indexer->end_ns : w->end;
		int64_t reached = atomic_load(&w->reached_ns);

		if (atomic_load(&w->finished) || reached > last)
			reached = last;
		if (reached > first)
			covered += (double) ((uint64_t) reached -
				(uint64_t) first);
		if (atomic_load(&w->finished))
			covered += 1;
	}
	return covered >= span ? 1 : covered / span;
}

void tn_indexer_get_progress(struct tn_indexer *indexer,
		struct tn_index_progress *progress)
{
	enum indexer_state state;
	gint64 now_us;
	double elapsed;

	memset(progress, 0, sizeof(*progress));
	g_mutex_lock(&indexer->lock);
	state = indexer->state;
	now_us = state == STATE_RUNNING ? g_get_monotonic_time() :
		indexer->end_us;
	snprintf(progress->message, sizeof(progress->message), "%s",
		indexer->message);
	g_mutex_unlock(&indexer->lock);

	progress->done = state == STATE_DONE;
	/* A failure shows at once; the other workers stop soon after. */
	progress->failed = state == STATE_FAILED ||
		(state == STATE_RUNNING && progress->message[0]);
	progress->cancelled = state == STATE_CANCELLED;
	for (unsigned i = 0; i < indexer->worker_count; i++)
		progress->events += atomic_load(
			&indexer->workers[i].events_read);
	progress->fraction = progress->done ? 1 : covered_fraction(indexer);
	elapsed = (double) (now_us - indexer->start_us) / 1e6;
	progress->events_per_second = elapsed > 0 ?
		(double) progress->events / elapsed : 0;
	if (progress->done)
		progress->eta_seconds = 0;
	else if (state == STATE_RUNNING && progress->fraction > 0)
		progress->eta_seconds = elapsed * (1 - progress->fraction) /
			progress->fraction;
	else
		progress->eta_seconds = -1;
}

void tn_indexer_wait(struct tn_indexer *indexer)
{
	g_mutex_lock(&indexer->lock);
	while (indexer->state == STATE_RUNNING)
		g_cond_wait(&indexer->ended, &indexer->lock);
	g_mutex_unlock(&indexer->lock);
}

void tn_indexer_cancel(struct tn_indexer *indexer)
{
	atomic_store(&indexer->stop, true);
}

struct tn_index *tn_indexer_take_index(struct tn_indexer *indexer)
{
	struct tn_index *index;

	g_mutex_lock(&indexer->lock);
	index = indexer->index;
	indexer->index = NULL;
	g_mutex_unlock(&indexer->lock);
	return index;
}

void tn_indexer_destroy(struct tn_indexer *indexer)
{
	if (!indexer)
		return;
	tn_indexer_cancel(indexer);
	tn_indexer_wait(indexer);
	for (unsigned i = 0; i < indexer->worker_count; i++) {
		struct worker *w = &indexer->workers[i];

		if (w->thread)
			g_thread_join(w->thread);
		g_array_free(w->checkpoints, TRUE);
		g_hash_table_destroy(w->class_counts);
		g_free(w->bins);
		free_packet_tables(w->packet_tables);
	}
	g_free(indexer->workers);
	tn_index_destroy(indexer->index);
	g_mutex_clear(&indexer->lock);
	g_cond_clear(&indexer->ended);
	g_free(indexer);
}
