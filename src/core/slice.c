/* slice.c - a sliced view of a trace that starts near a time (see
 * slice.h and "Making libbabeltrace2 seek fast" in the design notes).
 *
 * Which packets a view keeps.  In every stream file, the packets from the
 * first one that ends at or after the target: a walk then decodes at
 * most the target's packet of each stream before it reaches the target.
 * What the view leaves out ends before the latest end of the packets it
 * skipped (tn_slice_get_complete_after()), so every event after that
 * time is in the view, with all the events that share its time: the
 * walks keep what they decode from there on, and number ties as a full
 * read does.  The discarded-item notices of a full read that fall after
 * that time are the view's too: src.ctf.fs compares each packet's
 * events_discarded counter and packet_seq_num with the previous packet
 * of its stream, and the notice it emits for a packet begins at the
 * previous packet's end; only the first kept packet of a stream has no
 * previous one in the view, and its notice in a full read begins at the
 * end of a skipped packet, at or before that time.  (src.ctf.fs reports
 * that first packet's own nonzero counter as a notice without a count,
 * which adds nothing.)
 *
 * With TN_SLICE_KEEP_PREVIOUS (the index build, which counts notices
 * as items and cuts its time slices itself), the view keeps one more
 * packet per stream: the one just before.  That packet gives src.ctf.fs
 * the previous discarded-events counter and sequence number, so the
 * first packet that matters gets the same notices as in the whole trace,
 * and everything the extra packet brings (its events, its own made-up
 * notice) ends before the target.  When a stream goes on in another file
 * (tracefile or session rotation), its previous packet is the last one
 * of the file before, found by the stream instance id of CTF index 1.1
 * entries; for 1.0 entries, which do not name the stream, the last
 * packet of every file of the same stream class before it is kept
 * (harmless, and rare: LTTng writes 1.1 since 2.8).
 *
 * A stream file without index (non-LTTng CTF) gets one made up from its
 * packet table (packets.h, kept by the checkpoint index) when its packets are
 * all one size: the file size divided by the packet count, with the CTF
 * packet magic at every multiple of it.  Of an index entry, src.ctf.fs
 * 2.0 reads the offset, packet size, times and (1.1) sequence number,
 * and ignores content_size and events_discarded: the discarded-events
 * notices come from the counters and sequence numbers in the packet
 * contexts.  The times, widened to whole cycles, are those of the
 * packets (or of their first and last events, for packets without
 * times).
 */
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracenav/packets.h"
#include "tracenav/runtime.h"
#include "tracenav/sync.h"
#include "clock.h"
#include "ctf-index.h"
#include "packets-private.h"
#include "slice.h"
#include "trace-private.h"

struct tn_slice {
	char *root;		/* the private directory */
	int64_t complete_after;	/* see tn_slice_get_complete_after() */
	size_t dir_count;
	char **dirs;		/* tn_trace_get_dir() strings */
	char **views;		/* the directory standing for each, or NULL */
	bool *whole;		/* its view is the directory itself */
	struct tn_runtime_tree *tree;
};

/* One stream file of a trace directory and its packet index. */
struct stream_file {
	size_t dir;		/* tn_trace_get_dir() index */
	size_t group;		/* its src.ctf.fs component */
	char *name;
	struct tn_ctf_index idx;
	bool synthetic;		/* index made from a packet table: the
				 * file holds its whole stream */
	struct tn_clock_info clock;	/* of its directory */
	/* Its host's correction (tn_trace_set_sync()), or NULL. */
	const struct tn_sync_transform *transform;
	size_t first_needed;	/* first packet ending at or after target */
	size_t keep_from;	/* first packet kept; entry_count: none */
};

/* Corrected time ns (a target, under tn_trace_set_sync()) in the
 * recorded time of the host of tr (NULL: none): a nanosecond early, so
 * that the rounding leaves no event at or after the target out. */
static int64_t recorded_time(const struct tn_sync_transform *tr, int64_t ns)
{
	if (!tr || ns == INT64_MIN || ns == INT64_MAX)
		return ns;
	ns = tn_sync_transform_invert(tr, ns);
	return ns > INT64_MIN ? ns - 1 : ns;
}

