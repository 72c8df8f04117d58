/* feed.c - the whole trace read on helper threads, merged in order on
 * the thread that takes the items (see feed.h).
 *
 * Each part is a reader and a ring of items.  The part's thread reads
 * into the ring; the taker merges the heads of the rings.  The ring's
 * two counters are atomics published in batches, and whoever finds the
 * ring full (the part) or empty (the taker) waits on the part's
 * condition, which the other side signals after each batch it
 * publishes.  The part's thread releases an item's message as soon as
 * it made its record (event-record.h): the taker reads records only.
 * What the records point to
 * (event classes, streams) lives until then: each part keeps its reader
 * and a reference to every stream it read.
 */
#define _GNU_SOURCE	/* SCHED_BATCH */
#include <sched.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "tracenav/job.h"
#include "bt-util.h"
#include "event-record.h"
#include "feed.h"
#include "merge-compare.h"
#include "packets-collect.h"
#include "pointer-hash.h"
#include "reader-private.h"
#include "slice.h"
#include "trace-private.h"

/* Items a ring holds, and how many either side handles before it
 * publishes its counter.  A power of 2. */
#define RING_SLOTS 2048
#define BATCH 32
/* How far ahead the taker asks for the slots it will read, and how much
 * of their fields. */
#define PREFETCH_AHEAD 4
#define PREFETCH_FIELD_BYTES 512
/* A side that waits waits for this many items (or slots), so that the
 * two threads do not wake each other for every batch. */
#define WAKE_ITEMS (RING_SLOTS / 4)
/* Slots of a part's memo of the streams it keeps (a power of 2). */
#define KEPT_STREAM_SLOTS 16
/* How often a part looks for a stop request (items). */
#define STOP_CHECK_EVERY 256

/* Two cache lines: what the processor may fetch together. */
#define CACHE_LINE 128

/* An item and what its part read of it for the taker. */
struct slot {
	struct tn_event ev;
	struct tn_event_record record;
};

struct part {
	struct tn_feed *feed;
	/* What it reads: a slice (a part of one directory's streams), or
	 * dirs (NULL: the trace's own directories). */
	struct tn_slice *slice;
	const char **dirs;
	struct tn_packets_collector *collector;
	/* Its thread's until it ends, then the destroyer's. */
	struct tn_reader *reader;
	GHashTable *streams;		/* bt_stream, each with a reference */

	struct slot *slots;
	pthread_mutex_t lock;
	pthread_cond_t changed;		/* head, tail, ended or stop moved */
	int status;			/* 0, or -1 with err */
	struct tn_error err;
	double cpu_seconds;		/* its thread's, once it ended */

	/* Each side's own, and each counter that one side writes and the
	 * other reads, on cache lines of their own: a line that both
	 * write moves between the cores at every item. */
	/* The part's side. */
	_Alignas(CACHE_LINE) uint64_t put;
	struct tn_record_plans *plans;
	/* Streams known to be kept, by tn_pointer_slot(): a part reads a
	 * few streams, whose events alternate. */
	const void *kept_streams[KEPT_STREAM_SLOTS];
	/* The taker's side: items taken, the head last seen, whether the
	 * item at taken is the one it gave out last. */
	_Alignas(CACHE_LINE) uint64_t taken;
	uint64_t seen_head;
	bool given;
	_Alignas(CACHE_LINE) _Atomic uint64_t head;	/* items put, as
							 * published */
	_Alignas(CACHE_LINE) _Atomic uint64_t tail;	/* items taken, as
							 * published */
	/* What a waiting side waits for (0: it does not wait): the head
	 * (the taker) or the tail (the part) that wakes it. */
	_Alignas(CACHE_LINE) _Atomic uint64_t taker_target;
	_Alignas(CACHE_LINE) _Atomic uint64_t part_target;
	atomic_bool ended;		/* head is final; status is set */
};

struct tn_feed {
	const struct tn_trace *trace;
	unsigned count;
	struct part parts[TN_FEED_PARTS_MAX];
	struct tn_fanout *fanout;
	atomic_bool stop;
};

/* ---- the ring ---- */

