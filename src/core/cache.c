/* cache.c - the checkpoint index saved on disk.
 *
 * File name: <path hash>-<key>.index in the cache directory, where
 *   key       = SHA-256 (hex) of KEY_VERSION, the sorted real paths of the
 *               trace directories and, for each, every regular file under
 *               it (recursively, sorted by relative path): relative path,
 *               size, mtime seconds and nanoseconds; and the clock
 *               correction's text when the trace has one (sync.h);
 *   path hash = the first 16 hex digits of the SHA-256 of KEY_VERSION and
 *               the sorted real paths alone, so that a save can find and
 *               remove the files of older states of the same trace.
 * Any change to a trace file gives another key: the old file is simply
 * not found.
 *
 * File format (integers little-endian):
 *   magic             8 bytes  "TNIDX\0\0\1"
 *   format version    u32      FORMAT_VERSION
 *   key              32 bytes  binary SHA-256, as in the file name
 *   payload length    u64      = file size - 52 - 8
 *   payload:
 *     event_count u64, discarded_events u64,
 *     first_event_ns i64, last_event_ns i64,
 *     checkpoint_count u64, then per checkpoint: rank u64, ns i64, tie u64,
 *     class_count u64, then per class: name length u32, name bytes
 *       (any bytes but NUL, as CTF allows; not NUL-terminated), count u64,
 *     interval_count u64 (0, or checkpoint_count), then per checkpoint
 *       interval: entry count, then per entry: class index (in the class
 *       list), event count; these three as LEB128 varints,
 *     source_count u64, then per source: trace length u32, trace bytes,
 *       then as varints: stream class id, stream id, cpu + 1 (0: none),
 *       count,
 *     the sources of each interval, as for the classes (interval_count
 *       u64, then per interval: entry count, then source index and
 *       event count per entry, as varints),
 *     then, when that interval count is not 0, a varint per interval:
 *       the events lost just before its events,
 *     begin_ns i64, end_ns i64,
 *     bin_count u64, then bin_count varints: the events of each bin,
 *       then bin_count varints: the discarded events of each bin,
 *     packet_table_count u64, then per table: file length u32, file bytes
 *       (not NUL-terminated), packet count u64, then per packet:
 *       begin_ns i64, end_ns i64,
 *     snapshots length u64 (0: none), then that many bytes: the state
 *       snapshots (tn_state_snapshots_save(), state-snapshots.c, with
 *       their own checksum and checks, and what the state pass kept
 *       with them: the analyses of the whole trace, the timelines'
 *       summary), saved once the
 *       state pass read the whole trace
 *   checksum          u64      tn_bytes_checksum64() (bytes.h) of everything
 *                              before it: a torn or damaged file is what
 *                              it catches (SHA-256, which format 8 used,
 *                              took 80 ms of a 17 MB file's load)
 *
 * A file of another format version (an older tracenav's) is simply not
 * used: a miss, replaced by the next save.  Format 10 added the sources
 * and the lost events of the intervals; 11 the timelines' summary (an
 * older file would keep the timelines of wide spans slow for good); 12
 * the threads' parents in it, 13 the irqs' names, 14 its finer buckets
 * (their times in 255ths); 15 a checksum of four lanes.
 *
 * A loaded file is checked field by field before any of it is used, and
 * every count is checked against the bytes left before it is allocated:
 * a bad file is removed and reported, never trusted (the checksums of
 * the snapshots' section and of its blobs are not computed again under
 * the file's, which covers them).  Saves go through a temporary file in
 * the same directory, fsync'ed and renamed over the final name, so a
 * file is never rewritten in place: it is read mapped, and the
 * snapshots are slices of the mapping.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/core/bytes.h"
#include "src/core/huge-pages.h"
#include "src/core/cache-private.h"
#include "tracenav/cache.h"
#include "tracenav/file.h"
#include "tracenav/state-history.h"
#include "tracenav/sync.h"

#define FORMAT_VERSION 15
#define KEY_VERSION "tracenav-index-1"
#define DIGEST_LEN 32
#define HEADER_LEN (8 + 4 + DIGEST_LEN + 8)
#define TRAILER_LEN 8
#define PATH_HASH_HEX_LEN 16
#define FILE_SUFFIX ".index"
/* A 100 M-event index is under 1 MB, and the snapshots of the state
 * are a few per cent of the trace: anything this big is not ours (and
 * a save leaves the snapshots out rather than write more). */
#define MAX_FILE_SIZE (UINT64_C(1) << 30)
/* How deep a trace directory is searched for files (as trace.c does). */
#define MAX_SCAN_DEPTH 32
/* Temporary files older than this were left by a crashed save. */
#define STALE_TEMP_SECONDS 3600
#define CHECKPOINT_BYTES (8 + 8 + 8)
#define MIN_CLASS_BYTES (4 + 1 + 8)
#define MIN_SOURCE_BYTES (4 + 1 + 4)
#define PACKET_BYTES (8 + 8)
#define MIN_TABLE_BYTES (4 + 1 + 8 + PACKET_BYTES)
#define REASON_MAX 256

static const uint8_t file_magic[8] = { 'T', 'N', 'I', 'D', 'X', 0, 0, 1 };

/* --- The key --- */

static void hash_u64(GChecksum *sum, uint64_t value)
{
	uint8_t buf[8];

	tn_bytes_set_le(buf, value, 8);
	g_checksum_update(sum, buf, sizeof(buf));
}

/* Length first, so that no two lists of strings hash alike. */
static void hash_string(GChecksum *sum, const char *text)
{
	size_t len = strlen(text);

	hash_u64(sum, len);
	g_checksum_update(sum, (const guchar *) text, (gssize) len);
}

static void checksum_digest(GChecksum *sum, uint8_t digest[DIGEST_LEN])
{
	gsize len = DIGEST_LEN;

	g_checksum_get_digest(sum, digest, &len);
}

static void hex_encode(const uint8_t *bytes, size_t count, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < count; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 0xf];
	}
	out[2 * count] = '\0';
}

struct file_stamp {
	char *rel_path;
	uint64_t size;
	int64_t mtime_sec;
	int64_t mtime_nsec;
};

static void file_stamp_free(gpointer data)
{
	struct file_stamp *stamp = data;

	g_free(stamp->rel_path);
	g_free(stamp);
}