/* Recorded time ns of the host of tr (NULL: none) corrected: a
 * nanosecond late, an end never earlier than the true one. */
static int64_t corrected_time(const struct tn_sync_transform *tr, int64_t ns)
{
	if (!tr || ns == INT64_MIN || ns == INT64_MAX)
		return ns;
	ns = tn_sync_transform_apply(tr, ns);
	return ns < INT64_MAX ? ns + 1 : ns;
}

static uint64_t entry_field(const struct stream_file *f, size_t i,
		enum tn_ctf_index_field field)
{
	return tn_ctf_index_get(&f->idx, i, field);
}

static void stream_file_free(gpointer data)
{
	struct stream_file *f = data;

	g_free(f->name);
	tn_ctf_index_fini(&f->idx);
	g_free(f);
}

/* Why the trace cannot be sliced: the cause, found by a module that
 * knows what is wrong but not what it stops. */
static int refuse(struct tn_error *err, const struct tn_error *cause)
{
	tn_error_set(err, "cannot slice: %s", cause->message);
	return -1;
}

/* An LTTng index may hold 0 or garbage as the end of a packet that was
 * never closed (crash, empty last packet): then the end is unknown and
 * the packet is kept. */
static bool packet_may_end_after(const struct stream_file *f, size_t i,
		uint64_t target_cycles)
{
	uint64_t begin = entry_field(f, i, TN_CTF_INDEX_TIMESTAMP_BEGIN);
	uint64_t end = entry_field(f, i, TN_CTF_INDEX_TIMESTAMP_END);

	return end == 0 || end < begin || end >= target_cycles;
}

/* Read and check index/<name>.idx of stream file dir/name into f. */
static int read_index(const char *dir, const char *name, uint64_t file_size,
		struct stream_file *f, struct tn_error *err)
{
	struct tn_error cause;

	if (tn_ctf_index_read(dir, name, file_size, &f->idx, &cause))
		return refuse(err, &cause);
	return 0;
}

/* ---- packet indexes synthesised from packet tables ---- */

/* tn_ctf_index_check_magics() once per version (mtime) of the stream
 * file: the tables remember the answer (threads may race to find it;
 * they find the same). */
static int check_magics_once(const char *path,
		const struct tn_packet_tables *tables, size_t table,
		uint64_t size, struct tn_error *err)
{
	struct tn_error cause;
	struct stat st;
	int64_t mtime_ns = 0;
	int status;

	if (stat(path, &st) == 0)
		mtime_ns = (int64_t) st.st_mtim.tv_sec * 1000000000 +
			st.st_mtim.tv_nsec;
	switch (tn_packets_get_magics(tables, table, mtime_ns)) {
	case TN_PACKETS_MAGICS_FOUND:
		return 0;
	case TN_PACKETS_MAGICS_MISSING:
		tn_error_set(err, "cannot slice: %s: its packets do not all "
			"start with the CTF magic", path);
		return -1;
	case TN_PACKETS_MAGICS_UNKNOWN:
		break;
	}
	status = tn_ctf_index_check_magics(path,
		tn_packets_get_packet_count(tables, table), size, &cause);
	tn_packets_set_magics(tables, table, mtime_ns, status ?
		TN_PACKETS_MAGICS_MISSING : TN_PACKETS_MAGICS_FOUND);
	return status ? refuse(err, &cause) : 0;
}

/* An index for stream file dir/name, which has none, from the packet
 * table of a full read, if its packets are fixed-size: the file size
 * divided by the packet count, with the CTF packet magic at every
 * multiple of it. */
static int synthesise_index(const char *dir, const char *real_dir,
		const char *name, uint64_t file_size,
		const struct tn_clock_info *clock,
		const struct tn_packet_tables *tables, struct stream_file *f,
		struct tn_error *err)
{
	/* The file's own real path, as the tables name it: that of the
	 * file a stand-in's symlink points to (repair.h). */
	char *link_path = g_strdup_printf("%s/%s", real_dir, name);
	char *resolved = realpath(link_path, NULL);
	char *real_path = g_strdup(resolved ? resolved : link_path);
	struct tn_error cause;
	uint64_t count, size;
	size_t table;
	int status = -1;

