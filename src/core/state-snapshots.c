/* state-snapshots.c - the snapshots of the state of one trace, sorted by
 * position, shared by the state pass that appends them and the queries
 * that look them up (see state-history.h).
 *
 * Serialised (for the cache; integers little-endian):
 *   magic            4 bytes  "TNSH"
 *   version          u32      4
 *   flags            u32      1: complete, 2: reached is set
 *   count            u64      snapshots
 *   reached          ns i64, tie u64, rank u64
 *   event count      u64      (complete only; else 0)
 *   count times:     ns i64, tie u64, rank u64, kind u8 (1: full, 0:
 *                    changes), size u64, size bytes (the blob of
 *                    tn_state_delta_save(): from an empty state when
 *                    full)
 *   extra count      u64      what else the pass kept, sorted by name:
 *   extra count times: name (tn_bytes_put_string()), size u64, size
 *                    bytes (tn_state_snapshots_set_extra())
 *   checksum         u64      of everything before it
 *                             (tn_bytes_hash64(), bytes.h)
 *
 * Each blob has a checksum of its own that a restore checks; the
 * section's covers the positions and ranks as well, so that a damaged
 * section is refused when it is loaded rather than when a query lands
 * on a wrong event.
 */
#include <glib.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "src/core/bytes.h"
#include "src/core/huge-pages.h"
#include "src/core/state-history-private.h"
#include "src/core/state-private.h"

#define MAGIC "TNSH"
#define VERSION 4
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
	/* A restore applied it once, its checksum checked: the next ones
	 * need not check it again (the blob is immutable). */
	bool checked;
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
	GTree *extras;		/* name (owned) -> GBytes */
	/* States the queriers gave back (tn_state_snapshots_give_state()),
	 * IDLE_STATES_MAX at most. */
	GPtrArray *idle;
};

/* Two: the slices of a replay over both processors (analysis.c) each
 * take one. */
#define IDLE_STATES_MAX 2

static void snapshot_clear(gpointer data)
{
	struct snapshot *snapshot = data;

	g_bytes_unref(snapshot->blob);
}

static gint compare_names(gconstpointer a, gconstpointer b, gpointer data)
{
	(void) data;
	return strcmp(a, b);
}

static void unref_blob(gpointer blob)
{
	g_bytes_unref(blob);
}

struct tn_state_snapshots *tn_state_snapshots_create(void)
{
	struct tn_state_snapshots *snapshots =
		g_new0(struct tn_state_snapshots, 1);

	snapshots->lock = g_new(pthread_mutex_t, 1);
	pthread_mutex_init(snapshots->lock, NULL);
	snapshots->items = g_array_new(FALSE, FALSE, sizeof(struct snapshot));
	g_array_set_clear_func(snapshots->items, snapshot_clear);
	snapshots->extras = g_tree_new_full(compare_names, NULL, g_free,
		unref_blob);
	snapshots->idle = g_ptr_array_new_with_free_func(
		(GDestroyNotify) tn_state_destroy);
	return snapshots;
}

void tn_state_snapshots_destroy(struct tn_state_snapshots *snapshots)
{
	if (!snapshots)
		return;
	g_array_free(snapshots->items, TRUE);
	g_tree_destroy(snapshots->extras);
	g_ptr_array_free(snapshots->idle, TRUE);
	pthread_mutex_destroy(snapshots->lock);
	g_free(snapshots->lock);
	g_free(snapshots);
}

void tn_state_snapshots_set_extra(struct tn_state_snapshots *snapshots,
		const char *name, GBytes *blob)
{
	pthread_mutex_lock(snapshots->lock);
	g_tree_replace(snapshots->extras, g_strdup(name), g_bytes_ref(blob));
	pthread_mutex_unlock(snapshots->lock);
}

GBytes *tn_state_snapshots_get_extra(const struct tn_state_snapshots *snapshots,
		const char *name)
{
	GBytes *blob;

	pthread_mutex_lock(snapshots->lock);
	blob = g_tree_lookup(snapshots->extras, name);
	if (blob)
		g_bytes_ref(blob);
	pthread_mutex_unlock(snapshots->lock);
	return blob;
}

