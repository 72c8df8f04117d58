/* reader.c - events of a trace in time order, through one libbabeltrace2
 * graph: src.ctf.fs (one per trace) -> tracenav's merge (merge-filter.h;
 * or flt.utils.muxer, tn_merge_set_method()) [-> flt.utils.trimmer] ->
 * tracenav's simple sink.
 *
 * The trimmer applies --begin/--end where libbabeltrace2 2.0's trimmer
 * can be given the trace (tn_trace_can_trim()); on the others (packets
 * without times: it crashes) tn_reader_next() drops what is out of the
 * bounds itself.
 *
 * Readers of several threads share the component classes: graphs are
 * built and destroyed under tn_bt_classes_lock() (see bt-util.h). */
#include <glib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bt-util.h"
#include "clock.h"
#include "merge-compare.h"
#include "merge-filter.h"
#include "sync-stream.h"
#include "tracenav/merge.h"
#include "tracenav/time.h"
#include "reader-private.h"
#include "repair.h"
#include "trace-private.h"

struct tn_reader {
	bt_graph *graph;
	bt_message_iterator *iterator;	/* the sink's upstream iterator */
	/* Messages pulled by the sink and not handed out yet. */
	bt_message_array_const batch;
	uint64_t batch_count;
	uint64_t batch_next;
	bool ended;
	bool failed;
	char failure[TN_ERROR_MAX];	/* why, said again on later calls */
	/* Messages given back, handed out first, last given first out:
	 * const bt_message *. */
	GArray *pushed_back;
	enum tn_merge_method method;	/* how its graph merges streams */
	/* Bounds that tn_reader_next() applies itself (no trimmer). */
	struct tn_reader_options bounds;
	bool has_seen;		/* the time of the last item with one */
	int64_t seen_ns;
	/* A live source's reader: how long to wait when it has nothing
	 * yet ("try again"); 0 for a trace's. */
	uint64_t retry_us;
	/* What its merge is asked and counts (merge-filter.h), and the
	 * correction of each stream's host when it has one: bt_stream ->
	 * transform, or a pointer to no_transform. */
	struct tn_merge_context merge;
	GHashTable *transforms;
	/* The latest time of the messages read: where the next item is
	 * placed at the least (see place()). */
	bool has_latest;
	int64_t latest_ns;
	/* The trace it reads (NULL for a source's reader): told of the
	 * steps its merge counted when it goes. */
	const struct tn_trace *trace;
};

static const struct tn_sync_transform no_transform;

static bt_graph_simple_sink_component_initialize_func_status
sink_initialize(bt_message_iterator *iterator, void *data)
{
	struct tn_reader *reader = data;

	reader->iterator = iterator;
	return BT_GRAPH_SIMPLE_SINK_COMPONENT_INITIALIZE_FUNC_STATUS_OK;
}

/* Pull one batch from upstream and keep it; the batch array belongs to
 * the iterator and stays valid until its next call, which only happens
 * once every message of the batch was taken. */
