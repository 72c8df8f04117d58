/* test-cache.c - the index cache: round trips, misses when the trace
 * changes, corrupt files rejected and removed, failed saves that leave
 * nothing behind, and the default directory. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "src/core/bytes.h"
#include "tap.h"
#include "tracenav/cache.h"

#define HEADER_LEN 52
#define DIGEST_LEN 32
#define TRAILER_LEN 8

/* An index as the indexer would make it for 10000 events. */
static struct tn_index *sample_index(void)
{
	static const char *names[] = { "irq_handler_entry", "sched_switch",
		"\xc3\xa9v\xc3\xa9nement" };
	static const uint64_t counts[] = { 3000, 6000, 999 };
	struct tn_index *index = g_new0(struct tn_index, 1);

	index->event_count = 10000;
	index->discarded_events = 42;
	index->first_event_ns = -5000000000;
	index->last_event_ns = INT64_MAX - 1;
	index->checkpoint_count = 3;
	index->checkpoints = g_new(struct tn_checkpoint, 3);
	for (size_t i = 0; i < 3; i++) {
		index->checkpoints[i].rank = i * TN_INDEX_INTERVAL;
		index->checkpoints[i].pos.ns = -5000000000 + (int64_t) i * 777;
		index->checkpoints[i].pos.tie = i == 2 ? UINT64_MAX : i;
	}
	index->class_count = 3;
	index->classes = g_new(struct tn_class_count, 3);
	for (size_t i = 0; i < 3; i++) {
		index->classes[i].name = g_strdup(names[i]);
		index->classes[i].count = counts[i];
	}
	/* The names of each interval: irq 1000 + sched 3096; irq 1000 +
	 * sched 2500 + événement 596; irq 1000 + sched 404 + événement
	 * 403 (1807 of its 1808 events: one has no name). */
	{
		static const uint32_t entries[][2] = {
			{ 0, 1000 }, { 1, 3096 },
			{ 0, 1000 }, { 1, 2500 }, { 2, 596 },
			{ 0, 1000 }, { 1, 404 }, { 2, 403 },
		};
		static const size_t starts[] = { 0, 2, 5, 8 };

		index->interval_class_start = g_memdup2(starts,
			sizeof(starts));
		index->interval_classes = g_new(struct tn_interval_count,
			G_N_ELEMENTS(entries));
		for (size_t i = 0; i < G_N_ELEMENTS(entries); i++) {
			index->interval_classes[i].key = entries[i][0];
			index->interval_classes[i].count = entries[i][1];
		}
	}
	/* Two sources: 6000 events of channel 0 on CPU 0, 4000 of a stream
	 * without a CPU; per interval 3000 + 1096, 2000 + 2096, 1000 + 808,
	 * and 35 of the 42 lost events before the events of the first two
	 * intervals (7 after the last event). */
	{
		static const uint32_t entries[][2] = {
			{ 0, 3000 }, { 1, 1096 },
			{ 0, 2000 }, { 1, 2096 },
			{ 0, 1000 }, { 1, 808 },
		};
		static const size_t starts[] = { 0, 2, 4, 6 };
		static const uint64_t lost[] = { 5, 30, 0 };

		index->source_count = 2;
		index->sources = g_new0(struct tn_index_source, 2);
		index->sources[0] = (struct tn_index_source) {
			g_strdup("h\xc3\xb4te"), 0, 0, 0, 6000 };
		index->sources[1] = (struct tn_index_source) {
			g_strdup("h\xc3\xb4te"), 1, 7, -1, 4000 };
		index->interval_source_start = g_memdup2(starts,
			sizeof(starts));
		index->interval_sources = g_new(struct tn_interval_count,
			G_N_ELEMENTS(entries));
		for (size_t i = 0; i < G_N_ELEMENTS(entries); i++) {
			index->interval_sources[i].key = entries[i][0];
			index->interval_sources[i].count = entries[i][1];
		}
		index->interval_lost = g_memdup2(lost, sizeof(lost));
	}
	index->begin_ns = -5000000000;
	index->end_ns = INT64_MAX;
	index->bin_count = 7;
	index->bins = g_new(uint64_t, 7);
	for (size_t i = 0; i < 7; i++)
		index->bins[i] = i * 100;
	/* The 42 discarded events in three bins (each below 128: one byte
	 * a bin in the file). */
	index->lost_bins = g_new0(uint64_t, 7);
	index->lost_bins[2] = 5;
	index->lost_bins[4] = 30;
	index->lost_bins[6] = 7;
	index->packet_tables = tn_packets_create();
	for (size_t i = 0; i < 2; i++) {
		char *file = g_strdup_printf("/traces/t/channel0_%zu", i);
		uint64_t count = 3 + i;
		int64_t *begin_ns = g_new(int64_t, count);
		int64_t *end_ns = g_new(int64_t, count);

		for (uint64_t k = 0; k < count; k++) {
			begin_ns[k] = -5000000000 + (int64_t) k * 1000;
			end_ns[k] = begin_ns[k] + 999;
		}
		tn_packets_add_table(index->packet_tables, file, count,
			begin_ns, end_ns);
		g_free(file);
	}
	return index;
}