/* Wake whoever waits on p for a count that reached `reached`. */
static void wake_at(struct part *p, _Atomic uint64_t *target,
		uint64_t reached)
{
	uint64_t wanted = atomic_load(target);

	if (wanted && reached >= wanted) {
		pthread_mutex_lock(&p->lock);
		pthread_cond_broadcast(&p->changed);
		pthread_mutex_unlock(&p->lock);
	}
}

static void publish_head(struct part *p)
{
	atomic_store(&p->head, p->put);
	wake_at(p, &p->taker_target, p->put);
}

static void publish_tail(struct part *p)
{
	atomic_store(&p->tail, p->taken);
	wake_at(p, &p->part_target, p->taken);
}

/* The part's thread: wait until the slot for the next item is free
 * (then until a share of the ring is, so that the two threads do not
 * wake each other for every batch); false when asked to stop. */
static bool wait_for_room(struct part *p)
{
	uint64_t target;

	if (p->put - atomic_load_explicit(&p->tail, memory_order_acquire) <
			RING_SLOTS)
		return true;
	publish_head(p);
	target = p->put - RING_SLOTS + WAKE_ITEMS;
	pthread_mutex_lock(&p->lock);
	atomic_store(&p->part_target, target);
	while (atomic_load(&p->tail) < target && !atomic_load(&p->feed->stop))
		pthread_cond_wait(&p->changed, &p->lock);
	atomic_store(&p->part_target, 0);
	pthread_mutex_unlock(&p->lock);
	return !atomic_load(&p->feed->stop);
}

/* Records point to their stream, which must outlive its messages. */
static void keep_stream(struct part *p, const void *stream)
{
	size_t slot = tn_pointer_slot(stream, KEPT_STREAM_SLOTS);

	if (stream && p->kept_streams[slot] != stream) {
		p->kept_streams[slot] = stream;
		if (!g_hash_table_contains(p->streams, stream)) {
			bt_stream_get_ref(stream);
			g_hash_table_add(p->streams, (gpointer) (uintptr_t) stream);
		}
	}
}

static void put_item(struct part *p, const struct tn_event *ev)
{
	struct slot *slot = &p->slots[p->put % RING_SLOTS];

	slot->ev = *ev;
	tn_event_record_fill(&slot->record, &slot->ev, p->plans);
	tn_event_release(&slot->ev);
	keep_stream(p, slot->record.stream);
	if (++p->put % BATCH == 0)
		publish_head(p);
}

static void end_ring(struct part *p, int status, const struct tn_error *err)
{
	p->status = status;
	if (status)
		p->err = *err;
	atomic_store(&p->head, p->put);
	atomic_store(&p->ended, true);
	pthread_mutex_lock(&p->lock);
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
}

/* The taker: ask for a slot ahead of the one it reads, already written
 * (by another core: each cache line of it is a miss otherwise), item,
 * record and its first fields. */
static void prefetch_ahead(struct part *p)
{
	const struct slot *slot;
	const char *line;

	if (p->taken + PREFETCH_AHEAD >= p->seen_head) {
		p->seen_head = atomic_load_explicit(&p->head,
			memory_order_acquire);
		if (p->taken + PREFETCH_AHEAD >= p->seen_head)
			return;
	}
	slot = &p->slots[(p->taken + PREFETCH_AHEAD) % RING_SLOTS];
	__builtin_prefetch(&slot->ev);
	line = (const char *) &slot->record;
	for (size_t i = 0; i < offsetof(struct tn_event_record, inline_fields);
			i += 64)
		__builtin_prefetch(line + i);
	line = (const char *) slot->record.inline_fields;
	for (size_t i = 0; i < PREFETCH_FIELD_BYTES; i += 64)
		__builtin_prefetch(line + i);
}

/* The taker: the item at p->taken, waiting for it (then for a share of
 * the ring, or the part's end); false when the part has no more (ended,
 * or failed: p->status). */
