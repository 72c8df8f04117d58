/* trace.c - find the CTF traces under a path and what their metadata says.
 *
 * Discovery follows `babeltrace2 PATH`: a directory holding a `metadata`
 * file is a trace (its subdirectories are not searched); otherwise its
 * subdirectories are.  src.ctf.fs's "babeltrace.support-info" query gives
 * each trace a group (its UUID); traces of one group are one trace split
 * in several directories (rotations) and go to one src.ctf.fs component.
 */
#include <babeltrace2/babeltrace.h>
#include <dirent.h>
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bt-util.h"
#include "clock.h"
#include "ctf-index.h"
#include "ctf-query.h"
#include "metadata-check.h"
#include "reader-private.h"
#include "repair.h"
#include "trace-private.h"

#define MAX_DEPTH 32

struct trace_group {
	char *key;		/* UUID, or the directory when there is none */
	GPtrArray *dirs;	/* char * */
	GArray *indexes;	/* size_t: tn_trace_get_dir() index of each */
};

/* What changes after the trace opened, from any thread, through a const
 * trace: kept apart, so that no const is cast away, and atomic. */
struct trace_infos;

/* The packets' time range of the trace. */
struct trace_range {
	bool has;
	int64_t begin_ns, end_ns;
};

struct trace_shared {
	/* The probe's reader, rewound, for the first reader from the start
	 * (see tn_trace_take_start_reader()). */
	_Atomic(struct tn_reader *) start_reader;
	/* See tn_trace_set_packet_tables(). */
	_Atomic(const struct tn_packet_tables *) packet_tables;
	/* The range, known when the trace opens, or once its trace-infos
	 * queries (pending) answer: the first to ask for it waits for
	 * them, under the lock; opening and reading do not. */
	pthread_mutex_t range_lock;
	struct trace_range range;
	_Atomic(struct trace_infos *) pending;
};

struct tn_trace {
	char *path;
	GPtrArray *dirs;	/* char *, every trace directory read */
	GPtrArray *groups;	/* struct trace_group * */
	GPtrArray *infos;	/* struct tn_trace_info * */
	GPtrArray *left_out;	/* struct left_out *: unreadable directories */
	GHashTable *dir_clocks;	/* trace directory -> struct tn_clock_info * */
	/* Each directory of dirs, and its real path (src.ctf.fs names
	 * streams after it) -> its real path: found once when the trace
	 * opens, not once per stream. */
	GHashTable *real_dirs;
	struct trace_shared *shared;
	GPtrArray *event_names;	/* char *, sorted, NULL-terminated */
	/* The fields' names (plain, "a.b", "$scope.name"): a set while
	 * the trace opens, then sorted, NULL-terminated. */
	GHashTable *field_set;
	GPtrArray *field_names;
	size_t stream_count;
	bool has_first_event;	/* its time, read by the probe */
	int64_t first_event_ns;
	bool has_clock;		/* some stream has a clock */
	/* The metadata's env names a tracer whose packet indexes
	 * src.ctf.fs fixes up (see trace_infos_start()). */
	bool fixups_likely;
	bool can_trim;		/* see tn_trace_can_trim() */
	/* The stand-ins of the directories and what they leave out
	 * (repair.h): owned once the trace is open, borrowed by the
	 * attempts at opening it. */
	struct tn_repair *repair;
	bool owns_repair;
	GPtrArray *damage;	/* struct damage *: of the directories read */
	/* char *: packet indexes not used, a line per directory */
	GPtrArray *notices;
};

/* What is wrong with a file of the trace and what was done about it. */
struct damage {
	char *file;
	char *text;
};

static bool is_regular_file(const char *dir, const char *name)
{
	char *path = g_build_filename(dir, name, NULL);
	struct stat st;
	bool regular = stat(path, &st) == 0 && S_ISREG(st.st_mode);

	g_free(path);
	return regular;
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Add the trace directories at or under dir to dirs, in name order. */
static void find_trace_dirs(const char *dir, int depth, GPtrArray *dirs)
{
	GPtrArray *children;
	GDir *handle;
	const char *name;

	if (is_regular_file(dir, "metadata")) {
		g_ptr_array_add(dirs, g_strdup(dir));
		return;
	}
	if (depth >= MAX_DEPTH || !(handle = g_dir_open(dir, 0, NULL)))
		return;
	children = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(handle))) {
		char *child = g_build_filename(dir, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR))
			g_ptr_array_add(children, child);
		else
			g_free(child);
	}
	g_dir_close(handle);
	g_ptr_array_sort(children, compare_strings);
	for (guint i = 0; i < children->len; i++)
		find_trace_dirs(children->pdata[i], depth + 1, dirs);
	g_ptr_array_free(children, TRUE);
}

/* ---- Trace directories and their groups ---- */

/* A trace directory, as src.ctf.fs's support-info query sees it. */
struct dir_entry {
	char *dir;
	bool supported;		/* src.ctf.fs reads it */
	char *key;		/* its group (the trace UUID), or NULL */
	char *where;		/* when it cannot be read: what failed, or NULL */
	char *error;		/* and the message, or NULL when it can */
	bool timed_out;		/* its query never ended: not asked again */
	struct tn_metadata_facts facts;	/* its metadata's text says */
};

static void dir_entry_free(gpointer data)
{
	struct dir_entry *entry = data;

	g_free(entry->dir);
	g_free(entry->key);
	g_free(entry->where);
	g_free(entry->error);
	g_free(entry);
}

/* The entry of directory dir, its metadata checked: what libbabeltrace2
 * would loop on for ever, or read wrongly, never reaches it
 * (metadata-check.h).  *size: the metadata file's. */
static struct dir_entry *checked_entry(const char *dir, uint64_t *size)
{
	struct dir_entry *entry = g_new0(struct dir_entry, 1);
	char *metadata = g_build_filename(dir, "metadata", NULL);
	struct tn_error why;
	struct stat st;

	entry->dir = g_strdup(dir);
	if (tn_metadata_check_file(metadata, &entry->facts, &why))
		entry->error = g_strdup_printf("%s: cannot read the trace "
			"metadata: %s", dir, why.message);
	*size = stat(metadata, &st) == 0 ? (uint64_t) st.st_size : 0;
	g_free(metadata);
	return entry;
}

/* The entries of dirs as src.ctf.fs's support-info query would give
 * them, from tracenav's check of their metadata: readable when the check
 * passes (the probe, which parses the metadata anyway, finds out when
 * it is not), grouped by the UUID of their `trace` block as the query
 * groups them.  The query would parse every metadata once more. */
static GPtrArray *unqueried_dirs(const GPtrArray *dirs)
{
	GPtrArray *entries = g_ptr_array_new_with_free_func(dir_entry_free);

	for (guint i = 0; i < dirs->len; i++) {
		uint64_t size;
		struct dir_entry *entry = checked_entry(dirs->pdata[i], &size);

		entry->supported = !entry->error;
		if (entry->supported && entry->facts.has_uuid)
			entry->key = g_strdup(entry->facts.uuid);
		g_ptr_array_add(entries, entry);
	}
	return entries;
}

/* Ask src.ctf.fs whether it reads each directory and in which group (the
 * trace UUID: directories with the same one are chunks of one trace);
 * this validates the metadata.  One child process for all. */
static GPtrArray *query_dirs(const GPtrArray *dirs)
{
	GPtrArray *entries = g_ptr_array_new_with_free_func(dir_entry_free);
	struct tn_ctf_query *queries = g_new0(struct tn_ctf_query, dirs->len);
	size_t *entry_of = g_new0(size_t, dirs->len);
	size_t count = 0;

	for (guint i = 0; i < dirs->len; i++) {
		uint64_t size;
		struct dir_entry *entry = checked_entry(dirs->pdata[i], &size);
		bt_value *params;

		g_ptr_array_add(entries, entry);
		if (entry->error)
			continue;
		params = bt_value_map_create();
		bt_value_map_insert_string_entry(params, "input", entry->dir);
		bt_value_map_insert_string_entry(params, "type", "directory");
		queries[count].object = "babeltrace.support-info";
		queries[count].params = params;
		queries[count].where = g_strdup_printf("%s: cannot read the "
			"trace metadata", entry->dir);
		queries[count].timeout_ms = TN_CTF_SUPPORT_INFO_TIMEOUT_MS +
			size / TN_CTF_SUPPORT_INFO_BYTES_PER_MS;
		entry_of[count++] = i;
	}
	tn_ctf_queries_run(queries, count);
	for (size_t q = 0; q < count; q++) {
		struct dir_entry *entry = entries->pdata[entry_of[q]];
		const bt_value *result = queries[q].result, *value;

		if (!result) {
			/* A query that never ended is not tried again to
			 * explain it (see attempt_explained()). */
			entry->timed_out = queries[q].timed_out;
			entry->where = queries[q].timed_out ? NULL :
				queries[q].where;
			entry->error = queries[q].error;
			if (!queries[q].timed_out)
				queries[q].where = NULL;
			queries[q].error = NULL;
			tn_ctf_query_fini(&queries[q]);
			continue;
		}
		value = bt_value_map_borrow_entry_value_const(result, "weight");
		entry->supported = value && bt_value_is_real(value) &&
			bt_value_real_get(value) > 0;
		value = bt_value_map_borrow_entry_value_const(result, "group");
		if (value && bt_value_is_string(value))
			entry->key = g_strdup(bt_value_string_get(value));
		tn_ctf_query_fini(&queries[q]);
	}
	g_free(queries);
	g_free(entry_of);
	return entries;
}