static gint compare_stamps(gconstpointer a, gconstpointer b)
{
	const struct file_stamp *x = *(struct file_stamp *const *) a;
	const struct file_stamp *y = *(struct file_stamp *const *) b;

	return strcmp(x->rel_path, y->rel_path);
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static void add_stamp(GPtrArray *stamps, const char *rel_path,
		const struct stat *st)
{
	struct file_stamp *stamp = g_new(struct file_stamp, 1);

	stamp->rel_path = g_strdup(rel_path);
	stamp->size = (uint64_t) st->st_size;
	stamp->mtime_sec = st->st_mtim.tv_sec;
	stamp->mtime_nsec = st->st_mtim.tv_nsec;
	g_ptr_array_add(stamps, stamp);
}

static int collect_files(const char *root, const char *rel, int depth,
		GPtrArray *stamps, struct tn_error *err);

/* One entry of a trace directory.  Symlinks to files count (slices and
 * some tools link stream files); symlinks to directories are not
 * followed, so that a loop cannot make the scan endless. */
static int collect_entry(const char *root, const char *rel_path, int depth,
		GPtrArray *stamps, struct tn_error *err)
{
	char *full = g_build_filename(root, rel_path, NULL);
	struct stat st;
	int ret = 0;

	if (lstat(full, &st) != 0) {
		/* Gone since the listing: the key changes anyway. */
		if (errno != ENOENT) {
			tn_error_set(err, "cannot read %s: %s", full,
				strerror(errno));
			ret = -1;
		}
	} else if (S_ISDIR(st.st_mode)) {
		if (depth < MAX_SCAN_DEPTH)
			ret = collect_files(root, rel_path, depth + 1, stamps,
				err);
	} else if (S_ISLNK(st.st_mode)) {
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
			add_stamp(stamps, rel_path, &st);
	} else if (S_ISREG(st.st_mode)) {
		add_stamp(stamps, rel_path, &st);
	}
	g_free(full);
	return ret;
}

/* Every regular file under root/rel (rel NULL: root itself). */
static int collect_files(const char *root, const char *rel, int depth,
		GPtrArray *stamps, struct tn_error *err)
{
	char *path = rel ? g_build_filename(root, rel, NULL) : g_strdup(root);
	GError *gerr = NULL;
	GDir *listing = g_dir_open(path, 0, &gerr);
	const char *name;
	int ret = 0;

	if (!listing) {
		tn_error_set(err, "cannot read trace directory %s: %s", path,
			gerr->message);
		g_error_free(gerr);
		g_free(path);
		return -1;
	}
	while (ret == 0 && (name = g_dir_read_name(listing))) {
		char *rel_path = rel ? g_build_filename(rel, name, NULL) :
			g_strdup(name);

		ret = collect_entry(root, rel_path, depth, stamps, err);
		g_free(rel_path);
	}
	g_dir_close(listing);
	g_free(path);
	return ret;
}

/* The sorted real paths of the trace directories into *out: 0, or -1
 * with err. */
static int real_trace_dirs(const struct tn_trace *trace, GPtrArray **out,
		struct tn_error *err)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);

	for (size_t i = 0; i < tn_trace_get_dir_count(trace); i++) {
		const char *dir = tn_trace_get_dir(trace, i);
		char *real = realpath(dir, NULL);

		if (!real) {
			tn_error_set(err, "cannot read trace directory %s: %s",
				dir, strerror(errno));
			g_ptr_array_free(dirs, TRUE);
			return -1;
		}
		g_ptr_array_add(dirs, g_strdup(real));
		free(real);
	}
	g_ptr_array_sort(dirs, compare_strings);
	*out = dirs;
	return 0;
}

/* Where the index of a trace, as its files are now, lives. */
struct cache_entry {
	uint8_t key[DIGEST_LEN];
	char path_hash[PATH_HASH_HEX_LEN + 1];
	char file_name[PATH_HASH_HEX_LEN + 1 + 2 * DIGEST_LEN +
		sizeof(FILE_SUFFIX)];
};

/* With a clock correction (tn_trace_set_sync()), the index of the
 * corrected times has a path hash of its own: it and the index of the
 * recorded times are kept side by side. */
static void compute_path_hash(GPtrArray *dirs, bool corrected,
		struct cache_entry *entry)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	uint8_t digest[DIGEST_LEN];

	hash_string(sum, KEY_VERSION);
	hash_u64(sum, dirs->len);
	for (guint i = 0; i < dirs->len; i++)
		hash_string(sum, dirs->pdata[i]);
	if (corrected)
		hash_string(sum, "corrected clocks");
	checksum_digest(sum, digest);
	g_checksum_free(sum);
	hex_encode(digest, PATH_HASH_HEX_LEN / 2, entry->path_hash);
}

static int hash_dir_files(GChecksum *sum, const char *dir,
		struct tn_error *err)
{
	GPtrArray *stamps = g_ptr_array_new_with_free_func(file_stamp_free);

	if (collect_files(dir, NULL, 0, stamps, err)) {
		g_ptr_array_free(stamps, TRUE);
		return -1;
	}
	g_ptr_array_sort(stamps, compare_stamps);
	hash_string(sum, dir);
	hash_u64(sum, stamps->len);
	for (guint i = 0; i < stamps->len; i++) {
		const struct file_stamp *stamp = stamps->pdata[i];

		hash_string(sum, stamp->rel_path);
		hash_u64(sum, stamp->size);
		hash_u64(sum, (uint64_t) stamp->mtime_sec);
		hash_u64(sum, (uint64_t) stamp->mtime_nsec);
	}
	g_ptr_array_free(stamps, TRUE);
	return 0;
}

/* The entry of trace as its files are now; with its clock correction
 * when `recorded` is false (what its readers read), without (what was
 * recorded) when true. */
static int compute_entry_of(const struct tn_trace *trace, bool recorded,
		struct cache_entry *entry, struct tn_error *err)
{
	const struct tn_sync *sync = recorded ? NULL :
		tn_trace_get_sync(trace);
	GPtrArray *dirs;
	GChecksum *sum;
	char key_hex[2 * DIGEST_LEN + 1];
	int ret = 0;