/* Bytes the packet tables take at the end of the payload, with the
 * (empty) snapshots section's length after them. */
static size_t packet_tables_bytes(const struct tn_index *index)
{
	const struct tn_packet_tables *tables =
		tn_index_borrow_packet_tables(index);
	size_t bytes = 8 + 8;

	for (size_t i = 0; i < tn_packets_get_table_count(tables); i++)
		bytes += 4 + strlen(tn_packets_get_file(tables, i)) + 8 +
			tn_packets_get_packet_count(tables, i) * 16;
	return bytes;
}

static size_t table_count(const struct tn_packet_tables *tables)
{
	return tables ? tn_packets_get_table_count(tables) : 0;
}

static bool same_packet_tables(const struct tn_index *a,
		const struct tn_index *b)
{
	const struct tn_packet_tables *x = tn_index_borrow_packet_tables(a);
	const struct tn_packet_tables *y = tn_index_borrow_packet_tables(b);

	if (table_count(x) != table_count(y))
		return false;
	for (size_t i = 0; i < table_count(x); i++) {
		uint64_t count = tn_packets_get_packet_count(x, i);

		if (strcmp(tn_packets_get_file(x, i),
				tn_packets_get_file(y, i)) != 0 ||
		    count != tn_packets_get_packet_count(y, i))
			return false;
		for (uint64_t k = 0; k < count; k++)
			if (tn_packets_borrow_begin_ns(x, i)[k] !=
			    tn_packets_borrow_begin_ns(y, i)[k] ||
			    tn_packets_borrow_end_ns(x, i)[k] !=
			    tn_packets_borrow_end_ns(y, i)[k])
				return false;
	}
	return true;
}

static bool same_index(const struct tn_index *a, const struct tn_index *b)
{
	if (a->event_count != b->event_count ||
	    a->discarded_events != b->discarded_events ||
	    a->first_event_ns != b->first_event_ns ||
	    a->last_event_ns != b->last_event_ns ||
	    a->checkpoint_count != b->checkpoint_count ||
	    a->class_count != b->class_count || a->begin_ns != b->begin_ns ||
	    a->end_ns != b->end_ns || a->bin_count != b->bin_count)
		return false;
	for (size_t i = 0; i < a->checkpoint_count; i++) {
		const struct tn_checkpoint *x = &a->checkpoints[i];
		const struct tn_checkpoint *y = &b->checkpoints[i];

		if (x->rank != y->rank || x->pos.ns != y->pos.ns ||
		    x->pos.tie != y->pos.tie)
			return false;
	}
	for (size_t i = 0; i < a->class_count; i++) {
		if (strcmp(a->classes[i].name, b->classes[i].name) != 0 ||
		    a->classes[i].count != b->classes[i].count)
			return false;
	}
	for (size_t i = 0; i < a->bin_count; i++) {
		if (a->bins[i] != b->bins[i] ||
		    a->lost_bins[i] != b->lost_bins[i])
			return false;
	}
	if (!a->interval_class_start != !b->interval_class_start)
		return false;
	for (size_t i = 0; a->interval_class_start &&
			i <= a->checkpoint_count; i++)
		if (a->interval_class_start[i] != b->interval_class_start[i])
			return false;
	for (size_t e = 0; a->interval_class_start &&
			e < a->interval_class_start[a->checkpoint_count]; e++)
		if (a->interval_classes[e].key !=
		    b->interval_classes[e].key ||
		    a->interval_classes[e].count != b->interval_classes[e].count)
			return false;
	if (a->source_count != b->source_count ||
	    !a->interval_source_start != !b->interval_source_start ||
	    !a->interval_lost != !b->interval_lost)
		return false;
	for (size_t i = 0; i < a->source_count; i++) {
		const struct tn_index_source *x = &a->sources[i];
		const struct tn_index_source *y = &b->sources[i];

		if (strcmp(x->trace, y->trace) != 0 ||
		    x->stream_class_id != y->stream_class_id ||
		    x->stream_id != y->stream_id || x->cpu != y->cpu ||
		    x->count != y->count)
			return false;
	}
	for (size_t i = 0; a->interval_source_start &&
			i <= a->checkpoint_count; i++)
		if (a->interval_source_start[i] != b->interval_source_start[i])
			return false;
	for (size_t e = 0; a->interval_source_start &&
			e < a->interval_source_start[a->checkpoint_count]; e++)
		if (a->interval_sources[e].key != b->interval_sources[e].key ||
		    a->interval_sources[e].count != b->interval_sources[e].count)
			return false;
	for (size_t i = 0; a->interval_lost && i < a->checkpoint_count; i++)
		if (a->interval_lost[i] != b->interval_lost[i])
			return false;
	return same_packet_tables(a, b);
}

