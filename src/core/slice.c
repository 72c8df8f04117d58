/* slice.c - a sliced view of a trace that starts near a time (see
 * slice.h and "Making libbabeltrace2 seek fast" in the design notes).
 *
 * Which packets a view keeps.  In every stream file, the packets from the
 * first one that ends at or after the target, plus the one just before
 * it.  That extra packet is for the discarded-item notices: src.ctf.fs
 * compares each packet's events_discarded counter and packet_seq_num
 * with the previous packet of its stream, but the first packet of a
 * stream has no previous one, so it reports its whole counter (count
 * unknown, over its own time range) and no gap at all.  Starting the
 * view at the first packet that matters would make up a notice (a
 * counter that did not move), or give one the wrong time range, or lose
 * a gap.  With its true predecessor kept, that packet gets the same
 * notices as in the whole trace, and everything the predecessor brings
 * (its events, its own made-up notice) ends before the target, so the
 * reader's trimmer (has_begin) drops it, as it clips a notice that spans
 * the target in both cases alike.  When a stream goes on in
 * another file (tracefile or session rotation), its previous packet is
 * the last one of the file before, found by the stream instance id of
 * CTF index 1.1 entries; for 1.0 entries, which do not name the stream,
 * the last packet of every file of the same stream class before it is
 * kept (harmless, and rare: LTTng writes 1.1 since 2.8).
 *
 * A stream file without index (non-LTTng CTF) gets one made up from the
 * packet table of the checkpoint index (index.h) when its packets are
 * all one size: the file size divided by the packet count, with the CTF
 * packet magic at every multiple of it.  Of an index entry, src.ctf.fs
 * 2.0 reads the offset, packet size, times and (1.1) sequence number,
 * and ignores content_size and events_discarded: the discarded-events
 * notices come from the counters and sequence numbers in the packet
 * contexts, which the kept previous packet provides as for a real
 * index.  The times, widened to whole cycles, are those of the packets.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracenav/index.h"
#include "tracenav/runtime.h"
#include "slice.h"
#include "trace-private.h"

#define NS_PER_S UINT64_C(1000000000)

/* CTF packet index (LTTng's index/<stream>.idx), all big-endian. */
#define INDEX_MAGIC UINT32_C(0xC1F1DCC1)
#define INDEX_HEADER_SIZE 16	/* magic, major, minor, entry size */
#define INDEX_ENTRY_1_0_SIZE 56
#define INDEX_ENTRY_1_1_SIZE 72
/* The magic number that starts every CTF packet (in its byte order). */
#define PACKET_MAGIC UINT32_C(0xC1FC1FC1)
enum index_entry_field {	/* byte offsets of the uint64 fields */
	ENTRY_OFFSET = 0,		/* bytes */
	ENTRY_PACKET_SIZE = 8,		/* bits */
	ENTRY_CONTENT_SIZE = 16,	/* bits */
	ENTRY_TIMESTAMP_BEGIN = 24,	/* clock cycles */
	ENTRY_TIMESTAMP_END = 32,
	ENTRY_EVENTS_DISCARDED = 40,
	ENTRY_STREAM_CLASS_ID = 48,
	ENTRY_STREAM_INSTANCE_ID = 56,	/* 1.1 */
	ENTRY_PACKET_SEQ_NUM = 64,	/* 1.1 */
};

struct tn_slice {
	char *root;		/* the private directory */
	size_t dir_count;
	char **dirs;		/* tn_trace_get_dir() strings */
	char **views;		/* the directory standing for each, or NULL */
	struct tn_runtime_tree *tree;
};

/* One stream file of a trace directory and its packet index. */
struct stream_file {
	size_t dir;		/* tn_trace_get_dir() index */
	size_t group;		/* its src.ctf.fs component */
	char *name;
	uint8_t *index;		/* the whole .idx file */
	size_t entry_size;
	size_t entry_count;	/* at least 1 */
	bool has_instance_id;	/* index 1.1: entries name their stream */
	bool synthetic;		/* index made from a packet table: the
				 * file holds its whole stream */
	size_t first_needed;	/* first packet ending at or after target */
	size_t keep_from;	/* first packet kept; entry_count: none */
};

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
		(uint32_t) p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t) get_be32(p) << 32 | get_be32(p + 4);
}

