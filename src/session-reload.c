/* session-reload.c - the session's trace opened again, with what was
 * written to it since (see tn_session_reload() in session.h).
 *
 * What the user made stays: the filters (their stack, applied to the
 * new trace), the marks and the hide patterns (both by time and name,
 * not by what was read), the range, the last search, the analysis the
 * pane shows.  What was read of the old trace goes: the cursor, the
 * index and the match counts, the state snapshots and the diagram's
 * pages.  The new trace is opened before anything goes, so that a
 * trace that cannot be read any more leaves the session as it was.
 */
#include <inttypes.h>
#include <stdio.h>

#include "session.h"

/* Stop the background passes that read the trace (the index build and
 * what follows it).  They start again when an index comes. */
static void stop_passes(struct tn_session *session)
{
	tn_index_service_stop_build(&session->indexing);
	tn_index_service_wait_save(&session->indexing, NULL);
	tn_preparse_service_stop(&session->preparse);
	tn_filter_service_stop_count(&session->filters);
	tn_seq_service_reset(&session->seq);
}

/* Where the cursor is: its current event's position, if it has one. */
static bool current_position(struct tn_session *session,
		struct tn_position *pos)
{
	const struct tn_row *row = tn_cursor_peek_row(session->cursor, 0);

	if (!row)
		return false;
	*pos = row->pos;
	return true;
}

/* Drop what was read of the old trace, and the trace itself when the
 * session owns it; the cursor first (it reads the index, the filters'
 * matcher and the trace). */
static void drop_old_trace(struct tn_session *session)
{
	tn_cursor_destroy(session->cursor);
	session->cursor = NULL;
	tn_state_service_reset(&session->state);
	tn_view_drop_counts(&session->view);
	tn_filter_service_unbind(&session->filters);
	session->filters.serial++;
	tn_index_service_drop(&session->indexing, session->trace);
	session->indexing.stopped = false;
	session->indexing.changed_warned = false;
	session->view.selecting = false;
	if (session->owns_trace)
		tn_trace_destroy(session->trace);
	session->trace = NULL;
}

/* Say what the new trace has damaged or left out, as when it opened. */
static void say_problems(const struct tn_trace *trace, struct tn_output *out)
{
	for (size_t i = 0; i < tn_trace_get_left_out_count(trace); i++)
		tn_output_message(out, "%s: left out: %s",
			tn_trace_get_left_out_dir(trace, i),
			tn_trace_get_left_out_reason(trace, i));
	for (size_t i = 0; i < tn_trace_get_damage_count(trace); i++)
		tn_output_message(out, "%s: %s",
			tn_trace_get_damage_file(trace, i),
			tn_trace_get_damage_text(trace, i));
}

int tn_session_reload(struct tn_session *session, struct tn_output *out,
		struct tn_error *err)
{
	char *path = g_strdup(tn_trace_get_path(session->trace));
	uint64_t bytes = session->trace_bytes;
	struct tn_filter_stack *filters;
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_position pos;
	bool has_pos = current_position(session, &pos);
	size_t damaged;
	int64_t grown;
	char *summary;

	session->reload = false;
	/* No other thread may hold GLib's locks while the trace opens
	 * (trace.h): the passes stop first, and start again below. */
	stop_passes(session);
	if (tn_trace_open(path, &trace, err)) {
		char cause[TN_ERROR_MAX];

		snprintf(cause, sizeof(cause), "%s", err->message);
		tn_error_set(err, "reload: %s; the trace stays as it was read",
			cause);
		g_free(path);
		return -1;
	}
	if (tn_cursor_create(trace, NULL, &cursor, err)) {
		tn_trace_destroy(trace);
		g_free(path);
		return -1;
	}
	drop_old_trace(session);
	session->trace = trace;
	session->owns_trace = true;
	session->cursor = cursor;
	/* The filters as they were, on the new trace. */
	filters = session->filters.stack;
	session->filters.stack = NULL;
	if (filters && tn_session_set_filters(session, filters, out, err))
		tn_output_message(out, "reload: the filters cannot be applied "
			"again: %s", err->message);
	if (has_pos && tn_cursor_seek_position(session->cursor, &pos, err))
		tn_output_message(out, "reload: back to the first event: %s",
			err->message);
	/* Each problem, then the summary (what a message line shows). */
	say_problems(trace, out);
	session->trace_bytes = tn_trace_get_stream_bytes(trace);
	grown = (int64_t) (session->trace_bytes - bytes);
	damaged = tn_trace_get_damage_count(trace);
	summary = grown == 0 ? g_strdup("unchanged") :
		g_strdup_printf("%" PRId64 " bytes %s", grown > 0 ? grown :
			-grown, grown > 0 ? "more" : "fewer");
	tn_output_message(out, "reloaded %s: %s%s", path, summary,
		damaged == 0 ? "" : damaged == 1 ?
		"; 1 damaged file (traces lists it)" :
		"; damaged files (traces lists them)");
	g_free(summary);
	g_free(path);
	return 0;
}