/* Names in dir: how many end in ".index", how many are anything else
 * (temporary files, left-overs); the last ".index" one in *index_name. */
static void count_files(const char *dir, int *indexes, int *others,
		char **index_name)
{
	GDir *listing = g_dir_open(dir, 0, NULL);
	const char *name;

	*indexes = *others = 0;
	if (index_name)
		*index_name = NULL;
	while (listing && (name = g_dir_read_name(listing))) {
		if (g_str_has_suffix(name, ".index")) {
			(*indexes)++;
			if (index_name) {
				g_free(*index_name);
				*index_name = g_build_filename(dir, name, NULL);
			}
		} else {
			(*others)++;
		}
	}
	if (listing)
		g_dir_close(listing);
}

/* Recompute the trailing checksum, to reach the checks behind it. */
static void fix_checksum(uint8_t *data, size_t size)
{
	tn_bytes_set_le(data + size - TRAILER_LEN,
		tn_bytes_checksum64(data, size - TRAILER_LEN), TRAILER_LEN);
}

static void write_bytes(const char *path, const uint8_t *data, size_t size)
{
	GError *gerr = NULL;

	if (!g_file_set_contents(path, (const gchar *) data, (gssize) size,
			&gerr)) {
		printf("# %s\n", gerr->message);
		g_error_free(gerr);
	}
}

/* Put data at path, load: the file must be found invalid, removed, and
 * err must name it and contain reason.  Quiet unless it fails. */
static bool rejects(const struct tn_trace *trace, const char *dir,
		const char *path, const uint8_t *data, size_t size,
		const char *reason)
{
	struct tn_index *index = (struct tn_index *) 1;
	struct tn_error err = { "" };
	enum tn_cache_status status;

	write_bytes(path, data, size);
	status = tn_cache_load(trace, dir, &index, NULL, &err);
	if (status == TN_CACHE_INVALID && !index &&
	    !g_file_test(path, G_FILE_TEST_EXISTS) &&
	    strstr(err.message, path) && strstr(err.message, reason))
		return true;
	printf("# status %d, index %p, file %s, message \"%s\" (want \"%s\")\n",
		status, (void *) index,
		g_file_test(path, G_FILE_TEST_EXISTS) ? "kept" : "removed",
		err.message, reason);
	if (status == TN_CACHE_HIT)
		tn_index_destroy(index);
	return false;
}

/* Loading the file holding data is a plain miss: no index, no
 * message, and the file stays for the next save to replace. */
static bool misses(const struct tn_trace *trace, const char *dir,
		const char *path, const uint8_t *data, size_t size)
{
	struct tn_index *index = NULL;
	struct tn_error err = { "" };
	enum tn_cache_status status;

	write_bytes(path, data, size);
	status = tn_cache_load(trace, dir, &index, NULL, &err);
	if (status == TN_CACHE_MISS && !index && !err.message[0])
		return true;
	printf("# status %d, index %p, message \"%s\"\n", status,
		(void *) index, err.message);
	if (status == TN_CACHE_HIT)
		tn_index_destroy(index);
	return false;
}