static void put_be64(uint8_t *p, uint64_t value)
{
	for (int i = 7; i >= 0; i--, value >>= 8)
		p[i] = value & 0xff;
}

static void put_be32(uint8_t *p, uint32_t value)
{
	for (int i = 3; i >= 0; i--, value >>= 8)
		p[i] = value & 0xff;
}

static const uint8_t *entry(const struct stream_file *f, size_t i)
{
	return f->index + INDEX_HEADER_SIZE + i * f->entry_size;
}

static uint64_t entry_field(const struct stream_file *f, size_t i,
		enum index_entry_field field)
{
	return get_be64(entry(f, i) + field);
}

static void stream_file_free(gpointer data)
{
	struct stream_file *f = data;

	g_free(f->name);
	g_free(f->index);
	g_free(f);
}

/* Clock cycles at ns, rounded down and clamped to the cycles' range;
 * *inexact when a fraction of a cycle was dropped.  At 1 GHz
 * libbabeltrace2 converts cycles to ns exactly (an integer sum); at
 * other frequencies it goes through a double, whose result may differ
 * from the exact one by a few ns plus 2^-52 of the value: *margin is
 * that error, in cycles. */
static uint64_t cycles_at(const struct tn_clock_info *clock, int64_t ns,
		bool *inexact, uint64_t *margin)
{
	const uint64_t freq = clock->frequency;
	int64_t seconds = ns / (int64_t) NS_PER_S;
	int64_t sub_ns = ns % (int64_t) NS_PER_S;
	uint64_t cycles, sub_cycles;
	int64_t rel_seconds;

	*inexact = false;
	*margin = 0;
	if (sub_ns < 0) {	/* floor, not truncation */
		sub_ns += (int64_t) NS_PER_S;
		seconds--;
	}
	if (__builtin_sub_overflow(seconds, clock->offset_seconds,
			&rel_seconds))
		return clock->offset_seconds < 0 ? UINT64_MAX : 0;
	if (rel_seconds < 0)	/* before the clock's origin + offset */
		return 0;
	/* sub_ns * freq / 1e9 without overflow: sub_ns < 2^30. */
	sub_cycles = (uint64_t) sub_ns * (freq / NS_PER_S) +
		(uint64_t) sub_ns * (freq % NS_PER_S) / NS_PER_S;
	*inexact = (uint64_t) sub_ns * (freq % NS_PER_S) % NS_PER_S != 0;
	if (__builtin_mul_overflow((uint64_t) rel_seconds, freq, &cycles) ||
	    __builtin_add_overflow(cycles, sub_cycles, &cycles))
		return UINT64_MAX;
	if (cycles <= clock->offset_cycles)
		return 0;
	if (freq != NS_PER_S)	/* ns error: 2^-52 of ~rel_seconds * 2^30 */
		*margin = (((uint64_t) rel_seconds >> 20) + 4) *
			(freq / NS_PER_S + 1);
	return cycles - clock->offset_cycles;
}

/* Clock cycles of target_ns, rounded down, and lowered by the error of
 * libbabeltrace2's conversion: the first packet that ends at or after
 * them is the first that may hold something at or after target_ns
 * (keeping one packet too many is harmless, one too few loses
 * events). */
static uint64_t cycles_not_after(const struct tn_clock_info *clock,
		int64_t target_ns)
{
	bool inexact;
	uint64_t margin, cycles = cycles_at(clock, target_ns, &inexact,
		&margin);

	return cycles > margin ? cycles - margin : 0;
}

/* Clock cycles of ns, rounded up and raised by the conversion's error:
 * a packet end that is never earlier than the true one. */
static uint64_t cycles_not_before(const struct tn_clock_info *clock,
		int64_t ns)
{
	bool inexact;
	uint64_t margin, cycles = cycles_at(clock, ns, &inexact, &margin);

	if (__builtin_add_overflow(cycles, margin + inexact, &cycles))
		return UINT64_MAX;
	return cycles;
}

/* An LTTng index may hold 0 or garbage as the end of a packet that was
 * never closed (crash, empty last packet): then the end is unknown and
 * the packet is kept. */