static void trace_group_free(gpointer data)
{
	struct trace_group *group = data;

	g_free(group->key);
	g_ptr_array_free(group->dirs, TRUE);
	g_array_free(group->indexes, TRUE);
	g_free(group);
}

/* The trace's directories and groups, from entries (readable ones). */
static void build_groups(struct tn_trace *trace, const GPtrArray *entries)
{
	GHashTable *by_key = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < entries->len; i++) {
		const struct dir_entry *entry = entries->pdata[i];
		struct trace_group *group = entry->key ?
			g_hash_table_lookup(by_key, entry->key) : NULL;
		size_t index = trace->dirs->len;

		g_ptr_array_add(trace->dirs, g_strdup(entry->dir));
		if (!group) {
			group = g_new0(struct trace_group, 1);
			group->key = g_strdup(entry->key ? entry->key :
				entry->dir);
			group->dirs = g_ptr_array_new_with_free_func(g_free);
			group->indexes = g_array_new(FALSE, FALSE,
				sizeof(size_t));
			g_ptr_array_add(trace->groups, group);
			if (entry->key)
				g_hash_table_insert(by_key, group->key, group);
		}
		g_ptr_array_add(group->dirs, g_strdup(entry->dir));
		g_array_append_val(group->indexes, index);
	}
	g_hash_table_destroy(by_key);
}

/* Widen range with the times begin and end. */
static void widen(struct trace_range *range, int64_t begin, int64_t end)
{
	if (!range->has || begin < range->begin_ns)
		range->begin_ns = begin;
	if (!range->has || end > range->end_ns)
		range->end_ns = end;
	range->has = true;
}

/* Widen the range with the "range-ns" map of a stream. */
static void widen_range(struct trace_range *to, const bt_value *range)
{
	const bt_value *begin, *end;

	if (!range)
		return;
	if (!bt_value_is_map(range))
		return;
	begin = bt_value_map_borrow_entry_value_const(range, "begin");
	end = bt_value_map_borrow_entry_value_const(range, "end");
	if (!begin || !end || !bt_value_is_signed_integer(begin) ||
	    !bt_value_is_signed_integer(end))
		return;
	widen(to, bt_value_integer_signed_get(begin),
		bt_value_integer_signed_get(end));
}

/* The time range from the packets: src.ctf.fs's "babeltrace.trace-infos"
 * query reads no event, but parses the metadata again, and reads every
 * packet header of the stream files without packet index, and fixes the
 * indexes of some tracers up, which decodes events: the path on which
 * libbabeltrace2 2.0.4 can abort, so it runs in a child process
 * (ctf-query.h).  Started before the probe when the metadata's env says
 * that the indexes will need fixing up (trace->fixups_likely), it runs
 * on the other core meanwhile; its answer is only waited for when the
 * range is first asked for (tn_trace_get_time_range()), which the
 * first event and the first screen do not need. */
struct trace_infos {
	struct tn_ctf_query *queries;	/* one a group */
	size_t count;
	struct tn_ctf_query_run *run;	/* NULL: not started yet */
};

/* The queries of the trace's groups, started now (run) or when
 * finished. */
static struct trace_infos *trace_infos_start(const struct tn_trace *trace,
		bool run)
{
	struct trace_infos *ti = g_new0(struct trace_infos, 1);
	uint64_t stream_bytes = tn_trace_get_stream_bytes(trace);

	ti->count = trace->groups->len;
	ti->queries = g_new0(struct tn_ctf_query, ti->count);
	for (guint g = 0; g < trace->groups->len; g++) {
		struct trace_group *group = trace->groups->pdata[g];
		bt_value *params = bt_value_map_create(), *inputs = NULL;

		bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
		for (guint i = 0; i < group->dirs->len; i++)
			bt_value_array_append_string_element(inputs,
				tn_trace_get_group_read_dir(trace, g, i));
		ti->queries[g].object = "babeltrace.trace-infos";
		ti->queries[g].params = params;
		ti->queries[g].where = g_strdup_printf("%s: cannot read the "
			"packets' time range", (char *) group->dirs->pdata[0]);
		ti->queries[g].timeout_ms = TN_CTF_TRACE_INFOS_TIMEOUT_MS +
			stream_bytes / TN_CTF_TRACE_INFOS_BYTES_PER_MS;
	}
	if (run)
		ti->run = tn_ctf_queries_start(ti->queries, ti->count);
	return ti;
}

static void trace_infos_free(struct trace_infos *ti)
{
	for (size_t g = 0; g < ti->count; g++)
		tn_ctf_query_fini(&ti->queries[g]);
	g_free(ti->queries);
	g_free(ti);
}

/* Not needed after all (NULL-safe). */
static void trace_infos_abandon(struct trace_infos *ti)
{
	if (!ti)
		return;
	if (ti->run)
		tn_ctf_queries_abandon(ti->run);
	trace_infos_free(ti);
}

/* The range of the streams that the queries found (a query that failed
 * leaves the range without that group's streams); frees ti. */
static void trace_infos_finish(struct trace_range *range,
		struct trace_infos *ti)
{
	tn_ctf_queries_finish(ti->run ? ti->run :
		tn_ctf_queries_start(ti->queries, ti->count));
	for (size_t g = 0; g < ti->count; g++) {
		const bt_value *result = ti->queries[g].result;

		for (uint64_t t = 0; result && bt_value_is_array(result) &&
		     t < bt_value_array_get_length(result); t++) {
			const bt_value *info =
				bt_value_array_borrow_element_by_index_const(
					result, t);
			const bt_value *streams = bt_value_is_map(info) ?
				bt_value_map_borrow_entry_value_const(info,
					"stream-infos") : NULL;

			if (!streams || !bt_value_is_array(streams))
				continue;
			for (uint64_t i = 0; i < bt_value_array_get_length(streams);
			     i++) {
				const bt_value *stream =
					bt_value_array_borrow_element_by_index_const(
						streams, i);

				if (bt_value_is_map(stream))
					widen_range(range,
						bt_value_map_borrow_entry_value_const(
							stream, "range-ns"));
			}
		}
	}
	trace_infos_free(ti);
}

/* Widen the trace's range with the packets of stream file dir/name,
 * from its packet index, in ns of clock as libbabeltrace2 converts
 * them.  false if the file has no usable index. */
static bool widen_with_index(struct tn_trace *trace, const char *dir,
		const char *name, uint64_t size, const bt_clock_class *clock)
{
	struct tn_ctf_index idx = { 0 };
	struct tn_error err;
	int64_t begin, end;
	bool ok = tn_ctf_index_exists(dir, name) &&
		tn_ctf_index_read(dir, name, size, &idx, &err) == 0 &&
		bt_clock_class_cycles_to_ns_from_origin(clock,
			tn_ctf_index_get(&idx, 0, TN_CTF_INDEX_TIMESTAMP_BEGIN),
			&begin) == BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK &&
		bt_clock_class_cycles_to_ns_from_origin(clock,
			tn_ctf_index_get(&idx, idx.entry_count - 1,
				TN_CTF_INDEX_TIMESTAMP_END),
			&end) == BT_CLOCK_CLASS_CYCLES_TO_NS_FROM_ORIGIN_STATUS_OK;

	/* src.ctf.fs decodes the last event of a stream whose last packet
	 * was never closed (LTTng after a crash) to end its range. */
	if (ok && tn_ctf_index_get(&idx, idx.entry_count - 1,
			TN_CTF_INDEX_TIMESTAMP_END) == 0)
		ok = false;
	tn_ctf_index_fini(&idx);
	if (!ok)
		return false;
	widen(&trace->shared->range, begin, end);
	return true;
}