	if (!tn_packets_find(tables, real_path, &table)) {
		tn_error_set(err, "cannot slice: %s/%s: no packet index "
			"(index/%s.idx) and no packet table", dir, name, name);
		goto end;
	}
	count = tn_packets_get_packet_count(tables, table);
	if (tn_ctf_index_fixed_size(real_path, file_size, count, &size,
			&cause)) {
		refuse(err, &cause);
		goto end;
	}
	if (check_magics_once(real_path, tables, table, size, err))
		goto end;
	tn_ctf_index_synthesise(&f->idx, count, size,
		tn_packets_borrow_begin_ns(tables, table),
		tn_packets_borrow_end_ns(tables, table), clock);
	f->synthetic = true;
	if (tn_ctf_index_check_entries(&f->idx, real_path, file_size, &cause))
		refuse(err, &cause);
	else
		status = 0;
end:
	g_free(real_path);
	g_free(link_path);
	free(resolved);
	return status;
}

/* Whether packet i of f begins before packet i - 1 ends (an end of 0
 * or before its begin is unknown: not counted). */
static bool overlaps_previous(const struct stream_file *f, size_t i)
{
	uint64_t prev_begin = entry_field(f, i - 1,
		TN_CTF_INDEX_TIMESTAMP_BEGIN);
	uint64_t prev_end = entry_field(f, i - 1, TN_CTF_INDEX_TIMESTAMP_END);

	return prev_end >= prev_begin && prev_end > 0 &&
		entry_field(f, i, TN_CTF_INDEX_TIMESTAMP_BEGIN) < prev_end;
}

/* Packets to keep in f: from the first that matters (or the one
 * before it). */
static void choose_packets(struct stream_file *f, uint64_t target_cycles,
		unsigned flags)
{
	size_t i = 0;

	while (i < f->idx.entry_count &&
	       !packet_may_end_after(f, i, target_cycles))
		i++;
	f->first_needed = i;
	if (i == f->idx.entry_count)
		f->keep_from = f->idx.entry_count;
	else if (flags & TN_SLICE_KEEP_PREVIOUS)
		f->keep_from = i > 0 ? i - 1 : 0;
	else
		f->keep_from = i;
	/* A packet that begins before the one before it ends (its
	 * stream's time goes back there): the merge places its first
	 * messages at that end (merge-filter.h), which only that packet
	 * tells: keep it too, as a full read has it. */
	while (f->keep_from > 0 && f->keep_from < f->idx.entry_count &&
	       overlaps_previous(f, f->keep_from))
		f->keep_from--;
}

/* The latest end of the packets of f left out of the view, or
 * INT64_MIN.  They all have a valid end (packet_may_end_after()). */
static int64_t skipped_end_ns(const struct stream_file *f)
{
	uint64_t latest = 0;

	if (f->keep_from == 0)
		return INT64_MIN;
	for (size_t i = 0; i < f->keep_from; i++) {
		uint64_t end = entry_field(f, i, TN_CTF_INDEX_TIMESTAMP_END);

		if (end > latest)
			latest = end;
	}
	return corrected_time(f->transform,
		tn_clock_ns_not_before(&f->clock, latest));
}

/* Add the stream files of trace directory `dir` to files, with the
 * packets to keep from target_ns on. */
static int add_dir_files(const struct tn_trace *trace, size_t dir,
		int64_t target_ns, const struct tn_packet_tables *tables,
		unsigned flags, GPtrArray *files, struct tn_error *err)
{
	const char *path = tn_trace_get_read_dir(trace, dir);
	char *real_dir = NULL;
	size_t group = tn_trace_group_of_dir(trace, dir);
	const struct tn_sync_transform *transform =
		tn_trace_get_group_transform(trace, group);
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
	target_cycles = tn_clock_cycles_not_after(&clock,
		recorded_time(transform, target_ns));
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
		f->clock = clock;
		f->transform = transform;
		g_ptr_array_add(files, f);
		if (tables && !real_dir)
			real_dir = realpath(path, NULL);
		if (tables && real_dir && !tn_ctf_index_exists(path, name))
			status = synthesise_index(path, real_dir, name,
				st.st_size, &clock, tables, f, err);
		else
			status = read_index(path, name, st.st_size, f, err);
		if (status == 0)
			choose_packets(f, target_cycles, flags);
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
		entry_field(a, 0, TN_CTF_INDEX_STREAM_CLASS_ID) ==
		entry_field(b, 0, TN_CTF_INDEX_STREAM_CLASS_ID);
}

