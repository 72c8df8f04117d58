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
#include <stdlib.h>

#include "session.h"
#include "tracenav/reader.h"

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

/* Drop what was read of the trace; the cursor first (it reads the
 * index, the filters' matcher and the trace). */
static void drop_what_was_read(struct tn_session *session)
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
}

/* Drop what was read of the old trace, and the trace itself when the
 * session owns it. */
static void drop_old_trace(struct tn_session *session)
{
	drop_what_was_read(session);
	if (session->owns_trace)
		tn_trace_destroy(session->trace);
	session->trace = NULL;
}

/* The filters as they were, on what the session reads now. */
static void apply_filters_again(struct tn_session *session,
		struct tn_output *out, const char *what)
{
	struct tn_filter_stack *filters = session->filters.stack;
	struct tn_error err;

	session->filters.stack = NULL;
	if (filters && tn_session_set_filters(session, filters, out, &err))
		tn_output_message(out, "%s: the filters cannot be applied "
			"again: %s", what, err.message);
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
	/* Taken before the open: what is written meanwhile is a change
	 * that follow mode reloads again. */
	uint64_t written = tn_trace_get_written_stamp(session->trace);
	struct tn_cursor *cursor;
	struct tn_trace *trace;
	struct tn_position pos;
	bool has_pos = current_position(session, &pos);
	size_t damaged;
	int64_t grown;
	char *summary;

	if (session->resync) {
		g_free(path);
		return tn_session_switch_sync(session, out, err);
	}
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
	/* The clocks as they were read. */
	if (session->sync_wanted && session->sync)
		tn_trace_set_sync(trace, session->sync);
	if (tn_cursor_create(trace, NULL, &cursor, err)) {
		tn_trace_destroy(trace);
		g_free(path);
		return -1;
	}
	drop_old_trace(session);
	session->trace = trace;
	session->owns_trace = true;
	session->cursor = cursor;
	apply_filters_again(session, out, "reload");
	if (has_pos && tn_cursor_seek_position(session->cursor, &pos, err))
		tn_output_message(out, "reload: back to the first event: %s",
			err->message);
	/* Each problem, then the summary (what a message line shows). */
	say_problems(trace, out);
	/* Of the new trace's directories: a new trace directory of a
	 * collection counts. */
	session->trace_bytes = tn_trace_get_stream_bytes(trace);
	session->written_stamp = written;
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

void tn_session_ask_sync(struct tn_session *session, bool on)
{
	session->sync_wanted = on;
	session->resync = true;
}

bool tn_session_wants_reload(const struct tn_session *session)
{
	return session->reload || session->resync;
}

/* The time on the clocks of `to` (NULL: the recorded ones) of the
 * cursor's event, read on those of `from`. */
static bool time_across(struct tn_session *session,
		const struct tn_sync *from, const struct tn_sync *to,
		int64_t *ns)
{
	const struct tn_row *row = tn_cursor_peek_row(session->cursor, 0);
	const struct tn_sync_host *host;

	if (!row || !row->ev.has_ns)
		return false;
	*ns = row->ev.recorded_ns;
	host = tn_sync_host_of_event(from, &row->ev);
	if (host)
		*ns = tn_sync_transform_invert(&host->transform, *ns);
	host = tn_sync_host_of_event(to, &row->ev);
	if (host)
		*ns = tn_sync_transform_apply(&host->transform, *ns);
	return true;
}

/* Say which clocks the trace is read on now. */
static void say_clocks(const struct tn_sync *sync, struct tn_output *out)
{
	const char *reference = "-";
	size_t corrected = 0;

	if (!sync) {
		tn_output_message(out, "sync off: the times are those each "
			"host recorded");
		return;
	}
	for (size_t i = 0; i < sync->host_count; i++) {
		if (sync->hosts[i].parent >= 0)
			corrected++;
		if (sync->hosts[i].quality == TN_SYNC_REFERENCE)
			reference = sync->hosts[i].name;
	}
	tn_output_message(out, "sync on: times corrected to the clock of "
		"%s (%zu of %zu hosts corrected)", reference, corrected,
		sync->host_count);
}

/* Whether trace's first item reads with sync. */
static bool reads_with(const struct tn_trace *trace,
		const struct tn_sync *sync, struct tn_error *err)
{
	struct tn_reader_options options = { .sync = sync };
	struct tn_reader *reader;
	struct tn_event ev;
	enum tn_reader_status status;

	if (tn_reader_create(trace, &options, &reader, err))
		return false;
	status = tn_reader_next(reader, &ev, err);
	if (status == TN_READER_OK)
		tn_event_release(&ev);
	tn_reader_destroy(reader);
	return status != TN_READER_ERROR;
}

int tn_session_switch_sync(struct tn_session *session,
		struct tn_output *out, struct tn_error *err)
{
	const struct tn_sync *now = tn_trace_get_sync(session->trace);
	struct tn_sync *before = now ? tn_sync_copy(now) : NULL;
	const struct tn_sync *next = session->sync_wanted ? session->sync :
		NULL;
	int64_t ns;
	bool has_ns = time_across(session, before, next, &ns);
	int status = 0;

	session->reload = false;
	session->resync = false;
	/* Nothing changes unless the trace reads on the new clocks. */
	if (next && !reads_with(session->trace, next, err)) {
		session->sync_wanted = before != NULL;
		tn_sync_destroy(before);
		return -1;
	}
	stop_passes(session);
	drop_what_was_read(session);
	tn_trace_set_sync(session->trace, next);
	if (tn_cursor_create(session->trace, NULL, &session->cursor, err)) {
		/* Back to the clocks it had: they read before. */
		tn_trace_set_sync(session->trace, before);
		session->sync_wanted = before != NULL;
		has_ns = false;
		status = -1;
		if (tn_cursor_create(session->trace, NULL, &session->cursor,
				err))
			abort();	/* it read a moment ago */
	}
	apply_filters_again(session, out, "sync");
	if (has_ns && tn_cursor_seek_time(session->cursor, ns, err))
		tn_output_message(out, "sync: back to the first event: %s",
			err->message);
	if (status == 0)
		say_clocks(tn_trace_get_sync(session->trace), out);
	tn_sync_destroy(before);
	return status;
}