/* The real path of dir (g_free() it): trace->real_dirs' for one of the
 * trace's directories, else realpath()'s, else dir itself. */
static char *real_dir(const struct tn_trace *trace, const char *dir)
{
	const char *known = g_hash_table_lookup(trace->real_dirs, dir);
	char *real;
	char *copy;

	if (known)
		return g_strdup(known);
	real = realpath(dir, NULL);
	copy = g_strdup(real ? real : dir);
	free(real);
	return copy;
}

/* Fill trace->real_dirs in: each directory and its stand-in (whose
 * streams libbabeltrace2 names after it) stand for the directory's real
 * path. */
static void find_real_dirs(struct tn_trace *trace)
{
	for (guint i = 0; i < trace->dirs->len; i++) {
		const char *dir = trace->dirs->pdata[i];
		const char *read = tn_repair_read_dir(trace->repair, dir);
		char *real;

		if (g_hash_table_contains(trace->real_dirs, dir))
			continue;
		real = real_dir(trace, dir);
		g_hash_table_insert(trace->real_dirs, g_strdup(dir),
			g_strdup(real));
		if (read != dir) {
			char *real_read = realpath(read, NULL);

			g_hash_table_insert(trace->real_dirs, g_strdup(read),
				g_strdup(real));
			if (real_read)
				g_hash_table_insert(trace->real_dirs,
					g_strdup(real_read), g_strdup(real));
			free(real_read);
		}
		g_hash_table_insert(trace->real_dirs, real, g_strdup(real));
	}
}

/* The key of a trace directory in the tables of clocks: its real path,
 * so that a trace reached through a symlink or "..", which src.ctf.fs
 * may spell another way in its stream names, is found again. */
static char *dir_key(const struct tn_trace *trace, const char *dir)
{
	return real_dir(trace, dir);
}

/* The value of directory dir in table, keyed by dir_key(). */
static gpointer lookup_dir(const struct tn_trace *trace, GHashTable *table,
		const char *dir)
{
	char *key = dir_key(trace, dir);
	gpointer found = g_hash_table_lookup(table, key);

	g_free(key);
	return found;
}

/* The same, or that of another chunk of dir's group: the chunks of a
 * rotated trace share its metadata, hence its clock, but libbabeltrace2
 * names each stream after its first chunk. */
static gpointer lookup_dir_or_group(const struct tn_trace *trace,
		GHashTable *table, const char *dir)
{
	gpointer found = lookup_dir(trace, table, dir);

	for (guint g = 0; !found && g < trace->groups->len; g++) {
		struct trace_group *group = trace->groups->pdata[g];

		if (!g_ptr_array_find_with_equal_func(group->dirs, dir,
				g_str_equal, NULL))
			continue;
		for (guint i = 0; !found && i < group->dirs->len; i++)
			found = lookup_dir(trace, table, group->dirs->pdata[i]);
	}
	return found;
}

/* The value of environment entry name of info as an integer, or -1. */
static long env_number(const struct tn_trace_info *info, const char *name)
{
	for (size_t i = 0; i < info->env_count; i++) {
		char *end;
		long value;

		if (strcmp(info->env[i].name, name) != 0)
			continue;
		value = strtol(info->env[i].value, &end, 10);
		return *end || end == info->env[i].value ? -1 : value;
	}
	return -1;
}

/* Whether src.ctf.fs fixes up the packet indexes of a trace of this
 * tracer and version: those it knows to write wrong packet times (LTTng
 * before 2.11, 2.10.10 and 2.9.13; barectf before 2.3.1).  Their range
 * is the trace-infos query's to give.  -1: a version not given. */
static bool tracer_needs_fixups(const char *name, long major, long minor,
		long patch)
{
	if (strcmp(name, "lttng-ust") == 0)
		return major < 2 || (major == 2 && minor < 11);
	if (strcmp(name, "lttng-modules") == 0)
		return major < 2 || (major == 2 && (minor < 9 ||
			(minor == 9 && patch < 13) ||
			(minor == 10 && patch < 10)));
	if (strcmp(name, "barectf") == 0)
		return major < 2 || (major == 2 && (minor < 3 ||
			(minor == 3 && patch < 1)));
	return false;
}

static bool indexes_need_fixups(const struct tn_trace *trace)
{
	for (guint i = 0; i < trace->infos->len; i++) {
		const struct tn_trace_info *info = trace->infos->pdata[i];

		for (size_t e = 0; e < info->env_count; e++)
			if (strcmp(info->env[e].name, "tracer_name") == 0 &&
			    tracer_needs_fixups(info->env[e].value,
					env_number(info, "tracer_major"),
					env_number(info, "tracer_minor"),
					env_number(info, "tracer_patchlevel")))
				return true;
	}
	return false;
}

/* The time range from the packet index files (what the trace-infos
 * query gives, the first packet's begin to the last one's end of each
 * stream, without parsing the metadata once more), when every stream
 * file with a clock has one.  clocks: trace directory -> the clock
 * class of its streams, from the probe. */
static bool ranges_from_indexes(struct tn_trace *trace, GHashTable *clocks)
{
	bool ok = !indexes_need_fixups(trace);

	for (guint d = 0; ok && d < trace->dirs->len; d++) {
		const bt_clock_class *clock = lookup_dir_or_group(trace,
			clocks, trace->dirs->pdata[d]);
		/* The packet indexes as libbabeltrace2 reads them. */
		const char *dir = tn_trace_get_read_dir(trace, d);
		GDir *listing;
		const char *name;

		if (!clock)
			continue;	/* no clock: no range */
		listing = g_dir_open(dir, 0, NULL);
		ok = listing != NULL;
		/* The files src.ctf.fs reads, as the slices see them. */
		while (ok && (name = g_dir_read_name(listing))) {
			char *path = g_build_filename(dir, name, NULL);
			struct stat st;

			if (name[0] != '.' && strcmp(name, "metadata") != 0 &&
			    stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
			    st.st_size > 0)
				ok = widen_with_index(trace, dir, name,
					(uint64_t) st.st_size, clock);
			g_free(path);
		}
		if (listing)
			g_dir_close(listing);
	}
	return ok;
}

static char *value_to_string(const bt_value *value)
{
	switch (bt_value_get_type(value)) {
	case BT_VALUE_TYPE_STRING:
		return g_strdup(bt_value_string_get(value));
	case BT_VALUE_TYPE_SIGNED_INTEGER:
		return g_strdup_printf("%" G_GINT64_FORMAT,
			bt_value_integer_signed_get(value));
	case BT_VALUE_TYPE_UNSIGNED_INTEGER:
		return g_strdup_printf("%" G_GUINT64_FORMAT,
			bt_value_integer_unsigned_get(value));
	default:
		return g_strdup("?");
	}
}

static struct tn_trace_info *new_info(const bt_trace *bt_trace)
{
	struct tn_trace_info *info = g_new0(struct tn_trace_info, 1);
	const uint8_t *uuid = bt_trace_get_uuid(bt_trace);

	info->name = g_strdup(bt_trace_get_name(bt_trace));
	if (uuid)
		info->uuid = g_strdup_printf("%02x%02x%02x%02x-%02x%02x-%02x%02x-"
			"%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0], uuid[1],
			uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
			uuid[8], uuid[9], uuid[10], uuid[11], uuid[12],
			uuid[13], uuid[14], uuid[15]);
	info->env_count = bt_trace_get_environment_entry_count(bt_trace);
	info->env = g_new0(struct tn_env_entry, info->env_count);
	for (uint64_t i = 0; i < info->env_count; i++) {
		const char *name;
		const bt_value *value;

		bt_trace_borrow_environment_entry_by_index_const(bt_trace, i,
			&name, &value);
		info->env[i].name = g_strdup(name);
		info->env[i].value = value_to_string(value);
		if (strcmp(name, "hostname") == 0)
			info->hostname = g_strdup(info->env[i].value);
		else if (strcmp(name, "domain") == 0)
			info->domain = g_strdup(info->env[i].value);
	}
	return info;
}

static void add_clock(struct tn_trace_info *info, const bt_clock_class *clock)
{
	const char *name = bt_clock_class_get_name(clock);

	for (size_t i = 0; i < info->clock_count; i++)
		if (g_strcmp0(info->clocks[i].name, name) == 0)
			return;
	info->clocks = g_renew(struct tn_clock_info, info->clocks,
		info->clock_count + 1);
	tn_clock_info_from_class(clock, &info->clocks[info->clock_count]);
	info->clocks[info->clock_count].name = g_strdup(name);
	info->clock_count++;
}