static bool same_stream(const struct stream_file *a,
		const struct stream_file *b)
{
	return same_stream_class(a, b) && a->idx.has_instance_id &&
		b->idx.has_instance_id &&
		entry_field(a, 0, TN_CTF_INDEX_STREAM_INSTANCE_ID) ==
		entry_field(b, 0, TN_CTF_INDEX_STREAM_INSTANCE_ID);
}

static uint64_t last_packet_begin(const struct stream_file *f)
{
	return entry_field(f, f->idx.entry_count - 1,
		TN_CTF_INDEX_TIMESTAMP_BEGIN);
}

static void keep_last_packet(struct stream_file *f)
{
	if (f->keep_from == f->idx.entry_count)
		f->keep_from = f->idx.entry_count - 1;
}

/* The first packet of f matters: keep the previous packet of its stream,
 * the last one of the file that comes just before f in that stream. */
static void keep_previous_file_packet(GPtrArray *files,
		const struct stream_file *f)
{
	uint64_t f_begin = entry_field(f, 0, TN_CTF_INDEX_TIMESTAMP_BEGIN);
	bool found = false;
	uint64_t latest = 0;

	for (guint i = 0; i < files->len; i++) {
		struct stream_file *other = files->pdata[i];
		uint64_t begin = last_packet_begin(other);

		if (other == f || !same_stream_class(f, other) ||
		    begin > f_begin)
			continue;
		if (!f->idx.has_instance_id || !other->idx.has_instance_id)
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
		const struct tn_packet_tables *tables, unsigned flags,
		GPtrArray *files, struct tn_error *err)
{
	/* The packet indexes of repaired stream files as the readers will
	 * find them (trace-private.h). */
	tn_trace_refresh_read_dirs(trace);
	for (size_t dir = 0; dir < tn_trace_get_dir_count(trace); dir++)
		if (add_dir_files(trace, dir, target_ns, tables, flags, files,
				err))
			return -1;
	for (guint i = 0; (flags & TN_SLICE_KEEP_PREVIOUS) && i < files->len;
			i++) {
		const struct stream_file *f = files->pdata[i];

		if (f->first_needed == 0)
			keep_previous_file_packet(files, f);
	}
	return 0;
}

/* After which time every event of the trace is in the view. */
static int64_t complete_after(GPtrArray *files, int64_t target_ns)
{
	int64_t latest = INT64_MIN;

	for (guint i = 0; i < files->len; i++) {
		int64_t end = skipped_end_ns(files->pdata[i]);

		if (end > latest)
			latest = end;
	}
	/* Every packet that may hold an event at or after the target is
	 * kept, whatever the rounding of the bound. */
	if (latest != INT64_MIN && target_ns != INT64_MIN &&
	    latest >= target_ns)
		latest = target_ns - 1;
	return latest;
}

static bool file_is_kept(const struct stream_file *f)
{
	return f->keep_from < f->idx.entry_count;
}

/* Whether the view keeps every packet of every stream file: then it is
 * the trace itself. */
static bool skips_nothing(GPtrArray *files)
{
	for (guint i = 0; i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];

		if (f->keep_from != 0 || !file_is_kept(f))
			return false;
	}
	return true;
}

/* Whether trace directory dir can stand for itself in the view: it
 * keeps every packet of its stream files, all of which have their own
 * index, and it is the only directory of its trace (src.ctf.fs sorts the
 * directories of a trace by name, see view_name()).  Then nothing is
 * written for it: a jump pays nothing per stream for the directories
 * whose streams begin after the target. */