static gboolean save_extra(gpointer key, gpointer value, gpointer data)
{
	gsize size;
	const guint8 *bytes = g_bytes_get_data(value, &size);

	tn_bytes_put_string(data, key, strlen(key));
	tn_bytes_put_u64(data, size);
	tn_bytes_put_raw(data, bytes, size);
	return FALSE;
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
	struct snapshot snapshot = { *pos, rank, full, NULL, false };
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
	GArray *checked = g_array_new(FALSE, FALSE, sizeof(bool));
	const struct snapshot *newest;
	GBytes *last_blob;
	bool last_checked;
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
	for (size_t j = (size_t) first; j <= i; j++) {
		const struct snapshot *s = &g_array_index(snapshots->items,
			struct snapshot, j);

		g_ptr_array_add(blobs, g_bytes_ref(s->blob));
		g_array_append_val(checked, s->checked);
	}
	newest = &g_array_index(snapshots->items, struct snapshot,
		snapshots->items->len - 1);
	last_blob = g_bytes_ref(newest->blob);
	last_checked = newest->checked;
	pthread_mutex_unlock(snapshots->lock);

	/* From the start of a chain: the attributes the state has stay
	 * (the same ones, in the same order, as the pass made them) and
	 * get their values again; those beyond the snapshot's go. */
	if (!forward)
		tn_state_reset_values(state);
	if (blobs->len > 0) {
		gsize size, bytes = 0;
		const void *data = g_bytes_get_data(
			blobs->pdata[blobs->len - 1], &size);
		int count = tn_state_delta_get_count(data, size);

		/* The count is checked when its blob is applied, not yet:
		 * room is made for it only when the blobs can hold that
		 * many new attributes (two bytes each at least), so that a
		 * damaged one cannot ask for billions. */
		for (guint j = 0; j < blobs->len; j++)
			bytes += g_bytes_get_size(blobs->pdata[j]);
		if (count > 0 && (guint64) count <= (guint64)
		    tn_state_get_attribute_count(state) + bytes / 2) {
			const void *last = g_bytes_get_data(last_blob, &size);
			/* The last snapshot has the most attributes (the
			 * pass never drops one): room for them all when its
			 * blob was checked (room that a restore further on
			 * then need not copy and zero again), else up to
			 * twice count (a hint, not checked yet). */
			int most = tn_state_delta_get_count(last, size);

			if (!last_checked)
				most = count > INT_MAX / 2 ? count :
					MIN(most, count * 2);
			tn_state_reserve(state, count, most);
		}
	}
	for (guint j = 0; j < blobs->len && status == 0; j++) {
		gsize size;
		const void *data = g_bytes_get_data(blobs->pdata[j], &size);

		status = tn_state_delta_apply(state, data, size,
			!g_array_index(checked, bool, j), err);
		if (status == 0 && !g_array_index(checked, bool, j)) {
			pthread_mutex_lock(snapshots->lock);
			g_array_index(snapshots->items, struct snapshot,
				(size_t) first + j).checked = true;
			pthread_mutex_unlock(snapshots->lock);
		}
		if (status == 0 && j + 1 == blobs->len)
			tn_state_truncate(state,
				tn_state_delta_get_count(data, size));
	}
	g_ptr_array_free(blobs, TRUE);
	g_array_free(checked, TRUE);
	g_bytes_unref(last_blob);
	if (status)
		tn_state_clear(state);
	return status;
}

struct tn_state *tn_state_snapshots_take_state(
		const struct tn_state_snapshots *snapshots)
{
	struct tn_state *state = NULL;

	pthread_mutex_lock(snapshots->lock);
	if (snapshots->idle->len > 0)
		state = g_ptr_array_steal_index_fast(snapshots->idle,
			snapshots->idle->len - 1);
	pthread_mutex_unlock(snapshots->lock);
	return state ? state : tn_state_create();
}

void tn_state_snapshots_give_state(const struct tn_state_snapshots *snapshots,
		struct tn_state *state)
{
	bool kept = false;

	pthread_mutex_lock(snapshots->lock);
	if (snapshots->idle->len < IDLE_STATES_MAX) {
		g_ptr_array_add(snapshots->idle, state);
		kept = true;
	}
	pthread_mutex_unlock(snapshots->lock);
	if (!kept)
		tn_state_destroy(state);
}

/* --- Serialising --- */