	if (real_trace_dirs(trace, &dirs, err))
		return -1;
	compute_path_hash(dirs, sync != NULL, entry);
	sum = g_checksum_new(G_CHECKSUM_SHA256);
	hash_string(sum, KEY_VERSION);
	hash_u64(sum, dirs->len);
	for (guint i = 0; ret == 0 && i < dirs->len; i++)
		ret = hash_dir_files(sum, dirs->pdata[i], err);
	/* The correction, as it prints (the same text, the same times). */
	if (sync) {
		GString *text = g_string_new(NULL);

		tn_sync_format(sync, text);
		hash_string(sum, text->str);
		g_string_free(text, TRUE);
	}
	checksum_digest(sum, entry->key);
	g_checksum_free(sum);
	g_ptr_array_free(dirs, TRUE);
	hex_encode(entry->key, DIGEST_LEN, key_hex);
	snprintf(entry->file_name, sizeof(entry->file_name), "%s-%s%s",
		entry->path_hash, key_hex, FILE_SUFFIX);
	return ret;
}

static int compute_entry(const struct tn_trace *trace,
		struct cache_entry *entry, struct tn_error *err)
{
	return compute_entry_of(trace, false, entry, err);
}

int tn_cache_recorded_name(const struct tn_trace *trace, char **prefix,
		char **name, struct tn_error *err)
{
	struct cache_entry entry;

	if (compute_entry_of(trace, true, &entry, err))
		return -1;
	*prefix = g_strdup(entry.path_hash);
	/* Without the index file's suffix. */
	*name = g_strndup(entry.file_name,
		strlen(entry.file_name) - strlen(FILE_SUFFIX));
	return 0;
}

/* --- Consistency of an index (checked on save and on load) --- */

static bool check_checkpoints(const struct tn_index *index, char *why)
{
	const struct tn_checkpoint *cps = index->checkpoints;
	size_t count = index->checkpoint_count;

	if ((count == 0) != (index->event_count == 0)) {
		snprintf(why, REASON_MAX, "%zu checkpoints for %" PRIu64
			" events", count, index->event_count);
		return false;
	}
	if (count > 0 && cps[0].rank != 0) {
		snprintf(why, REASON_MAX, "first checkpoint has rank %" PRIu64,
			cps[0].rank);
		return false;
	}
	for (size_t i = 1; i < count; i++) {
		if (cps[i].rank <= cps[i - 1].rank ||
		    cps[i].rank - cps[i - 1].rank > TN_INDEX_INTERVAL) {
			snprintf(why, REASON_MAX, "checkpoint %zu: rank "
				"%" PRIu64 " after %" PRIu64, i, cps[i].rank,
				cps[i - 1].rank);
			return false;
		}
	}
	if (count > 0 && (cps[count - 1].rank >= index->event_count ||
	    index->event_count - cps[count - 1].rank > TN_INDEX_INTERVAL)) {
		snprintf(why, REASON_MAX, "last checkpoint (rank %" PRIu64
			") beyond or too far from the end (%" PRIu64
			" events)",
			cps[count - 1].rank, index->event_count);
		return false;
	}
	return true;
}

/* Names non-empty, strictly sorted; counts adding up to at most the
 * events (an event class may have no name).  A name is any bytes but
 * NUL, as CTF metadata allows: not necessarily UTF-8. */
static bool check_classes(const struct tn_index *index, char *why)
{
	uint64_t total = 0;

	for (size_t i = 0; i < index->class_count; i++) {
		const struct tn_class_count *class = &index->classes[i];

		if (!class->name || !class->name[0]) {
			snprintf(why, REASON_MAX, "class %zu: empty or invalid "
				"name", i);
			return false;
		}
		if (i > 0 && strcmp(index->classes[i - 1].name,
				class->name) >= 0) {
			snprintf(why, REASON_MAX, "class %zu: names not sorted",
				i);
			return false;
		}
		if (class->count > index->event_count - total) {
			snprintf(why, REASON_MAX, "class counts exceed the "
				"%" PRIu64 " events", index->event_count);
			return false;
		}
		total += class->count;
	}
	return true;
}

/* The entries of each interval (names or sources): keys below
 * key_count and increasing, counts adding up to at most the interval's
 * events and, per key, to totals[key]. */
static bool check_interval_entries(const struct tn_index *index,
		const size_t *start, const struct tn_interval_count *entries,
		size_t key_count, const uint64_t *totals_want, const char *what,
		char *why)
{
	uint64_t *totals;
	bool ok = true;

	if (!start)
		return true;
	if (start[0] != 0) {
		snprintf(why, REASON_MAX, "interval %s do not start at 0",
			what);
		return false;
	}
	totals = g_new0(uint64_t, key_count + 1);
	for (size_t i = 0; i < index->checkpoint_count && ok; i++) {
		uint64_t events = i + 1 < index->checkpoint_count ?
			index->checkpoints[i + 1].rank -
			index->checkpoints[i].rank :
			index->event_count - index->checkpoints[i].rank;
		uint64_t sum = 0;

		for (size_t e = start[i]; e < start[i + 1] && ok; e++) {
			const struct tn_interval_count *entry = &entries[e];

			ok = entry->key < key_count && entry->count > 0 &&
				(e == start[i] || entry->key > entries[e - 1].key);
			if (ok) {
				sum += entry->count;
				totals[entry->key] += entry->count;
			}
		}
		/* An event class may have no name: at most the events. */
		if (!ok || sum > events) {
			snprintf(why, REASON_MAX, "interval %zu: %s of %"
				PRIu64 " events, not %" PRIu64, i, what, sum,
				events);
			ok = false;
		}
	}
	for (size_t k = 0; k < key_count && ok; k++) {
		if (totals[k] != totals_want[k]) {
			snprintf(why, REASON_MAX, "%s %zu: %" PRIu64 " events "
				"in the intervals, %" PRIu64 " in all", what, k,
				totals[k], totals_want[k]);
			ok = false;
		}
	}
	g_free(totals);
	return ok;
}

static bool check_intervals(const struct tn_index *index, char *why)
{
	uint64_t *class_totals = g_new0(uint64_t, index->class_count + 1);
	uint64_t *source_totals = g_new0(uint64_t, index->source_count + 1);
	uint64_t lost = 0;
	bool ok;

	for (size_t k = 0; k < index->class_count; k++)
		class_totals[k] = index->classes[k].count;
	for (size_t k = 0; k < index->source_count; k++)
		source_totals[k] = index->sources[k].count;
	ok = check_interval_entries(index, index->interval_class_start,
			index->interval_classes, index->class_count,
			class_totals, "names", why) &&
		check_interval_entries(index, index->interval_source_start,
			index->interval_sources, index->source_count,
			source_totals, "sources", why);
	for (size_t i = 0; ok && index->interval_lost &&
			i < index->checkpoint_count; i++) {
		if (index->interval_lost[i] > index->discarded_events - lost) {
			snprintf(why, REASON_MAX, "lost events per interval "
				"exceed the %" PRIu64, index->discarded_events);
			ok = false;
		}
		lost += index->interval_lost[i];
	}
	g_free(class_totals);
	g_free(source_totals);
	return ok;
}