static bt_graph_simple_sink_component_consume_func_status
sink_consume(bt_message_iterator *iterator, void *data)
{
	struct tn_reader *reader = data;

	switch (bt_message_iterator_next(iterator, &reader->batch,
			&reader->batch_count)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		reader->batch_next = 0;
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
}

/* The "inputs" parameter of group's src.ctf.fs: its directories, or their
 * stand-ins in dirs.  *count is the number of inputs (0: nothing of this
 * group is left in dirs). */
/* Name a group's trace as the babeltrace2 CLI does (see
 * tn_trace_get_group_name_suffix()), so that what libbabeltrace2 writes
 * with it (the warnings of lost events) reads the same. */
static int insert_trace_name(bt_value *params, const struct tn_trace *trace,
		size_t group)
{
	const char *suffix = tn_trace_get_group_name_suffix(trace, group);

	if (!suffix)
		return 0;
	return bt_value_map_insert_string_entry(params, "trace-name",
		suffix) ? -1 : 0;
}

static bt_value *inputs_param(const struct tn_trace *trace, size_t group,
		const char *const *dirs, uint64_t *count)
{
	bt_value *params = bt_value_map_create();
	bt_value *inputs = NULL;

	*count = 0;
	if (!params)
		return NULL;
	if (bt_value_map_insert_empty_array_entry(params, "inputs", &inputs))
		goto fail;
	for (size_t i = 0; i < tn_trace_get_group_dir_count(trace, group); i++) {
		const char *dir = dirs ? dirs[tn_trace_get_group_dir_index(
			trace, group, i)] :
			tn_trace_get_group_read_dir(trace, group, i);

		if (!dir)
			continue;
		if (bt_value_array_append_string_element(inputs, dir))
			goto fail;
		(*count)++;
	}
	if (insert_trace_name(params, trace, group))
		goto fail;
	return params;
fail:
	bt_value_put_ref(params);
	return NULL;
}

/* The trimmer reads an integer parameter as seconds, so bounds go as
 * "SEC.NNNNNNNNN" strings, which it parses to the exact ns. */
static int insert_bound(bt_value *params, const char *name, int64_t ns)
{
	GString *text = g_string_new(NULL);
	int status;

	tn_time_format_seconds(text, ns);
	status = bt_value_map_insert_string_entry(params, name, text->str);
	g_string_free(text, TRUE);
	return status;
}

static bt_value *trimmer_params(const struct tn_reader_options *options)
{
	bt_value *params = bt_value_map_create();

	if (!params)
		return NULL;
	if ((options->has_begin &&
	     insert_bound(params, "begin", options->begin_ns)) ||
	    (options->has_end && insert_bound(params, "end", options->end_ns))) {
		bt_value_put_ref(params);
		return NULL;
	}
	return params;
}

/* err: why libbabeltrace2 cannot read the trace, from the thread's
 * error: "cannot read stream file FILE: CAUSE" when its causes name the
 * file (as the user knows it, not through a stand-in), else "cannot
 * read trace: CAUSE". */
static void set_read_error(struct tn_error *err)
{
	const char *prefix = "cannot read trace: ";
	char cause[TN_ERROR_MAX];
	const char *file;
	char *original, *named;

	tn_bt_set_error(err, NULL, "cannot read trace");
	file = tn_bt_get_failed_file();
	if (!*file || !g_str_has_prefix(err->message, prefix))
		return;
	original = tn_repair_original_path(file);
	snprintf(cause, sizeof(cause), "%s", err->message + strlen(prefix));
	/* A cause that starts with the file does not say it twice. */
	named = g_strdup_printf("stream file `%s`: ", file);
	tn_error_set(err, "cannot read stream file %s: %s",
		original ? original : file, g_str_has_prefix(cause, named) ?
		cause + strlen(named) : cause);
	g_free(named);
	g_free(original);
}

/* Connect every output port of source to the merge, from its input port
 * *merge_port on (the merge grows one input port per connection). */
static int connect_source(struct tn_reader *reader,
		const bt_component_source *source,
		const bt_component_filter *merge, uint64_t *merge_port,
		struct tn_error *err)
{
	for (uint64_t i = 0;
	     i < bt_component_source_get_output_port_count(source);
	     i++, (*merge_port)++) {
		if (bt_graph_connect_ports(reader->graph,
			bt_component_source_borrow_output_port_by_index_const(
				source, i),
			bt_component_filter_borrow_input_port_by_index_const(
				merge, *merge_port), NULL)) {
			tn_bt_set_error(err, NULL, "cannot connect streams");
			return -1;
		}
	}
	return 0;
}

/* Add every source and connect their ports to the merge, which grows one
 * input port per connection. */
static int add_sources(struct tn_reader *reader, const struct tn_trace *trace,
		const char *const *dirs, const bt_component_filter *merge,
		struct tn_error *err)
{
	const bt_component_class_source *fs_class;
	uint64_t merge_port = 0;

	if (tn_bt_source_class("ctf", "fs", &fs_class, err))
		return -1;
	for (size_t group = 0; group < tn_trace_get_group_count(trace);
			group++) {
		const bt_component_source *source;
		uint64_t input_count;
		bt_value *params = inputs_param(trace, group, dirs,
			&input_count);
		char name[32];
		int status;

		if (!params) {
			tn_error_set(err, "out of memory");
			return -1;
		}
		if (input_count == 0) {
			bt_value_put_ref(params);
			continue;
		}
		snprintf(name, sizeof(name), "source-%zu", group);
		status = bt_graph_add_source_component(reader->graph, fs_class,
			name, params, tn_bt_component_log_level(), &source);
		bt_value_put_ref(params);
		if (status) {
			set_read_error(err);
			return -1;
		}
		if (connect_source(reader, source, merge, &merge_port, err))
			return -1;
	}
	return 0;
}

static int add_filter_of_class(struct tn_reader *reader,
		const bt_component_class_filter *cls, const char *name,
		const bt_value *params, const bt_component_filter **out,
		struct tn_error *err)
{
	if (bt_graph_add_filter_component(reader->graph, cls, name, params,
			tn_bt_component_log_level(), out)) {
		tn_bt_set_error(err, NULL, "cannot set up the trace reader");
		return -1;
	}
	return 0;
}

static int add_filter(struct tn_reader *reader, const char *plugin,
		const char *name, const bt_value *params,
		const bt_component_filter **out, struct tn_error *err)
{
	const bt_component_class_filter *cls;

	if (tn_bt_filter_class(plugin, name, &cls, err))
		return -1;
	return add_filter_of_class(reader, cls, name, params, out, err);
}

/* The component that merges the streams: tracenav's (merge-filter.h),
 * or libbabeltrace2's muxer when asked (tn_merge_set_method()).  Both
 * give the same order. */
static int add_merge(struct tn_reader *reader, const bt_component_filter **out,
		struct tn_error *err)
{
	const bt_component_class_filter *cls;

	if (tn_merge_get_method() == TN_MERGE_BT_MUXER)
		return add_filter(reader, "utils", "muxer", NULL, out, err);
	if (tn_merge_filter_class(&cls, err))
		return -1;
	if (bt_graph_add_filter_component_with_initialize_method_data(
			reader->graph, cls, "merge", NULL, &reader->merge,
			tn_bt_component_log_level(), out)) {
		tn_bt_set_error(err, NULL, "cannot set up the trace reader");
		return -1;
	}
	return 0;
}

static int connect_filter(struct tn_reader *reader,
		const bt_component_filter *from, const bt_port_input *to,
		struct tn_error *err)
{
	if (bt_graph_connect_ports(reader->graph,
			bt_component_filter_borrow_output_port_by_index_const(
				from, 0), to, NULL)) {
		tn_bt_set_error(err, NULL, "cannot set up the trace reader");
		return -1;
	}
	return 0;
}

/* tracenav's sink, after the output port from. */
static int add_sink(struct tn_reader *reader, const bt_port_output *from,
		struct tn_error *err)
{
	const bt_component_sink *sink;

	if (bt_graph_add_simple_sink_component(reader->graph, "tracenav",
			sink_initialize, sink_consume, NULL, reader, &sink) ||
	    bt_graph_connect_ports(reader->graph, from,
			bt_component_sink_borrow_input_port_by_index_const(
				sink, 0), NULL)) {
		tn_bt_set_error(err, NULL, "cannot set up the trace reader");
		return -1;
	}
	return 0;
}

static const bt_port_output *filter_output(const bt_component_filter *filter)
{
	return bt_component_filter_borrow_output_port_by_index_const(filter, 0);
}

static int build_graph(struct tn_reader *reader, const struct tn_trace *trace,
		const struct tn_reader_options *options, const char *const *dirs,
		struct tn_error *err)
{
	const bt_component_filter *merge, *last, *trimmer;
	const struct tn_sync *sync = options && options->sync ?
		options->sync : tn_trace_get_sync(trace);

	reader->graph = bt_graph_create(0);
	if (!reader->graph) {
		tn_error_set(err, "out of memory");
		return -1;
	}
	if (add_merge(reader, &merge, err) ||
	    add_sources(reader, trace, dirs, merge, err))
		return -1;
	last = merge;
	if (sync) {
		reader->merge.sync = sync;
		reader->transforms = g_hash_table_new(g_direct_hash,
			g_direct_equal);
	}
	/* The trimmer would cut at recorded times: corrected ones are
	 * bounded here. */
	if (options && (options->has_begin || options->has_end) &&
	    ((!tn_trace_can_trim(trace) && tn_trace_has_clock(trace)) ||
	     sync)) {
		reader->bounds = *options;
	} else if (options && (options->has_begin || options->has_end)) {
		bt_value *params = trimmer_params(options);
		int status;

		if (!params) {
			tn_error_set(err, "out of memory");
			return -1;
		}
		status = add_filter(reader, "utils", "trimmer", params,
			&trimmer, err);
		bt_value_put_ref(params);
		if (status || connect_filter(reader, last,
				bt_component_filter_borrow_input_port_by_index_const(
					trimmer, 0), err))
			return -1;
		last = trimmer;
	}
	return add_sink(reader, filter_output(last), err);
}

static struct tn_reader *reader_new(enum tn_merge_method method)
{
	struct tn_reader *reader = g_new0(struct tn_reader, 1);

	reader->pushed_back = g_array_new(FALSE, FALSE,
		sizeof(const bt_message *));
	reader->method = method;
	reader->merge.steps = g_hash_table_new_full(g_str_hash, g_str_equal,
		g_free, tn_merge_step_free);
	return reader;
}

static int create_once(const struct tn_trace *trace,
		const struct tn_reader_options *options, const char *const *dirs,
		struct tn_reader **out, struct tn_error *err)
{
	struct tn_reader *reader = reader_new(tn_merge_get_method());
	int status;

	reader->trace = trace;
	/* Adding components takes references to the shared classes. */
	tn_bt_classes_lock();
	tn_trace_refresh_read_dirs(trace);
	status = build_graph(reader, trace, options, dirs, err);
	tn_bt_classes_unlock();
	if (status) {
		tn_reader_destroy(reader);
		return -1;
	}
	*out = reader;
	return 0;
}

int tn_reader_create_on_dirs(const struct tn_trace *trace,
		const struct tn_reader_options *options, const char *const *dirs,
		struct tn_reader **out, struct tn_error *err)
{
	/* A repaired stream file that grew between the refresh of its
	 * stand-in's index and libbabeltrace2's look at it is refused:
	 * again, on the stand-ins themselves (a slice's caller makes a new
	 * slice, see seek.c). */
	for (int tries = 1;; tries++) {
		uint64_t generation = tn_trace_get_read_generation(trace);
		int status = create_once(trace, options, dirs, out, err);

		if (status == 0 || dirs || tries == 3)
			return status;
		tn_trace_refresh_read_dirs(trace);
		if (tn_trace_get_read_generation(trace) == generation)
			return status;
	}
}

int tn_reader_create(const struct tn_trace *trace,
		const struct tn_reader_options *options,
		struct tn_reader **out, struct tn_error *err)
{
	/* The reader the trace opened (rewound to its start) saves a graph:
	 * on a trace of a thousand streams, setting one up and filling it
	 * costs as much as reading a few hundred thousand events. */
	if (!tn_trace_get_sync(trace) && (!options ||
	    (!options->has_begin && !options->has_end && !options->sync))) {
		struct tn_reader *start = tn_trace_take_start_reader(trace);

		if (start && start->method == tn_merge_get_method()) {
			*out = start;
			return 0;
		}
		tn_reader_destroy(start);
	}
	return tn_reader_create_on_dirs(trace, options, NULL, out, err);
}

/* The graph of tn_reader_create_on_source(). */
static int build_source_graph(struct tn_reader *reader,
		const bt_component_class_source *cls, const bt_value *params,
		bool merge, struct tn_error *err)
{
	const bt_component_filter *muxer;
	const bt_component_source *source;
	uint64_t muxer_port = 0;

	reader->graph = bt_graph_create(0);
	if (!reader->graph) {
		tn_error_set(err, "out of memory");
		return -1;
	}
	if (bt_graph_add_source_component(reader->graph, cls, "source", params,
			tn_bt_component_log_level(), &source)) {
		tn_bt_set_error(err, NULL, "cannot set up the reader");
		return -1;
	}
	/* One port: its messages in the source's own order (the muxer
	 * would stop at a time that goes back, a dmesg line without
	 * one). */
	if (!merge && bt_component_source_get_output_port_count(source) == 1)
		return add_sink(reader,
			bt_component_source_borrow_output_port_by_index_const(
				source, 0), err);
	if (add_filter(reader, "utils", "muxer", NULL, &muxer, err) ||
	    connect_source(reader, source, muxer, &muxer_port, err))
		return -1;
	return add_sink(reader, filter_output(muxer), err);
}

int tn_reader_create_on_source(const char *plugin, const char *name,
		const bt_value *params, bool merge, uint64_t retry_us,
		struct tn_reader **out, struct tn_error *err)
{
	struct tn_reader *reader = reader_new(TN_MERGE_BT_MUXER);
	const bt_component_class_source *cls;
	int status;

	reader->retry_us = retry_us;
	tn_bt_classes_lock();
	status = tn_bt_source_class(plugin, name, &cls, err) ||
		build_source_graph(reader, cls, params, merge, err) ? -1 : 0;
	tn_bt_classes_unlock();
	if (status) {
		tn_reader_destroy(reader);
		return -1;
	}
	*out = reader;
	return 0;
}

/* Tell the trace which of its streams' times went back. */
static void tell_steps(const struct tn_reader *reader)
{
	GHashTableIter iter;
	gpointer name, value;

	if (!reader->trace)
		return;
	g_hash_table_iter_init(&iter, reader->merge.steps);
	while (g_hash_table_iter_next(&iter, &name, &value)) {
		const struct tn_merge_step *step = value;

		tn_trace_note_step(reader->trace, name,
			MAX(step->events_by, step->others_by),
			step->event_times);
	}
}

void tn_reader_destroy(struct tn_reader *reader)
{
	const bt_message *msg;

	if (!reader)
		return;
	tell_steps(reader);
	while (reader->batch_next < reader->batch_count)
		bt_message_put_ref(reader->batch[reader->batch_next++]);
	while (reader->pushed_back->len > 0) {
		msg = g_array_index(reader->pushed_back, const bt_message *,
			reader->pushed_back->len - 1);
		g_array_set_size(reader->pushed_back,
			reader->pushed_back->len - 1);
		bt_message_put_ref(msg);
	}
	g_array_free(reader->pushed_back, TRUE);
	/* Destroying the components puts their classes' references. */
	tn_bt_classes_lock();
	bt_graph_put_ref(reader->graph);
	tn_bt_classes_unlock();
	g_hash_table_destroy(reader->merge.steps);
	if (reader->transforms)
		g_hash_table_destroy(reader->transforms);
	g_free(reader);
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

char **tn_reader_describe_steps(const struct tn_reader *reader)
{
	GPtrArray *lines = g_ptr_array_new();
	GHashTableIter iter;
	gpointer name, value;

	g_hash_table_iter_init(&iter, reader->merge.steps);
	while (g_hash_table_iter_next(&iter, &name, &value)) {
		const struct tn_merge_step *step = value;
		GString *line = g_string_new(NULL);

		g_string_printf(line, "stream file `%s`: ",
			(const char *) name);
		if (step->events)
			g_string_append_printf(line, "%" PRIu64 " event%s "
				"went back in time, by at most %" PRId64 " ns",
				step->events, step->events == 1 ? "" : "s",
				step->events_by);
		if (step->others)
			g_string_append_printf(line, "%s%" PRIu64 " packet "
				"bound%s or notice%s went back in time (a "
				"packet's end past the next one's start), by at "
				"most %" PRId64 " ns", step->events ? "; " : "",
				step->others, step->others == 1 ? "" : "s",
				step->others == 1 ? "" : "s", step->others_by);
		g_ptr_array_add(lines, g_string_free(line, FALSE));
	}
	g_ptr_array_sort(lines, compare_strings);
	g_ptr_array_add(lines, NULL);
	return (char **) g_ptr_array_free(lines, FALSE);
}

/* ns (a time of msg) corrected by its host's transform, found once per
 * stream (reader->transforms). */
static int64_t corrected(struct tn_reader *reader, const bt_message *msg,
		int64_t ns)
{
	const bt_stream *stream = tn_merge_message_stream(msg);
	const struct tn_sync_transform *tr;

	if (!stream)
		return ns;
	tr = g_hash_table_lookup(reader->transforms, stream);
	if (!tr) {
		tr = tn_sync_transform_of_stream(reader->merge.sync, stream);
		if (!tr)
			tr = &no_transform;
		g_hash_table_insert(reader->transforms,
			(gpointer) (uintptr_t) stream,
			(gpointer) (uintptr_t) tr);
	}
	return tr == &no_transform ? ns : tn_sync_transform_apply(tr, ns);
}

/* The merge placed msg at max(its time, the latest time given so far):
 * where a stream's time goes back, the latest time of that stream, as
 * the messages come in the order of those places (merge-filter.h). */
static int64_t place(struct tn_reader *reader, int64_t ns)
{
	if (reader->has_latest && ns < reader->latest_ns)
		return reader->latest_ns;
	reader->has_latest = true;
	reader->latest_ns = ns;
	return ns;
}

void tn_reader_place_other(struct tn_reader *reader, const bt_message *msg)
{
	const bt_clock_snapshot *cs = tn_merge_placing_snapshot(msg);
	int64_t ns;

	if (!cs || bt_message_get_type(msg) ==
			BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY ||
	    bt_clock_snapshot_get_ns_from_origin(cs, &ns) !=
			BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
		return;
	place(reader, reader->transforms ? corrected(reader, msg, ns) : ns);
}

/* ev's recorded time (corrected) and its place. */
static void place_item(struct tn_reader *reader, struct tn_event *ev)
{
	if (!ev->has_ns)
		return;
	if (reader->transforms)
		ev->ns = corrected(reader, ev->msg, ev->ns);
	ev->recorded_ns = ev->ns;
	ev->ns = place(reader, ev->ns);
}

/* Run the graph until the sink holds a batch, the trace ends or fails. */
static enum tn_reader_status fill_batch(struct tn_reader *reader,
		struct tn_error *err)
{
	while (reader->batch_next >= reader->batch_count) {
		bt_graph_run_once_status status;

		if (reader->ended)
			return TN_READER_END;
		if (reader->failed) {
			tn_error_set(err, "%s", reader->failure);
			return TN_READER_ERROR;
		}
		status = bt_graph_run_once(reader->graph);
		if (status == BT_GRAPH_RUN_ONCE_STATUS_AGAIN &&
		    reader->retry_us) {
			/* A live source with nothing yet: it gives no file
			 * descriptor to wait on. */
			g_usleep(reader->retry_us);
		} else if (status == BT_GRAPH_RUN_ONCE_STATUS_END) {
			reader->ended = true;
		} else if (status < 0) {
			struct tn_error failure;

			reader->failed = true;
			set_read_error(&failure);
			snprintf(reader->failure, sizeof(reader->failure), "%s",
				failure.message);
			tn_error_set(err, "%s", failure.message);
			return TN_READER_ERROR;
		}
	}
	return TN_READER_OK;
}

enum tn_reader_status tn_reader_next_message(struct tn_reader *reader,
		const bt_message **msg, struct tn_error *err)
{
	enum tn_reader_status status;

	if (reader->pushed_back->len > 0) {
		*msg = g_array_index(reader->pushed_back, const bt_message *,
			reader->pushed_back->len - 1);
		g_array_set_size(reader->pushed_back,
			reader->pushed_back->len - 1);
		return TN_READER_OK;
	}
	status = fill_batch(reader, err);
	if (status != TN_READER_OK)
		return status;
	*msg = reader->batch[reader->batch_next++];
	return TN_READER_OK;
}

void tn_reader_push_back(struct tn_reader *reader, const bt_message *msg)
{
	g_array_append_val(reader->pushed_back, msg);
}

/* Turn msg into *ev if it is an item a user sees; false otherwise. */
static bool to_event(const bt_message *msg, struct tn_event *ev)
{
	const bt_stream_class *sc;

	memset(ev, 0, sizeof(*ev));
	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_EVENT:
		ev->kind = TN_EVENT_KIND_EVENT;
		if (bt_message_event_borrow_stream_class_default_clock_class_const(
				msg))
			ev->has_ns = tn_clock_snapshot_ns(
				bt_message_event_borrow_default_clock_snapshot_const(
					msg), &ev->ns);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
		ev->kind = TN_EVENT_KIND_DISCARDED_EVENTS;
		sc = bt_stream_borrow_class_const(
			bt_message_discarded_events_borrow_stream_const(msg));
		if (bt_stream_class_discarded_events_have_default_clock_snapshots(sc))
			ev->has_ns = tn_clock_snapshot_ns(
				bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(
					msg), &ev->ns);
		break;
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		ev->kind = TN_EVENT_KIND_DISCARDED_PACKETS;
		sc = bt_stream_borrow_class_const(
			bt_message_discarded_packets_borrow_stream_const(msg));
		if (bt_stream_class_discarded_packets_have_default_clock_snapshots(sc))
			ev->has_ns = tn_clock_snapshot_ns(
				bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(
					msg), &ev->ns);
		break;
	default:
		return false;
	}
	ev->msg = msg;
	return true;
}

/* Whether ev is within the bounds the reader applies itself; *past
 * when it is after the end (so is everything after it).  An item
 * without a time is where the muxer put it: at the last time seen. */
static bool within_bounds(struct tn_reader *reader, const struct tn_event *ev,
		bool *past)
{
	const struct tn_reader_options *bounds = &reader->bounds;
	int64_t ns;

	*past = false;
	if (ev->has_ns) {
		reader->has_seen = true;
		reader->seen_ns = ev->ns;
	}
	if (!reader->has_seen)
		return !bounds->has_begin;
	ns = reader->seen_ns;
	if (bounds->has_end && ns > bounds->end_ns) {
		*past = true;
		return false;
	}
	return !bounds->has_begin || ns >= bounds->begin_ns;
}

enum tn_reader_status tn_reader_next(struct tn_reader *reader,
		struct tn_event *ev, struct tn_error *err)
{
	for (;;) {
		const bt_message *msg;
		enum tn_reader_status status =
			tn_reader_next_message(reader, &msg, err);
		bool past;

		if (status != TN_READER_OK)
			return status;
		if (!to_event(msg, ev)) {
			tn_reader_place_other(reader, msg);
			bt_message_put_ref(msg);
			continue;
		}
		place_item(reader, ev);
		if (!reader->bounds.has_begin && !reader->bounds.has_end)
			return TN_READER_OK;
		if (within_bounds(reader, ev, &past))
			return TN_READER_OK;
		tn_event_release(ev);
		if (past) {
			/* Drop what is left; every later call ends. */
			reader->ended = true;
			while (reader->batch_next < reader->batch_count)
				bt_message_put_ref(
					reader->batch[reader->batch_next++]);
			while (reader->pushed_back->len > 0) {
				const bt_message *rest = g_array_index(
					reader->pushed_back,
					const bt_message *,
					reader->pushed_back->len - 1);

				g_array_set_size(reader->pushed_back,
					reader->pushed_back->len - 1);
				bt_message_put_ref(rest);
			}
			return TN_READER_END;
		}
	}
}