void tn_state_snapshots_save(const struct tn_state_snapshots *snapshots,
		GByteArray *buf)
{
	const GArray *items = snapshots->items;
	guint start = buf->len;
	uint32_t flags;

	pthread_mutex_lock(snapshots->lock);
	flags = (snapshots->complete ? FLAG_COMPLETE : 0) |
		(snapshots->has_reached ? FLAG_REACHED : 0);
	tn_bytes_put_raw(buf, MAGIC, 4);
	tn_bytes_put_u32(buf, VERSION);
	tn_bytes_put_u32(buf, flags);
	tn_bytes_put_u64(buf, items->len);
	tn_bytes_put_u64(buf, (uint64_t) snapshots->reached.ns);
	tn_bytes_put_u64(buf, snapshots->reached.tie);
	tn_bytes_put_u64(buf, snapshots->reached_rank);
	tn_bytes_put_u64(buf, snapshots->event_count);
	for (guint i = 0; i < items->len; i++) {
		const struct snapshot *snapshot =
			&g_array_index(items, struct snapshot, i);
		gsize size;
		const guint8 *data = g_bytes_get_data(snapshot->blob, &size);

		tn_bytes_put_u64(buf, (uint64_t) snapshot->pos.ns);
		tn_bytes_put_u64(buf, snapshot->pos.tie);
		tn_bytes_put_u64(buf, snapshot->rank);
		tn_bytes_put_u8(buf, snapshot->full ? 1 : 0);
		tn_bytes_put_u64(buf, size);
		tn_bytes_put_raw(buf, data, size);
	}
	tn_bytes_put_u64(buf, (uint64_t) g_tree_nnodes(snapshots->extras));
	g_tree_foreach(snapshots->extras, save_extra, buf);
	pthread_mutex_unlock(snapshots->lock);
	tn_bytes_put_u64(buf, tn_bytes_hash64(buf->data + start,
		buf->len - start));
}

/* The header's fields, checked. */
struct header {
	uint32_t flags;
	uint64_t count;
	struct tn_position reached;
	uint64_t reached_rank;
	uint64_t event_count;
};

/* The header after the magic and the version. */
static int read_header(struct tn_bytes_reader *r, struct header *h)
{
	/* The header fits (the size is checked first): its takes cannot
	 * fail. */
	tn_bytes_take_u32(r, &h->flags, "the flags");
	tn_bytes_take_u64(r, &h->count, "the snapshot count");
	tn_bytes_take_i64(r, &h->reached.ns, "the time reached");
	tn_bytes_take_u64(r, &h->reached.tie, "the tie reached");
	tn_bytes_take_u64(r, &h->reached_rank, "the event reached");
	tn_bytes_take_u64(r, &h->event_count, "the event count");
	if (r->failed)
		return -1;
	if (h->flags & ~KNOWN_FLAGS)
		return tn_bytes_fail(r, "unknown flags %#" PRIx32, h->flags);
	if (h->count > r->left / ENTRY_LEN)
		return tn_bytes_fail(r, "%" PRIu64 " snapshots in %zu bytes",
			h->count, r->left);
	if ((h->flags & FLAG_COMPLETE) && (h->flags & FLAG_REACHED) &&
	    h->reached_rank + 1 != h->event_count)
		return tn_bytes_fail(r, "reached event %" PRIu64 " of %" PRIu64,
			h->reached_rank, h->event_count);
	if ((h->flags & FLAG_COMPLETE) && !(h->flags & FLAG_REACHED) &&
	    h->event_count != 0)
		return tn_bytes_fail(r, "complete over %" PRIu64 " events "
			"without reaching one", h->event_count);
	if (!(h->flags & FLAG_REACHED) && h->count > 0)
		return tn_bytes_fail(r, "snapshots before any event was "
			"reached");
	return 0;
}

/* The len bytes at p, inside the section being loaded, as a slice of
 * it. */
static GBytes *slice_of_section(GBytes *section, const uint8_t *p,
		size_t len)
{
	const uint8_t *base = g_bytes_get_data(section, NULL);

	return g_bytes_new_from_bytes(section, (gsize) (p - base), len);
}

/* The snapshots after the header into out (sorted, within the events
 * reached), checked. */
static int read_entries(struct tn_bytes_reader *r, const struct header *h,
		GBytes *section, bool checked, struct tn_state_snapshots *out)
{
	for (uint64_t i = 0; i < h->count; i++) {
		/* Bytes checked as a whole need no check of their own. */
		struct snapshot s = { .checked = checked };
		const uint8_t *blob;
		uint64_t len;
		uint8_t kind;

		if (r->left < ENTRY_LEN)
			return tn_bytes_fail(r, "snapshot %" PRIu64 " beyond "
				"the end", i);
		tn_bytes_take_i64(r, &s.pos.ns, "a snapshot's time");
		tn_bytes_take_u64(r, &s.pos.tie, "a snapshot's tie");
		tn_bytes_take_u64(r, &s.rank, "a snapshot's event");
		tn_bytes_take_u8(r, &kind, "a snapshot's kind");
		tn_bytes_take_u64(r, &len, "a snapshot's size");
		if (kind > 1)
			return tn_bytes_fail(r, "snapshot %" PRIu64 ": kind %u",
				i, kind);
		s.full = kind == 1;
		if (len == 0 || len > r->left)
			return tn_bytes_fail(r, "snapshot %" PRIu64 ": %" PRIu64
				" bytes", i, len);
		if (out->items->len > 0) {
			const struct snapshot *last = &g_array_index(
				out->items, struct snapshot,
				out->items->len - 1);

			if (tn_position_compare(&last->pos, &s.pos) >= 0 ||
			    last->rank >= s.rank)
				return tn_bytes_fail(r, "snapshot %" PRIu64
					" not after the one before it", i);
		}
		if ((h->flags & FLAG_REACHED) && s.rank > h->reached_rank)
			return tn_bytes_fail(r, "snapshot %" PRIu64 " beyond "
				"the events reached", i);
		tn_bytes_take_raw(r, len, &blob, "a snapshot");
		s.blob = slice_of_section(section, blob, len);
		g_array_append_val(out->items, s);
		out->bytes += len;
	}
	return 0;
}