/* Traces named (any bytes but NUL: a host name is the trace's to say),
 * strictly sorted; counts adding up to the events. */
static bool check_sources(const struct tn_index *index, char *why)
{
	uint64_t total = 0;

	for (size_t i = 0; i < index->source_count; i++) {
		const struct tn_index_source *source = &index->sources[i];

		if (!source->trace || !source->trace[0] || source->cpu < -1) {
			snprintf(why, REASON_MAX, "source %zu: bad trace name "
				"or CPU", i);
			return false;
		}
		if (i > 0 && tn_index_source_compare(&index->sources[i - 1],
				source) >= 0) {
			snprintf(why, REASON_MAX, "source %zu: not sorted", i);
			return false;
		}
		if (source->count > index->event_count - total) {
			snprintf(why, REASON_MAX, "source counts exceed the "
				"%" PRIu64 " events", index->event_count);
			return false;
		}
		total += source->count;
	}
	if (total != index->event_count) {
		snprintf(why, REASON_MAX, "sources of %" PRIu64 " events, not "
			"%" PRIu64, total, index->event_count);
		return false;
	}
	return true;
}

static bool check_bins(const struct tn_index *index, char *why)
{
	uint64_t total = 0;

	if (index->bin_count > 0 && index->begin_ns > index->end_ns) {
		snprintf(why, REASON_MAX, "time range ends before it begins");
		return false;
	}
	for (size_t i = 0; i < index->bin_count; i++) {
		if (index->bins[i] > index->event_count - total) {
			snprintf(why, REASON_MAX, "bin counts exceed the "
				"%" PRIu64 " events", index->event_count);
			return false;
		}
		total += index->bins[i];
	}
	total = 0;
	for (size_t i = 0; i < index->bin_count; i++) {
		if (index->lost_bins[i] > index->discarded_events - total) {
			snprintf(why, REASON_MAX, "discarded events per bin "
				"exceed the %" PRIu64, index->discarded_events);
			return false;
		}
		total += index->lost_bins[i];
	}
	return true;
}

/* Files named, without a NUL; at least one packet, none ending before
 * it begins. */
static bool check_packet_tables(const struct tn_index *index, char *why)
{
	const struct tn_packet_tables *tables =
		tn_index_borrow_packet_tables(index);
	size_t count = tables ? tn_packets_get_table_count(tables) : 0;

	for (size_t i = 0; i < count; i++) {
		const char *file = tn_packets_get_file(tables, i);
		uint64_t packets = tn_packets_get_packet_count(tables, i);
		const int64_t *begin_ns = tn_packets_borrow_begin_ns(tables, i);
		const int64_t *end_ns = tn_packets_borrow_end_ns(tables, i);

		if (!file || !file[0] || packets == 0) {
			snprintf(why, REASON_MAX, "packet table %zu: no file "
				"or no packets", i);
			return false;
		}
		for (uint64_t k = 0; k < packets; k++) {
			if (end_ns[k] < begin_ns[k]) {
				snprintf(why, REASON_MAX, "packet table %zu: "
					"packet %" PRIu64 " ends before it "
					"begins", i, k);
				return false;
			}
		}
	}
	return true;
}

static bool check_event_times(const struct tn_index *index, char *why)
{
	if (index->event_count > 0 &&
	    index->first_event_ns > index->last_event_ns) {
		snprintf(why, REASON_MAX, "last event before the first");
		return false;
	}
	return true;
}

static bool check_index(const struct tn_index *index, char *why)
{
	return check_event_times(index, why) &&
		check_checkpoints(index, why) && check_classes(index, why) &&
		check_sources(index, why) && check_intervals(index, why) &&
		check_bins(index, why) && check_packet_tables(index, why);
}

/* --- Encoding --- */

static void encode_packet_tables(const struct tn_packet_tables *tables,
		GByteArray *out)
{
	size_t count = tables ? tn_packets_get_table_count(tables) : 0;

	tn_bytes_put_u64(out, count);
	for (size_t i = 0; i < count; i++) {
		const char *file = tn_packets_get_file(tables, i);
		uint64_t packets = tn_packets_get_packet_count(tables, i);
		const int64_t *begin_ns = tn_packets_borrow_begin_ns(tables, i);
		const int64_t *end_ns = tn_packets_borrow_end_ns(tables, i);
		size_t len = strlen(file);

		tn_bytes_put_u32(out, (uint32_t) len);
		tn_bytes_put_raw(out, file, len);
		tn_bytes_put_u64(out, packets);
		for (uint64_t k = 0; k < packets; k++) {
			tn_bytes_put_u64(out, (uint64_t) begin_ns[k]);
			tn_bytes_put_u64(out, (uint64_t) end_ns[k]);
		}
	}
}

static void encode_intervals(const struct tn_index *index,
		const size_t *start, const struct tn_interval_count *entries,
		GByteArray *out)
{
	tn_bytes_put_u64(out, start ? index->checkpoint_count : 0);
	for (size_t i = 0; start && i < index->checkpoint_count; i++) {
		tn_bytes_put_varint(out, start[i + 1] - start[i]);
		for (size_t e = start[i]; e < start[i + 1]; e++) {
			tn_bytes_put_varint(out, entries[e].key);
			tn_bytes_put_varint(out, entries[e].count);
		}
	}
}

static void encode_sources(const struct tn_index *index, GByteArray *out)
{
	tn_bytes_put_u64(out, index->source_count);
	for (size_t i = 0; i < index->source_count; i++) {
		const struct tn_index_source *source = &index->sources[i];
		size_t len = strlen(source->trace);

		tn_bytes_put_u32(out, (uint32_t) len);
		tn_bytes_put_raw(out, source->trace, len);
		tn_bytes_put_varint(out, source->stream_class_id);
		tn_bytes_put_varint(out, source->stream_id);
		tn_bytes_put_varint(out, (uint64_t) (source->cpu + 1));
		tn_bytes_put_varint(out, source->count);
	}
	encode_intervals(index, index->interval_source_start,
		index->interval_sources, out);
	for (size_t i = 0; index->interval_source_start &&
			i < index->checkpoint_count; i++)
		tn_bytes_put_varint(out, index->interval_lost ?
			index->interval_lost[i] : 0);
}

