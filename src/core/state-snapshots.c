/* state-snapshots.c - the snapshots of the state of one trace, sorted by
 * position, shared by the state pass that appends them and the queries
 * that look them up (see state-history.h).
 *
 * Serialised (for the cache; integers little-endian):
 *   magic            4 bytes  "TNSH"
 *   version          u32      3
 *   flags            u32      1: complete, 2: reached is set
 *   count            u64      snapshots
 *   reached          ns i64, tie u64, rank u64
 *   event count      u64      (complete only; else 0)
 *   count times:     ns i64, tie u64, rank u64, kind u8 (1: full, 0:
 *                    changes), size u64, size bytes (the blob of
 *                    tn_state_save(), or of tn_state_delta_save())
 *   checksum         u64      of everything before it (see checksum())
 *
 * Each blob has a checksum of its own that a restore checks; the
 * section's covers the positions and ranks as well, so that a damaged
 * section is refused when it is loaded rather than when a query lands
 * on a wrong event.
 */
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/core/state-history-private.h"

#define MAGIC "TNSH"
#define VERSION 3
#define FLAG_COMPLETE 1u
#define FLAG_REACHED 2u
#define KNOWN_FLAGS (FLAG_COMPLETE | FLAG_REACHED)
#define HEADER_LEN (4 + 4 + 4 + 8 + 8 + 8 + 8 + 8)
#define ENTRY_LEN (8 + 8 + 8 + 1 + 8)
#define CHECKSUM_LEN 8

struct snapshot {
	struct tn_position pos;
	uint64_t rank;
	bool full;
	GBytes *blob;
};

struct tn_state_snapshots {
	/* Guards everything below: the pass appends while queries on
	 * other threads look up.  A blob is immutable once added, and
	 * handed out as a reference, so readers never hold the lock long.
	 * A pthread mutex (ThreadSanitizer sees it, not GLib's futex-based
	 * GMutex), behind a pointer: const readers lock it too. */
	pthread_mutex_t *lock;
	GArray *items;		/* struct snapshot, sorted by pos */
	uint64_t bytes;
	bool complete;
	uint64_t event_count;
	bool has_reached;
	struct tn_position reached;
	uint64_t reached_rank;
};

static void snapshot_clear(gpointer data)
{
	struct snapshot *snapshot = data;

	g_bytes_unref(snapshot->blob);
}

struct tn_state_snapshots *tn_state_snapshots_create(void)
{
	struct tn_state_snapshots *snapshots =
		g_new0(struct tn_state_snapshots, 1);

	snapshots->lock = g_new(pthread_mutex_t, 1);
	pthread_mutex_init(snapshots->lock, NULL);
	snapshots->items = g_array_new(FALSE, FALSE, sizeof(struct snapshot));
	g_array_set_clear_func(snapshots->items, snapshot_clear);
	return snapshots;
}

void tn_state_snapshots_destroy(struct tn_state_snapshots *snapshots)
{
	if (!snapshots)
		return;
	g_array_free(snapshots->items, TRUE);
	pthread_mutex_destroy(snapshots->lock);
	g_free(snapshots->lock);
	g_free(snapshots);
}

size_t tn_state_snapshots_get_count(const struct tn_state_snapshots *snapshots)
{
	size_t count;

	pthread_mutex_lock(snapshots->lock);
	count = snapshots->items->len;
	pthread_mutex_unlock(snapshots->lock);
	return count;
}

uint64_t tn_state_snapshots_get_bytes(
		const struct tn_state_snapshots *snapshots)
{
	uint64_t bytes;

	pthread_mutex_lock(snapshots->lock);
	bytes = snapshots->bytes;
	pthread_mutex_unlock(snapshots->lock);
	return bytes;
}

bool tn_state_snapshots_is_complete(const struct tn_state_snapshots *snapshots)
{
	bool complete;

	pthread_mutex_lock(snapshots->lock);
	complete = snapshots->complete;
	pthread_mutex_unlock(snapshots->lock);
	return complete;
}

bool tn_state_snapshots_get_reached_rank(
		const struct tn_state_snapshots *snapshots,
		struct tn_position *pos, uint64_t *rank)
{
	bool has;