static bool packet_may_end_after(const struct stream_file *f, size_t i,
		uint64_t target_cycles)
{
	uint64_t begin = entry_field(f, i, ENTRY_TIMESTAMP_BEGIN);
	uint64_t end = entry_field(f, i, ENTRY_TIMESTAMP_END);

	return end == 0 || end < begin || end >= target_cycles;
}

static int check_index_header(const char *path, const uint8_t *data,
		size_t size, struct tn_error *err)
{
	uint32_t entry_size;

	if (size < INDEX_HEADER_SIZE) {
		tn_error_set(err, "cannot slice: %s: truncated header "
			"(%zu bytes)", path, size);
		return -1;
	}
	if (get_be32(data) != INDEX_MAGIC) {
		tn_error_set(err, "cannot slice: %s: not a CTF packet index "
			"(magic 0x%08" PRIx32 ")", path, get_be32(data));
		return -1;
	}
	if (get_be32(data + 4) != 1) {
		tn_error_set(err, "cannot slice: %s: unknown index version "
			"%" PRIu32 ".%" PRIu32, path, get_be32(data + 4),
			get_be32(data + 8));
		return -1;
	}
	entry_size = get_be32(data + 12);
	if (entry_size < INDEX_ENTRY_1_0_SIZE) {
		tn_error_set(err, "cannot slice: %s: entries of %" PRIu32
			" bytes, less than the %d of CTF index 1.0", path,
			entry_size, INDEX_ENTRY_1_0_SIZE);
		return -1;
	}
	if ((size - INDEX_HEADER_SIZE) % entry_size) {
		tn_error_set(err, "cannot slice: %s: truncated: %zu bytes "
			"after the header, not a whole number of %" PRIu32
			"-byte entries", path, size - INDEX_HEADER_SIZE,
			entry_size);
		return -1;
	}
	return 0;
}

/* src.ctf.fs only checks that the packet sizes add up to the file size;
 * the slice also relies on each packet starting where the previous one
 * ends. */
static int check_index_entries(const char *path, const struct stream_file *f,
		uint64_t file_size, struct tn_error *err)
{
	uint64_t next_offset = 0;

	for (size_t i = 0; i < f->entry_count; i++) {
		uint64_t offset = entry_field(f, i, ENTRY_OFFSET);
		uint64_t bits = entry_field(f, i, ENTRY_PACKET_SIZE);

		if (bits == 0 || bits % 8) {
			tn_error_set(err, "cannot slice: %s: packet %zu has a "
				"size of %" PRIu64 " bits", path, i, bits);
			return -1;
		}
		if (offset != next_offset) {
			tn_error_set(err, "cannot slice: %s: packet %zu is at "
				"byte %" PRIu64 ", not right after the previous "
				"one (byte %" PRIu64 ")", path, i, offset,
				next_offset);
			return -1;
		}
		if (__builtin_add_overflow(offset, bits / 8, &next_offset))
			next_offset = UINT64_MAX;
	}
	if (next_offset != file_size) {
		tn_error_set(err, "cannot slice: %s: its packets cover %" PRIu64
			" bytes, but the stream file has %" PRIu64, path,
			next_offset, file_size);
		return -1;
	}
	return 0;
}

/* Read and check index/<name>.idx of stream file dir/name into f. */
static int read_index(const char *dir, const char *name, uint64_t file_size,
		struct stream_file *f, struct tn_error *err)
{
	char *path = g_strdup_printf("%s/index/%s.idx", dir, name);
	GError *error = NULL;
	gchar *data;
	gsize size;
	int status = -1;