static void test_default_dir(void)
{
	char *dir;

	setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
	dir = tn_cache_default_dir();
	tap_str_eq(dir, "/xdg/cache/tracenav", "default dir: XDG_CACHE_HOME");
	g_free(dir);
	setenv("XDG_CACHE_HOME", "relative/cache", 1);
	setenv("HOME", "/home/someone", 1);
	dir = tn_cache_default_dir();
	tap_str_eq(dir, "/home/someone/.cache/tracenav",
		"default dir: a relative XDG_CACHE_HOME is ignored");
	g_free(dir);
	unsetenv("XDG_CACHE_HOME");
	dir = tn_cache_default_dir();
	tap_str_eq(dir, "/home/someone/.cache/tracenav",
		"default dir: $HOME/.cache/tracenav");
	g_free(dir);
}

static void test_round_trip(const struct tn_trace *trace, const char *base)
{
	char *dir = g_build_filename(base, "deep", "er", "cache", NULL);
	struct tn_index *index = sample_index(), *loaded = NULL;
	struct tn_index empty = { 0 };
	struct tn_error err = { "" };
	int indexes, others;
	struct stat st;
	char *file;

	tap_int_eq(tn_cache_load(trace, dir, &loaded, NULL, &err), TN_CACHE_MISS,
		"load from a missing directory: miss");
	tap_ok(tn_cache_save(trace, dir, index, NULL, &err) == 0,
		"save creates the directory and its parents (%s)",
		err.message);
	tap_ok(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700,
		"cache directory is mode 0700");
	count_files(dir, &indexes, &others, &file);
	tap_ok(indexes == 1 && others == 0, "one file, no temporary file");
	tap_ok(file && stat(file, &st) == 0 && (st.st_mode & 0777) == 0600,
		"cache file is mode 0600");
	tap_ok(file && strlen(strrchr(file, '/') + 1) ==
		16 + 1 + 64 + strlen(".index"), "named <pathhash>-<key>.index");
	tap_int_eq(tn_cache_load(trace, dir, &loaded, NULL, &err), TN_CACHE_HIT,
		"load after save: hit");
	tap_ok(loaded && same_index(loaded, index),
		"loaded index equals the saved one, field by field");
	tn_index_destroy(loaded);
	loaded = NULL;

	tap_ok(tn_cache_save(trace, dir, &empty, NULL, &err) == 0,
		"save an empty index (%s)", err.message);
	count_files(dir, &indexes, &others, NULL);
	tap_ok(indexes == 1 && others == 0, "saving again replaces the file");
	tap_int_eq(tn_cache_load(trace, dir, &loaded, NULL, &err), TN_CACHE_HIT,
		"load the empty index");
	tap_ok(loaded && same_index(loaded, &empty) && !loaded->checkpoints &&
		!loaded->classes && !loaded->bins, "empty index round trip");
	tn_index_destroy(loaded);
	tn_index_destroy(index);
	g_free(file);
	g_free(dir);
}

/* An event class name is any bytes but NUL (CTF metadata takes escape
 * sequences and raw bytes in names): one with controls and invalid
 * UTF-8 is saved and comes back as it was. */
static void test_raw_names(const struct tn_trace *trace, const char *base)
{
	char *dir = g_build_filename(base, "raw-names", NULL);
	struct tn_index *index = sample_index(), *loaded = NULL;
	struct tn_error err = { "" };

	/* Still sorted: after the others. */
	g_free(index->classes[2].name);
	index->classes[2].name = g_strdup("\xff\x1b]0;x\x07\x9b" "6n");
	tap_ok(tn_cache_save(trace, dir, index, NULL, &err) == 0,
		"a class name with controls and invalid UTF-8 is saved (%s)",
		err.message);
	tap_int_eq(tn_cache_load(trace, dir, &loaded, NULL, &err), TN_CACHE_HIT,
		"and loaded (%s)", err.message);
	tap_ok(loaded && same_index(loaded, index),
		"with its bytes as they were");
	tn_index_destroy(loaded);
	tn_index_destroy(index);
	g_free(dir);
}

/* What the indexer builds passes the checks of load and comes back
 * whole. */