static bool peek(struct part *p, struct tn_event **ev)
{
	if (p->taken == p->seen_head) {
		p->seen_head = atomic_load_explicit(&p->head,
			memory_order_acquire);
		if (p->taken == p->seen_head) {
			uint64_t target = p->taken + WAKE_ITEMS;

			/* Publish what was taken first: the part may be
			 * waiting for room. */
			publish_tail(p);
			pthread_mutex_lock(&p->lock);
			atomic_store(&p->taker_target, target);
			while (atomic_load(&p->head) < target &&
			       !atomic_load(&p->ended))
				pthread_cond_wait(&p->changed, &p->lock);
			atomic_store(&p->taker_target, 0);
			pthread_mutex_unlock(&p->lock);
			/* ended is stored after the last head. */
			p->seen_head = atomic_load(&p->head);
			if (p->taken == p->seen_head)
				return false;
		}
	}
	*ev = &p->slots[p->taken % RING_SLOTS].ev;
	prefetch_ahead(p);
	return true;
}

/* The taker is done with the item it gave out from p. */
static void pass_item(struct part *p)
{
	p->given = false;
	if (++p->taken % BATCH == 0)
		publish_tail(p);
}

/* ---- a part's thread ---- */

static int open_part_reader(struct part *p, struct tn_reader **reader,
		struct tn_error *err)
{
	const struct tn_trace *trace = p->feed->trace;
	const char *const *dirs = p->slice ? tn_slice_borrow_dirs(p->slice) :
		(const char *const *) p->dirs;

	for (int tries = 1;; tries++) {
		uint64_t generation = tn_trace_get_read_generation(trace);
		int status;

		/* The reader the trace opened, when still there, saves a
		 * graph. */
		if (!dirs && (*reader = tn_trace_take_start_reader(trace)))
			return 0;
		status = tn_reader_create_on_dirs(trace, NULL, dirs, reader,
			err);
		if (status == 0 || tries == 3)
			return status;
		/* Did a repaired file grow meanwhile?  (see seek.c) */
		tn_trace_refresh_read_dirs(trace);
		if (tn_trace_get_read_generation(trace) == generation)
			return status;
	}
}

static int read_part(struct part *p, struct tn_fanout *fanout,
		struct tn_error *err)
{
	enum tn_reader_status status;
	struct tn_event ev;
	uint64_t items = 0;

	if (open_part_reader(p, &p->reader, err))
		return -1;
	while ((status = tn_packets_collector_next_item(p->reader, p->collector,
			&ev, err)) == TN_READER_OK) {
		if (!wait_for_room(p)) {
			tn_event_release(&ev);
			break;
		}
		put_item(p, &ev);
		if (++items % STOP_CHECK_EVERY == 0 &&
		    tn_fanout_should_stop(fanout))
			break;
	}
	/* The reader stays until the feed goes: the records point to its
	 * classes. */
	return status == TN_READER_ERROR ? -1 : 0;
}

static int run_part(struct tn_fanout *fanout, void *data, unsigned i,
		struct tn_error *err)
{
	struct tn_feed *feed = data;
	struct part *p = &feed->parts[i];
	struct sched_param batch = { 0 };
	int status;

	/* The taker is the one that bounds the read when the consumers
	 * are busy: a part that wakes (room in its ring) does not take the
	 * processor from it, it waits for its turn. */
	(void) pthread_setschedparam(pthread_self(), SCHED_BATCH, &batch);

	status = read_part(p, fanout, err);
	p->cpu_seconds = tn_job_thread_cpu_seconds();
	end_ring(p, status, err);
	/* A failure also stops the other parts (the feed says it from
	 * the part's ring, in the order of the items). */
	return status;
}

/* ---- planning the parts (on the opener's thread) ---- */

/* The bytes of the stream files of a directory (its files but the
 * metadata; index/ is a directory). */
static uint64_t dir_bytes(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *name;
	uint64_t bytes = 0;

	while (d && (name = g_dir_read_name(d))) {
		char *path;
		struct stat st;

		if (!strcmp(name, "metadata"))
			continue;
		path = g_build_filename(dir, name, NULL);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			bytes += (uint64_t) st.st_size;
		g_free(path);
	}
	if (d)
		g_dir_close(d);
	return bytes;
}

/* Several traces: parts of whole traces (groups), in order, each about
 * as many bytes.  Their order is the muxer's order of their ports, so
 * two items that the muxer's comparison finds equal come out as in a
 * full read when the earlier part wins. */