/* Remember the clock of the directory holding the stream's file (src.ctf.fs
 * names a stream after its file), to turn times into the clock cycles of
 * that directory's packet indexes. */
static void note_dir_clock(struct tn_trace *trace, const bt_stream *stream,
		const bt_clock_class *clock)
{
	const char *file = bt_stream_get_name(stream);
	struct tn_clock_info *info;
	char *dir, *key;

	if (!file)
		return;
	dir = g_path_get_dirname(file);
	key = dir_key(trace, dir);
	g_free(dir);
	if (g_hash_table_contains(trace->dir_clocks, key)) {
		g_free(key);
		return;
	}
	info = g_new0(struct tn_clock_info, 1);
	tn_clock_info_from_class(clock, info);
	g_hash_table_insert(trace->dir_clocks, key, info);
}

/* What flt.utils.trimmer 2.0 needs of a stream class (it checks some
 * of it, and crashes on packets without times). */
static bool trimmer_accepts(const bt_stream_class *sc)
{
	if (!bt_stream_class_borrow_default_clock_class_const(sc))
		return false;
	if (bt_stream_class_supports_packets(sc) &&
	    (!bt_stream_class_packets_have_beginning_default_clock_snapshot(sc) ||
	     !bt_stream_class_packets_have_end_default_clock_snapshot(sc)))
		return false;
	if (bt_stream_class_supports_discarded_packets(sc) &&
	    !bt_stream_class_discarded_packets_have_default_clock_snapshots(sc))
		return false;
	if (bt_stream_class_supports_discarded_events(sc) &&
	    !bt_stream_class_discarded_events_have_default_clock_snapshots(sc))
		return false;
	return true;
}

/* Record what the trace object of a new stream says about itself. */
/* Add the names of the event classes of a stream class (the metadata
 * declares them all, read or not) to the trace's names. */
static void note_event_names(struct tn_trace *trace, GHashTable *names,
		const bt_stream_class *sc)
{
	for (uint64_t i = 0; i < bt_stream_class_get_event_class_count(sc);
			i++) {
		const char *name = bt_event_class_get_name(
			bt_stream_class_borrow_event_class_by_index_const(sc,
				i));

		if (name && !g_hash_table_contains(names, name)) {
			char *copy = g_strdup(name);

			g_hash_table_add(names, copy);
			g_ptr_array_add(trace->event_names, copy);
		}
	}
}

/* Add name to the trace's field names, plain and as $scope.name (and
 * $scope2.name when scope2 is not NULL). */
static void add_field_name(struct tn_trace *trace, const char *name,
		const char *scope, const char *scope2)
{
	g_hash_table_add(trace->field_set, g_strdup(name));
	g_hash_table_add(trace->field_set, g_strdup_printf("$%s.%s", scope,
		name));
	if (scope2)
		g_hash_table_add(trace->field_set, g_strdup_printf("$%s.%s",
			scope2, name));
}

/* The members of the structure field class fc (a scope of an event),
 * and of its structure members as "a.b", to the field names. */
static void note_fields(struct tn_trace *trace, const bt_field_class *fc,
		const char *scope, const char *scope2)
{
	if (!fc || bt_field_class_get_type(fc) != BT_FIELD_CLASS_TYPE_STRUCTURE)
		return;
	for (uint64_t i = 0; i < bt_field_class_structure_get_member_count(fc);
			i++) {
		const bt_field_class_structure_member *member =
			bt_field_class_structure_borrow_member_by_index_const(
				fc, i);
		const char *name =
			bt_field_class_structure_member_get_name(member);
		const bt_field_class *inner =
			bt_field_class_structure_member_borrow_field_class_const(
				member);

		if (!name)
			continue;
		add_field_name(trace, name, scope, scope2);
		if (bt_field_class_get_type(inner) !=
				BT_FIELD_CLASS_TYPE_STRUCTURE)
			continue;
		for (uint64_t j = 0;
		     j < bt_field_class_structure_get_member_count(inner);
		     j++) {
			const char *sub = bt_field_class_structure_member_get_name(
				bt_field_class_structure_borrow_member_by_index_const(
					inner, j));
			char *path = g_strdup_printf("%s.%s", name, sub);

			add_field_name(trace, path, scope, scope2);
			g_free(path);
		}
	}
}

/* The fields of a stream class's events, from the metadata: the packet
 * context, the common context, each event class's specific context and
 * payload (the scopes of the filters' expressions). */
static void note_field_names(struct tn_trace *trace, const bt_stream_class *sc)
{
	note_fields(trace, bt_stream_class_borrow_packet_context_field_class_const(
		sc), "pctx", NULL);
	note_fields(trace,
		bt_stream_class_borrow_event_common_context_field_class_const(
			sc), "cctx", "ctx");
	for (uint64_t i = 0; i < bt_stream_class_get_event_class_count(sc);
			i++) {
		const bt_event_class *ec =
			bt_stream_class_borrow_event_class_by_index_const(sc,
				i);

		note_fields(trace,
			bt_event_class_borrow_specific_context_field_class_const(
				ec), "sctx", "ctx");
		note_fields(trace,
			bt_event_class_borrow_payload_field_class_const(ec),
			"payload", NULL);
	}
}

/* The set of field names becomes the sorted array. */
static void sort_field_names(struct tn_trace *trace)
{
	GHashTableIter iter;
	gpointer key;

	g_hash_table_iter_init(&iter, trace->field_set);
	while (g_hash_table_iter_next(&iter, &key, NULL)) {
		g_ptr_array_add(trace->field_names, key);
		g_hash_table_iter_steal(&iter);
	}
	g_hash_table_destroy(trace->field_set);
	trace->field_set = NULL;
	g_ptr_array_sort(trace->field_names, compare_strings);
	g_ptr_array_add(trace->field_names, NULL);
}

/* The trace directory (as tn_trace_get_dir() gives it) holding the file
 * of stream (src.ctf.fs names a stream after its file), or NULL. */
static const char *dir_of_stream(const struct tn_trace *trace,
		const bt_stream *stream)
{
	const char *file = bt_stream_get_name(stream);
	char *dir, *real;
	const char *found = NULL;

	if (!file)
		return NULL;
	dir = g_path_get_dirname(file);
	for (guint i = 0; !found && i < trace->dirs->len; i++)
		if (!strcmp(trace->dirs->pdata[i], dir))
			found = trace->dirs->pdata[i];
	if (!found) {
		/* Another spelling of one of them? */
		real = real_dir(trace, dir);
		for (guint i = 0; !found && i < trace->dirs->len; i++)
			if (!strcmp(g_hash_table_lookup(trace->real_dirs,
					trace->dirs->pdata[i]), real))
				found = trace->dirs->pdata[i];
		g_free(real);
	}
	g_free(dir);
	return found;
}

/* Note that info's trace has a stream in the directory of stream. */
static void note_info_dir(const struct tn_trace *trace,
		struct tn_trace_info *info, const bt_stream *stream)
{
	const char *dir = dir_of_stream(trace, stream);

	if (!dir)
		return;
	for (size_t i = 0; i < info->dir_count; i++)
		if (!strcmp(info->dirs[i], dir))
			return;
	info->dirs = g_renew(char *, info->dirs, info->dir_count + 1);
	info->dirs[info->dir_count++] = g_strdup(dir);
}

/* What the probe met so far: the trace objects (-> their info), the
 * stream classes, the names of trace->event_names. */
struct probe_seen {
	GHashTable *infos, *classes, *event_names;
};

static void note_stream(struct tn_trace *trace, struct probe_seen *seen,
		const bt_stream *stream)
{
	const bt_stream_class *sc = bt_stream_borrow_class_const(stream);
	const bt_trace *bt_trace = bt_stream_borrow_trace_const(stream);
	const bt_clock_class *clock = bt_stream_class_borrow_default_clock_class_const(
		bt_stream_borrow_class_const(stream));
	struct tn_trace_info *info = g_hash_table_lookup(seen->infos,
		tn_bt_address_key(bt_trace));

	if (!info) {
		info = new_info(bt_trace);
		g_ptr_array_add(trace->infos, info);
		g_hash_table_insert(seen->infos, tn_bt_address_key(bt_trace),
			info);
	}
	info->stream_count++;
	note_info_dir(trace, info, stream);
	if (clock) {
		add_clock(info, clock);
		note_dir_clock(trace, stream, clock);
		trace->has_clock = true;
	}
	if (!trimmer_accepts(bt_stream_borrow_class_const(stream)))
		trace->can_trim = false;
	/* The streams of a class share its names: noted once (a kernel
	 * trace declares a thousand event classes, for each of its CPUs). */
	if (g_hash_table_add(seen->classes, tn_bt_address_key(sc))) {
		note_event_names(trace, seen->event_names, sc);
		note_field_names(trace, sc);
	}
}

