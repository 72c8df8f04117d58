/* marks.c - marking events (m), going from mark to mark (u, U) and
 * listing them; the marks are kept by the session and saved next to
 * the index cache after each change. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "tracenav/format.h"
#include "tracenav/time.h"

static const char *const all_choices[] = { "all", NULL };

static const char *plural(size_t count)
{
	return count == 1 ? "" : "s";
}

/* Save the marks after a change (a failure is said once). */
static void save_marks(struct tn_command_context *ctx)
{
	tn_marks_service_save(&ctx->session->marks, ctx->session->trace,
		ctx->out);
}

static int exec_mark(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const struct tn_row *row = tn_cmd_current_row(ctx, "mark", err);
	size_t count;
	bool marked;

	(void) args;
	if (!row)
		return -1;
	marked = tn_marks_toggle(session->marks.set, &row->pos);
	count = tn_marks_count(session->marks.set);
	save_marks(ctx);
	if (marked)
		tn_output_message(ctx->out, "marked (%zu mark%s: u and U go "
			"from one to the next, :marks lists them)", count,
			plural(count));
	else
		tn_output_message(ctx->out, "mark removed (%zu mark%s left)",
			count, plural(count));
	return 0;
}

static int exec_unmark(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	size_t count = tn_marks_count(session->marks.set);
	const struct tn_row *row;

	if (args->argc == 1) {	/* all (the parser checked it) */
		tn_marks_clear(session->marks.set);
		save_marks(ctx);
		tn_output_message(ctx->out, "%zu mark%s removed", count,
			plural(count));
		return 0;
	}
	row = tn_cmd_current_row(ctx, "unmark", err);
	if (!row)
		return -1;
	if (!tn_marks_remove(session->marks.set, &row->pos)) {
		tn_error_set(err, "unmark: the current event is not marked "
			"(unmark all removes every mark)");
		return -1;
	}
	save_marks(ctx);
	tn_output_message(ctx->out, "mark removed (%zu mark%s left)",
		count - 1, plural(count - 1));
	return 0;
}

int tn_cmd_each_mark(struct tn_command_context *ctx, const char *activity,
		tn_cmd_mark_func fn, void *data, struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	size_t count = tn_marks_count(session->marks.set);
	struct tn_cursor *cursor;
	int status = 0;

	if (count == 0)
		return 0;
	/* A cursor of its own: the list's stays where it is. */
	if (tn_cursor_create(session->trace, NULL, &cursor, err))
		return -1;
	tn_cursor_set_index(cursor, session->indexing.index);
	for (size_t i = 0; i < count && status == 0; i++) {
		const struct tn_position *pos =
			tn_marks_get(session->marks.set, i);
		struct tn_cmd_mark_event mark = { pos, NULL, false, 0 };
		const struct tn_row *row;
		int known;

		if (tn_job_current_is_cancelled()) {
			tn_error_set(err, "cancelled");
			status = -1;
			break;
		}
		tn_job_current_set_progress(activity, (double) i /
			(double) count, i);
		if (tn_cursor_seek_position(cursor, pos, err)) {
			status = -1;
			break;
		}
		row = tn_cursor_row(cursor, 0, err);
		if (!row && err->message[0]) {
			status = -1;
			break;
		}
		if (row && tn_position_compare(&row->pos, pos) == 0) {
			known = tn_cursor_get_rank(cursor, &mark.rank, err);
			if (known < 0) {
				status = -1;
				break;
			}
			mark.has_rank = known == 1;
			/* Again: the rank may have read. */
			mark.row = tn_cursor_row(cursor, 0, err);
		}
		status = fn(&mark, data, err);
	}
	tn_cursor_destroy(cursor);
	return status;
}

/* The line of a mark in the list: its --dump line, after its event
 * number when the index knows it. */
static int list_mark(const struct tn_cmd_mark_event *mark, void *data,
		struct tn_error *err)
{
	struct tn_command_context *ctx = data;
	GString *line = g_string_new(NULL);