static void encode_snapshots(const struct tn_state_snapshots *snapshots,
		GByteArray *out)
{
	guint at = out->len;

	tn_bytes_put_u64(out, 0);
	if (!snapshots)
		return;
	tn_state_snapshots_save(snapshots, out);
	/* The length, now known. */
	tn_bytes_set_le(out->data + at, out->len - at - 8, 8);
}

static void encode_payload(const struct tn_index *index,
		const struct tn_state_snapshots *snapshots, GByteArray *out)
{
	tn_bytes_put_u64(out, index->event_count);
	tn_bytes_put_u64(out, index->discarded_events);
	tn_bytes_put_u64(out, (uint64_t) index->first_event_ns);
	tn_bytes_put_u64(out, (uint64_t) index->last_event_ns);
	tn_bytes_put_u64(out, index->checkpoint_count);
	for (size_t i = 0; i < index->checkpoint_count; i++) {
		const struct tn_checkpoint *cp = &index->checkpoints[i];

		tn_bytes_put_u64(out, cp->rank);
		tn_bytes_put_u64(out, (uint64_t) cp->pos.ns);
		tn_bytes_put_u64(out, cp->pos.tie);
	}
	tn_bytes_put_u64(out, index->class_count);
	for (size_t i = 0; i < index->class_count; i++) {
		const struct tn_class_count *class = &index->classes[i];
		size_t len = strlen(class->name);

		tn_bytes_put_u32(out, (uint32_t) len);
		tn_bytes_put_raw(out, class->name, len);
		tn_bytes_put_u64(out, class->count);
	}
	encode_intervals(index, index->interval_class_start,
		index->interval_classes, out);
	encode_sources(index, out);
	tn_bytes_put_u64(out, (uint64_t) index->begin_ns);
	tn_bytes_put_u64(out, (uint64_t) index->end_ns);
	tn_bytes_put_u64(out, index->bin_count);
	for (size_t i = 0; i < index->bin_count; i++)
		tn_bytes_put_varint(out, index->bins[i]);
	for (size_t i = 0; i < index->bin_count; i++)
		tn_bytes_put_varint(out, index->lost_bins[i]);
	encode_packet_tables(tn_index_borrow_packet_tables(index), out);
	encode_snapshots(snapshots, out);
}

static void append_checksum(GByteArray *out)
{
	tn_bytes_put_u64(out, tn_bytes_checksum64(out->data, out->len));
}

static GByteArray *encode_file(const struct tn_index *index,
		const struct tn_state_snapshots *snapshots,
		const uint8_t key[DIGEST_LEN])
{
	GByteArray *payload = g_byte_array_new();
	GByteArray *out = g_byte_array_new();

	encode_payload(index, snapshots, payload);
	/* Too large to be read back: without the snapshots (the state
	 * pass runs again next time). */
	if (snapshots && HEADER_LEN + TRAILER_LEN + (uint64_t) payload->len >
			MAX_FILE_SIZE) {
		g_byte_array_set_size(payload, 0);
		encode_payload(index, NULL, payload);
	}
	tn_bytes_put_raw(out, file_magic, sizeof(file_magic));
	tn_bytes_put_u32(out, FORMAT_VERSION);
	tn_bytes_put_raw(out, key, DIGEST_LEN);
	tn_bytes_put_u64(out, payload->len);
	tn_bytes_put_raw(out, payload->data, payload->len);
	g_byte_array_free(payload, TRUE);
	append_checksum(out);
	return out;
}

/* --- Decoding --- */

/* Each decode reads one part of the payload from r: 0, or -1 with the
 * reason in r.  Every count is checked against the bytes left before
 * anything is allocated for it. */

static int decode_checkpoints(struct tn_bytes_reader *r,
		struct tn_index *index)
{
	uint64_t count;

	if (tn_bytes_take_u64(r, &count, "the checkpoint count"))
		return -1;
	if (count > r->left / CHECKPOINT_BYTES)
		return tn_bytes_fail(r, "checkpoint count beyond the payload");
	index->checkpoints = g_new(struct tn_checkpoint, count);
	index->checkpoint_count = count;
	for (size_t i = 0; i < count; i++) {
		struct tn_checkpoint *cp = &index->checkpoints[i];

		tn_bytes_take_u64(r, &cp->rank, "a checkpoint's rank");
		tn_bytes_take_i64(r, &cp->pos.ns, "a checkpoint's time");
		tn_bytes_take_u64(r, &cp->pos.tie, "a checkpoint's tie");
	}
	return 0;
}

static int decode_class(struct tn_bytes_reader *r,
		struct tn_class_count *class, size_t i)
{
	const uint8_t *name;
	uint32_t len;

	if (tn_bytes_take_u32(r, &len, "a class name's length"))
		return -1;
	if (len > r->left || r->left - len < 8)
		return tn_bytes_fail(r, "class %zu beyond the payload", i);
	tn_bytes_take_raw(r, len, &name, "a class name");
	if (len == 0 || memchr(name, 0, len))
		return tn_bytes_fail(r, "class %zu: empty or invalid name", i);
	class->name = g_strndup((const char *) name, len);
	return tn_bytes_take_u64(r, &class->count, "a class's count");
}

static int decode_classes(struct tn_bytes_reader *r, struct tn_index *index)
{
	uint64_t count;

	if (tn_bytes_take_u64(r, &count, "the class count"))
		return -1;
	if (count > r->left / MIN_CLASS_BYTES)
		return tn_bytes_fail(r, "class count beyond the payload");
	/* Zeroed, so that tn_index_destroy() can free a partial list. */
	index->classes = g_new0(struct tn_class_count, count);
	index->class_count = count;
	for (size_t i = 0; i < count; i++) {
		if (decode_class(r, &index->classes[i], i))
			return -1;
	}
	return 0;
}

/* One interval's entries, appended to entries. */
static int decode_interval(struct tn_bytes_reader *r, GArray *entries,
		size_t i)
{
	uint64_t n;

	if (tn_bytes_take_varint(r, &n, "an interval's entry count"))
		return -1;
	/* Each entry takes two bytes at least. */
	if (n > r->left / 2)
		return tn_bytes_fail(r, "interval %zu beyond the payload", i);
	for (uint64_t e = 0; e < n; e++) {
		struct tn_interval_count entry;
		uint64_t key, events;

		if (tn_bytes_take_varint(r, &key, "an interval's key") ||
		    tn_bytes_take_varint(r, &events, "an interval's count"))
			return -1;
		if (key > UINT32_MAX || events > UINT32_MAX)
			return tn_bytes_fail(r, "interval %zu: bad entry", i);
		entry.key = (uint32_t) key;
		entry.count = (uint32_t) events;
		g_array_append_val(entries, entry);
	}
	return 0;
}

