/* sync-stream.c - the correction of a stream's host (see
 * sync-stream.h). */
#include "sync-stream.h"

const struct tn_sync_transform *tn_sync_transform_of_stream(
		const struct tn_sync *sync, const bt_stream *stream)
{
	const bt_trace *trace;
	const bt_value *value;
	const struct tn_sync_host *host = NULL;

	if (!sync || !stream)
		return NULL;
	trace = bt_stream_borrow_trace_const(stream);
	value = bt_trace_borrow_environment_entry_value_by_name_const(trace,
		"hostname");
	if (value && bt_value_is_string(value))
		host = tn_sync_find_host(sync, bt_value_string_get(value));
	if (!host && bt_trace_get_name(trace))
		host = tn_sync_find_host(sync, bt_trace_get_name(trace));
	return host ? &host->transform : NULL;
}