/* Remember the clock class of the directory holding the stream's file
 * (src.ctf.fs names a stream after its file), for ranges_from_indexes(). */
static void note_stream_clock(const struct tn_trace *trace,
		GHashTable *clocks, const bt_stream *stream)
{
	const bt_clock_class *clock = bt_stream_class_borrow_default_clock_class_const(
		bt_stream_borrow_class_const(stream));
	const char *file = bt_stream_get_name(stream);

	if (clock && file) {
		char *dir = g_path_get_dirname(file);

		g_hash_table_replace(clocks, dir_key(trace, dir),
			tn_bt_address_key(clock));
		g_free(dir);
	}
}

/* Whether some stream file is read without packet index: the range
 * is then the trace-infos query's, which reads its packet headers. */
static bool has_unindexed(const struct tn_trace *trace)
{
	for (guint d = 0; d < trace->dirs->len; d++)
		if (tn_repair_has_unindexed(trace->repair,
				trace->dirs->pdata[d]))
			return true;
	return false;
}

static bool has_untimed_index(const struct tn_trace *trace)
{
	for (guint d = 0; d < trace->dirs->len; d++)
		if (tn_repair_has_untimed_index(trace->repair,
				trace->dirs->pdata[d]))
			return true;
	return false;
}

/* Read the first messages: every stream begins there, which gives the
 * trace objects (names, environment) and clocks, and then the first
 * event, whose time is the trace's beginning even when its packets
 * carry no times.  This also proves that libbabeltrace2 can set the
 * trace up and decode its first packets. */
static int probe(struct tn_trace *trace, struct tn_error *err)
{
	struct probe_seen seen = {
		g_hash_table_new(NULL, NULL), g_hash_table_new(NULL, NULL),
		g_hash_table_new(g_str_hash, g_str_equal),
	};
	GHashTable *clocks = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, NULL);
	GArray *read = g_array_new(FALSE, FALSE, sizeof(const bt_message *));
	struct tn_reader *reader = NULL;
	bool seen_event = false;
	/* Before the probe's graph parses the metadata, so that both run
	 * at once, when the indexes need fixing up: their query only
	 * decodes the last event of each stream.  One that reads the
	 * packet headers of stream files without index would slow the
	 * probe down more than it saves: it waits until the range is
	 * asked for. */
	struct trace_infos *early = trace->fixups_likely &&
		!has_unindexed(trace) && !has_untimed_index(trace) ?
		trace_infos_start(trace, true) : NULL;
	int status = tn_reader_create(trace, NULL, &reader, err);

	trace->can_trim = true;
	/* Every stream begins before the first event (the beginnings have
	 * no time: the muxer gives them first). */
	while (status == 0 && !seen_event) {
		const bt_message *msg;
		enum tn_reader_status next =
			tn_reader_next_message(reader, &msg, err);

		if (next == TN_READER_END)
			break;
		if (next == TN_READER_ERROR) {
			status = -1;
			break;
		}
		if (bt_message_get_type(msg) == BT_MESSAGE_TYPE_STREAM_BEGINNING) {
			const bt_stream *stream =
				bt_message_stream_beginning_borrow_stream_const(msg);

			note_stream(trace, &seen, stream);
			note_stream_clock(trace, clocks, stream);
			trace->stream_count++;
		}
		if (bt_message_get_type(msg) == BT_MESSAGE_TYPE_EVENT &&
		    !seen_event) {
			seen_event = true;
			if (bt_message_event_borrow_stream_class_default_clock_class_const(
					msg))
				trace->has_first_event = tn_clock_snapshot_ns(
					bt_message_event_borrow_default_clock_snapshot_const(
						msg), &trace->first_event_ns);
		}
		g_array_append_val(read, msg);
	}
	/* Rewind: the first reader from the start will be this one, which
	 * saves setting up a graph again when the trace opens. */
	for (guint i = read->len; i > 0; i--) {
		const bt_message *msg = g_array_index(read,
			const bt_message *, i - 1);

		if (status == 0)
			tn_reader_push_back(reader, msg);
		else
			bt_message_put_ref(msg);
	}
	g_array_free(read, TRUE);
	/* The clock classes live as long as the reader's messages.  A
	 * stream file whose packets tracenav found without their times
	 * leaves the range unknown (the index build finds it). */
	if (status == 0 && has_untimed_index(trace)) {
		trace->shared->range.has = false;
	} else if (status == 0 && !ranges_from_indexes(trace, clocks)) {
		/* The queries' to say, when the range is asked for. */
		trace->shared->range.has = false;
		atomic_store(&trace->shared->pending, early ? early :
			trace_infos_start(trace, false));
		early = NULL;
	}
	trace_infos_abandon(early);
	if (status == 0)
		atomic_store(&trace->shared->start_reader, reader);
	else
		tn_reader_destroy(reader);
	g_hash_table_destroy(clocks);
	g_hash_table_destroy(seen.event_names);
	g_hash_table_destroy(seen.classes);
	g_hash_table_destroy(seen.infos);
	return status;
}

void tn_trace_set_packet_tables(const struct tn_trace *trace,
		const struct tn_packet_tables *tables)
{
	atomic_store(&trace->shared->packet_tables, tables);
}

const struct tn_packet_tables *tn_trace_borrow_packet_tables(
		const struct tn_trace *trace)
{
	return atomic_load(&trace->shared->packet_tables);
}

struct tn_reader *tn_trace_take_start_reader(const struct tn_trace *trace)
{
	return atomic_exchange(&trace->shared->start_reader, NULL);
}

static void info_free(gpointer data)
{
	struct tn_trace_info *info = data;

	for (size_t i = 0; i < info->dir_count; i++)
		g_free(info->dirs[i]);
	g_free(info->dirs);
	for (size_t i = 0; i < info->env_count; i++) {
		g_free(info->env[i].name);
		g_free(info->env[i].value);
	}
	for (size_t i = 0; i < info->clock_count; i++)
		g_free(info->clocks[i].name);
	g_free(info->env);
	g_free(info->clocks);
	g_free(info->name);
	g_free(info->hostname);
	g_free(info->domain);
	g_free(info->uuid);
	g_free(info);
}

static void damage_free(gpointer data)
{
	struct damage *damage = data;

	g_free(damage->file);
	g_free(damage->text);
	g_free(damage);
}

/* A trace directory of the collection that could not be read. */
struct left_out {
	char *dir;
	char *reason;
};

static void left_out_free(gpointer data)
{
	struct left_out *left = data;

	g_free(left->dir);
	g_free(left->reason);
	g_free(left);
}

static int check_path(const char *path, struct tn_error *err)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		tn_error_set(err, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		tn_error_set(err, "%s: not a directory: give the directory "
			"of a CTF trace (the one holding its `metadata` file) "
			"or a directory of traces", path);
		return -1;
	}
	return 0;
}

static struct tn_trace *trace_new(const char *path, struct tn_repair *repair)
{
	struct tn_trace *trace = g_new0(struct tn_trace, 1);

	trace->repair = repair;
	trace->damage = g_ptr_array_new_with_free_func(damage_free);
	trace->notices = g_ptr_array_new_with_free_func(g_free);
	trace->path = g_strdup(path);
	trace->dirs = g_ptr_array_new_with_free_func(g_free);
	trace->groups = g_ptr_array_new_with_free_func(trace_group_free);
	trace->infos = g_ptr_array_new_with_free_func(info_free);
	trace->event_names = g_ptr_array_new_with_free_func(g_free);
	trace->field_set = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, NULL);
	trace->field_names = g_ptr_array_new_with_free_func(g_free);
	trace->left_out = g_ptr_array_new_with_free_func(left_out_free);
	trace->dir_clocks = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	trace->real_dirs = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	trace->shared = g_new0(struct trace_shared, 1);
	atomic_init(&trace->shared->start_reader, NULL);
	atomic_init(&trace->shared->packet_tables, NULL);
	atomic_init(&trace->shared->pending, NULL);
	pthread_mutex_init(&trace->shared->range_lock, NULL);
	return trace;
}

/* Open the trace made of entries (directories src.ctf.fs reads) and
 * probe it.  When libbabeltrace2 fails, err says why and where (size
 * TN_ERROR_MAX) names what failed, for a better explanation from its
 * log. */