/* The entries of each interval into *start_out and *entries_out (left
 * NULL when the file has none). */
static int decode_intervals(struct tn_bytes_reader *r,
		const struct tn_index *index, size_t **start_out,
		struct tn_interval_count **entries_out)
{
	GArray *entries;
	size_t *start;
	uint64_t count;
	int status = 0;

	if (tn_bytes_take_u64(r, &count, "the interval count"))
		return -1;
	if (count != 0 && count != index->checkpoint_count)
		return tn_bytes_fail(r, "interval count not the checkpoint "
			"count");
	if (count == 0)
		return 0;
	entries = g_array_new(FALSE, FALSE, sizeof(struct tn_interval_count));
	/* Zeroed: what is not read stays empty for tn_index_destroy(). */
	start = g_new0(size_t, count + 1);
	for (size_t i = 0; i < count && status == 0; i++) {
		start[i] = entries->len;
		status = decode_interval(r, entries, i);
	}
	start[count] = entries->len;
	*start_out = start;
	*entries_out = (struct tn_interval_count *) g_array_free(entries,
		FALSE);
	return status;
}

static int decode_source(struct tn_bytes_reader *r,
		struct tn_index_source *source, size_t i)
{
	const uint8_t *name;
	uint64_t cpu;
	uint32_t len;

	if (tn_bytes_take_u32(r, &len, "a source's trace length"))
		return -1;
	if (len > r->left || r->left - len < 4)
		return tn_bytes_fail(r, "source %zu beyond the payload", i);
	tn_bytes_take_raw(r, len, &name, "a source's trace");
	if (len == 0 || memchr(name, 0, len))
		return tn_bytes_fail(r, "source %zu: empty or invalid trace "
			"name", i);
	source->trace = g_strndup((const char *) name, len);
	if (tn_bytes_take_varint(r, &source->stream_class_id,
			"a source's stream class") ||
	    tn_bytes_take_varint(r, &source->stream_id, "a source's stream") ||
	    tn_bytes_take_varint(r, &cpu, "a source's CPU") ||
	    tn_bytes_take_varint(r, &source->count, "a source's count"))
		return -1;
	if (cpu > (uint64_t) INT64_MAX)
		return tn_bytes_fail(r, "source %zu: bad CPU", i);
	source->cpu = (int64_t) cpu - 1;
	return 0;
}

static int decode_sources(struct tn_bytes_reader *r, struct tn_index *index)
{
	uint64_t count;

	if (tn_bytes_take_u64(r, &count, "the source count"))
		return -1;
	if (count > r->left / MIN_SOURCE_BYTES)
		return tn_bytes_fail(r, "source count beyond the payload");
	/* Zeroed, so that tn_index_destroy() can free a partial list. */
	index->sources = g_new0(struct tn_index_source, count);
	index->source_count = count;
	for (size_t i = 0; i < count; i++) {
		if (decode_source(r, &index->sources[i], i))
			return -1;
	}
	if (decode_intervals(r, index, &index->interval_source_start,
			&index->interval_sources))
		return -1;
	if (!index->interval_source_start)
		return 0;
	if (index->checkpoint_count > r->left)
		return tn_bytes_fail(r, "lost events per interval beyond the "
			"payload");
	index->interval_lost = g_new0(uint64_t, index->checkpoint_count);
	for (size_t i = 0; i < index->checkpoint_count; i++) {
		if (tn_bytes_take_varint(r, &index->interval_lost[i],
				"an interval's lost events"))
			return -1;
	}
	return 0;
}

static int decode_bins(struct tn_bytes_reader *r, struct tn_index *index)
{
	uint64_t count;

	tn_bytes_take_i64(r, &index->begin_ns, "the time range's begin");
	tn_bytes_take_i64(r, &index->end_ns, "the time range's end");
	if (tn_bytes_take_u64(r, &count, "the bin count"))
		return -1;
	/* Two varints of a byte at least per bin. */
	if (count > r->left / 2)
		return tn_bytes_fail(r, "bin count beyond the payload");
	index->bins = g_new(uint64_t, count);
	index->lost_bins = g_new0(uint64_t, count);
	index->bin_count = count;
	for (size_t i = 0; i < count; i++)
		tn_bytes_take_varint(r, &index->bins[i], "a bin");
	for (size_t i = 0; i < count; i++) {
		if (tn_bytes_take_varint(r, &index->lost_bins[i],
				"a bin's discarded events"))
			return -1;
	}
	return 0;
}

static int decode_packet_table(struct tn_bytes_reader *r,
		struct tn_packet_tables *tables, size_t i)
{
	const uint8_t *name;
	uint32_t len;
	uint64_t count;
	int64_t *begin_ns, *end_ns;
	char *file;

	if (tn_bytes_take_u32(r, &len, "a packet table's file length"))
		return -1;
	if (len > r->left || r->left - len < 8)
		return tn_bytes_fail(r, "packet table %zu beyond the payload",
			i);
	tn_bytes_take_raw(r, len, &name, "a packet table's file");
	if (len == 0 || memchr(name, 0, len))
		return tn_bytes_fail(r, "packet table %zu: empty or invalid "
			"file name", i);
	tn_bytes_take_u64(r, &count, "a packet table's packet count");
	if (count > r->left / PACKET_BYTES)
		return tn_bytes_fail(r, "packet table %zu: packet count "
			"beyond the payload", i);
	file = g_strndup((const char *) name, len);
	begin_ns = g_new(int64_t, count);
	end_ns = g_new(int64_t, count);
	for (uint64_t k = 0; k < count; k++) {
		tn_bytes_take_i64(r, &begin_ns[k], "a packet's begin");
		tn_bytes_take_i64(r, &end_ns[k], "a packet's end");
	}
	tn_packets_add_table(tables, file, count, begin_ns, end_ns);
	g_free(file);
	return 0;
}

static int decode_packet_tables(struct tn_bytes_reader *r,
		struct tn_index *index)
{
	uint64_t count;

	if (tn_bytes_take_u64(r, &count, "the packet table count"))
		return -1;
	if (count > r->left / MIN_TABLE_BYTES)
		return tn_bytes_fail(r, "packet table count beyond the "
			"payload");
	/* Owned by the index as it fills, so that tn_index_destroy() frees
	 * a partial set. */
	index->packet_tables = tn_packets_create();
	for (size_t i = 0; i < count; i++) {
		if (decode_packet_table(r, index->packet_tables, i))
			return -1;
	}
	return 0;
}