	if (!g_file_get_contents(path, &data, &size, &error)) {
		if (g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			tn_error_set(err, "cannot slice: %s/%s: no packet "
				"index (index/%s.idx)", dir, name, name);
		else
			tn_error_set(err, "cannot slice: %s", error->message);
		g_error_free(error);
		g_free(path);
		return -1;
	}
	f->index = (uint8_t *) data;
	if (check_index_header(path, f->index, size, err) == 0) {
		f->entry_size = get_be32(f->index + 12);
		f->entry_count = (size - INDEX_HEADER_SIZE) / f->entry_size;
		f->has_instance_id = get_be32(f->index + 8) >= 1 &&
			f->entry_size >= ENTRY_STREAM_INSTANCE_ID + 8;
		status = check_index_entries(path, f, file_size, err);
	}
	g_free(path);
	return status;
}

/* ---- packet indexes synthesised from packet tables ---- */

static const struct tn_packet_table *find_packet_table(
		const struct tn_index *tables, const char *file)
{
	for (size_t i = 0; tables && i < tables->packet_table_count; i++)
		if (strcmp(tables->packet_tables[i].file, file) == 0)
			return &tables->packet_tables[i];
	return NULL;
}

static bool read_u32_at(int fd, uint64_t offset, uint32_t *value)
{
	uint8_t bytes[4];

	if (pread(fd, bytes, sizeof(bytes), (off_t) offset) != sizeof(bytes))
		return false;
	*value = get_be32(bytes);
	return true;
}

/* Every packet of size bytes starts with the CTF magic, in one byte
 * order: the packets really are that size. */
static int check_packet_magics(const char *path, uint64_t count,
		uint64_t size, struct tn_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint32_t first = 0, magic = 0;
	uint64_t k = 0;

	if (fd < 0) {
		tn_error_set(err, "cannot slice: %s: %s", path,
			strerror(errno));
		return -1;
	}
	if (read_u32_at(fd, 0, &first) &&
	    (first == PACKET_MAGIC || first == GUINT32_SWAP_LE_BE(PACKET_MAGIC)))
		for (k = 1; k < count; k++)
			if (!read_u32_at(fd, k * size, &magic) ||
			    magic != first)
				break;
	close(fd);
	if (k == count && count > 0)
		return 0;
	tn_error_set(err, "cannot slice: %s: no CTF packet magic at byte "
		"%" PRIu64 ": its packets are not all of %" PRIu64 " bytes",
		path, k * size, size);
	return -1;
}

/* check_packet_magics() the first time only: the table remembers the
 * answer (threads may race to find it; they find the same). */
static int check_magics_once(const char *path,
		const struct tn_packet_table *table, uint64_t size,
		struct tn_error *err)
{
	struct tn_packet_table *memo = (struct tn_packet_table *) table;
	int known = g_atomic_int_get(&memo->magics_checked);
	struct stat st;
	int64_t mtime_ns = 0;

	if (stat(path, &st) == 0)
		mtime_ns = (int64_t) st.st_mtim.tv_sec * 1000000000 +
			st.st_mtim.tv_nsec;
	if (known == 0 || memo->magics_mtime_ns != mtime_ns) {
		known = check_packet_magics(path, table->count, size, err) ?
			-1 : 1;
		memo->magics_mtime_ns = mtime_ns;
		g_atomic_int_set(&memo->magics_checked, known);
		return known > 0 ? 0 : -1;
	}
	if (known > 0)
		return 0;
	tn_error_set(err, "cannot slice: %s: its packets do not all start "
		"with the CTF magic", path);
	return -1;
}

/* The packets of table are all the same size, that of the file divided
 * by their count; sets *size. */
static int check_fixed_size(const char *path, uint64_t file_size,
		const struct tn_packet_table *table, uint64_t *size,
		struct tn_error *err)
{
	if (file_size % table->count) {
		tn_error_set(err, "cannot slice: %s: %" PRIu64 " bytes, not "
			"a multiple of its %" PRIu64 " packets", path,
			file_size, table->count);
		return -1;
	}
	*size = file_size / table->count;
	if (*size == 0 || *size % 8) {
		tn_error_set(err, "cannot slice: %s: packets of %" PRIu64
			" bytes, not a multiple of 8", path, *size);
		return -1;
	}
	return check_magics_once(path, table, *size, err);
}

/* A CTF index 1.1 for packets of size bytes, with the table's times
 * widened to whole cycles. */
static void synthesise_entries(struct stream_file *f,
		const struct tn_packet_table *table, uint64_t size,
		const struct tn_clock_info *clock)
{
	f->entry_size = INDEX_ENTRY_1_1_SIZE;
	f->entry_count = table->count;
	f->index = g_malloc0(INDEX_HEADER_SIZE +
		f->entry_count * f->entry_size);
	f->synthetic = true;
	put_be32(f->index, INDEX_MAGIC);
	put_be32(f->index + 4, 1);
	put_be32(f->index + 8, 1);
	put_be32(f->index + 12, INDEX_ENTRY_1_1_SIZE);
	for (size_t k = 0; k < f->entry_count; k++) {
		uint8_t *e = f->index + INDEX_HEADER_SIZE + k * f->entry_size;

		put_be64(e + ENTRY_OFFSET, k * size);
		put_be64(e + ENTRY_PACKET_SIZE, size * 8);
		put_be64(e + ENTRY_CONTENT_SIZE, size * 8);
		put_be64(e + ENTRY_TIMESTAMP_BEGIN,
			cycles_not_after(clock, table->begin_ns[k]));
		put_be64(e + ENTRY_TIMESTAMP_END,
			cycles_not_before(clock, table->end_ns[k]));
		put_be64(e + ENTRY_PACKET_SEQ_NUM, k);
	}
}

/* An index for stream file dir/name, which has none, from the packet
 * table of a full read, if its packets are fixed-size. */
static int synthesise_index(const char *dir, const char *real_dir,
		const char *name, uint64_t file_size,
		const struct tn_clock_info *clock,
		const struct tn_index *tables, struct stream_file *f,
		struct tn_error *err)
{
	char *real_path = g_strdup_printf("%s/%s", real_dir, name);
	const struct tn_packet_table *table = find_packet_table(tables,
		real_path);
	uint64_t size;
	int status = -1;

