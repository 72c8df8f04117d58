/* trace.c - find the CTF traces under a path and what their metadata says.
 *
 * Discovery follows `babeltrace2 PATH`: a directory holding a `metadata`
 * file is a trace (its subdirectories are not searched); otherwise its
 * subdirectories are.  src.ctf.fs's "babeltrace.support-info" query gives
 * each trace a group (its UUID); traces of one group are one trace split
 * in several directories (rotations) and go to one src.ctf.fs component.
 */
#include <babeltrace2/babeltrace.h>
#include <errno.h>
#include <glib.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bt-util.h"
#include "clock.h"
#include "ctf-index.h"
#include "reader-private.h"
#include "trace-private.h"

#define MAX_DEPTH 32

struct trace_group {
	char *key;		/* UUID, or the directory when there is none */
	GPtrArray *dirs;	/* char * */
	GArray *indexes;	/* size_t: tn_trace_get_dir() index of each */
};

/* What changes after the trace opened, from any thread, through a const
 * trace: kept apart, so that no const is cast away, and atomic. */
struct trace_shared {
	/* The probe's reader, rewound, for the first reader from the start
	 * (see tn_trace_take_start_reader()). */
	_Atomic(struct tn_reader *) start_reader;
	/* See tn_trace_set_packet_tables(). */
	_Atomic(const struct tn_packet_tables *) packet_tables;
};

struct tn_trace {
	char *path;
	GPtrArray *dirs;	/* char *, every trace directory */
	GPtrArray *groups;	/* struct trace_group * */
	GPtrArray *infos;	/* struct tn_trace_info * */
	GHashTable *dir_clocks;	/* trace directory -> struct tn_clock_info * */
	struct trace_shared *shared;
	GPtrArray *event_names;	/* char *, sorted, NULL-terminated */
	size_t stream_count;
	bool has_range;
	int64_t begin_ns, end_ns;
	bool has_first_event;	/* its time, read by the probe */
	int64_t first_event_ns;
	bool has_clock;		/* some stream has a clock */
	bool can_trim;		/* see tn_trace_can_trim() */
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

/* Run a query of src.ctf.fs; NULL on failure (error left in the
 * thread's libbabeltrace2 error). */
static const bt_value *query_ctf_fs(const char *object, const bt_value *params)
{
	struct tn_error ignored;
	const bt_component_class_source *fs;
	bt_query_executor *query;
	const bt_value *result = NULL;
	bt_query_executor_query_status status;

	if (tn_bt_source_class("ctf", "fs", &fs, &ignored))
		return NULL;
	/* A query executor holds a reference to the shared class. */
	tn_bt_classes_lock();
	query = bt_query_executor_create(
		bt_component_class_source_as_component_class_const(fs),
		object, params);
	tn_bt_classes_unlock();
	if (!query)
		return NULL;
	bt_query_executor_set_logging_level(query, tn_bt_component_log_level());
	do {
		status = bt_query_executor_query(query, &result);
	} while (status == BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN);
	tn_bt_classes_lock();
	bt_query_executor_put_ref(query);
	tn_bt_classes_unlock();
	return status == BT_QUERY_EXECUTOR_QUERY_STATUS_OK ? result : NULL;
}

/* Whether src.ctf.fs reads dir (*supported) and the group of the trace
 * (its UUID), or NULL if it has none.  Fails if libbabeltrace2 cannot
 * read the directory's metadata. */
static int group_of(const char *dir, bool *supported, char **group,
		char *where, struct tn_error *err)
{
	bt_value *params;
	const bt_value *result, *value;
	char *metadata = g_build_filename(dir, "metadata", NULL);
	struct stat st;
	bool empty = stat(metadata, &st) == 0 && st.st_size == 0;

	g_free(metadata);
	if (empty) {
		tn_error_set(err, "%s: cannot read the trace metadata: the "
			"`metadata` file is empty", dir);
		return -1;
	}
	params = bt_value_map_create();

	bt_value_map_insert_string_entry(params, "input", dir);
	bt_value_map_insert_string_entry(params, "type", "directory");
	result = query_ctf_fs("babeltrace.support-info", params);
	bt_value_put_ref(params);
	if (!result) {
		snprintf(where, TN_ERROR_MAX, "%s: cannot read the trace "
			"metadata", dir);
		tn_bt_set_error(err, NULL, where);
		return -1;
	}
	value = bt_value_map_borrow_entry_value_const(result, "weight");
	*supported = value && bt_value_is_real(value) &&
		bt_value_real_get(value) > 0;
	value = bt_value_map_borrow_entry_value_const(result, "group");
	*group = value && bt_value_is_string(value) ?
		g_strdup(bt_value_string_get(value)) : NULL;
	bt_value_put_ref(result);
	return 0;
}

static void trace_group_free(gpointer data)
{
	struct trace_group *group = data;

	g_free(group->key);
	g_ptr_array_free(group->dirs, TRUE);
	g_array_free(group->indexes, TRUE);
	g_free(group);
}

static int build_groups(struct tn_trace *trace, char *where,
		struct tn_error *err)
{
	GHashTable *by_key = g_hash_table_new(g_str_hash, g_str_equal);
	int status = 0;