/* The snapshots section into *snapshots (NULL when the file has none),
 * slices of file, which holds it; skipped when snapshots is NULL. */
static int decode_snapshots(struct tn_bytes_reader *r, GBytes *file,
		struct tn_state_snapshots **snapshots)
{
	const uint8_t *base = g_bytes_get_data(file, NULL);
	struct tn_error err;
	const uint8_t *section;
	GBytes *slice;
	uint64_t len;
	int status;

	if (tn_bytes_take_u64(r, &len, "the snapshots' length"))
		return -1;
	if (len > r->left)
		return tn_bytes_fail(r, "snapshots beyond the payload");
	tn_bytes_take_raw(r, len, &section, "the snapshots");
	if (len == 0 || !snapshots)
		return 0;
	slice = g_bytes_new_from_bytes(file, (gsize) (section - base), len);
	/* decode_file() checked the whole file's checksum. */
	status = tn_state_snapshots_load_bytes(slice, true, snapshots, &err);
	g_bytes_unref(slice);
	return status ? tn_bytes_fail(r, "%s", err.message) : 0;
}

static struct tn_index *decode_payload(GBytes *file, const uint8_t *payload,
		size_t len, struct tn_state_snapshots **snapshots, char *why)
{
	struct tn_bytes_reader r;
	struct tn_index *index = g_new0(struct tn_index, 1);
	bool ok;

	tn_bytes_reader_init(&r, payload, len);
	tn_bytes_take_u64(&r, &index->event_count, "the event count");
	tn_bytes_take_u64(&r, &index->discarded_events,
		"the discarded event count");
	tn_bytes_take_i64(&r, &index->first_event_ns, "the first event's time");
	tn_bytes_take_i64(&r, &index->last_event_ns, "the last event's time");
	ok = !r.failed && decode_checkpoints(&r, index) == 0 &&
		decode_classes(&r, index) == 0 &&
		decode_intervals(&r, index, &index->interval_class_start,
			&index->interval_classes) == 0 &&
		decode_sources(&r, index) == 0 &&
		decode_bins(&r, index) == 0 &&
		decode_packet_tables(&r, index) == 0 &&
		decode_snapshots(&r, file, snapshots) == 0;
	if (ok && r.left != 0)
		tn_bytes_fail(&r, "%zu bytes after the payload", r.left);
	if (r.failed)
		snprintf(why, REASON_MAX, "%s", r.why);
	ok = !r.failed && check_index(index, why);
	if (!ok) {
		tn_index_destroy(index);
		if (snapshots) {
			tn_state_snapshots_destroy(*snapshots);
			*snapshots = NULL;
		}
		return NULL;
	}
	return index;
}

/* The index in file (a whole file), or NULL with why; *other_version
 * when the file is sound but of another format version.  key NULL:
 * any key.  The snapshots keep a reference to file. */
static struct tn_index *decode_file(GBytes *file,
		const uint8_t key[DIGEST_LEN], struct tn_state_snapshots **snapshots,
		bool *other_version, char *why)
{
	gsize size;
	const uint8_t *data = g_bytes_get_data(file, &size);
	uint64_t version, payload_len;

	if (size < HEADER_LEN + TRAILER_LEN) {
		snprintf(why, REASON_MAX, "truncated (%zu bytes)", size);
		return NULL;
	}
	if (memcmp(data, file_magic, sizeof(file_magic)) != 0) {
		snprintf(why, REASON_MAX, "not a tracenav index (bad magic)");
		return NULL;
	}
	version = tn_bytes_get_le(data + 8, 4);
	if (version != FORMAT_VERSION) {
		snprintf(why, REASON_MAX, "format version %" PRIu64
			", expected %d", version, FORMAT_VERSION);
		*other_version = true;
		return NULL;
	}
	payload_len = tn_bytes_get_le(data + 12 + DIGEST_LEN, 8);
	if (payload_len != size - HEADER_LEN - TRAILER_LEN) {
		snprintf(why, REASON_MAX, "payload of %" PRIu64 " bytes in a "
			"file of %zu (truncated?)", payload_len, size);
		return NULL;
	}
	if (tn_bytes_checksum64(data, size - TRAILER_LEN) !=
	    tn_bytes_get_le(data + size - TRAILER_LEN, TRAILER_LEN)) {
		snprintf(why, REASON_MAX, "checksum mismatch");
		return NULL;
	}
	if (key && memcmp(data + 12, key, DIGEST_LEN) != 0) {
		snprintf(why, REASON_MAX, "made for another state of the "
			"trace");
		return NULL;
	}
	return decode_payload(file, data + HEADER_LEN, payload_len, snapshots,
		why);
}

/* --- In memory (cache-private.h) --- */

enum tn_cache_status tn_cache_decode(const uint8_t *data, size_t size,
		struct tn_index **out, struct tn_state_snapshots **snapshots,
		struct tn_error *err)
{
	/* One copy, which the snapshots are slices of. */
	GBytes *file = tn_huge_pages_copy(data, size);
	char why[REASON_MAX] = "";
	bool other_version = false;

	if (snapshots)
		*snapshots = NULL;
	*out = decode_file(file, NULL, snapshots, &other_version, why);
	g_bytes_unref(file);
	if (*out)
		return TN_CACHE_HIT;
	tn_error_set(err, "%s", why);
	return other_version ? TN_CACHE_MISS : TN_CACHE_INVALID;
}

GByteArray *tn_cache_encode(const struct tn_index *index,
		const struct tn_state_snapshots *snapshots)
{
	static const uint8_t no_key[DIGEST_LEN];

	return encode_file(index, snapshots, no_key);
}

void tn_cache_seal(uint8_t *data, size_t size)
{
	if (size < HEADER_LEN + TRAILER_LEN)
		return;
	tn_bytes_set_le(data + 8, FORMAT_VERSION, 4);
	tn_bytes_set_le(data + 12 + DIGEST_LEN,
		size - HEADER_LEN - TRAILER_LEN, 8);
	tn_bytes_set_le(data + size - TRAILER_LEN,
		tn_bytes_checksum64(data, size - TRAILER_LEN), TRAILER_LEN);
}

/* --- Files --- */