	(void) err;
	if (mark->has_rank)
		g_string_append_printf(line, "#%" PRIu64 " ", mark->rank + 1);
	if (mark->row) {
		struct tn_format_state state;

		tn_format_state_init(&state, ctx->session->view.gmt);
		state.has_last = mark->row->has_prev;
		state.last_ns = mark->row->prev_ns;
		tn_format_event_line(line, &mark->row->ev, &state);
	} else {
		g_string_append(line, "(no event at ");
		tn_time_format_seconds(line, mark->pos->ns);
		g_string_append_printf(line, ", tie %" PRIu64 ": the trace "
			"changed?)", mark->pos->tie);
	}
	tn_output_line(ctx->out, "marks", line->str);
	g_string_free(line, TRUE);
	return 0;
}

static int exec_marks(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	(void) args;
	if (tn_marks_count(ctx->session->marks.set) == 0) {
		tn_output_message(ctx->out, "no marks (m marks the current "
			"event)");
		return 0;
	}
	if (tn_cmd_each_mark(ctx, "listing marks", list_mark, ctx, err)) {
		char message[TN_ERROR_MAX];

		snprintf(message, sizeof(message), "%s", err->message);
		tn_error_set(err, "marks: %s", message);
		return -1;
	}
	return 0;
}

/* Go count marks forward or back from the current event, wrapping
 * around at either end. */
static int go_mark(struct tn_command_context *ctx,
		const struct tn_command_args *args, bool forward,
		struct tn_error *err)
{
	struct tn_session *session = ctx->session;
	const char *what = forward ? "next-mark" : "prev-mark";
	const struct tn_row *row = tn_cmd_current_row(ctx, what, err);
	struct tn_position pos, landed;
	bool wrapped, any_wrap = false;
	int64_t n = tn_cmd_count(args);

	if (!row)
		return -1;
	if (tn_marks_count(session->marks.set) == 0) {
		tn_error_set(err, "%s: no marks (m marks the current event)",
			what);
		return -1;
	}
	pos = row->pos;
	for (int64_t i = 0; i < n; i++) {
		long at = tn_marks_find(session->marks.set, &pos, forward, true,
			&wrapped);

		pos = *tn_marks_get(session->marks.set, (size_t) at);
		any_wrap = any_wrap || wrapped;
	}
	if (tn_cursor_seek_position(session->cursor, &pos, err))
		return -1;
	row = tn_cursor_row(session->cursor, 0, err);
	landed = row ? row->pos : pos;
	if (tn_position_compare(&landed, &pos) != 0)
		tn_output_message(ctx->out, "%s: the marked event is not in "
			"the list (filtered out, or the trace changed): at the "
			"next one", what);
	else if (any_wrap)
		tn_output_message(ctx->out, "%s: wrapped around to the %s "
			"mark", what, forward ? "first" : "last");
	return 0;
}

static int exec_next_mark(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return go_mark(ctx, args, true, err);
}

static int exec_prev_mark(struct tn_command_context *ctx,
		const struct tn_command_args *args, struct tn_error *err)
{
	return go_mark(ctx, args, false, err);
}

const struct tn_command tn_cmd_mark = {
	"mark", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"mark the current event, or unmark it if it is marked (key m)",
	TN_CMD_READS, TN_COUNT_NONE, exec_mark,
};

const struct tn_command tn_cmd_unmark = {
	"unmark", NULL, { { TN_ARG_WORD, "all", true, all_choices } },
	"unmark the current event; with all, every event",
	TN_CMD_READS, TN_COUNT_NONE, exec_unmark,
};

const struct tn_command tn_cmd_marks = {
	"marks", NULL, { { TN_ARG_NONE, NULL, false, NULL } },
	"list the marked events (event number once indexed, and the line)",
	TN_CMD_READS | TN_CMD_SHOWS_TEXT, TN_COUNT_NONE, exec_marks,
};

const struct tn_command tn_cmd_next_mark = {
	"next-mark", NULL, { { TN_ARG_COUNT, "N", true, NULL } },
	"go to the next marked event (N: the N-th), from the last to the "
	"first (key u)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_REPEAT, exec_next_mark,
};

const struct tn_command tn_cmd_prev_mark = {
	"prev-mark", NULL, { { TN_ARG_COUNT, "N", true, NULL } },
	"go to the previous marked event, from the first to the last (key U)",
	TN_CMD_JUMPS | TN_CMD_READS, TN_COUNT_REPEAT, exec_prev_mark,
};