	if (!table)
		tn_error_set(err, "cannot slice: %s/%s: no packet index "
			"(index/%s.idx)%s", dir, name, name, tables ?
			" and no packet table" : "");
	else if (check_fixed_size(real_path, file_size, table, &size,
			err) == 0) {
		synthesise_entries(f, table, size, clock);
		status = check_index_entries(real_path, f, file_size, err);
	}
	g_free(real_path);
	return status;
}

static bool has_index_file(const char *dir, const char *name)
{
	char *path = g_strdup_printf("%s/index/%s.idx", dir, name);
	struct stat st;
	bool exists = stat(path, &st) == 0 || errno != ENOENT;

	g_free(path);
	return exists;
}

/* Packets to keep in f: from the one before the first that matters. */
static void choose_packets(struct stream_file *f, uint64_t target_cycles)
{
	size_t i = 0;

	while (i < f->entry_count &&
	       !packet_may_end_after(f, i, target_cycles))
		i++;
	f->first_needed = i;
	if (i == f->entry_count)
		f->keep_from = f->entry_count;
	else
		f->keep_from = i > 0 ? i - 1 : 0;
}

/* Index, in the trace's groups, of the group holding dir. */
static size_t group_of_dir(const struct tn_trace *trace, const char *dir)
{
	for (size_t g = 0; g < tn_trace_get_group_count(trace); g++)
		for (size_t i = 0; i < tn_trace_get_group_dir_count(trace, g);
				i++)
			if (strcmp(tn_trace_get_group_dir(trace, g, i), dir) == 0)
				return g;
	return SIZE_MAX;
}

/* Add the stream files of trace directory `dir` to files, with the
 * packets to keep from target_ns on. */
static int add_dir_files(const struct tn_trace *trace, size_t dir,
		int64_t target_ns, const struct tn_index *tables,
		GPtrArray *files, struct tn_error *err)
{
	const char *path = tn_trace_get_dir(trace, dir);
	char *real_dir = NULL;
	size_t group = group_of_dir(trace, path);
	struct tn_clock_info clock;
	uint64_t target_cycles;
	GError *error = NULL;
	const char *name;
	GDir *listing;
	int status = 0;

	if (!tn_trace_get_dir_clock(trace, dir, &clock) ||
	    clock.frequency == 0) {
		tn_error_set(err, "cannot slice: %s: its streams have no "
			"clock", path);
		return -1;
	}
	target_cycles = cycles_not_after(&clock, target_ns);
	listing = g_dir_open(path, 0, &error);
	if (!listing) {
		tn_error_set(err, "cannot slice: %s", error->message);
		g_error_free(error);
		return -1;
	}
	/* The files src.ctf.fs reads: not hidden, not the metadata, regular
	 * (through symlinks) and not empty. */
	while (status == 0 && (name = g_dir_read_name(listing))) {
		char *file_path = g_strdup_printf("%s/%s", path, name);
		struct stream_file *f;
		struct stat st;

		if (name[0] == '.' || strcmp(name, "metadata") == 0 ||
		    stat(file_path, &st) != 0 || !S_ISREG(st.st_mode) ||
		    st.st_size == 0) {
			g_free(file_path);
			continue;
		}
		g_free(file_path);
		f = g_new0(struct stream_file, 1);
		f->dir = dir;
		f->group = group;
		f->name = g_strdup(name);
		g_ptr_array_add(files, f);
		if (tables && !real_dir)
			real_dir = realpath(path, NULL);
		if (tables && real_dir && !has_index_file(path, name))
			status = synthesise_index(path, real_dir, name,
				st.st_size, &clock, tables, f, err);
		else
			status = read_index(path, name, st.st_size, f, err);
		if (status == 0)
			choose_packets(f, target_cycles);
	}
	g_dir_close(listing);
	free(real_dir);
	return status;
}

/* A synthetic index stands for a whole stream: no other file continues
 * it (its entries do not name their stream). */
static bool same_stream_class(const struct stream_file *a,
		const struct stream_file *b)
{
	return !a->synthetic && !b->synthetic && a->group == b->group &&
		entry_field(a, 0, ENTRY_STREAM_CLASS_ID) ==
		entry_field(b, 0, ENTRY_STREAM_CLASS_ID);
}

static bool same_stream(const struct stream_file *a,
		const struct stream_file *b)
{
	return same_stream_class(a, b) && a->has_instance_id &&
		b->has_instance_id &&
		entry_field(a, 0, ENTRY_STREAM_INSTANCE_ID) ==
		entry_field(b, 0, ENTRY_STREAM_INSTANCE_ID);
}

static uint64_t last_packet_begin(const struct stream_file *f)
{
	return entry_field(f, f->entry_count - 1, ENTRY_TIMESTAMP_BEGIN);
}

static void keep_last_packet(struct stream_file *f)
{
	if (f->keep_from == f->entry_count)
		f->keep_from = f->entry_count - 1;
}

/* The first packet of f matters: keep the previous packet of its stream,
 * the last one of the file that comes just before f in that stream. */
static void keep_previous_file_packet(GPtrArray *files,
		const struct stream_file *f)
{
	uint64_t f_begin = entry_field(f, 0, ENTRY_TIMESTAMP_BEGIN);
	bool found = false;
	uint64_t latest = 0;

	for (guint i = 0; i < files->len; i++) {
		struct stream_file *other = files->pdata[i];
		uint64_t begin = last_packet_begin(other);

		if (other == f || !same_stream_class(f, other) ||
		    begin > f_begin)
			continue;
		if (!f->has_instance_id || !other->has_instance_id)
			keep_last_packet(other);	/* stream unknown */
		else if (same_stream(f, other) && (!found || begin > latest)) {
			latest = begin;
			found = true;
		}
	}
	for (guint i = 0; found && i < files->len; i++) {
		struct stream_file *other = files->pdata[i];

		if (other != f && same_stream(f, other) &&
		    last_packet_begin(other) == latest)
			keep_last_packet(other);
	}
}

/* Read the indexes of every trace directory and choose the packets. */
static int choose_all_packets(const struct tn_trace *trace, int64_t target_ns,
		const struct tn_index *tables, GPtrArray *files,
		struct tn_error *err)
{
	for (size_t dir = 0; dir < tn_trace_get_dir_count(trace); dir++)
		if (add_dir_files(trace, dir, target_ns, tables, files, err))
			return -1;
	for (guint i = 0; i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];