static unsigned plan_group_parts(struct tn_feed *feed, unsigned want)
{
	const struct tn_trace *trace = feed->trace;
	size_t groups = tn_trace_get_group_count(trace);
	size_t dirs = tn_trace_get_dir_count(trace);
	uint64_t *bytes = g_new0(uint64_t, groups);
	uint64_t total = 0, done = 0;
	unsigned count = MIN(want, (unsigned) groups), part = 0;

	for (size_t g = 0; g < groups; g++) {
		for (size_t i = 0; i < tn_trace_get_group_dir_count(trace, g);
				i++)
			bytes[g] += dir_bytes(tn_trace_get_group_read_dir(
				trace, g, i));
		total += bytes[g];
	}
	for (unsigned k = 0; k < count; k++)
		feed->parts[k].dirs = g_new0(const char *, dirs + 1);
	for (size_t g = 0; g < groups; g++) {
		/* The next part once this one has its share, leaving a
		 * group for each part to come. */
		if (part + 1 < count && (done >= total / count * (part + 1) ||
				groups - g <= count - part - 1))
			part++;
		for (size_t i = 0; i < tn_trace_get_group_dir_count(trace, g);
				i++)
			feed->parts[part].dirs[tn_trace_get_group_dir_index(
				trace, g, i)] = tn_trace_get_group_read_dir(
				trace, g, i);
		done += bytes[g];
	}
	g_free(bytes);
	return count;
}

/* One trace directory: parts of its streams (slice.h).  0 when it
 * cannot be split so. */
static unsigned plan_stream_parts(struct tn_feed *feed, unsigned want)
{
	for (unsigned k = 0; k < want; k++) {
		struct tn_error err;

		if (tn_slice_create_part(feed->trace, INT64_MIN,
				TN_SLICE_INDEX_FILES_ONLY, k, want,
				&feed->parts[k].slice, &err) == 0)
			continue;
		for (unsigned j = 0; j < k; j++) {
			tn_slice_destroy(feed->parts[j].slice);
			feed->parts[j].slice = NULL;
		}
		return 0;
	}
	return want;
}

static unsigned plan_parts(struct tn_feed *feed, unsigned want,
		unsigned flags)
{
	const struct tn_trace *trace = feed->trace;
	unsigned count = 0;

	/* One more part than processors: a part whose ring is full (ahead
	 * of the others in time) leaves its processor to another one,
	 * where with one part per processor that processor idled until
	 * the consumers caught up (measured: 8 % less time on 2
	 * processors). */
	if (want == 0)
		want = g_get_num_processors() + 1;
	want = MIN(want, TN_FEED_PARTS_MAX);
	/* Merging parts needs every item's time (no notice without one,
	 * which the muxer places by what came before it). */
	if (want < 2 || (flags & TN_FEED_COLLECT_PACKETS) ||
	    !tn_trace_has_clock(trace) || !tn_trace_can_trim(trace))
		return 1;
	if (tn_trace_get_group_count(trace) > 1)
		count = plan_group_parts(feed, want);
	else if (tn_trace_get_dir_count(trace) == 1)
		count = plan_stream_parts(feed, want);
	return count >= 2 ? count : 1;
}

/* ---- the API ---- */

unsigned tn_feed_plan_part_count(const struct tn_trace *trace,
		unsigned parts)
{
	struct tn_feed *feed = g_aligned_alloc0(1, sizeof(*feed),
		_Alignof(struct tn_feed));
	unsigned count;

	feed->trace = trace;
	count = plan_parts(feed, parts, 0);
	for (unsigned i = 0; i < TN_FEED_PARTS_MAX; i++) {
		tn_slice_destroy(feed->parts[i].slice);
		g_free(feed->parts[i].dirs);
	}
	g_aligned_free(feed);
	return count;
}