	pthread_mutex_lock(snapshots->lock);
	has = snapshots->has_reached;
	if (has) {
		*pos = snapshots->reached;
		if (rank)
			*rank = snapshots->reached_rank;
	}
	pthread_mutex_unlock(snapshots->lock);
	return has;
}

bool tn_state_snapshots_get_reached(const struct tn_state_snapshots *snapshots,
		struct tn_position *pos)
{
	return tn_state_snapshots_get_reached_rank(snapshots, pos, NULL);
}

static void fill(const GArray *items, size_t i,
		struct tn_state_snapshot_info *info, GBytes **blob)
{
	const struct snapshot *snapshot = &g_array_index(items,
		struct snapshot, i);

	info->index = i;
	info->full = snapshot->full;
	info->pos = snapshot->pos;
	info->rank = snapshot->rank;
	info->bytes = g_bytes_get_size(snapshot->blob);
	if (blob)
		*blob = g_bytes_ref(snapshot->blob);
}

void tn_state_snapshots_get(const struct tn_state_snapshots *snapshots,
		size_t i, struct tn_state_snapshot_info *info, GBytes **blob)
{
	pthread_mutex_lock(snapshots->lock);
	g_assert(i < snapshots->items->len);
	fill(snapshots->items, i, info, blob);
	pthread_mutex_unlock(snapshots->lock);
}

bool tn_state_snapshots_find(const struct tn_state_snapshots *snapshots,
		const struct tn_position *pos,
		struct tn_state_snapshot_info *info, GBytes **blob)
{
	const GArray *items = snapshots->items;
	size_t lo = 0, hi;

	pthread_mutex_lock(snapshots->lock);
	/* The first snapshot after pos is at lo. */
	hi = items->len;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tn_position_compare(&g_array_index(items, struct snapshot,
				mid).pos, pos) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0)
		fill(items, lo - 1, info, blob);
	pthread_mutex_unlock(snapshots->lock);
	return lo > 0;
}

void tn_state_snapshots_add(struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, uint64_t rank, bool full,
		GBytes *blob)
{
	struct snapshot snapshot = { *pos, rank, full, NULL };
	GArray *items = snapshots->items;

	pthread_mutex_lock(snapshots->lock);
	if (items->len == 0 || tn_position_compare(&g_array_index(items,
			struct snapshot, items->len - 1).pos, pos) < 0) {
		snapshot.blob = g_bytes_ref(blob);
		g_array_append_val(items, snapshot);
		snapshots->bytes += g_bytes_get_size(blob);
	}
	pthread_mutex_unlock(snapshots->lock);
}

void tn_state_snapshots_set_reached(struct tn_state_snapshots *snapshots,
		const struct tn_position *pos, uint64_t rank)
{
	pthread_mutex_lock(snapshots->lock);
	snapshots->has_reached = true;
	snapshots->reached = *pos;
	snapshots->reached_rank = rank;
	pthread_mutex_unlock(snapshots->lock);
}

void tn_state_snapshots_set_complete(struct tn_state_snapshots *snapshots,
		uint64_t event_count)
{
	pthread_mutex_lock(snapshots->lock);
	snapshots->complete = true;
	snapshots->event_count = event_count;
	pthread_mutex_unlock(snapshots->lock);
}

int tn_state_snapshots_restore(const struct tn_state_snapshots *snapshots,
		size_t i, long from, struct tn_state *state,
		struct tn_error *err)
{
	GPtrArray *blobs = g_ptr_array_new_with_free_func(
		(GDestroyNotify) g_bytes_unref);
	long first, full = -1;
	bool forward;
	int status = 0;

	/* The blobs to apply, taken under the lock, applied without it. */
	pthread_mutex_lock(snapshots->lock);
	g_assert(i < snapshots->items->len);
	for (long j = (long) i; j >= 0 && full < 0; j--)
		if (g_array_index(snapshots->items, struct snapshot, j).full)
			full = j;
	forward = from >= 0 && from >= full;
	first = forward ? from + 1 : full >= 0 ? full : 0;
	for (size_t j = (size_t) first; j <= i; j++)
		g_ptr_array_add(blobs, g_bytes_ref(g_array_index(
			snapshots->items, struct snapshot, j).blob));
	pthread_mutex_unlock(snapshots->lock);