		if (f->first_needed == 0)
			keep_previous_file_packet(files, f);
	}
	return 0;
}

/* Name the views so that they sort (strcmp) like the directories they
 * stand for: src.ctf.fs sorts its inputs, which decides among traces
 * of one group and numbers streams without a stream_instance_id. */
static char *view_name(const struct tn_trace *trace, size_t dir)
{
	const char *path = tn_trace_get_dir(trace, dir);
	size_t count = tn_trace_get_dir_count(trace);
	size_t rank = 0;
	int width = snprintf(NULL, 0, "%zu", count);

	for (size_t i = 0; i < count; i++) {
		int order = strcmp(tn_trace_get_dir(trace, i), path);

		if (order < 0 || (order == 0 && i < dir))
			rank++;
	}
	return g_strdup_printf("%0*zu", width, rank);
}

static bool file_is_kept(const struct stream_file *f)
{
	return f->keep_from < f->entry_count;
}

/* Every path a slice creates, for its removal (files, then directories
 * children first). */
static void list_slice_paths(const struct tn_slice *slice, GPtrArray *files,
		GPtrArray *out_files, GPtrArray *out_dirs)
{
	for (size_t dir = 0; dir < slice->dir_count; dir++) {
		const char *view = slice->views[dir];

		if (!view)
			continue;
		g_ptr_array_add(out_files, g_strdup_printf("%s/metadata", view));
		for (guint i = 0; i < files->len; i++) {
			const struct stream_file *f = files->pdata[i];

			if (f->dir != dir || !file_is_kept(f))
				continue;
			g_ptr_array_add(out_files, g_strdup_printf("%s/%s",
				view, f->name));
			g_ptr_array_add(out_files, g_strdup_printf(
				"%s/index/%s.idx", view, f->name));
		}
		g_ptr_array_add(out_dirs, g_strdup_printf("%s/index", view));
		g_ptr_array_add(out_dirs, g_strdup(view));
	}
	g_ptr_array_add(out_dirs, g_strdup(slice->root));
}