int tn_feed_open(const struct tn_trace *trace, unsigned parts,
		unsigned flags, const struct tn_field_want *wants,
		size_t want_count, struct tn_feed **out, struct tn_error *err)
{
	/* Aligned as its parts' cache lines are. */
	struct tn_feed *feed = g_aligned_alloc0(1, sizeof(*feed),
		_Alignof(struct tn_feed));

	feed->trace = trace;
	atomic_init(&feed->stop, false);
	feed->count = plan_parts(feed, parts, flags);
	for (unsigned i = 0; i < feed->count; i++) {
		struct part *p = &feed->parts[i];

		p->feed = feed;
		p->slots = g_new0(struct slot, RING_SLOTS);
		atomic_init(&p->head, 0);
		atomic_init(&p->tail, 0);
		atomic_init(&p->taker_target, 0);
		atomic_init(&p->part_target, 0);
		atomic_init(&p->ended, false);
		pthread_mutex_init(&p->lock, NULL);
		pthread_cond_init(&p->changed, NULL);
		p->streams = g_hash_table_new(g_direct_hash, g_direct_equal);
		p->plans = tn_record_plans_create(wants, want_count);
		if (flags & TN_FEED_COLLECT_PACKETS)
			p->collector = tn_packets_collector_create();
	}
	if (tn_fanout_start(feed->count, run_part, feed, &feed->fanout,
			err)) {
		feed->fanout = NULL;
		tn_feed_destroy(feed);
		return -1;
	}
	*out = feed;
	return 0;
}

/* Whether a (from part i) goes out before b (from part j > i): by
 * time, then as the muxer orders them; the earlier part on a tie. */
static bool goes_before(const struct tn_event *a, const struct tn_event *b)
{
	if (a->ns != b->ns)
		return a->ns < b->ns;
	return tn_merge_compare_keys(&a->record->key, &b->record->key) <= 0;
}

/* A part that ended without an item left: its failure, if any. */
static int part_failure(struct part *p, struct tn_error *err)
{
	if (p->status == 0)
		return 0;
	*err = p->err;
	return -1;
}

int tn_feed_next(struct tn_feed *feed, struct tn_event *ev,
		struct tn_error *err)
{
	struct tn_event *best = NULL, *head;
	struct part *from = NULL;

	for (unsigned i = 0; i < feed->count; i++) {
		struct part *p = &feed->parts[i];

		if (p->given)
			pass_item(p);
		if (!peek(p, &head)) {
			if (part_failure(p, err))
				return -1;
			continue;
		}
		if (!best || !goes_before(best, head)) {
			best = head;
			from = p;
		}
	}
	if (!best) {
		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			return -1;
		}
		return 0;
	}
	from->given = true;
	*ev = *best;
	return 1;
}

double tn_feed_get_cpu_seconds(const struct tn_feed *feed)
{
	double sum = 0;

	for (unsigned i = 0; i < feed->count; i++)
		if (atomic_load(&feed->parts[i].ended))
			sum += feed->parts[i].cpu_seconds;
	return sum;
}

unsigned tn_feed_get_part_count(const struct tn_feed *feed)
{
	return feed->count;
}

struct tn_packet_tables *tn_feed_take_packets(struct tn_feed *feed)
{
	struct part *p = &feed->parts[0];
	struct tn_packet_tables *tables;

	if (!p->collector || !atomic_load(&p->ended) || p->status ||
	    p->taken != p->seen_head)
		return NULL;
	tables = tn_packets_create();
	tn_packets_collector_finish(p->collector, tables);
	return tables;
}

static void release_streams(struct part *p)
{
	GHashTableIter iter;
	gpointer stream;

	if (!p->streams)
		return;
	g_hash_table_iter_init(&iter, p->streams);
	while (g_hash_table_iter_next(&iter, &stream, NULL))
		bt_stream_put_ref(stream);
	g_hash_table_destroy(p->streams);
}

void tn_feed_destroy(struct tn_feed *feed)
{
	struct tn_error err;

	if (!feed)
		return;
	atomic_store(&feed->stop, true);
	for (unsigned i = 0; i < feed->count; i++) {
		pthread_mutex_lock(&feed->parts[i].lock);
		pthread_cond_broadcast(&feed->parts[i].changed);
		pthread_mutex_unlock(&feed->parts[i].lock);
	}
	(void) tn_fanout_join(feed->fanout, &err);
	for (unsigned i = 0; i < feed->count; i++) {
		struct part *p = &feed->parts[i];

		/* The threads ended: their messages may change hands. */
		for (size_t k = 0; k < RING_SLOTS; k++)
			tn_event_record_fini(&p->slots[k].record);
		tn_record_plans_destroy(p->plans);
		g_free(p->slots);
		release_streams(p);
		tn_reader_destroy(p->reader);
		tn_slice_destroy(p->slice);
		g_free(p->dirs);
		tn_packets_collector_destroy(p->collector);
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->changed);
	}
	g_aligned_free(feed);
}