/* The probe failed on a stream file that libbabeltrace2 named (its
 * error causes do when it sets a stream file up, tracenav's merge when
 * it reads one): have the repair keep what it can of it, or leave it
 * out, and the stand-ins written again.  true when the trace is to be
 * probed again; err (the probe's failure) is kept otherwise. */
static bool repair_failed_file(struct tn_repair *repair,
		struct tn_error *err)
{
	char *file = g_strdup(tn_bt_get_failed_file());
	char *original = tn_repair_original_path(file);
	char *prefix = g_strdup_printf("cannot read stream file %s: ",
		original ? original : file);
	const char *why = err->message;
	struct tn_error write_err;
	bool again = false;

	/* The reason without the file: the note names it. */
	if (g_str_has_prefix(why, prefix))
		why += strlen(prefix);
	else if (g_str_has_prefix(why, "cannot read trace: "))
		why += strlen("cannot read trace: ");
	if (repair && *file && tn_repair_leave_out(repair, file, why) == 0) {
		again = tn_repair_write(repair, &write_err) == 0;
		if (!again)
			tn_error_set(err, "%s", write_err.message);
	}
	g_free(prefix);
	g_free(original);
	g_free(file);
	return again;
}

/* Whether the repair skipped every stream file of one of the trace's
 * directories (err then says why): a trace of which nothing can be read
 * is an error, not an empty trace. */
static bool all_skipped(const struct tn_trace *trace, struct tn_error *err)
{
	const char *file, *text;

	for (guint i = 0; i < trace->dirs->len; i++)
		if (tn_repair_dir_unreadable(trace->repair,
				trace->dirs->pdata[i], &file, &text)) {
			tn_error_set(err, "%s: cannot read trace: %s: %s",
				(const char *) trace->dirs->pdata[i], file,
				text);
			return true;
		}
	return false;
}

static int open_entries(const char *path, const GPtrArray *entries,
		struct tn_repair *repair, struct tn_trace **out, char *where,
		struct tn_error *err)
{
	struct tn_trace *trace;

	/* Each stream file refused costs one more try, twice at most (its
	 * whole packets kept, then left out): a bounded loop. */
	for (;;) {
		trace = trace_new(path, repair);
		build_groups(trace, entries);
		find_real_dirs(trace);
		for (guint i = 0; i < entries->len; i++) {
			const struct dir_entry *entry = entries->pdata[i];

			if (entry->facts.has_tracer && tracer_needs_fixups(
					entry->facts.tracer_name,
					entry->facts.tracer_major,
					entry->facts.tracer_minor,
					entry->facts.tracer_patchlevel))
				trace->fixups_likely = true;
		}
		if (trace->groups->len == 0) {
			tn_error_set(err, "%s: no CTF trace found: "
				"libbabeltrace2 reads none of the `metadata` "
				"files under it", path);
			goto fail;
		}
		if (probe(trace, err) == 0) {
			if (all_skipped(trace, err))
				goto fail;
			break;
		}
		if (!repair_failed_file(repair, err)) {
			char cause[TN_ERROR_MAX];

			snprintf(cause, sizeof(cause), "%s", err->message);
			snprintf(where, TN_ERROR_MAX, "%s: cannot read trace",
				path);
			tn_error_set(err, "%s: %s", path, cause);
			goto fail;
		}
		tn_trace_destroy(trace);
	}
	g_ptr_array_sort(trace->event_names, compare_strings);
	g_ptr_array_add(trace->event_names, NULL);
	sort_field_names(trace);
	*out = trace;
	return 0;
fail:
	tn_trace_destroy(trace);
	return -1;
}

/* One try at opening directories of the path. */
struct attempt {
	const char *path;
	const GPtrArray *dirs;		/* char *: the directories */
	const GPtrArray *given;		/* their entries, or NULL: query */
	bool tolerant;			/* open those src.ctf.fs reads */
	struct tn_repair *repair;	/* the path's stand-ins */
	GPtrArray *queried;		/* struct dir_entry *, if queried */
	struct tn_trace *trace;		/* the result */
	char where[TN_ERROR_MAX];	/* see open_entries() */
};

static const GPtrArray *attempt_entries(const struct attempt *a)
{
	return a->given ? a->given : a->queried;
}

/* The first entry src.ctf.fs cannot read, or NULL. */
static const struct dir_entry *first_failed(const GPtrArray *entries)
{
	for (guint i = 0; entries && i < entries->len; i++)
		if (((const struct dir_entry *) entries->pdata[i])->error)
			return entries->pdata[i];
	return NULL;
}

/* Query the directories (unless given) and open those that src.ctf.fs
 * reads.  Not tolerant, a directory it cannot read fails the whole;
 * tolerant, only when no other one is left. */
static int attempt_run(struct attempt *a, struct tn_error *err)
{
	const struct dir_entry *failed;
	const GPtrArray *entries;
	GPtrArray *readable = g_ptr_array_new();
	int status;

	a->where[0] = '\0';
	if (!a->given)
		a->queried = query_dirs(a->dirs);
	entries = attempt_entries(a);
	failed = first_failed(entries);
	for (guint i = 0; i < entries->len; i++) {
		const struct dir_entry *entry = entries->pdata[i];

		if (!entry->error && entry->supported)
			g_ptr_array_add(readable, entries->pdata[i]);
	}
	if (failed && (!a->tolerant || readable->len == 0)) {
		snprintf(a->where, sizeof(a->where), "%s",
			failed->where ? failed->where : "");
		tn_error_set(err, "%s", failed->error);
		status = -1;
	} else {
		status = open_entries(a->path, readable, a->repair, &a->trace,
			a->where, err);
	}
	g_ptr_array_free(readable, TRUE);
	return status;
}

/* The same with libbabeltrace2's log captured; on failure, the first
 * error it logged goes into detail. */
static int attempt_captured(struct attempt *a, bool explain, char *detail,
		struct tn_error *err)
{
	struct tn_bt_log_capture capture;
	int status;

	tn_bt_capture_begin(&capture, explain);
	status = attempt_run(a, err);
	tn_bt_capture_end(&capture, detail, TN_ERROR_MAX);
	bt_current_thread_clear_error();
	return status;
}

static void attempt_fini(struct attempt *a)
{
	if (a->queried)
		g_ptr_array_free(a->queried, TRUE);
	a->queried = NULL;
}

/* Run a (not tolerant); when libbabeltrace2 fails, err gives its own
 * words: what it logged, or what it logs with the components logging
 * too, in a second try. */
static int attempt_explained(struct attempt *a, struct tn_error *err)
{
	char detail[TN_ERROR_MAX];

	/* The components made here live on (the first reader is kept), so
	 * they must not log; only the metadata parser's errors show. */
	if (attempt_captured(a, false, detail, err) == 0)
		return 0;
	if (!a->where[0])
		return -1;	/* not libbabeltrace2's failure */
	/* Fail again with the components logging, to find out why. */
	if (!*detail) {
		struct attempt retry = { a->path, a->dirs, a->given, false,
			a->repair, NULL, NULL, "" };
		struct tn_error retry_err;

		if (attempt_captured(&retry, true, detail, &retry_err) == 0)
			tn_trace_destroy(retry.trace);
		attempt_fini(&retry);
	}
	/* What libbabeltrace2 logged says more than its error causes. */
	if (*detail)
		tn_error_set(err, "%s: %s", a->where, detail);
	return -1;
}

/* The message of err without the directory or path it starts with: the
 * reason a directory is left out. */
static char *reason_of(const struct tn_error *err, const GPtrArray *dirs,
		const char *path)
{
	const char *message = err->message;

	for (guint i = 0; i <= dirs->len; i++) {
		const char *name = i < dirs->len ? dirs->pdata[i] : path;
		size_t len = strlen(name);

		if (strncmp(message, name, len) == 0 &&
		    strncmp(message + len, ": ", 2) == 0)
			return g_strdup(message + len + 2);
	}
	return g_strdup(message);
}

/* Why the directories of one trace cannot be read (NULL: they can),
 * as tn_trace_open() says it of them alone.  entries: theirs, or NULL
 * to ask src.ctf.fs about them again. */
static char *reason_alone(const char *path, const GPtrArray *dirs,
		const GPtrArray *entries, struct tn_repair *repair)
{
	struct attempt a = { path, dirs, entries, false, repair, NULL, NULL,
		"" };
	struct tn_error err;
	char *reason = NULL;

	if (attempt_explained(&a, &err) == 0)
		tn_trace_destroy(a.trace);
	else
		reason = reason_of(&err, dirs, path);
	attempt_fini(&a);
	return reason;
}