static void test_indexer_round_trip(const struct tn_trace *trace,
		const char *base)
{
	char *dir = g_build_filename(base, "indexer", NULL);
	struct tn_index *built = NULL, *loaded = NULL;
	struct tn_error err = { "" };
	struct tn_job *job;

	if (tn_index_build_start(trace, 2, &job, &err) == 0) {
		tn_job_wait(job);
		built = tn_index_build_take(job);
		tn_job_destroy(job);
	}
	if (!tap_ok(built != NULL, "indexer builds an index (%s)",
			err.message)) {
		g_free(dir);
		return;
	}
	tap_ok(tn_cache_save(trace, dir, built, NULL, &err) == 0,
		"save the indexer's index (%s)", err.message);
	tap_int_eq(tn_cache_load(trace, dir, &loaded, NULL, &err), TN_CACHE_HIT,
		"load it back");
	tap_ok(loaded && same_index(loaded, built) &&
		loaded->event_count == 20000, "identical, %" PRIu64 " events, "
		"%zu checkpoints, %zu classes, %zu bins", built->event_count,
		built->checkpoint_count, built->class_count, built->bin_count);
	tn_index_destroy(loaded);
	tn_index_destroy(built);
	g_free(dir);
}

/* Save the sample and return the file's bytes and path. */
static uint8_t *saved_sample(const struct tn_trace *trace, const char *dir,
		size_t *size, char **path)
{
	struct tn_index *index = sample_index();
	struct tn_error err;
	gchar *data = NULL;
	gsize len = 0;
	int indexes, others;

	if (tn_cache_save(trace, dir, index, NULL, &err))
		printf("# %s\n", err.message);
	tn_index_destroy(index);
	count_files(dir, &indexes, &others, path);
	if (!*path || !g_file_get_contents(*path, &data, &len, NULL)) {
		printf("# no cache file in %s\n", dir);
		exit(99);
	}
	*size = len;
	return (uint8_t *) data;
}