static int register_slice(struct tn_slice *slice, GPtrArray *files,
		struct tn_error *err)
{
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);

	list_slice_paths(slice, files, paths, dirs);
	slice->tree = tn_runtime_register((const char *const *) paths->pdata,
		paths->len, (const char *const *) dirs->pdata, dirs->len, err);
	g_ptr_array_free(paths, TRUE);
	g_ptr_array_free(dirs, TRUE);
	return slice->tree ? 0 : -1;
}

static int write_all(int fd, const uint8_t *data, size_t size)
{
	while (size > 0) {
		ssize_t done = write(fd, data, size);

		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0)
			return -1;
		data += done;
		size -= done;
	}
	return 0;
}

/* The header and the kept entries; the first kept packet grows by the
 * bytes before it, so the sizes still add up to the file size. */
static int write_sliced_index(const char *path, const struct stream_file *f,
		struct tn_error *err)
{
	size_t kept = f->entry_count - f->keep_from;
	size_t size = INDEX_HEADER_SIZE + kept * f->entry_size;
	uint8_t *data = g_malloc(size);
	uint8_t *first = data + INDEX_HEADER_SIZE;
	int fd, status = -1;

	memcpy(data, f->index, INDEX_HEADER_SIZE);
	memcpy(first, entry(f, f->keep_from), kept * f->entry_size);
	put_be64(first + ENTRY_PACKET_SIZE,
		get_be64(first + ENTRY_PACKET_SIZE) +
		8 * get_be64(first + ENTRY_OFFSET));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		status = write_all(fd, data, size);
		if (close(fd) != 0)
			status = -1;
	}
	if (status)
		tn_error_set(err, "cannot slice: cannot write %s: %s", path,
			strerror(errno));
	g_free(data);
	return status;
}

static int make_symlink(const char *target, const char *path,
		struct tn_error *err)
{
	if (symlink(target, path) == 0)
		return 0;
	tn_error_set(err, "cannot slice: cannot create %s: %s", path,
		strerror(errno));
	return -1;
}

static int make_dir(const char *path, struct tn_error *err)
{
	if (mkdir(path, 0700) == 0)
		return 0;
	tn_error_set(err, "cannot slice: cannot create %s: %s", path,
		strerror(errno));
	return -1;
}

/* Fill the view of trace directory dir: symlinks to its metadata and
 * kept stream files (absolute), and their sliced indexes. */