static void leave_out(GPtrArray *left, const char *dir, const char *reason)
{
	struct left_out *entry = g_new0(struct left_out, 1);

	entry->dir = g_strdup(dir);
	entry->reason = g_strdup(reason);
	g_ptr_array_add(left, entry);
}

/* Every trace of the collection is unreadable. */
static int fail_all(const char *path, const GPtrArray *left,
		struct tn_error *err)
{
	const struct left_out *first = left->pdata[0];

	tn_error_set(err, "%s: none of the %u traces under it can be read; "
		"%s: %s", path, left->len, first->dir, first->reason);
	return -1;
}

/* The readable entries, grouped as src.ctf.fs groups them (by trace
 * UUID): GPtrArray of GPtrArray of struct dir_entry *. */
static GPtrArray *entry_groups(const GPtrArray *entries)
{
	GPtrArray *groups = g_ptr_array_new_with_free_func(
		(GDestroyNotify) g_ptr_array_unref);
	GHashTable *by_key = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < entries->len; i++) {
		struct dir_entry *entry = entries->pdata[i];
		GPtrArray *group;

		if (entry->error || !entry->supported)
			continue;
		group = entry->key ? g_hash_table_lookup(by_key, entry->key) :
			NULL;
		if (!group) {
			group = g_ptr_array_new();
			g_ptr_array_add(groups, group);
			if (entry->key)
				g_hash_table_insert(by_key, entry->key, group);
		}
		g_ptr_array_add(group, entry);
	}
	g_hash_table_destroy(by_key);
	return groups;
}

static GPtrArray *dirs_of(const GPtrArray *entries)
{
	GPtrArray *dirs = g_ptr_array_new();

	for (guint i = 0; i < entries->len; i++)
		g_ptr_array_add(dirs,
			((struct dir_entry *) entries->pdata[i])->dir);
	return dirs;
}

/* Open entries (not tolerant), explained. */
static int open_explained(const char *path, const GPtrArray *entries,
		struct tn_repair *repair, struct tn_trace **out,
		struct tn_error *err)
{
	GPtrArray *dirs = dirs_of(entries);
	struct attempt a = { path, dirs, entries, false, repair, NULL, NULL,
		"" };
	int status = attempt_explained(&a, err);

	if (status == 0)
		*out = a.trace;
	attempt_fini(&a);
	g_ptr_array_free(dirs, TRUE);
	return status;
}

/* A collection whose first try failed, or left directories out: find
 * the traces that cannot be read alone, leave them out, and open the
 * rest.  Each trace is tried alone, which takes a graph each, but only
 * when something is broken.  first: that try (tolerant). */
static int open_rest(const char *path, struct attempt *first,
		struct tn_trace **out, struct tn_error *err)
{
	const GPtrArray *entries = attempt_entries(first);
	GHashTable *reasons = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	GPtrArray *left = g_ptr_array_new_with_free_func(left_out_free);
	GPtrArray *groups = NULL, *keep = g_ptr_array_new();
	struct tn_trace *trace = first->trace;
	int status = 0;

	first->trace = NULL;
	/* Directories whose metadata src.ctf.fs cannot read: why, in the
	 * words it would give of each alone. */
	for (guint i = 0; i < entries->len; i++) {
		struct dir_entry *entry = entries->pdata[i];
		GPtrArray *one;
		char *reason;

		if (!entry->error)
			continue;
		one = g_ptr_array_new();
		g_ptr_array_add(one, entry->dir);
		reason = entry->timed_out ? NULL :
			reason_alone(path, one, NULL, first->repair);
		if (!reason) {	/* readable after all: said as it was */
			struct tn_error said;

			tn_error_set(&said, "%s", entry->error);
			reason = reason_of(&said, one, path);
		}
		g_hash_table_insert(reasons, entry, reason);
		g_ptr_array_free(one, TRUE);
	}
	/* The others did not open together: try each trace alone. */
	if (!trace) {
		groups = entry_groups(entries);
		if (groups->len == 1 && g_hash_table_size(reasons) == 0) {
			/* The collection is one trace: its own failure. */
			status = open_explained(path, groups->pdata[0],
				first->repair, &trace, err);
			goto out;
		}
		for (guint g = 0; g < groups->len; g++) {
			GPtrArray *group = groups->pdata[g];
			GPtrArray *dirs = dirs_of(group);
			char *reason = reason_alone(path, dirs, group,
				first->repair);

			for (guint i = 0; reason && i < group->len; i++)
				g_hash_table_insert(reasons, group->pdata[i],
					g_strdup(reason));
			g_free(reason);
			g_ptr_array_free(dirs, TRUE);
		}
	}
	/* What is left out, in the directories' order, and what is kept. */
	for (guint i = 0; i < entries->len; i++) {
		struct dir_entry *entry = entries->pdata[i];
		const char *reason = g_hash_table_lookup(reasons, entry);

		if (reason)
			leave_out(left, entry->dir, reason);
		else if (entry->supported)
			g_ptr_array_add(keep, entry);
	}
	if (!trace && keep->len == 0 && left->len > 0) {
		status = fail_all(path, left, err);
		goto out;
	}
	/* The rest together (again, if no group failed alone: then the
	 * failure is the collection's, said as it is). */
	if (!trace)
		status = open_explained(path, keep, first->repair, &trace,
			err);
out:
	if (status == 0) {
		g_ptr_array_free(trace->left_out, TRUE);
		trace->left_out = left;
		left = NULL;
		*out = trace;
	}
	if (left)
		g_ptr_array_free(left, TRUE);
	if (groups)
		g_ptr_array_free(groups, TRUE);
	g_ptr_array_free(keep, TRUE);
	g_hash_table_destroy(reasons);
	return status;
}

/* The packet indexes a directory does not use: how many, how many of
 * them in another tool's format, the first one's note. */
struct ignored_indexes {
	char *dir;
	size_t count, foreign;
	const char *file, *text;
};

/* One line for a directory's ignored indexes: the note itself when
 * there is one, else how many (a collection whose every stream has an
 * index of another format would otherwise say it once a stream). */
static char *ignored_indexes_line(const struct ignored_indexes *ig)
{
	if (ig->count == 1)
		return g_strdup_printf("%s: %s", ig->file, ig->text);
	if (ig->foreign == ig->count)
		return g_strdup_printf("%s: %zu index files not in LTTng's "
			"format: indexing from the stream files", ig->dir,
			ig->count);
	return g_strdup_printf("%s: %zu packet index files ignored (the "
		"first, %s: %s)", ig->dir, ig->count, ig->file, ig->text);
}

/* What the repair noted in the directories read, for the trace to
 * keep: the damage, a note a file; the indexes not used, a line a
 * directory. */
static void keep_damage(struct tn_trace *trace)
{
	GArray *ignored = g_array_new(FALSE, TRUE,
		sizeof(struct ignored_indexes));

	for (size_t i = 0; i < tn_repair_get_note_count(trace->repair); i++) {
		const char *file = tn_repair_get_note_file(trace->repair, i);
		const char *text = tn_repair_get_note_text(trace->repair, i);
		enum tn_repair_note_kind kind =
			tn_repair_get_note_kind(trace->repair, i);
		char *dir = g_path_get_dirname(file);
		struct ignored_indexes *ig = NULL;
		struct damage *damage;

		if (!g_ptr_array_find_with_equal_func(trace->dirs, dir,
				g_str_equal, NULL)) {
			g_free(dir);
			continue;
		}
		if (kind == TN_REPAIR_NOTE_DAMAGE) {
			g_free(dir);
			damage = g_new0(struct damage, 1);
			damage->file = g_strdup(file);
			damage->text = g_strdup(text);
			g_ptr_array_add(trace->damage, damage);
			continue;
		}
		for (guint k = 0; k < ignored->len && !ig; k++)
			if (!strcmp(g_array_index(ignored,
					struct ignored_indexes, k).dir, dir))
				ig = &g_array_index(ignored,
					struct ignored_indexes, k);
		if (!ig) {
			struct ignored_indexes first = { dir, 0, 0, file,
				text };

			g_array_append_val(ignored, first);
			ig = &g_array_index(ignored, struct ignored_indexes,
				ignored->len - 1);
		} else {
			g_free(dir);
		}
		ig->count++;
		if (kind == TN_REPAIR_NOTE_INDEX_FOREIGN)
			ig->foreign++;
	}
	for (guint k = 0; k < ignored->len; k++) {
		struct ignored_indexes *ig = &g_array_index(ignored,
			struct ignored_indexes, k);

		g_ptr_array_add(trace->notices, ignored_indexes_line(ig));
		g_free(ig->dir);
	}
	g_array_free(ignored, TRUE);
}