static void test_corrupt_files(const struct tn_trace *trace, const char *base)
{
	char *dir = g_build_filename(base, "corrupt", NULL);
	char *path;
	size_t size, cut;
	uint8_t *good = saved_sample(trace, dir, &size, &path);
	uint8_t *bad = g_memdup2(good, size);
	/* Payload offsets of the sample: the first and last events'
	 * times at 16, the checkpoint count at 32, first rank at 40,
	 * second rank at 64, first class name length after the
	 * checkpoints. */
	size_t times_at = HEADER_LEN + 16;
	size_t checkpoints_at = HEADER_LEN + 32;
	size_t classes_at = checkpoints_at + 8 + 3 * 24;
	struct tn_index *sample = sample_index();
	/* After the classes: the interval count, then interval 0's entry
	 * count (a byte) and its first entry (class index: a byte). */
	size_t intervals_at = classes_at + 8;
	size_t tables_at = size - TRAILER_LEN - packet_tables_bytes(sample);
	size_t table0_count_at = tables_at + 8 + 4 +
		strlen(tn_packets_get_file(sample->packet_tables, 0));

	size_t sources_at;

	for (size_t i = 0; i < sample->class_count; i++)
		intervals_at += 4 + strlen(sample->classes[i].name) + 8;
	sources_at = intervals_at + 8 + 27;
	for (cut = 0; cut < size; cut++) {
		if (!rejects(trace, dir, path, good, cut, ""))
			break;
	}
	tap_ok(cut == size, "every truncation (0..%zu bytes) is rejected and "
		"removed", size - 1);

	memcpy(bad, good, size);
	bad[HEADER_LEN + 9] ^= 0x10;
	tap_ok(rejects(trace, dir, path, bad, size, "checksum mismatch"),
		"flipped payload byte: checksum mismatch");
	memcpy(bad, good, size);
	bad[size - 1] ^= 0x01;
	tap_ok(rejects(trace, dir, path, bad, size, "checksum mismatch"),
		"flipped checksum byte: checksum mismatch");
	memcpy(bad, good, size);
	bad[0] = 'X';
	tap_ok(rejects(trace, dir, path, bad, size, "bad magic"),
		"wrong magic");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + 8, 2, 4);
	fix_checksum(bad, size);
	tap_ok(misses(trace, dir, path, bad, size),
		"a file of another format version (an older tracenav's): a "
		"plain miss, no message");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + times_at, 1, 8);
	tn_bytes_set_le(bad + times_at + 8, 0, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "last event before"),
		"last event before the first");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + 12 + DIGEST_LEN, UINT64_MAX, 8);
	tap_ok(rejects(trace, dir, path, bad, size, "truncated"),
		"payload length beyond the file");
	memcpy(bad, good, size);
	bad[20] ^= 0xff;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "another state"),
		"key of another state of the trace");

	/* Behind a valid checksum: the payload's own checks. */
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + checkpoints_at, UINT64_MAX / 2, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "checkpoint count beyond"),
		"huge checkpoint count: rejected, not allocated");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + checkpoints_at + 8 + 24, 0, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "checkpoint 1: rank 0"),
		"checkpoint ranks not increasing");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + classes_at, UINT64_MAX, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "class count beyond"),
		"huge class count");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + classes_at + 8, 0xffffffff, 4);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "class 0 beyond"),
		"class name length beyond the payload");
	memcpy(bad, good, size);
	bad[classes_at + 8 + 4 + 2] = '\0';
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "invalid name"),
		"class name with a NUL byte");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + intervals_at, 2, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "interval count not"),
		"interval count other than the checkpoint count");
	memcpy(bad, good, size);
	bad[intervals_at + 8 + 1] = 3;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "interval 0:"),
		"an interval naming a class that is not there");
	memcpy(bad, good, size);
	bad[intervals_at + 8 + 1] = 1;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "interval 0:"),
		"an interval's classes not in order");
	memcpy(bad, good, size);
	bad[intervals_at + 8] = 0x7f;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, ""),
		"an interval's entry count beyond its entries");
	/* The sources, after the 27 bytes of the names' intervals: their
	 * count, then source 0: trace length, "hôte" (5 bytes), stream
	 * class, stream, CPU + 1 and count (6000: two bytes). */
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + sources_at, UINT64_MAX / 3, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "source count beyond"),
		"huge source count: rejected, not allocated");
	memcpy(bad, good, size);
	bad[sources_at + 8 + 4 + 1] = 0;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "invalid trace name"),
		"a source's trace name with a NUL byte");
	memcpy(bad, good, size);
	bad[sources_at + 8 + 4 + 5] = 2;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "source 1: not sorted"),
		"sources not in order");
	memcpy(bad, good, size);
	bad[sources_at + 8 + 4 + 5 + 3] = 0xef;	/* 5999 events */
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "sources of 9999 "
		"events"), "source counts not adding up to the events");
	memcpy(bad, good, size);
	/* The 3 varints of the lost events per interval, just before the
	 * time range (24 bytes) and the bins (12 + 7 bytes). */
	bad[tables_at - 7 - 12 - 24 - 2] = 100;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "lost events per interval "
		"exceed"), "lost events per interval adding up to more than "
		"the trace's");
	memcpy(bad, good, size);
	/* The last bin's varint (600: two bytes) made 16383, more than
	 * the 10000 events. */
	bad[tables_at - sample->bin_count - 2] = 0xff;
	bad[tables_at - sample->bin_count - 1] = 0x7f;
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "bin counts exceed"),
		"bins adding up to more than the events");
	memcpy(bad, good, size);
	bad[tables_at - 1] = 100;	/* the last bin's 7 discarded events */
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "discarded events per bin "
		"exceed"), "discarded events per bin adding up to more than "
		"the trace's");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + tables_at, UINT64_MAX / 2, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "packet table count "
		"beyond"), "huge packet table count: rejected, not allocated");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + tables_at + 8, 0xffffffff, 4);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "packet table 0 beyond"),
		"packet table file name beyond the payload");
	memcpy(bad, good, size);
	bad[tables_at + 8 + 4 + 1] = '\0';
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "invalid file name"),
		"packet table file name with a NUL byte");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + table0_count_at, UINT64_MAX / 4, 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "packet count beyond"),
		"huge packet count: rejected, not allocated");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + table0_count_at, 0, 8);
	tn_bytes_set_le(bad + 12 + DIGEST_LEN, size - HEADER_LEN - TRAILER_LEN,
		8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, ""),
		"a packet table without packets");
	memcpy(bad, good, size);
	tn_bytes_set_le(bad + table0_count_at + 8 + 8,
		(uint64_t) (-5000000000 - 1), 8);
	fix_checksum(bad, size);
	tap_ok(rejects(trace, dir, path, bad, size, "ends before it begins"),
		"a packet ending before it begins");
	tn_index_destroy(sample);
	g_free(bad);

	/* One byte more in the payload (length and checksum agreeing). */
	bad = g_malloc(size + 1);
	memcpy(bad, good, size - TRAILER_LEN);
	bad[size - TRAILER_LEN] = 0;
	tn_bytes_set_le(bad + 12 + DIGEST_LEN,
		size + 1 - HEADER_LEN - TRAILER_LEN, 8);
	fix_checksum(bad, size + 1);
	tap_ok(rejects(trace, dir, path, bad, size + 1, "after the payload"),
		"trailing bytes in the payload");

	g_free(bad);
	g_free(good);
	g_free(path);
	g_free(dir);
}