	for (size_t i = 0; i < trace->dirs->len && status == 0; i++) {
		const char *dir = trace->dirs->pdata[i];
		struct trace_group *group;
		char *key = NULL;
		bool supported;

		status = group_of(dir, &supported, &key, where, err);
		if (status)
			break;
		if (!supported) {
			g_free(key);
			continue;
		}
		group = key ? g_hash_table_lookup(by_key, key) : NULL;
		if (!group) {
			group = g_new0(struct trace_group, 1);
			group->key = key ? key : g_strdup(dir);
			group->dirs = g_ptr_array_new_with_free_func(g_free);
			group->indexes = g_array_new(FALSE, FALSE,
				sizeof(size_t));
			g_ptr_array_add(trace->groups, group);
			g_hash_table_insert(by_key, group->key, group);
		} else {
			g_free(key);
		}
		g_ptr_array_add(group->dirs, g_strdup(dir));
		g_array_append_val(group->indexes, i);
	}
	g_hash_table_destroy(by_key);
	return status;
}

/* Widen the trace's range with the "range-ns" map of a stream. */
static void widen_range(struct tn_trace *trace, const bt_value *range)
{
	const bt_value *begin, *end;

	if (!range)
		return;
	begin = bt_value_map_borrow_entry_value_const(range, "begin");
	end = bt_value_map_borrow_entry_value_const(range, "end");
	if (!begin || !end)
		return;
	if (!trace->has_range || bt_value_integer_signed_get(begin) <
			trace->begin_ns)
		trace->begin_ns = bt_value_integer_signed_get(begin);
	if (!trace->has_range || bt_value_integer_signed_get(end) >
			trace->end_ns)
		trace->end_ns = bt_value_integer_signed_get(end);
	trace->has_range = true;
}

/* Find the time range from the packets (src.ctf.fs's
 * "babeltrace.trace-infos" query reads no event, but parses the
 * metadata again, and reads every packet header of the stream files
 * without packet index). */
static void read_trace_infos(struct tn_trace *trace)
{
	for (guint g = 0; g < trace->groups->len; g++) {
		struct trace_group *group = trace->groups->pdata[g];
		bt_value *params = bt_value_map_create(), *inputs = NULL;
		const bt_value *result;

		bt_value_map_insert_empty_array_entry(params, "inputs", &inputs);
		for (guint i = 0; i < group->dirs->len; i++)
			bt_value_array_append_string_element(inputs,
				group->dirs->pdata[i]);
		result = query_ctf_fs("babeltrace.trace-infos", params);
		bt_value_put_ref(params);
		if (!result) {
			bt_current_thread_clear_error();
			continue;
		}
		for (uint64_t t = 0; t < bt_value_array_get_length(result); t++) {
			const bt_value *info =
				bt_value_array_borrow_element_by_index_const(
					result, t);
			const bt_value *streams =
				bt_value_map_borrow_entry_value_const(info,
					"stream-infos");

			if (!streams)
				continue;
			for (uint64_t i = 0; i < bt_value_array_get_length(streams);
			     i++)
				widen_range(trace, bt_value_map_borrow_entry_value_const(
					bt_value_array_borrow_element_by_index_const(
						streams, i), "range-ns"));
		}
		bt_value_put_ref(result);
	}
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
	if (!trace->has_range || begin < trace->begin_ns)
		trace->begin_ns = begin;
	if (!trace->has_range || end > trace->end_ns)
		trace->end_ns = end;
	trace->has_range = true;
	return true;
}

/* The key of a trace directory in the tables of clocks: its real path,
 * so that a trace reached through a symlink or "..", which src.ctf.fs
 * may spell another way in its stream names, is found again. */
static char *dir_key(const char *dir)
{
	char *real = realpath(dir, NULL);
	char *key = g_strdup(real ? real : dir);

	free(real);
	return key;
}

/* The value of directory dir in table, keyed by dir_key(). */
static gpointer lookup_dir(GHashTable *table, const char *dir)
{
	char *key = dir_key(dir);
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
	gpointer found = lookup_dir(table, dir);

	for (guint g = 0; !found && g < trace->groups->len; g++) {
		struct trace_group *group = trace->groups->pdata[g];

		if (!g_ptr_array_find_with_equal_func(group->dirs, dir,
				g_str_equal, NULL))
			continue;
		for (guint i = 0; !found && i < group->dirs->len; i++)
			found = lookup_dir(table, group->dirs->pdata[i]);
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

/* Whether src.ctf.fs fixes the packet indexes of this trace up: the
 * tracers and versions it knows to write wrong packet times (LTTng
 * before 2.11, 2.10.10 and 2.9.13; barectf before 2.3.1).  Their range
 * is the trace-infos query's to give. */
static bool indexes_need_fixups(const struct tn_trace *trace)
{
	for (guint i = 0; i < trace->infos->len; i++) {
		const struct tn_trace_info *info = trace->infos->pdata[i];
		const char *name = NULL;
		long major = env_number(info, "tracer_major");
		long minor = env_number(info, "tracer_minor");
		long patch = env_number(info, "tracer_patchlevel");

		for (size_t e = 0; e < info->env_count; e++)
			if (strcmp(info->env[e].name, "tracer_name") == 0)
				name = info->env[e].value;
		if (!name)
			continue;
		if (strcmp(name, "lttng-ust") == 0 &&
		    (major < 2 || (major == 2 && minor < 11)))
			return true;
		if (strcmp(name, "lttng-modules") == 0 &&
		    (major < 2 || (major == 2 && (minor < 9 ||
		     (minor == 9 && patch < 13) || (minor == 10 && patch < 10)))))
			return true;
		if (strcmp(name, "barectf") == 0 &&
		    (major < 2 || (major == 2 && (minor < 3 ||
		     (minor == 3 && patch < 1)))))
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
		const char *dir = trace->dirs->pdata[d];
		const bt_clock_class *clock = lookup_dir_or_group(trace,
			clocks, dir);
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
	key = dir_key(dir);
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
static void note_event_names(struct tn_trace *trace,
		const bt_stream_class *sc)
{
	for (uint64_t i = 0; i < bt_stream_class_get_event_class_count(sc);
			i++) {
		const char *name = bt_event_class_get_name(
			bt_stream_class_borrow_event_class_by_index_const(sc,
				i));

		if (name && !g_ptr_array_find_with_equal_func(
				trace->event_names, name, g_str_equal, NULL))
			g_ptr_array_add(trace->event_names, g_strdup(name));
	}
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
	real = realpath(dir, NULL);
	for (guint i = 0; !found && i < trace->dirs->len; i++) {
		char *other;

		if (!strcmp(trace->dirs->pdata[i], dir)) {
			found = trace->dirs->pdata[i];
			break;
		}
		other = real ? realpath(trace->dirs->pdata[i], NULL) : NULL;
		if (other && !strcmp(other, real))
			found = trace->dirs->pdata[i];
		free(other);
	}
	free(real);
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

static void note_stream(struct tn_trace *trace, GHashTable *seen,
		const bt_stream *stream)
{
	const bt_trace *bt_trace = bt_stream_borrow_trace_const(stream);
	const bt_clock_class *clock = bt_stream_class_borrow_default_clock_class_const(
		bt_stream_borrow_class_const(stream));
	struct tn_trace_info *info = g_hash_table_lookup(seen,
		tn_bt_address_key(bt_trace));

	if (!info) {
		info = new_info(bt_trace);
		g_ptr_array_add(trace->infos, info);
		g_hash_table_insert(seen, tn_bt_address_key(bt_trace), info);
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
	note_event_names(trace, bt_stream_borrow_class_const(stream));
}

/* Remember the clock class of the directory holding the stream's file
 * (src.ctf.fs names a stream after its file), for ranges_from_indexes(). */
static void note_stream_clock(GHashTable *clocks, const bt_stream *stream)
{
	const bt_clock_class *clock = bt_stream_class_borrow_default_clock_class_const(
		bt_stream_borrow_class_const(stream));
	const char *file = bt_stream_get_name(stream);

	if (clock && file) {
		char *dir = g_path_get_dirname(file);

		g_hash_table_replace(clocks, dir_key(dir),
			tn_bt_address_key(clock));
		g_free(dir);
	}
}

/* Read the first messages: every stream begins there, which gives the
 * trace objects (names, environment) and clocks, and then the first
 * event, whose time is the trace's beginning even when its packets
 * carry no times.  This also proves that libbabeltrace2 can set the
 * trace up and decode its first packets. */
static int probe(struct tn_trace *trace, struct tn_error *err)
{
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GHashTable *clocks = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, NULL);
	GArray *read = g_array_new(FALSE, FALSE, sizeof(const bt_message *));
	struct tn_reader *reader = NULL;
	bool seen_event = false;
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

			note_stream(trace, seen, stream);
			note_stream_clock(clocks, stream);
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
	/* The clock classes live as long as the reader's messages. */
	if (status == 0 && !ranges_from_indexes(trace, clocks)) {
		trace->has_range = false;
		read_trace_infos(trace);
	}
	if (status == 0)
		atomic_store(&trace->shared->start_reader, reader);
	else
		tn_reader_destroy(reader);
	g_hash_table_destroy(clocks);
	g_hash_table_destroy(seen);
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

static int open_traces(const char *path, struct tn_trace **out, char *where,
		struct tn_error *err);

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

/* Open the traces under path with libbabeltrace2's log captured; on
 * failure, put the first error it logged into detail. */
static int open_captured(const char *path, bool explain, struct tn_trace **out,
		char *where, char *detail, struct tn_error *err)
{
	struct tn_bt_log_capture capture;
	int status;

	tn_bt_capture_begin(&capture, explain);
	status = open_traces(path, out, where, err);
	tn_bt_capture_end(&capture, detail, TN_ERROR_MAX);
	bt_current_thread_clear_error();
	return status;
}

int tn_trace_open(const char *path, struct tn_trace **out,
		struct tn_error *err)
{
	char detail[TN_ERROR_MAX], where[TN_ERROR_MAX] = "";
	struct tn_error retry_err;
	struct tn_trace *retry;

	if (check_path(path, err))
		return -1;
	/* The components made here live on (the first reader is kept), so
	 * they must not log; only the metadata parser's errors show. */
	if (open_captured(path, false, out, where, detail, err) == 0)
		return 0;
	if (!*where)
		return -1;	/* not libbabeltrace2's failure */
	/* Fail again with the components logging, to find out why. */
	if (!*detail && open_captured(path, true, &retry, where, detail,
			&retry_err) == 0)
		tn_trace_destroy(retry);
	/* What libbabeltrace2 logged says more than its error causes. */
	if (*detail)
		tn_error_set(err, "%s: %s", where, detail);
	return -1;
}

/* Open the traces under path.  When libbabeltrace2 fails, err says why
 * and where (size TN_ERROR_MAX) names what failed, for a better
 * explanation from its log. */
static int open_traces(const char *path, struct tn_trace **out, char *where,
		struct tn_error *err)
{
	struct tn_trace *trace;

	trace = g_new0(struct tn_trace, 1);
	trace->path = g_strdup(path);
	trace->dirs = g_ptr_array_new_with_free_func(g_free);
	trace->groups = g_ptr_array_new_with_free_func(trace_group_free);
	trace->infos = g_ptr_array_new_with_free_func(info_free);
	trace->event_names = g_ptr_array_new_with_free_func(g_free);
	trace->dir_clocks = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, g_free);
	trace->shared = g_new0(struct trace_shared, 1);
	atomic_init(&trace->shared->start_reader, NULL);
	atomic_init(&trace->shared->packet_tables, NULL);
	find_trace_dirs(path, 0, trace->dirs);
	if (trace->dirs->len == 0) {
		tn_error_set(err, "%s: no CTF trace found: no directory under "
			"it holds a `metadata` file", path);
		goto fail;
	}
	if (build_groups(trace, where, err))
		goto fail;
	if (trace->groups->len == 0) {
		tn_error_set(err, "%s: no CTF trace found: libbabeltrace2 "
			"reads none of the `metadata` files under it", path);
		goto fail;
	}
	if (probe(trace, err)) {
		char cause[TN_ERROR_MAX];

		snprintf(cause, sizeof(cause), "%s", err->message);
		snprintf(where, TN_ERROR_MAX, "%s: cannot read trace", path);
		tn_error_set(err, "%s: %s", path, cause);
		goto fail;
	}
	g_ptr_array_sort(trace->event_names, compare_strings);
	g_ptr_array_add(trace->event_names, NULL);
	*out = trace;
	return 0;
fail:
	tn_trace_destroy(trace);
	return -1;
}

void tn_trace_destroy(struct tn_trace *trace)
{
	if (!trace)
		return;
	tn_reader_destroy(atomic_load(&trace->shared->start_reader));
	g_free(trace->shared);
	g_ptr_array_free(trace->infos, TRUE);
	g_ptr_array_free(trace->event_names, TRUE);
	g_hash_table_destroy(trace->dir_clocks);
	g_ptr_array_free(trace->groups, TRUE);
	g_ptr_array_free(trace->dirs, TRUE);
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

const char *const *tn_trace_get_event_names(const struct tn_trace *trace)
{
	return (const char *const *) trace->event_names->pdata;
}

size_t tn_trace_get_stream_count(const struct tn_trace *trace)
{
	return trace->stream_count;
}

bool tn_trace_get_time_range(const struct tn_trace *trace, int64_t *begin_ns,
		int64_t *end_ns)
{
	if (!trace->has_range)
		return false;
	*begin_ns = trace->begin_ns;
	*end_ns = trace->end_ns;
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