/* The extras after the snapshots into out, checked. */
static int read_extras(struct tn_bytes_reader *r, GBytes *section,
		struct tn_state_snapshots *out)
{
	uint64_t count;

	if (tn_bytes_take_u64(r, &count, "the extra count"))
		return -1;
	if (count > r->left / 9)
		return tn_bytes_fail(r, "%" PRIu64 " extras in %zu bytes",
			count, r->left);
	for (uint64_t i = 0; i < count; i++) {
		const char *name;
		const uint8_t *data;
		size_t name_len;
		uint64_t len;
		char *key;

		if (tn_bytes_take_string(r, &name, &name_len, "an extra's name")
		    || tn_bytes_take_u64(r, &len, "an extra's size"))
			return -1;
		if (len > r->left)
			return tn_bytes_fail(r, "extra %" PRIu64 ": %" PRIu64
				" bytes", i, len);
		tn_bytes_take_raw(r, len, &data, "an extra");
		key = g_strndup(name, name_len);
		if (g_tree_lookup(out->extras, key)) {
			g_free(key);
			return tn_bytes_fail(r, "extra %" PRIu64 " twice", i);
		}
		g_tree_insert(out->extras, key,
			slice_of_section(section, data, len));
	}
	if (r->left)
		return tn_bytes_fail(r, "%zu bytes after the snapshots",
			r->left);
	return 0;
}

/* The section into out (its snapshots and extras slices of it),
 * checked (its checksum too unless `checked`): 0, or -1 with the
 * reason in r. */
static int read_section(GBytes *section, bool checked,
		struct tn_bytes_reader *r, struct tn_state_snapshots *out)
{
	gsize size;
	const uint8_t *p = g_bytes_get_data(section, &size);
	struct header h = { 0 };

	if (size < HEADER_LEN + CHECKSUM_LEN)
		return tn_bytes_fail(r, "%zu bytes, too short", size);
	if (memcmp(p, MAGIC, 4) != 0)
		return tn_bytes_fail(r, "bad magic");
	if (tn_bytes_get_le(p + 4, 4) != VERSION)
		return tn_bytes_fail(r, "version %" PRIu64 ", expected %d",
			tn_bytes_get_le(p + 4, 4), VERSION);
	if (!checked && tn_bytes_hash64(p, size - CHECKSUM_LEN) !=
	    tn_bytes_get_le(p + size - CHECKSUM_LEN, 8))
		return tn_bytes_fail(r, "checksum mismatch");
	tn_bytes_reader_init(r, p + 8, size - 8 - CHECKSUM_LEN);
	if (read_header(r, &h) || read_entries(r, &h, section, checked, out) ||
	    read_extras(r, section, out))
		return -1;
	out->complete = h.flags & FLAG_COMPLETE;
	out->event_count = h.event_count;
	out->has_reached = h.flags & FLAG_REACHED;
	if (out->has_reached) {
		out->reached = h.reached;
		out->reached_rank = h.reached_rank;
	}
	return 0;
}

int tn_state_snapshots_load(const void *data, size_t size,
		struct tn_state_snapshots **out, struct tn_error *err)
{
	/* One copy of the section, which the snapshots and extras are
	 * slices of: hundreds of small copies cost more (a page fault
	 * for every few of them). */
	GBytes *section = tn_huge_pages_copy(data, size);
	int status = tn_state_snapshots_load_bytes(section, false, out, err);

	g_bytes_unref(section);
	return status;
}

int tn_state_snapshots_load_bytes(GBytes *section, bool checked,
		struct tn_state_snapshots **out, struct tn_error *err)
{
	struct tn_state_snapshots *snapshots = tn_state_snapshots_create();
	gsize size;
	const void *data = g_bytes_get_data(section, &size);
	struct tn_bytes_reader r;

	tn_bytes_reader_init(&r, data, size);
	if (read_section(section, checked, &r, snapshots)) {
		tn_state_snapshots_destroy(snapshots);
		tn_error_set(err, "state snapshots damaged: %s", r.why);
		return -1;
	}
	*out = snapshots;
	return 0;
}