static bool dir_is_whole(const struct tn_trace *trace, size_t dir,
		GPtrArray *files)
{
	size_t group = tn_trace_group_of_dir(trace, dir);
	bool any = false;

	if (tn_trace_get_group_dir_count(trace, group) != 1)
		return false;
	for (guint i = 0; i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];

		if (f->dir != dir)
			continue;
		if (f->keep_from != 0 || !file_is_kept(f) || f->synthetic)
			return false;
		any = true;
	}
	return any;
}

/* Name the views so that they sort (strcmp) like the directories they
 * stand for: src.ctf.fs sorts its inputs, which decides among traces
 * of one group and numbers streams without a stream_instance_id. */
static char *view_name(const struct tn_trace *trace, size_t dir)
{
	const char *path = tn_trace_get_read_dir(trace, dir);
	size_t count = tn_trace_get_dir_count(trace);
	size_t rank = 0;
	int width = snprintf(NULL, 0, "%zu", count);

	for (size_t i = 0; i < count; i++) {
		int order = strcmp(tn_trace_get_read_dir(trace, i), path);

		if (order < 0 || (order == 0 && i < dir))
			rank++;
	}
	return g_strdup_printf("%0*zu", width, rank);
}

/* Every path a slice creates, for its removal (files, then directories
 * children first). */