/* A symlink where the file should be is removed, not followed. */
static void test_symlink_file(const struct tn_trace *trace, const char *base)
{
	char *dir = g_build_filename(base, "symlink", NULL);
	struct tn_index *index = NULL;
	struct tn_error err = { "" };
	size_t size;
	char *path;
	uint8_t *data = saved_sample(trace, dir, &size, &path);
	char *target = g_build_filename(base, "target", NULL);

	write_bytes(target, data, size);
	unlink(path);
	if (symlink(target, path) != 0)
		perror("symlink");
	tap_int_eq(tn_cache_load(trace, dir, &index, NULL, &err), TN_CACHE_INVALID,
		"a symlink to a valid file is not followed");
	tap_ok(!g_file_test(path, G_FILE_TEST_EXISTS) &&
		g_file_test(target, G_FILE_TEST_EXISTS),
		"the symlink is removed, its target kept (%s)", err.message);
	g_free(target);
	g_free(data);
	g_free(path);
	g_free(dir);
}

static void set_mtime(const char *path, time_t sec, long nsec)
{
	struct timespec times[2] = { { sec, nsec }, { sec, nsec } };

	if (utimensat(AT_FDCWD, path, times, 0) != 0)
		perror(path);
}

static void append_byte(const char *path)
{
	FILE *file = fopen(path, "ab");

	if (!file || fputc(0, file) == EOF || fclose(file) != 0)
		perror(path);
}

static enum tn_cache_status load_status(const struct tn_trace *trace,
		const char *dir)
{
	struct tn_index *index = NULL;
	struct tn_error err;
	enum tn_cache_status status = tn_cache_load(trace, dir, &index, NULL, &err);

	tn_index_destroy(index);
	return status;
}

static void save_sample(const struct tn_trace *trace, const char *dir)
{
	struct tn_index *index = sample_index();
	struct tn_error err;

	if (tn_cache_save(trace, dir, index, NULL, &err))
		printf("# %s\n", err.message);
	tn_index_destroy(index);
}