int tn_trace_open(const char *path, struct tn_trace **out,
		struct tn_error *err)
{
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	struct tn_repair *repair = tn_repair_create();
	struct attempt first = { path, dirs, NULL, false, repair, NULL, NULL,
		"" };
	char detail[TN_ERROR_MAX];
	int status;

	if (check_path(path, err)) {
		g_ptr_array_free(dirs, TRUE);
		tn_repair_destroy(repair);
		return -1;
	}
	find_trace_dirs(path, 0, dirs);
	/* What libbabeltrace2 would refuse the whole trace for, left out
	 * of the stand-ins it reads instead (repair.h). */
	for (guint i = 0; i < dirs->len; i++)
		tn_repair_check_dir(repair, dirs->pdata[i]);
	if (dirs->len == 0) {
		tn_error_set(err, "%s: no CTF trace found: no directory under "
			"it holds a `metadata` file", path);
		status = -1;
	} else if (tn_repair_write(repair, err)) {
		status = -1;
	} else if (dirs->len == 1) {
		/* One trace: opened without asking src.ctf.fs about it first;
		 * only when that fails, asked (its answer says why in its
		 * words), and explained. */
		GPtrArray *unqueried = unqueried_dirs(dirs);

		first.given = unqueried;
		status = attempt_captured(&first, false, detail, err);
		if (status && !first_failed(unqueried)) {
			first.given = NULL;
			status = attempt_explained(&first, err);
		}
		if (status == 0)
			*out = first.trace;
		g_ptr_array_free(unqueried, TRUE);
	} else {
		/* A collection: as it is first (its directories checked and
		 * grouped without a query, and one probe); only when that
		 * fails or leaves directories out, find out which and open
		 * the rest. */
		GPtrArray *unqueried = unqueried_dirs(dirs);

		first.tolerant = true;
		first.given = unqueried;
		status = attempt_captured(&first, false, detail, err);
		if (status == 0 && !first_failed(unqueried))
			*out = first.trace;
		else if (status == 0 || first.where[0] ||
			 first_failed(unqueried))
			status = open_rest(path, &first, out, err);
		g_ptr_array_free(unqueried, TRUE);
	}
	attempt_fini(&first);
	g_ptr_array_free(dirs, TRUE);
	if (status == 0) {
		(*out)->owns_repair = true;
		keep_damage(*out);
	} else {
		tn_repair_destroy(repair);
	}
	return status;
}

void tn_trace_destroy(struct tn_trace *trace)
{
	if (!trace)
		return;
	tn_reader_destroy(atomic_load(&trace->shared->start_reader));
	trace_infos_abandon(atomic_load(&trace->shared->pending));
	pthread_mutex_destroy(&trace->shared->range_lock);
	g_free(trace->shared);
	g_ptr_array_free(trace->infos, TRUE);
	g_ptr_array_free(trace->left_out, TRUE);
	g_ptr_array_free(trace->event_names, TRUE);
	if (trace->field_set)
		g_hash_table_destroy(trace->field_set);
	g_ptr_array_free(trace->field_names, TRUE);
	g_hash_table_destroy(trace->dir_clocks);
	g_hash_table_destroy(trace->real_dirs);
	g_ptr_array_free(trace->groups, TRUE);
	g_ptr_array_free(trace->dirs, TRUE);
	g_ptr_array_free(trace->damage, TRUE);
	g_ptr_array_free(trace->notices, TRUE);
	if (trace->owns_repair)
		tn_repair_destroy(trace->repair);
	g_free(trace->path);
	g_free(trace);
}

const char *tn_trace_get_path(const struct tn_trace *trace)
{
	return trace->path;
}

size_t tn_trace_get_dir_count(const struct tn_trace *trace)
{
	return trace->dirs->len;
}

uint64_t tn_trace_get_stream_bytes(const struct tn_trace *trace)
{
	uint64_t total = 0;

	for (size_t i = 0; i < trace->dirs->len; i++) {
		DIR *dir = opendir(trace->dirs->pdata[i]);
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

const char *tn_trace_get_dir(const struct tn_trace *trace, size_t index)
{
	return trace->dirs->pdata[index];
}

size_t tn_trace_get_info_count(const struct tn_trace *trace)
{
	return trace->infos->len;
}

const struct tn_trace_info *tn_trace_borrow_info(const struct tn_trace *trace,
		size_t index)
{
	return trace->infos->pdata[index];
}

size_t tn_trace_get_left_out_count(const struct tn_trace *trace)
{
	return trace->left_out->len;
}

const char *tn_trace_get_left_out_dir(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct left_out *) trace->left_out->pdata[index])->dir;
}

const char *tn_trace_get_left_out_reason(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct left_out *)
		trace->left_out->pdata[index])->reason;
}

const char *const *tn_trace_get_event_names(const struct tn_trace *trace)
{
	return (const char *const *) trace->event_names->pdata;
}

const char *const *tn_trace_get_field_names(const struct tn_trace *trace)
{
	return (const char *const *) trace->field_names->pdata;
}

size_t tn_trace_get_stream_count(const struct tn_trace *trace)
{
	return trace->stream_count;
}

bool tn_trace_get_time_range(const struct tn_trace *trace, int64_t *begin_ns,
		int64_t *end_ns)
{
	struct trace_shared *shared = trace->shared;
	struct trace_range range;

	pthread_mutex_lock(&shared->range_lock);
	if (atomic_load(&shared->pending)) {
		trace_infos_finish(&shared->range,
			atomic_load(&shared->pending));
		atomic_store(&shared->pending, NULL);
	}
	range = shared->range;
	pthread_mutex_unlock(&shared->range_lock);
	if (!range.has)
		return false;
	*begin_ns = range.begin_ns;
	*end_ns = range.end_ns;
	return true;
}

bool tn_trace_get_first_event_time(const struct tn_trace *trace,
		int64_t *ns)
{
	if (!trace->has_first_event)
		return false;
	*ns = trace->first_event_ns;
	return true;
}

bool tn_trace_has_clock(const struct tn_trace *trace)
{
	return trace->has_clock;
}

bool tn_trace_can_trim(const struct tn_trace *trace)
{
	return trace->can_trim;
}

size_t tn_trace_get_group_count(const struct tn_trace *trace)
{
	return trace->groups->len;
}

size_t tn_trace_get_group_dir_count(const struct tn_trace *trace, size_t group)
{
	return ((struct trace_group *) trace->groups->pdata[group])->dirs->len;
}

const char *tn_trace_get_group_dir(const struct tn_trace *trace, size_t group,
		size_t index)
{
	return ((struct trace_group *) trace->groups->pdata[group])->dirs->pdata[index];
}

size_t tn_trace_get_group_dir_index(const struct tn_trace *trace,
		size_t group, size_t index)
{
	return g_array_index(((struct trace_group *)
		trace->groups->pdata[group])->indexes, size_t, index);
}

bool tn_trace_get_dir_clock(const struct tn_trace *trace, size_t index,
		struct tn_clock_info *clock)
{
	const struct tn_clock_info *found = lookup_dir_or_group(trace,
		trace->dir_clocks, tn_trace_get_dir(trace, index));

	if (!found)
		return false;
	*clock = *found;
	clock->name = NULL;
	return true;
}

const char *tn_trace_get_read_dir(const struct tn_trace *trace, size_t index)
{
	return tn_repair_read_dir(trace->repair, trace->dirs->pdata[index]);
}

const char *tn_trace_get_group_read_dir(const struct tn_trace *trace,
		size_t group, size_t index)
{
	return tn_repair_read_dir(trace->repair,
		tn_trace_get_group_dir(trace, group, index));
}

void tn_trace_refresh_read_dirs(const struct tn_trace *trace)
{
	tn_repair_refresh(trace->repair);
}

uint64_t tn_trace_get_read_generation(const struct tn_trace *trace)
{
	return tn_repair_get_generation(trace->repair);
}

size_t tn_trace_get_notice_count(const struct tn_trace *trace)
{
	return trace->notices->len;
}

const char *tn_trace_get_notice(const struct tn_trace *trace, size_t index)
{
	return trace->notices->pdata[index];
}

size_t tn_trace_get_damage_count(const struct tn_trace *trace)
{
	return trace->damage->len;
}

const char *tn_trace_get_damage_file(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct damage *) trace->damage->pdata[index])->file;
}

const char *tn_trace_get_damage_text(const struct tn_trace *trace,
		size_t index)
{
	return ((const struct damage *) trace->damage->pdata[index])->text;
}