static void list_slice_paths(const struct tn_slice *slice, GPtrArray *files,
		GPtrArray *out_files, GPtrArray *out_dirs)
{
	for (size_t dir = 0; dir < slice->dir_count; dir++) {
		const char *view = slice->views[dir];

		if (!view || slice->whole[dir])
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
	int status;

	list_slice_paths(slice, files, paths, dirs);
	status = tn_runtime_register((const char *const *) paths->pdata,
		paths->len, (const char *const *) dirs->pdata, dirs->len,
		&slice->tree, err);
	g_ptr_array_free(paths, TRUE);
	g_ptr_array_free(dirs, TRUE);
	return status;
}

/* The header and the kept entries; the first kept packet grows by the
 * bytes before it, so the sizes still add up to the file size. */
static int write_sliced_index(const char *path, const struct stream_file *f,
		struct tn_error *err)
{
	struct tn_error cause;

	if (tn_ctf_index_write_from(&f->idx, f->keep_from, path, &cause))
		return refuse(err, &cause);
	return 0;
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

/* Decide which directories get a view (those with a kept stream), and
 * which are their own view. */
static void name_views(struct tn_slice *slice, const struct tn_trace *trace,
		GPtrArray *files)
{
	for (guint i = 0; i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];
		char *name;

		if (!file_is_kept(f) || slice->views[f->dir])
			continue;
		if (dir_is_whole(trace, f->dir, files)) {
			slice->whole[f->dir] = true;
			slice->views[f->dir] = g_strdup(slice->dirs[f->dir]);
			continue;
		}
		name = view_name(trace, f->dir);
		slice->views[f->dir] = g_strdup_printf("%s/%s", slice->root,
			name);
		g_free(name);
	}
}

static int slice_new(const struct tn_trace *trace, struct tn_slice **out,
		struct tn_error *err)
{
	struct tn_slice *slice;
	char *root;

	if (tn_runtime_make_dir("slice", &root, err))
		return -1;
	slice = g_new0(struct tn_slice, 1);
	slice->root = root;
	slice->dir_count = tn_trace_get_dir_count(trace);
	slice->dirs = g_new0(char *, slice->dir_count);
	slice->views = g_new0(char *, slice->dir_count);
	slice->whole = g_new0(bool, slice->dir_count);
	for (size_t i = 0; i < slice->dir_count; i++)
		slice->dirs[i] = g_strdup(tn_trace_get_read_dir(trace, i));
	*out = slice;
	return 0;
}

static int compare_file_names(gconstpointer a, gconstpointer b)
{
	const struct stream_file *x = *(struct stream_file *const *) a;
	const struct stream_file *y = *(struct stream_file *const *) b;

	return strcmp(x->name, y->name);
}

/* About how many bytes of f a reader of the view decodes before the
 * target: those of the packets kept before the one that holds it, and
 * of that one the share that its time range puts before the target. */
static double bytes_before(const struct stream_file *f, int64_t target_ns)
{
	uint64_t target = tn_clock_cycles_not_after(&f->clock,
		recorded_time(f->transform, target_ns));
	double bytes = 0;

	/* A view of the whole trace: its readers decode every packet. */
	if (target_ns == INT64_MIN) {
		for (size_t i = f->keep_from; i < f->idx.entry_count; i++)
			bytes += (double) entry_field(f, i,
				TN_CTF_INDEX_PACKET_SIZE) / 8;
		return bytes;
	}
	for (size_t i = f->keep_from; i < f->idx.entry_count; i++) {
		uint64_t begin = entry_field(f, i, TN_CTF_INDEX_TIMESTAMP_BEGIN);
		uint64_t end = entry_field(f, i, TN_CTF_INDEX_TIMESTAMP_END);
		double size = (double) entry_field(f, i,
			TN_CTF_INDEX_PACKET_SIZE) / 8;

		if (begin >= target)
			break;
		if (end <= begin || end <= target) {
			bytes += size;
			continue;
		}
		bytes += size * (double) (target - begin) /
			(double) (end - begin);
		break;
	}
	return bytes;
}

/* A stream of the view, for the deal: its number, its files' first
 * name, what its reader decodes before the target, and its part. */
struct dealt_stream {
	unsigned number;
	const char *name;
	double bytes;
	unsigned part;
};

static int compare_dealt(gconstpointer a, gconstpointer b)
{
	const struct dealt_stream *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The kept streams of files (number i: the stream of the ith kept
 * file, by name, every file of a stream with it) into streams, and the
 * number of each file into numbers; -1 with err when a file does not
 * name its stream. */
static int number_streams(GPtrArray *files, int64_t target_ns,
		GPtrArray *kept, GArray *numbers, GArray *streams,
		struct tn_error *err)
{
	for (guint i = 0; i < files->len; i++) {
		struct stream_file *f = files->pdata[i];

		if (!file_is_kept(f))
			continue;
		if (f->synthetic || !f->idx.has_instance_id) {
			tn_error_set(err, "cannot split: %s does not name "
				"its stream (CTF index 1.1)", f->name);
			return -1;
		}
		g_ptr_array_add(kept, f);
	}
	g_ptr_array_sort(kept, compare_file_names);
	for (guint i = 0; i < kept->len; i++) {
		const struct stream_file *f = kept->pdata[i];
		unsigned number = streams->len;

		for (guint j = 0; j < i; j++)
			if (same_stream(f, kept->pdata[j]))
				number = g_array_index(numbers, unsigned, j);
		if (number == streams->len) {
			struct dealt_stream stream = { number, f->name, 0,
				0 };

			g_array_append_val(streams, stream);
		}
		g_array_index(streams, struct dealt_stream, number).bytes +=
			bytes_before(f, target_ns);
		g_array_append_val(numbers, number);
	}
	return 0;
}

/* Deal the streams to the parts so that each decodes about as much
 * before the target: the costliest first, each to the part with the
 * least so far.  The same inputs give the same deal in every part. */
static void deal_streams(GArray *streams, unsigned parts)
{
	double load[TN_SLICE_PARTS_MAX] = { 0 };
	GArray *order = g_array_sized_new(FALSE, FALSE,
		sizeof(struct dealt_stream), streams->len);

	g_array_append_vals(order, streams->data, streams->len);
	g_array_sort(order, compare_dealt);
	for (guint i = 0; i < order->len; i++) {
		struct dealt_stream *stream = &g_array_index(order,
			struct dealt_stream, i);
		unsigned least = 0;

		for (unsigned p = 1; p < parts; p++)
			if (load[p] < load[least])
				least = p;
		load[least] += stream->bytes;
		g_array_index(streams, struct dealt_stream,
			stream->number).part = least;
	}
	g_array_free(order, TRUE);
}

/* Leave out of the view the streams that are not in part `part` of
 * `parts` (deal_streams()).  Only when every kept file names its stream
 * (CTF index 1.1): src.ctf.fs then takes each stream's id from its
 * packets, the same in every part, and a stream split over several
 * files stays whole. */
static int keep_part(GPtrArray *files, int64_t target_ns, unsigned part,
		unsigned parts, struct tn_error *err)
{
	GPtrArray *kept = g_ptr_array_new();
	GArray *numbers = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *streams = g_array_new(FALSE, FALSE,
		sizeof(struct dealt_stream));
	int status = number_streams(files, target_ns, kept, numbers, streams,
		err);

	if (status == 0 && streams->len < parts) {
		tn_error_set(err, "cannot split: %u streams for %u parts",
			streams->len, parts);
		status = -1;
	}
	if (status == 0)
		deal_streams(streams, parts);
	for (guint i = 0; status == 0 && i < kept->len; i++) {
		struct stream_file *f = kept->pdata[i];
		unsigned number = g_array_index(numbers, unsigned, i);

		if (g_array_index(streams, struct dealt_stream,
				number).part != part)
			f->keep_from = f->idx.entry_count;
	}
	g_ptr_array_free(kept, TRUE);
	g_array_free(numbers, TRUE);
	g_array_free(streams, TRUE);
	return status;
}

int tn_slice_create(const struct tn_trace *trace, int64_t target_ns,
		unsigned flags, struct tn_slice **out, struct tn_error *err)
{
	return tn_slice_create_part(trace, target_ns, flags, 0, 1, out, err);
}

int tn_slice_create_part(const struct tn_trace *trace, int64_t target_ns,
		unsigned flags, unsigned part, unsigned parts,
		struct tn_slice **out, struct tn_error *err)
{
	const struct tn_packet_tables *tables =
		(flags & TN_SLICE_INDEX_FILES_ONLY) ? NULL :
		tn_trace_borrow_packet_tables(trace);
	GPtrArray *files = g_ptr_array_new_with_free_func(stream_file_free);
	struct tn_slice *slice = NULL;
	bool making = false;
	int status = -1;

	*out = NULL;
	/* The parts' traces must have the names of the whole one's, which
	 * a view of several directories may not keep. */
	if (parts > TN_SLICE_PARTS_MAX || (parts > 1 &&
			tn_trace_get_dir_count(trace) != 1)) {
		tn_error_set(err, "cannot split: %zu trace directories, %u "
			"parts", tn_trace_get_dir_count(trace), parts);
		goto end;
	}
	if (choose_all_packets(trace, target_ns, tables, flags, files, err))
		goto end;
	/* A part skips other streams, even when every stream needs its
	 * first packet (or the target is INT64_MIN: the whole trace). */
	if (skips_nothing(files) && parts == 1) {
		tn_error_set(err, "cannot slice: nothing to skip, every "
			"stream needs its first packet");
		goto end;
	}
	/* A signal that ends the process meanwhile removes it whole. */
	if (!tn_runtime_create_begin()) {
		tn_error_set(err, "cannot slice: tracenav is ending");
		goto end;
	}
	making = true;
	if (slice_new(trace, &slice, err))
		goto end;
	/* Of the whole view: a part holds every event of its streams
	 * after it. */
	slice->complete_after = complete_after(files, target_ns);
	if (parts > 1 && keep_part(files, target_ns, part, parts, err)) {
		rmdir(slice->root);
		goto end;
	}
	name_views(slice, trace, files);
	if (register_slice(slice, files, err)) {
		rmdir(slice->root);
		goto end;
	}
	status = 0;
	for (size_t dir = 0; status == 0 && dir < slice->dir_count; dir++)
		if (slice->views[dir] && !slice->whole[dir])
			status = write_view(slice, dir, files, err);
end:
	g_ptr_array_free(files, TRUE);
	if (status)
		tn_slice_destroy(slice);
	if (making)
		tn_runtime_create_end();
	*out = status ? NULL : slice;
	return status ? -1 : 0;
}

int64_t tn_slice_get_complete_after(const struct tn_slice *slice)
{
	return slice->complete_after;
}

int tn_slice_plan(const struct tn_trace *trace, int64_t target_ns,
		unsigned flags, int64_t *complete_after_ns, struct tn_error *err)
{
	const struct tn_packet_tables *tables =
		(flags & TN_SLICE_INDEX_FILES_ONLY) ? NULL :
		tn_trace_borrow_packet_tables(trace);
	GPtrArray *files = g_ptr_array_new_with_free_func(stream_file_free);
	int status = choose_all_packets(trace, target_ns, tables, flags,
		files, err);

	if (status == 0)
		*complete_after_ns = complete_after(files, target_ns);
	g_ptr_array_free(files, TRUE);
	return status;
}

/* Whether a reader of f's kept packets meets a counted discarded-events
 * notice: a kept packet's counter above zero (src.ctf.fs counts from
 * the previous packet's, or reports the first one's without a count). */
static bool meets_discarded(const struct stream_file *f)
{
	for (size_t i = f->keep_from; i < f->idx.entry_count; i++)
		if (entry_field(f, i, TN_CTF_INDEX_EVENTS_DISCARDED) != 0)
			return true;
	return false;
}

int tn_slice_plan_split(const struct tn_trace *trace, int64_t target_ns,
		struct tn_slice_split_plan *plan, struct tn_error *err)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(stream_file_free);
	struct stat st;
	char *path;
	int status = -1;

	memset(plan, 0, sizeof(*plan));
	if (tn_trace_get_dir_count(trace) != 1) {
		tn_error_set(err, "cannot split: %zu trace directories",
			tn_trace_get_dir_count(trace));
		goto end;
	}
	if (choose_all_packets(trace, target_ns, NULL, 0, files, err))
		goto end;
	path = g_build_filename(tn_trace_get_read_dir(trace, 0), "metadata",
		NULL);
	if (stat(path, &st) == 0)
		plan->metadata_bytes = (uint64_t) st.st_size;
	g_free(path);
	for (guint i = 0; i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];

		if (!file_is_kept(f))
			continue;
		if (!f->idx.has_instance_id) {
			tn_error_set(err, "cannot split: %s does not name "
				"its stream (CTF index 1.1)", f->name);
			goto end;
		}
		plan->bytes_before += bytes_before(f, target_ns);
		plan->has_discarded |= meets_discarded(f);
		plan->kept_files++;
	}
	status = 0;
end:
	g_ptr_array_free(files, TRUE);
	return status;
}