	/* From the start of a chain: the attributes the state has stay
	 * (the same ones, in the same order, as the pass made them) and
	 * get their values again; those beyond the snapshot's go. */
	if (!forward)
		tn_state_reset_values(state);
	for (guint j = 0; j < blobs->len && status == 0; j++) {
		gsize size;
		const void *data = g_bytes_get_data(blobs->pdata[j], &size);

		status = tn_state_delta_apply(state, data, size, err);
		if (status == 0 && j + 1 == blobs->len)
			tn_state_truncate(state,
				tn_state_delta_get_count(data, size));
	}
	g_ptr_array_free(blobs, TRUE);
	if (status)
		tn_state_clear(state);
	return status;
}

/* --- Serialising --- */

/* A 64-bit checksum of data taken 8 bytes at a time (a multiply and
 * two xor-shifts per word): errors, not attacks, are what it detects,
 * and it reads tens of megabytes in a few milliseconds. */
static uint64_t checksum(const uint8_t *data, size_t size)
{
	uint64_t h = 0x9e3779b97f4a7c15u ^ size;
	size_t i = 0;

	for (; i + 8 <= size; i += 8) {
		uint64_t w = 0;

		for (unsigned b = 0; b < 8; b++)
			w |= (uint64_t) data[i + b] << (8 * b);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	for (; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3u;
	h ^= h >> 29;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 32;
	return h;
}

static void put_le(GByteArray *out, uint64_t value, unsigned bytes)
{
	uint8_t buf[8];

	for (unsigned i = 0; i < bytes; i++)
		buf[i] = (uint8_t) (value >> (8 * i));
	g_byte_array_append(out, buf, bytes);
}

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t value = 0;

	for (unsigned i = bytes; i-- > 0;)
		value = value << 8 | p[i];
	return value;
}

void tn_state_snapshots_save(const struct tn_state_snapshots *snapshots,
		GByteArray *buf)
{
	const GArray *items = snapshots->items;
	guint start = buf->len;
	uint32_t flags;

	pthread_mutex_lock(snapshots->lock);
	flags = (snapshots->complete ? FLAG_COMPLETE : 0) |
		(snapshots->has_reached ? FLAG_REACHED : 0);
	g_byte_array_append(buf, (const guint8 *) MAGIC, 4);
	put_le(buf, VERSION, 4);
	put_le(buf, flags, 4);
	put_le(buf, items->len, 8);
	put_le(buf, (uint64_t) snapshots->reached.ns, 8);
	put_le(buf, snapshots->reached.tie, 8);
	put_le(buf, snapshots->reached_rank, 8);
	put_le(buf, snapshots->event_count, 8);
	for (guint i = 0; i < items->len; i++) {
		const struct snapshot *snapshot =
			&g_array_index(items, struct snapshot, i);
		gsize size;
		const guint8 *data = g_bytes_get_data(snapshot->blob, &size);

		put_le(buf, (uint64_t) snapshot->pos.ns, 8);
		put_le(buf, snapshot->pos.tie, 8);
		put_le(buf, snapshot->rank, 8);
		put_le(buf, snapshot->full ? 1 : 0, 1);
		put_le(buf, size, 8);
		g_byte_array_append(buf, data, (guint) size);
	}
	pthread_mutex_unlock(snapshots->lock);
	put_le(buf, checksum(buf->data + start, buf->len - start), 8);
}

static int damaged(struct tn_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int damaged(struct tn_error *err, const char *fmt, ...)
{
	char why[TN_ERROR_MAX];
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);
	tn_error_set(err, "state snapshots damaged: %s", why);
	return -1;
}

/* The header's fields, checked. */
struct header {
	uint32_t flags;
	uint64_t count;
	struct tn_position reached;
	uint64_t reached_rank;
	uint64_t event_count;
};

static int read_header(const uint8_t *p, size_t size, struct header *h,
		struct tn_error *err)
{
	if (size < HEADER_LEN + CHECKSUM_LEN)
		return damaged(err, "%zu bytes, too short", size);
	if (memcmp(p, MAGIC, 4) != 0)
		return damaged(err, "bad magic");
	if (get_le(p + 4, 4) != VERSION)
		return damaged(err, "version %" PRIu64 ", expected %d",
			get_le(p + 4, 4), VERSION);
	if (checksum(p, size - CHECKSUM_LEN) !=
	    get_le(p + size - CHECKSUM_LEN, 8))
		return damaged(err, "checksum mismatch");
	h->flags = (uint32_t) get_le(p + 8, 4);
	h->count = get_le(p + 12, 8);
	h->reached.ns = (int64_t) get_le(p + 20, 8);
	h->reached.tie = get_le(p + 28, 8);
	h->reached_rank = get_le(p + 36, 8);
	h->event_count = get_le(p + 44, 8);
	if (h->flags & ~KNOWN_FLAGS)
		return damaged(err, "unknown flags %#" PRIx32, h->flags);
	if (h->count > (size - HEADER_LEN - CHECKSUM_LEN) / ENTRY_LEN)
		return damaged(err, "%" PRIu64 " snapshots in %zu bytes",
			h->count, size);
	if ((h->flags & FLAG_COMPLETE) && (h->flags & FLAG_REACHED) &&
	    h->reached_rank + 1 != h->event_count)
		return damaged(err, "reached event %" PRIu64 " of %" PRIu64,
			h->reached_rank, h->event_count);
	if ((h->flags & FLAG_COMPLETE) && !(h->flags & FLAG_REACHED) &&
	    h->event_count != 0)
		return damaged(err, "complete over %" PRIu64 " events without "
			"reaching one", h->event_count);
	if (!(h->flags & FLAG_REACHED) && h->count > 0)
		return damaged(err, "snapshots before any event was reached");
	return 0;
}

/* The snapshots after the header into out (sorted, within the events
 * reached), checked. */
static int read_entries(const uint8_t *p, size_t size, const struct header *h,
		struct tn_state_snapshots *out, struct tn_error *err)
{
	size_t at = HEADER_LEN, end = size - CHECKSUM_LEN;

	for (uint64_t i = 0; i < h->count; i++) {
		struct snapshot s;
		uint64_t len;

		if (end - at < ENTRY_LEN)
			return damaged(err, "snapshot %" PRIu64 " beyond the "
				"end", i);
		s.pos.ns = (int64_t) get_le(p + at, 8);
		s.pos.tie = get_le(p + at + 8, 8);
		s.rank = get_le(p + at + 16, 8);
		if (p[at + 24] > 1)
			return damaged(err, "snapshot %" PRIu64 ": kind %u", i,
				p[at + 24]);
		s.full = p[at + 24] == 1;
		len = get_le(p + at + 25, 8);
		at += ENTRY_LEN;
		if (len == 0 || len > end - at)
			return damaged(err, "snapshot %" PRIu64 ": %" PRIu64
				" bytes", i, len);
		if (out->items->len > 0) {
			const struct snapshot *last = &g_array_index(
				out->items, struct snapshot,
				out->items->len - 1);

			if (tn_position_compare(&last->pos, &s.pos) >= 0 ||
			    last->rank >= s.rank)
				return damaged(err, "snapshot %" PRIu64 " not "
					"after the one before it", i);
		}
		if ((h->flags & FLAG_REACHED) && s.rank > h->reached_rank)
			return damaged(err, "snapshot %" PRIu64 " beyond the "
				"events reached", i);
		s.blob = g_bytes_new(p + at, len);
		at += len;
		g_array_append_val(out->items, s);
		out->bytes += len;
	}
	if (at != end)
		return damaged(err, "%zu bytes after the snapshots", end - at);
	return 0;
}

int tn_state_snapshots_load(const void *data, size_t size,
		struct tn_state_snapshots **out, struct tn_error *err)
{
	struct tn_state_snapshots *snapshots;
	struct header h = { 0 };

	if (read_header(data, size, &h, err))
		return -1;
	snapshots = tn_state_snapshots_create();
	if (read_entries(data, size, &h, snapshots, err)) {
		tn_state_snapshots_destroy(snapshots);
		return -1;
	}
	snapshots->complete = h.flags & FLAG_COMPLETE;
	snapshots->event_count = h.event_count;
	snapshots->has_reached = h.flags & FLAG_REACHED;
	if (snapshots->has_reached) {
		snapshots->reached = h.reached;
		snapshots->reached_rank = h.reached_rank;
	}
	*out = snapshots;
	return 0;
}