static int write_view(const struct tn_slice *slice, size_t dir,
		GPtrArray *files, struct tn_error *err)
{
	const char *view = slice->views[dir];
	char *real_dir = realpath(slice->dirs[dir], NULL);
	char *index_dir = g_strdup_printf("%s/index", view);
	char *target = NULL, *link = NULL;
	int status;

	if (!real_dir) {
		tn_error_set(err, "cannot slice: %s: %s", slice->dirs[dir],
			strerror(errno));
		g_free(index_dir);
		return -1;
	}
	target = g_strdup_printf("%s/metadata", real_dir);
	link = g_strdup_printf("%s/metadata", view);
	status = make_dir(view, err) || make_dir(index_dir, err) ||
		make_symlink(target, link, err) ? -1 : 0;
	for (guint i = 0; status == 0 && i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];

		if (f->dir != dir || !file_is_kept(f))
			continue;
		g_free(target);
		g_free(link);
		target = g_strdup_printf("%s/%s", real_dir, f->name);
		link = g_strdup_printf("%s/%s", view, f->name);
		if (make_symlink(target, link, err))
			status = -1;
		g_free(link);
		link = g_strdup_printf("%s/%s.idx", index_dir, f->name);
		if (status == 0 && write_sliced_index(link, f, err))
			status = -1;
	}
	g_free(target);
	g_free(link);
	g_free(index_dir);
	free(real_dir);
	return status;
}

/* Decide which directories get a view (those with a kept stream). */
static void name_views(struct tn_slice *slice, const struct tn_trace *trace,
		GPtrArray *files)
{
	for (guint i = 0; i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];
		char *name;

		if (!file_is_kept(f) || slice->views[f->dir])
			continue;
		name = view_name(trace, f->dir);
		slice->views[f->dir] = g_strdup_printf("%s/%s", slice->root,
			name);
		g_free(name);
	}
}

static struct tn_slice *slice_new(const struct tn_trace *trace,
		struct tn_error *err)
{
	struct tn_slice *slice;
	char *root = tn_runtime_make_dir("slice", err);

	if (!root)
		return NULL;
	slice = g_new0(struct tn_slice, 1);
	slice->root = root;
	slice->dir_count = tn_trace_get_dir_count(trace);
	slice->dirs = g_new0(char *, slice->dir_count);
	slice->views = g_new0(char *, slice->dir_count);
	for (size_t i = 0; i < slice->dir_count; i++)
		slice->dirs[i] = g_strdup(tn_trace_get_dir(trace, i));
	return slice;
}

static int create_slice(const struct tn_trace *trace, int64_t target_ns,
		const struct tn_index *tables, struct tn_slice **out,
		struct tn_error *err)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(stream_file_free);
	struct tn_slice *slice = NULL;
	int status = -1;

	*out = NULL;
	if (choose_all_packets(trace, target_ns, tables, files, err) ||
	    !(slice = slice_new(trace, err)))
		goto end;
	name_views(slice, trace, files);
	if (register_slice(slice, files, err)) {
		rmdir(slice->root);
		goto end;
	}
	status = 0;
	for (size_t dir = 0; status == 0 && dir < slice->dir_count; dir++)
		if (slice->views[dir])
			status = write_view(slice, dir, files, err);
end:
	g_ptr_array_free(files, TRUE);
	if (status) {
		tn_slice_destroy(slice);
		return -1;
	}
	*out = slice;
	return 0;
}

int tn_slice_create(const struct tn_trace *trace, int64_t target_ns,
		struct tn_slice **out, struct tn_error *err)
{
	return create_slice(trace, target_ns, tn_trace_get_packet_tables(trace),
		out, err);
}

int tn_slice_create_from_index_files(const struct tn_trace *trace,
		int64_t target_ns, struct tn_slice **out, struct tn_error *err)
{
	return create_slice(trace, target_ns, NULL, out, err);
}

const char *tn_slice_map_dir(const struct tn_slice *slice, const char *dir)
{
	for (size_t i = 0; i < slice->dir_count; i++)
		if (strcmp(dir, slice->dirs[i]) == 0)
			return slice->views[i];
	return NULL;
}

void tn_slice_destroy(struct tn_slice *slice)
{
	if (!slice)
		return;
	tn_runtime_remove(slice->tree);
	for (size_t i = 0; i < slice->dir_count; i++) {
		g_free(slice->dirs[i]);
		g_free(slice->views[i]);
	}
	g_free(slice->dirs);
	g_free(slice->views);
	g_free(slice->root);
	g_free(slice);
}
