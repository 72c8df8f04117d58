/* trace-probe.c - what a trace's metadata says, and its time range,
 * read through its first messages (see trace-object.h). */
#include <babeltrace2/babeltrace.h>
#include <glib.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bt-util.h"
#include "clock.h"
#include "ctf-index.h"
#include "ctf-query.h"
#include "reader-private.h"
#include "repair.h"
#include "trace-object.h"
#include "trace-private.h"

/* For g_ptr_array_sort(), which gives pointers to the elements. */
static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Widen the trace's range with the packets of stream file dir/name,
 * from its packet index, in ns of clock as libbabeltrace2 converts
 * them.  false if the file has no usable index. */
static bool widen_with_index(struct tn_trace *trace, size_t group,
		const char *dir, const char *name, uint64_t size,
		const bt_clock_class *clock)
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
	tn_trace_range_widen_group(trace->shared, group, begin, end);
	return true;
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
bool tn_trace_tracer_needs_fixups(const char *name, long major, long minor,
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
			    tn_trace_tracer_needs_fixups(info->env[e].value,
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
		const bt_clock_class *clock = tn_trace_lookup_dir_or_group(trace,
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
				ok = widen_with_index(trace,
					tn_trace_group_of_dir(trace, d), dir, name,
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
	key = tn_trace_dir_key(trace, dir);
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

/* Add a copy of name to set, unless it holds it already: most field
 * names recur in many event classes (a kernel trace declares a
 * thousand), copying each only to free it again costs. */
static void add_once(GHashTable *set, const char *name)
{
	if (!g_hash_table_contains(set, name))
		g_hash_table_add(set, g_strdup(name));
}

/* Add "$scope.name" to set. */
static void add_scoped(GHashTable *set, const char *scope, const char *name)
{
	size_t scope_len = strlen(scope), name_len = strlen(name);
	char small[128];

	if (scope_len + name_len + 3 > sizeof(small)) {
		char *big = g_strdup_printf("$%s.%s", scope, name);

		add_once(set, big);
		g_free(big);
		return;
	}
	small[0] = '$';
	memcpy(small + 1, scope, scope_len);
	small[1 + scope_len] = '.';
	memcpy(small + 2 + scope_len, name, name_len + 1);
	add_once(set, small);
}

/* Add name to the trace's field names, plain and as $scope.name (and
 * $scope2.name when scope2 is not NULL). */
static void add_field_name(struct tn_trace *trace, const char *name,
		const char *scope, const char *scope2)
{
	add_once(trace->field_set, name);
	add_scoped(trace->field_set, scope, name);
	if (scope2)
		add_scoped(trace->field_set, scope2, name);
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
		real = tn_trace_real_dir(trace, dir);
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

		g_hash_table_replace(clocks, tn_trace_dir_key(trace, dir),
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
int tn_trace_probe(struct tn_trace *trace, struct tn_error *err)
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
	 * probe down more than it saves: it starts after the probe.
	 * Either way the child is forked here, while the trace opens and
	 * no other thread of tracenav's runs (a fork beside running
	 * threads could copy a lock one of them holds). */
	struct trace_infos *early = trace->fixups_likely &&
		!has_unindexed(trace) && !has_untimed_index(trace) ?
		tn_trace_infos_start(trace, trace->hold_range_query) : NULL;
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
			tn_trace_infos_start(trace, trace->hold_range_query));
		early = NULL;
	}
	tn_trace_infos_abandon(early);
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

void tn_trace_sort_names(struct tn_trace *trace)
{
	g_ptr_array_sort(trace->event_names, compare_strings);
	g_ptr_array_add(trace->event_names, NULL);
	sort_field_names(trace);
}