/* The trace's files change: the old file is not found. */
static void test_trace_changes(const struct tn_trace *trace,
		const char *trace_dir, const char *base)
{
	char *dir = g_build_filename(base, "changes", NULL);
	char *stream = g_build_filename(trace_dir, "channel0_0", NULL);
	char *idx = g_build_filename(trace_dir, "index", "channel0_1.idx",
		NULL);
	char *other = g_build_filename(dir, "0123456789abcdef-x.index", NULL);
	int indexes, others;
	struct stat st;

	save_sample(trace, dir);
	tap_int_eq(load_status(trace, dir), TN_CACHE_HIT, "hit before changes");
	set_mtime(stream, 1000000000, 5);
	tap_int_eq(load_status(trace, dir), TN_CACHE_MISS,
		"miss after a stream file's mtime changes");
	save_sample(trace, dir);
	set_mtime(stream, 1000000000, 6);
	tap_int_eq(load_status(trace, dir), TN_CACHE_MISS,
		"miss after a change of the mtime's nanoseconds only");
	save_sample(trace, dir);
	stat(stream, &st);
	append_byte(stream);
	set_mtime(stream, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	tap_int_eq(load_status(trace, dir), TN_CACHE_MISS,
		"miss after a stream file's size changes (same mtime)");
	save_sample(trace, dir);
	set_mtime(idx, 1000000000, 0);
	tap_int_eq(load_status(trace, dir), TN_CACHE_MISS,
		"miss after an index file changes");

	write_bytes(other, (const uint8_t *) "x", 1);
	save_sample(trace, dir);
	tap_int_eq(load_status(trace, dir), TN_CACHE_HIT, "hit after saving");
	count_files(dir, &indexes, &others, NULL);
	tap_ok(indexes == 2 && others == 0 &&
		g_file_test(other, G_FILE_TEST_EXISTS),
		"older states removed on save, other traces' files kept "
		"(%d files)", indexes);
	g_free(other);
	g_free(idx);
	g_free(stream);
	g_free(dir);
}

static bool can_write_in(const char *dir)
{
	char *probe = g_build_filename(dir, "probe", NULL);
	int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	g_free(probe);
	return fd >= 0;
}

static void test_failed_saves(const struct tn_trace *trace, const char *base)
{
	char *ro = g_build_filename(base, "read-only", NULL);
	char *file = g_build_filename(base, "a-file", NULL);
	char *under_file = g_build_filename(file, "sub", NULL);
	struct tn_index *index = sample_index();
	struct tn_error err = { "" };
	int indexes, others;

	g_mkdir_with_parents(ro, 0700);
	chmod(ro, 0500);
	if (can_write_in(ro)) {
		tap_ok(true, "# SKIP read-only directory: running as root");
	} else {
		tap_ok(tn_cache_save(trace, ro, index, NULL, &err) == -1 &&
			strstr(err.message, ro), "save into a read-only "
			"directory fails: %s", err.message);
		count_files(ro, &indexes, &others, NULL);
		tap_ok(indexes == 0 && others == 0,
			"nothing left in the read-only directory");
	}
	chmod(ro, 0700);

	write_bytes(file, (const uint8_t *) "x", 1);
	err.message[0] = '\0';
	tap_ok(tn_cache_save(trace, under_file, index, NULL, &err) == -1 &&
		strstr(err.message, under_file) &&
		strstr(err.message, strerror(ENOTDIR)),
		"save under a regular file fails: %s", err.message);
	tap_int_eq(load_status(trace, under_file), TN_CACHE_ERROR,
		"load from under a regular file: error");
	tn_index_destroy(index);
	g_free(under_file);
	g_free(file);
	g_free(ro);
}

/* The final name is taken by a directory: the rename fails after the
 * temporary file was written, which must go. */
static void test_failed_rename(const struct tn_trace *trace, const char *base)
{
	char *dir = g_build_filename(base, "rename", NULL);
	char *name, *path, *blocker;
	struct tn_index *index = sample_index();
	struct tn_error err = { "" };
	int indexes, others;
	size_t size;

	g_free(saved_sample(trace, dir, &size, &path));
	name = g_path_get_basename(path);
	unlink(path);
	g_mkdir_with_parents(path, 0700);
	blocker = g_build_filename(path, "x", NULL);
	write_bytes(blocker, (const uint8_t *) "x", 1);
	tap_ok(tn_cache_save(trace, dir, index, NULL, &err) == -1 &&
		strstr(err.message, dir),
		"save fails when the rename fails: %s", err.message);
	count_files(dir, &indexes, &others, NULL);
	tap_ok(indexes == 1 && others == 0,
		"no temporary file left after a failed save");
	tap_int_eq(load_status(trace, dir), TN_CACHE_INVALID,
		"a directory in place of the file: invalid");
	unlink(blocker);
	rmdir(path);

	index->checkpoints[1].rank = index->checkpoints[0].rank;
	err.message[0] = '\0';
	tap_ok(tn_cache_save(trace, dir, index, NULL, &err) == -1 &&
		strstr(err.message, "inconsistent"),
		"an inconsistent index is not saved: %s", err.message);
	count_files(dir, &indexes, &others, NULL);
	tap_ok(indexes == 0 && others == 0, "and nothing is written");
	tn_index_destroy(index);
	g_free(blocker);
	g_free(name);
	g_free(path);
	g_free(dir);
}

int main(void)
{
	char *trace_dir = gen_trace("trace", "--events 20000 --cpus 2");
	char *base = g_build_filename(gen_tmpdir(), "cache", NULL);
	struct tn_trace *trace;
	struct tn_error err;

	test_default_dir();
	if (tn_trace_open(trace_dir, &trace, &err)) {
		printf("# %s\n", err.message);
		gen_cleanup();
		return 99;
	}
	test_round_trip(trace, base);
	test_indexer_round_trip(trace, base);
	test_raw_names(trace, base);
	test_corrupt_files(trace, base);
	test_symlink_file(trace, base);
	test_failed_saves(trace, base);
	test_failed_rename(trace, base);
	test_trace_changes(trace, trace_dir, base);
	tn_trace_destroy(trace);
	g_free(base);
	g_free(trace_dir);
	gen_cleanup();
	return tap_done();
}