static int compare_ns(gconstpointer a, gconstpointer b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;

	return (x > y) - (x < y);
}

int tn_slice_list_packet_starts(const struct tn_trace *trace,
		GArray *starts_ns, struct tn_error *err)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(stream_file_free);
	guint first = starts_ns->len;
	int status;

	status = choose_all_packets(trace, INT64_MIN,
		tn_trace_borrow_packet_tables(trace), 0, files, err);
	for (guint i = 0; status == 0 && i < files->len; i++) {
		const struct stream_file *f = files->pdata[i];

		for (size_t k = 1; k < f->idx.entry_count; k++) {
			uint64_t end = entry_field(f, k - 1,
				TN_CTF_INDEX_TIMESTAMP_END);
			uint64_t begin = entry_field(f, k,
				TN_CTF_INDEX_TIMESTAMP_BEGIN);
			int64_t ns;

			/* An unknown end: the packet is always kept. */
			if (packet_may_end_after(f, k - 1, UINT64_MAX))
				continue;
			ns = corrected_time(f->transform,
				tn_clock_ns_not_before(&f->clock,
					MAX(end + 1, begin)));
			g_array_append_val(starts_ns, ns);
		}
	}
	g_ptr_array_free(files, TRUE);
	if (status)
		g_array_set_size(starts_ns, first);
	else
		g_array_sort(starts_ns, compare_ns);
	return status;
}

const char *tn_slice_map_dir(const struct tn_slice *slice, const char *dir)
{
	for (size_t i = 0; i < slice->dir_count; i++)
		if (strcmp(dir, slice->dirs[i]) == 0)
			return slice->views[i];
	return NULL;
}

const char *const *tn_slice_borrow_dirs(const struct tn_slice *slice)
{
	return (const char *const *) slice->views;
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
	g_free(slice->whole);
	g_free(slice->root);
	g_free(slice);
}