char *tn_cache_default_dir(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (xdg && g_path_is_absolute(xdg))
		return g_build_filename(xdg, "tracenav", NULL);
	if (!home || !home[0])
		home = g_get_home_dir();
	return g_build_filename(home, ".cache", "tracenav", NULL);
}

static bool read_all(int fd, uint8_t *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t got = read(fd, buf + done, size - done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		done += (size_t) got;
	}
	return true;
}

struct mapping {
	void *p;
	size_t size;
};

static void unmap_file(gpointer data)
{
	struct mapping *m = data;

	munmap(m->p, m->size);
	g_free(m);
}

/* The size bytes of fd as GBytes: mapped (the file's pages, neither
 * copied nor zeroed: loading a 30 MB cache file read it into fresh
 * memory, about 0.15 s on some virtual machines), or read into memory
 * where it cannot be mapped.  Cache files are replaced by a rename,
 * never rewritten in place, so the mapped pages do not change while the
 * index and snapshots made of them live; NULL when a read falls short. */
static GBytes *map_file(int fd, size_t size)
{
	void *p = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
		fd, 0) : MAP_FAILED;
	uint8_t *copy;

	if (p != MAP_FAILED) {
		struct mapping *m = g_new(struct mapping, 1);

		m->p = p;
		m->size = size;
		return g_bytes_new_with_free_func(p, size, unmap_file, m);
	}
	copy = tn_huge_pages_alloc(size ? size : 1);
	if (!read_all(fd, copy, size)) {
		g_free(copy);
		return NULL;
	}
	return g_bytes_new_take(copy, size);
}

/* Read path whole: HIT with *file, MISS if absent, INVALID with why if
 * it is not a file we could have written, ERROR with err otherwise. */
static enum tn_cache_status read_cache_file(const char *path,
		GBytes **file, char *why, struct tn_error *err)
{
	/* No symlink, and no blocking on a FIFO someone left there. */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	enum tn_cache_status status = TN_CACHE_HIT;
	struct stat st;

	if (fd < 0 && errno == ENOENT)
		return TN_CACHE_MISS;
	if (fd < 0 && errno == ELOOP) {
		snprintf(why, REASON_MAX, "a symbolic link");
		return TN_CACHE_INVALID;
	}
	if (fd < 0) {
		tn_error_set(err, "cannot read cache file %s: %s", path,
			strerror(errno));
		return TN_CACHE_ERROR;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, REASON_MAX, "not a regular file");
		status = TN_CACHE_INVALID;
	} else if ((uint64_t) st.st_size > MAX_FILE_SIZE) {
		snprintf(why, REASON_MAX, "too large (%jd bytes)",
			(intmax_t) st.st_size);
		status = TN_CACHE_INVALID;
	} else if (!(*file = map_file(fd, (size_t) st.st_size))) {
		snprintf(why, REASON_MAX, "short read");
		status = TN_CACHE_INVALID;
	}
	close(fd);
	return status;
}

enum tn_cache_status tn_cache_load(const struct tn_trace *trace,
		const char *dir, struct tn_index **out,
		struct tn_state_snapshots **snapshots, struct tn_error *err)
{
	struct cache_entry entry;
	enum tn_cache_status status;
	char why[REASON_MAX] = "";
	bool other_version = false;
	GBytes *file = NULL;
	char *path;

	*out = NULL;
	if (snapshots)
		*snapshots = NULL;
	if (compute_entry(trace, &entry, err))
		return TN_CACHE_ERROR;
	path = g_build_filename(dir, entry.file_name, NULL);
	status = read_cache_file(path, &file, why, err);
	if (status == TN_CACHE_HIT) {
		*out = decode_file(file, entry.key, snapshots, &other_version,
			why);
		if (!*out)
			status = other_version ? TN_CACHE_MISS :
				TN_CACHE_INVALID;
	}
	if (status == TN_CACHE_INVALID) {
		if (unlink(path) != 0 && errno != ENOENT)
			tn_error_set(err, "cache file %s: %s; cannot remove it "
				"(%s)", path, why,
				strerror(errno));
		else
			tn_error_set(err, "cache file %s: %s; removed",
				path, why);
	}
	if (file)
		g_bytes_unref(file);
	g_free(path);
	return status;
}

/* Write bytes to dir/name through a temporary file and a rename. */
static int write_atomically(const char *dir, const char *name,
		const GByteArray *bytes, struct tn_error *err)
{
	char *path = g_build_filename(dir, name, NULL);
	int error = tn_file_replace(path, bytes->data, bytes->len);

	if (error)
		tn_error_set(err, "cannot save the index cache in %s: %s", dir,
			strerror(error));
	g_free(path);
	return error ? -1 : 0;
}

static bool is_stale_temp(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		time(NULL) - st.st_mtime > STALE_TEMP_SECONDS;
}

/* Remove the files of older states of the same trace, and temporary
 * files that a crashed save left; best effort. */
static void remove_other_states(const char *dir,
		const struct cache_entry *entry)
{
	GDir *listing = g_dir_open(dir, 0, NULL);
	const char *name;

	if (!listing)
		return;
	while ((name = g_dir_read_name(listing))) {
		char *path;

		if (strncmp(name, entry->path_hash, PATH_HASH_HEX_LEN) != 0 ||
		    name[PATH_HASH_HEX_LEN] != '-' ||
		    strcmp(name, entry->file_name) == 0)
			continue;
		path = g_build_filename(dir, name, NULL);
		if (g_str_has_suffix(name, FILE_SUFFIX) ||
		    (strstr(name, FILE_SUFFIX ".") && is_stale_temp(path)))
			unlink(path);
		g_free(path);
	}
	g_dir_close(listing);
}

int tn_cache_save(const struct tn_trace *trace, const char *dir,
		const struct tn_index *index,
		const struct tn_state_snapshots *snapshots, struct tn_error *err)
{
	struct cache_entry entry;
	char why[REASON_MAX];
	GByteArray *bytes;
	int ret;

	if (!check_index(index, why)) {
		tn_error_set(err, "cannot save the index of %s: inconsistent "
			"index: %s", tn_trace_get_path(trace), why);
		return -1;
	}
	if (compute_entry(trace, &entry, err))
		return -1;
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		tn_error_set(err, "cannot create the cache directory %s: %s",
			dir, strerror(errno));
		return -1;
	}
	bytes = encode_file(index, snapshots, entry.key);
	ret = write_atomically(dir, entry.file_name, bytes, err);
	g_byte_array_free(bytes, TRUE);
	if (ret == 0)
		remove_other_states(dir, &entry);
	return ret;
}
